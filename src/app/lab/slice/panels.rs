//! The slicing lab's panels: the edge slider, a legend of the four cases, the list of edges
//! with their cases, the polygon and presets on the left; both pieces' areas against the
//! original and the shown edge's numbers on the right.

use super::draw::case_name;
use super::{act, SliceAction, SliceLab, SLICE_DIR};
use crate::app::lab::pair::shape_presets;
use crate::app::lab::widgets::{presets_section, step_slider};
use crate::app::panels::UiState;
use crate::app::state::Action;
use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::debug::{palette, Color};
use manifold_lab::engine::geometry::slice_trace::case_color;
use manifold_lab::engine::geometry::{is_convex_ccw, EdgeCase};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;
use manifold_lab::scene::ShapeDesc;

fn color32(c: Color) -> Color32 {
    let u = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color32::from_rgb(u(c.r), u(c.g), u(c.b))
}

const CASES: [EdgeCase; 4] = [EdgeCase::InIn, EdgeCase::InOut, EdgeCase::OutIn, EdgeCase::OutOut];

pub fn controls(ui: &mut egui::Ui, lab: &SliceLab, files: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Edges").default_open(true).show(ui, |ui| {
        let t = &lab.trace;
        if let Some(k) = step_slider(ui, lab.shown_step(), t.steps(), |k| t.step_label(k)) {
            out.push(act(SliceAction::SetStep(Some(k))));
        }
        for (k, s) in t.edges().iter().enumerate() {
            let n = t.input.len().max(1);
            let text = format!("{}. v{} → v{}  {}", k + 1, s.edge, (s.edge + 1) % n, s.case.label());
            let label = RichText::new(text).monospace().color(color32(case_color(s.case)));
            if ui.selectable_label(k == lab.shown_step(), label).clicked() {
                out.push(act(SliceAction::SetStep(Some(k))));
            }
        }
    });
    egui::CollapsingHeader::new("Legend").default_open(true).show(ui, |ui| {
        ui.label(
            RichText::new("In = behind the line (d ≤ 0): left of the knife, from its end `from` to `to`.").small(),
        );
        for case in CASES {
            ui.label(RichText::new(format!("■ {}", case.label())).color(color32(case_color(case))));
        }
        ui.label(RichText::new("■ intersection").color(color32(palette::INTERSECTION)));
        ui.label(RichText::new("■ the part behind, being built").color(color32(palette::SLICE_BEHIND)));
        ui.label(RichText::new("■ the part in front, being built").color(color32(palette::SLICE_FRONT)));
    });
    egui::CollapsingHeader::new("Polygon").default_open(true).show(ui, |ui| {
        egui::ComboBox::from_id_salt("slice_shape").selected_text("replace polygon…").show_ui(ui, |ui| {
            for (label, shape) in shape_presets().into_iter().filter(|(_, s)| !matches!(s, ShapeDesc::Circle { .. })) {
                if ui.selectable_label(false, label).clicked() {
                    out.push(act(SliceAction::SetShape(shape)));
                }
            }
        });
        ui.label(
            RichText::new(
                "Drag the polygon to move it, its round handle (or Ctrl+drag) to turn it; drag the knife's ends, \
                 or its line to move it whole.",
            )
            .small(),
        );
    });
    let (load, save) = (|p| act(SliceAction::Load(p)), |p| act(SliceAction::Save(p)));
    presets_section(ui, "Presets", files, SLICE_DIR, lab.path.as_deref(), load, save, out);
}

pub fn details(ui: &mut egui::Ui, lab: &SliceLab, _out: &mut Vec<Action>) {
    ui.heading("Pieces");
    let a = lab.areas();
    let split = lab.trace.result.clone().unwrap_or_default();
    egui::Grid::new("slice_areas").num_columns(2).show(ui, |ui| {
        let mut row = |name: RichText, v: String| {
            ui.label(name);
            ui.label(RichText::new(v).monospace());
            ui.end_row();
        };
        for (name, pts, area, color) in [
            ("behind", &split.behind, a.behind, palette::SLICE_BEHIND),
            ("front", &split.front, a.front, palette::SLICE_FRONT),
        ] {
            if pts.is_empty() {
                row(RichText::new(name).color(color32(color)), "empty".into());
            } else {
                row(RichText::new(name).color(color32(color)), format!("{area:.5} m²", area = Num(area)));
                let convex = if is_convex_ccw(pts, 1e-6) { "convex" } else { "NOT convex" };
                row(RichText::new(""), format!("{} vertices, {convex}", pts.len()));
            }
        }
        row(RichText::new("sum"), format!("{:.5} m²", Num(a.behind + a.front)));
        row(RichText::new("original"), format!("{:.5} m²", Num(a.original)));
    });
    let err = a.relative_error();
    let (text, color) = if err <= 1e-5 {
        (format!("✔ the pieces add up (error {err:.1e})", err = Num(err)), Color32::from_rgb(120, 230, 140))
    } else {
        (format!("✖ the pieces miss the original by {err:.1e}", err = Num(err)), Color32::from_rgb(255, 120, 120))
    };
    ui.label(RichText::new(text).color(color));
    if split.behind.is_empty() || split.front.is_empty() {
        ui.label(RichText::new("The line misses the polygon (or only touches it): one side is empty.").small());
    } else if lab.knife_end_inside() {
        ui.label(
            RichText::new("An end of the knife lies inside: the scenes' slice tool cuts only what it fully crosses.")
                .small(),
        );
    }
    ui.separator();
    let k = lab.shown_step();
    let Some(s) = lab.trace.edges().get(k) else { return };
    ui.label(RichText::new(lab.trace.step_label(k)).strong().color(color32(case_color(s.case))));
    egui::Grid::new("slice_step").num_columns(2).show(ui, |ui| {
        let mut row = |name: &str, v: String| {
            ui.label(name);
            ui.label(RichText::new(v).monospace());
            ui.end_row();
        };
        row("case", case_name(s.case).to_string());
        row("d(s)", format!("{:+.4}", Num(s.d_from)));
        row("d(e)", format!("{:+.4}", Num(s.d_to)));
        if let Some(i) = s.intersection {
            row("intersection", format!("({:.3}, {:.3})", Num(i.x), Num(i.y)));
        }
        row("behind so far", format!("{} points", s.behind.len()));
        row("front so far", format!("{} points", s.front.len()));
    });
}
