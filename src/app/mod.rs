//! The window: macroquad draws the world through `MqDraw`, egui draws the panels. Each frame:
//! panels and input produce actions → actions are applied → the world steps → draw.

pub mod action;
pub mod camera;
pub mod files;
pub mod frame_loop;
pub mod frame_rate;
pub mod heap;
pub mod history;
pub mod input;
pub mod lab;
pub mod lab_return;
#[cfg(test)]
mod lab_return_tests;
pub mod panels;
pub mod render;
pub mod report;
pub mod script;
pub mod share;
pub mod stage;
pub mod state;
#[cfg(test)]
mod tests;
pub mod timeline;
pub mod tools;
#[cfg(test)]
mod ui_tests;
pub mod view3d;

use camera::ScreenRect;
use egui_macroquad::egui;
use glam::Vec2;
use input::{InputState, PointerFrame};
use macroquad::prelude as mq;
use render::batch;
use script::ScriptPlayer;
use state::{Action, App};
use std::path::PathBuf;
use std::time::Instant;

/// Where the shipped scenes live (relative to the working directory).
pub const SCENE_DIR: &str = "scenes";

/// Options of a `screenshot` run.
pub struct Shot {
    pub frames: u32,
    /// The last frame as a PNG.
    pub out: Option<PathBuf>,
    /// Every frame after the script as an animated GIF, and as numbered PNGs in a folder.
    pub gif: Option<PathBuf>,
    pub png_dir: Option<PathBuf>,
    pub script: Option<ScriptPlayer>,
}

/// The window. `vsync: false` (screenshot runs) lets frames run as fast as they draw, so the
/// measured frame time is the drawing's, not the display's refresh.
pub fn window_conf(width: i32, height: i32, vsync: bool) -> macroquad::conf::Conf {
    let window = mq::Conf {
        window_title: "manifold-lab".to_owned(),
        window_width: width,
        window_height: height,
        window_resizable: true,
        high_dpi: false,
        // Lines and discs are anti-aliased by feathering (`batch`); multisampling would cost
        // several times the fill rate on a software renderer.
        sample_count: 1,
        platform: mq::miniquad::conf::Platform { swap_interval: Some(vsync as i32), ..Default::default() },
        ..Default::default()
    };
    macroquad::conf::Conf {
        miniquad_conf: window,
        // Room for the world's batched mesh in few draw calls (`batch::CHUNK_*`).
        draw_call_vertex_capacity: 2 * batch::CHUNK_VERTICES,
        draw_call_index_capacity: 2 * batch::CHUNK_INDICES,
        ..Default::default()
    }
}

/// Options of an interactive window.
#[derive(Default)]
pub struct Live {
    /// The app's state is written here as JSON after every frame (see `report`).
    pub state_out: Option<PathBuf>,
    /// A pause after every frame, to try the input at a low frame rate.
    pub frame_delay: Option<std::time::Duration>,
}

/// Runs the window until it is closed, or until the screenshot is written: each frame the
/// panels, then the input, the update, the drawing and the reports (`frame_loop`).
pub async fn run(mut app: App, shot: Option<Shot>, live: Live) {
    let mut frames = frame_loop::FrameLoop::new(&mut app, shot, live);
    loop {
        let frame_start = Instant::now();
        let real = frames.mq_input.frame();
        let mut panels = frames.panels(&mut app, &real);
        frames.input(&mut app, &real, &mut panels);
        let update = frames.update(&mut app);
        let marks = frames.draw(&mut app, panels.ppp);
        if frames.report(&app) {
            return;
        }
        if let Some(d) = frames.frame_delay {
            std::thread::sleep(d);
        }
        mq::next_frame().await;
        frames.count(frame_start, update, marks);
    }
}

/// A scripted pointer in screen pixels.
fn script_pointer(app: &App, p: &script::ScriptPointer) -> PointerFrame {
    PointerFrame {
        pos: app.camera.world_to_screen(&app.viewport, p.world),
        left_pressed: p.left_pressed,
        left_down: p.left_down,
        left_released: p.left_released,
        shift: p.shift,
        rotate_modifier: p.rotate,
        ..Default::default()
    }
}

/// Hands the frame's pointer samples to the gestures, applying each one's actions before the
/// next is read, as if each had a frame of its own (a press and a release in one frame, say).
/// `over(i, pos)` tells whether sample `i` at `pos` is over the panels.
fn apply_pointers(
    app: &mut App,
    input: &mut InputState,
    pointers: Vec<PointerFrame>,
    over: impl Fn(usize, Vec2) -> bool,
) {
    for (i, p) in pointers.into_iter().enumerate() {
        let actions = input::pointer_actions(app, input, &p, over(i, p.pos));
        apply_all(app, actions);
    }
}

/// Whether the screen pixel `pos` is over the panels: outside the free area, or on an egui
/// window.
fn over_panels(free: ScreenRect, pos: Vec2) -> bool {
    let mut on_window = false;
    egui_macroquad::cfg(|ctx| on_window = over_window(ctx, pos));
    on_window || !free.contains(pos)
}

fn apply_all(app: &mut App, actions: Vec<Action>) {
    for a in actions {
        app.apply(a);
    }
}

/// Whether an egui window or popup (not a panel) covers the screen pixel `pos`.
fn over_window(ctx: &egui::Context, pos: Vec2) -> bool {
    let p = egui::pos2(pos.x, pos.y) / ctx.pixels_per_point();
    ctx.layer_id_at(p).is_some_and(|l| l.order != egui::Order::Background)
}

/// Adds the drawn frame to the screenshot's GIF and PNG sequence (made on the first frame).
fn capture_shot_frame(s: &Shot, writers: &mut Vec<share::writer::FrameWriter>, first: bool) -> Result<(), String> {
    use share::writer::{flip_rows, FrameWriter};
    if s.gif.is_none() && s.png_dir.is_none() {
        return Ok(());
    }
    let img = mq::get_screen_data();
    let (w, h) = (img.width as u32, img.height as u32);
    if first {
        // One step per frame: the GIF plays at the world's speed.
        if let Some(p) = &s.gif {
            writers.push(FrameWriter::gif(p, w, h, 2)?);
        }
        if let Some(d) = &s.png_dir {
            writers.push(FrameWriter::png_sequence(d)?);
        }
    }
    let mut rgba = img.bytes;
    flip_rows(&mut rgba, w, h);
    for wr in writers.iter_mut() {
        wr.push(&mut rgba.clone(), w, h)?;
    }
    Ok(())
}

/// Writes the current frame (world and panels) to a PNG.
fn save_screenshot(path: &std::path::Path) {
    // macroquad already returns the rows top first.
    let img = mq::get_screen_data();
    let (w, h) = (img.width, img.height);
    img.export_png(&path.to_string_lossy());
    println!("wrote {} ({}x{})", path.display(), w, h);
}
