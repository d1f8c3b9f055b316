//! The lab's panels: controls on the left (pairs, shapes, stage slider, bias), the trace's
//! numbers on the right.

use super::manifold::{manifold_numbers, manifold_of, trace_numbers, trace_pair, LAST_STAGE};
use super::{LabKind, LabState};
use crate::app::panels::UiState;
use crate::app::state::{Action, App};
use egui_macroquad::egui::{self, RichText};
use glam::Vec2;
use manifold_lab::engine::collide::trace::CLIP_STAGES;
use manifold_lab::scene::ShapeDesc;
use std::path::PathBuf;

/// Shapes offered for A and B.
pub fn shape_presets() -> Vec<(&'static str, ShapeDesc)> {
    let regular = |n: usize, r: f32| {
        let points = (0..n)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / n as f32 + std::f32::consts::FRAC_PI_2;
                Vec2::new(a.cos(), a.sin()) * r
            })
            .collect();
        ShapeDesc::Polygon { points }
    };
    vec![
        ("Box 2 × 1", ShapeDesc::Box { half_extents: Vec2::new(1.0, 0.5) }),
        ("Square 1 × 1", ShapeDesc::Box { half_extents: Vec2::new(0.5, 0.5) }),
        ("Long plank 4 × 0.3", ShapeDesc::Box { half_extents: Vec2::new(2.0, 0.15) }),
        ("Circle r 0.6", ShapeDesc::Circle { radius: 0.6 }),
        ("Triangle", regular(3, 0.8)),
        ("Pentagon", regular(5, 0.7)),
        ("Hexagon", regular(6, 0.7)),
        ("Octagon", regular(8, 0.7)),
        (
            "Sliver",
            ShapeDesc::Polygon {
                points: vec![Vec2::new(-1.2, -0.1), Vec2::new(1.2, -0.05), Vec2::new(1.1, 0.12), Vec2::new(-1.0, 0.1)],
            },
        ),
    ]
}

pub fn controls(ui: &mut egui::Ui, app: &App, lab: &LabState, st: &mut UiState, out: &mut Vec<Action>) {
    let entry = lab.kind.entry();
    ui.label(RichText::new(entry.name).strong());
    ui.label(RichText::new(entry.description).small());
    if ui.button("Back to the scene").clicked() {
        out.push(Action::CloseLab);
    }
    match lab.kind {
        LabKind::Tree => return super::tree_panels::controls(ui, app, lab, out),
        LabKind::Hull3d => return super::hull3d_panels::controls(ui, app, st, out),
        LabKind::Minkowski => super::minkowski_panels::controls(ui, app, lab, out),
        LabKind::Manifold => clip_stage_controls(ui, lab, out),
    }
    shapes_and_pairs(ui, lab, st, out);
}

fn clip_stage_controls(ui: &mut egui::Ui, lab: &LabState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Stages").default_open(true).show(ui, |ui| {
        let mut stage = lab.stage;
        ui.horizontal(|ui| {
            if ui.button("◀").clicked() && stage > 0 {
                stage -= 1;
            }
            ui.add(egui::Slider::new(&mut stage, 0..=LAST_STAGE).show_value(false));
            if ui.button("▶").clicked() && stage < LAST_STAGE {
                stage += 1;
            }
        });
        ui.label(RichText::new(CLIP_STAGES[stage]).strong());
        if stage != lab.stage {
            out.push(Action::SetClipStage(stage));
        }
        let mut bias = lab.use_bias;
        if ui
            .checkbox(&mut bias, "BiasGreaterThan")
            .on_hover_text("Off: the reference face is the plainly deeper axis, and flickers on near ties")
            .changed()
        {
            out.push(Action::SetBias(bias));
        }
    });
}

fn shapes_and_pairs(ui: &mut egui::Ui, lab: &LabState, st: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Shapes").default_open(true).show(ui, |ui| {
        for (body, name) in [(0usize, "A"), (1, "B")] {
            ui.horizontal(|ui| {
                ui.label(name);
                egui::ComboBox::from_id_salt(("lab_shape", body)).selected_text("replace shape…").show_ui(ui, |ui| {
                    for (label, desc) in shape_presets() {
                        if ui.selectable_label(false, label).clicked() {
                            out.push(Action::SetLabShape { body, shape: desc });
                        }
                    }
                });
            });
        }
        ui.label(RichText::new("Drag a shape to move it; drag its handle or Ctrl+drag to rotate.").small());
    });
    egui::CollapsingHeader::new("Pairs").default_open(true).show(ui, |ui| {
        for path in &st.pair_files {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            if ui.selectable_label(lab.pair_path.as_ref() == Some(path), name).clicked() {
                out.push(Action::LoadPair(path.clone()));
            }
        }
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut st.pair_save_path).desired_width(180.0));
            if ui.button("Save").on_hover_text("Save both shapes and poses as a pair file").clicked() {
                out.push(Action::SavePair(PathBuf::from(st.pair_save_path.trim())));
            }
        });
        if ui.button("Restart (R)").clicked() {
            out.push(Action::Restart);
        }
    });
}

pub fn details(ui: &mut egui::Ui, app: &App, lab: &LabState, out: &mut Vec<Action>) {
    match lab.kind {
        LabKind::Minkowski => return super::minkowski_panels::details(ui, app, lab, out),
        LabKind::Tree => return super::tree_panels::details(ui, lab),
        LabKind::Hull3d => return super::hull3d_panels::details(ui, app, lab, out),
        LabKind::Manifold => {}
    }
    ui.heading("Manifold, A to B");
    if let Some(m) = manifold_of(&app.world, 0, 1) {
        manifold_numbers(ui, &m);
    }
    ui.separator();
    match trace_pair(&app.world, 0, 1, lab.use_bias) {
        Some(t) => {
            if let Some(axis) = trace_numbers(ui, &t, lab.axis) {
                out.push(Action::SelectAxis(axis));
            }
        }
        None => {
            ui.label(
                RichText::new("A circle has no faces: its contact comes from the closest point, not SAT.").small(),
            );
        }
    }
}
