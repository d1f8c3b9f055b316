//! The window's frame, in its phases: the panels (egui lays out and collects actions, and
//! leaves the free area to the view), the input (a script's frame or the real pointer and
//! keys, file drops, an export's next step), the update (the world steps), the drawing, and
//! the reports (`--state-out`, a screenshot's files); then the frame is counted.

use super::camera::ScreenRect;
use super::input::mq_input::{self, FrameInput, MqInput};
use super::input::InputState;
use super::render::{labels, materials, view};
use super::state::{Action, App};
use super::{apply_all, apply_pointers, capture_shot_frame, files, over_panels, panels, report, save_screenshot};
use super::{frame_rate, script_pointer, share, timeline, Live, Shot, SCENE_DIR};
use egui_macroquad::egui;
use glam::Vec2;
use macroquad::prelude as mq;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What the frame loop keeps from frame to frame.
pub struct FrameLoop {
    shot: Option<Shot>,
    state_out: Option<PathBuf>,
    pub frame_delay: Option<Duration>,
    ui_state: panels::UiState,
    input: InputState,
    pub mq_input: MqInput,
    materials: Option<materials::Materials>,
    times: report::FrameTimes,
    frames_after_script: u32,
    frame: u64,
    styled_for: f32,
    over_ui: bool,
    export: Option<share::job::ExportJob>,
    clock: Instant,
    frame_rate: frame_rate::FrameRate,
    shot_writers: Vec<share::writer::FrameWriter>,
}

/// What the panels left for the rest of the frame.
pub struct PanelFrame {
    actions: Vec<Action>,
    /// The view's area, pixels.
    free: ScreenRect,
    /// A text field has the keyboard.
    typing: bool,
    /// egui is dragging a widget.
    egui_busy: bool,
    pub ppp: f32,
}

/// How long the update took: wall time, and this thread's CPU seconds.
pub struct UpdateTime(Duration, f64);

/// When the drawing's parts started: the world, egui's paint, the present.
pub struct DrawMarks(Instant, Instant, Instant);

impl FrameLoop {
    pub fn new(app: &mut App, shot: Option<Shot>, live: Live) -> FrameLoop {
        let mut ui_state = panels::UiState::new(SCENE_DIR);
        // Frames are described in JSON (`report`): look for text egui cut.
        ui_state.find_text_cuts = shot.is_some() || live.state_out.is_some();
        if shot.is_none() {
            // The window keeps the recent-files list and watches the open file.
            let (recent, warning) = files::recent::RecentFiles::load_default();
            app.files.recent = Some(recent);
            app.files.hot_reload = true;
            if warning.is_some() {
                app.notice = warning;
            }
        }
        FrameLoop {
            shot,
            state_out: live.state_out,
            frame_delay: live.frame_delay,
            ui_state,
            input: InputState::default(),
            mq_input: MqInput::new(),
            materials: materials::Materials::new(),
            times: report::FrameTimes::default(),
            frames_after_script: 0,
            frame: 0,
            styled_for: 0.0,
            over_ui: false,
            export: None,
            clock: Instant::now(),
            frame_rate: frame_rate::FrameRate::default(),
            shot_writers: Vec::new(),
        }
    }

