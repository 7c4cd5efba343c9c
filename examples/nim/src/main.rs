//! Prints what every algorithm of pnlab's registry says about a few Nim
//! positions, beside Bouton's answer.

use pnlab_example_nim::{algorithm_names, solve, Answer, Nim};

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
            let said = match solve(algo, p, 1_000_000) {
                Answer::MoverWins(true) => "wins".to_string(),
                Answer::MoverWins(false) => "loses".to_string(),
                Answer::NoAnswer(why) => format!("no answer ({why})"),
                Answer::Refused(why) => format!("refused: {why}"),
            };
            println!("  {algo:<12} {said}");
        }
    }
}
