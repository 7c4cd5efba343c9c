//! Certificates: the proof (or disproof) of a solved run as the text
//! `pnlab verify` reads. The machine makes it; the shell saves it.

use pnlab_core::search::proof::certificate;
use pnlab_core::search::Status;

use super::machine::RunMachine;
use super::{CertificateReady, Event, Outbox};

/// Positions the certificate writer may evaluate itself (where the search
/// kept nothing) before it gives up, as `pnlab solve --proof` allows.
const PROOF_WRITER_BUDGET: u64 = 200_000_000;

impl RunMachine {
    /// Makes the certificate of the current run, if it is solved, for the
    /// shell to save at `path`.
    pub(super) fn certify(&mut self, path: std::path::PathBuf, out: &mut dyn Outbox) {
        let Some(live) = self.live.as_ref() else {
            return out.deliver(Event::Error("no run to take a proof from".into()));
        };
        let Some(search) = live.search.as_deref() else {
            return out.deliver(Event::Error(
                "the search failed; reset the run first".into(),
            ));
        };
        let proved = match search.status() {
            Status::Proved => true,
            Status::Disproved => false,
            _ => {
                return out.deliver(Event::Error(
                    "the run has not proved or disproved its question yet: no proof to save".into(),
                ))
            }
        };
        match certificate(search, &live.recorder.setup, PROOF_WRITER_BUDGET) {
            Ok((cert, stats)) => out.deliver(Event::CertificateReady(CertificateReady {
                path,
                text: cert.to_text(),
                positions: stats.positions,
                proved,
            })),
            Err(e) => out.deliver(Event::Error(format!("proof {}: {e}", path.display()))),
        }
    }
}
