//! The left panel's world sections: Simulation (run buttons, speed), Scenes, Labs, Layers
//! and the broadphase.

use super::*;
use crate::app::input::keys;
use crate::app::state::{Action, App};
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::debug::Layer;
use manifold_lab::engine::number::Num;
use std::path::PathBuf;

pub(super) fn simulation(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>, widgets: &mut Widgets) {
    egui::CollapsingHeader::new("Simulation").default_open(true).show(ui, |ui| {
        run_buttons(ui, app.is_running(), app.can_step_back(), out, widgets);
        let mut speed = app.speed;
        if ui.add(egui::Slider::new(&mut speed, 0.05..=4.0).logarithmic(true).text("speed ×")).changed() {
            out.push(Action::SetSpeed(speed));
        }
        ui.horizontal(|ui| {
            let frame = keys::label("Frame all", &Action::FrameAll);
            keys::button(ui, frame, &[("fit the view to the scene", &Action::FrameAll)], true, out);
            let mut follow = app.follow;
            if ui.checkbox(&mut follow, "follow selection").on_hover_text("Keep the selected body centred").changed() {
                out.push(Action::Follow(follow));
            }
        });
    });
}

pub(super) fn scenes(ui: &mut egui::Ui, app: &App, st: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Scenes").default_open(true).show(ui, |ui| {
        scene_list(ui, app, &st.scene_files, out);
        if !st.benchmark_files.is_empty() {
            egui::CollapsingHeader::new("Box2D benchmarks")
                .default_open(false)
                .show(ui, |ui| scene_list(ui, app, &st.benchmark_files, out))
                .header_response
                .on_hover_text(
                    "Box2D v3's benchmark scenes, built as its benchmarks.c builds them (scenes/benchmark/)",
                );
        }
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut st.open_path).hint_text("any .ron path").desired_width(180.0));
            if ui.button("Open").clicked() && !st.open_path.trim().is_empty() {
                out.push(Action::OpenFile(PathBuf::from(st.open_path.trim())));
            }
        });
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut st.save_path).desired_width(180.0));
            if ui.button("Save").on_hover_text("Writes the current world as a scene").clicked()
                && !st.save_path.trim().is_empty()
            {
                out.push(Action::SaveScene(PathBuf::from(st.save_path.trim())));
            }
        });
    });
}

/// One selectable line per scene file, by its name; clicking loads it.
fn scene_list(ui: &mut egui::Ui, app: &App, files: &[PathBuf], out: &mut Vec<Action>) {
    for path in files {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let current = app.scene_path.as_ref() == Some(path);
        if ui.selectable_label(current, name).clicked() {
            out.push(Action::LoadScene(path.clone()));
        }
    }
}

pub(super) fn labs(ui: &mut egui::Ui, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Labs").default_open(true).show(ui, |ui| {
        for &kind in crate::app::lab::LABS {
            let entry = kind.entry();
            if ui.button(entry.name).on_hover_text(entry.description).clicked() {
                out.push(Action::OpenLab { kind, file: None });
            }
        }
    });
}

pub(super) fn layers(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>, widgets: &mut Widgets) {
    egui::CollapsingHeader::new("Debug layers").default_open(true).show(ui, |ui| {
        let checkbox = |ui: &mut egui::Ui, out: &mut Vec<Action>, layer: Layer| {
            let mut on = app.layers.contains(layer);
            if ui.checkbox(&mut on, layer.label()).changed() {
                out.push(Action::SetLayer(layer, on));
            }
        };
        for layer in Layer::WORLD.into_iter().filter(|l| !Layer::MOTION.contains(l)) {
            checkbox(ui, out, layer);
        }
        ui.label(
            RichText::new(
                "contacts: yellow new · blue warm-started · red held 10+ steps · grey speculative; \
                 a selected body's contacts are drawn large, the others dimmed, its partners outlined",
            )
            .small()
            .weak(),
        );
        ui.separator();
        ui.label(RichText::new("Motion: per-body arrows from the centre of mass").small());
        for layer in Layer::MOTION {
            checkbox(ui, out, layer);
        }
        motion_scales(ui, app, out, widgets);
    });
}

