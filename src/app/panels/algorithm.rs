//! The algorithm panel: the one place the main run's algorithm, its
//! parameters and the seed live (the settings keep a copy only when the
//! window closes). The parameter widgets are generated from the
//! algorithm's description (`controls::algorithm_panel`).

use crate::game::GameKind;
use crate::search::{Algorithm, Params, SearchError};

use super::super::controls;

/// The main run's algorithm, parameters and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct AlgorithmPanel {
    /// The algorithm (a registry handle: the name was checked where the
    /// user gave it).
    pub algo: Algorithm,
    /// Its parameters.
    pub params: Params,
    /// The seed of every random choice (0, as on the command line).
    pub seed: u64,
}

impl AlgorithmPanel {
    /// `algo` with its default parameters.
    pub fn new(algo: Algorithm, seed: u64) -> AlgorithmPanel {
        AlgorithmPanel {
            algo,
            params: Params::defaults(algo.params),
            seed,
        }
    }

    /// Sets the algorithm and `NAME=VALUE` parameters (the `--algo` and
    /// `--set` flags, a file's suggestion).
    pub fn set(
        &mut self,
        algo: Algorithm,
        game: GameKind,
        pairs: &[(String, String)],
    ) -> Result<(), SearchError> {
        self.params = algo.params_from_pairs(game, pairs)?;
        self.algo = algo;
        Ok(())
    }

    /// [`set`](Self::set) with the algorithm's name as the user gave it
    /// (a flag, a file's suggestion, a lesson step): the name is checked
    /// here, once, and an unknown one is the registry's error.
    pub fn set_named(
        &mut self,
        name: &str,
        game: GameKind,
        pairs: &[(String, String)],
    ) -> Result<(), SearchError> {
        self.set(Algorithm::named(name)?, game, pairs)
    }

    /// `algo (parameters)` for headers.
    pub fn summary(&self) -> String {
        format!("{} ({})", self.algo, self.params.summary())
    }

    /// Draws the picker and the parameters; true when anything changed.
    pub fn ui(&mut self, ui: &mut egui::Ui, game: GameKind) -> bool {
        ui.heading("Algorithm");
        controls::algorithm_panel(ui, game, &mut self.algo, &mut self.params, &mut self.seed)
    }
}
