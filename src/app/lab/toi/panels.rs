//! The time-of-impact lab's panels: presets, the method and its iteration slider, the shapes
//! on the left; the shown method's result and iteration, a time axis with every iteration's
//! time, and all five methods compared on the right.

use super::{act, ToiAction, ToiLab, TOI_DIR};
use crate::app::lab::pair::shape_presets;
use crate::app::lab::widgets::{presets_section, step_slider};
use crate::app::panels::UiState;
use crate::app::state::Action;
use egui_macroquad::egui::{self, Color32, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints, Points, VLine};
use manifold_lab::engine::collide::toi::{ToiMethod, ToiOutput, ToiState, ToiStepKind};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;

pub fn controls(ui: &mut egui::Ui, lab: &ToiLab, files: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Method").default_open(true).show(ui, |ui| {
        for m in ToiMethod::ALL {
            if ui.radio(lab.method() == m, m.label()).clicked() && lab.method() != m {
                out.push(act(ToiAction::SetMethod(m)));
            }
        }
        if !lab.method().handles_rotation() {
            ui.label(RichText::new("Holds each shape at its start rotation.").small().weak());
        }
    });
    egui::CollapsingHeader::new("Iterations").default_open(true).show(ui, |ui| {
        let t = &lab.trace;
        let last = t.steps().saturating_sub(1);
        if let Some(k) = step_slider(ui, lab.step.unwrap_or(last), t.steps(), |k| t.step_label(k)) {
            out.push(act(ToiAction::SetStep(Some(k))));
        }
    });
    egui::CollapsingHeader::new("Shapes").default_open(true).show(ui, |ui| {
        for (body, name) in [(0usize, "A"), (1, "B")] {
            ui.horizontal(|ui| {
                ui.label(name);
                egui::ComboBox::from_id_salt(("toi_shape", body)).selected_text("replace shape…").show_ui(ui, |ui| {
                    for (label, shape) in shape_presets() {
                        if ui.selectable_label(false, label).clicked() {
                            out.push(act(ToiAction::SetShape { body, shape }));
                        }
                    }
                });
            });
        }
        ui.label(
            RichText::new(
                "Drag a shape or its end ghost to move that pose; drag the round handle, or Ctrl+drag, to turn it.",
            )
            .small(),
        );
    });
    let (load, save) = (|p| act(ToiAction::Load(p)), |p| act(ToiAction::Save(p)));
    presets_section(ui, "Presets", files, TOI_DIR, lab.path.as_deref(), load, save, out);
}

fn state_text(o: &ToiOutput) -> RichText {
    let (text, color) = match o.state {
        ToiState::Hit => ("hit", Color32::from_rgb(255, 235, 80)),
        ToiState::Separated => ("separated", Color32::from_rgb(120, 230, 140)),
        ToiState::Overlapped => ("overlapped at 0", Color32::from_rgb(255, 120, 120)),
        ToiState::IterationLimit => ("iteration limit", Color32::from_rgb(255, 160, 90)),
    };
    RichText::new(text).color(color)
}

