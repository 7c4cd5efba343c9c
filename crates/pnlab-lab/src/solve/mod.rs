//! Solving positions: the flow behind `pnlab solve` (docs/cli.md) and
//! Python's `pnlab.solve`, in one place so both give the same record.
//!
//! A [`SolveRequest`] says what to solve and how (positions, game,
//! algorithm, parameters, question, budgets, seed, certificate and export
//! files). [`Solver::new`] checks it as a whole before anything runs (an
//! unknown algorithm or parameter, a value out of range, a bad budget);
//! [`Solver::solve_all`] then reads the positions and solves them in
//! order, handing each result to the caller as it is ready: a
//! [`SolveRecord`] with exactly the `--json` fields, or a located error
//! for a position that cannot be read or searched (the others go on).
//!
//! The pieces are public for callers that drive the search themselves
//! (Python's `pnlab.Search` steps it): [`Solver::prepare`] builds the
//! search of one position as `solve` would, [`Solver::finish`] makes the
//! record (and the certificate and exports) of a search that has stopped.

mod certify;
mod error;
mod inputs;

use pnlab_core::params::bounds;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

pub use crate::export::solve_record::{ExpectedRecord, SolveRecord};
pub use error::{CertificateError, EntryProblem, InputError, Location, RequestError, SolveError};
pub use inputs::read_inputs;

use crate::export::{self, ExportFormat, ExportInput, RunFacts, RunRecord};
use pnlab_core::game::xiangqi::Repetition;
use pnlab_core::game::GameKind;
use pnlab_core::positions::PositionEntry;
use pnlab_core::search::{
    self, correct_moves, Algorithm, Answer, Budget, Params, QuestionKind, RunEnd, RunOutcome,
    Search, SearchSetup, StatsSample, Status, ViewRequest,
};

/// Positions the certificate writer may evaluate itself (where the search
/// keeps nothing) before giving up.
pub const PROOF_WRITER_BUDGET: u64 = 200_000_000;

/// What to solve and how: the options of `pnlab solve`.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveRequest {
    /// Position files, inline positions (with `game`) or `-` for standard
    /// input. A path of the embedded `positions/` folder is read from the
    /// embedded copy when no such file is on disk.
    pub positions: Vec<String>,
    /// The game of inline positions (`tictactoe`, `hex`, …).
    pub game: Option<GameKind>,
    /// Solve only the K-th position (1-based) of those the inputs hold,
    /// counted across the inputs in order (`--entry K`).
    pub entry: Option<usize>,
    /// The algorithm (one front ends look up by name).
    pub algo: Algorithm,
    /// Algorithm parameters `NAME=VALUE`, checked against its description.
    pub settings: Vec<(String, String)>,
    /// Search threads (the df-pn family's `threads` parameter).
    pub threads: Option<u32>,
    /// Win, or at least draw.
    pub question: QuestionKind,
    /// The attacker must win within this many of its own moves.
    pub within: Option<u32>,
    /// The xiangqi repetition rule (replaces a file's).
    pub repetition: Option<Repetition>,
    /// Stop after this many iterations.
    pub max_iterations: Option<u64>,
    /// Stop after creating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds per position.
    pub time_limit: Option<f64>,
    /// Memory budget for the tree or table, in MiB; without one a run
    /// stops at the default budget ([`bounds::default_memory_mib`]).
    pub memory_mib: Option<u64>,
    /// Seed of the run's random number generators.
    pub seed: u64,
    /// Write the certificate of each solved position to this file (the
    /// second to `FILE.2`, …).
    pub proof: Option<PathBuf>,
    /// Verify each answer's certificate in memory before reporting it
    /// (`--certify`, [`certify`]).
    pub certify: bool,
    /// Export files (format by extension: .svg, .dot, .csv, .json),
    /// numbered `STEM-k.EXT` when there are several positions.
    pub exports: Vec<PathBuf>,
    /// Levels of the tree the .svg/.dot exports show below the root.
    pub export_depth: u32,
    /// Nodes the .svg/.dot exports show at most.
    pub export_nodes: usize,
}

