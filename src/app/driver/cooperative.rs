//! The cooperative driver: the run machine ([`RunMachine`]) on the
//! caller's thread,
//! advanced only inside [`SearchDriver::pump`] for at most
//! [`FRAME_BUDGET`] per call, so a page without threads keeps drawing at
//! 60 frames a second while the search runs. Commands wait in a queue
//! until the next pump; events wait in a queue of the same capacity as
//! the thread driver's channel, with the same rule (droppable events are
//! dropped or kept pending when it is full), so both drivers tell the UI
//! the same story.

use std::collections::VecDeque;

use super::{Command, DriverError, DriverKind, Event, SearchDriver, QUEUE_CAPACITY};
use crate::clock::{self, Duration};
use crate::run::{Outbox, RunMachine};

/// Time one pump may spend stepping: a few milliseconds of a 16.7 ms
/// frame, leaving the rest to drawing. The machine is handed it with
/// every command and every call to work.
pub const FRAME_BUDGET: Duration = Duration::from_millis(6);

/// Events waiting for the UI.
#[derive(Default)]
struct QueueOutbox {
    events: VecDeque<Event>,
}

impl Outbox for QueueOutbox {
    fn deliver(&mut self, ev: Event) {
        self.events.push_back(ev);
    }

    fn offer(&mut self, ev: Event) -> Result<(), Event> {
        if self.events.len() >= QUEUE_CAPACITY {
            return Err(ev);
        }
        self.events.push_back(ev);
        Ok(())
    }

    fn connected(&self) -> bool {
        true
    }
}

/// A run stepped on the caller's thread.
pub struct CooperativeDriver {
    machine: RunMachine,
    inbox: VecDeque<Command>,
    outbox: QueueOutbox,
    wake: Box<dyn Fn()>,
    budget: Duration,
}

impl CooperativeDriver {
    /// A driver that calls `wake` when it wants another frame.
    pub fn new(wake: impl Fn() + 'static) -> CooperativeDriver {
        CooperativeDriver {
            machine: RunMachine::new(),
            inbox: VecDeque::new(),
            outbox: QueueOutbox::default(),
            wake: Box::new(wake),
            budget: FRAME_BUDGET,
        }
    }

    /// Changes the time one pump may step (tests, a slow page).
    pub fn set_budget(&mut self, budget: Duration) {
        self.budget = budget;
    }
}

impl SearchDriver for CooperativeDriver {
    fn send(&mut self, cmd: Command) -> Result<(), DriverError> {
        if self.machine.stopped() {
            return Err(DriverError::Stopped);
        }
        if self.inbox.len() >= QUEUE_CAPACITY {
            return Err(DriverError::Busy);
        }
        self.inbox.push_back(cmd);
        (self.wake)();
        Ok(())
    }

    fn pump(&mut self) {
        while let Some(cmd) = self.inbox.pop_front() {
            self.machine.handle(cmd, self.budget, &mut self.outbox);
        }
        if self.machine.busy() && !self.machine.stopped() {
            self.machine.work(self.budget, &|| false, &mut self.outbox);
        }
        if self.machine.busy() || !self.outbox.events.is_empty() {
            (self.wake)();
        }
    }

    fn poll(&mut self) -> Option<Event> {
        self.outbox.events.pop_front()
    }

    fn wait(&mut self, timeout: Duration) -> Option<Event> {
        let deadline = clock::now() + timeout;
        loop {
            if let Some(ev) = self.outbox.events.pop_front() {
                return Some(ev);
            }
            if self.inbox.is_empty() && !self.machine.busy() {
                return None;
            }
            let now = clock::now();
            if now >= deadline {
                return None;
            }
            #[cfg(not(target_arch = "wasm32"))]
            {
                let due = self.machine.due_in(now).min(deadline - now);
                if !due.is_zero() && self.inbox.is_empty() {
                    std::thread::sleep(due);
                }
            }
            self.pump();
        }
    }

    fn kind(&self) -> DriverKind {
        DriverKind::Cooperative
    }
}
