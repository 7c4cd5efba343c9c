//! Seesaw instrumentation shared by the best-first algorithms
//! (docs/algorithms.md §9).

use super::{Counters, SwitchEvent};

/// Marker for "this node has not been on a selection path yet".
pub const NO_PICK: u16 = u16::MAX;

/// Tracks the root's selected child from iteration to iteration and records
/// a [`SwitchEvent`] each time it changes (`seesaw_root_switches`).
#[derive(Clone, Debug, Default)]
pub struct RootSwitches {
    last: Option<u32>,
    /// Every change of the root's pick, oldest first.
    pub events: Vec<SwitchEvent>,
}

impl RootSwitches {
    /// Notes that iteration `iteration` selected root child `child`.
    pub fn observe(&mut self, iteration: u64, child: u32, counters: &mut Counters) {
        if let Some(prev) = self.last {
            if prev != child {
                counters.seesaw_root_switches += 1;
                self.events.push(SwitchEvent {
                    iteration,
                    from: prev,
                    to: child,
                });
            }
        }
        self.last = Some(child);
    }

    /// The root child selected last.
    pub fn last(&self) -> Option<u32> {
        self.last
    }
}

/// Notes that a node on the selection path picked child `pick`; counts a
/// `seesaw_switches` event when it differs from that node's previous pick.
#[inline]
pub fn note_pick(last: &mut u16, pick: u16, counters: &mut Counters) {
    if *last != NO_PICK && *last != pick {
        counters.seesaw_switches += 1;
    }
    *last = pick;
}