    /// The panels: restyled when the window's height changed, laid out by egui, which
    /// collects their actions and leaves the free area to the lab or the world.
    pub fn panels(&mut self, app: &mut App, real: &FrameInput) -> PanelFrame {
        let screen_h = mq::screen_height();
        if screen_h != self.styled_for {
            egui_macroquad::cfg(|ctx| panels::style(ctx, screen_h));
            self.styled_for = screen_h;
        }
        let mut actions = Vec::new();
        let mut central = egui::Rect::NOTHING;
        let over_ui_before = self.over_ui;
        let (mut typing, mut egui_busy, mut ppp, mut over_ui) = (false, false, 1.0, false);
        self.ui_state.fps = self.frame_rate.per_second(self.clock.elapsed().as_secs_f64());
        let ui_state = &mut self.ui_state;
        egui_macroquad::ui(|ctx| {
            mq_input::scroll_panels(ctx, real.pointer.wheel, over_ui_before);
            central = panels::build(ctx, app, ui_state, &mut actions);
            ppp = ctx.pixels_per_point();
            central = egui::Rect::from_min_max(
                (central.min.to_vec2() * ppp).to_pos2(),
                (central.max.to_vec2() * ppp).to_pos2(),
            );
            over_ui = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
            egui_busy = ctx.is_using_pointer();
            typing = ctx.wants_keyboard_input();
        });
        self.over_ui = over_ui;
        let free = ScreenRect {
            min: Vec2::new(central.min.x, central.min.y),
            size: Vec2::new(central.width().max(1.0), central.height().max(1.0)),
        };
        let (main, inset) = app.lab.as_ref().map_or((free, None), |l| l.viewport(free));
        app.set_viewport(main, inset);
        PanelFrame { actions, free, typing, egui_busy, ppp }
    }

    /// The input: the panels' actions and a script's frame, then the pointer (scripted, or the
    /// real one unless a screenshot run is scripted), then keys, dropped files and an export's
    /// next step. Real input is read every frame, so events never pile up.
    pub fn input(&mut self, app: &mut App, real: &FrameInput, panel: &mut PanelFrame) {
        let mut actions = std::mem::take(&mut panel.actions);
        let script_frame = self.shot.as_mut().and_then(|s| s.script.as_mut()).and_then(|p| p.next_frame());
        if let Some(a) = script_frame.as_ref().and_then(|f| f.action.clone()) {
            actions.push(a);
        }
        let error_before = app.error.clone();
        apply_all(app, actions);
        // A scripted step that fails stops the run where it is in its script, as `run --script`
        // does (exit code 3): a screenshot of what the script did not reach would mislead.
        let place = self.shot.as_ref().and_then(|s| s.script.as_ref()).and_then(|p| p.place());
        if let (Some(place), Some(e), true) = (place, &app.error, script_frame.is_some()) {
            if app.error != error_before {
                eprintln!("{place}: the step failed: {e}");
                std::process::exit(3);
            }
        }
        let pointers = match &script_frame {
            Some(f) => f.pointer.iter().map(|p| script_pointer(app, p)).collect(),
            None if self.shot.is_none() => real.samples.clone(),
            None => Vec::new(),
        };
        // Whether a pointer sample is over the panels: egui knows for the real pointer where the
        // frame ends, unless it is dragging a widget (then every sample is its); for a scripted
        // pointer, or a real one at an earlier edge, it is where the point lies outside the free
        // area or on an egui window.
        let last = pointers.len().saturating_sub(1);
        let (over_ui, free, busy) = (self.over_ui, panel.free, panel.egui_busy);
        let over = |i: usize, pos: Vec2| match script_frame {
            None if i == last => over_ui,
            _ => busy || over_panels(free, pos),
        };
        apply_pointers(app, &mut self.input, pointers, over);
        let mut actions = Vec::new();
        if self.shot.is_none() {
            actions.extend(real.key_actions(panel.typing || self.ui_state.dialogs.is_open()));
            // Files dropped on the window open where their kind belongs.
            actions.extend(mq::get_dropped_files().into_iter().filter_map(|f| f.path).map(Action::OpenFile));
        }
        if let Some(req) = self.ui_state.dialogs.export.pending.take() {
            self.export = Some(share::job::ExportJob::new(req, app.world.dt()));
        }
        if let Some(step) = self.export.as_ref().and_then(|j| j.step()) {
            actions.push(Action::Timeline(timeline::TimelineAction::Seek(step)));
        }
        apply_all(app, actions);
        app.poll_files();
    }

