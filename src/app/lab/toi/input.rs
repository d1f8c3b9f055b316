//! The time-of-impact lab's gestures: drag a shape at its start pose, or its end ghost, to
//! move that pose; drag the end ghost's round handle (or Ctrl+drag either pose) to turn it
//! about the shape's centre of mass.

use super::{act, Pose, ToiAction, ToiLab};
use crate::app::input::{PointerFrame, HANDLE_RADIUS_PX};
use crate::app::stage::Stage;
use crate::app::state::Action;
use glam::Vec2;
use manifold_lab::engine::math::{Rot, Transform};
use manifold_lab::scene::ToiPose;

/// Pixels from a shape's outermost point to its end pose's turn handle.
const HANDLE_GAP_PX: f32 = 24.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    /// The grabbed point of the pose (in the shape's frame) follows the cursor.
    Move { body: usize, pose: Pose, grab_local: Vec2 },
    /// The pose turns about the centre of mass; `offset` is its angle minus the cursor's.
    Turn { body: usize, pose: Pose, offset: f32 },
}

fn pose_of(lab: &ToiLab, body: usize, pose: Pose) -> ToiPose {
    let b = lab.body(body);
    match pose {
        Pose::Start => b.start,
        Pose::End => b.end_pose(),
    }
}

/// The centre of mass of `body` at `pose`, and its shape's radius about it.
fn center_of(lab: &ToiLab, body: usize, pose: Pose) -> (Vec2, f32) {
    let shape = lab.body(body).shape.shape();
    let lc = shape.mass_data(1.0).center;
    let p = pose_of(lab, body, pose);
    let aabb = shape.compute_aabb(&Transform::IDENTITY);
    let r = (aabb.max - lc).length().max((aabb.min - lc).length());
    (p.transform().apply(lc), r)
}

/// Where the end pose's turn handle of `body` is.
pub fn handle(lab: &ToiLab, body: usize, px: f32) -> Vec2 {
    let (c, r) = center_of(lab, body, Pose::End);
    c + Rot::from_angle(pose_of(lab, body, Pose::End).angle).apply(Vec2::X) * (r + HANDLE_GAP_PX * px)
}

fn start(lab: &ToiLab, app: &Stage, f: &PointerFrame, world: Vec2) -> Option<Gesture> {
    let px = app.camera.scale(&app.viewport);
    let angle_to = |body, pose, at: Vec2| {
        let (c, _) = center_of(lab, body, pose);
        let d = at - c;
        pose_of(lab, body, pose).angle - d.y.atan2(d.x)
    };
    for body in [1, 0] {
        if (handle(lab, body, px) - world).length() <= 1.5 * HANDLE_RADIUS_PX * px {
            return Some(Gesture::Turn { body, pose: Pose::End, offset: angle_to(body, Pose::End, world) });
        }
    }
    // Ends are drawn over starts: they are hit first.
    for pose in [Pose::End, Pose::Start] {
        for body in [1, 0] {
            let xf = pose_of(lab, body, pose).transform();
            if lab.body(body).shape.shape().test_point(&xf, world) {
                return Some(if f.rotate_modifier {
                    Gesture::Turn { body, pose, offset: angle_to(body, pose, world) }
                } else {
                    Gesture::Move { body, pose, grab_local: xf.apply_inv(world) }
                });
            }
        }
    }
    None
}

/// Left-button gestures on the poses; `None` when idle (the app's pan and zoom then apply).
pub fn pointer(lab: &mut ToiLab, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
    let world = app.camera.screen_to_world(&app.viewport, f.pos);
    let Some(g) = lab.gesture else {
        if f.left_pressed && !over_ui && app.viewport.contains(f.pos) {
            lab.gesture = start(lab, app, f, world);
            return lab.gesture.map(|_| Vec::new());
        }
        return None;
    };
    if !f.left_down {
        // Released: the gesture ends here, after this frame's motion (X may deliver both).
        lab.gesture = None;
    }
    let action = match g {
        Gesture::Move { body, pose, grab_local } => {
            let angle = pose_of(lab, body, pose).angle;
            let position = world - Rot::from_angle(angle).apply(grab_local);
            ToiAction::SetPose { body, pose, position, angle }
        }
        Gesture::Turn { body, pose, offset } => {
            let (c, _) = center_of(lab, body, pose);
            let d = world - c;
            if d.length_squared() < 1e-12 {
                return Some(Vec::new());
            }
            // The turn continues past ±π instead of jumping a whole turn back.
            let current = pose_of(lab, body, pose).angle;
            let turned = d.y.atan2(d.x) + offset - current;
            let angle =
                current + (turned + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
            // Keep the centre of mass fixed while turning.
            let lc = lab.body(body).shape.shape().mass_data(1.0).center;
            ToiAction::SetPose { body, pose, position: c - Rot::from_angle(angle).apply(lc), angle }
        }
    };
    Some(vec![act(action)])
}
