//! The clock the driver reads (snapshot throttling, chunk lengths, pacing,
//! frame budgets): the program's one clock, [`crate::clock`], which works
//! in a web page too.

pub use crate::clock::{now, Duration, Instant};