pub fn details(ui: &mut egui::Ui, lab: &ToiLab, out: &mut Vec<Action>) {
    let r = lab.result();
    ui.heading(lab.method().label());
    ui.horizontal(|ui| {
        ui.label(state_text(r).strong());
        let t = format!("t = {:.5} after {} iterations", Num(r.t), r.iterations);
        ui.add(egui::Label::new(t).truncate());
    });
    if r.is_hit() {
        ui.label(format!(
            "normal ({:.3}, {:.3}), point ({:.3}, {:.3})",
            Num(r.normal.x),
            Num(r.normal.y),
            Num(r.point.x),
            Num(r.point.y)
        ));
    }
    let t = &lab.trace;
    let last = t.steps().saturating_sub(1);
    let k = lab.step.unwrap_or(last).min(last);
    if let Some(s) = t.steps.get(k) {
        ui.separator();
        ui.label(RichText::new(t.step_label(k)).strong());
        egui::Grid::new("toi_step").num_columns(2).show(ui, |ui| {
            let mut row = |name: &str, v: String| {
                ui.label(name);
                ui.label(RichText::new(v).monospace());
                ui.end_row();
            };
            row("t", format!("{:.6}", Num(s.t)));
            row("distance", format!("{:.6} m", Num(s.distance)));
            row("axis", format!("({:.3}, {:.3})", Num(s.axis.x), Num(s.axis.y)));
            if s.bound > 0.0 {
                row("bound", format!("{:.4} m per unit t", Num(s.bound)));
            }
            if s.advance != 0.0 {
                row("advance", format!("{:+.6}", Num(s.advance)));
            }
        });
    }
    time_axis(ui, lab, k, out);
    ui.separator();
    ui.label(RichText::new("All methods on this sweep").strong());
    for (m, o) in ToiMethod::ALL.iter().zip(&lab.results) {
        ui.horizontal(|ui| {
            if ui.selectable_label(lab.method() == *m, RichText::new(short(*m)).strong()).clicked()
                && lab.method() != *m
            {
                out.push(act(ToiAction::SetMethod(*m)));
            }
            ui.label(state_text(o));
        });
        let normal = if o.normal == glam::Vec2::ZERO {
            String::new()
        } else {
            format!(" · n ({:.2}, {:.2})", Num(o.normal.x), Num(o.normal.y))
        };
        ui.label(RichText::new(format!("t {:.5} · {} it.{normal}", Num(o.t), o.iterations)).small().monospace());
    }
    ui.label(RichText::new("Click a method to walk its iterations.").small().weak());
    peers_section(ui, lab, out);
}

/// The "Other engines" switch and, when on, Box2D's and parry's answers beside the shown
/// method's.
fn peers_section(ui: &mut egui::Ui, lab: &ToiLab, out: &mut Vec<Action>) {
    if !cfg!(feature = "peers") {
        return;
    }
    ui.separator();
    let mut show = lab.peers;
    let hover = "b2TimeOfImpact and parry2d's nonlinear shape cast on this sweep, drawn over ours";
    if ui.checkbox(&mut show, "Box2D v3 and parry2d").on_hover_text(hover).changed() {
        out.push(act(ToiAction::ShowPeers(show)));
    }
    #[cfg(feature = "peers")]
    if lab.peers {
        super::peers::section(ui, lab);
    }
}

fn short(m: ToiMethod) -> &'static str {
    match m {
        ToiMethod::LinearCast => "linear cast",
        ToiMethod::GjkRayCast => "GJK ray cast",
        ToiMethod::ConservativeAdvancement => "cons. advancement",
        ToiMethod::RootFinder => "root finder",
        ToiMethod::Certified => "certified",
    }
}

/// The time axis: every iteration's distance at its time, the shown one marked; a click on a
/// point selects that iteration.
fn time_axis(ui: &mut egui::Ui, lab: &ToiLab, k: usize, out: &mut Vec<Action>) {
    let steps = &lab.trace.steps;
    if steps.is_empty() {
        return;
    }
    let pts: Vec<[f64; 2]> = steps.iter().map(|s| [s.t as f64, s.distance as f64]).collect();
    let pushes: PlotPoints =
        steps.iter().filter(|s| s.kind == ToiStepKind::PushBack).map(|s| [s.t as f64, s.distance as f64]).collect();
    let shown = steps[k];
    let response = Plot::new("toi_time_axis")
        .height(130.0)
        .legend(Legend::default())
        .include_x(0.0)
        .include_x(1.0)
        .include_y(0.0)
        .x_axis_label("t")
        .show(ui, |p| {
            p.line(Line::new(PlotPoints::from(pts.clone())).name("distance"));
            p.points(Points::new(PlotPoints::from(pts.clone())).radius(3.0).name("t_k"));
            p.points(Points::new(pushes).radius(3.0).color(Color32::from_rgb(255, 160, 90)).name("push back"));
            p.vline(VLine::new(shown.t as f64).color(Color32::from_rgb(255, 235, 80)).name("shown"));
            p.pointer_coordinate()
        });
    if response.response.clicked() {
        if let Some(at) = response.inner {
            let nearest = (0..steps.len()).min_by(|&i, &j| {
                let d = |i: usize| (steps[i].t as f64 - at.x).abs();
                d(i).total_cmp(&d(j))
            });
            if let Some(i) = nearest {
                out.push(act(ToiAction::SetStep(Some(i))));
            }
        }
    }
}
