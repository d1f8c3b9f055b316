//! The slicing lab's gestures: drag a knife end to move it, the knife's line to move both
//! ends; drag the polygon to move it, its round handle (or Ctrl+drag) to turn it about its
//! centroid.

use super::{act, SliceAction, SliceLab};
use crate::app::input::{PointerFrame, HANDLE_RADIUS_PX};
use crate::app::stage::Stage;
use crate::app::state::Action;
use glam::Vec2;
use manifold_lab::engine::math::Rot;

/// Pixels from the polygon's outermost point to its turn handle.
const HANDLE_GAP_PX: f32 = 24.0;
/// Pixels from the knife's line within which a press grabs it.
const KNIFE_GRAB_PX: f32 = 6.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    /// Knife end 0 (`from`) or 1 (`to`) follows the cursor.
    KnifeEnd(usize),
    /// The whole knife follows the cursor; `grab` is the pressed point minus `from`.
    Knife { grab: Vec2 },
    /// The grabbed point of the polygon (its frame) follows the cursor.
    Move { grab_local: Vec2 },
    /// The polygon turns about its centroid; `offset` is its angle minus the cursor's.
    Turn { offset: f32 },
}

/// The polygon's centroid (world) and its radius about it.
pub fn centroid(lab: &SliceLab) -> (Vec2, f32) {
    let Some(poly) = lab.spec.polygon() else { return (lab.spec.position, 0.0) };
    let lc = poly.mass_data(1.0).center;
    let r = poly.vertices().iter().map(|v| (*v - lc).length()).fold(0.0, f32::max);
    (lab.spec.transform().apply(lc), r)
}

/// Where the turn handle is, at `px` world units per pixel.
pub fn handle(lab: &SliceLab, px: f32) -> Vec2 {
    let (c, r) = centroid(lab);
    c + Rot::from_angle(lab.spec.angle).apply(Vec2::X) * (r + HANDLE_GAP_PX * px)
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    (a + t * ab).distance(p)
}

fn start(lab: &SliceLab, app: &Stage, f: &PointerFrame, world: Vec2) -> Option<Gesture> {
    let px = app.camera.scale(&app.viewport);
    let grab = 1.5 * HANDLE_RADIUS_PX * px;
    let k = lab.spec.knife;
    for (i, end) in [k.from, k.to].into_iter().enumerate() {
        if end.distance(world) <= grab {
            return Some(Gesture::KnifeEnd(i));
        }
    }
    let turn = |at: Vec2| {
        let d = at - centroid(lab).0;
        Gesture::Turn { offset: lab.spec.angle - d.y.atan2(d.x) }
    };
    if handle(lab, px).distance(world) <= grab {
        return Some(turn(world));
    }
    if distance_to_segment(world, k.from, k.to) <= KNIFE_GRAB_PX * px {
        return Some(Gesture::Knife { grab: world - k.from });
    }
    let xf = lab.spec.transform();
    if lab.spec.shape.shape().test_point(&xf, world) {
        return Some(if f.rotate_modifier { turn(world) } else { Gesture::Move { grab_local: xf.apply_inv(world) } });
    }
    None
}

/// Left-button gestures on the polygon and the knife; `None` when idle (the app's pan and
/// zoom then apply).
pub fn pointer(lab: &mut SliceLab, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
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
    let k = lab.spec.knife;
    let action = match g {
        Gesture::KnifeEnd(0) => SliceAction::SetKnife { from: world, to: k.to },
        Gesture::KnifeEnd(_) => SliceAction::SetKnife { from: k.from, to: world },
        Gesture::Knife { grab } => {
            let from = world - grab;
            SliceAction::SetKnife { from, to: from + (k.to - k.from) }
        }
        Gesture::Move { grab_local } => {
            let angle = lab.spec.angle;
            SliceAction::SetPose { position: world - Rot::from_angle(angle).apply(grab_local), angle }
        }
        Gesture::Turn { offset } => {
            let (c, _) = centroid(lab);
            let d = world - c;
            if d.length_squared() < 1e-12 {
                return Some(Vec::new());
            }
            let angle = d.y.atan2(d.x) + offset;
            // Keep the centroid fixed while turning.
            let lc = lab.spec.polygon().map_or(Vec2::ZERO, |p| p.mass_data(1.0).center);
            SliceAction::SetPose { position: c - Rot::from_angle(angle).apply(lc), angle }
        }
    };
    Some(vec![act(action)])
}
