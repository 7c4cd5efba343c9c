//! The live-class load bench (`pnlab bench --suite live-class`): a server
//! in this process on a free port, one teacher and N simulated students
//! (tokio tasks, each with its own WebSocket). Every student joins, then
//! all answer one value question at once; each answer is a different
//! number, so the teacher's histogram names exactly whose answers it
//! includes, and the latency of an answer is from its student's send to
//! the teacher receiving the first histogram with it (a histogram of up
//! to N bars: the largest the teacher can get).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Barrier, Semaphore};
use tokio::task::JoinSet;

use super::client::LiveClient;
use super::error::LoadError;
use super::lessons::Catalogue;
use super::protocol::{ClientMsg, LiveAnswer, ServerMsg};
use super::rooms::Limits;
use super::server::{start, ServeConfig};
use crate::lesson::AskKind;

/// The lesson the bench teaches (its first value question is asked).
pub const LESSON: &str = "lessons/01-and-or-trees.lesson.toml";

/// The bench's figures.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LoadReport {
    /// Students simulated.
    pub students: usize,
    /// Median time from a student's answer to the teacher's histogram with it (ms).
    pub p50_ms: f64,
    /// Its 99th percentile (ms).
    pub p99_ms: f64,
    /// The slowest (ms).
    pub max_ms: f64,
    /// The process's resident memory grown per joined student (bytes):
    /// server and simulated clients together, so an upper bound on the
    /// server's.
    pub bytes_per_student: u64,
    /// The room's own count of its students' records (bytes per student).
    pub room_bytes_per_student: u64,
    /// Text bytes over the WebSockets per student, both ways, the
    /// teacher's share included (the lesson's text, sent once to each
    /// device, is most of it).
    pub wire_bytes_per_student: u64,
}

/// Resident memory of this process (bytes), from `/proc/self/statm`.
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Raises the open-files limit to its hard limit: each student is two
/// sockets in this process (client and server side).
fn raise_open_files() {
    // SAFETY: getrlimit/setrlimit read and write a plain struct we own.
    unsafe {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < l.rlim_max {
            l.rlim_cur = l.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
        }
    }
}

/// The nearest-rank percentile of sorted values.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Waits for the next message that `pick` keeps, within `limit`.
async fn expect<T>(
    c: &mut LiveClient,
    limit: Duration,
    what: &'static str,
    mut pick: impl FnMut(ServerMsg) -> Option<T>,
) -> Result<T, LoadError> {
    tokio::time::timeout(limit, async {
        loop {
            match c.recv().await {
                None => return Err(LoadError::Closed { what }),
                Some(m) => {
                    if let Some(t) = pick(m) {
                        return Ok(t);
                    }
                }
            }
        }
    })
    .await
    .map_err(|_| LoadError::Timeout { what, limit })?
}

/// Runs the bench with `students` students (a runtime of its own).
pub fn run(students: usize) -> Result<LoadReport, LoadError> {
    raise_open_files();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(LoadError::Runtime)?;
    runtime.block_on(run_async(students))
}

/// How long the bench waits for any one message.
const WAIT: Duration = Duration::from_secs(120);

async fn run_async(n: usize) -> Result<LoadReport, LoadError> {
    let dist = bench_dist()?;
    let catalogue = Arc::new(Catalogue::bundled());
    let step = value_step(&catalogue)?;
    let server = start(ServeConfig {
        bind: "127.0.0.1".parse().expect("an address"),
        port: 0,
        dist: dist.clone(),
        catalogue,
        limits: Limits {
            max_students: n.max(1),
            ..Limits::default()
        },
    })
    .await?;
    let addr = server.addr;
    let (mut teacher, code) = open_room(addr, step).await?;
    let rss_before = rss_bytes();
    let clients = join_all(addr, &code, n).await?;
    let (latency_ns, clients) = answer_all(&mut teacher, clients, step).await?;
    let rss_after = rss_bytes();
    let (room_bytes, in_room) = server
        .room_student_bytes(&code)
        .ok_or(LoadError::RoomGone)?;
    let wire: u64 = clients
        .iter()
        .map(|c| c.sent_bytes + c.received_bytes)
        .sum::<u64>()
        + teacher.sent_bytes
        + teacher.received_bytes;
    for c in clients {
        c.close().await;
    }
    teacher.close().await;
    let _ = server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dist);

    let mut ms: Vec<f64> = latency_ns
        .into_iter()
        .map(|l| l.unwrap_or(0) as f64 / 1e6)
        .collect();
    ms.sort_by(f64::total_cmp);
    let per = |total: u64| total / n.max(1) as u64;
    Ok(LoadReport {
        students: n,
        p50_ms: percentile(&ms, 50.0),
        p99_ms: percentile(&ms, 99.0),
        max_ms: ms.last().copied().unwrap_or(f64::NAN),
        bytes_per_student: per(rss_after
            .zip(rss_before)
            .map_or(0, |(a, b)| a.saturating_sub(b))),
        room_bytes_per_student: (room_bytes / in_room.max(1)) as u64,
        wire_bytes_per_student: per(wire),
    })
}

/// A directory of its own for the server's web page (a stub: the bench
/// speaks only the WebSocket).
fn bench_dist() -> Result<std::path::PathBuf, LoadError> {
    let dist = std::env::temp_dir().join(format!("pnlab-live-bench-{}", std::process::id()));
    pnlab_core::files::write_atomic(
        &dist.join("index.html"),
        b"<!doctype html><title>bench</title>",
    )?;
    Ok(dist)
}

