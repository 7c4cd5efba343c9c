//! Multi-valued PN-search and the value search (lecture notes),
//! docs/algorithms.md §2.
//!
//! PN-search(v) answers "is the attacker's score ≥ v?": a terminal node is
//! (0, INF) when its score is ≥ v, else (INF, 0), and everything else is
//! plain PNS with MAX = OR. That is exactly [`Pns`] (or [`DeepPn`]) asked
//! [`Goal::AtLeast`]`(v)`, so this file only drives a sequence of such
//! sub-searches:
//! 1. exponential probing to bracket the value: v = 1, 2, 4, 8, … while
//!    proved; if v = 1 is disproved, v = 0, −1, −2, −4, … while disproved;
//! 2. binary search inside the bracket [low, high] (low proved, high + 1
//!    disproved) with v = the upper middle, until low = high.
//!
//! One [`Search::step`] is one step of the current sub-search; when it
//! finishes, the bracket narrows and the next sub-search starts in the same
//! step. Counters are totals over all sub-searches (`max_depth` and
//! `peak_tree_bytes` are maxima; `live_nodes` is the current tree's).
//! Scores are from the attacker's point of view (the root's side to move,
//! or a tree's OR player). The run ends `proved` when the exact value
//! answers the setup's question with yes (value ≥ 1 for `win`, ≥ 0 for
//! `not-lose`), else `disproved`; the value itself is in `extra_json`.

use crate::game::{Game, Player};

use super::deep_pn::{self, DeepPn, DeepPnOptions, DpnForm};
use super::params::ParamSpec;
use super::pns::{Pns, PnsOptions};
use super::seesaw::RootSwitches;
use super::snapshot::{Snapshot, ViewRequest};
use super::{
    Counters, Goal, Question, QuestionKind, Search, SearchError, SearchSetup, StatsSample, Status,
    StopReason, SwitchEvent,
};

crate::choice_enum! {
    /// Which proof search runs for each target.
    pub enum InnerSearch {
        /// Plain PN-search (docs/algorithms.md §1).
        Pns = "pns",
        /// DeepPN (docs/algorithms.md §3).
        DeepPn = "deep-pn",
    }
}

/// DeepPN's `R`, described once in [`DeepPnOptions`].
const DEEP_R: ParamSpec = DeepPnOptions::PARAMS[0];
/// DeepPN's `dpn`, described once in [`DeepPnOptions`].
const DEEP_DPN: ParamSpec = DeepPnOptions::PARAMS[1];

crate::options! {
    /// Value-search options: the inner proof search and DeepPN's own
    /// parameters (used when `inner = deep-pn`).
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct PnValueOptions {
        /// The proof search run for each target.
        pub inner: InnerSearch => {
            "inner", choice = InnerSearch::Pns,
            "The proof search run for each target v: PN-search or DeepPN"
        },
        /// DeepPN's R.
        pub r: f64 => DEEP_R,
        /// DeepPN's normalisation.
        pub form: DpnForm => DEEP_DPN,
    }
}

/// The proof search used for each target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inner {
    /// Plain PN-search (docs/algorithms.md §1).
    Pns,
    /// DeepPN with these options (docs/algorithms.md §3).
    DeepPn(DeepPnOptions),
}

impl Inner {
    fn name(self) -> &'static str {
        match self {
            Inner::Pns => InnerSearch::Pns.name(),
            Inner::DeepPn(_) => InnerSearch::DeepPn.name(),
        }
    }
}

pub use super::sub_search::SubSearch;

/// Registry constructor.
#[allow(clippy::clone_on_copy)]
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let o = PnValueOptions::from_params(&setup.params)?;
    let inner = match o.inner {
        InnerSearch::DeepPn => Inner::DeepPn(DeepPnOptions {
            r: o.r,
            form: o.form,
            ..DeepPnOptions::default()
        }),
        InnerSearch::Pns => Inner::Pns,
    };
    let q = setup.root_question();
    let kind = setup.question;
    Ok(crate::with_position!(&setup.position, g => {
        Box::new(PnValue::new(g.clone(), q.attacker, kind, inner)) as Box<dyn Search>
    }))
}

/// The value search on a game `G`.
pub struct PnValue<G: Game> {
    root: G,
    attacker: Player,
    question: QuestionKind,
    inner: Inner,
    /// The running (or, at the end, the last) sub-search.
    sub: Option<Box<dyn Search>>,
    /// Its target v.
    target: i32,
    /// Proven lower bound: value ≥ low.
    low: Option<i32>,
    /// Proven upper bound: value ≤ high.
    high: Option<i32>,
    value: Option<i32>,
    subs: Vec<SubSearch>,
    /// Totals of the finished sub-searches.
    base: Counters,
    counters: Counters,
    /// Root switch events of every sub-search, in total-iteration
    /// numbering (only `events` is used: the sub-searches observe).
    root_switches: RootSwitches,
    sub_events_seen: usize,
    /// The best root move named by the last sub-search that proved its
    /// target (the move that secures `low`).
    best_at_low: Option<String>,
    status: Status,
}

