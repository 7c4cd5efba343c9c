//! The Hex resistance heat map: each empty cell shaded by its move score
//! in the Shannon/Anshelevich circuit model (the cell's share of the power
//! dissipated in both players' circuits, see `game::hex::resistance`),
//! scaled so the hottest cell is 1. Computed once per position and kept,
//! like the knowledge's cell statuses (`game::hex::knowledge`).

use crate::game::hex::knowledge::Knowledge;
use crate::game::hex::resistance::Resistance;
use crate::game::AnyPosition;

/// Heat per cell (row-major, `row * n + column`), 1 for the hottest
/// empty cell, `None` on stones; `None` for a position that is not Hex.
pub fn resistance_heat(pos: &AnyPosition) -> Option<Vec<Option<f32>>> {
    let AnyPosition::Hex(g) = pos.shown() else {
        return None;
    };
    let r = Resistance::of(g);
    let n = g.size() as usize;
    let empty: Vec<bool> = (0..n * n)
        .map(|i| g.cell((i % n) as u8, (i / n) as u8).is_none())
        .collect();
    let scores: Vec<f64> = (0..n * n).map(|i| r.move_score(i)).collect();
    let top = (0..n * n)
        .filter(|&i| empty[i])
        .map(|i| scores[i])
        .fold(0.0, f64::max);
    Some(
        (0..n * n)
            .map(|i| {
                empty[i].then(|| {
                    if top > 0.0 {
                        (scores[i] / top) as f32
                    } else {
                        0.0
                    }
                })
            })
            .collect(),
    )
}

/// The heat of the last position asked for (the map is drawn every frame;
/// the circuits are solved once per position).
#[derive(Default)]
pub struct HeatCache {
    key: String,
    heat: Option<Vec<Option<f32>>>,
}

impl HeatCache {
    /// The heat map of `pos`, from the cache when the position is the same.
    pub fn get(&mut self, pos: &AnyPosition) -> Option<&[Option<f32>]> {
        let key = pos.notation();
        if key != self.key || self.heat.is_none() {
            self.heat = resistance_heat(pos);
            self.key = key;
        }
        self.heat.as_deref()
    }
}

/// The knowledge report of the last Hex position asked for (fill-in and
/// two H-searches: done once per position, not every frame).
#[derive(Default)]
pub struct KnowledgeCache {
    key: String,
    report: Option<Knowledge>,
}

impl KnowledgeCache {
    /// The report on `pos` (`None` when it is not Hex).
    pub fn get(&mut self, pos: &AnyPosition) -> Option<&Knowledge> {
        let key = pos.notation();
        if key != self.key {
            self.report = match pos.shown() {
                AnyPosition::Hex(g) => Some(Knowledge::of(g)),
                _ => None,
            };
            self.key = key;
        }
        self.report.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;

    fn heat(text: &str) -> Vec<Option<f32>> {
        resistance_heat(&AnyPosition::parse(GameKind::Hex, text).unwrap()).unwrap()
    }

    #[test]
    fn stones_have_no_heat_and_the_hottest_cell_is_one() {
        let h = heat("5:c3 b4");
        let n = 5;
        assert_eq!(h[2 * n + 2], None, "c3");
        assert_eq!(h[3 * n + 1], None, "b4");
        let top = h.iter().flatten().fold(0.0f32, |a, &b| a.max(b));
        assert!((top - 1.0).abs() < 1e-6);
        assert!(h.iter().flatten().all(|&x| (0.0..=1.0).contains(&x)));
    }

    #[test]
    fn the_empty_board_map_is_symmetric_under_the_half_turn() {
        let n = 6;
        let h = heat("6:");
        for i in 0..n * n {
            let j = n * n - 1 - i;
            let (a, b) = (h[i].unwrap(), h[j].unwrap());
            assert!((a - b).abs() < 1e-4, "{i} {a} vs {j} {b}");
        }
    }

    #[test]
    fn other_games_have_no_map() {
        let p = AnyPosition::parse(GameKind::TicTacToe, ".........").unwrap();
        assert!(resistance_heat(&p).is_none());
    }
}
