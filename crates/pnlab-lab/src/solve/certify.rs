//! The self-check of `pnlab solve --certify`: every proved or disproved
//! answer is written out as a certificate in memory, read back from its
//! text, and checked by [`pnlab_core::certificate::verify`] (the game rules
//! alone) before the answer is reported. An experiment can then demand
//! certified answers: the record says `"certified": true` and stop reason
//! `certified`; an answer whose certificate cannot be written (the
//! writer's budget) or does not verify is reported as `unknown` with stop
//! reason `uncertified` and the reason in `certify_error`.
//!
//! The cost (`certify_ms` in the record) is the writer's walk of the
//! proof tree, which also completes the parts the search does not keep,
//! plus the check's replay of every move; memory is that of the
//! certificate (about its text size) while it is checked.

use pnlab_core::certificate::{verify, Certificate, Verdict};
use pnlab_core::clock::Instant;
use pnlab_core::search::{proof, Search, SearchSetup, Status};

use super::PROOF_WRITER_BUDGET;

/// A certificate made for a solved run, and what the check said.
pub struct Checked {
    /// The certificate (when the writer could make one).
    pub certificate: Option<Certificate>,
    /// Positions in it.
    pub positions: usize,
    /// Whether it verified and answers what the search answered.
    pub certified: bool,
    /// Why not, when it did not.
    pub error: Option<String>,
    /// Milliseconds spent writing and checking.
    pub ms: f64,
}

/// Writes the certificate of `search`'s answer (`status` must be final)
/// and, with `check`, verifies it from its text.
pub fn make(search: &dyn Search, setup: &SearchSetup, status: Status, check: bool) -> Checked {
    let start = Instant::now();
    let mut out = match proof::certificate(search, setup, PROOF_WRITER_BUDGET) {
        Ok((cert, stats)) => Checked {
            certificate: Some(cert),
            positions: stats.positions,
            certified: false,
            error: None,
            ms: 0.0,
        },
        Err(e) => Checked {
            certificate: None,
            positions: 0,
            certified: false,
            error: Some(e.to_string()),
            ms: 0.0,
        },
    };
    if check {
        if let Some(cert) = &out.certificate {
            match verified(cert, status, setup) {
                Ok(()) => out.certified = true,
                Err(e) => out.error = Some(e.to_string()),
            }
        }
    }
    out.ms = start.elapsed().as_secs_f64() * 1000.0;
    out
}

/// Checks `cert` as `pnlab verify` would check its file, and that it
/// claims what the search answered.
fn verified(cert: &Certificate, status: Status, setup: &SearchSetup) -> Result<(), SelfCheckError> {
    let text = cert.to_text();
    let back = Certificate::parse(&text).map_err(SelfCheckError::Unreadable)?;
    if back.proved != (status == Status::Proved) {
        return Err(SelfCheckError::OtherAnswer);
    }
    let words = setup.root_question().answer_name(status);
    match verify(&back).map_err(SelfCheckError::Root)? {
        Verdict::Valid { answer, .. } if answer.split(" within ").next() == Some(words) => Ok(()),
        Verdict::Valid { answer, .. } => Err(SelfCheckError::Mismatch {
            proves: answer,
            answered: words.to_string(),
        }),
        v @ Verdict::Invalid { .. } => Err(SelfCheckError::Invalid(v)),
    }
}

/// Why a certificate written in memory failed its own check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelfCheckError {
    /// The text does not parse back.
    #[error("the certificate does not read back: {0}")]
    Unreadable(#[source] pnlab_core::game::ParseError),
    /// It claims proved where the search disproved, or the reverse.
    #[error("the certificate claims the other answer")]
    OtherAnswer,
    /// Its root position cannot be rebuilt.
    #[error("the certificate's root: {0}")]
    Root(#[source] pnlab_core::game::ParseError),
    /// It proves another question than the one answered.
    #[error("the certificate proves `{proves}`, the search answered `{answered}`")]
    Mismatch {
        /// What the certificate proves.
        proves: String,
        /// What the search answered.
        answered: String,
    },
    /// The checker rejects it (the checker's verdict, with the node).
    #[error("the certificate does not verify: {}", .0.line())]
    Invalid(pnlab_core::certificate::Verdict),
}
