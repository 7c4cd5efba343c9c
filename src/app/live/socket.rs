//! The live class's connection: one WebSocket to the server's `/live`,
//! polled from the window's frame like the search driver. In the page it
//! is the browser's own WebSocket; on the desktop (with the `serve`
//! feature) a small thread runs a blocking client and hands frames over
//! channels, so the window never waits on the network.

use std::collections::VecDeque;

/// What the connection reports.
#[derive(Clone, Debug, PartialEq)]
pub enum SocketEvent {
    /// Connected: the first message may go out.
    Open,
    /// A text frame from the server.
    Text(String),
    /// The connection ended (or never came up); the reason in words.
    Closed(String),
}

/// A connection to a live-class server.
pub struct LiveSocket {
    backend: backend::Backend,
    /// Frames queued before the connection opened.
    waiting: VecDeque<String>,
    open: bool,
}

/// Why the class connection did not open.
#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    /// The browser refused the address (its words: a script error holds
    /// nothing else).
    #[error("cannot connect to {url}: {reason}")]
    Connect {
        /// The address.
        url: String,
        /// The browser's reason.
        reason: String,
    },
    /// The connection's thread did not start.
    #[error("cannot start the connection thread: {0}")]
    Thread(#[source] std::io::Error),
    /// This build has no client.
    #[error("this build has no live-class client (build with the `serve` feature)")]
    NoClient,
}

impl LiveSocket {
    /// Connects to `url` (`ws://host:port/live`); `wake` asks the window
    /// for a frame when something arrives.
    pub fn connect(
        url: &str,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Result<LiveSocket, SocketError> {
        Ok(LiveSocket {
            backend: backend::Backend::connect(url, Box::new(wake))?,
            waiting: VecDeque::new(),
            open: false,
        })
    }

    /// Sends a frame now, or as soon as the connection is open.
    pub fn send(&mut self, text: String) {
        if self.open {
            self.backend.send(text);
        } else {
            self.waiting.push_back(text);
        }
    }

    /// The next event, if any.
    pub fn poll(&mut self) -> Option<SocketEvent> {
        let ev = self.backend.poll()?;
        match &ev {
            SocketEvent::Open => {
                self.open = true;
                while let Some(t) = self.waiting.pop_front() {
                    self.backend.send(t);
                }
            }
            SocketEvent::Closed(_) => self.open = false,
            SocketEvent::Text(_) => {}
        }
        Some(ev)
    }
}

/// The page's `ws://` or `wss://` address of `/live` for a page served
/// from `origin` (`http://host:port` → `ws://host:port/live`).
pub fn live_url(origin: &str) -> Option<String> {
    let rest = origin
        .strip_prefix("https://")
        .map(|r| ("wss://", r))
        .or_else(|| origin.strip_prefix("http://").map(|r| ("ws://", r)))?;
    let host = rest.1.trim_end_matches('/');
    (!host.is_empty()).then(|| format!("{}{host}/live", rest.0))
}

#[cfg(target_arch = "wasm32")]
mod backend {
    //! The browser's WebSocket; its callbacks push into a shared queue.
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::rc::Rc;

    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;

    use super::{SocketError, SocketEvent};

    type Queue = Rc<RefCell<VecDeque<SocketEvent>>>;

    pub struct Backend {
        ws: web_sys::WebSocket,
        queue: Queue,
        // Kept alive as long as the socket: the browser calls them.
        _callbacks: Vec<Closure<dyn FnMut(web_sys::Event)>>,
    }

    impl Backend {
        pub fn connect(
            url: &str,
            wake: Box<dyn Fn() + Send + Sync>,
        ) -> Result<Backend, SocketError> {
            let ws = web_sys::WebSocket::new(url).map_err(|e| SocketError::Connect {
                url: url.to_string(),
                reason: format!("{e:?}"),
            })?;
            let queue: Queue = Rc::default();
            let wake: Rc<dyn Fn()> = Rc::from(wake as Box<dyn Fn()>);
            let on = |f: Box<dyn Fn(web_sys::Event) -> Option<SocketEvent>>| {
                let q = queue.clone();
                let w = wake.clone();
                Closure::wrap(Box::new(move |e: web_sys::Event| {
                    if let Some(ev) = f(e) {
                        q.borrow_mut().push_back(ev);
                        w();
                    }
                }) as Box<dyn FnMut(web_sys::Event)>)
            };
            let open = on(Box::new(|_| Some(SocketEvent::Open)));
            let message = on(Box::new(|e| {
                let m = e.dyn_into::<web_sys::MessageEvent>().ok()?;
                m.data().as_string().map(SocketEvent::Text)
            }));
            let close = on(Box::new(|e| {
                let reason = e
                    .dyn_into::<web_sys::CloseEvent>()
                    .ok()
                    .map(|c| c.reason())
                    .filter(|r| !r.is_empty())
                    .unwrap_or_else(|| "the connection to the class closed".into());
                Some(SocketEvent::Closed(reason))
            }));
            ws.set_onopen(Some(open.as_ref().unchecked_ref()));
            ws.set_onmessage(Some(message.as_ref().unchecked_ref()));
            ws.set_onclose(Some(close.as_ref().unchecked_ref()));
            Ok(Backend {
                ws,
                queue,
                _callbacks: vec![open, message, close],
            })
        }

