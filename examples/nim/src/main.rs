//! Prints what every algorithm of pnlab's registry says about a few Nim
//! positions, beside Bouton's answer.

use pnlab_example_nim::{algorithm_names, solve, solve_root_by_root, Answer, Nim};

fn main() {
    let positions = [
        Nim::new(&[1, 2, 3]),
        Nim::new(&[3, 4, 5]),
        Nim::new(&[2, 5, 6]),
    ];
    for p in &positions {
        let heaps: Vec<String> = p.heaps().iter().map(u8::to_string).collect();
        println!(
            "heaps {}: the player to move {} (Bouton)",
            heaps.join(" "),
            if p.mover_wins() { "wins" } else { "loses" }
        );
        for algo in algorithm_names() {
            println!("  {algo:<12} {}", said(solve(algo, p, 1_000_000)));
        }
        let own = said(solve_root_by_root(p, 1_000_000));
        println!(
            "  {:<12} {own} (this crate's own algorithm)",
            "root-by-root"
        );
    }
}

/// An answer in words.
fn said(answer: Answer) -> String {
    match answer {
        Answer::MoverWins(true) => "wins".to_string(),
        Answer::MoverWins(false) => "loses".to_string(),
        Answer::NoAnswer(why) => format!("no answer ({why})"),
        Answer::Refused(why) => format!("refused: {why}"),
    }
}
