//! Run controls and the parameter panel (issue #5 item 4, docs/architecture.md
//! "Controls"): step, step ×N, run/pause, speed, back with a scrubber,
//! reset, budgets, keyboard shortcuts; the algorithm picker and a
//! parameter panel generated from each algorithm's `ParamSpec` list, so a
//! new algorithm needs no UI code.

use crate::game::GameKind;
use crate::search::params::{ParamKind, ParamSpec, ParamValue};
use crate::search::{Algorithm, Budget, Params};

use super::driver::Command;

/// Control settings (persisted).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Controls {
    /// How many iterations the "Step ×N" button runs.
    pub step_n: u64,
    /// Iterations per second while running, when `paced`.
    pub speed: f64,
    /// Run at `speed` iterations per second instead of as fast as possible.
    pub paced: bool,
    /// Iteration cap of a run when `use_budget` is on.
    pub budget_iterations: u64,
    /// Node cap of a run when `use_budget` is on.
    pub budget_nodes: u64,
    /// Apply the iteration and node caps to Run.
    pub use_budget: bool,
    /// Pause when the search's tree or table (and its time-travel
    /// checkpoints) pass `memory_budget_mb` megabytes.
    pub use_memory_budget: bool,
    /// The memory budget in megabytes (default: half the machine's
    /// memory, see [`default_memory_budget_mb`]).
    pub memory_budget_mb: u64,
    /// Scrubber position being dragged.
    #[serde(skip)]
    pub scrub: u64,
    /// True while the scrubber is dragged (the worker jumps only on release).
    #[serde(skip)]
    pub scrubbing: bool,
}

impl Default for Controls {
    fn default() -> Self {
        Controls {
            step_n: 10,
            speed: 5.0,
            paced: false,
            budget_iterations: 100_000,
            budget_nodes: 1_000_000,
            use_budget: false,
            use_memory_budget: true,
            memory_budget_mb: default_memory_budget_mb(),
            scrub: 0,
            scrubbing: false,
        }
    }
}

/// What the controls need to know about the run.
pub struct RunInfo {
    /// The iteration the displayed state is at.
    pub iteration: u64,
    /// The last recorded iteration (the scrubber's range).
    pub max_iteration: u64,
    /// The worker is running: stepping and scrubbing are disabled.
    pub running: bool,
    /// The search has a final status: nothing left to step.
    pub finished: bool,
    /// A run on the open position has started (nothing works before).
    pub loaded: bool,
}

impl Controls {
    /// The budget the run pauses at: the memory budget when on, the
    /// iteration and node caps when `use_budget`.
    pub fn budget(&self) -> Budget {
        Budget {
            max_iterations: self.use_budget.then_some(self.budget_iterations),
            max_nodes: self.use_budget.then_some(self.budget_nodes),
            time_limit: None,
            max_memory_bytes: self
                .use_memory_budget
                .then_some(self.memory_budget_mb.saturating_mul(1_000_000)),
        }
    }

    /// Iterations per second for the worker, or `None` for full speed.
    pub fn speed_setting(&self) -> Option<f64> {
        self.paced.then_some(self.speed)
    }

