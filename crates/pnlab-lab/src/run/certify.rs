//! Certificates: the proof (or disproof) of a solved run as the text
//! `pnlab verify` reads. The machine makes it; the shell saves it.

use pnlab_core::search::Status;

use super::machine::RunMachine;
use super::{CertificateReady, Event, Outbox};
use crate::solve::certificate_text;

impl RunMachine {
    /// The certificate of the current run, if it is solved: its text,
    /// its distinct positions and whether it proves (true) or disproves;
    /// otherwise the user-facing reason there is none. A synchronous
    /// shell calls it directly; [`Command::Certificate`] sends it as an
    /// event.
    ///
    /// [`Command::Certificate`]: super::Command::Certificate
    pub fn certificate(&self) -> Result<(String, usize, bool), String> {
        let Some(live) = self.live.as_ref() else {
            return Err("no run to take a proof from".into());
        };
        let Some(search) = live.search.as_deref() else {
            return Err("the search failed; reset the run first".into());
        };
        let proved = match search.status() {
            Status::Proved => true,
            Status::Disproved => false,
            _ => {
                return Err(
                    "the run has not proved or disproved its question yet: no proof to save".into(),
                )
            }
        };
        let (text, positions) =
            certificate_text(search, &live.recorder.setup).map_err(|e| e.to_string())?;
        Ok((text, positions, proved))
    }

    /// Makes the certificate of the current run for the shell to save at
    /// `path`.
    pub(super) fn certify(&mut self, path: std::path::PathBuf, out: &mut dyn Outbox) {
        match self.certificate() {
            Ok((text, positions, proved)) => {
                out.deliver(Event::CertificateReady(CertificateReady {
                    path,
                    text,
                    positions,
                    proved,
                }))
            }
            // Solved, but the writer failed: name the file it was for.
            Err(e)
                if self
                    .search()
                    .is_some_and(|s| matches!(s.status(), Status::Proved | Status::Disproved)) =>
            {
                out.deliver(Event::Error(format!("proof {}: {e}", path.display())))
            }
            Err(e) => out.deliver(Event::Error(e)),
        }
    }
}
