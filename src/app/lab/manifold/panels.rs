//! The manifold lab's panels: the step slider and reference-face rule on the left, the trace's numbers on
//! the right.

use super::trace_view::{manifold_numbers, manifold_of, pair_numbers, trace_pair};
use super::{act, ManifoldAction};
use crate::app::lab::widgets::step_slider;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui;
use manifold_lab::engine::collide::polygon::ReferenceFaceRule;
use manifold_lab::engine::trace::Trace;

pub fn controls(ui: &mut egui::Ui, app: &Stage, stage: usize, rule: ReferenceFaceRule, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Stages").default_open(true).show(ui, |ui| {
        if let Some(t) = trace_pair(&app.world, 0, 1, rule) {
            if let Some(k) = step_slider(ui, stage, t.steps(), |k| t.step_label(k)) {
                out.push(act(ManifoldAction::SetStage(k)));
            }
        }
        ui.label("Reference face");
        for r in ReferenceFaceRule::ALL {
            if ui.radio(rule == r, r.label()).on_hover_text(rule_hint(r)).clicked() && r != rule {
                out.push(act(ManifoldAction::SetRule(r)));
            }
        }
    });
}

pub fn details(
    ui: &mut egui::Ui,
    app: &Stage,
    rule: ReferenceFaceRule,
    stage: usize,
    axis: Option<usize>,
    out: &mut Vec<Action>,
) {
    ui.heading("Manifold, A to B");
    if let Some(m) = manifold_of(&app.world, 0, 1, rule) {
        manifold_numbers(ui, &m);
    }
    ui.separator();
    if let Some(t) = trace_pair(&app.world, 0, 1, rule) {
        if let Some(axis) = pair_numbers(ui, &t, stage, axis) {
            out.push(act(ManifoldAction::SelectAxis(axis)));
        }
    }
}

fn rule_hint(rule: ReferenceFaceRule) -> &'static str {
    match rule {
        ReferenceFaceRule::Absolute => {
            "The engine's default: B's face wins only when 0.5 mm better, so the normal is the \
             minimum translation within 0.5 mm and does not flicker on resting contacts"
        }
        ReferenceFaceRule::Relative => {
            "The article's BiasGreaterThan (0.95 × + 0.01): on deep overlaps it may keep a face \
             centimetres worse; the shortest way out is then drawn beside it"
        }
        ReferenceFaceRule::Plain => "No hysteresis: the deeper face wins, and flickers on near ties",
    }
}

/// The "Other engines" switch and, when on, Box2D's and parry's answers beside ours.
pub fn peers_section(ui: &mut egui::Ui, app: &Stage, rule: ReferenceFaceRule, on: bool, out: &mut Vec<Action>) {
    if !cfg!(feature = "peers") {
        return;
    }
    ui.separator();
    let mut show = on;
    if ui
        .checkbox(&mut show, "Box2D v3 and parry2d")
        .on_hover_text("Their answer for this pair, drawn over ours")
        .changed()
    {
        out.push(act(ManifoldAction::ShowPeers(show)));
    }
    #[cfg(feature = "peers")]
    if on {
        if let Some(m) = manifold_of(&app.world, 0, 1, rule) {
            super::peers::section(ui, &app.world, &m);
        }
    }
    #[cfg(not(feature = "peers"))]
    let _ = (app, rule);
}