    /// The toolbar row: Step, Step ×N, Run/Pause, Back, Reset, scrubber.
    /// A control that cannot act now is disabled and says why.
    pub fn toolbar(&mut self, ui: &mut egui::Ui, run: &RunInfo) -> Vec<Command> {
        let mut out = Vec::new();
        let why_not_step = if !run.loaded {
            Some("no run yet: the position is loading or no algorithm can search it")
        } else if run.finished {
            Some("the search is over: it reached a final status (Back or Reset to look again)")
        } else if run.running {
            Some("running: pause first")
        } else {
            None
        };
        let why_not_back = if !run.loaded {
            Some("no run yet")
        } else if run.iteration == 0 {
            Some("already at iteration 0")
        } else {
            None
        };
        ui.horizontal_wrapped(|ui| {
            let can_step = why_not_step.is_none();
            if ui
                .add_enabled(can_step, egui::Button::new("Step"))
                .on_hover_text("One iteration (→)")
                .on_disabled_hover_text(why_not_step.unwrap_or_default())
                .clicked()
            {
                out.push(Command::Step(1));
            }
            let label = format!("Step ×{}", self.step_n);
            if ui
                .add_enabled(can_step, egui::Button::new(label))
                .on_hover_text("Run N iterations")
                .on_disabled_hover_text(why_not_step.unwrap_or_default())
                .clicked()
            {
                out.push(Command::Step(self.step_n));
            }
            ui.add(
                egui::DragValue::new(&mut self.step_n)
                    .range(1..=1_000_000)
                    .prefix("N = "),
            );
            if run.running {
                if ui.button("Pause").on_hover_text("Pause (space)").clicked() {
                    out.push(Command::Pause);
                }
            } else if ui
                .add_enabled(run.loaded && !run.finished, egui::Button::new("Run"))
                .on_hover_text("Run until solved (space)")
                .on_disabled_hover_text(why_not_step.unwrap_or_default())
                .clicked()
            {
                out.push(Command::Run);
            }
            if ui
                .add_enabled(why_not_back.is_none(), egui::Button::new("Back"))
                .on_hover_text("One iteration back (←)")
                .on_disabled_hover_text(why_not_back.unwrap_or_default())
                .clicked()
            {
                out.push(Command::Back(1));
            }
            if ui
                .add_enabled(run.loaded, egui::Button::new("Reset"))
                .on_hover_text("Back to iteration 0 (Home)")
                .on_disabled_hover_text("no run yet")
                .clicked()
            {
                out.push(Command::Reset);
            }
            ui.separator();
            if ui
                .checkbox(&mut self.paced, "Paced")
                .on_hover_text("Run at a fixed number of iterations per second")
                .changed()
            {
                out.push(Command::SetSpeed(self.speed_setting()));
            }
            if self.paced {
                let r = ui.add(
                    egui::Slider::new(&mut self.speed, 0.5..=200.0)
                        .logarithmic(true)
                        .suffix(" it/s"),
                );
                if r.changed() {
                    out.push(Command::SetSpeed(self.speed_setting()));
                }
            }
        });
        // Scrubber: any iteration up to the highest reached, rebuilt from
        // the nearest checkpoint when the drag ends (or on a click).
        ui.horizontal(|ui| {
            ui.label("Iteration");
            let mut v = if self.scrubbing {
                self.scrub
            } else {
                run.iteration
            };
            let max = run.max_iteration.max(run.iteration);
            let r = ui
                .add_enabled(
                    run.loaded && !run.running && max > 0,
                    egui::Slider::new(&mut v, 0..=max.max(1)).text(format!("of {max}")),
                )
                .on_disabled_hover_text(if run.running {
                    "running: pause first"
                } else {
                    "nothing to scrub yet: step first"
                });
            if r.dragged() {
                self.scrubbing = true;
                self.scrub = v;
            }
            if r.drag_stopped() {
                self.scrubbing = false;
                out.push(Command::GoTo(v));
            } else if r.changed() && !r.dragged() {
                out.push(Command::GoTo(v));
            }
        });
        out
    }

    /// Keyboard shortcuts (space, →, ←, Home), ignored while a text field
    /// has focus.
    pub fn shortcuts(&self, ctx: &egui::Context, run: &RunInfo) -> Vec<Command> {
        if ctx.memory(|m| m.focused().is_some()) && ctx.egui_wants_keyboard_input() {
            return Vec::new();
        }
        let mut out = Vec::new();
        ctx.input(|i| {
            if !run.loaded {
                return;
            }
            if i.key_pressed(egui::Key::Space) {
                out.push(if run.running {
                    Command::Pause
                } else {
                    Command::Run
                });
            }
            if i.key_pressed(egui::Key::ArrowRight) && !run.running && !run.finished {
                out.push(Command::Step(1));
            }
            if i.key_pressed(egui::Key::ArrowLeft) && run.iteration > 0 {
                out.push(Command::Back(1));
            }
            if i.key_pressed(egui::Key::Home) {
                out.push(Command::Reset);
            }
        });
        out
    }

    /// Budgets section of the side panel.
    pub fn budget_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut changed = false;
        // Wrapped: at projector sizes the side panel is narrower than this
        // row, and a row wider than the panel widens everything in it
        // (descriptions then run past the panel's edge).
        ui.horizontal_wrapped(|ui| {
            changed |= ui
                .checkbox(&mut self.use_memory_budget, "Pause at a memory budget of")
                .on_hover_text("The search's tree or table plus its time-travel checkpoints; the default is half this machine's memory")
                .changed();
            changed |= ui
                .add_enabled(
                    self.use_memory_budget,
                    egui::DragValue::new(&mut self.memory_budget_mb)
                        .range(16..=u64::MAX)
                        .speed(16.0)
                        .suffix(" MB"),
                )
                .changed();
        });
        changed |= ui
            .checkbox(&mut self.use_budget, "Pause at an iteration or node budget")
            .changed();
        ui.add_enabled_ui(self.use_budget, |ui| {
            changed |= budget_row(ui, "iterations", &mut self.budget_iterations);
            changed |= budget_row(ui, "nodes", &mut self.budget_nodes);
        });
        if changed {
            vec![Command::SetBudget(self.budget())]
        } else {
            Vec::new()
        }
    }
}

/// The default memory budget in MiB: the engine's, shared with the
/// command line, Python and the experiments.
pub fn default_memory_budget_mb() -> u64 {
    crate::params::bounds::default_memory_mib()
}

