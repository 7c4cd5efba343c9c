//! A fuzz of the live-class message reader and rooms: thousands of
//! seeded frames, well-formed, mutated and random, from a teacher,
//! students and strangers. After every frame: nothing panicked, the
//! rooms' invariants hold, a frame that does not parse was refused and
//! counted, and a refused frame changed no room (only its count).
#![cfg(feature = "serve")]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::live::lessons::Catalogue;
use pnlab::live::protocol::{ClientMsg, LiveAnswer, RoomState, ServerMsg};
use pnlab::live::room::ConnId;
use pnlab::live::rooms::{Limits, Rooms};

const LESSONS: &[&str] = &[
    "lessons/01-and-or-trees.lesson.toml",
    "lessons/02-pns-step-by-step.lesson.toml",
    "lessons/nope.lesson.toml",
];
const MOVES: &[&str] = &["b", "c", "d", "e", "f", "g", "h", "z", ""];
const VALUES: &[&str] = &[
    "1", "2", "3", "inf", "∞", "-1", "0.5", "x", "", " 7 ", "1e400",
];

/// What the fuzz knows so far: codes and tokens it has seen.
#[derive(Default)]
struct Seen {
    codes: Vec<String>,
    tokens: Vec<String>,
    keys: Vec<String>,
}

fn pick<'a, T>(rng: &mut SmallRng, xs: &'a [T]) -> Option<&'a T> {
    (!xs.is_empty()).then(|| &xs[rng.random_range(0..xs.len())])
}

fn token(rng: &mut SmallRng, seen: &Seen) -> String {
    match rng.random_range(0..4) {
        0 | 1 => pick(rng, &seen.tokens).cloned().unwrap_or_default(),
        2 => "0".repeat(32),
        _ => String::new(),
    }
}

fn code(rng: &mut SmallRng, seen: &Seen) -> String {
    match rng.random_range(0..5) {
        0..=2 => pick(rng, &seen.codes).cloned().unwrap_or_default(),
        3 => "AAAAAA".into(),
        _ => pick(rng, &seen.codes)
            .map(|c| c.to_lowercase())
            .unwrap_or_default(),
    }
}

/// A well-formed message with random (often wrong) contents.
fn message(rng: &mut SmallRng, seen: &Seen) -> ClientMsg {
    let step = rng.random_range(0..12);
    match rng.random_range(0..9) {
        0 => ClientMsg::Create {
            lesson: pick(rng, LESSONS).unwrap().to_string(),
        },
        1 => ClientMsg::Resume {
            code: code(rng, seen),
            token: token(rng, seen),
        },
        2 => ClientMsg::Join {
            code: code(rng, seen),
            nickname: match rng.random_range(0..4) {
                0 => Some("Ada".into()),
                1 => Some("x".repeat(rng.random_range(20..30))),
                2 => Some("a\nb".into()),
                _ => None,
            },
            student: if rng.random_bool(0.5) {
                pick(rng, &seen.keys).cloned()
            } else {
                None
            },
        },
        3 | 4 => ClientMsg::Answer {
            step,
            answer: if rng.random_bool(0.5) {
                let n = rng.random_range(0..3);
                LiveAnswer::Node(
                    (0..n)
                        .map(|_| pick(rng, MOVES).unwrap().to_string())
                        .collect(),
                )
            } else {
                LiveAnswer::Value(pick(rng, VALUES).unwrap().to_string())
            },
        },
        5 => ClientMsg::Goto {
            token: token(rng, seen),
            step,
        },
        6 => ClientMsg::Close {
            token: token(rng, seen),
        },
        7 => ClientMsg::Reveal {
            token: token(rng, seen),
        },
        _ => ClientMsg::End {
            token: token(rng, seen),
        },
    }
}

