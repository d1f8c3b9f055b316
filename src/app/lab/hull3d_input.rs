//! Mouse gestures of the 3D hull lab: left drag on a hull moves it in the view plane,
//! Ctrl/Alt + left drag turns it (trackball about its centre), left drag on empty space
//! orbits, right or middle drag pans, the wheel zooms at the cursor.

use super::hull3d_camera::ray_hull;
use crate::app::input::{Gesture, InputState, PointerFrame};
use crate::app::state::{Action, App};
use glam::{Vec2, Vec3};

/// A gesture in progress; `last` is the pointer position of the previous frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture3 {
    Orbit {
        last: Vec2,
    },
    Pan {
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
pub fn pick(app: &App, screen: Vec2) -> Option<(usize, Vec3)> {
    let lab = app.hull3d()?;
    let (o, dir) = lab.camera.ray(&app.viewport, screen);
    (0..2)
        .filter_map(|i| ray_hull(o, dir, &lab.view.hulls[i]).map(|t| (i, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, t)| (i, o + dir * t))
}

pub fn pointer_actions(app: &App, st: &mut InputState, f: &PointerFrame, over_ui: bool) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(lab) = app.hull3d() else { return out };
    let vp = app.viewport;
    if !over_ui && f.wheel != 0.0 && vp.contains(f.pos) {
        out.push(Action::ZoomAt { screen: f.pos, factor: 1.15f32.powf(f.wheel) });
    }
    let current = match st.gesture {
        Gesture::Hull3d(g) => Some(g),
        _ => None,
    };
    let next = match current {
        None if f.pan_down && !over_ui && vp.contains(f.pos) => Some(Gesture3::Pan { last: f.pos }),
        None if f.left_pressed && !over_ui && vp.contains(f.pos) => Some(match pick(app, f.pos) {
            Some((hull, _)) if f.rotate_modifier => Gesture3::Turn { hull, last: f.pos },
            Some((hull, grab)) => Gesture3::Drag { hull, grab, offset: lab.poses[hull].p - grab },
            None => Gesture3::Orbit { last: f.pos },
        }),
        None => None,
        Some(Gesture3::Pan { last }) if f.pan_down => {
            if f.pos != last {
                out.push(Action::PanPixels(f.pos - last));
            }
            Some(Gesture3::Pan { last: f.pos })
        }
        Some(Gesture3::Orbit { last }) if f.left_down => {
            let d = f.pos - last;
            if d != Vec2::ZERO {
                let k = super::hull3d_camera::ORBIT_PER_PIXEL;
                out.push(Action::OrbitHullCamera { yaw: -d.x * k, pitch: d.y * k });
            }
            Some(Gesture3::Orbit { last: f.pos })
        }
        Some(g @ Gesture3::Drag { hull, grab, offset }) if f.left_down => {
            if let Some(p) = lab.camera.point_on_view_plane(&vp, f.pos, grab) {
                let rotation = lab.poses[hull].q;
                out.push(Action::SetHullPose { hull, position: p + offset, rotation });
            }
            Some(g)
        }
        Some(Gesture3::Turn { hull, last }) if f.left_down => {
            let d = f.pos - last;
            if d != Vec2::ZERO {
                // Turn about the hull's centre, which stays in place.
                let q = lab.camera.trackball(d);
                let pose = lab.poses[hull];
                let c = lab.view.hulls[hull].centroid();
                let position = c + q * (pose.p - c);
                out.push(Action::SetHullPose { hull, position, rotation: (q * pose.q).normalize() });
            }
            Some(Gesture3::Turn { hull, last: f.pos })
        }
        Some(_) => None,
    };
    st.gesture = next.map_or(Gesture::None, Gesture::Hull3d);
    out
}
