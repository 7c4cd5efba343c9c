//! The curves as CSV: one row per stats sample, the counters under their
//! command-line names, the root's values under theirs, the chosen root
//! child and, when the correct root moves are known, whether it was
//! correct and the share of wrong iterations so far ([`ErrorTally`]).

use std::fmt::Write as _;

use pnlab_core::search::correct_moves::CorrectMoves;
use pnlab_core::search::error_rate::ErrorTally;
use pnlab_core::search::StatsSample;

/// The CSV text of `samples`; `value_names` names the root value columns
/// (`root_pn`, `root_dn`, …).
pub fn curves_csv(
    samples: &[StatsSample],
    value_names: &[String],
    correct: Option<&CorrectMoves>,
) -> String {
    let mut out =
        String::from("iteration,nodes,max_depth,seesaw_root_switches,seesaw_switches,revisits");
    for n in value_names {
        let _ = write!(out, ",root_{n}");
    }
    out.push_str(",best_child");
    if correct.is_some() {
        out.push_str(",best_child_correct,error_share");
    }
    out.push('\n');
    let mut tally = ErrorTally::default();
    for s in samples {
        let _ = write!(
            out,
            "{},{},{},{},{},{}",
            s.iteration,
            s.nodes,
            s.max_depth,
            s.seesaw_root_switches,
            s.seesaw_switches,
            s.revisits
        );
        for v in &s.root_values {
            if v.is_infinite() {
                out.push_str(if *v > 0.0 { ",inf" } else { ",-inf" });
            } else {
                let _ = write!(out, ",{v}");
            }
        }
        match s.best_child {
            Some(b) => {
                let _ = write!(out, ",{b}");
            }
            None => out.push(','),
        }
        if let Some(c) = correct {
            let (_, wrong, share) = tally.add(s, c);
            let _ = write!(out, ",{},{share:.6}", wrong == 0.0);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pnlab_core::search::correct_moves::CorrectSource;

    #[test]
    fn curves_csv_scores_each_choice_when_the_correct_moves_are_known() {
        let sample = |iteration, best_child| StatsSample {
            iteration,
            best_child,
            root_values: vec![1.0, f64::INFINITY],
            ..StatsSample::default()
        };
        let samples = [sample(1, None), sample(2, Some(1)), sample(4, Some(0))];
        let names = vec!["pn".to_string(), "dn".to_string()];
        let plain = curves_csv(&samples, &names, None);
        assert!(plain.starts_with(
            "iteration,nodes,max_depth,seesaw_root_switches,seesaw_switches,revisits,root_pn,root_dn,best_child\n"
        ));
        let correct = CorrectMoves {
            correct: vec![true, false],
            labels: vec!["a1".into()],
            source: CorrectSource::Exhaustive,
            basis: String::new(),
        };
        let scored = curves_csv(&samples, &names, Some(&correct));
        let lines: Vec<&str> = scored.lines().collect();
        assert!(lines[0].ends_with(",best_child,best_child_correct,error_share"));
        // No choice and a wrong one over iterations 1–2, then right over
        // 3–4: half of the four iterations were wrong.
        assert!(lines[1].ends_with(",inf,,false,1.000000"), "{}", lines[1]);
        assert!(lines[2].ends_with(",inf,1,false,1.000000"), "{}", lines[2]);
        assert!(lines[3].ends_with(",inf,0,true,0.500000"), "{}", lines[3]);
    }
}
