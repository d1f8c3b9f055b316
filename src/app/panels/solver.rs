//! The Solver panel: the step's rate and sub-steps, iterations, the position correction and
//! reference-face rule, softness, restitution and friction overrides, sleep, joints.

use super::solver_rows as rows;
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::collide::ReferenceFaceRule;
use manifold_lab::engine::solver::{PositionCorrection, SolverParams};

pub(super) fn solver(ui: &mut egui::Ui, current: &SolverParams, out: &mut Vec<Action>) {
    let mut p = current.clone();
    egui::CollapsingHeader::new("Solver").default_open(true).show(ui, |ui| {
        rows::rate(ui, &mut p.hz, &mut p.substeps, &mut p.iterations);
        let mut g = p.gravity.to_array();
        rows::gravity(ui, &mut g);
        p.gravity = g.into();
        ui.checkbox(&mut p.warm_starting, "warm starting");
        ui.checkbox(&mut p.recycle_contacts, "recycle contacts").on_hover_text(
            "Box2D v3: a contact whose bodies moved under 5 cm and turned under 11° since its manifold was \
             computed keeps that manifold and only updates its separations",
        );
        ui.checkbox(&mut p.continuous, "continuous collision")
            .on_hover_text("Fast bodies are swept against static ones (and bullets against all) so they cannot tunnel");
        if p.continuous {
            ui.add(egui::Slider::new(&mut p.toi_event_steps, 0..=600).text("TOI log steps")).on_hover_text(
                "The time-of-impact events of this many steps are kept for the Time-of-impact events layer",
            );
        }
        egui::ComboBox::from_label("correction").selected_text(p.position_correction.label()).show_ui(ui, |ui| {
            for m in PositionCorrection::ALL {
                ui.selectable_value(&mut p.position_correction, m, m.label());
            }
        });
        match p.position_correction {
            PositionCorrection::Projection => {
                ui.add(egui::Slider::new(&mut p.percent, 0.0..=1.0).text("percent"));
                ui.add(egui::Slider::new(&mut p.slop, 0.0..=0.1).text("slop m"));
            }
            PositionCorrection::Baumgarte => {
                ui.add(egui::Slider::new(&mut p.baumgarte, 0.0..=1.0).text("beta"));
                ui.add(egui::Slider::new(&mut p.slop, 0.0..=0.1).text("slop m"));
                rows::max_push(ui, &mut p.max_push_velocity);
            }
            PositionCorrection::Soft => {
                rows::softness(ui, &mut p.contact_hertz, &mut p.contact_damping_ratio, &mut p.relax_iterations);
                rows::max_push(ui, &mut p.max_push_velocity);
                crate::app::tools::solver_graph::threads_slider(ui, &mut p);
                crate::app::tools::solver_graph::avx2_checkbox(ui, &mut p);
            }
        }
        override_slider(ui, &mut p.friction_override, "friction override", 0.0..=2.0);
        override_slider(ui, &mut p.restitution_override, "restitution override", 0.0..=1.0);
        rows::bounce_and_margin(ui, &mut p.restitution_threshold, &mut p.speculative_margin);
        // The rule's name cut to the room beside the label (whole in the tooltip and the list).
        let rule = p.reference_face.label();
        ui.horizontal(|ui| {
            let combo = ui.allocate_ui(egui::vec2(140.0, ui.spacing().interact_size.y), |ui| {
                egui::ComboBox::from_id_salt("reference face").selected_text(rule).truncate().show_ui(ui, |ui| {
                    for r in ReferenceFaceRule::ALL {
                        ui.selectable_value(&mut p.reference_face, r, r.label());
                    }
                })
            });
            combo
                .inner
                .response
                .on_hover_text(format!("{rule}: how a polygon pair's reference face (and so its normal) is chosen"));
            ui.label("reference face");
        });
        crate::app::tools::sleep::sleep_section(ui, &mut p);
        if ui.button("Defaults").clicked() {
            p = SolverParams::default();
        }
    });
    if p != *current {
        out.push(Action::SetParams(p));
    }
}

pub(super) fn override_slider(
    ui: &mut egui::Ui,
    v: &mut Option<f32>,
    label: &str,
    range: std::ops::RangeInclusive<f32>,
) {
    ui.horizontal(|ui| {
        let mut on = v.is_some();
        if ui.checkbox(&mut on, "").changed() {
            *v = if on { Some(*range.start()) } else { None };
        }
        match v {
            Some(x) => {
                ui.add(egui::Slider::new(x, range).text(label));
            }
            None => {
                ui.label(RichText::new(label).weak());
            }
        }
    });
}
