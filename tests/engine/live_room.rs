//! The live rooms as a state machine (no network): a class through a
//! question, and everything the server must refuse.
//!
//! The right answers come from the lessons' own sources, not from the
//! engine: lesson 2's step 3 is Hsu's slide "h is a most proving node
//! for a" (node `c h`); lesson 1's first step asks pn of a lone unknown
//! leaf (1, by definition), its second dn of an OR root with three
//! unknown children (1 + 1 + 1 = 3).
#![cfg(feature = "serve")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;

use pnlab::live::lessons::Catalogue;
use pnlab::live::protocol::{ClientMsg, LiveAnswer, Phase, ServerMsg};
use pnlab::live::rate::RateLimit;
use pnlab::live::room::ConnId;
use pnlab::live::rooms::{Limits, Outcome, Rooms};

const PNS_LESSON: &str = "lessons/02-pns-step-by-step.lesson.toml";
const VALUE_LESSON: &str = "lessons/01-and-or-trees.lesson.toml";
/// Lesson 2's third step (0-based 2): which node is most-proving?
const MPN_STEP: usize = 2;

fn rooms(max_students: usize) -> Rooms {
    Rooms::with_rng(
        Arc::new(Catalogue::bundled()),
        Limits {
            max_students,
            max_rooms: 4,
            idle: Duration::from_secs(600),
            rate: RateLimit::default(),
        },
        Box::new(SmallRng::seed_from_u64(39)),
    )
}

/// A class at one instant, with the clock moving 1 s per message so the
/// rate limit never bites unless a test means it to.
struct Class {
    rooms: Rooms,
    now: Instant,
}

impl Class {
    fn new(max_students: usize) -> Class {
        Class {
            rooms: rooms(max_students),
            now: Instant::now(),
        }
    }

    fn send(&mut self, conn: ConnId, msg: ClientMsg) -> Vec<(ConnId, ServerMsg)> {
        self.now += Duration::from_secs(1);
        let o = self.rooms.receive(conn, &msg.to_text(), self.now);
        self.rooms.check_invariants().unwrap();
        o.messages
    }

    /// Creates a room on `lesson` from connection 1; its code and token.
    /// A class of at most 30 on the PNS lesson, at its most-proving-node
    /// question (step `MPN_STEP`): the class, its join code and the
    /// teacher's token.
    fn at_the_mpn_step() -> (Class, String, String) {
        let mut c = Class::new(30);
        let (code, token) = c.create(PNS_LESSON);
        c.goto(&token, MPN_STEP);
        (c, code, token)
    }

    fn create(&mut self, lesson: &str) -> (String, String) {
        let out = self.send(
            1,
            ClientMsg::Create {
                lesson: lesson.into(),
            },
        );
        match &out[..] {
            [(1, ServerMsg::Created { state, token, .. })] => (state.code.clone(), token.clone()),
            other => panic!("expected Created, got {other:?}"),
        }
    }

    /// The teacher (connection 1) moves the class to `step`.
    fn goto(&mut self, token: &str, step: usize) -> Vec<(ConnId, ServerMsg)> {
        self.send(
            1,
            ClientMsg::Goto {
                token: token.to_string(),
                step,
            },
        )
    }

    /// Joins `conn` to `code`; the student key.
    fn join(&mut self, conn: ConnId, code: &str) -> String {
        let out = self.send(
            conn,
            ClientMsg::Join {
                code: code.to_lowercase(),
                nickname: None,
                student: None,
            },
        );
        match out.iter().find(|(c, _)| *c == conn) {
            Some((_, ServerMsg::Joined { student, .. })) => student.clone(),
            other => panic!("expected Joined, got {other:?}"),
        }
    }
}

fn node(moves: &[&str]) -> LiveAnswer {
    LiveAnswer::Node(moves.iter().map(|m| m.to_string()).collect())
}