        pub fn send(&mut self, text: String) {
            let _ = self.ws.send_with_str(&text);
        }

        pub fn poll(&mut self) -> Option<SocketEvent> {
            self.queue.borrow_mut().pop_front()
        }
    }

    impl Drop for Backend {
        fn drop(&mut self) {
            self.ws.set_onopen(None);
            self.ws.set_onmessage(None);
            self.ws.set_onclose(None);
            let _ = self.ws.close();
        }
    }
}

#[cfg(all(not(target_arch = "wasm32"), feature = "serve"))]
mod backend {
    //! A blocking client on its own thread (the server's WebSocket
    //! library), reading with a short timeout so it can also send.
    use std::net::TcpStream;
    use std::time::Duration;

    use crossbeam_channel::{unbounded, Receiver, Sender, TryRecvError};
    use tokio_tungstenite::tungstenite::stream::MaybeTlsStream;
    use tokio_tungstenite::tungstenite::{self, Message};

    use super::{SocketError, SocketEvent};

    pub struct Backend {
        to_server: Sender<String>,
        from_server: Receiver<SocketEvent>,
    }

    fn set_timeout(ws: &tungstenite::WebSocket<MaybeTlsStream<TcpStream>>) {
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            let _ = s.set_read_timeout(Some(Duration::from_millis(20)));
        }
    }

    impl Backend {
        pub fn connect(
            url: &str,
            wake: Box<dyn Fn() + Send + Sync>,
        ) -> Result<Backend, SocketError> {
            let (to_server, outgoing) = unbounded::<String>();
            let (incoming, from_server) = unbounded::<SocketEvent>();
            let url = url.to_string();
            std::thread::Builder::new()
                .name("pnlab-live".into())
                .spawn(move || {
                    let say = |ev| {
                        let _ = incoming.send(ev);
                        wake();
                    };
                    let mut ws = match tungstenite::connect(url.as_str()) {
                        Ok((ws, _)) => ws,
                        Err(e) => {
                            return say(SocketEvent::Closed(format!(
                                "cannot connect to {url}: {e}"
                            )))
                        }
                    };
                    set_timeout(&ws);
                    say(SocketEvent::Open);
                    loop {
                        loop {
                            match outgoing.try_recv() {
                                Ok(t) => {
                                    if let Err(e) = ws.send(Message::text(t)) {
                                        return say(SocketEvent::Closed(e.to_string()));
                                    }
                                }
                                Err(TryRecvError::Empty) => break,
                                Err(TryRecvError::Disconnected) => {
                                    let _ = ws.close(None);
                                    return;
                                }
                            }
                        }
                        match ws.read() {
                            Ok(Message::Text(t)) => say(SocketEvent::Text(t.to_string())),
                            Ok(Message::Close(_)) => {
                                return say(SocketEvent::Closed(
                                    "the server closed the class".into(),
                                ))
                            }
                            Ok(_) => {}
                            Err(tungstenite::Error::Io(e))
                                if matches!(
                                    e.kind(),
                                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                                ) => {}
                            Err(e) => return say(SocketEvent::Closed(e.to_string())),
                        }
                    }
                })
                .map_err(SocketError::Thread)?;
            Ok(Backend {
                to_server,
                from_server,
            })
        }

        pub fn send(&mut self, text: String) {
            let _ = self.to_server.send(text);
        }

        pub fn poll(&mut self) -> Option<SocketEvent> {
            self.from_server.try_recv().ok()
        }
    }
}

#[cfg(all(not(target_arch = "wasm32"), not(feature = "serve")))]
mod backend {
    //! A desktop build without the `serve` feature has no client.
    use super::{SocketError, SocketEvent};

    pub struct Backend;

    impl Backend {
        pub fn connect(_: &str, _: Box<dyn Fn() + Send + Sync>) -> Result<Backend, SocketError> {
            Err(SocketError::NoClient)
        }

        pub fn send(&mut self, _: String) {}

        pub fn poll(&mut self) -> Option<SocketEvent> {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::live_url;

    #[test]
    fn the_live_address_follows_the_page_s_scheme_and_host() {
        assert_eq!(
            live_url("http://192.168.1.20:8080").as_deref(),
            Some("ws://192.168.1.20:8080/live")
        );
        assert_eq!(
            live_url("https://class.school.org/").as_deref(),
            Some("wss://class.school.org/live")
        );
        assert_eq!(live_url("file://x"), None);
        assert_eq!(live_url("http://"), None);
    }
}
