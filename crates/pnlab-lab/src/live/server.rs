//! `pnlab serve`'s server: the web page's files, the lessons, and the
//! live rooms' WebSocket, on axum and tokio.
//!
//! Why axum on tokio: both are maintained by the tokio project, the
//! runtime most of Rust's network code runs on; axum's WebSocket support
//! is built in (one dependency, no second HTTP stack), and it runs the
//! same on a laptop in a classroom with no internet and on a server.
//!
//! The rooms are one [`Rooms`] behind a mutex: every frame is handled
//! whole while the lock is held (microseconds: no search runs there, the
//! lessons are played once beforehand), then the answers are queued to
//! each recipient's writer task.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};

use super::error::ServerError;
use super::lessons::Catalogue;
use super::protocol::{ClientMsg, ServerMsg, MAX_MESSAGE_BYTES};
use super::room::ConnId;
use super::rooms::{Limits, Rooms};

/// The largest frame the WebSocket layer reads at all: bigger ones close
/// the connection. Frames between [`MAX_MESSAGE_BYTES`] and this are
/// read, refused and counted, so a client learns what went wrong.
pub const MAX_FRAME_READ: usize = 16 * MAX_MESSAGE_BYTES;

/// What the server serves.
#[derive(Clone)]
pub struct ServeConfig {
    /// The address to listen on (127.0.0.1: this machine only).
    pub bind: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// The web page's folder (`scripts/web.sh` builds `web/dist`).
    pub dist: PathBuf,
    /// The lessons offered.
    pub catalogue: Arc<Catalogue>,
    /// The rooms' limits.
    pub limits: Limits,
}

/// The state every request shares.
struct Shared {
    rooms: Mutex<Rooms>,
    writers: Mutex<HashMap<ConnId, mpsc::UnboundedSender<Message>>>,
    next_conn: AtomicU64,
    dist: PathBuf,
    catalogue: Arc<Catalogue>,
}

impl Shared {
    fn rooms(&self) -> MutexGuard<'_, Rooms> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn writers(&self) -> MutexGuard<'_, HashMap<ConnId, mpsc::UnboundedSender<Message>>> {
        self.writers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues each message to its recipient's connection.
    fn deliver(&self, messages: Vec<(ConnId, ServerMsg)>) {
        if messages.is_empty() {
            return;
        }
        let writers = self.writers();
        for (conn, msg) in messages {
            if let Some(w) = writers.get(&conn) {
                let _ = w.send(Message::Text(msg.to_text().into()));
            }
        }
    }
}

/// A server running in the background.
pub struct RunningServer {
    /// Where it listens (the actual port when 0 was asked for).
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    /// Room `code`'s own count of its students' memory, and its students.
    pub fn room_student_bytes(&self, code: &str) -> Option<(usize, usize)> {
        let rooms = self.shared.rooms();
        rooms
            .room(code)
            .map(|r| (r.student_bytes(), r.students.len()))
    }

    /// Every refusal so far, all rooms.
    pub fn rejected_total(&self) -> u64 {
        self.shared.rooms().rejected_total()
    }

    /// A room's state, as its members see it.
    pub fn room_state(&self, code: &str) -> Option<super::protocol::RoomState> {
        self.shared.rooms().state(code)
    }

    /// Stops taking connections, lets open requests finish, and waits.
    pub async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.task
            .await
            .map_err(|e| std::io::Error::other(e.to_string()))?
    }
}

/// Checks the page's folder: it must hold `index.html`.
pub fn check_dist(dist: &Path) -> Result<(), ServerError> {
    if dist.join("index.html").is_file() {
        Ok(())
    } else {
        Err(ServerError::NoPage {
            dist: dist.to_path_buf(),
        })
    }
}

