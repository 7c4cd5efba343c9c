//! Certificates: the proof (or disproof) of a solved run as the text
//! `pnlab verify` reads. The machine makes it; the shell saves it.

use pnlab_core::search::Status;

use super::machine::RunMachine;
use super::{CertificateReady, Event, Outbox, RunFault};
use crate::solve::certificate_text;
use pnlab_core::search::proof::ProofError;

impl RunMachine {
    /// The certificate of the current run, if it is solved: its text,
    /// its distinct positions and whether it proves (true) or disproves;
    /// otherwise the user-facing reason there is none. A synchronous
    /// shell calls it directly; [`Command::Certificate`] sends it as an
    /// event.
    ///
    /// [`Command::Certificate`]: super::Command::Certificate
    pub fn certificate(&self) -> Result<(String, usize, bool), CertificateRefused> {
        let Some(live) = self.live.as_ref() else {
            return Err(CertificateRefused::Fault(RunFault::NoRun));
        };
        let Some(search) = live.search.as_deref() else {
            return Err(CertificateRefused::Fault(RunFault::SearchFailed));
        };
        let proved = match search.status() {
            Status::Proved => true,
            Status::Disproved => false,
            _ => return Err(CertificateRefused::Fault(RunFault::NotSolved)),
        };
        let (text, positions) =
            certificate_text(search, &live.recorder.setup).map_err(CertificateRefused::Writer)?;
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
            Err(CertificateRefused::Writer(source)) => {
                out.deliver(Event::Error(RunFault::Certificate { path, source }))
            }
            Err(CertificateRefused::Fault(e)) => out.deliver(Event::Error(e)),
        }
    }
}

/// Why the current run has no certificate: the run is not in a state to
/// have one, or the writer failed on a solved run (which the machine
/// reports with the file it was for).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CertificateRefused {
    /// No run, a failed one, or no answer yet.
    #[error(transparent)]
    Fault(RunFault),
    /// The run is solved but its certificate could not be written.
    #[error(transparent)]
    Writer(ProofError),
}