impl<G: Game> PnValue<G> {
    /// A value search of `root` with scores from `attacker`'s point of view;
    /// `question` decides the final proved/disproved status.
    pub fn new(root: G, attacker: Player, question: QuestionKind, inner: Inner) -> PnValue<G> {
        let mut s = PnValue {
            root,
            attacker,
            question,
            inner,
            sub: None,
            target: 1,
            low: None,
            high: None,
            value: None,
            subs: Vec::new(),
            base: Counters::default(),
            counters: Counters::default(),
            root_switches: RootSwitches::default(),
            sub_events_seen: 0,
            best_at_low: None,
            status: Status::Running,
        };
        if let Some(o) = s.root.outcome() {
            // Nothing to search: the value is the final score.
            s.counters.nodes_created = 1;
            s.finish(o.score_for(attacker));
        } else {
            s.start_sub(1);
        }
        s
    }

    /// The exact value once known.
    pub fn value(&self) -> Option<i32> {
        self.value
    }

    /// The current bracket: value ∈ [low, high] (`None` = unbounded).
    pub fn bracket(&self) -> (Option<i32>, Option<i32>) {
        (self.low, self.high)
    }

    /// The finished sub-searches, in order.
    pub fn sub_searches(&self) -> &[SubSearch] {
        &self.subs
    }

    /// The target of the running sub-search.
    pub fn target(&self) -> i32 {
        self.target
    }

    fn start_sub(&mut self, t: i32) {
        self.target = t;
        let q = Question {
            attacker: self.attacker,
            goal: Goal::AtLeast(t),
        };
        let sub: Box<dyn Search> = match self.inner {
            Inner::Pns => Box::new(Pns::new(self.root.clone(), q, PnsOptions::default())),
            Inner::DeepPn(o) => Box::new(DeepPn::new(self.root.clone(), q, o)),
        };
        self.sub = Some(sub);
        self.sub_events_seen = 0;
        self.sync_counters();
    }

    fn finish(&mut self, v: i32) {
        self.low = Some(v);
        self.high = Some(v);
        self.value = Some(v);
        let yes = match self.question {
            QuestionKind::Win | QuestionKind::Score => v >= 1,
            QuestionKind::NotLose => v >= 0,
        };
        self.status = if yes {
            Status::Proved
        } else {
            Status::Disproved
        };
    }

    /// The next target after a sub-search at `t` ended (docs/algorithms.md §2),
    /// or the exact value when the bracket has closed.
    fn next_target(&self, t: i32) -> Result<i32, i32> {
        match (self.low, self.high) {
            (Some(l), Some(h)) if l >= h => Err(l),
            (Some(l), Some(h)) => {
                // Binary search: the upper middle, so both outcomes shrink
                // the bracket.
                let mid = l as i64 + (h as i64 - l as i64 + 1) / 2;
                Ok(mid as i32)
            }
            // Probing upwards: 1, 2, 4, … (value ≥ i32::MAX means = MAX).
            (Some(l), None) => {
                if l == i32::MAX {
                    Err(l)
                } else {
                    Ok(t.saturating_mul(2).max(l + 1))
                }
            }
            // Probing downwards: 0, −1, −2, −4, …
            (None, Some(_)) => Ok(match t {
                1 => 0,
                0 => -1,
                _ => t.saturating_mul(2),
            }),
            // Before any result (not reached after a sub-search).
            (None, None) => Ok(1),
        }
    }

    /// Totals = finished sub-searches + the running one.
    fn sync_counters(&mut self) {
        let time_ms = self.counters.time_ms;
        let mut c = self.base.clone();
        if let Some(sub) = &self.sub {
            let s = sub.counters();
            c.iterations += s.iterations;
            c.nodes_created += s.nodes_created;
            c.nodes_expanded += s.nodes_expanded;
            c.max_depth = c.max_depth.max(s.max_depth);
            c.seesaw_root_switches += s.seesaw_root_switches;
            c.seesaw_switches += s.seesaw_switches;
            c.revisits += s.revisits;
            c.peak_tree_bytes = c.peak_tree_bytes.max(s.peak_tree_bytes);
            c.live_nodes = s.live_nodes;
            c.playouts += s.playouts;
            // Root switch events in total-iteration numbering.
            let ev = sub.switch_events();
            for e in &ev[self.sub_events_seen.min(ev.len())..] {
                self.root_switches.events.push(SwitchEvent {
                    iteration: e.iteration + self.base.iterations,
                    ..e.clone()
                });
            }
            self.sub_events_seen = ev.len();
        }
        c.time_ms = time_ms;
        self.counters = c;
    }
}

impl<G: Game> Search for PnValue<G> {
    fn checkpoint(&self) -> Option<Box<dyn Search>> {
        let sub = match &self.sub {
            Some(s) => Some(s.checkpoint()?),
            None => None,
        };
        Some(Box::new(PnValue {
            root: self.root.clone(),
            attacker: self.attacker,
            question: self.question,
            inner: self.inner,
            sub,
            target: self.target,
            low: self.low,
            high: self.high,
            value: self.value,
            subs: self.subs.clone(),
            base: self.base.clone(),
            counters: self.counters.clone(),
            root_switches: self.root_switches.clone(),
            sub_events_seen: self.sub_events_seen,
            best_at_low: self.best_at_low.clone(),
            status: self.status,
        }))
    }