/// A frame: a message as written, mutated, or noise.
fn frame(rng: &mut SmallRng, seen: &Seen) -> String {
    let text = message(rng, seen).to_text();
    match rng.random_range(0..10) {
        0..=4 => text,
        5 => {
            // Flip, drop or insert a few characters.
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..chars.len().max(1));
                match rng.random_range(0..3) {
                    0 if i < chars.len() => {
                        chars.remove(i);
                    }
                    1 => chars.insert(
                        i.min(chars.len()),
                        *pick(rng, &['"', '{', '}', ',', ':', '\\', '0', 'é', '\u{0}']).unwrap(),
                    ),
                    _ if i < chars.len() => chars[i] = (b' ' + rng.random_range(0..95u8)) as char,
                    _ => {}
                }
            }
            chars.into_iter().collect()
        }
        6 => text[..rng.random_range(0..text.len())].to_string(),
        7 => text.replacen('}', ",\"extra\":1}", 1),
        8 => {
            // Numbers and types out of range.
            text.replace(&format!("\"step\":{}", 0), "\"step\":-1")
                .replace("\"answer\":{", "\"answer\":{\"both\":1,")
        }
        _ => {
            let n = rng.random_range(0..6000);
            (0..n)
                .map(|_| (b' ' + rng.random_range(0..95u8)) as char)
                .collect()
        }
    }
}

/// The rooms' states with their refusal counts left out.
fn states(rooms: &Rooms, codes: &[String]) -> BTreeMap<String, RoomState> {
    codes
        .iter()
        .filter_map(|c| {
            rooms.state(c).map(|mut s| {
                s.rejected = 0;
                (c.clone(), s)
            })
        })
        .collect()
}

#[test]
fn seeded_frames_never_break_the_rooms() {
    let catalogue = Arc::new(Catalogue::bundled());
    let mut parsed_bad = 0;
    let mut refused = 0;
    for seed in 0..4u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut rooms = Rooms::with_rng(
            catalogue.clone(),
            Limits {
                max_rooms: 3,
                max_students: 4,
                idle: Duration::from_secs(3600),
                ..Limits::default()
            },
            Box::new(SmallRng::seed_from_u64(seed + 100)),
        );
        let mut seen = Seen::default();
        let mut now = Instant::now();
        for _ in 0..1500 {
            // Slower than the rate limit, so every refusal is answered.
            now += Duration::from_millis(150);
            let conn: ConnId = rng.random_range(1..8);
            if rng.random_range(0..50) == 0 {
                rooms.disconnect(conn);
                rooms.check_invariants().unwrap();
                continue;
            }
            let text = frame(&mut rng, &seen);
            let before_total = rooms.rejected_total();
            let before = states(&rooms, &seen.codes);
            let out = rooms.receive(conn, &text, now);
            rooms
                .check_invariants()
                .unwrap_or_else(|e| panic!("after {text:?}: {e}"));
            assert!(!out.close, "a calm connection is never dropped");
            let rejections = out
                .messages
                .iter()
                .filter(|(c, m)| *c == conn && matches!(m, ServerMsg::Rejected { .. }))
                .count();
            let counted = rooms.rejected_total() - before_total;
            assert_eq!(counted, rejections as u64, "{text:?} -> {:?}", out.messages);
            if ClientMsg::parse(&text).is_err() {
                parsed_bad += 1;
                assert_eq!(rejections, 1, "a bad frame is refused: {text:?}");
            }
            if rejections == 1 {
                refused += 1;
                assert_eq!(out.messages.len(), 1, "a refusal tells only the sender");
                assert_eq!(
                    states(&rooms, &seen.codes),
                    before,
                    "refused {text:?} changed a room"
                );
            }
            for (_, m) in out.messages {
                match m {
                    ServerMsg::Created { state, token, .. } => {
                        seen.codes.push(state.code);
                        seen.tokens.push(token);
                    }
                    ServerMsg::Joined { student, .. } => seen.keys.push(student),
                    _ => {}
                }
            }
        }
    }
    // The fuzz reached both kinds of frames in numbers.
    assert!(parsed_bad > 1000, "{parsed_bad} unparseable frames");
    assert!(refused > parsed_bad + 500, "{refused} refusals");
}
