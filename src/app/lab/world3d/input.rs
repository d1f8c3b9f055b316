//! Mouse gestures of the 3D dynamics lab: a left press on a hull selects it and, if it moves,
//! grabs it with the mouse spring, whose target then follows the cursor on the view plane
//! through the grabbed point; a left drag on empty space orbits; right or middle drags pan and
//! the wheel zooms (the app's, passed to the camera through `Lab::intercept`). A left press on
//! the hovered contact point pins it instead (`pin`; with Shift, the hull under it is taken).

use super::pin::ContactKey3;
use super::{act, World3dAction, World3dLab};
use crate::app::camera::ScreenRect;
use crate::app::input::PointerFrame;
use crate::app::stage::Stage;
use crate::app::state::Action;
use crate::app::view3d::camera::{ray_hull, ORBIT_PER_PIXEL};
use glam::{Vec2, Vec3};

/// A gesture in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    Orbit {
        last: Vec2,
    },
    /// The spring's target follows the cursor on the view plane through `grab`.
    Pull {
        grab: Vec3,
    },
}

/// The body under a screen point (nearest first) and the world point hit.
pub fn pick(lab: &World3dLab, vp: &ScreenRect, screen: Vec2) -> Option<(usize, Vec3)> {
    let (o, dir) = lab.camera.ray(vp, screen);
    let hits = lab.world.bodies.iter().enumerate().filter_map(|(i, b)| {
        // The ray in the body frame, where each of its hulls sits.
        let (lo, ld) = (b.pose.inverse_transform_point(o), b.pose.q.inverse() * dir);
        b.hulls().filter_map(|h| ray_hull(lo, ld, h)).min_by(f32::total_cmp).map(|t| (i, t))
    });
    hits.min_by(|a, b| a.1.total_cmp(&b.1)).map(|(i, t)| (i, o + dir * t))
}

/// The lab's left-button gestures; `None` when idle.
pub fn pointer(lab: &mut World3dLab, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
    let vp = app.viewport;
    let idle = lab.gesture.is_none() && !over_ui && vp.contains(f.pos);
    lab.hover = if idle { super::inspect::contact_under(lab, &vp, f.pos) } else { None };
    let mut out = Vec::new();
    // A click on the hovered contact point pins it (a second click unpins), as in 2D; Shift
    // reaches the hull under it instead.
    if let Some((c, k)) = lab.hover.filter(|_| f.left_pressed && !f.shift && lab.gesture.is_none()) {
        let key = ContactKey3::of(&lab.world, c, k);
        let again = key.is_some() && lab.pinned.map(|p| p.key) == key;
        out.push(act(World3dAction::Pin(key.filter(|_| !again))));
        return Some(out);
    }
    let next = match lab.gesture {
        None if f.left_pressed && !over_ui && vp.contains(f.pos) => Some(match pick(lab, &vp, f.pos) {
            Some((body, grab)) => {
                out.push(act(World3dAction::Grab { body, point: grab }));
                Gesture::Pull { grab }
            }
            None => Gesture::Orbit { last: f.pos },
        }),
        None => return None,
        Some(Gesture::Orbit { last }) => {
            let d = f.pos - last;
            if d != Vec2::ZERO {
                out.push(act(World3dAction::Orbit { yaw: -d.x * ORBIT_PER_PIXEL, pitch: d.y * ORBIT_PER_PIXEL }));
            }
            Some(Gesture::Orbit { last: f.pos })
        }
        Some(g @ Gesture::Pull { grab }) => {
            // Up to where the button came up (a release's frame is at its position), then
            // let go: a paused hull is placed there, a running one keeps what the spring gave.
            if let Some(p) = lab.camera.point_on_view_plane(&vp, f.pos, grab) {
                out.push(act(World3dAction::PullTo(p)));
            }
            if !f.left_down {
                out.push(act(World3dAction::Release));
            }
            Some(g)
        }
    };
    // The release's frame moves as the others do (it is where the button came up); then it ends.
    lab.gesture = next.filter(|_| f.left_down);
    Some(out)
}
