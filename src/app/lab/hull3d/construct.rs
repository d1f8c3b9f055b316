//! The hull3d lab's "construct" stage: the QuickHull trace of hull A's or B's point cloud
//! (a `Points` or `Random` shape's own cloud, otherwise the hull's vertices), placed at the
//! hull's pose and walked with the common step slider: the initial tetrahedron, each
//! iteration's face, outside set, eye, removed faces, horizon and new cone, the points dropped,
//! and the coplanar triangles merged into the final faces.

use super::{act, Hull3dAction, Hull3dLab};
use crate::app::lab::widgets::step_slider;
use crate::app::stage::Stage;
use crate::app::state::Action;
use crate::app::view3d::MqDraw3;
use egui_macroquad::egui::{self, RichText};
use glam::Vec3;
use manifold_lab::engine::debug3::LayerSet3;
use manifold_lab::engine::hull3d::shapes::random_cloud;
use manifold_lab::engine::hull3d::{quickhull_traced, HullOptions, QuickHullTrace3};
use manifold_lab::engine::trace::Trace3;
use manifold_lab::scene::HullShapeDesc;

/// The stage's state: which hull, its recorded construction, the step shown (`None` = last).
#[derive(Clone, Debug)]
pub struct Construct {
    pub hull: usize,
    pub trace: QuickHullTrace3,
    pub step: Option<usize>,
}

/// The cloud hull `hull` is built from, in world space at its current pose.
pub fn cloud(lab: &Hull3dLab, hull: usize) -> Vec<Vec3> {
    let hull = hull.min(1);
    let place = if hull == 0 { &lab.spec.a } else { &lab.spec.b };
    let local = match place.shape.desc() {
        HullShapeDesc::Points(points) => points.clone(),
        HullShapeDesc::Random { count, radius, seed } => random_cloud(*seed, *count as usize, *radius),
        _ => lab.local[hull].positions().to_vec(),
    };
    local.into_iter().map(|p| lab.poses[hull].transform_point(p)).collect()
}

/// Records the construction of hull `hull`, keeping the step shown when it still exists.
pub fn start(lab: &Hull3dLab, hull: usize, step: Option<usize>) -> Construct {
    let mut trace = QuickHullTrace3::default();
    let _ = quickhull_traced(&cloud(lab, hull), &HullOptions::default(), Some(&mut trace));
    Construct { hull: hull.min(1), trace, step }
}

/// Draws the shown step through the lab's camera instead of the SAT picture.
pub fn draw(app: &Stage, lab: &Hull3dLab, c: &Construct) {
    let mut d = MqDraw3::new(LayerSet3::ALL);
    c.trace.draw_step(c.step.unwrap_or(usize::MAX), &mut d);
    d.finish(&lab.camera, &app.viewport);
}

/// The left panel's "Construct" section.
pub fn controls(ui: &mut egui::Ui, lab: &Hull3dLab, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Construct (QuickHull)").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            for (hull, name) in [(0, "Build A"), (1, "Build B")] {
                let on = lab.construct.as_ref().is_some_and(|c| c.hull == hull);
                if ui.selectable_label(on, name).clicked() {
                    out.push(act(Hull3dAction::Construct(if on { None } else { Some(hull) })));
                }
            }
        });
        let Some(c) = &lab.construct else {
            ui.label(RichText::new("Walk QuickHull building a hull, in place of the SAT view.").small());
            return;
        };
        let t = &c.trace;
        let last = t.steps().saturating_sub(1);
        if let Some(k) = step_slider(ui, c.step.unwrap_or(last).min(last), t.steps(), |k| t.step_label(k)) {
            out.push(act(Hull3dAction::ConstructStep(Some(k))));
        }
        if let Some(Err(e)) = &t.result {
            ui.label(RichText::new(format!("no hull: {e}")).color(egui::Color32::from_rgb(255, 120, 120)));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::super::{act, Hull3dAction, Hull3dLab};
    use crate::app::lab::LabKind;
    use crate::app::state::{Action, App};
    use glam::{Quat, Vec3};
    use manifold_lab::engine::hull3d::QuickHullStep3;
    use manifold_lab::scene::{self, HullShapeDesc};

    fn lab(app: &App) -> &Hull3dLab {
        app.lab_as::<Hull3dLab>().expect("the hull3d lab is open")
    }

    #[test]
    fn construct_stage_walks_quickhull_and_follows_edits() {
        let mut app = App::new(scene::Scene::new("empty"), None);
        app.apply(Action::OpenLab { kind: LabKind::HullSat, file: None });
        app.apply(act(Hull3dAction::SetShape {
            hull: 1,
            shape: HullShapeDesc::Random { count: 40, radius: 1.0, seed: 3 },
        }));
        app.apply(act(Hull3dAction::Construct(Some(1))));
        let c = lab(&app).construct.clone().expect("the stage is on");
        let faces = lab(&app).local[1].faces().len();
        assert!(matches!(c.trace.steps.first(), Some(QuickHullStep3::Simplex { .. })));
        assert!(matches!(c.trace.steps.last(), Some(QuickHullStep3::Merged { faces: f, .. }) if f.len() == faces));
        assert_eq!(c.trace.input.len(), 40, "the shape's own cloud, not just its vertices");
        app.apply(act(Hull3dAction::ConstructStep(Some(2))));
        // Moving the hull rebuilds the construction at the new pose, on the same step.
        let p = Vec3::new(0.0, 3.0, 0.0);
        app.apply(act(Hull3dAction::SetPose { hull: 1, position: p, rotation: Quat::IDENTITY }));
        let c2 = lab(&app).construct.clone().unwrap();
        assert_eq!(c2.step, Some(2));
        assert_ne!(c2.trace.input, c.trace.input);
        app.apply(act(Hull3dAction::Construct(None)));
        assert!(lab(&app).construct.is_none());
    }
}
