//! Loading a run: building its search (errors and panics caught) and
//! the recorder that makes time travel possible.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pnlab_core::search::recorder::Recorder;
use pnlab_core::search::{registry, Search, SearchSetup};

use super::machine::{panicked, Live, RunMachine, COPY_SHARE};
use super::{Event, Outbox, RunSpec};
use super::{RunFault, RunPhase};

/// Builds the search, catching both errors and panics.
fn build(algo: &str, setup: &SearchSetup) -> Result<Box<dyn Search>, RunFault> {
    match catch_unwind(AssertUnwindSafe(|| registry::build(algo, setup))) {
        Ok(r) => Ok(r?),
        Err(p) => Err(panicked(RunPhase::Starting, &*p)),
    }
}

impl RunMachine {
    pub(super) fn load(&mut self, spec: RunSpec, out: &mut dyn Outbox) {
        self.pause(out);
        match build(spec.algo.name(), &spec.setup) {
            Ok(search) => self.install(spec, search, out),
            // No run stays loaded: stepping must never go on with the
            // previous position while the UI shows the new one.
            Err(e) => {
                self.live = None;
                self.pending.clear();
                out.deliver(Event::LoadFailed(e));
            }
        }
    }

    /// Loads a run whose search the shell already built from `spec` (as
    /// [`Command::Load`](super::Command::Load) would, without building it
    /// twice): Python's `Search` builds it through the solve request,
    /// whose errors it reports itself. A run under way is paused first.
    pub fn install(&mut self, spec: RunSpec, search: Box<dyn Search>, out: &mut dyn Outbox) {
        self.cancel_travel(out);
        self.pause(out);
        // A new run is at rest: the old one's preparation of a quick
        // Back is no use to it.
        self.mode = super::machine::Mode::Idle;
        let first = search.sample();
        let mut recorder = Recorder::new(spec.algo.name(), spec.setup, first.clone());
        recorder.set_copy_share(Some(COPY_SHARE));
        recorder.set_checkpoint_limit(self.checkpoint_limit());
        self.live = Some(Live {
            recorder,
            search: Some(search),
        });
        self.pending.clear();
        out.deliver(Event::Started {
            algo: spec.algo.name().to_string(),
        });
        if self.feeds.samples {
            out.deliver(Event::Samples(vec![first]));
        }
        self.send_snapshot(true, out);
        self.report_final(out);
    }
}