/// A single-line text field for a list or text parameter. The text being
/// typed lives in egui's memory while the field has focus (a half-typed
/// list such as `0.5,` is not a value yet); every edit that parses with
/// [`ParamSpec::parse_value`] becomes the value, and an edit that does
/// not is shown in the error colour with the expected range as tooltip.
fn text_param(ui: &mut egui::Ui, spec: &ParamSpec, value: &mut String, name_id: egui::Id) {
    let id = ui.make_persistent_id(("param-text", spec.name));
    let focused = ui.memory(|m| m.has_focus(id));
    let mut text = if focused {
        ui.data_mut(|d| d.get_temp::<String>(id))
            .unwrap_or_else(|| value.clone())
    } else {
        value.clone()
    };
    let parsed = spec.parse_value(&text);
    let mut edit = egui::TextEdit::singleline(&mut text).id(id);
    if parsed.is_err() {
        edit = edit.text_color(ui.visuals().error_fg_color);
    }
    let r = ui.add(edit).labelled_by(name_id).on_hover_text(format!(
        "{} ({})",
        spec.help,
        spec.range_text()
    ));
    if r.changed() {
        if let Ok(ParamValue::Choice(t)) = spec.parse_value(&text) {
            *value = t;
        }
    }
    ui.data_mut(|d| d.insert_temp(id, text));
}

/// One budget limit: its name and a value of at least 1; true when it
/// changed.
fn budget_row(ui: &mut egui::Ui, name: &str, value: &mut u64) -> bool {
    ui.horizontal(|ui| {
        let l = ui.label(name);
        ui.add(egui::DragValue::new(value).range(1..=u64::MAX))
            .labelled_by(l.id)
            .changed()
    })
    .inner
}

/// The algorithm picker and its generated parameter panel. Returns true
/// when the algorithm or a parameter changed.
pub fn algorithm_panel(
    ui: &mut egui::Ui,
    game: GameKind,
    algo: &mut Algorithm,
    params: &mut Params,
    seed: &mut u64,
) -> bool {
    let mut changed = false;
    egui::ComboBox::from_label("Algorithm")
        .selected_text(algo.name())
        .show_ui(ui, |ui| {
            for a in Algorithm::all() {
                let r = ui
                    .selectable_label(*algo == a, a.name())
                    .on_hover_text(a.summary);
                if r.clicked() && *algo != a {
                    *algo = a;
                    *params = Params::defaults(&a.params_for(game));
                    changed = true;
                }
            }
        });
    let info = algo.info();
    ui.weak(info.summary);
    // The algorithm's own parameters, then the options the open game
    // gives the searches that use them (Connect6's zones, say); a game
    // without such options shows none.
    let specs = info.params_for(game);
    for spec in &specs {
        let value = params
            .get(spec.name)
            .cloned()
            .unwrap_or_else(|| spec.default_value());
        let mut new_value = value.clone();
        let mut mismatch = false;
        ui.horizontal(|ui| {
            let name_id = ui.label(spec.name).on_hover_text(spec.help).id;
            match (spec.kind, &mut new_value) {
                (ParamKind::Real { min, max, .. }, ParamValue::Real(v)) => {
                    ui.add(egui::Slider::new(v, min..=max))
                        .on_hover_text(spec.help);
                }
                (ParamKind::Int { min, max, .. }, ParamValue::Int(v)) => {
                    let hi = max.min(1_000_000_000);
                    ui.add(egui::DragValue::new(v).range(min..=hi))
                        .labelled_by(name_id)
                        .on_hover_text(spec.help);
                }
                (ParamKind::Choice { options, .. }, ParamValue::Choice(v)) => {
                    egui::ComboBox::from_id_salt(spec.name)
                        .selected_text(v.as_str())
                        .show_ui(ui, |ui| {
                            for o in options {
                                if ui.selectable_label(v == o, *o).clicked() {
                                    *v = o.to_string();
                                }
                            }
                        })
                        .response
                        .on_hover_text(spec.help);
                }
                (ParamKind::RealOrAuto { min, max }, v) => {
                    let mut auto = !matches!(v, ParamValue::Real(_));
                    if ui
                        .checkbox(&mut auto, "auto")
                        .on_hover_text(spec.help)
                        .changed()
                    {
                        *v = if auto {
                            ParamValue::Choice(crate::search::params::AUTO.to_string())
                        } else {
                            ParamValue::Real(0.0_f64.clamp(min, max))
                        };
                    }
                    if let ParamValue::Real(x) = v {
                        ui.add(egui::DragValue::new(x).range(min..=max).speed(0.1))
                            .labelled_by(name_id)
                            .on_hover_text(spec.help);
                    }
                }
                (ParamKind::List { .. } | ParamKind::Text { .. }, ParamValue::Choice(v)) => {
                    text_param(ui, spec, v, name_id);
                }
                // A value of the wrong type (e.g. from an old settings
                // file) is replaced by the default.
                _ => mismatch = true,
            }
        });
        if mismatch {
            new_value = spec.default_value();
        }
        if new_value != value {
            // The widgets keep values inside the described range, so the
            // check cannot fail; if it did, the old value stays.
            changed |= params.set_value(&specs, spec.name, new_value).is_ok();
        }
    }
    ui.horizontal(|ui| {
        let l = ui.label("seed");
        changed |= ui
            .add(egui::DragValue::new(seed))
            .labelled_by(l.id)
            .changed();
    });
    changed
}
