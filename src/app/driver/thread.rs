//! The desktop driver: the run machine ([`RunMachine`]) on a thread of its own, bounded
//! channels both ways (docs/architecture.md, "One protocol, two drivers").
//!
//! The thread blocks on the command queue while idle; while running or
//! travelling it works in chunks of [`CHUNK`] and looks at the queue
//! between them (a paced run sleeps on the queue until its next step is
//! due). Commands that interrupt raise a cancel flag the chunk reads, so
//! Pause or Back never waits for a chunk to end. Every event wakes the
//! window. Dropping the driver stops and joins the thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender, TrySendError};

use super::{Command, DriverError, DriverKind, Event, SearchDriver, QUEUE_CAPACITY};
use crate::clock::{self, Duration};
use crate::run::{Outbox, RunMachine};

/// A running chunk returns to the command queue after this long.
pub const CHUNK: Duration = Duration::from_millis(12);

type Wake = Arc<dyn Fn() + Send + Sync>;

/// The machine's events into the channel, waking the window.
struct ChannelOutbox {
    tx: Sender<Event>,
    wake: Wake,
    connected: bool,
}

impl Outbox for ChannelOutbox {
    fn deliver(&mut self, ev: Event) {
        if self.tx.send(ev).is_err() {
            self.connected = false;
        }
        (self.wake)();
    }

    fn offer(&mut self, ev: Event) -> Result<(), Event> {
        match self.tx.try_send(ev) {
            Ok(()) => {
                (self.wake)();
                Ok(())
            }
            Err(TrySendError::Full(ev)) => Err(ev),
            Err(TrySendError::Disconnected(_)) => {
                self.connected = false;
                Ok(())
            }
        }
    }

    fn connected(&self) -> bool {
        self.connected
    }
}

/// The UI's end of a search thread.
pub struct ThreadDriver {
    commands: Sender<Command>,
    events: Receiver<Event>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ThreadDriver {
    /// Starts the named search thread; `wake` is called after every event.
    pub fn spawn(wake: impl Fn() + Send + Sync + 'static) -> Result<ThreadDriver, DriverError> {
        let (cmd_tx, cmd_rx) = bounded(QUEUE_CAPACITY);
        let (ev_tx, ev_rx) = bounded(QUEUE_CAPACITY);
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let wake: Wake = Arc::new(wake);
        let thread = std::thread::Builder::new()
            .name("pnlab-search".into())
            .spawn(move || {
                let mut out = ChannelOutbox {
                    tx: ev_tx,
                    wake,
                    connected: true,
                };
                main_loop(&mut RunMachine::new(), &cmd_rx, &flag, &mut out);
            })
            .map_err(|e| DriverError::Start(std::sync::Arc::new(e)))?;
        Ok(ThreadDriver {
            commands: cmd_tx,
            events: ev_rx,
            cancel,
            thread: Some(thread),
        })
    }
}

/// The thread's loop: drain commands (block when idle, poll when busy),
/// then work one chunk.
fn main_loop(
    m: &mut RunMachine,
    commands: &Receiver<Command>,
    cancel: &AtomicBool,
    out: &mut ChannelOutbox,
) {
    while out.connected && !m.stopped() {
        cancel.store(false, Ordering::Relaxed);
        loop {
            let cmd = if m.busy() {
                match commands.recv_timeout(m.due_in(clock::now())) {
                    Ok(c) => c,
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match commands.recv() {
                    Ok(c) => c,
                    Err(_) => return,
                }
            };
            m.handle(cmd, CHUNK, out);
            if m.stopped() || !out.connected {
                return;
            }
        }
        m.work(CHUNK, &|| cancel.load(Ordering::Relaxed), out);
    }
}

impl SearchDriver for ThreadDriver {
    fn send(&mut self, cmd: Command) -> Result<(), DriverError> {
        if cmd.interrupts() {
            self.cancel.store(true, Ordering::Relaxed);
        }
        match self.commands.try_send(cmd) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(DriverError::Busy),
            Err(TrySendError::Disconnected(_)) => Err(DriverError::Stopped),
        }
    }

    fn pump(&mut self) {}

    fn poll(&mut self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    fn wait(&mut self, timeout: Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }

    fn kind(&self) -> DriverKind {
        DriverKind::Thread
    }
}

impl Drop for ThreadDriver {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        let _ = self.commands.try_send(Command::Stop);
        // Dropping the receiver makes any blocking send in the thread fail,
        // so the join below cannot hang on a full event channel.
        self.events = crossbeam_channel::never();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
