//! Mouse gestures of the 3D hull lab: left drag on a hull moves it in the view plane,
//! Ctrl/Alt + left drag turns it (trackball about its centre), left drag on empty space
//! orbits, right or middle drag pans, the wheel zooms at the cursor.

use super::{act, Hull3dAction, Hull3dLab};
use crate::app::camera::ScreenRect;
use crate::app::input::PointerFrame;
use crate::app::stage::Stage;
use crate::app::state::Action;
use crate::app::view3d::camera::ray_hull;
use glam::{Vec2, Vec3};

/// A gesture in progress; `last` is the pointer position of the previous frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture3 {
    Orbit {
        last: Vec2,
    },
    /// The grabbed point of `hull` follows the cursor on the view plane through it.
    Drag {
        hull: usize,
        grab: Vec3,
        offset: Vec3,
    },
    Turn {
        hull: usize,
        last: Vec2,
    },
}

/// The hull under a screen point (nearest first) and the point hit.
pub fn pick(lab: &Hull3dLab, vp: &ScreenRect, screen: Vec2) -> Option<(usize, Vec3)> {
    let (o, dir) = lab.camera.ray(vp, screen);
    (0..2)
        .filter_map(|i| ray_hull(o, dir, &lab.view.hulls[i]).map(|t| (i, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, t)| (i, o + dir * t))
}

/// The lab's left-button gestures (the wheel and right or middle drags are the view's, handled
/// by the app and passed to the camera through `Lab::intercept`). `None` when idle.
pub fn pointer(lab: &mut Hull3dLab, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
    let vp = app.viewport;
    let mut out = Vec::new();
    let next = match lab.gesture {
        None if f.left_pressed && !over_ui && vp.contains(f.pos) => Some(match pick(lab, &vp, f.pos) {
            Some((hull, _)) if f.rotate_modifier => Gesture3::Turn { hull, last: f.pos },
            Some((hull, grab)) => Gesture3::Drag { hull, grab, offset: lab.poses[hull].p - grab },
            None => Gesture3::Orbit { last: f.pos },
        }),
        None => return None,
        Some(Gesture3::Orbit { last }) => {
            let d = f.pos - last;
            if d != Vec2::ZERO {
                let k = crate::app::view3d::camera::ORBIT_PER_PIXEL;
                out.push(act(Hull3dAction::Orbit { yaw: -d.x * k, pitch: d.y * k }));
            }
            Some(Gesture3::Orbit { last: f.pos })
        }
        Some(g @ Gesture3::Drag { hull, grab, offset }) => {
            if let Some(p) = lab.camera.point_on_view_plane(&vp, f.pos, grab) {
                let rotation = lab.poses[hull].q;
                out.push(act(Hull3dAction::SetPose { hull, position: p + offset, rotation }));
            }
            Some(g)
        }
        Some(Gesture3::Turn { hull, last }) => {
            let d = f.pos - last;
            if d != Vec2::ZERO {
                // Turn about the hull's centre, which stays in place.
                let q = lab.camera.trackball(d);
                let pose = lab.poses[hull];
                let c = lab.view.hulls[hull].centroid();
                let position = c + q * (pose.p - c);
                out.push(act(Hull3dAction::SetPose { hull, position, rotation: (q * pose.q).normalize() }));
            }
            Some(Gesture3::Turn { hull, last: f.pos })
        }
    };
    // The release's frame moves as the others do (it is where the button came up); then it ends.
    lab.gesture = next.filter(|_| f.left_down);
    Some(out)
}
