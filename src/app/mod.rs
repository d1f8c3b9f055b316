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

use camera::ScreenRect;
use draw::{mq_color, MqDraw};
use egui_macroquad::egui;
use glam::Vec2;
use input::{InputState, PointerFrame};
use macroquad::prelude as mq;
use manifold_lab::engine::debug::{palette, DrawOptions, LayerSet};
use manifold_lab::engine::world_draw::draw_body;
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

const BACKGROUND: mq::Color = mq::Color::new(0.09, 0.10, 0.12, 1.0);

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
        app.viewport = ScreenRect {
            min: Vec2::new(central.min.x, central.min.y),
            size: Vec2::new(central.width().max(1.0), central.height().max(1.0)),
        };

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

        draw_world(&app);
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

/// Draws the grid, the world and the selection handle into the viewport.
fn draw_world(app: &App) {
    mq::clear_background(BACKGROUND);
    let vp = app.viewport;
    let (sw, sh) = (mq::screen_width(), mq::screen_height());
    let s = app.camera.scale(&vp);
    let c = vp.center();
    let cam = mq::Camera2D {
        target: app.camera.center,
        zoom: Vec2::new(2.0 / (sw * s), -2.0 / (sh * s)),
        offset: Vec2::new(2.0 * c.x / sw - 1.0, 1.0 - 2.0 * c.y / sh),
        ..Default::default()
    };
    mq::set_camera(&cam);
    grid::draw_grid_lines(&app.camera, &vp);
    let mut d = MqDraw::new(app.layers, s);
    match &app.lab {
        Some(lab) => {
            d.layers = LayerSet(app.layers.0 | lab::LAB_LAYERS.0);
            lab::manifold::draw_lab(&app.world, &mut d, lab.stage, lab.use_bias, lab.axis);
        }
        None => {
            let view = Some(app.camera.visible(&vp));
            let opts = DrawOptions { selected: app.selection.clone(), view, ..Default::default() };
            app.world.debug_draw(&mut d, &opts);
            if let [a, b] = app.selection[..] {
                // The selected pair's manifold in detail: faces, side planes, points, depths.
                let world_layers = d.layers;
                d.layers = LayerSet(world_layers.0 | lab::LAB_LAYERS.0);
                lab::manifold::draw_pair(&app.world, a, b, &mut d, lab::manifold::LAST_STAGE, true, None);
                d.layers = world_layers;
            }
        }
    }
    // Selection highlight: the selected shapes again, with lines twice as wide.
    d.width_scale = 2.0;
    for b in app.selection.iter().filter_map(|&i| app.world.bodies.get(i)) {
        draw_body(&mut d, b, palette::SELECTED);
    }
    d.width_scale = 1.0;
    if let Some((_, center, handle)) = input::rotate_handle(app) {
        let col = mq_color(palette::SELECTED);
        mq::draw_line(center.x, center.y, handle.x, handle.y, 1.0 * s, col);
        mq::draw_circle_lines(handle.x, handle.y, input::HANDLE_RADIUS_PX * s, 2.0 * s, col);
    }
    mq::set_default_camera();
    grid::draw_grid_labels(&app.camera, &vp, 15.0);
    // World labels: centred on their point, on a dark plate so they read over any shape.
    for (p, text, color) in &d.texts {
        let sp = app.camera.world_to_screen(&vp, *p);
        if !vp.contains(sp) {
            continue;
        }
        let dims = mq::measure_text(text, None, 17, 1.0);
        let (x, y) = (sp.x - 0.5 * dims.width, sp.y + 0.5 * dims.height);
        let plate = mq::Color::new(0.05, 0.05, 0.07, 0.72);
        mq::draw_rectangle(x - 3.0, y - dims.offset_y - 2.0, dims.width + 6.0, dims.height + 4.0, plate);
        mq::draw_text(text, x, y, 17.0, mq_color(*color));
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
        "selected_angles": app.selection.iter().filter_map(|&i| app.world.bodies.get(i)).map(|b| b.angle).collect::<Vec<f32>>(),
        "step": app.world.step_count,
    });
    let path = png.with_extension("json");
    if let Err(e) = std::fs::write(&path, info.to_string()) {
        eprintln!("cannot write {}: {e}", path.display());
    }
}
