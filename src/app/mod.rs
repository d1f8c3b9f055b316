//! The window: macroquad draws the world through `MqDraw`, egui draws the panels. Each frame:
//! panels and input produce actions → actions are applied → the world steps → draw.

pub mod camera;
pub mod draw;
pub mod grid;
pub mod history;
pub mod input;
pub mod lab;
pub mod panels;
pub mod script;
pub mod state;
#[cfg(test)]
mod tests;
pub mod view;

use camera::ScreenRect;
use egui_macroquad::egui;
use glam::Vec2;
use input::{InputState, PointerFrame};
use macroquad::prelude as mq;
use script::ScriptPlayer;
use state::{Action, App};
use std::path::PathBuf;

/// Where the shipped scenes live (relative to the working directory).
pub const SCENE_DIR: &str = "scenes";

/// Options of a `screenshot` run.
pub struct Shot {
    pub frames: u32,
    pub out: PathBuf,
    pub script: Option<ScriptPlayer>,
}

pub fn window_conf(width: i32, height: i32) -> mq::Conf {
    mq::Conf {
        window_title: "manifold-lab".to_owned(),
        window_width: width,
        window_height: height,
        window_resizable: true,
        high_dpi: false,
        sample_count: 4,
        ..Default::default()
    }
}

/// Runs the window until it is closed, or until the screenshot is written.
pub async fn run(mut app: App, mut shot: Option<Shot>) {
    let mut ui_state = panels::UiState::new(SCENE_DIR);
    let mut input = InputState::default();
    let mut frames_after_script = 0u32;
    let mut styled_for = 0.0;
    loop {
        let mut actions: Vec<Action> = Vec::new();
        let screen_h = mq::screen_height();
        if screen_h != styled_for {
            egui_macroquad::cfg(|ctx| panels::style(ctx, screen_h));
            styled_for = screen_h;
        }

        // Panels (collect actions and learn the free screen area).
        let mut central = egui::Rect::NOTHING;
        let mut over_ui = false;
        let mut typing = false;
        egui_macroquad::ui(|ctx| {
            central = panels::build(ctx, &app, &mut ui_state, &mut actions);
            let ppp = ctx.pixels_per_point();
            central = egui::Rect::from_min_max(
                (central.min.to_vec2() * ppp).to_pos2(),
                (central.max.to_vec2() * ppp).to_pos2(),
            );
            over_ui = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
            typing = ctx.wants_keyboard_input();
        });
        let free = ScreenRect {
            min: Vec2::new(central.min.x, central.min.y),
            size: Vec2::new(central.width().max(1.0), central.height().max(1.0)),
        };
        (app.viewport, app.inset) = lab::split_viewport(app.lab.as_ref().map(|l| l.kind), free);

        // Pointer: scripted or real.
        let script_frame = shot.as_mut().and_then(|s| s.script.as_mut()).and_then(|p| p.next_frame());
        let pointer = match &script_frame {
            Some(f) => f.pointer.map(|p| PointerFrame {
                pos: app.camera.world_to_screen(&app.viewport, p.world),
                left_pressed: p.left_pressed,
                left_down: p.left_down,
                left_released: p.left_released,
                shift: p.shift,
                rotate_modifier: p.rotate,
                ..Default::default()
            }),
            None if shot.is_none() => Some(real_pointer()),
            None => None,
        };
        if let Some(a) = script_frame.as_ref().and_then(|f| f.action.clone()) {
            actions.push(a);
        }
        if let Some(p) = pointer {
            let scripted = script_frame.is_some();
            actions.extend(input::pointer_actions(&app, &mut input, &p, over_ui && !scripted));
        }
        if shot.is_none() && !typing {
            keyboard_actions(&mut actions);
        }
        for a in actions {
            app.apply(a);
        }
        // Screenshots use a fixed frame time so they are reproducible.
        let dt = if shot.is_some() { 1.0 / 60.0 } else { mq::get_frame_time() };
        app.update(dt);

        view::draw_world(&app);
        egui_macroquad::draw();

        if let Some(s) = &shot {
            let script_done = s.script.as_ref().is_none_or(|p| p.is_done());
            if script_done {
                frames_after_script += 1;
            }
            if script_done && frames_after_script >= s.frames.max(1) {
                save_screenshot(&s.out);
                save_shot_info(&app, &s.out);
                return;
            }
        }
        mq::next_frame().await;
    }
}

fn real_pointer() -> PointerFrame {
    use mq::{
        is_key_down, is_mouse_button_down, is_mouse_button_pressed, is_mouse_button_released, KeyCode, MouseButton,
    };
    let (x, y) = mq::mouse_position();
    let wheel = mq::mouse_wheel().1;
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
        wheel: wheel.signum(),
    }
}

fn keyboard_actions(out: &mut Vec<Action>) {
    use mq::{is_key_pressed, KeyCode};
    if is_key_pressed(KeyCode::Space) {
        out.push(Action::TogglePlay);
    }
    if is_key_pressed(KeyCode::Period) || is_key_pressed(KeyCode::S) {
        out.push(Action::Step);
    }
    if is_key_pressed(KeyCode::B) || is_key_pressed(KeyCode::Backspace) {
        out.push(Action::StepBack);
    }
    if is_key_pressed(KeyCode::R) {
        out.push(Action::Restart);
    }
    if is_key_pressed(KeyCode::F) || is_key_pressed(KeyCode::Home) {
        out.push(Action::FrameAll);
    }
}

/// Writes the current frame (world and panels) to a PNG.
fn save_screenshot(path: &std::path::Path) {
    // macroquad already returns the rows top first.
    let img = mq::get_screen_data();
    let (w, h) = (img.width, img.height);
    img.export_png(&path.to_string_lossy());
    println!("wrote {} ({}x{})", path.display(), w, h);
}

/// Writes `<out>.json` beside the PNG: the viewport and camera, so tests can map world points
/// to pixels.
fn save_shot_info(app: &App, png: &std::path::Path) {
    let centers: Vec<[f32; 2]> =
        app.selection.iter().filter_map(|&i| app.world.bodies.get(i)).map(|b| b.center.to_array()).collect();
    let info = serde_json::json!({
        "viewport_min": app.viewport.min.to_array(),
        "viewport_size": app.viewport.size.to_array(),
        "camera_center": app.camera.center.to_array(),
        "camera_height": app.camera.height,
        "selected_centers": centers,
        "inset": app.inset.map(|r| [r.min.x, r.min.y, r.size.x, r.size.y]),
        "selected_angles": app.selection.iter().filter_map(|&i| app.world.bodies.get(i)).map(|b| b.angle).collect::<Vec<f32>>(),
        "step": app.world.step_count,
    });
    let path = png.with_extension("json");
    if let Err(e) = std::fs::write(&path, info.to_string()) {
        eprintln!("cannot write {}: {e}", path.display());
    }
}
