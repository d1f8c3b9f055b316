//! The selection panel: one body's properties (editable), its material, and the contact
//! pair between two selected bodies.

use crate::app::state::{Action, App, BodyEdit};
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::{BodyKind, Material};

pub(super) fn selection(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    ui.heading("Selection");
    if app.selection.is_empty() {
        ui.label("Click a body to select it. Drag to move it (paused: place; running: pull).");
        ui.label("Click a joint's anchor to select the joint.");
        ui.label("Drag the round handle, or Ctrl+drag, to rotate. Shift+click selects a second body.");
        return;
    }
    for &i in &app.selection {
        let Some(b) = app.world.bodies.get(i) else { continue };
        let title = if b.name.is_empty() { format!("body #{i}") } else { format!("{} (#{i})", b.name) };
        egui::CollapsingHeader::new(RichText::new(title).strong()).id_salt(i).default_open(true).show(ui, |ui| {
            let mut e = BodyEdit::of(b);
            egui::Grid::new(("body", i)).num_columns(2).show(ui, |ui| {
                ui.label("kind");
                egui::ComboBox::from_id_salt(("kind", i)).selected_text(format!("{:?}", e.kind)).show_ui(ui, |ui| {
                    for k in [BodyKind::Static, BodyKind::Kinematic, BodyKind::Dynamic] {
                        ui.selectable_value(&mut e.kind, k, format!("{k:?}"));
                    }
                });
                ui.end_row();
                ui.label("position");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut e.position.x).speed(0.01).max_decimals(3));
                    ui.add(egui::DragValue::new(&mut e.position.y).speed(0.01).max_decimals(3));
                });
                ui.end_row();
                ui.label("angle °");
                // Shown in (−180°, 180°]; the body keeps its unwrapped angle until edited.
                let mut deg = wrap_degrees(e.angle.to_degrees());
                if ui.add(egui::DragValue::new(&mut deg).speed(0.5).max_decimals(2)).changed() {
                    e.angle = deg.to_radians();
                }
                ui.end_row();
                ui.label("velocity");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut e.linear_velocity.x).speed(0.05).max_decimals(3));
                    ui.add(egui::DragValue::new(&mut e.linear_velocity.y).speed(0.05).max_decimals(3));
                });
                ui.end_row();
                ui.label("ω rad/s");
                ui.add(egui::DragValue::new(&mut e.angular_velocity).speed(0.05).max_decimals(3));
                ui.end_row();
                if b.parts.is_empty() {
                    material_rows(ui, &mut e.material);
                }
                ui.label("bullet");
                ui.checkbox(&mut e.bullet, "").on_hover_text("Swept against dynamic bodies too (continuous collision)");
                ui.end_row();
                ui.label("mass");
                ui.label(format!("{:.3} kg", Num(b.mass)));
                ui.end_row();
                ui.label("inertia");
                ui.label(format!("{:.4} kg·m²", Num(b.inertia)));
                ui.end_row();
                ui.label("contacts");
                let n = app.world.contacts.iter().filter(|c| c.a == i || c.b == i).count();
                ui.label(n.to_string());
                ui.end_row();
            });
            super::shapes::shapes(ui, b, i, out);
            crate::app::tools::panel::buoyancy(ui, &app.world, i);
            if e != BodyEdit::of(b) {
                out.push(Action::EditBody { body: i, edit: e });
            }
            crate::app::tools::sleep::body_extras(ui, app, i, out);
        });
    }
    if let [a, b] = app.selection[..] {
        ui.separator();
        pair_details(ui, app, a, b);
    }
    if ui.button("Clear selection").clicked() {
        out.push(Action::Select(None));
    }
}

/// The manifold of the two selected bodies (first selected = A).
pub(super) fn pair_details(ui: &mut egui::Ui, app: &App, a: usize, b: usize) {
    use crate::app::lab::manifold::{manifold_numbers, manifold_of, pair_numbers, trace_pair};
    ui.heading("Pair manifold");
    ui.label(RichText::new(format!("A = #{a}, B = #{b}; drawn in the view")).small());
    if let Some(m) = manifold_of(&app.world, a, b, app.world.params.reference_face) {
        manifold_numbers(ui, &m);
    }
    if let Some(t) = trace_pair(&app.world, a, b, app.world.params.reference_face) {
        pair_numbers(ui, &t, usize::MAX, None);
    }
}

/// An angle in degrees brought into (−180, 180].
pub fn wrap_degrees(deg: f32) -> f32 {
    let w = deg.rem_euclid(360.0);
    if w > 180.0 {
        w - 360.0
    } else {
        w
    }
}

/// The body editor's rows for a [`Material`] (in a two-column grid).
pub(super) fn material_rows(ui: &mut egui::Ui, m: &mut Material) {
    ui.label("density");
    ui.add(egui::DragValue::new(&mut m.density).speed(0.05).range(0.01..=1000.0));
    ui.end_row();
    ui.label("friction");
    ui.add(egui::DragValue::new(&mut m.friction).speed(0.01).range(0.0..=2.0));
    ui.end_row();
    ui.label("restitution");
    ui.add(egui::DragValue::new(&mut m.restitution).speed(0.01).range(0.0..=1.0));
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::wrap_degrees;

    #[test]
    fn angles_wrap_into_one_turn() {
        assert!((wrap_degrees(784.7) - 64.7).abs() < 1e-3);
        assert!((wrap_degrees(-190.0) - 170.0).abs() < 1e-4);
        assert_eq!(wrap_degrees(180.0), 180.0);
        assert!((wrap_degrees(-180.0) - 180.0).abs() < 1e-4);
        assert_eq!(wrap_degrees(0.0), 0.0);
    }
}