/// The motion arrows' two scales, logarithmic: metres per newton, metres per m/s.
fn motion_scales(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>, widgets: &mut Widgets) {
    use manifold_lab::engine::debug::MotionScales;
    let s = app.motion_scales;
    let (mut force, mut velocity) = (s.force, s.velocity);
    let (f0, f1) = MotionScales::FORCE_RANGE;
    let (v0, v1) = MotionScales::VELOCITY_RANGE;
    // Narrower than egui's default, so slider, value and label fit the controls panel.
    ui.spacing_mut().slider_width = 90.0;
    let f = ui
        .add(egui::Slider::new(&mut force, f0..=f1).logarithmic(true).text("force m/N"))
        .on_hover_text("Metres of arrow per newton (weight, contacts, joints, buoyancy, mouse)");
    note(widgets, ui, "motion_force_scale", f.rect);
    let v = ui
        .add(egui::Slider::new(&mut velocity, v0..=v1).logarithmic(true).text("velocity m/(m/s)"))
        .on_hover_text("Metres of arrow per m/s; an angular velocity's arc sweeps this times ω radians");
    note(widgets, ui, "motion_velocity_scale", v.rect);
    if f.changed() || v.changed() {
        out.push(Action::SetMotionScales { force, velocity });
    }
}

/// The pair-finding method, the tree's settings, what of the tree is drawn, and its numbers.
pub(super) fn broadphase(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    use manifold_lab::engine::broadphase::{Balancing, InsertionStrategy, PairFinding};
    let bp = &app.world.broadphase;
    egui::CollapsingHeader::new("Broadphase").default_open(false).show(ui, |ui| {
        let (mut mode, mut settings) = (bp.mode, bp.tree.settings);
        egui::ComboBox::from_label("pairs").selected_text(mode.label()).show_ui(ui, |ui| {
            for m in PairFinding::ALL {
                ui.selectable_value(&mut mode, m, m.label());
            }
        });
        egui::ComboBox::from_label("insert").selected_text(settings.insertion.label()).show_ui(ui, |ui| {
            for s in InsertionStrategy::ALL {
                ui.selectable_value(&mut settings.insertion, s, s.label());
            }
        });
        egui::ComboBox::from_label("balance").selected_text(settings.balancing.label()).show_ui(ui, |ui| {
            for b in Balancing::ALL {
                ui.selectable_value(&mut settings.balancing, b, b.label());
            }
        });
        ui.add(egui::Slider::new(&mut settings.margin, 0.0..=1.0).text("fat margin m"));
        if mode != bp.mode || settings != bp.tree.settings {
            out.push(Action::SetBroadphase { mode, settings });
        }
        let m = bp.tree.metrics();
        let height = m.height.max(0) as u32;
        let (mut lo, mut hi) = (app.tree_depth.0.min(height), app.tree_depth.1.min(height));
        let mut tight = app.tree_tight;
        let changed = ui.add(egui::Slider::new(&mut lo, 0..=height).text("from depth")).changed()
            | ui.add(egui::Slider::new(&mut hi, 0..=height).text("to depth")).changed()
            | ui.checkbox(&mut tight, "tight AABBs inside fat ones").changed();
        if changed {
            let max = if hi >= height { u32::MAX } else { hi };
            out.push(Action::SetTreeView { min_depth: lo, max_depth: max, tight });
        }
        let st = &bp.stats;
        egui::Grid::new("tree_stats").num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.label(RichText::new(v).monospace());
                ui.end_row();
            };
            row("nodes", m.node_count.to_string());
            row("height", m.height.to_string());
            row("area ratio", format!("{:.2}", Num(m.area_ratio)));
            row("pairs", st.pairs.to_string());
            row("moved", st.moved.to_string());
            row("reinserted", st.reinserted.to_string());
            row("queries", st.queries.to_string());
            row("nodes visited", st.query.nodes_visited.to_string());
            row("leaves hit", st.query.leaves_hit.to_string());
            row("broadphase", format!("{:.3} ms", Num(app.world.profile.broadphase_ms)));
        });
        if bp.mode == PairFinding::SortAndSweep {
            ui.label(RichText::new("Step through one sweep in the right panel.").small());
        }
    });
}
