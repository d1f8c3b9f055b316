//! The window's state as JSON, for tests that drive the real window from outside: the
//! screenshot sidecar (`<out>.json`) and `--state-out FILE`, rewritten every frame. Both give
//! the camera and viewport (so a test can map world points to pixels), the run state, the
//! selection (bodies and joint), the open lab, where some widgets are (pixels, to click them),
//! the frame time, the labels placed over each view and the texts egui cut.

use super::panels::UiState;
use super::state::{App, RunMode};
use egui_macroquad::egui;
use manifold_lab::engine::math::Aabb;
use serde_json::{json, Value};
use std::path::Path;

/// Bodies listed by name and pose at most (larger scenes list only the selection).
const MAX_LISTED_BODIES: usize = 500;

/// Recent frame times (wall time of a frame minus the simulation step), in ms, and the
/// process's CPU time over the timed frames (all threads, a software renderer's included).
#[derive(Default)]
pub struct FrameTimes {
    ms: Vec<f32>,
    /// Per-frame wall ms of each part of the frame ([`FramePart`] order), kept like `ms`.
    parts: Vec<[f32; FramePart::COUNT]>,
    /// Frames timed, and the CPU seconds (process, and in steps) since the first.
    frames: u64,
    cpu_start: Option<f64>,
    step_cpu: f64,
}

impl FrameTimes {
    const KEEP: usize = 600;

    /// Forgets what was timed (a screenshot times only the frames after its script).
    pub fn restart(&mut self) {
        *self = FrameTimes::default();
    }

    /// Records a frame of `ms` milliseconds (step excluded) whose step used `step_s` CPU
    /// seconds.
    pub fn push(&mut self, ms: f32, step_s: f64) {
        match self.cpu_start {
            None => self.cpu_start = process_cpu_seconds(),
            Some(_) => {
                self.frames += 1;
                self.step_cpu += step_s;
            }
        }
        if self.ms.len() == Self::KEEP {
            self.ms.remove(0);
        }
        self.ms.push(ms);
    }

    /// Records how a frame's time split into its parts (wall ms, [`FramePart`] order).
    pub fn push_parts(&mut self, parts: [f32; FramePart::COUNT]) {
        if self.parts.len() == Self::KEEP {
            self.parts.remove(0);
        }
        self.parts.push(parts);
    }

    /// Median wall ms of each part of the frame over the kept frames, by name.
    pub fn part_medians(&self) -> Value {
        let mut out = serde_json::Map::new();
        for (k, part) in FramePart::ALL.iter().enumerate() {
            let mut v: Vec<f32> = self.parts.iter().map(|p| p[k]).collect();
            v.sort_by(f32::total_cmp);
            out.insert(part.name().to_owned(), json!(v.get(v.len() / 2).copied().unwrap_or(0.0)));
        }
        Value::Object(out)
    }

    /// Median of the kept frames (0 before the first).
    pub fn median(&self) -> f32 {
        let mut v = self.ms.clone();
        v.sort_by(f32::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    }

    pub fn len(&self) -> usize {
        self.ms.len()
    }

    /// Mean CPU milliseconds per frame spent outside the step, over every timed frame; `None`
    /// where the process's CPU time cannot be read.
    pub fn cpu_ms_per_frame(&self) -> Option<f64> {
        let spent = process_cpu_seconds()? - self.cpu_start?;
        (self.frames > 0).then(|| 1000.0 * (spent - self.step_cpu).max(0.0) / self.frames as f64)
    }
}

/// The parts a frame's wall time splits into (the simulation step excluded).
#[derive(Clone, Copy)]
pub enum FramePart {
    /// Reading input and building the egui panels (layout, text shaping).
    Panels,
    /// Filling the world's batched mesh and handing it to the GPU.
    World,
    /// Tessellating and painting the panels.
    PanelsPaint,
    /// `next_frame`: flushing the draw calls and presenting (a software renderer rasterizes here).
    Present,
}

impl FramePart {
    pub const COUNT: usize = 4;
    pub const ALL: [FramePart; Self::COUNT] = [Self::Panels, Self::World, Self::PanelsPaint, Self::Present];

    pub fn name(self) -> &'static str {
        match self {
            Self::Panels => "panels",
            Self::World => "world",
            Self::PanelsPaint => "panels_paint",
            Self::Present => "present",
        }
    }
}

/// CPU seconds the calling thread has used, from `/proc/thread-self/schedstat` (Linux,
/// nanoseconds).
pub fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

/// CPU seconds used by this process so far (user + system, every thread), from
/// `/proc/self/stat` (Linux; counted in the kernel's fixed 100 Hz user ticks).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may contain spaces) start at its closing paren.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let (utime, stime): (f64, f64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
    Some((utime + stime) / 100.0)
}

