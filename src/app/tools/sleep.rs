//! Islands and sleep in the panels: the Sleep section of the Solver panel, the status bar's
//! counts of awake bodies, islands and joints, and the body editor's sleep state, Wake
//! button, collision filter and joint list.

use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyKind, World};

/// Sleep switch, thresholds and time to sleep, and the joints' softness; edits `p` in place
/// (the Solver panel sends it as one `SetParams`, which wakes every body).
pub fn sleep_section(ui: &mut egui::Ui, p: &mut SolverParams) {
    ui.separator();
    ui.label(RichText::new("Sleep").strong());
    ui.checkbox(&mut p.sleep, "islands sleep")
        .on_hover_text("An island whose bodies all stay under both thresholds for the time to sleep stops simulating");
    ui.add_enabled_ui(p.sleep, |ui| {
        ui.add(egui::Slider::new(&mut p.linear_sleep_tolerance, 0.0..=1.0).text("linear m/s"));
        let mut deg = p.angular_sleep_tolerance.to_degrees();
        if ui.add(egui::Slider::new(&mut deg, 0.0..=45.0).text("angular °/s")).changed() {
            p.angular_sleep_tolerance = deg.to_radians();
        }
        ui.add(egui::Slider::new(&mut p.time_to_sleep, 0.0..=5.0).text("time to sleep s"));
    });
    ui.label(RichText::new("Joints").strong());
    crate::app::panels::solver_rows::joint_softness(ui, &mut p.joint_hertz, &mut p.joint_damping_ratio);
}

/// The status bar's world counts: awake bodies, islands (awake), joints (broken).
pub fn world_counts(ui: &mut egui::Ui, w: &World) {
    let dynamic = w.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic).count();
    ui.label(format!("{}/{dynamic} awake", w.awake_body_count()));
    ui.separator();
    ui.label(format!("{} islands ({} awake)", w.island_count(), w.awake_island_count()));
    ui.separator();
    let joints = format!("{} joints", w.joints().len());
    if w.broken_joints > 0 {
        ui.label(format!("{joints} ({} broken)", w.broken_joints));
    } else {
        ui.label(joints);
    }
    ui.separator();
}

/// Body `i`'s sleep state with a Wake button, its collision filter bits and its joints (each
/// a link that selects the joint).
pub fn body_extras(ui: &mut egui::Ui, app: &Stage, i: usize, out: &mut Vec<Action>) {
    let w = &app.world;
    let Some(b) = w.bodies.get(i) else { return };
    egui::Grid::new(("body_sleep", i)).num_columns(2).show(ui, |ui| {
        if b.kind == BodyKind::Dynamic {
            ui.label("sleep");
            ui.horizontal(|ui| {
                let (text, color) = if b.awake {
                    ("awake", Color32::from_rgb(120, 220, 120))
                } else {
                    ("asleep", Color32::from_rgb(150, 150, 170))
                };
                ui.label(RichText::new(text).color(color));
                if ui.add_enabled(!b.awake, egui::Button::new("Wake")).clicked() {
                    out.push(Action::WakeBody(i));
                }
            });
            ui.end_row();
            ui.label("still for");
            ui.label(format!("{:.2} s", Num(b.sleep_time)));
            ui.end_row();
            if let Some(k) = w.island_of(i) {
                ui.label("island");
                ui.label(format!("#{k} ({} bodies)", w.islands().bodies(k).len()));
                ui.end_row();
            }
        }
        let (mut category, mut mask) = (b.category_bits, b.mask_bits);
        ui.label("category bits");
        let c = ui.add(egui::DragValue::new(&mut category).hexadecimal(8, false, true).prefix("0x"));
        ui.end_row();
        ui.label("mask bits");
        let m = ui.add(egui::DragValue::new(&mut mask).hexadecimal(8, false, true).prefix("0x"));
        ui.end_row();
        if c.changed() || m.changed() {
            out.push(Action::SetFilter { body: i, category_bits: category, mask_bits: mask });
        }
    });
    let joints: Vec<usize> = (0..w.joints().len())
        .filter(|&k| {
            let (a, b) = w.joints()[k].bodies();
            a == i || b == i
        })
        .collect();
    if !joints.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label("joints");
            for k in joints {
                let text = format!("#{k} {}", w.joints()[k].kind().label());
                if ui.link(text).clicked() {
                    out.push(Action::SelectJoint(Some(k)));
                }
            }
        });
    }
}
