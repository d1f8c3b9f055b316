//! The hull lab's gestures: press on a point and drag to move it, press on empty space to add
//! a point there, Shift+press on a point to delete it.

use super::{act, HullAction, HullLab};
use crate::app::input::{PointerFrame, HANDLE_RADIUS_PX};
use crate::app::stage::Stage;
use crate::app::state::Action;
use glam::Vec2;

/// The point nearest `world` within the grab radius, if any.
pub fn point_at(lab: &HullLab, app: &Stage, world: Vec2) -> Option<usize> {
    let grab = 1.5 * HANDLE_RADIUS_PX * app.camera.scale(&app.viewport);
    let pts = &lab.spec.points;
    (0..pts.len())
        .filter(|&i| pts[i].distance(world) <= grab)
        .min_by(|&i, &j| pts[i].distance(world).total_cmp(&pts[j].distance(world)))
}

/// Left-button gestures on the cloud; `None` when idle (the app's pan and zoom then apply).
pub fn pointer(lab: &mut HullLab, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
    let world = app.camera.screen_to_world(&app.viewport, f.pos);
    let Some(index) = lab.dragging else {
        if !(f.left_pressed && !over_ui && app.viewport.contains(f.pos)) {
            return None;
        }
        return Some(match point_at(lab, app, world) {
            Some(i) if f.shift => vec![act(HullAction::DeletePoint(i))],
            Some(i) => {
                lab.dragging = Some(i);
                Vec::new()
            }
            None => vec![act(HullAction::AddPoint(world))],
        });
    };
    if !f.left_down {
        // Released: the drag ends here, after this frame's motion (X may deliver both).
        lab.dragging = None;
    }
    Some(vec![act(HullAction::MovePoint { index, to: world })])
}
