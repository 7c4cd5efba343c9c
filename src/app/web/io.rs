//! The page's files: what the browser gives (its file picker, files
//! dropped on the page) and what it takes (downloads). A browser reads a
//! file asynchronously, so a picked or dropped file lands in an inbox
//! that the shell empties at the next frame; the page has one thread, so
//! the inbox is thread-local.

use std::cell::RefCell;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::app::error::AppError;

/// A file the browser handed over: its name and its text (or why it
/// could not be read).
pub struct OpenedFile {
    /// The file's name (a browser tells no folder).
    pub name: String,
    /// Its contents as UTF-8 text.
    pub text: Result<String, AppError>,
}

thread_local! {
    static INBOX: RefCell<Vec<OpenedFile>> = const { RefCell::new(Vec::new()) };
    /// The app's context, woken when a file lands (the picker is opened
    /// from a menu that has no context at hand).
    static WAKE: RefCell<Option<egui::Context>> = const { RefCell::new(None) };
}

/// Remembers the context to wake when a picked or dropped file arrives.
pub fn wake_with(ctx: &egui::Context) {
    WAKE.with(|w| *w.borrow_mut() = Some(ctx.clone()));
}

/// The files read since the last call, oldest first.
pub fn take_opened() -> Vec<OpenedFile> {
    INBOX.with(|b| std::mem::take(&mut *b.borrow_mut()))
}

fn deliver(name: String, bytes: Result<Vec<u8>, AppError>) {
    let text =
        bytes.and_then(|b| String::from_utf8(b).map_err(|_| AppError::NotText(name.clone())));
    INBOX.with(|b| b.borrow_mut().push(OpenedFile { name, text }));
    WAKE.with(|w| {
        if let Some(ctx) = w.borrow().as_ref() {
            ctx.request_repaint();
        }
    });
}

fn js_error(e: &JsValue) -> AppError {
    let reason = e
        .as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|err| String::from(err.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"));
    AppError::Browser { reason }
}

/// The browser lacks `what` (an error of the page, not of the user).
fn missing(what: &'static str) -> AppError {
    AppError::PageLacks(what)
}

/// Reads a file dropped on the page into the inbox.
pub fn read_dropped(file: egui::DroppedFileHandle) {
    wasm_bindgen_futures::spawn_local(async move {
        let name = file
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "dropped file".into());
        // egui hands the browser's reason over as text.
        let bytes = file
            .bytes_async()
            .await
            .map_err(|reason| AppError::Unreadable {
                name: name.clone(),
                reason,
            });
        deliver(name, bytes);
    });
}

/// Opens the browser's file picker; the chosen file arrives in the inbox
/// (nothing does when the user cancels).
pub fn pick_file() -> Result<(), AppError> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| missing("document"))?;
    let input: web_sys::HtmlInputElement = document
        .create_element("input")
        .map_err(|e| js_error(&e))?
        .dyn_into()
        .map_err(|_| AppError::CannotMake("a file input"))?;
    input.set_type("file");
    let chosen = input.clone();
    let on_change = Closure::once_into_js(move |_: web_sys::Event| {
        let Some(file) = chosen.files().and_then(|list| list.get(0)) else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            let name = file.name();
            let bytes = match JsFuture::from(file.array_buffer()).await {
                Ok(buf) => Ok(js_sys::Uint8Array::new(&buf).to_vec()),
                Err(e) => Err(AppError::Unreadable {
                    name: name.clone(),
                    reason: js_error(&e).to_string(),
                }),
            };
            deliver(name, bytes);
        });
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    input.click();
    Ok(())
}

/// The media type a download of `name` is offered as.
fn media_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("csv") => "text/csv",
        _ => "text/plain",
    }
}

/// Hands `bytes` to the browser as a download named `name`.
pub fn download(name: &str, bytes: &[u8]) -> Result<(), AppError> {
    let window = web_sys::window().ok_or_else(|| missing("window"))?;
    let document = window.document().ok_or_else(|| missing("document"))?;
    let body = document.body().ok_or_else(|| missing("body"))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(media_type(name));
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|e| js_error(&e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| js_error(&e))?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| js_error(&e))?
        .dyn_into()
        .map_err(|_| AppError::CannotMake("a link"))?;
    link.set_href(&url);
    link.set_download(name);
    link.set_attribute("style", "display: none")
        .map_err(|e| js_error(&e))?;
    body.append_child(&link).map_err(|e| js_error(&e))?;
    link.click();
    link.remove();
    // The browser has taken the blob once the click is handled; free the
    // address a little later.
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    super::console_line(&format!("pnlab-download {name} {}", bytes.len()));
    Ok(())
}
