//! Where the machine's events go.

use super::Event;

/// Where the machine's events go: a channel (the desktop thread), a
/// bounded queue (the page), a plain vector (a synchronous shell).
pub trait Outbox {
    /// An event that must arrive (blocks or queues without limit).
    fn deliver(&mut self, ev: Event);
    /// A droppable event; handed back when there is no room for it now.
    fn offer(&mut self, ev: Event) -> Result<(), Event>;
    /// False once nobody listens any more (the machine stops working).
    fn connected(&self) -> bool;
}

/// A synchronous shell's outbox: every event is kept, in order.
impl Outbox for Vec<Event> {
    fn deliver(&mut self, ev: Event) {
        self.push(ev);
    }

    fn offer(&mut self, ev: Event) -> Result<(), Event> {
        self.push(ev);
        Ok(())
    }

    fn connected(&self) -> bool {
        true
    }
}
