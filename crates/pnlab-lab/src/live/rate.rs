//! The per-connection rate limit: a token bucket. Each message takes a
//! token; tokens come back at a steady rate up to a burst. A message
//! with no token left is refused, and refusals add strikes that fade at
//! one a second: a connection that keeps sending faster than the limit
//! piles up strikes and is dropped, while a student who taps quickly a
//! few times is only told to slow down.

use std::time::{Duration, Instant};

/// The limit's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    /// Tokens (messages) regained per second.
    pub per_second: f64,
    /// The most tokens a connection holds (a burst).
    pub burst: f64,
    /// Strikes at which the connection is dropped.
    pub drop_at: f64,
}

impl Default for RateLimit {
    /// 10 messages a second, bursts of 20, dropped after 50 strikes.
    fn default() -> Self {
        RateLimit {
            per_second: 10.0,
            burst: 20.0,
            drop_at: 50.0,
        }
    }
}

/// What the bucket says about one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Take the message.
    Yes,
    /// Refuse it; `first` when it is the first refusal since the last
    /// message taken (the sender is told once, not once per message).
    Refuse {
        /// The first refusal of a run.
        first: bool,
    },
    /// Refuse it and drop the connection: it keeps flooding.
    Drop,
}

/// One connection's bucket.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    strikes: f64,
    refusing: bool,
    last: Instant,
}

impl Bucket {
    /// A full bucket at `now`.
    pub fn new(limit: &RateLimit, now: Instant) -> Bucket {
        Bucket {
            tokens: limit.burst,
            strikes: 0.0,
            refusing: false,
            last: now,
        }
    }

    /// Whether a message arriving at `now` is taken.
    pub fn admit(&mut self, limit: &RateLimit, now: Instant) -> Admit {
        let dt = now
            .checked_duration_since(self.last)
            .unwrap_or(Duration::ZERO)
            .as_secs_f64();
        self.last = self.last.max(now);
        self.tokens = (self.tokens + dt * limit.per_second).min(limit.burst);
        self.strikes = (self.strikes - dt).max(0.0);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.refusing = false;
            return Admit::Yes;
        }
        self.strikes += 1.0;
        if self.strikes >= limit.drop_at {
            return Admit::Drop;
        }
        let first = !self.refusing;
        self.refusing = true;
        Admit::Refuse { first }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_rate_holds_and_a_flood_is_dropped() {
        let limit = RateLimit::default();
        let t0 = Instant::now();
        let mut b = Bucket::new(&limit, t0);
        for _ in 0..20 {
            assert_eq!(b.admit(&limit, t0), Admit::Yes);
        }
        assert_eq!(b.admit(&limit, t0), Admit::Refuse { first: true });
        assert_eq!(b.admit(&limit, t0), Admit::Refuse { first: false });
        // A tenth of a second later one token is back.
        let t1 = t0 + Duration::from_millis(100);
        assert_eq!(b.admit(&limit, t1), Admit::Yes);
        assert_eq!(b.admit(&limit, t1), Admit::Refuse { first: true });
        // Keep sending at the same instant: dropped at 50 strikes.
        let mut dropped = false;
        for _ in 0..60 {
            if b.admit(&limit, t1) == Admit::Drop {
                dropped = true;
                break;
            }
        }
        assert!(dropped);
        // A calm connection never is: 5 messages a second for a minute.
        let mut calm = Bucket::new(&limit, t0);
        for k in 0..300 {
            let t = t0 + Duration::from_millis(200 * k);
            assert_eq!(calm.admit(&limit, t), Admit::Yes);
        }
    }
}
