//! The error rate of the move a search names best: each stats sample's
//! `best_child` scored against the position's correct root moves
//! ([`CorrectMoves`]), as in the error-rate curves of the PPN paper (Song
//! et al. 2019). The app draws it live and `curves.csv` (app and
//! `pnlab solve --export`) writes it, both through [`ErrorTally`], so the
//! two agree row for row.
//!
//! Before the search names any move its choice counts as wrong.

use super::correct_moves::CorrectMoves;
use super::StatsSample;

/// Running error tally of one run: each sample's choice stands for the
/// iterations since the previous sample (the sampling stride grows on
/// long runs), so the share is per iteration, not per sample.
#[derive(Clone, Copy, Debug, Default)]
pub struct ErrorTally {
    wrong_iterations: u64,
    last: u64,
}

impl ErrorTally {
    /// Scores one sample: `(iteration, wrong now (0/1), share of wrong
    /// iterations so far)`.
    pub fn add(&mut self, s: &StatsSample, correct: &CorrectMoves) -> (f64, f64, f64) {
        let wrong = !correct.is_correct(s.best_child);
        let span = s.iteration.saturating_sub(self.last).max(1);
        if wrong {
            self.wrong_iterations += span;
        }
        self.last = s.iteration.max(self.last);
        let share = self.wrong_iterations as f64 / self.last.max(1) as f64;
        (s.iteration as f64, if wrong { 1.0 } else { 0.0 }, share)
    }
}

/// The two error curves of one run as plot points `[iteration, y]`: the
/// current choice's error (0/1) and the running share of wrong
/// iterations ([`ErrorTally`]).
pub fn error_points(samples: &[StatsSample], correct: &CorrectMoves) -> ErrorPoints {
    let mut out = ErrorPoints::default();
    let mut tally = ErrorTally::default();
    for s in samples {
        let (x, now, share) = tally.add(s, correct);
        out.wrong_now.push([x, now]);
        out.share.push([x, share]);
    }
    out
}

/// See [`error_points`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorPoints {
    /// `[iteration, 1.0]` where the chosen move was wrong, `0.0` where right.
    pub wrong_now: Vec<[f64; 2]>,
    /// `[iteration, share of the iterations so far with a wrong choice]`.
    pub share: Vec<[f64; 2]>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(iteration: u64, best_child: Option<u32>) -> StatsSample {
        StatsSample {
            iteration,
            best_child,
            ..StatsSample::default()
        }
    }

    #[test]
    fn the_share_weights_each_choice_by_the_iterations_it_stood_for() {
        let c = CorrectMoves::exhaustive_with(vec![false, true], &["b"]);
        // No choice at 1, wrong choice over 2..=4, right over 5..=10.
        let s = [sample(1, None), sample(4, Some(0)), sample(10, Some(1))];
        let p = error_points(&s, &c);
        assert_eq!(p.wrong_now, vec![[1.0, 1.0], [4.0, 1.0], [10.0, 0.0]]);
        assert_eq!(p.share, vec![[1.0, 1.0], [4.0, 1.0], [10.0, 0.4]]);
    }
}
