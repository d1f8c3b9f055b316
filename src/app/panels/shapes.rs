//! The selection panel's list of a multi-part body's shapes (`engine::compound`; 003 article's
//! fixtures): each shape's kind, offset, angle and material, editable (`Action::EditShape`).

use crate::app::state::{Action, ShapeEdit};
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::engine::Body;

/// A shape's kind and size, as the list names it.
pub fn shape_label(shape: &Shape) -> String {
    match shape {
        Shape::Circle(c) => format!("circle r {:.3}", Num(c.radius)),
        Shape::Polygon(p) if p.radius > 0.0 => format!("{}, rounded r {:.3}", sharp_label(p), Num(p.radius)),
        Shape::Polygon(p) => sharp_label(p),
        Shape::Capsule(c) => format!("capsule r {:.3}", Num(c.radius)),
    }
}

/// A polygon's kind and size, without its rounding.
fn sharp_label(p: &Polygon) -> String {
    match p.box_half_extents {
        Some(h) => format!("box {:.3} × {:.3}", Num(2.0 * h.x), Num(2.0 * h.y)),
        None => format!("polygon, {} vertices", p.count),
    }
}

/// Body `i`'s shapes, one collapsing section each (nothing for a body of one shape).
pub(super) fn shapes(ui: &mut egui::Ui, b: &Body, i: usize, out: &mut Vec<Action>) {
    if b.parts.is_empty() {
        return;
    }
    ui.label(RichText::new(format!("{} shapes", b.parts.len())).strong());
    for (k, part) in b.parts.iter().enumerate() {
        let title = format!("shape {k}: {}", shape_label(&part.shape));
        egui::CollapsingHeader::new(title).id_salt(("shape", i, k)).default_open(k == 0).show(ui, |ui| {
            let mut e = ShapeEdit::of(part);
            egui::Grid::new(("shape grid", i, k)).num_columns(2).show(ui, |ui| {
                ui.label("offset");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut e.offset.x).speed(0.01).max_decimals(3));
                    ui.add(egui::DragValue::new(&mut e.offset.y).speed(0.01).max_decimals(3));
                });
                ui.end_row();
                ui.label("angle °");
                let mut deg = super::selection::wrap_degrees(e.angle.to_degrees());
                if ui.add(egui::DragValue::new(&mut deg).speed(0.5).max_decimals(2)).changed() {
                    e.angle = deg.to_radians();
                }
                ui.end_row();
                super::selection::material_rows(ui, &mut e.material);
                ui.label("category");
                ui.label(format!("{:#x}", part.category_bits));
                ui.end_row();
                ui.label("mask");
                ui.label(format!("{:#x}", part.mask_bits));
                ui.end_row();
            });
            if e != ShapeEdit::of(part) {
                out.push(Action::EditShape { body: i, shape: k, edit: e });
            }
        });
    }
}