fn aabb_json(b: Option<Aabb>) -> Value {
    b.map_or(Value::Null, |b| json!([b.min.x, b.min.y, b.max.x, b.max.y]))
}

/// The app's state as JSON. `frame` counts rendered frames.
pub fn state_json(app: &App, ui: &UiState, frame: u64, times: &FrameTimes) -> Value {
    let w = &app.world;
    let body = |i: usize| {
        w.bodies.get(i).map(|b| {
            json!({ "index": i, "name": b.name, "center": b.center.to_array(), "angle": b.angle, "shapes": b.shape_count() })
        })
    };
    let selected: Vec<Value> = app.selection.iter().filter_map(|&i| body(i)).collect();
    let bodies: Vec<Value> =
        if w.bodies.len() <= MAX_LISTED_BODIES { (0..w.bodies.len()).filter_map(body).collect() } else { Vec::new() };
    let points: usize = w.contacts.iter().map(|c| c.manifold.count).sum();
    let widgets: serde_json::Map<String, Value> =
        ui.widgets.iter().map(|(&k, r)| (k.to_owned(), json!([r.min.x, r.min.y, r.width(), r.height()]))).collect();
    json!({
        "frame": frame,
        "step": w.step_count,
        "timeline": super::timeline::state_json(app),
        "running": app.mode == RunMode::Running,
        "lab": app.lab.as_ref().map(|l| l.kind().entry().name),
        "lab_state": app.lab.as_ref().and_then(|l| l.report(app)),
        "scene": app.scene_path.as_ref().map(|p| p.display().to_string()),
        "viewport_min": app.viewport.min.to_array(),
        "viewport_size": app.viewport.size.to_array(),
        "inset": app.inset.map(|r| [r.min.x, r.min.y, r.size.x, r.size.y]),
        "camera_center": app.camera.center.to_array(),
        "camera_height": app.camera.height,
        "visible": aabb_json(Some(app.camera.visible(&app.viewport))),
        "content_screen": app.content_screen_rect().map(|r| [r.min.x, r.min.y, r.size.x, r.size.y]),
        "selected": selected,
        "selected_centers": app.selection.iter().filter_map(|&i| w.bodies.get(i)).map(|b| b.center.to_array()).collect::<Vec<_>>(),
        "selected_angles": app.selection.iter().filter_map(|&i| w.bodies.get(i)).map(|b| b.angle).collect::<Vec<f32>>(),
        "selected_joint": selected_joint_json(app),
        "joints": w.joints().len(),
        "awake_bodies": w.awake_body_count(),
        "islands": w.island_count(),
        "body_count": w.bodies.len(),
        "bodies": bodies,
        "contacts": w.contacts.len(),
        "contact_points": points,
        "error": app.error,
        "tools": app.tools.report(&app.tool_view()),
        "bodies_in_water": w.water().map(|water| water.reports.len()),
        "controls_scroll": ui.controls_scroll,
        "widgets": widgets,
        "fps_shown": ui.fps,
        "frame_ms_median": times.median(),
        "frames_timed": times.len(),
        "frame_cpu_ms": times.cpu_ms_per_frame(),
        "frame_parts_ms": times.part_medians(),
        "labels": crate::app::render::labels::frame_json(&ui.labels),
        "text_cuts": text_cuts_json(ui),
    })
}

/// The texts egui cut at the edge of their clip rectangle (pixels, `[x, y, w, h]`).
fn text_cuts_json(ui: &UiState) -> Value {
    let rect = |r: &egui::Rect| json!([r.min.x, r.min.y, r.width(), r.height()]);
    ui.text_cuts.iter().map(|c| json!({ "text": c.text, "rect": rect(&c.rect), "clip": rect(&c.clip) })).collect()
}

/// The selected joint: index, kind, its bodies' names and its anchors (world).
fn selected_joint_json(app: &App) -> Value {
    let w = &app.world;
    let Some((k, j)) = app.selected_joint().and_then(|k| Some((k, w.joints().get(k)?))) else {
        return Value::Null;
    };
    let (a, b) = j.bodies();
    let name = |i: usize| w.bodies.get(i).map(|b| b.name.clone());
    let (pa, pb) = j.base().world_anchors(&w.bodies);
    json!({
        "index": k,
        "kind": j.kind().label(),
        "body_a": name(a),
        "body_b": name(b),
        "anchor_a": pa.to_array(),
        "anchor_b": pb.to_array(),
    })
}

/// Writes `value` to `path` through a temporary file and a rename, so a reader never sees a
/// half-written file.
pub fn write_json(path: &Path, value: &Value) {
    let tmp = path.with_extension("json.tmp");
    let written = std::fs::write(&tmp, value.to_string()).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        eprintln!("cannot write {}: {e}", path.display());
    }
}