impl Default for SolveRequest {
    fn default() -> Self {
        SolveRequest {
            positions: Vec::new(),
            game: None,
            entry: None,
            algo: Algorithm::default(),
            settings: Vec::new(),
            threads: None,
            question: QuestionKind::Win,
            within: None,
            repetition: None,
            max_iterations: None,
            max_nodes: None,
            time_limit: None,
            memory_mib: None,
            seed: 0,
            proof: None,
            certify: false,
            exports: Vec::new(),
            export_depth: 6,
            export_nodes: 2_000,
        }
    }
}

/// One position solved: its record, and the search as it ended.
pub struct Solved {
    /// The position as searched (repetition rule and move limit applied).
    pub entry: PositionEntry,
    /// The setup the search was built from.
    pub setup: SearchSetup,
    /// The search, stopped.
    pub search: Box<dyn Search>,
    /// Where it stopped.
    pub status: Status,
    /// The `--json` record.
    pub record: SolveRecord,
    /// Exports that could not be written (the others were).
    pub export_errors: Vec<String>,
}

/// A checked [`SolveRequest`], ready to solve positions.
pub struct Solver {
    request: SolveRequest,
    algo: Algorithm,
    /// The algorithm's own parameters (defaults filled in).
    params: Params,
    /// The `NAME=VALUE` pairs as given: a game's search options among
    /// them apply per position (see [`AlgoInfo::params_for`]).
    pairs: Vec<(String, String)>,
    budget: Budget,
    formats: Vec<(PathBuf, ExportFormat)>,
    /// Certificates written so far (the next one's file number).
    proofs_written: usize,
}

