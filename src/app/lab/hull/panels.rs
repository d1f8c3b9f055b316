//! The hull lab's panels: the step slider with Play, a colour legend, the editing hints, the
//! presets on the left; the shown step's numbers and the finished hull on the right.

use super::{act, HullAction, HullLab, HULL_DIR};
use crate::app::lab::widgets::{presets_section, step_slider};
use crate::app::panels::UiState;
use crate::app::state::Action;
use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::debug::{palette, Color};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::shape::QuickHull2Step;
use manifold_lab::engine::trace::Trace;

fn color32(c: Color) -> Color32 {
    let u = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color32::from_rgb(u(c.r), u(c.g), u(c.b))
}

pub fn controls(ui: &mut egui::Ui, lab: &HullLab, files: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("QuickHull steps").default_open(true).show(ui, |ui| {
        let t = &lab.trace;
        if let Some(k) = step_slider(ui, lab.shown_step(), Trace::steps(t), |k| t.step_label(k)) {
            out.push(act(HullAction::SetStep(Some(k))));
        }
        let label = if lab.player.playing { "⏸ Stop" } else { "▶ Play the steps" };
        if ui.button(label).clicked() {
            out.push(act(HullAction::Play(!lab.player.playing)));
        }
    });
    egui::CollapsingHeader::new("Legend").default_open(true).show(ui, |ui| {
        for (text, c) in [
            ("■ hull so far", palette::POLYTOPE),
            ("■ chosen edge", palette::CLOSEST_EDGE),
            ("■ its outside set", palette::SHAPE_B),
            ("■ farthest point", palette::SUPPORT_POINT),
            ("■ new cone (two edges)", palette::KEPT),
            ("✖ dropped (inside, welded or flat)", palette::REJECTED),
        ] {
            ui.label(RichText::new(text).color(color32(c)));
        }
    });
    egui::CollapsingHeader::new("Points").default_open(true).show(ui, |ui| {
        ui.label(RichText::new("Click to add a point, drag one to move it, Shift+click one to delete it.").small());
        ui.horizontal(|ui| {
            if ui.button("Delete last").clicked() && !lab.spec.points.is_empty() {
                out.push(act(HullAction::DeletePoint(lab.spec.points.len() - 1)));
            }
            if ui.button("Clear").clicked() {
                out.push(act(HullAction::Clear));
            }
        });
    });
    let (load, save) = (|p| act(HullAction::Load(p)), |p| act(HullAction::Save(p)));
    presets_section(ui, "Presets", files, HULL_DIR, lab.path.as_deref(), load, save, out);
}

pub fn details(ui: &mut egui::Ui, lab: &HullLab, _out: &mut Vec<Action>) {
    ui.heading("Hull");
    if !lab.spec.description.is_empty() {
        ui.label(RichText::new(&lab.spec.description).small());
    }
    ui.label(format!("{} points", lab.spec.points.len()));
    match &lab.trace.result {
        Some(Ok(h)) => {
            ui.label(RichText::new(format!("✔ {} vertices", h.len())).color(Color32::from_rgb(120, 230, 140)));
        }
        Some(Err(e)) => {
            ui.label(RichText::new(format!("✖ no hull: {e}")).color(Color32::from_rgb(255, 120, 120)));
        }
        None => {}
    }
    ui.separator();
    let k = lab.shown_step();
    let Some(s) = lab.trace.steps.get(k) else { return };
    ui.label(RichText::new(lab.trace.step_label(k)).strong());
    ui.vertical(|ui| {
        let mut row = |name: &str, v: String| {
            ui.label(RichText::new(format!("{name:<12} {v}")).monospace());
        };
        let p = |v: glam::Vec2| format!("({:.3}, {:.3})", Num(v.x), Num(v.y));
        match s {
            QuickHull2Step::Weld { dropped } => row("welded", format!("{}", dropped.len())),
            QuickHull2Step::Extremes { a, b, below, above, dropped } => {
                row("leftmost", p(*a));
                row("rightmost", p(*b));
                row("below", format!("{}", below.len()));
                row("above", format!("{}", above.len()));
                row("on the chord", format!("{}", dropped.len()));
            }
            QuickHull2Step::Expand { before, edge, outside, farthest, distance, dropped } => {
                row("hull so far", format!("{} vertices", before.len()));
                row("edge", format!("{} → {}", p(edge[0]), p(edge[1])));
                row("outside set", format!("{}", outside.len()));
                row("farthest", p(*farthest));
                row("distance", format!("{distance:.4}", distance = Num(distance)));
                row("dropped", format!("{}", dropped.len()));
            }
            QuickHull2Step::Collinear { before, dropped } => {
                row("hull before", format!("{} vertices", before.len()));
                for v in dropped {
                    row("removed", p(*v));
                }
            }
            QuickHull2Step::Done { hull } => {
                for (i, v) in hull.iter().enumerate() {
                    row(&format!("v{i}"), p(*v));
                }
            }
        }
    });
}