/// The first step of the bench's lesson that asks a value question (the
/// students type their answers).
fn value_step(catalogue: &Catalogue) -> Result<usize, LoadError> {
    let played = catalogue.played(LESSON)?;
    played
        .questions
        .iter()
        .position(|q| {
            q.as_ref()
                .is_some_and(|q| q.question.kind == AskKind::Value)
        })
        .ok_or(LoadError::NoValueQuestion { lesson: LESSON })
}

/// The teacher opens a room on the lesson and goes to `step`: the
/// teacher's connection and the room's code.
async fn open_room(addr: SocketAddr, step: usize) -> Result<(LiveClient, String), LoadError> {
    let mut teacher = LiveClient::connect(addr).await?;
    teacher
        .send(&ClientMsg::Create {
            lesson: LESSON.into(),
        })
        .await?;
    let (code, token) = expect(&mut teacher, WAIT, "Created", |m| match m {
        ServerMsg::Created { state, token, .. } => Some((state.code, token)),
        _ => None,
    })
    .await?;
    teacher
        .send(&ClientMsg::Goto {
            token: token.clone(),
            step,
        })
        .await?;
    Ok((teacher, code))
}

/// Everyone joins room `code` (50 handshakes at a time): student i's
/// connection at index i.
async fn join_all(
    addr: SocketAddr,
    code: &str,
    n: usize,
) -> Result<Vec<Option<LiveClient>>, LoadError> {
    let gate = Arc::new(Semaphore::new(50));
    let mut joins = JoinSet::new();
    for i in 0..n {
        let (gate, code) = (gate.clone(), code.to_string());
        joins.spawn(async move {
            let permit = gate.acquire_owned().await?;
            let mut c = LiveClient::connect(addr).await?;
            c.send(&ClientMsg::Join {
                code,
                nickname: None,
                student: None,
            })
            .await?;
            expect(&mut c, WAIT, "Joined", |m| {
                matches!(m, ServerMsg::Joined { .. }).then_some(())
            })
            .await?;
            drop(permit);
            Ok::<_, LoadError>((i, c))
        });
    }
    let mut clients: Vec<Option<LiveClient>> = (0..n).map(|_| None).collect();
    while let Some(r) = joins.join_next().await {
        let (i, c) = r??;
        clients[i] = Some(c);
    }
    Ok(clients)
}

/// All answer at once; student i types the number i. Each student's
/// latency is from sending to the teacher's histogram counting it.
/// Returns the latencies (nanoseconds) and the students' connections.
async fn answer_all(
    teacher: &mut LiveClient,
    clients: Vec<Option<LiveClient>>,
    step: usize,
) -> Result<(Vec<Option<u64>>, Vec<LiveClient>), LoadError> {
    let n = clients.len();
    let t0 = Instant::now();
    let sent_at: Arc<Vec<AtomicU64>> = Arc::new((0..n).map(|_| AtomicU64::new(0)).collect());
    let go = Arc::new(Barrier::new(n + 1));
    let mut answers = JoinSet::new();
    for (i, c) in clients.into_iter().enumerate() {
        let mut c = c.ok_or(LoadError::StudentMissing)?;
        let (go, sent_at) = (go.clone(), sent_at.clone());
        answers.spawn(async move {
            go.wait().await;
            sent_at[i].store(t0.elapsed().as_nanos() as u64, Ordering::Release);
            c.send(&ClientMsg::Answer {
                step,
                answer: LiveAnswer::Value(i.to_string()),
            })
            .await?;
            expect(&mut c, WAIT, "Accepted", |m| {
                matches!(m, ServerMsg::Accepted { .. }).then_some(())
            })
            .await?;
            Ok::<_, LoadError>(c)
        });
    }
    go.wait().await;
    let latency_ns = tally_latencies(teacher, t0, &sent_at).await?;
    let mut clients = Vec::with_capacity(n);
    while let Some(r) = answers.join_next().await {
        clients.push(r??);
    }
    Ok((latency_ns, clients))
}

/// Reads the teacher's histograms until every student's answer is
/// counted: each student's latency from `sent_at` (nanoseconds after
/// `t0`).
async fn tally_latencies(
    teacher: &mut LiveClient,
    t0: Instant,
    sent_at: &[AtomicU64],
) -> Result<Vec<Option<u64>>, LoadError> {
    let n = sent_at.len();
    let mut latency_ns: Vec<Option<u64>> = vec![None; n];
    let mut seen = 0;
    while seen < n {
        let values = expect(teacher, WAIT, "the histogram", |m| match m {
            ServerMsg::Tally { values, .. } => Some(values),
            _ => None,
        })
        .await?;
        let now = t0.elapsed().as_nanos() as u64;
        for v in values {
            let Ok(i) = v.value.parse::<usize>() else {
                continue;
            };
            if i < n && latency_ns[i].is_none() {
                let sent = sent_at[i].load(Ordering::Acquire);
                latency_ns[i] = Some(now.saturating_sub(sent));
                seen += 1;
            }
        }
    }
    Ok(latency_ns)
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 50.0);
        assert_eq!(percentile(&v, 99.0), 99.0);
        assert_eq!(percentile(&v, 100.0), 100.0);
        assert_eq!(percentile(&[7.0], 99.0), 7.0);
    }
}
