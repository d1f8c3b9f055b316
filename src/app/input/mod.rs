//! Mouse gestures turned into actions. The pointer state of a frame comes either from
//! macroquad (`mq_input`) or from a script, so scripted runs exercise the same code as a real
//! mouse.

pub mod keys;
#[cfg(test)]
mod keys_tests;
pub mod mq_input;
#[cfg(test)]
mod tests;

use crate::app::state::{Action, App, RunMode};
use crate::app::tools::ToolPointer;
use glam::Vec2;
use manifold_lab::engine::BodyKind;

/// The pointer in one frame (screen pixels).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointerFrame {
    pub pos: Vec2,
    pub left_pressed: bool,
    pub left_down: bool,
    pub left_released: bool,
    /// Right or middle button held: pan.
    pub pan_down: bool,
    /// Shift held: click adds to the selection.
    pub shift: bool,
    /// Ctrl or Alt held: left drag rotates the body.
    pub rotate_modifier: bool,
    /// Wheel clicks this frame (positive = zoom in).
    pub wheel: f32,
}

/// A left-button edge from the window's event stream: the button went down (`down`) or came
/// up, at `pos` (screen pixels, as the event reports it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ButtonEdge {
    pub down: bool,
    pub pos: Vec2,
}

/// The pointer frames the gestures see for one frame of real input, in order: one at each
/// left-button edge, where the event put it, then one where the pointer is now (`now`, with
/// the button state the window reports at the end of the frame). So a drag ends where the
/// button came up even when the pointer moved on before the frame was drawn, and a press and
/// release within one frame are both seen. `was_down` is the button state after the last
/// frame; edges that do not change the state are dropped, and the last frame is reconciled
/// with `now.left_down` (the window may release the button without an event, on leaving).
pub fn pointer_samples(was_down: bool, edges: &[ButtonEdge], now: PointerFrame) -> Vec<PointerFrame> {
    let mut out = Vec::with_capacity(edges.len() + 1);
    let mut down = was_down;
    for e in edges {
        if e.down == down {
            continue;
        }
        down = e.down;
        out.push(PointerFrame {
            pos: e.pos,
            left_pressed: down,
            left_down: down,
            left_released: !down,
            wheel: 0.0,
            ..now
        });
    }
    out.push(PointerFrame { left_pressed: now.left_down && !down, left_released: !now.left_down && down, ..now });
    out
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Gesture {
    #[default]
    None,
    /// Paused (or a non-dynamic body): the grabbed point follows the cursor.
    DragPose {
        body: usize,
        grab_local: Vec2,
    },
    /// Running: a mouse joint pulls the body.
    Pull,
    /// Rotating about the centre of mass; `offset` is the body angle minus the cursor angle.
    Rotate {
        body: usize,
        offset: f32,
    },
    Pan,
    /// A tool handles the pointer (`Tool::pointer`: the knife, the ray) until it lets go.
    Tool,
    /// The open lab handles the pointer (`Lab::pointer`) until it lets go.
    Lab,
}

#[derive(Clone, Debug, Default)]
pub struct InputState {
    pub gesture: Gesture,
    last_pos: Option<Vec2>,
}

/// Pixels from the shape's outermost point to the rotate handle.
const HANDLE_GAP_PX: f32 = 28.0;
/// Grab radius of the handle, pixels.
pub const HANDLE_RADIUS_PX: f32 = 8.0;
/// How near a click must be to a joint anchor to select the joint, pixels.
pub const JOINT_PICK_PX: f32 = 7.0;

/// The rotate handle of the single selected body: (body, centre of mass, handle position).
pub fn rotate_handle(app: &App) -> Option<(usize, Vec2, Vec2)> {
    let &[i] = app.selection.as_slice() else { return None };
    let b = app.world.bodies.get(i)?;
    let px = app.camera.scale(&app.viewport);
    let reach = b.bounding_radius() + HANDLE_GAP_PX * px;
    Some((i, b.center, b.center + b.xf.q.apply(Vec2::X) * reach))
}

/// Actions for this frame's pointer. `over_ui` is true when egui owns the pointer. The wheel
/// and right or middle drags move the view in every lab; left-button gestures go to the open
/// lab first (`Lab::pointer`), then to the ordinary select, drag and rotate gestures.
pub fn pointer_actions(app: &mut App, st: &mut InputState, f: &PointerFrame, over_ui: bool) -> Vec<Action> {
    let mut out = Vec::new();
    let vp = app.viewport;
    let world = app.camera.screen_to_world(&vp, f.pos);
    let delta = st.last_pos.map(|p| f.pos - p).unwrap_or(Vec2::ZERO);
    st.last_pos = Some(f.pos);

    // A tool that took the last frame's pointer may have let go in it: a press is free again.
    let free = matches!(st.gesture, Gesture::None | Gesture::Tool) && !over_ui && vp.contains(f.pos);
    let taken = app.with_tools(|tools, v| tools.pointer(v, &ToolPointer { frame: f, world, free }));
    if matches!(st.gesture, Gesture::None | Gesture::Tool) && !(st.gesture == Gesture::None && f.pan_down) {
        st.gesture = if taken.is_some() { Gesture::Tool } else { Gesture::None };
        if let Some(actions) = taken {
            out.extend(actions);
            return out;
        }
    }
    if !over_ui && f.wheel != 0.0 && vp.contains(f.pos) {
        out.push(Action::ZoomAt { screen: f.pos, factor: 1.15f32.powf(f.wheel) });
    }
    if matches!(st.gesture, Gesture::None | Gesture::Lab) && !(st.gesture == Gesture::None && f.pan_down) {
        let handled = app.with_lab(|lab, app| lab.pointer(app, f, over_ui && st.gesture == Gesture::None)).flatten();
        st.gesture = if handled.is_some() { Gesture::Lab } else { Gesture::None };
        if let Some(actions) = handled {
            out.extend(actions);
            return out;
        }
    }

    continue_gesture(app, st, f, (world, delta), over_ui, &mut out);
    out
}

/// The frame's part of the gesture under way (or a new one from a press): a pan, a drag, a
/// pull or a turn, from the pointer's world position and its screen motion since the last
/// sample.
fn continue_gesture(
    app: &App,
    st: &mut InputState,
    f: &PointerFrame,
    (world, delta): (Vec2, Vec2),
    over_ui: bool,
    out: &mut Vec<Action>,
) {
    let vp = app.viewport;
    match st.gesture {
        Gesture::None | Gesture::Lab | Gesture::Tool => {
            if f.pan_down && !over_ui && vp.contains(f.pos) {
                st.gesture = Gesture::Pan;
            } else if f.left_pressed && !over_ui && vp.contains(f.pos) {
                start_left_gesture(app, st, f, world, out);
            }
        }
        Gesture::Pan => {
            if f.pan_down {
                if delta != Vec2::ZERO {
                    out.push(Action::PanPixels(delta));
                }
            } else {
                st.gesture = Gesture::None;
            }
        }
        // A drag ends where the button is released: the release's frame is at the release's
        // position (`pointer_samples`), so a move up to it still moves the body there.
        Gesture::DragPose { body, grab_local } => {
            if f.left_down || delta != Vec2::ZERO {
                if let Some(b) = app.world.bodies.get(body) {
                    let position = world - b.xf.q.apply(grab_local);
                    out.push(Action::SetPose { body, position, angle: b.angle });
                }
            }
            if !f.left_down {
                st.gesture = Gesture::None;
            }
        }
        Gesture::Pull => {
            if f.left_down {
                out.push(Action::PullTo(world));
            } else {
                out.push(Action::EndPull);
                st.gesture = Gesture::None;
            }
        }
        Gesture::Rotate { body, offset } => {
            if f.left_down || delta != Vec2::ZERO {
                if let Some(b) = app.world.bodies.get(body) {
                    let d = world - b.center;
                    if d.length_squared() > 1e-12 {
                        let angle = d.y.atan2(d.x) + offset;
                        // Keep the centre of mass fixed while turning.
                        let q = manifold_lab::engine::math::Rot::from_angle(angle);
                        let position = b.center - q.apply(b.local_center);
                        out.push(Action::SetPose { body, position, angle });
                    }
                }
            }
            if !f.left_down {
                st.gesture = Gesture::None;
            }
        }
    }
}

fn start_left_gesture(app: &App, st: &mut InputState, f: &PointerFrame, world: Vec2, out: &mut Vec<Action>) {
    let px = app.camera.scale(&app.viewport);
    if let Some((body, center, handle)) = rotate_handle(app) {
        if (world - handle).length() <= HANDLE_RADIUS_PX * 1.5 * px {
            let d = world - center;
            st.gesture = Gesture::Rotate { body, offset: app.world.bodies[body].angle - d.y.atan2(d.x) };
            return;
        }
    }
    let clicked = app.tools.click(&app.tool_view(), &ToolPointer { frame: f, world, free: true });
    if let Some(actions) = clicked {
        out.extend(actions);
        return;
    }
    let under = app.world.body_at(world);
    if let Some(k) = joint_under(app, world, under, px).filter(|_| !f.shift) {
        out.push(Action::SelectJoint(Some(k)));
        return;
    }
    let Some(body) = under else {
        if !f.shift {
            out.push(Action::Select(None));
        }
        return;
    };
    if f.shift {
        out.push(Action::ToggleSelect(body));
        return;
    }
    out.push(Action::Select(Some(body)));
    let b = &app.world.bodies[body];
    if f.rotate_modifier {
        let d = world - b.center;
        st.gesture = Gesture::Rotate { body, offset: b.angle - d.y.atan2(d.x) };
    } else if app.mode == RunMode::Running && b.kind == BodyKind::Dynamic {
        out.push(Action::StartPull { body, point: world });
        st.gesture = Gesture::Pull;
    } else {
        st.gesture = Gesture::DragPose { body, grab_local: b.xf.apply_inv(world) };
    }
}

/// The joint whose anchor is within `JOINT_PICK_PX` of `world`. The anchor wins over the body
/// under the pointer unless the pointer is nearer that body's centre of mass than the anchor,
/// so the links of a zoomed-out chain can still be picked by their middles.
fn joint_under(app: &App, world: Vec2, body: Option<usize>, px: f32) -> Option<usize> {
    let k = app.world.joint_at(world, JOINT_PICK_PX * px)?;
    let (pa, pb) = app.world.joints()[k].base().world_anchors(&app.world.bodies);
    let to_anchor = world.distance(pa).min(world.distance(pb));
    let to_body = body.and_then(|i| app.world.bodies.get(i)).map_or(f32::INFINITY, |b| world.distance(b.center));
    (to_anchor <= to_body).then_some(k)
}
