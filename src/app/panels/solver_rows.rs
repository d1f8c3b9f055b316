//! The solver controls the 2D scene's Solver panel and the 3D dynamics lab's share (Box2D v3's
//! soft step, article 003's "impulse resolution" and "iterations"): the step rate, sub-steps
//! and iterations, the contacts' softness and relax iterations, the push-out cap, the bounce
//! threshold and speculative margin, the joints' softness and gravity. One widget and one range
//! each, so both panels offer the same control for the same setting; every range lies inside
//! the setting's valid values (`scene::override_ranges`, tested below).

use egui_macroquad::egui;
use std::ops::RangeInclusive;

pub const HZ: RangeInclusive<f32> = 15.0..=240.0;
pub const SUBSTEPS: RangeInclusive<u32> = 1..=16;
pub const ITERATIONS: RangeInclusive<u32> = 1..=50;
pub const CONTACT_HERTZ: RangeInclusive<f32> = 1.0..=120.0;
pub const DAMPING_RATIO: RangeInclusive<f32> = 0.0..=20.0;
pub const RELAX_ITERATIONS: RangeInclusive<u32> = 0..=10;
pub const MAX_PUSH: RangeInclusive<f32> = 0.0..=10.0;
pub const BOUNCE: RangeInclusive<f32> = 0.0..=5.0;
pub const SPECULATIVE: RangeInclusive<f32> = 0.0..=0.1;
pub const JOINT_HERTZ: RangeInclusive<f32> = 1.0..=480.0;
pub const JOINT_DAMPING: RangeInclusive<f32> = 0.0..=20.0;

/// Iterations, sub-steps and the step rate.
pub fn rate(ui: &mut egui::Ui, hz: &mut f32, substeps: &mut u32, iterations: &mut u32) {
    ui.add(egui::Slider::new(iterations, ITERATIONS).text("iterations"));
    ui.add(egui::Slider::new(substeps, SUBSTEPS).text("sub-steps"));
    ui.add(egui::Slider::new(hz, HZ).text("hz"));
}

/// Gravity's components, one drag value per axis (x, y and, in 3D, z).
pub fn gravity(ui: &mut egui::Ui, axes: &mut [f32]) {
    ui.horizontal(|ui| {
        ui.label("gravity");
        for (v, name) in axes.iter_mut().zip(["x ", "y ", "z "]) {
            ui.add(egui::DragValue::new(v).speed(0.1).range(-1.0e3..=1.0e3).prefix(name));
        }
    });
}

/// The soft contact's stiffness, damping ratio and relax iterations.
pub fn softness(ui: &mut egui::Ui, hertz: &mut f32, damping_ratio: &mut f32, relax: &mut u32) {
    ui.add(egui::Slider::new(hertz, CONTACT_HERTZ).text("contact hz"));
    ui.add(egui::Slider::new(damping_ratio, DAMPING_RATIO).text("damping ratio"));
    ui.add(egui::Slider::new(relax, RELAX_ITERATIONS).text("relax iterations"));
}

/// The push-out velocity cap.
pub fn max_push(ui: &mut egui::Ui, v: &mut f32) {
    ui.add(egui::Slider::new(v, MAX_PUSH).text("max push m/s"));
}

/// The restitution threshold and the speculative margin.
pub fn bounce_and_margin(ui: &mut egui::Ui, restitution_threshold: &mut f32, speculative_margin: &mut f32) {
    ui.add(egui::Slider::new(restitution_threshold, BOUNCE).text("bounce m/s"));
    ui.add(egui::Slider::new(speculative_margin, SPECULATIVE).text("speculative m"));
}

/// The joints' stiffness and damping ratio.
pub fn joint_softness(ui: &mut egui::Ui, hertz: &mut f32, damping_ratio: &mut f32) {
    ui.add(egui::Slider::new(hertz, JOINT_HERTZ).logarithmic(true).text("joint hz"))
        .on_hover_text("Stiffness of joint constraints (capped at a quarter of the sub-step rate)");
    ui.add(egui::Slider::new(damping_ratio, JOINT_DAMPING).text("joint damping"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use manifold_lab::scene::{solver_valid, world3_valid, Valid};

    /// Whether `valid` accepts every value of `[lo, hi]`.
    fn inside(valid: Valid, lo: f64, hi: f64) -> bool {
        match valid {
            Valid::Between(a, b) => a <= lo && hi <= b,
            Valid::AtLeast(a) => a <= lo,
            Valid::PositiveUpTo(b) => lo > 0.0 && hi <= b,
            _ => false,
        }
    }

    #[test]
    fn every_shared_slider_stays_inside_both_worlds_valid_ranges() {
        let f = |r: &RangeInclusive<f32>| (*r.start() as f64, *r.end() as f64);
        let u = |r: &RangeInclusive<u32>| (*r.start() as f64, *r.end() as f64);
        let rows = [
            ("hz", f(&HZ)),
            ("substeps", u(&SUBSTEPS)),
            ("iterations", u(&ITERATIONS)),
            ("contact_hertz", f(&CONTACT_HERTZ)),
            ("contact_damping_ratio", f(&DAMPING_RATIO)),
            ("relax_iterations", u(&RELAX_ITERATIONS)),
            ("max_push_velocity", f(&MAX_PUSH)),
            ("restitution_threshold", f(&BOUNCE)),
            ("speculative_margin", f(&SPECULATIVE)),
            ("joint_hertz", f(&JOINT_HERTZ)),
            ("joint_damping_ratio", f(&JOINT_DAMPING)),
        ];
        for (field, (lo, hi)) in rows {
            for (world, table) in [("2D", solver_valid as fn(&str) -> Option<Valid>), ("3D", world3_valid)] {
                let valid = table(field).unwrap_or_else(|| panic!("{world} has no `{field}`"));
                assert!(inside(valid, lo, hi), "{world} `{field}`: the slider's {lo}..={hi} is not within {valid}");
            }
        }
    }
}
