//! Panels of the 3D dynamics lab: the run controls, the scene presets and an open field, the
//! layer switches, and the Solver and Water sections (`settings`) on the left; the selected body (pose as position + quaternion and Euler
//! angles, velocities, submerged fraction), the joints with their error per axis, and the
//! world's counts on the right.

use super::{act, World3dAction, World3dLab, WORLD3D_DIR};
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use glam::{EulerRot, Vec3};
use manifold_lab::engine::debug3::Layer3;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::world3d::JointKind3;
use std::path::PathBuf;

pub fn controls(ui: &mut egui::Ui, lab: &World3dLab, app: &Stage, st: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Simulation").default_open(true).show(ui, |ui| {
        // Back steps back through the lab's own history, then along its timeline
        // (`World3dLab::step_back`).
        crate::app::panels::run_buttons(ui, app.is_running(), lab.can_step_back(), out, &mut st.widgets);
        let mut speed = app.speed;
        if ui.add(egui::Slider::new(&mut speed, 0.05..=4.0).logarithmic(true).text("speed ×")).changed() {
            out.push(Action::SetSpeed(speed));
        }
        ui.label(format!(
            "step {}  ·  t = {:.2} s  ·  {} steps kept",
            lab.world.step_count,
            Num(lab.world.time),
            lab.history.len()
        ));
    });
    egui::CollapsingHeader::new("Scenes").default_open(true).show(ui, |ui| {
        let (files, _) = st.presets(WORLD3D_DIR);
        for path in files {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            if ui.selectable_label(lab.path == *path, name).clicked() {
                out.push(act(World3dAction::Load(path.clone())));
            }
        }
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut st.open_path).hint_text("any 3D .ron path").desired_width(180.0));
            if ui.button("Open").clicked() && !st.open_path.trim().is_empty() {
                out.push(act(World3dAction::Load(PathBuf::from(st.open_path.trim()))));
            }
        });
    });
    egui::CollapsingHeader::new("Layers").default_open(true).show(ui, |ui| {
        egui::Grid::new("layers3").num_columns(2).show(ui, |ui| {
            for (k, layer) in Layer3::WORLD.iter().copied().enumerate() {
                let mut on = lab.layers.contains(layer);
                if ui.checkbox(&mut on, layer.label()).changed() {
                    out.push(act(World3dAction::SetLayer(layer, on)));
                }
                if k % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    });
    egui::CollapsingHeader::new("View").default_open(true).show(ui, |ui| {
        if ui.button(crate::app::input::keys::label("Frame the moving bodies", &Action::FrameAll)).clicked() {
            out.push(Action::FrameAll);
        }
        ui.label(
            RichText::new(
                "Click a hull to select it; drag it to pull it with a spring (while running). \
                 Drag empty space to orbit, right-drag to pan, wheel to zoom.",
            )
            .small(),
        );
    });
    super::settings::solver(ui, lab, st, out);
    super::settings::water(ui, lab, st, out);
}

/// A name and its value, the value wrapped at the panel's edge (a vector's numbers go on to a
/// second line rather than run out of the panel).
fn row(ui: &mut egui::Ui, name: &str, value: String) {
    ui.label(name);
    ui.add(egui::Label::new(RichText::new(value).monospace()).wrap());
    ui.end_row();
}

fn v3(v: Vec3, digits: usize) -> String {
    // Adding zero turns −0 into 0.
    let v = v + Vec3::ZERO;
    format!("{:.d$}, {:.d$}, {:.d$}", Num(v.x), Num(v.y), Num(v.z), d = digits)
}

pub fn details(ui: &mut egui::Ui, lab: &World3dLab, out: &mut Vec<Action>) {
    let w = &lab.world;
    ui.heading("Body");
    match lab.selected.and_then(|i| w.bodies.get(i).map(|b| (i, b))) {
        Some((i, b)) => {
            ui.label(RichText::new(if b.name.is_empty() { format!("#{i}") } else { b.name.clone() }).strong());
            egui::Grid::new("body3").num_columns(2).show(ui, |ui| {
                row(ui, "kind", format!("{:?}", b.kind));
                row(ui, "mass", format!("{:.3} kg", Num(b.mass)));
                if !b.parts.is_empty() {
                    // A body of several hulls: how many, and where its centre of mass sits.
                    row(ui, "hulls", b.parts.len().to_string());
                    row(ui, "centre (body)", v3(b.local_center, 3));
                }
                row(ui, "position", v3(b.pose.p, 3));
                let (x, y, z) = b.pose.q.to_euler(EulerRot::XYZ);
                row(ui, "euler XYZ °", v3(Vec3::new(x, y, z) * (180.0 / std::f32::consts::PI), 1));
                row(ui, "velocity", v3(b.linear_velocity, 3));
                row(ui, "ω rad/s", v3(b.angular_velocity, 3));
                row(ui, "submerged", format!("{:.1} %", Num(100.0 * lab.submerged_fraction(i))));
            });
            // The quaternion on its own line: four numbers do not fit beside a name.
            let q = b.pose.q + glam::Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
            ui.label("quaternion (x, y, z, w)");
            let quaternion = format!("{:+.3} {:+.3} {:+.3} {:+.3}", Num(q.x), Num(q.y), Num(q.z), Num(q.w));
            ui.add(egui::Label::new(RichText::new(quaternion).monospace()).truncate());
            if ui.button("Clear selection").clicked() {
                out.push(act(World3dAction::Select(None)));
            }
        }
        None => {
            ui.label(RichText::new("Click a hull, or pick one below.").small());
        }
    }
    if let Some((c, k)) = lab.hover {
        ui.heading("Contact");
        egui::Grid::new("contact3").num_columns(2).show(ui, |ui| {
            for (name, value) in super::inspect::describe(w, c, k) {
                row(ui, name, value);
            }
        });
    }
    egui::CollapsingHeader::new("Bodies").default_open(false).show(ui, |ui| {
        for (i, b) in w.bodies.iter().enumerate() {
            let name = if b.name.is_empty() { format!("#{i}") } else { b.name.clone() };
            if ui.selectable_label(lab.selected == Some(i), name).clicked() {
                out.push(act(World3dAction::Select(Some(i))));
            }
        }
    });
    ui.separator();
    ui.heading("Joints");
    if w.joints.is_empty() {
        ui.label(RichText::new("none").small());
    }
    for (j, e) in w.joints.iter().zip(w.joint_errors()) {
        let (kind, unit) = match j.kind {
            JointKind3::Ball(_) => ("ball", "m"),
            JointKind3::Orientation(_) => ("orientation", "rad"),
        };
        ui.label(RichText::new(format!("{}  ({kind})", j.name)).strong());
        let p = e.per_axis;
        let err = format!("err {:.1e} {:.1e} {:.1e} {unit}", Num(p.x), Num(p.y), Num(p.z));
        ui.add(egui::Label::new(RichText::new(err).monospace()).truncate());
    }
    ui.separator();
    ui.heading("World");
    egui::Grid::new("world3").num_columns(2).show(ui, |ui| {
        row(ui, "bodies", w.bodies.len().to_string());
        let points: usize = w.contacts.iter().map(|c| c.points.len()).sum();
        row(ui, "contacts", format!("{} ({points} points)", w.contacts.len()));
        row(ui, "penetration", format!("{:.4} m", Num(w.max_penetration())));
        row(ui, "energy", format!("{:.3} J", Num(w.kinetic_energy())));
        row(ui, "step", format!("{:.2} ms", Num(w.profile.total_ms)));
        row(ui, "SAT calls", format!("{} ({} cached)", w.profile.narrow.sat_calls, w.profile.narrow.cache_hits));
    });
}
