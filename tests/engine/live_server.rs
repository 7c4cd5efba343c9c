//! The real server on a free port, with WebSocket clients simulating a
//! class, and its HTTP side. No timing is asserted: every wait has a
//! generous limit that only turns a hang into a failure.
#![cfg(feature = "serve")]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use pnlab::live::client::LiveClient;
use pnlab::live::lessons::Catalogue;
use pnlab::live::protocol::{ClientMsg, LiveAnswer, Phase, ServerMsg};
use pnlab::live::rooms::Limits;
use pnlab::live::server::{start, RunningServer, ServeConfig};

const LESSON: &str = "lessons/02-pns-step-by-step.lesson.toml";
/// Lesson 2's third step: the most-proving node is `c h` (Hsu's slide
/// "h is a most proving node for a").
const STEP: usize = 2;
const WAIT: Duration = Duration::from_secs(60);

/// A temporary page folder with an index.html and a .wasm file.
fn dist(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pnlab-live-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("index.html"),
        "<!doctype html><title>pnlab test page</title>",
    )
    .unwrap();
    std::fs::write(d.join("pnlab_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    // Stands for the gzipped copy scripts/web.sh writes (the server
    // sends it as it is, with the encoding named).
    std::fs::write(d.join("pnlab_bg.wasm.gz"), b"gzipped module").unwrap();
    d
}

async fn server(name: &str) -> RunningServer {
    start(ServeConfig {
        bind: "127.0.0.1".parse().unwrap(),
        port: 0,
        dist: dist(name),
        catalogue: Arc::new(Catalogue::bundled()),
        limits: Limits::default(),
    })
    .await
    .unwrap()
}

/// The next message `pick` keeps (others are skipped).
async fn next<T>(c: &mut LiveClient, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> T {
    tokio::time::timeout(WAIT, async {
        loop {
            let m = c.recv().await.expect("the connection closed");
            if let Some(t) = pick(m) {
                return t;
            }
        }
    })
    .await
    .expect("no such message in time")
}

/// The teacher's share right on a reveal: (answered, right).
async fn revealed(teacher: &mut LiveClient) -> (usize, usize) {
    next(teacher, |m| match m {
        ServerMsg::Revealed {
            answered, right, ..
        } => Some((answered, right)),
        _ => None,
    })
    .await
}

async fn rejected(c: &mut LiveClient) -> String {
    next(c, |m| match m {
        ServerMsg::Rejected { reason } => Some(reason),
        _ => None,
    })
    .await
}

async fn join(
    addr: SocketAddr,
    code: &str,
    key: Option<String>,
) -> (LiveClient, String, Option<LiveAnswer>) {
    let mut c = LiveClient::connect(addr).await.unwrap();
    c.send(&ClientMsg::Join {
        code: code.into(),
        nickname: None,
        student: key,
    })
    .await
    .unwrap();
    let (key, answer) = next(&mut c, |m| match m {
        ServerMsg::Joined {
            student,
            answer,
            state,
            lesson_text,
        } => {
            assert!(lesson_text.contains("PN-search step by step"));
            assert_eq!(state.step, STEP, "joiners land on the current step");
            Some((student, answer))
        }
        _ => None,
    })
    .await;
    (c, key, answer)
}

/// A teacher opens a class on the lesson and moves it to `STEP`: the
/// teacher's connection, the class's code and the teacher token.
async fn open_class(addr: SocketAddr) -> (LiveClient, String, String) {
    let mut teacher = LiveClient::connect(addr).await.unwrap();
    teacher
        .send(&ClientMsg::Create {
            lesson: LESSON.into(),
        })
        .await
        .unwrap();
    let (code, token) = next(&mut teacher, |m| match m {
        ServerMsg::Created { state, token, .. } => Some((state.code, token)),
        _ => None,
    })
    .await;
    teacher
        .send(&ClientMsg::Goto {
            token: token.clone(),
            step: STEP,
        })
        .await
        .unwrap();
    (teacher, code, token)
}

fn node(moves: &[&str]) -> LiveAnswer {
    LiveAnswer::Node(moves.iter().map(|m| m.to_string()).collect())
}

async fn answer(c: &mut LiveClient, a: LiveAnswer) {
    c.send(&ClientMsg::Answer {
        step: STEP,
        answer: a.clone(),
    })
    .await
    .unwrap();
    let got = next(c, |m| match m {
        ServerMsg::Accepted { answer, .. } => Some(answer),
        ServerMsg::Rejected { reason } => panic!("refused: {reason}"),
        _ => None,
    })
    .await;
    assert_eq!(got, a);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_over_websockets() {
    let server = server("class").await;
    let addr = server.addr;
    let (mut teacher, code, token) = open_class(addr).await;
    next(&mut teacher, |m| match m {
        ServerMsg::State { state } if state.step == STEP => Some(()),
        _ => None,
    })
    .await;

    let (mut ana, ana_key, _) = join(addr, &code, None).await;
    let (mut ben, _, _) = join(addr, &code, None).await;
    let (mut cy, _, _) = join(addr, &code, None).await;
    let (mut dee, _, _) = join(addr, &code, None).await;
    answer(&mut ana, node(&["c", "g"])).await;
    answer(&mut ana, node(&["c", "h"])).await; // changed
    answer(&mut ben, node(&["b"])).await;
    answer(&mut cy, node(&["c", "h"])).await;
    // The teacher's histogram catches up with all three.
    let bars = next(&mut teacher, |m| match m {
        ServerMsg::Tally {
            nodes, answered: 3, ..
        } => Some(nodes),
        _ => None,
    })
    .await;
    let bars: Vec<(String, usize)> = bars.iter().map(|n| (n.path.join(" "), n.count)).collect();
    assert_eq!(bars, vec![("c h".into(), 2), ("b".into(), 1)]);

    // Ana's connection drops; she rejoins with her key and keeps her answer.
    ana.close().await;
    let (mut ana, key, kept) = join(addr, &code, Some(ana_key.clone())).await;
    assert_eq!(key, ana_key);
    assert_eq!(kept, Some(node(&["c", "h"])));

    // Bad messages: refused, the connection goes on.
    dee.send_text("{\"type\":\"answer\",").await.unwrap();
    assert!(rejected(&mut dee)
        .await
        .contains("not a live-class message"));
    dee.send_binary(vec![1, 2, 3]).await.unwrap();
    assert!(rejected(&mut dee).await.contains("binary"));
    dee.send_text(&format!(
        "{{\"type\":\"create\",\"lesson\":\"{}\"}}",
        "a".repeat(6000)
    ))
    .await
    .unwrap();
    assert!(rejected(&mut dee).await.contains("bytes"));
    dee.send(&ClientMsg::Answer {
        step: STEP,
        answer: node(&["q"]),
    })
    .await
    .unwrap();
    assert!(rejected(&mut dee).await.contains("no node"));
    dee.send(&ClientMsg::Answer {
        step: 0,
        answer: node(&["b"]),
    })
    .await
    .unwrap();
    assert!(rejected(&mut dee).await.contains("stale step"));
    // A forged teacher command: refused, the room as it was.
    dee.send(&ClientMsg::Reveal {
        token: "0".repeat(32),
    })
    .await
    .unwrap();
    assert!(rejected(&mut dee).await.contains("only the teacher"));
    let state = server.room_state(&code).unwrap();
    assert_eq!(
        (state.step, state.phase, state.answered),
        (STEP, Phase::Open, 3)
    );
    assert_eq!(state.rejected, 6);

    // Reveal: each device its own verdict; the teacher the share right.
    teacher
        .send(&ClientMsg::Reveal {
            token: token.clone(),
        })
        .await
        .unwrap();
    let verdict = |m: ServerMsg| match m {
        ServerMsg::Verdict {
            correct,
            answered,
            headline,
            explanation,
            ..
        } => {
            assert!(!explanation.is_empty());
            Some((answered, correct, headline))
        }
        _ => None,
    };
    let (a, right, head) = next(&mut ana, verdict).await;
    assert!(a && right && head.starts_with("Right"), "{head}");
    let (_, right, head) = next(&mut ben, verdict).await;
    assert!(!right && head.starts_with("Not"), "{head}");
    assert!(next(&mut cy, verdict).await.1);
    assert!(!next(&mut dee, verdict).await.0, "Dee did not answer");
    let (answered, right) = revealed(&mut teacher).await;
    assert_eq!((answered, right), (3, 2));

    // The summary as CSV, for the token only.
    let csv = http(
        addr,
        &format!("/live/summary.csv?code={code}&token={token}"),
    )
    .await;
    assert!(csv.starts_with("HTTP/1.1 200"), "{csv}");
    assert!(csv.contains("text/csv"));
    assert!(
        csv.contains("\r\n\r\nstep,prompt,answer,answered,right,most_given\n"),
        "{csv}"
    );
    // Step 1 (its question opened with the room, unanswered), then step 3.
    assert!(csv.contains("\n1,Which node will the search expand next? Click it.,node b,0,0,\n"));
    assert!(
        csv.contains(
            "\n3,Which node will the search expand next? Click it.,node c h,3,2,c h: 2; b: 1\n"
        ),
        "{csv}"
    );
    let forged = http(
        addr,
        &format!("/live/summary.csv?code={code}&token={}", "1".repeat(32)),
    )
    .await;
    assert!(forged.starts_with("HTTP/1.1 403"), "{forged}");

    // End: the teacher gets the summary, everyone the end.
    teacher.send(&ClientMsg::End { token }).await.unwrap();
    let rows = next(&mut teacher, |m| match m {
        ServerMsg::Summary { questions } => Some(questions),
        _ => None,
    })
    .await;
    assert_eq!(rows.len(), 2);
    next(&mut ben, |m| (m == ServerMsg::Ended).then_some(())).await;
    assert!(server.room_state(&code).is_none());
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_refused_and_dropped_with_the_room_intact() {
    let server = server("flood").await;
    let addr = server.addr;
    let (mut teacher, code, token) = open_class(addr).await;
    let (mut calm, _, _) = join(addr, &code, None).await;
    let (mut flood, _, _) = join(addr, &code, None).await;
    let frame = ClientMsg::Answer {
        step: STEP,
        answer: node(&["b"]),
    }
    .to_text();
    for _ in 0..1000 {
        if flood.send_text(&frame).await.is_err() {
            break;
        }
    }
    // The server closes the flooding connection. (What it said before
    // closing may be lost with the frames it never read: a socket closed
    // with unread data is reset.)
    tokio::time::timeout(WAIT, async { while flood.recv().await.is_some() {} })
        .await
        .expect("the flooding connection is closed");
    let state = server.room_state(&code).unwrap();
    assert!(state.rejected >= 50, "{}", state.rejected);
    assert_eq!((state.step, state.phase), (STEP, Phase::Open));
    // The class goes on.
    answer(&mut calm, node(&["c", "h"])).await;
    teacher.send(&ClientMsg::Reveal { token }).await.unwrap();
    let (answered, right) = revealed(&mut teacher).await;
    assert_eq!((answered, right), (2, 1));
    server.shutdown().await.unwrap();
}

/// One HTTP/1.1 GET; the whole response as text.
async fn http(addr: SocketAddr, path: &str) -> String {
    http_with(addr, path, "").await
}

/// One HTTP/1.1 GET with extra header lines (each ending in CRLF).
async fn http_with(addr: SocketAddr, path: &str, headers: &str) -> String {
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n");
    tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(WAIT)).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        String::from_utf8_lossy(&out).into_owned()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_the_lessons_over_http() {
    let server = server("http").await;
    let addr = server.addr;
    let index = http(addr, "/").await;
    assert!(index.starts_with("HTTP/1.1 200"), "{index}");
    assert!(index.contains("text/html"));
    assert!(index.ends_with("<title>pnlab test page</title>"));
    let join = http(addr, "/?join=AB3K7P").await;
    assert!(
        join.contains("pnlab test page"),
        "a join link gets the page"
    );
    let wasm = http(addr, "/pnlab_bg.wasm").await;
    assert!(wasm.contains("content-type: application/wasm"), "{wasm}");
    assert!(!wasm.contains("content-encoding"), "{wasm}");
    let gz = http_with(addr, "/pnlab_bg.wasm", "Accept-Encoding: gzip, br\r\n").await;
    assert!(gz.contains("content-type: application/wasm"), "{gz}");
    assert!(gz.contains("content-encoding: gzip"), "{gz}");
    assert!(gz.ends_with("gzipped module"), "{gz}");
    for bad in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/nothing.js",
        "/.hidden",
    ] {
        let r = http(addr, bad).await;
        assert!(
            r.starts_with("HTTP/1.1 404") || r.starts_with("HTTP/1.1 400"),
            "{bad}: {r}"
        );
    }
    let list = http(addr, "/lessons").await;
    let body = list.split("\r\n\r\n").nth(1).unwrap();
    let names: Vec<String> = serde_json::from_str(body).unwrap();
    assert_eq!(names.len(), 10, "{names:?}");
    assert!(names.contains(&LESSON.to_string()));
    let text = http(addr, &format!("/lessons/{LESSON}")).await;
    assert!(text.starts_with("HTTP/1.1 200"));
    assert!(text.contains("title = \"PN-search step by step\""));
    assert!(http(addr, "/lessons/lessons/none.lesson.toml")
        .await
        .starts_with("HTTP/1.1 404"));
    server.shutdown().await.unwrap();
}