/// Binds the address and starts serving in the background on the
/// current tokio runtime.
pub async fn start(config: ServeConfig) -> Result<RunningServer, ServerError> {
    check_dist(&config.dist)?;
    let want = SocketAddr::new(config.bind, config.port);
    let cannot_listen = |source| ServerError::Listen { addr: want, source };
    let listener = tokio::net::TcpListener::bind(want)
        .await
        .map_err(cannot_listen)?;
    let addr = listener.local_addr().map_err(cannot_listen)?;
    let shared = Arc::new(Shared {
        rooms: Mutex::new(Rooms::new(config.catalogue.clone(), config.limits)),
        writers: Mutex::new(HashMap::new()),
        next_conn: AtomicU64::new(1),
        dist: config.dist.clone(),
        catalogue: config.catalogue.clone(),
    });
    // Play every lesson once now, off the async threads, so the first
    // class on each opens at once.
    let catalogue = config.catalogue.clone();
    tokio::task::spawn_blocking(move || {
        for name in catalogue.names() {
            let _ = catalogue.played(name);
        }
    });
    tokio::spawn(expire_rooms(shared.clone(), config.limits.idle));
    let app = Router::new()
        .route("/lessons", get(lesson_list))
        .route("/lessons/{*name}", get(lesson_text))
        .route("/live", get(live))
        .route("/live/summary.csv", get(summary_csv))
        .fallback(get(static_file))
        .with_state(shared.clone());
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(RunningServer {
        addr,
        shared,
        stop: Some(stop),
        task,
    })
}

/// Forgets idle rooms, checking a few times per idle time.
async fn expire_rooms(shared: Arc<Shared>, idle: Duration) {
    let every = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(60));
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        let out = shared.rooms().expire(Instant::now());
        shared.deliver(out);
    }
}

/// `GET /lessons`: the names of the lessons offered, as JSON.
async fn lesson_list(State(s): State<Arc<Shared>>) -> Json<Vec<String>> {
    Json(s.catalogue.names().into_iter().map(String::from).collect())
}

/// `GET /lessons/NAME`: a lesson's text.
async fn lesson_text(
    State(s): State<Arc<Shared>>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Response {
    match s.catalogue.text(&name) {
        Some(t) => (
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            t.to_string(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, format!("no lesson `{name}`\n")).into_response(),
    }
}

/// The summary request's query.
#[derive(serde::Deserialize)]
struct SummaryQuery {
    code: String,
    token: String,
}

/// `GET /live/summary.csv?code=…&token=…`: a class's summary, for its teacher.
async fn summary_csv(
    State(s): State<Arc<Shared>>,
    q: Result<Query<SummaryQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(q)) = q else {
        return (StatusCode::BAD_REQUEST, "expected ?code=CODE&token=TOKEN\n").into_response();
    };
    let csv = s.rooms().summary_csv(&q.code, &q.token);
    match csv {
        Ok(csv) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"live-class-summary.csv\"",
                ),
            ],
            csv,
        )
            .into_response(),
        Err(e) => (StatusCode::FORBIDDEN, format!("{e}\n")).into_response(),
    }
}

/// `GET /live`: a WebSocket speaking the live-class protocol.
async fn live(ws: WebSocketUpgrade, State(s): State<Arc<Shared>>) -> Response {
    ws.max_message_size(MAX_FRAME_READ)
        .max_frame_size(MAX_FRAME_READ)
        .on_upgrade(move |socket| connection(socket, s))
}

/// One WebSocket connection: its frames in, its messages out.
async fn connection(socket: WebSocket, s: Arc<Shared>) {
    let id = s.next_conn.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Message>();
    s.writers().insert(id, tx.clone());
    s.rooms().connect(id, Instant::now());
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            let closing = matches!(m, Message::Close(_));
            if sink.send(m).await.is_err() || closing {
                break;
            }
        }
        let _ = sink.close().await;
    });
    while let Some(Ok(frame)) = stream.next().await {
        let outcome = match frame {
            Message::Text(text) => {
                play_before_create(&s, &text).await;
                s.rooms().receive(id, &text, Instant::now())
            }
            Message::Binary(_) => s.rooms().receive_binary(id, Instant::now()),
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Close(_) => break,
        };
        let close = outcome.close;
        s.deliver(outcome.messages);
        if close {
            let _ = tx.send(Message::Close(None));
            break;
        }
    }
    let out = s.rooms().disconnect(id);
    s.writers().remove(&id);
    drop(tx);
    s.deliver(out);
    let _ = writer.await;
}