    fn algo(&self) -> &'static str {
        "pn-value"
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        let Some(sub) = self.sub.as_mut() else {
            return self.status;
        };
        let st = sub.step();
        self.sync_counters();
        let Some(sub) = self.sub.as_ref() else {
            return self.status;
        };
        let Some(proved) = super::sub_search::answer(st, &mut self.status) else {
            return self.status;
        };
        let t = self.target;
        self.subs
            .push(SubSearch::new(t, proved, sub.counters().iterations));
        if proved {
            self.low = Some(t);
            self.best_at_low = sub.best_move();
        } else {
            // value < t ⇔ value ≤ t − 1 (t > i32::MIN: "≥ MIN" always holds).
            self.high = Some(t.saturating_sub(1));
        }
        // The finished sub-search joins the base totals.
        self.base = Counters {
            time_ms: 0.0,
            ..self.counters.clone()
        };
        self.sub_events_seen = 0;
        match self.next_target(t) {
            // The last sub-search stays for the snapshot.
            Err(v) => self.finish(v),
            Ok(next) => self.start_sub(next),
        }
        self.status
    }

    crate::search::arena_search::run_state_accessors!(no_stop;);

    fn stop(&mut self, reason: StopReason) {
        if !self.status.is_final() {
            if let Some(sub) = self.sub.as_mut() {
                sub.stop(reason);
            }
            self.status = Status::Unknown(reason);
        }
    }

    fn value_names(&self) -> &'static [&'static str] {
        match self.inner {
            Inner::Pns => &["pn", "dn"],
            Inner::DeepPn(_) => deep_pn::VALUE_NAMES,
        }
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let bound = |b: Option<i32>, inf: &str| b.map_or(inf.to_string(), |v| v.to_string());
        let mut extras = vec![
            (
                "bracket".to_string(),
                format!("[{}, {}]", bound(self.low, "-∞"), bound(self.high, "+∞")),
            ),
            ("low".into(), bound(self.low, "-∞")),
            ("high".into(), bound(self.high, "+∞")),
            (
                "value".into(),
                self.value.map_or("unknown".into(), |v| v.to_string()),
            ),
            ("target".into(), format!("score ≥ {}", self.target)),
            (
                "sub-search".into(),
                format!(
                    "{} ({} finished)",
                    if self.status.is_final() {
                        self.subs.len()
                    } else {
                        self.subs.len() + 1
                    },
                    self.subs.len()
                ),
            ),
            ("inner".into(), self.inner.name().into()),
        ];
        let mut snap = match &self.sub {
            Some(sub) => sub.snapshot(req),
            None => Snapshot {
                algo: String::new(),
                status: self.status,
                counters: Counters::default(),
                value_names: Vec::new(),
                label_values: Vec::new(),
                nodes: Vec::new(),
                extra_edges: Vec::new(),
                selection_path: Vec::new(),
                selection_moves: Vec::new(),
                root_children: Vec::new(),
                frames: Vec::new(),
                total_nodes: 1,
                inspection: None,
                position: req.want_position.then(|| self.root.clone().into_any()),
                position_path: Vec::new(),
                switch_events: Vec::new(),
                extras: Vec::new(),
                functions: None,
                overview: None,
            },
        };
        extras.append(&mut snap.extras);
        snap.extras = extras;
        snap.algo = self.algo().to_string();
        snap.status = self.status;
        snap.counters = self.counters.clone();
        snap.value_names = self.value_names().iter().map(|s| s.to_string()).collect();
        let ev = &self.root_switches.events;
        snap.switch_events = ev[ev.len().saturating_sub(1000)..].to_vec();
        snap
    }

    fn sample(&self) -> StatsSample {
        let mut s = match &self.sub {
            Some(sub) => sub.sample(),
            None => StatsSample::default(),
        };
        s.iteration = self.counters.iterations;
        s.max_depth = self.counters.max_depth;
        s.seesaw_root_switches = self.counters.seesaw_root_switches;
        s.seesaw_switches = self.counters.seesaw_switches;
        s.revisits = self.counters.revisits;
        s
    }

    fn best_move(&self) -> Option<String> {
        super::sub_search::named_move(self.value.is_some(), &self.best_at_low, || {
            self.sub.as_ref().and_then(|s| s.best_move())
        })
    }

    fn extra_json(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::{json, Value};
        let mut m = serde_json::Map::new();
        let opt = |v: Option<i32>| v.map_or(Value::Null, |x| json!(x));
        m.insert("value".into(), opt(self.value));
        m.insert("low".into(), opt(self.low));
        m.insert("high".into(), opt(self.high));
        m.insert("inner".into(), json!(self.inner.name()));
        m.insert(
            "sub_searches".into(),
            serde_json::to_value(&self.subs).unwrap_or(Value::Null),
        );
        m
    }
}