fn rejected_reason(out: &[(ConnId, ServerMsg)], conn: ConnId) -> String {
    match out {
        [(c, ServerMsg::Rejected { reason })] if *c == conn => reason.clone(),
        other => panic!("expected one Rejected to {conn}, got {other:?}"),
    }
}

fn answer(c: &mut Class, conn: ConnId, step: usize, a: LiveAnswer) -> Vec<(ConnId, ServerMsg)> {
    c.send(conn, ClientMsg::Answer { step, answer: a })
}

#[test]
fn a_class_answers_changes_and_sees_the_engines_verdict() {
    let (mut c, code, token) = Class::at_the_mpn_step();
    for s in [10, 11, 12] {
        c.join(s, &code);
    }
    // Student 10 first picks g, then changes to h; 11 picks b; 12 picks h.
    let out = answer(&mut c, 10, MPN_STEP, node(&["c", "g"]));
    assert!(matches!(out[0], (10, ServerMsg::Accepted { .. })));
    answer(&mut c, 10, MPN_STEP, node(&["c", "h"]));
    answer(&mut c, 11, MPN_STEP, node(&["b"]));
    let out = answer(&mut c, 12, MPN_STEP, node(&["c", "h"]));
    let Some((
        1,
        ServerMsg::Tally {
            nodes,
            answered,
            joined,
            ..
        },
    )) = out.iter().find(|(c, _)| *c == 1)
    else {
        panic!("the teacher gets the histogram: {out:?}");
    };
    assert_eq!((*answered, *joined), (3, 3));
    let bars: Vec<(String, usize)> = nodes.iter().map(|n| (n.path.join(" "), n.count)).collect();
    assert_eq!(bars, vec![("c h".to_string(), 2), ("b".to_string(), 1)]);

    // Closed: no more answers.
    let out = c.send(
        1,
        ClientMsg::Close {
            token: token.clone(),
        },
    );
    assert!(out
        .iter()
        .all(|(_, m)| matches!(m, ServerMsg::State { state } if state.phase == Phase::Closed)));
    assert_eq!(out.len(), 4, "the teacher and three students see the phase");
    let out = answer(&mut c, 11, MPN_STEP, node(&["c", "h"]));
    assert!(rejected_reason(&out, 11).contains("closed"));

    // Reveal: each student their own verdict, the teacher the share right.
    let out = c.send(1, ClientMsg::Reveal { token });
    let verdict = |s: ConnId| {
        out.iter()
            .find_map(|(c, m)| match m {
                ServerMsg::Verdict {
                    correct,
                    headline,
                    explanation,
                    ..
                } if *c == s => Some((*correct, headline.clone(), explanation.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no verdict for {s}: {out:?}"))
    };
    let (right10, head10, why10) = verdict(10);
    assert!(right10 && head10.starts_with("Right"), "{head10}");
    assert!(!why10.is_empty(), "the engine's reason comes with it");
    let (right11, head11, _) = verdict(11);
    assert!(!right11 && head11.starts_with("Not"), "{head11}");
    assert!(verdict(12).0);
    assert!(out.iter().any(|(c, m)| *c == 1
        && matches!(m, ServerMsg::Revealed { answered: 3, right: 2, answer, .. } if answer.contains("c h"))));
    assert_eq!(c.rooms.state(&code).unwrap().phase, Phase::Revealed);
}

#[test]
fn value_questions_take_numbers_merge_equal_ones_and_refuse_the_rest() {
    let mut c = Class::new(30);
    let (code, token) = c.create(VALUE_LESSON);
    for s in [10, 11, 12, 13] {
        c.join(s, &code);
    }
    // Step 1: pn of a lone unknown leaf is 1.
    answer(&mut c, 10, 0, LiveAnswer::Value("1".into()));
    answer(&mut c, 11, 0, LiveAnswer::Value(" 1.0 ".into()));
    let out = answer(&mut c, 12, 0, LiveAnswer::Value("inf".into()));
    let Some((_, ServerMsg::Tally { values, .. })) = out.iter().find(|(c, _)| *c == 1) else {
        panic!("{out:?}")
    };
    let bars: Vec<(&str, usize)> = values.iter().map(|v| (v.value.as_str(), v.count)).collect();
    assert_eq!(bars, vec![("1", 2), ("inf", 1)]);
    let out = answer(&mut c, 13, 0, LiveAnswer::Value("two".into()));
    assert!(rejected_reason(&out, 13).contains("not a number"));
    let out = answer(&mut c, 13, 0, node(&[]));
    assert!(rejected_reason(&out, 13).contains("wants a value"));
    let out = c.send(
        1,
        ClientMsg::Reveal {
            token: token.clone(),
        },
    );
    let correct: Vec<(ConnId, bool, bool)> = out
        .iter()
        .filter_map(|(c, m)| match m {
            ServerMsg::Verdict {
                correct, answered, ..
            } => Some((*c, *correct, *answered)),
            _ => None,
        })
        .collect();
    let mut correct = correct;
    correct.sort();
    assert_eq!(
        correct,
        vec![
            (10, true, true),
            (11, true, true),
            (12, false, true),
            (13, false, false)
        ]
    );
    // Step 2: dn of an OR root over three unknown children is 3.
    c.goto(&token, 1);
    answer(&mut c, 10, 1, LiveAnswer::Value("3".into()));
    answer(&mut c, 11, 1, LiveAnswer::Value("1".into()));
    let out = c.send(1, ClientMsg::Reveal { token });
    assert!(out.iter().any(|(c, m)| *c == 1
        && matches!(m, ServerMsg::Revealed { answered: 2, right: 1, answer, .. } if answer == "3")));
}

#[test]
fn a_dropped_student_rejoins_with_their_answer_and_late_joiners_land_on_the_step() {
    let (mut c, code, token) = Class::at_the_mpn_step();
    let key = c.join(10, &code);
    answer(&mut c, 10, MPN_STEP, node(&["c", "h"]));
    let out = c.rooms.disconnect(10);
    assert!(
        matches!(&out[..], [(1, ServerMsg::State { state })] if state.joined == 0 && state.answered == 1)
    );
    let out = c.send(
        20,
        ClientMsg::Join {
            code: code.clone(),
            nickname: Some(" Ada ".into()),
            student: Some(key.clone()),
        },
    );
    match &out[0] {
        (
            20,
            ServerMsg::Joined {
                state,
                student,
                answer,
                ..
            },
        ) => {
            assert_eq!(student, &key);
            assert_eq!(answer, &Some(node(&["c", "h"])));
            assert_eq!(state.step, MPN_STEP);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        c.rooms.room(&code).unwrap().students[&key]
            .nickname
            .as_deref(),
        Some("Ada")
    );
    // A late joiner after the reveal lands on the step and gets a verdict.
    c.send(1, ClientMsg::Reveal { token });
    let out = c.send(
        21,
        ClientMsg::Join {
            code,
            nickname: None,
            student: None,
        },
    );
    assert!(
        matches!(&out[0], (21, ServerMsg::Joined { state, answer: None, .. }) if state.step == MPN_STEP && state.phase == Phase::Revealed)
    );
    assert!(matches!(
        &out[1],
        (
            21,
            ServerMsg::Verdict {
                answered: false,
                correct: false,
                ..
            }
        )
    ));
}

#[test]
fn a_forged_teacher_command_is_refused_counted_and_changes_nothing() {
    let mut c = Class::new(30);
    let (code, token) = c.create(PNS_LESSON);
    c.join(10, &code);
    let before = c.rooms.state(&code).unwrap();
    for forged in [
        ClientMsg::Goto {
            token: "0".repeat(32),
            step: 3,
        },
        ClientMsg::Reveal {
            token: token[..31].to_string(),
        },
        ClientMsg::Close {
            token: String::new(),
        },
        ClientMsg::End {
            token: token.to_uppercase() + "x",
        },
    ] {
        let out = c.send(10, forged);
        assert!(rejected_reason(&out, 10).contains("only the teacher"));
    }
    // Resuming the teacher's place needs the token too.
    let out = c.send(
        11,
        ClientMsg::Resume {
            code: code.clone(),
            token: "f".repeat(32),
        },
    );
    assert!(rejected_reason(&out, 11).contains("wrong teacher token"));
    let after = c.rooms.state(&code).unwrap();
    assert_eq!(after.rejected, 5);
    assert_eq!(
        (after.step, after.phase, after.joined),
        (before.step, before.phase, before.joined)
    );
    // The real teacher still moves the class.
    let out = c.send(1, ClientMsg::Goto { token, step: 3 });
    assert!(out
        .iter()
        .any(|(c, m)| *c == 10 && matches!(m, ServerMsg::State { state } if state.step == 3)));
}

#[test]
fn stale_steps_unknown_nodes_and_strangers_are_refused() {
    let (mut c, code, token) = Class::at_the_mpn_step();
    c.join(10, &code);
    let out = answer(&mut c, 10, MPN_STEP - 1, node(&["c"]));
    assert!(rejected_reason(&out, 10).contains("stale step"));
    let out = answer(&mut c, 10, MPN_STEP, node(&["z", "q"]));
    assert!(rejected_reason(&out, 10).contains("no node `z q`"));
    let out = answer(&mut c, 10, MPN_STEP, LiveAnswer::Value("1".into()));
    assert!(rejected_reason(&out, 10).contains("wants a node"));
    let out = answer(&mut c, 99, MPN_STEP, node(&["c", "h"]));
    assert!(rejected_reason(&out, 99).contains("join a class"));
    let out = c.send(
        99,
        ClientMsg::Join {
            code: "ZZZZZZ".into(),
            nickname: None,
            student: None,
        },
    );
    assert!(rejected_reason(&out, 99).contains("no class"));
    let out = c.send(
        99,
        ClientMsg::Create {
            lesson: "../../etc/passwd".into(),
        },
    );
    assert!(rejected_reason(&out, 99).contains("no lesson"));
    let out = c.send(
        10,
        ClientMsg::Join {
            code: code.clone(),
            nickname: Some("x".repeat(25)),
            student: None,
        },
    );
    assert!(rejected_reason(&out, 10).contains("nickname"));
    let out = c.send(
        10,
        ClientMsg::Join {
            code: code.clone(),
            nickname: Some("a\u{7}b".into()),
            student: None,
        },
    );
    assert!(rejected_reason(&out, 10).contains("control"));
    let out = c.send(1, ClientMsg::Goto { token, step: 99 });
    assert!(rejected_reason(&out, 1).contains("no step"));
    for (conn, bad) in [
        (10, "{\"type\":\"answer\""),
        (10, "[]"),
        (10, "{\"type\":\"promote\"}"),
    ] {
        c.now += Duration::from_secs(1);
        let o = c.rooms.receive(conn, bad, c.now);
        assert!(rejected_reason(&o.messages, conn).contains("not a live-class message"));
    }
    c.now += Duration::from_secs(1);
    let o = c.rooms.receive(10, &"x".repeat(5000), c.now);
    assert!(rejected_reason(&o.messages, 10).contains("bytes"));
    let state = c.rooms.state(&code).unwrap();
    assert_eq!(state.answered, 0);
    // Ten refusals in the room; the stranger's three outside any.
    assert_eq!(state.rejected, 10);
    assert_eq!(c.rooms.outside_rejected(), 3);
    assert_eq!(c.rooms.rejected_total(), 13);
}

#[test]
fn a_full_room_says_so_and_a_seat_is_kept_for_a_rejoin() {
    let mut c = Class::new(2);
    let (code, _) = c.create(PNS_LESSON);
    let key = c.join(10, &code);
    c.join(11, &code);
    let out = c.send(
        12,
        ClientMsg::Join {
            code: code.clone(),
            nickname: None,
            student: None,
        },
    );
    assert!(rejected_reason(&out, 12).contains("full (2 students)"));
    c.rooms.disconnect(10);
    let out = c.send(
        13,
        ClientMsg::Join {
            code,
            nickname: None,
            student: Some(key),
        },
    );
    assert!(matches!(out[0], (13, ServerMsg::Joined { .. })));
}

#[test]
fn an_idle_room_is_forgotten_and_its_members_told() {
    let mut c = Class::new(30);
    let (code, _) = c.create(PNS_LESSON);
    c.join(10, &code);
    let last = c.now;
    assert!(c.rooms.expire(last + Duration::from_secs(599)).is_empty());
    let mut out = c.rooms.expire(last + Duration::from_secs(600));
    out.sort_by_key(|(c, _)| *c);
    assert_eq!(out, vec![(1, ServerMsg::Ended), (10, ServerMsg::Ended)]);
    assert!(c.rooms.state(&code).is_none());
    c.rooms.check_invariants().unwrap();
    let out = answer(&mut c, 10, 0, node(&[]));
    assert!(rejected_reason(&out, 10).contains("join a class"));
}

#[test]
fn a_flood_is_refused_then_dropped_and_the_room_goes_on() {
    let (mut c, code, token) = Class::at_the_mpn_step();
    c.join(10, &code);
    let frame = ClientMsg::Answer {
        step: MPN_STEP,
        answer: node(&["b"]),
    }
    .to_text();
    let at = c.now + Duration::from_secs(1);
    let (mut taken, mut told, mut closed_after) = (0, 0, None);
    for k in 0..200 {
        let o: Outcome = c.rooms.receive(10, &frame, at);
        taken += o
            .messages
            .iter()
            .filter(|(_, m)| matches!(m, ServerMsg::Accepted { .. }))
            .count();
        told += o
            .messages
            .iter()
            .filter(|(_, m)| matches!(m, ServerMsg::Rejected { .. }))
            .count();
        if o.close {
            closed_after = Some(k + 1);
            break;
        }
    }
    assert_eq!(taken, 20, "the burst");
    assert_eq!(closed_after, Some(70), "20 taken, then 50 strikes");
    assert_eq!(told, 2, "told once when refused, once when dropped");
    let state = c.rooms.state(&code).unwrap();
    assert_eq!(state.rejected, 50);
    assert_eq!(state.answered, 1);
    c.rooms.disconnect(10);
    c.rooms.check_invariants().unwrap();
    let out = c.send(1, ClientMsg::Reveal { token });
    assert!(out.iter().any(|(_, m)| matches!(
        m,
        ServerMsg::Revealed {
            answered: 1,
            right: 0,
            ..
        }
    )));
}

#[test]
fn the_end_gives_the_summary_and_forgets_the_room() {
    let mut c = Class::new(30);
    let (code, token) = c.create(VALUE_LESSON);
    c.join(10, &code);
    c.join(11, &code);
    answer(&mut c, 10, 0, LiveAnswer::Value("1".into()));
    answer(&mut c, 11, 0, LiveAnswer::Value("-2".into()));
    let csv = c.rooms.summary_csv(&code, &token).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("step,prompt,answer,answered,right,most_given")
    );
    assert_eq!(
        lines.next(),
        Some("1,\"How many leaves must be proved, at least, to prove the root now?\",1,2,1,1: 1; -2: 1")
    );
    assert!(c.rooms.summary_csv(&code, "nope").is_err());
    let out = c.send(1, ClientMsg::End { token });
    match &out[0] {
        (1, ServerMsg::Summary { questions }) => {
            assert_eq!(questions.len(), 1);
            assert_eq!((questions[0].answered, questions[0].right), (2, 1));
        }
        other => panic!("{other:?}"),
    }
    let mut ended: Vec<ConnId> = out[1..]
        .iter()
        .filter(|(_, m)| *m == ServerMsg::Ended)
        .map(|(c, _)| *c)
        .collect();
    ended.sort();
    assert_eq!(ended, vec![1, 10, 11]);
    assert!(c.rooms.is_empty());
}
