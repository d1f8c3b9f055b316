//! The manifold lab's panels: the stage slider and reference-face rule on the left, the trace's numbers on
//! the right.

use super::trace_view::{manifold_numbers, manifold_of, trace_numbers, trace_pair};
use super::{act, ManifoldAction};
use crate::app::lab::widgets::step_slider;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::collide::polygon::ReferenceFaceRule;
use manifold_lab::engine::trace::Trace;

pub fn controls(ui: &mut egui::Ui, app: &Stage, stage: usize, rule: ReferenceFaceRule, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Stages").default_open(true).show(ui, |ui| {
        match trace_pair(&app.world, 0, 1, rule) {
            Some(t) => {
                if let Some(k) = step_slider(ui, stage, t.steps(), |k| t.step_label(k)) {
                    out.push(act(ManifoldAction::SetStage(k)));
                }
            }
            None => {
                ui.label(RichText::new(untraced_reason(app)).small());
            }
        }
        ui.label("Reference face");
        for r in ReferenceFaceRule::ALL {
            if ui.radio(rule == r, r.label()).on_hover_text(rule_hint(r)).clicked() && r != rule {
                out.push(act(ManifoldAction::SetRule(r)));
            }
        }
    });
}

pub fn details(ui: &mut egui::Ui, app: &Stage, rule: ReferenceFaceRule, axis: Option<usize>, out: &mut Vec<Action>) {
    ui.heading("Manifold, A to B");
    if let Some(m) = manifold_of(&app.world, 0, 1, rule) {
        manifold_numbers(ui, &m);
    }
    ui.separator();
    match trace_pair(&app.world, 0, 1, rule) {
        Some(t) => {
            if let Some(axis) = trace_numbers(ui, &t, axis) {
                out.push(act(ManifoldAction::SelectAxis(axis)));
            }
        }
        None => {
            ui.label(RichText::new(untraced_reason(app)).small());
        }
    }
}

fn rule_hint(rule: ReferenceFaceRule) -> &'static str {
    match rule {
        ReferenceFaceRule::Absolute => {
            "The engine's default: B's face wins only when 0.5 mm better, so the normal is the \
             minimum translation within 0.5 mm and does not flicker on resting contacts"
        }
        ReferenceFaceRule::Relative => {
            "The article's BiasGreaterThan (0.95 × + 0.01): on deep overlaps it may keep a face \
             centimetres worse; the shortest way out is then drawn beside it"
        }
        ReferenceFaceRule::Plain => "No hysteresis: the deeper face wins, and flickers on near ties",
    }
}

/// Why the pair has no SAT + clipping stages (only two polygons are traced).
fn untraced_reason(app: &Stage) -> &'static str {
    use manifold_lab::engine::shape::Shape;
    let shape = |i: usize| app.world.bodies.get(i).map(|b| &b.shape);
    let has = |f: fn(&Shape) -> bool| [0, 1].iter().any(|&i| shape(i).is_some_and(f));
    if has(|s| matches!(s, Shape::Circle(_))) {
        "A circle has no faces: its contact comes from the closest point, not SAT."
    } else if has(|s| matches!(s, Shape::Polygon(_))) {
        "Polygon and capsule: the capsule is a rounded two-gon through the polygon SAT and \
         clipping with radii (Box2D v3's b2CollidePolygons); its stages are not traced here."
    } else {
        "Two capsules: the closest points of their segments, then one segment clipped to the \
         other's extent for a second point (Box2D v3's b2CollideCapsules); no SAT stages."
    }
}
