//! The hull3d lab's "clip" stage: how the SAT's face contact becomes its contact manifold
//! (article 000's reference and incident faces, side planes and Sutherland–Hodgman clipping,
//! the points kept behind the reference face; then the reduction to at most four points),
//! walked with the common step slider over the engine's `ClipTrace3` (recorded with the SAT
//! view) and drawn over both hulls in place of the SAT picture.

use super::{act, Hull3dAction, Hull3dLab};
use crate::app::lab::widgets::step_slider;
use crate::app::stage::Stage;
use crate::app::state::Action;
use crate::app::view3d::pen::{draw_gizmo, gizmo_rect};
use crate::app::view3d::MqDraw3;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::debug3::{Layer3, LayerSet3};
use manifold_lab::engine::hull3d::{ClipStep3, ClipTrace3, ManifoldPoint3, ReduceStep, SatDrawOptions3, CLIP_LAYERS};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace3;

/// What the stage draws: the clipping's layers, and of the lab's own the hulls' faces, edges
/// and names (not the SAT's axes, contacts or MTV).
pub fn layers(lab: &Hull3dLab) -> LayerSet3 {
    let hulls = LayerSet3::of(&[Layer3::Shape, Layer3::Edge, Layer3::Label]);
    LayerSet3((lab.layers.0 & hulls.0) | LayerSet3::of(&CLIP_LAYERS).0)
}

/// Draws step `k` of the clipping over both hulls, through the lab's camera.
pub fn draw(app: &Stage, lab: &Hull3dLab, k: usize) {
    let vp = app.viewport;
    super::draw::ground_grid(lab, &vp);
    let mut d = MqDraw3::new(layers(lab));
    let opts = SatDrawOptions3 { selected: None, eye: Some(lab.camera.eye()), up: lab.camera.up() };
    lab.view.draw_hulls(&opts, &mut d);
    lab.view.draw_names(&opts, &mut d);
    lab.view.clip.draw_step(k, &mut d);
    d.keep_clear.push(gizmo_rect(&vp));
    d.finish(&lab.camera, &vp);
    draw_gizmo(&lab.camera, &vp);
}

/// The right panel's "Clipping" section, under the contact points: the switch, the step
/// slider with the step's caption, and the step's numbers.
pub fn section(ui: &mut egui::Ui, lab: &Hull3dLab, out: &mut Vec<Action>) {
    let on = lab.clip_step.is_some();
    if ui
        .selectable_label(on, "Step the clipping")
        .on_hover_text("Walk how the contact points were made, in place of the SAT picture")
        .clicked()
    {
        out.push(act(Hull3dAction::Clip(!on)));
    }
    let Some(k) = lab.clip_step else { return };
    let t = &lab.view.clip;
    if t.is_empty() {
        ui.label(RichText::new("The hulls are apart: nothing to clip.").small());
        return;
    }
    if let Some(k) = step_slider(ui, k, t.steps(), |k| t.step_label(k)) {
        out.push(act(Hull3dAction::ClipStep(k)));
    }
    step_numbers(ui, t, k.min(t.steps() - 1));
}

/// The numbers behind step `k`: the points and their distance to the reference face, or the
/// reduction's rule.
fn step_numbers(ui: &mut egui::Ui, t: &ClipTrace3, k: usize) {
    match &t.steps[k] {
        ClipStep3::Classify { kept, rejected } => {
            points(ui, "kept (behind)", kept);
            points(ui, "rejected (in front)", rejected);
        }
        ClipStep3::Reduce(ReduceStep::Kept(_)) => points(ui, "the manifold", &t.manifold_points()),
        ClipStep3::Reduce(_) => {
            ui.label(
                RichText::new(
                    "More than four points: keep the deepest, the one farthest from it, then the \
                     largest triangle with those two on each side of the normal (when its area is \
                     above zero); ties go to the first in polygon order.",
                )
                .small(),
            );
        }
        _ => {}
    }
}

fn points(ui: &mut egui::Ui, title: &str, points: &[ManifoldPoint3]) {
    ui.label(RichText::new(format!("{title}: {}", points.len())).small().strong());
    for p in points {
        let q = p.position;
        let text = format!("({:.3}, {:.3}, {:.3})  sep {:+.4}", Num(q.x), Num(q.y), Num(q.z), Num(p.separation));
        ui.label(RichText::new(text).small());
    }
}
