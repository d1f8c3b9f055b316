//! The window: macroquad draws the world through `MqDraw`, egui draws the panels. Each frame:
//! panels and input produce actions → actions are applied → the world steps → draw.

pub mod action;
pub mod camera;
pub mod files;
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
use input::{mq_input, InputState, PointerFrame};
use macroquad::prelude as mq;
use render::{batch, labels, materials, view};
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

/// Runs the window until it is closed, or until the screenshot is written.
pub async fn run(mut app: App, mut shot: Option<Shot>, live: Live) {
    let Live { state_out, frame_delay } = live;
    let mut ui_state = panels::UiState::new(SCENE_DIR);
    // Frames are described in JSON (`report`): look for text egui cut.
    ui_state.find_text_cuts = shot.is_some() || state_out.is_some();
    let mut input = InputState::default();
    let mut mq_input = mq_input::MqInput::new();
    let materials = materials::Materials::new();
    let mut times = report::FrameTimes::default();
    let mut frames_after_script = 0u32;
    let mut frame: u64 = 0;
    let mut styled_for = 0.0;
    let mut over_ui = false;
    let mut export: Option<share::job::ExportJob> = None;
    let clock = Instant::now();
    let mut frame_rate = frame_rate::FrameRate::default();
    let mut shot_writers: Vec<share::writer::FrameWriter> = Vec::new();
    if shot.is_none() {
        // The window keeps the recent-files list and watches the open file.
        let (recent, warning) = files::recent::RecentFiles::load_default();
        app.files.recent = Some(recent);
        app.files.hot_reload = true;
        if warning.is_some() {
            app.notice = warning;
        }
    }
    loop {
        let frame_start = Instant::now();
        let mut actions: Vec<Action> = Vec::new();
        let screen_h = mq::screen_height();
        if screen_h != styled_for {
            egui_macroquad::cfg(|ctx| panels::style(ctx, screen_h));
            styled_for = screen_h;
        }

        // Real input is read every frame (so events never pile up), and used unless a
        // screenshot run drives the app from its script.
        let real = mq_input.frame();

        // Panels (collect actions and learn the free screen area).
        let mut central = egui::Rect::NOTHING;
        let over_ui_before = over_ui;
        let mut typing = false;
        let mut egui_busy = false;
        let mut ppp = 1.0;
        ui_state.fps = frame_rate.per_second(clock.elapsed().as_secs_f64());
        egui_macroquad::ui(|ctx| {
            mq_input::scroll_panels(ctx, real.pointer.wheel, over_ui_before);
            central = panels::build(ctx, &app, &mut ui_state, &mut actions);
            ppp = ctx.pixels_per_point();
            central = egui::Rect::from_min_max(
                (central.min.to_vec2() * ppp).to_pos2(),
                (central.max.to_vec2() * ppp).to_pos2(),
            );
            over_ui = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
            egui_busy = ctx.is_using_pointer();
            typing = ctx.wants_keyboard_input();
        });
        let free = ScreenRect {
            min: Vec2::new(central.min.x, central.min.y),
            size: Vec2::new(central.width().max(1.0), central.height().max(1.0)),
        };
        let (main, inset) = app.lab.as_ref().map_or((free, None), |l| l.viewport(free));
        app.set_viewport(main, inset);

        let script_frame = shot.as_mut().and_then(|s| s.script.as_mut()).and_then(|p| p.next_frame());
        if let Some(a) = script_frame.as_ref().and_then(|f| f.action.clone()) {
            actions.push(a);
        }
        apply_all(&mut app, actions);
        let pointers = match &script_frame {
            Some(f) => f.pointer.iter().map(|p| script_pointer(&app, p)).collect(),
            None if shot.is_none() => real.samples.clone(),
            None => Vec::new(),
        };
        // Whether a pointer sample is over the panels: egui knows for the real pointer where the
        // frame ends, unless it is dragging a widget (then every sample is its); for a scripted
        // pointer, or a real one at an earlier edge, it is where the point lies outside the free
        // area or on an egui window.
        let last = pointers.len().saturating_sub(1);
        let over = |i: usize, pos: Vec2| match script_frame {
            None if i == last => over_ui,
            _ => egui_busy || over_panels(free, pos),
        };
        apply_pointers(&mut app, &mut input, pointers, over);
        let mut actions = Vec::new();
        if shot.is_none() {
            actions.extend(real.key_actions(typing || ui_state.dialogs.is_open()));
            // Files dropped on the window open where their kind belongs.
            actions.extend(mq::get_dropped_files().into_iter().filter_map(|f| f.path).map(Action::OpenFile));
        }
        if let Some(req) = ui_state.dialogs.export.pending.take() {
            export = Some(share::job::ExportJob::new(req, app.world.dt()));
        }
        if let Some(step) = export.as_ref().and_then(|j| j.step()) {
            actions.push(Action::Timeline(timeline::TimelineAction::Seek(step)));
        }
        apply_all(&mut app, actions);
        app.poll_files();
        // Screenshots use a fixed frame time so they are reproducible.
        let dt = if shot.is_some() { 1.0 / 60.0 } else { mq::get_frame_time() };
        let (update_start, update_cpu) = (Instant::now(), report::thread_cpu_seconds());
        app.update(dt);
        let update_time = update_start.elapsed();
        let update_cpu = report::thread_cpu_seconds().zip(update_cpu).map_or(0.0, |(b, a)| b - a);

        let world_start = Instant::now();
        let backdrops = ui_state.backdrops.iter().map(|r| ScreenRect {
            min: Vec2::new(r.min.x, r.min.y) * ppp,
            size: Vec2::new(r.width(), r.height()) * ppp,
        });
        view::clear_frame(backdrops, materials.as_ref());
        view::draw_world(&app, materials.as_ref());
        ui_state.labels = labels::take_frame();
        let paint_start = Instant::now();
        egui_macroquad::draw();
        if let Some(job) = export.as_mut() {
            let img = mq::get_screen_data();
            match job.capture(img.bytes, img.width as u32, img.height as u32) {
                Ok(None) => app.notice = Some(job.progress()),
                Ok(Some(done)) => (app.notice, export) = (Some(done), None),
                Err(e) => (app.error, export) = (Some(format!("export stopped: {e}")), None),
            }
        }
        let present_start = Instant::now();

        if let Some(path) = &state_out {
            report::write_json(path, &report::state_json(&app, &ui_state, frame, &times));
        }
        if let Some(s) = &shot {
            let script_done = s.script.as_ref().is_none_or(|p| p.is_done());
            if script_done {
                if frames_after_script == 0 {
                    times.restart();
                }
                frames_after_script += 1;
            }
            if script_done {
                if let Err(e) = capture_shot_frame(s, &mut shot_writers, frames_after_script == 1) {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            }
            if script_done && frames_after_script >= s.frames.max(1) {
                for w in shot_writers.drain(..) {
                    let target = w.target().display().to_string();
                    println!("wrote {target} ({} frames)", w.finish());
                }
                if let Some(out) = &s.out {
                    save_screenshot(out);
                }
                let sidecar =
                    s.out.as_ref().or(s.gif.as_ref()).or(s.png_dir.as_ref()).map(|p| p.with_extension("json"));
                if let Some(path) = sidecar {
                    report::write_json(&path, &report::state_json(&app, &ui_state, frame, &times));
                }
                return;
            }
        }
        if let Some(d) = frame_delay {
            std::thread::sleep(d);
        }
        mq::next_frame().await;
        frame_rate.frame_drawn(clock.elapsed().as_secs_f64());
        frame += 1;
        let frame_ms = frame_start.elapsed().saturating_sub(update_time).as_secs_f32() * 1000.0;
        times.push(frame_ms, update_cpu);
        let ms = |d: std::time::Duration| d.as_secs_f32() * 1000.0;
        times.push_parts([
            ms(world_start.duration_since(frame_start).saturating_sub(update_time)),
            ms(paint_start - world_start),
            ms(present_start - paint_start),
            ms(present_start.elapsed()),
        ]);
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