/// A `create` for a lesson no room has played yet: play it off the
/// async threads first, so the rooms' lock is never held for a search.
async fn play_before_create(s: &Arc<Shared>, text: &str) {
    if let Ok(ClientMsg::Create { lesson }) = ClientMsg::parse(text) {
        if !s.catalogue.is_played(&lesson) && s.catalogue.text(&lesson).is_some() {
            let c = s.catalogue.clone();
            let _ = tokio::task::spawn_blocking(move || c.played(&lesson).map(|_| ())).await;
        }
    }
}

/// A file's media type by its extension.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "md" | "txt" | "toml" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file a request path names inside the page's folder, or `None`
/// for anything that could leave it (`..`, a backslash, a drive) or a
/// folder (never listed). `/` is `index.html`.
fn file_under(dist: &Path, uri_path: &str) -> Option<PathBuf> {
    let mut path = dist.to_path_buf();
    let mut any = false;
    for part in uri_path.split('/').filter(|p| !p.is_empty()) {
        if part == "." || part == ".." || part.contains(['\\', ':', '\0']) || part.starts_with('.')
        {
            return None;
        }
        path.push(part);
        any = true;
    }
    if !any {
        path.push("index.html");
    }
    // A link inside the folder must not lead out of it either.
    let root = dist.canonicalize().ok()?;
    let real = path.canonicalize().ok()?;
    (real.starts_with(&root) && real.is_file()).then_some(real)
}

/// Any other `GET`: a file of the page's folder.
async fn static_file(
    State(s): State<Arc<Shared>>,
    uri: Uri,
    headers: axum::http::HeaderMap,
) -> Response {
    let Some(path) = file_under(&s.dist, uri.path()) else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    // A class of thirty downloads the 8 MB module thirty times over the
    // classroom's Wi-Fi: `scripts/web.sh` writes a gzipped copy beside
    // it (2.7 MB), sent to every browser that accepts gzip.
    let accepts_gzip = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
    let gzipped = {
        let mut p = path.clone().into_os_string();
        p.push(".gz");
        std::path::PathBuf::from(p)
    };
    let use_gzip = accepts_gzip && gzipped.is_file();
    let read = {
        let file = if use_gzip { gzipped } else { path.clone() };
        tokio::task::spawn_blocking(move || std::fs::read(file)).await
    };
    match read {
        Ok(Ok(bytes)) if use_gzip => (
            [
                (header::CONTENT_TYPE, content_type(&path)),
                (header::CACHE_CONTROL, "no-cache"),
                (header::CONTENT_ENCODING, "gzip"),
                (header::VARY, "Accept-Encoding"),
            ],
            Body::from(bytes),
        )
            .into_response(),
        Ok(Ok(bytes)) => (
            [
                (header::CONTENT_TYPE, content_type(&path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            Body::from(bytes),
        )
            .into_response(),
        _ => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_paths_stay_inside_the_folder() {
        let dir = std::env::temp_dir().join(format!("pnlab-dist-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("sub/a.wasm"), "x").unwrap();
        let root = dir.canonicalize().unwrap();
        assert_eq!(file_under(&dir, "/"), Some(root.join("index.html")));
        assert_eq!(
            file_under(&dir, "/sub/a.wasm"),
            Some(root.join("sub/a.wasm"))
        );
        assert_eq!(file_under(&dir, "/sub"), None, "a folder is never listed");
        assert_eq!(file_under(&dir, "/../etc/passwd"), None);
        assert_eq!(file_under(&dir, "/sub/../index.html"), None);
        assert_eq!(file_under(&dir, "/..%2findex.html"), None);
        assert_eq!(file_under(&dir, "/c:\\x"), None);
        assert_eq!(content_type(Path::new("a.wasm")), "application/wasm");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
