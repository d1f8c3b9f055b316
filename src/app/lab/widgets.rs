//! Widgets every lab uses the same way.

use crate::app::panels::UiState;
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use std::path::{Path, PathBuf};

/// The step slider of every traced algorithm: ◀ slider ▶ and a caption for step `k` of
/// `count`. Returns the step chosen this frame, if it changed.
pub fn step_slider(ui: &mut egui::Ui, k: usize, count: usize, caption: impl Fn(usize) -> String) -> Option<usize> {
    let last = count.saturating_sub(1);
    let mut step = k.min(last);
    ui.horizontal(|ui| {
        if ui.button("◀").on_hover_text("previous step").clicked() && step > 0 {
            step -= 1;
        }
        ui.add_enabled(count > 1, egui::Slider::new(&mut step, 0..=last).show_value(false));
        if ui.button("▶").on_hover_text("next step").clicked() && step < last {
            step += 1;
        }
    });
    if count > 0 {
        ui.label(RichText::new(caption(step)).strong());
    }
    (step != k.min(last)).then_some(step)
}

/// A lab's presets section titled `title`: the list and its save field ([`presets`]), each
/// choice made the lab's action by `load` or `save`, and Restart (back to the preset as saved).
#[allow(clippy::too_many_arguments)]
pub fn presets_section(
    ui: &mut egui::Ui,
    title: &str,
    files: &mut UiState,
    dir: &str,
    current: Option<&Path>,
    load: impl Fn(PathBuf) -> Action,
    save: impl Fn(PathBuf) -> Action,
    out: &mut Vec<Action>,
) {
    egui::CollapsingHeader::new(title).default_open(true).show(ui, |ui| {
        match presets(ui, files, dir, current) {
            Some(PresetChoice::Load(p)) => out.push(load(p)),
            Some(PresetChoice::Save(p)) => out.push(save(p)),
            None => {}
        }
        if ui
            .button(crate::app::input::keys::label("Restart", &Action::Restart))
            .on_hover_text("Back to the preset as saved")
            .clicked()
        {
            out.push(Action::Restart);
        }
    });
}

/// What the user did with a preset list.
pub enum PresetChoice {
    Load(PathBuf),
    Save(PathBuf),
}

/// A lab's presets: every `.ron` file of `dir` (the `current` one highlighted) and a save-path
/// field with its Save button.
pub fn presets(ui: &mut egui::Ui, files: &mut UiState, dir: &str, current: Option<&Path>) -> Option<PresetChoice> {
    let (list, save_path) = files.presets(dir);
    let mut choice = None;
    for path in list {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if ui.selectable_label(current == Some(path.as_path()), name).clicked() {
            choice = Some(PresetChoice::Load(path.clone()));
        }
    }
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(save_path).desired_width(180.0));
        if ui.button("Save").on_hover_text("Save what the lab shows as a preset").clicked()
            && !save_path.trim().is_empty()
        {
            choice = Some(PresetChoice::Save(PathBuf::from(save_path.trim())));
        }
    });
    choice
}

/// Playing a lab's steps: one step every [`Player::STEP_SECONDS`] of real time, stopping on
/// the last.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Player {
    pub playing: bool,
    clock: f32,
}

impl Player {
    pub const STEP_SECONDS: f32 = 0.6;

    pub fn set(&mut self, on: bool) {
        *self = Player { playing: on, clock: 0.0 };
    }

    /// Advances the clock by `dt` seconds; when a step is due, shows the next one of `step`
    /// (`None` = the last), or stops on `last`.
    pub fn tick(&mut self, dt: f32, step: &mut Option<usize>, last: usize) {
        if !self.playing {
            return;
        }
        self.clock += dt;
        if self.clock < Self::STEP_SECONDS {
            return;
        }
        self.clock = 0.0;
        let next = step.map_or(0, |k| k + 1);
        if next >= last {
            (*step, self.playing) = (None, false);
        } else {
            *step = Some(next);
        }
    }
}