    /// The world's update; screenshots use a fixed frame time so they are reproducible.
    pub fn update(&mut self, app: &mut App) -> UpdateTime {
        let dt = if self.shot.is_some() { 1.0 / 60.0 } else { mq::get_frame_time() };
        let (start, cpu) = (Instant::now(), report::thread_cpu_seconds());
        app.update(dt);
        let cpu = report::thread_cpu_seconds().zip(cpu).map_or(0.0, |(b, a)| b - a);
        UpdateTime(start.elapsed(), cpu)
    }

    /// The drawing: the backdrops the panels asked for, the view (world or lab, with its
    /// labels), egui's paint, and an export's frame capture.
    pub fn draw(&mut self, app: &mut App, ppp: f32) -> DrawMarks {
        let world_start = Instant::now();
        let backdrops = self.ui_state.backdrops.iter().map(|r| ScreenRect {
            min: Vec2::new(r.min.x, r.min.y) * ppp,
            size: Vec2::new(r.width(), r.height()) * ppp,
        });
        view::clear_frame(backdrops, self.materials.as_ref());
        view::draw_world(app, self.materials.as_ref());
        self.ui_state.labels = labels::take_frame();
        let paint_start = Instant::now();
        egui_macroquad::draw();
        if let Some(job) = self.export.as_mut() {
            let img = mq::get_screen_data();
            match job.capture(img.bytes, img.width as u32, img.height as u32) {
                Ok(None) => app.notice = Some(job.progress()),
                Ok(Some(done)) => (app.notice, self.export) = (Some(done), None),
                Err(e) => (app.error, self.export) = (Some(format!("export stopped: {e}")), None),
            }
        }
        DrawMarks(world_start, paint_start, Instant::now())
    }

    /// The reports: the state for `--state-out`, and a screenshot run's frames and files once
    /// its script is done. True when the screenshot run is complete.
    pub fn report(&mut self, app: &App) -> bool {
        if let Some(path) = &self.state_out {
            report::write_json(path, &report::state_json(app, &self.ui_state, self.frame, &self.times));
        }
        let Some(s) = &self.shot else { return false };
        if !s.script.as_ref().is_none_or(|p| p.is_done()) {
            return false;
        }
        if self.frames_after_script == 0 {
            self.times.restart();
        }
        self.frames_after_script += 1;
        if let Err(e) = capture_shot_frame(s, &mut self.shot_writers, self.frames_after_script == 1) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        if self.frames_after_script < s.frames.max(1) {
            return false;
        }
        for w in self.shot_writers.drain(..) {
            let target = w.target().display().to_string();
            println!("wrote {target} ({} frames)", w.finish());
        }
        if let Some(out) = &s.out {
            save_screenshot(out);
        }
        let sidecar = s.out.as_ref().or(s.gif.as_ref()).or(s.png_dir.as_ref()).map(|p| p.with_extension("json"));
        if let Some(path) = sidecar {
            report::write_json(&path, &report::state_json(app, &self.ui_state, self.frame, &self.times));
        }
        true
    }

    /// Counts the frame drawn and its times (the update's excluded from the frame's).
    pub fn count(&mut self, frame_start: Instant, update: UpdateTime, marks: DrawMarks) {
        let (UpdateTime(update_time, update_cpu), DrawMarks(world_start, paint_start, present_start)) = (update, marks);
        self.frame_rate.frame_drawn(self.clock.elapsed().as_secs_f64());
        self.frame += 1;
        let frame_ms = frame_start.elapsed().saturating_sub(update_time).as_secs_f32() * 1000.0;
        self.times.push(frame_ms, update_cpu);
        let ms = |d: Duration| d.as_secs_f32() * 1000.0;
        self.times.push_parts([
            ms(world_start.duration_since(frame_start).saturating_sub(update_time)),
            ms(paint_start - world_start),
            ms(present_start - paint_start),
            ms(present_start.elapsed()),
        ]);
    }
}