impl Solver {
    /// Checks the request: the algorithm and its parameters, the threads,
    /// the budgets, the repetition rule and the export formats.
    pub fn new(request: SolveRequest) -> Result<Solver, SolveError> {
        let algo = request.algo;
        let mut pairs = request.settings.clone();
        if let Some(t) = request.threads {
            if algo.params.iter().all(|p| p.name != "threads") {
                if t != 1 {
                    return Err(RequestError::Threads {
                        threads: t,
                        algo: algo.name,
                    }
                    .into());
                }
            } else {
                pairs.push(("threads".to_string(), t.to_string()));
            }
        }
        // Names are checked here; a game's search options (Connect6's
        // zones) are checked per position, against the position's game.
        let param_error = |error| RequestError::Param {
            algo: algo.name,
            error,
        };
        algo.check_names(&pairs).map_err(param_error)?;
        let own: Vec<(String, String)> = pairs
            .iter()
            .filter(|(n, _)| algo.params.iter().any(|s| s.name == n))
            .cloned()
            .collect();
        let params = Params::from_pairs(algo.params, &own).map_err(param_error)?;
        let time_limit = request
            .time_limit
            .map(|t| bounds::time_limit("--time-limit", t))
            .transpose()
            .map_err(RequestError::from)?;
        let memory_mib = request
            .memory_mib
            .unwrap_or_else(bounds::default_memory_mib);
        let max_memory_bytes =
            bounds::memory_mib("--memory", memory_mib).map_err(RequestError::from)?;
        if request.question == QuestionKind::Score {
            if algo.name != search::registry::SCORE_ALGORITHM {
                return Err(RequestError::ScoreAlgorithm {
                    algo: algo.name,
                    scorer: search::registry::SCORE_ALGORITHM,
                }
                .into());
            }
            if request.proof.is_some() || request.certify {
                return Err(RequestError::ScoreCertificate.into());
            }
        }
        if request.positions.is_empty() {
            return Err(RequestError::NoPosition.into());
        }
        let budget = Budget {
            max_iterations: request.max_iterations,
            max_nodes: request.max_nodes,
            time_limit,
            max_memory_bytes: Some(max_memory_bytes),
        };
        let formats = request
            .exports
            .iter()
            .map(|p| match ExportFormat::from_path(p) {
                Ok(f) => Ok((p.clone(), f)),
                Err(_) => Err(RequestError::ExportFormat {
                    path: p.display().to_string(),
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Solver {
            request,
            algo,
            params,
            pairs,
            budget,
            formats,
            proofs_written: 0,
        })
    }

    /// The request as given.
    pub fn request(&self) -> &SolveRequest {
        &self.request
    }

    /// The algorithm (its registry entry through `Deref`).
    pub fn algo(&self) -> Algorithm {
        self.algo
    }

    /// The algorithm's own checked parameters (defaults filled in); a
    /// position's search records add its game's options.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The budget of every position.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Reads the request's positions, one group per input (see
    /// [`read_inputs`]).
    pub fn read(&self) -> Vec<Result<Vec<PositionEntry>, SolveError>> {
        read_inputs(&self.request.positions, self.request.game)
    }

    /// Solves every position of the request in order, handing each result
    /// to `each` (a record, or the located error of a position that cannot
    /// be read or searched); `each` returns `Break` to stop early. `cancel`
    /// stops the search under way (its record says `cancelled`). Only a
    /// certificate that cannot be written ends the run with an error.
    pub fn solve_all(
        &mut self,
        cancel: Option<&AtomicBool>,
        mut each: impl FnMut(Result<Solved, SolveError>) -> ControlFlow<()>,
    ) -> Result<(), SolveError> {
        let mut groups = self.read();
        if let Some(wanted) = self.request.entry {
            groups = pick_entry(groups, wanted)?;
        }
        let total: usize = groups
            .iter()
            .map(|g| g.as_ref().map_or(0, |v| v.len()))
            .sum();
        let mut k = 0;
        for group in groups {
            let entries = match group {
                Ok(e) => e,
                Err(e) => {
                    if each(Err(e)).is_break() {
                        return Ok(());
                    }
                    continue;
                }
            };
            for entry in entries {
                let result = match self.solve_entry(entry, (k + 1, total), cancel) {
                    Err(e @ SolveError::Proof(_)) => return Err(e),
                    Ok(solved) => {
                        k += 1;
                        Ok(solved)
                    }
                    Err(e) => Err(e),
                };
                if each(result).is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// The search of one position as [`Solver::solve_all`] runs it: the
    /// repetition rule and the move limit applied, built with the
    /// request's parameters, seed, question and memory budget. Errors are
    /// located at the entry (`NAME:LINE:1: …`).
    pub fn prepare(
        &self,
        mut entry: PositionEntry,
    ) -> Result<(PositionEntry, SearchSetup, Box<dyn Search>), SolveError> {
        let at = |entry: &PositionEntry, problem: EntryProblem| InputError::Entry {
            at: Location::of_entry(entry),
            problem: Box::new(problem),
        };
        if let Some(rule) = self.request.repetition {
            entry.position = match entry.position.clone().with_repetition(rule) {
                Ok(p) => p,
                Err(e) => return Err(at(&entry, e.into()).into()),
            };
        }
        if let Some(n) = self.request.within {
            entry.position = entry.position.within(n);
        }
        let params = match self.algo.params_from_pairs(entry.game, &self.pairs) {
            Ok(p) => p,
            Err(error) => {
                let algo = self.algo.name;
                return Err(at(&entry, EntryProblem::Param { algo, error }).into());
            }
        };
        let setup = SearchSetup {
            position: entry.position.clone(),
            params,
            seed: self.request.seed,
            question: self.request.question,
            // Only a budget the request gives sizes the tables: without
            // one they keep their own (smaller) defaults, and the default
            // budget only stops the run.
            memory_limit_bytes: self.request.memory_mib.and(self.budget.max_memory_bytes),
        };
        let search = match search::build(self.algo.name, &setup) {
            Ok(s) => s,
            Err(e) => return Err(at(&entry, e.into()).into()),
        };
        Ok((entry, setup, search))
    }

    /// Solves one position as [`Solver::solve_all`] does: prepares its
    /// search, runs it within the budget (until `cancel` is set) and makes
    /// its record, certificate and exports (`k` of `total` numbers the
    /// export files).
    pub fn solve_entry(
        &mut self,
        entry: PositionEntry,
        (k, total): (usize, usize),
        cancel: Option<&AtomicBool>,
    ) -> Result<Solved, SolveError> {
        let (entry, setup, mut search) = self.prepare(entry)?;
        let mut samples: Vec<StatsSample> = Vec::new();
        let status = if self.formats.is_empty() {
            search::run(search.as_mut(), &self.budget, cancel)
        } else {
            search::run_sampled(search.as_mut(), &self.budget, cancel, &mut samples)
        };
        let (record, export_errors) =
            self.finish(&entry, &setup, search.as_ref(), &samples, (k, total))?;
        Ok(Solved {
            entry,
            setup,
            search,
            status,
            record,
            export_errors,
        })
    }

    /// The record of a search that has stopped (or that the caller
    /// stopped stepping); writes its certificate (with a `proof` file,
    /// when solved) and its exports (`samples` are the curves, `k` of
    /// `total` numbers the files). Returns the record and the exports
    /// that could not be written.
    pub fn finish(
        &mut self,
        entry: &PositionEntry,
        setup: &SearchSetup,
        search: &dyn Search,
        samples: &[StatsSample],
        (k, total): (usize, usize),
    ) -> Result<(SolveRecord, Vec<String>), SolveError> {
        let status = search.status();
        let question = setup.root_question();
        let solved = matches!(status, Status::Proved | Status::Disproved);
        let certify = self.request.certify;
        let checked = (solved && (certify || self.request.proof.is_some()))
            .then(|| certify::make(search, setup, status, certify));
        let mut proof_file = None;
        if let (Some(base), Some(c)) = (&self.request.proof, &checked) {
            let path = proof_path(base, self.proofs_written);
            match (&c.certificate, &c.error) {
                (Some(cert), _) => {
                    self.proofs_written += 1;
                    crate::experiments::write_atomic(&path, cert.to_text().as_bytes()).map_err(
                        |e| CertificateError {
                            at: Location::of_entry(entry),
                            path: None,
                            reason: e.to_string(),
                        },
                    )?;
                    proof_file = Some(path);
                }
                // Without --certify a certificate that cannot be written
                // stops the run; with it, the record says why.
                (None, Some(e)) if !certify => {
                    return Err(CertificateError {
                        at: Location::of_entry(entry),
                        path: Some(path),
                        reason: e.clone(),
                    }
                    .into());
                }
                _ => {}
            }
        }
        let facts = RunFacts::of(search);
        let run = RunRecord {
            entry,
            algo: self.algo.name,
            params: &setup.params,
            seed: self.request.seed,
            question,
            status,
            counters: search.counters(),
            facts: &facts,
        };
        let mut record = run.record();
        if setup.question == QuestionKind::Score {
            record.question = QuestionKind::Score;
            if solved {
                record.answer = Answer::Score;
            }
        }
        if let Some(c) = &checked {
            record.proof_positions = c.certificate.as_ref().map(|_| c.positions);
            if certify {
                record.certify_ms = Some((c.ms * 1000.0).round() / 1000.0);
                record.certify_error = c.error.clone();
                if c.certified {
                    record.stop_reason = RunEnd::Certified;
                } else {
                    // An answer that fails its self-check is no answer.
                    record.outcome = RunOutcome::Unknown;
                    record.answer = Answer::Unknown;
                    record.stop_reason = RunEnd::Uncertified;
                }
            }
        }
        if certify {
            record.certified = Some(checked.as_ref().is_some_and(|c| c.certified));
        }
        record.proof_file = proof_file.map(|p| p.display().to_string());
        let export_errors = self.write_exports(&run, search, samples, (k, total));
        Ok((record, export_errors))
    }

    /// Writes the request's exports of one run; returns the errors.
    fn write_exports(
        &self,
        run: &RunRecord<'_>,
        search: &dyn Search,
        samples: &[StatsSample],
        (k, total): (usize, usize),
    ) -> Vec<String> {
        if self.formats.is_empty() {
            return Vec::new();
        }
        let view = ViewRequest {
            max_depth: self.request.export_depth,
            max_nodes: self.request.export_nodes,
            want_position: false,
            ..ViewRequest::default()
        };
        let snapshot = search.snapshot(&view);
        let wants_csv = self.formats.iter().any(|(_, f)| *f == ExportFormat::Csv);
        let correct = if wants_csv {
            let best = run
                .entry
                .expected
                .as_ref()
                .map(|e| e.best_moves.clone())
                .unwrap_or_default();
            correct_moves::for_position(
                &run.entry.position,
                &run.question,
                &best,
                correct_moves::DEFAULT_MAX_POSITIONS,
            )
        } else {
            None
        };
        let input = ExportInput {
            snapshot: &snapshot,
            samples,
            correct: correct.as_ref(),
            record: run,
        };
        let mut errors = Vec::new();
        for (path, format) in &self.formats {
            let path = numbered(path, k, total);
            let text = export::render(*format, &input);
            if let Err(e) = export::write(&path, text.as_bytes()) {
                errors.push(e.to_string());
            }
        }
        errors
    }
}

/// The inputs' groups narrowed to the `wanted`-th position (1-based),
/// counted across the inputs in order; an input that cannot be read
/// before it is reached is an error (its positions cannot be counted).
fn pick_entry(
    groups: Vec<Result<Vec<PositionEntry>, SolveError>>,
    wanted: usize,
) -> Result<Vec<Result<Vec<PositionEntry>, SolveError>>, SolveError> {
    let mut seen = 0;
    for group in groups {
        let entries = group?;
        if wanted > seen && wanted <= seen + entries.len() {
            let one = entries.into_iter().nth(wanted - seen - 1);
            return Ok(vec![Ok(one.into_iter().collect())]);
        }
        seen += entries.len();
    }
    Err(RequestError::Entry { wanted, held: seen }.into())
}

/// Where the certificate of the `index`-th position solved (0-based) goes.
fn proof_path(base: &Path, index: usize) -> PathBuf {
    if index == 0 {
        base.to_path_buf()
    } else {
        let mut s = base.as_os_str().to_os_string();
        s.push(format!(".{}", index + 1));
        s.into()
    }
}

/// The file an export of position `k` (1-based) of `total` goes to:
/// `FILE` itself for a single position, `STEM-k.EXT` otherwise.
fn numbered(path: &Path, k: usize, total: usize) -> PathBuf {
    if total <= 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

/// The certificate of a solved search as text (the format `pnlab verify`
/// reads) and its number of positions.
pub fn certificate_text(
    s: &dyn Search,
    setup: &SearchSetup,
) -> Result<(String, usize), search::proof::ProofError> {
    let (cert, stats) = search::proof::certificate(s, setup, PROOF_WRITER_BUDGET)?;
    Ok((cert.to_text(), stats.positions))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(positions: &[&str], game: &str, algo: &str) -> SolveRequest {
        SolveRequest {
            positions: positions.iter().map(|s| s.to_string()).collect(),
            game: Some(game.parse().unwrap()),
            algo: algo.parse().unwrap(),
            ..SolveRequest::default()
        }
    }

    fn solve(req: SolveRequest) -> Vec<Result<SolveRecord, SolveError>> {
        let mut out = Vec::new();
        Solver::new(req)
            .unwrap()
            .solve_all(None, |r| {
                out.push(r.map(|s| s.record));
                ControlFlow::Continue(())
            })
            .unwrap();
        out
    }

    #[test]
    fn tictactoe_is_a_draw_for_every_proof_search() {
        // The empty board is a draw (exhaustive search, Schaeffer's
        // tables): the first player does not win and does not lose.
        for algo in ["pns", "dfpn", "deep-pn"] {
            let win = solve(request(&["........."], "tictactoe", algo));
            let r = win[0].as_ref().unwrap();
            assert_eq!(
                (r.outcome, r.answer),
                (RunOutcome::Disproved, Answer::NotWin),
                "{algo}"
            );
            let mut q = request(&["........."], "tictactoe", algo);
            q.question = QuestionKind::NotLose;
            let r = solve(q).remove(0).unwrap();
            assert_eq!(r.answer, Answer::NotLose, "{algo}");
        }
    }

    #[test]
    fn the_record_has_the_contract_fields_in_order() {
        let r = solve(request(&["x...o...."], "tictactoe", "pns"))
            .remove(0)
            .unwrap();
        let keys: Vec<String> = r.to_map().keys().cloned().collect();
        let contract = [
            "name",
            "game",
            "position",
            "algo",
            "params",
            "seed",
            "question",
            "outcome",
            "answer",
            "best_move",
            "iterations",
            "nodes_created",
            "nodes_expanded",
            "max_depth",
            "seesaw_root_switches",
            "seesaw_switches",
            "revisits",
            "time_ms",
            "peak_tree_bytes",
            "stop_reason",
        ];
        assert_eq!(keys, contract);
    }

    /// The counters come from the search's own list: a Monte-Carlo
    /// search's record has its playouts, a proof-number search's has
    /// none, and neither shows the snapshot-only `live_nodes`.
    #[test]
    fn the_record_counters_follow_the_search() {
        let mc = solve(request(&["x...o...."], "tictactoe", "mcts-solver"))
            .remove(0)
            .unwrap()
            .to_map();
        assert!(mc["playouts"].as_u64().unwrap() > 0, "{mc:?}");
        let pns = solve(request(&["x...o...."], "tictactoe", "pns"))
            .remove(0)
            .unwrap();
        let map = pns.to_map();
        assert!(!map.contains_key("playouts") && !map.contains_key("live_nodes"));
        assert_eq!(map["iterations"], pns.counters.iterations);
    }

    /// `--entry K` counts positions across the inputs: the second input's
    /// first position is entry 2 here; past the last is a request error.
    #[test]
    fn entry_picks_one_position_across_the_inputs() {
        let mut q = request(&["x...o....", "xx..o.o.."], "tictactoe", "pns");
        q.entry = Some(2);
        let out = solve(q.clone());
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].as_ref().unwrap().position, "xx..o.o..");
        q.entry = Some(3);
        let mut solver = Solver::new(q).unwrap();
        let e = solver.solve_all(None, |_| ControlFlow::Continue(()));
        assert_eq!(
            e,
            Err(SolveError::Request(RequestError::Entry {
                wanted: 3,
                held: 2
            }))
        );
    }

    #[test]
    fn a_bad_position_is_located_and_the_others_are_solved() {
        let out = solve(request(&["x..?.....", "........."], "tictactoe", "pns"));
        let e = out[0].as_ref().unwrap_err();
        match e {
            SolveError::Input(InputError::File(f)) => {
                assert_eq!(
                    (f.file.as_str(), f.error.line, f.error.col),
                    ("<inline>", 1, 4)
                )
            }
            other => panic!("{other}"),
        }
        assert!(out[1].is_ok());
    }

    #[test]
    fn a_bad_request_is_refused_before_anything_runs() {
        let mut q = request(&["........."], "tictactoe", "pns");
        q.settings = vec![("Q".into(), "1".into())];
        let e = Solver::new(q).err().unwrap();
        assert!(
            matches!(&e, SolveError::Request(RequestError::Param { .. })),
            "{e}"
        );
        assert!(e.to_string().contains("`Q`"), "{e}");
        let e = Solver::new(request(&[], "tictactoe", "pns")).err().unwrap();
        assert!(e.to_string().starts_with("no position given"));
        let mut q = request(&["........."], "tictactoe", "pns");
        q.time_limit = Some(-1.0);
        assert!(Solver::new(q).is_err());
    }

    #[test]
    fn a_cancelled_search_says_so() {
        let cancel = AtomicBool::new(true);
        let mut solver = Solver::new(request(&[""], "connect4", "pns")).unwrap();
        let mut records = Vec::new();
        solver
            .solve_all(Some(&cancel), |r| {
                records.push(r.unwrap().record);
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(
            records[0].stop_reason,
            RunEnd::Stopped(search::StopReason::Cancelled)
        );
        assert_eq!(records[0].stop_reason.name(), "cancelled");
        assert_eq!(records[0].outcome, RunOutcome::Unknown);
    }

    #[test]
    fn a_position_file_is_solved() {
        let out = solve(SolveRequest {
            positions: vec![pnlab_core::positions::DEFAULT_TREE.into()],
            ..SolveRequest::default()
        });
        let r = out[0].as_ref().unwrap();
        assert_eq!(r.game, "tree");
        assert!(r.outcome.is_answered());
    }
}
