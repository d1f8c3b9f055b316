//! macroquad's input turned into the app's per-frame input: one `PointerFrame` and the key
//! actions. Wheel notches and key presses are counted from macroquad's event stream, not from
//! its per-frame snapshot: the snapshot keeps only the last wheel event of a frame and one
//! press per key, so quick notches or taps would be lost and zoom speed would follow the frame
//! rate. Left-button presses and releases are taken from the events too, with the positions
//! they carry: the pointer's position when the frame is drawn may already be elsewhere.

use crate::app::input::{pointer_samples, ButtonEdge, PointerFrame};
use crate::app::state::Action;
use glam::Vec2;
use macroquad::miniquad::{EventHandler, KeyCode, KeyMods, MouseButton};
use macroquad::prelude as mq;

/// Wheel notches taken in one frame at most (a flung trackpad sends hundreds).
const MAX_NOTCHES_PER_FRAME: f32 = 12.0;

/// What macroquad's event stream delivered since the last frame.
#[derive(Default)]
struct Events {
    /// Sum of vertical wheel deltas (one notch = 1; trackpads send fractions).
    wheel: f32,
    /// Keys pressed (not auto-repeated), in order, with the modifiers held.
    keys: Vec<(KeyCode, KeyMods)>,
    /// Left-button presses and releases, in order, where they happened.
    edges: Vec<ButtonEdge>,
}

impl EventHandler for Events {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn mouse_wheel_event(&mut self, _x: f32, y: f32) {
        if y.is_finite() {
            self.wheel += y;
        }
    }
    fn mouse_button_down_event(&mut self, button: MouseButton, x: f32, y: f32) {
        if button == MouseButton::Left {
            self.edges.push(ButtonEdge { down: true, pos: Vec2::new(x, y) });
        }
    }
    fn mouse_button_up_event(&mut self, button: MouseButton, x: f32, y: f32) {
        if button == MouseButton::Left {
            self.edges.push(ButtonEdge { down: false, pos: Vec2::new(x, y) });
        }
    }
    fn key_down_event(&mut self, keycode: KeyCode, keymods: KeyMods, repeat: bool) {
        if !repeat {
            self.keys.push((keycode, keymods));
        }
    }
}

/// Reads macroquad's input once per frame.
pub struct MqInput {
    subscriber: usize,
    /// The left button's state at the end of the last frame.
    left_down: bool,
}

/// One frame of real input.
pub struct FrameInput {
    /// The pointer where the frame ends (its wheel notches included).
    pub pointer: PointerFrame,
    /// What the gestures see, in order: the pointer at each left-button edge, then `pointer`
    /// (see `input::pointer_samples`).
    pub samples: Vec<PointerFrame>,
    /// Keys pressed this frame, with their modifiers (see `key_actions`).
    keys: Vec<(KeyCode, KeyMods)>,
}

impl FrameInput {
    /// The actions of this frame's keys; none while egui has the keyboard (`typing`).
    pub fn key_actions(&self, typing: bool) -> Vec<Action> {
        if typing {
            return Vec::new();
        }
        self.keys.iter().filter_map(|&(k, m)| crate::app::input::keys::key_action(k, m)).collect()
    }
}

impl MqInput {
    /// Subscribes to macroquad's event stream; call once, after the window exists.
    pub fn new() -> MqInput {
        MqInput { subscriber: mq::utils::register_input_subscriber(), left_down: false }
    }

    /// Collects the events since the last frame.
    pub fn frame(&mut self) -> FrameInput {
        let mut ev = Events::default();
        mq::utils::repeat_all_miniquad_input(&mut ev, self.subscriber);
        let wheel = ev.wheel.clamp(-MAX_NOTCHES_PER_FRAME, MAX_NOTCHES_PER_FRAME);
        let pointer = pointer(wheel);
        let samples = pointer_samples(self.left_down, &ev.edges, pointer);
        self.left_down = pointer.left_down;
        FrameInput { pointer, samples, keys: ev.keys }
    }
}

/// egui-macroquad hands egui a wheel notch as 1/90 of a line (it expects pixel deltas), so a
/// panel would hardly scroll; this gives egui the notches turned over a panel at egui's own
/// line height. Call inside the egui pass, before the panels are built; `over_ui` is whether
/// the pointer was over egui at the end of the last frame (egui cannot tell yet this early).
pub fn scroll_panels(ctx: &egui_macroquad::egui::Context, notches: f32, over_ui: bool) {
    if notches != 0.0 && over_ui {
        let line = ctx.options(|o| o.line_scroll_speed);
        ctx.input_mut(|i| i.smooth_scroll_delta.y += notches * line);
    }
}

/// The pointer as macroquad reports it this frame, with `wheel` counted from the events.
fn pointer(wheel: f32) -> PointerFrame {
    use mq::{is_key_down, is_mouse_button_down, is_mouse_button_pressed, is_mouse_button_released};
    let (x, y) = mq::mouse_position();
    PointerFrame {
        pos: Vec2::new(x, y),
        left_pressed: is_mouse_button_pressed(MouseButton::Left),
        left_down: is_mouse_button_down(MouseButton::Left),
        left_released: is_mouse_button_released(MouseButton::Left),
        pan_down: is_mouse_button_down(MouseButton::Right) || is_mouse_button_down(MouseButton::Middle),
        shift: is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift),
        rotate_modifier: is_key_down(KeyCode::LeftControl)
            || is_key_down(KeyCode::RightControl)
            || is_key_down(KeyCode::LeftAlt),
        wheel,
    }
}
