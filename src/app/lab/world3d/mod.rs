//! The 3D dynamics lab (seed articles 001 and 003): a `scenes/world3d/*.ron` world of hulls
//! that fall, stack, float on waves and hold orientation joints, stepped live. Play, pause,
//! step, step back (a bounded history of world snapshots) and restart as in the 2D scenes; the
//! shared orbit camera; drag a hull to push it with a mouse spring; the engine's 3D layers
//! (contacts, the deciding SAT axis, the submerged cut and buoyancy, joint bases and errors)
//! toggled in a panel. The run is on the same timeline as the 2D scenes (`timeline::Scrub`,
//! `timeline_3d`): scrub, step back past the history, branch by an edit at a past step, the
//! compared branch drawn as ghosts and diffed body by body. State and actions here; gestures
//! in `input`, drawing in `draw`, panels in `panels`.

mod draw;
pub mod fixture;
pub mod input;
pub mod inspect;
mod panels;
pub mod pin;
#[cfg(test)]
mod pin_tests;
mod record_3d;
mod settings;
#[cfg(test)]
mod tests;
mod timeline_3d;
#[cfg(test)]
mod timeline_tests;

use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::camera::ScreenRect;
use crate::app::history::{History, Snapshot};
use crate::app::input::PointerFrame;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::{Action, RunMode};
use crate::app::timeline::logs::BranchLogs;
use crate::app::timeline::record::Recorder;
use crate::app::timeline::record3::{Edit3, Stamped3};
use crate::app::timeline::Scrub;
use crate::app::view3d::OrbitCamera;
use egui_macroquad::egui;
use glam::{Vec2, Vec3};
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::debug3::{Layer3, LayerSet3};
use manifold_lab::engine::timeline::Timed;
use manifold_lab::engine::world3d::{MouseSpring3, Water3, World3, World3Params};
use manifold_lab::scene::PresetFile;
use manifold_lab::scene::{self, World3dScene};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the 3D scenes live.
pub const WORLD3D_DIR: &str = "scenes/world3d";
/// The scene `--lab world3d` opens without a file.
pub const DEFAULT_WORLD3D: &str = "scenes/world3d/stack.ron";
/// Steps simulated per drawn frame at most (a slow world slows down instead of freezing).
const MAX_STEPS_PER_FRAME: u32 = 4;

pub struct World3dLab {
    /// The file as loaded (restart rebuilds it).
    pub spec: World3dScene,
    pub path: PathBuf,
    pub world: World3,
    pub history: History<World3>,
    /// Every step of the run: keyframes, branches, the compared branch.
    pub timeline: Scrub<World3>,
    pub camera: OrbitCamera,
    pub layers: LayerSet3,
    pub selected: Option<usize>,
    /// The contact point under the pointer, (contact, point) (`inspect`).
    pub hover: Option<(usize, usize)>,
    /// The contact point pinned by a click (`pin`).
    pub pinned: Option<pin::Pinned3>,
    /// The recording being made, each branch's settings and water edits, and the settings at
    /// the timeline's first state (`record_3d`).
    pub recorder: Option<Recorder>,
    logs: BranchLogs<Stamped3>,
    start_params: World3Params,
    /// Real seconds not yet simulated.
    accumulator: f32,
    gesture: Option<input::Gesture>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum World3dAction {
    /// Load a 3D scene (`scenes/world3d/*.ron`); a bad file keeps the current one.
    Load(PathBuf),
    /// Orbit the camera by `yaw` and `pitch` radians.
    Orbit {
        yaw: f32,
        pitch: f32,
    },
    SetLayer(Layer3, bool),
    /// Select a body by index; `None` clears the selection.
    Select(Option<usize>),
    /// Grab `body` at the world point `point` with the mouse spring (and select it).
    Grab {
        body: usize,
        point: Vec3,
    },
    /// Move the spring's target.
    PullTo(Vec3),
    /// Let go.
    Release,
    /// Replace the solver settings (checked by `World3Params::validate`); they apply from the
    /// next step and stay through step back and restart.
    SetParams(World3Params),
    /// Replace the water basins (each checked by `Water3::validate`); they stay through step
    /// back, and restart rebuilds the file's.
    SetWater(Vec<Water3>),
    /// Pin the inspector on a contact point; `None` unpins it. Clicking the hovered contact
    /// point does this (`pin`).
    Pin(Option<pin::ContactKey3>),
    /// Write the contact's pair as a hull pair file in the poses that made it (`fixture`).
    SaveFixture {
        pair: pin::PairRef3,
        path: PathBuf,
    },
}

pub fn act(a: World3dAction) -> Action {
    Action::Lab(LabAction::World3d(a))
}

impl Snapshot for World3 {
    /// Hulls are shared between snapshots; each body and contact is copied (the timeline's
    /// measure of a keyframe).
    fn approx_bytes(&self) -> usize {
        self.keyframe_bytes()
    }
}

/// The orbit camera a scene file asks for.
fn camera_of(spec: &World3dScene) -> OrbitCamera {
    let c = spec.camera.unwrap_or_default();
    OrbitCamera {
        target: c.target,
        yaw: c.yaw_degrees.to_radians(),
        pitch: c.pitch_degrees.to_radians().clamp(-OrbitCamera::MAX_PITCH, OrbitCamera::MAX_PITCH),
        distance: c.distance.clamp(OrbitCamera::MIN_DISTANCE, OrbitCamera::MAX_DISTANCE),
        ..OrbitCamera::default()
    }
}

impl World3dLab {
    /// Reads and builds a scene file; the error names the file, line and column.
    pub fn load(path: &Path) -> Result<World3dLab, String> {
        let spec = scene::World3dScene::load(path).map_err(|e| e.to_string())?;
        let world = spec.build_world().map_err(|e| format!("{}: {e}", path.display()))?;
        let start_params = world.params.clone();
        Ok(World3dLab {
            camera: camera_of(&spec),
            spec,
            path: path.to_path_buf(),
            timeline: Scrub::new(&world),
            world,
            history: History::default(),
            layers: LayerSet3::default(),
            selected: None,
            hover: None,
            pinned: None,
            recorder: None,
            logs: BranchLogs::default(),
            start_params,
            accumulator: 0.0,
            gesture: None,
        })
    }

    /// One step, remembered for stepping back and on the timeline; the error when the step
    /// did not reproduce the state the timeline holds for it.
    pub fn step_once(&mut self) -> Option<String> {
        self.history.push(&self.world);
        self.world.step();
        self.track_pin();
        self.timeline.stepped(&self.world)
    }

    /// Restores the state before the last step (the drag in progress, the solver settings
    /// and the water as set in the panel stay: kept ones that differ from the restored
    /// state's are an edit there); with no state kept, one step back along the timeline.
    pub fn step_back(&mut self) -> bool {
        match self.history.pop() {
            Some(w) => {
                let mouse = self.world.mouse.take();
                let water = std::mem::take(&mut self.world.water);
                let params = std::mem::replace(&mut self.world, w).params;
                let edited = mouse.is_some()
                    || self.world.mouse.is_some()
                    || water != self.world.water
                    || params != self.world.params;
                (self.world.mouse, self.world.water, self.world.params) = (mouse, water, params);
                self.world.sync_surfaces();
                self.timeline.moved(&self.world, edited);
                true
            }
            None => self.timeline.back_target().is_some_and(|s| self.seek(self.timeline.line.current(), s)),
        }
    }

    /// Whether one step back can be taken (the Back button, B): a kept state or an earlier
    /// step of the timeline.
    pub fn can_step_back(&self) -> bool {
        self.history.len() > 0 || self.timeline.back_target().is_some()
    }

    /// The world as loaded, with the solver settings in use (as a 2D restart keeps them); the
    /// camera and layers stay, the timeline starts again.
    pub fn restart(&mut self) {
        if let Ok(mut w) = self.spec.build_world() {
            w.params = self.world.params.clone();
            self.world = w;
        }
        self.history.clear();
        self.timeline = Scrub::new(&self.world);
        (self.logs, self.start_params) = (BranchLogs::default(), self.world.params.clone());
        self.selected = self.selected.filter(|&i| i < self.world.bodies.len());
    }

    /// Indices of the bodies that move (what the view frames).
    fn moving_bodies(&self) -> Vec<usize> {
        let all = 0..self.world.bodies.len();
        let moving: Vec<usize> = all.clone().filter(|&i| self.world.bodies[i].is_dynamic()).collect();
        if moving.is_empty() {
            all.collect()
        } else {
            moving
        }
    }

    /// The world box around the moving bodies.
    pub fn content_box(&self) -> Option<[Vec3; 2]> {
        self.moving_bodies()
            .into_iter()
            .map(|i| self.world.bodies[i].world_bounds(0.0))
            .filter(|[lo, hi]| lo.is_finite() && hi.is_finite())
            .reduce(|[a, b], [c, d]| [a.min(c), b.max(d)])
    }

    /// Points the camera at the moving bodies.
    pub fn frame_camera(&mut self, vp: &ScreenRect) {
        if let Some([lo, hi]) = self.content_box() {
            let center = 0.5 * (lo + hi);
            self.camera.frame(vp, center, 0.5 * (hi - lo).length());
        }
    }

    /// The fraction of body `i`'s volume under water at the last step.
    pub fn submerged_fraction(&self, i: usize) -> f32 {
        let Some(b) = self.world.bodies.get(i) else { return 0.0 };
        let v: f32 = self.world.buoyancy.iter().filter(|r| r.body == i).map(|r| r.submerged.volume).sum();
        if b.volume > 0.0 {
            v / b.volume
        } else {
            0.0
        }
    }

    fn grab(&mut self, body: usize, point: Vec3) {
        self.selected = Some(body).filter(|&i| i < self.world.bodies.len());
        match self.world.bodies.get(body) {
            Some(b) if b.is_dynamic() && point.is_finite() => {
                self.world.mouse = Some(MouseSpring3::new(b, body, point));
            }
            _ => self.world.mouse = None,
        }
    }
}

impl LabType for World3dLab {
    type Action = World3dAction;
    const ENTRY: LabEntry = LabEntry {
        name: "3D dynamics",
        description: "Hulls that fall, stack, float on waves and hold orientation joints: play, step and step \
                      back; drag a hull to push it; see contacts, SAT axes, buoyancy and joint bases.",
        file: Some(manifold_lab::scene::FileKind::World3d),
    };

    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String> {
        let path = file.map_or_else(|| PathBuf::from(DEFAULT_WORLD3D), Path::to_path_buf);
        let lab = World3dLab::load(&path)?;
        app.world = manifold_lab::engine::World::new(Default::default());
        app.mode = RunMode::Running;
        Ok(lab)
    }

    fn apply(&mut self, app: &mut Stage, action: World3dAction) {
        match action {
            World3dAction::Load(path) => match World3dLab::load(&path) {
                Ok(lab) => {
                    *self = lab;
                    app.error = None;
                    app.notice = Some(format!("Loaded {}", path.display()));
                }
                Err(e) => app.error = Some(e),
            },
            World3dAction::Orbit { yaw, pitch } => self.camera.orbit(yaw, pitch),
            World3dAction::SetLayer(layer, on) => self.layers.set(layer, on),
            World3dAction::Select(i) => self.selected = i.filter(|&i| i < self.world.bodies.len()),
            World3dAction::Grab { body, point } => {
                self.grab(body, point);
                if self.world.mouse.is_some() {
                    self.edited(app);
                }
            }
            World3dAction::PullTo(target) => {
                if self.pull_to(app, target) {
                    self.edited(app);
                }
            }
            World3dAction::Release => {
                if self.world.mouse.take().is_some() {
                    self.edited(app);
                }
            }
            World3dAction::SetParams(p) if p == self.world.params => {}
            World3dAction::SetParams(p) => match p.validate() {
                Ok(()) => {
                    self.world.params = p.clone();
                    self.edited(app);
                    self.log_edit(Edit3::SetParams(p));
                }
                Err(e) => app.error = Some(e),
            },
            World3dAction::SetWater(waters) => match waters.iter().try_for_each(Water3::validate) {
                Ok(()) => {
                    self.world.set_water(waters.clone());
                    self.edited(app);
                    self.log_edit(Edit3::SetWater(waters));
                }
                Err(e) => app.error = Some(format!("water: {e}")),
            },
            World3dAction::Pin(key) => self.pin(app, key),
            World3dAction::SaveFixture { pair, path } => self.save_fixture(app, pair, &path),
        }
    }
}

impl World3dLab {
    /// Writes the pair of `pair` as a hull pair file; the error names the file.
    fn save_fixture(&self, app: &mut Stage, pair: pin::PairRef3, path: &Path) {
        let saved = fixture::contact_hulls(self, pair)
            .and_then(|h| h.spec.save(path).map(|()| h.exact).map_err(|e| format!("could not save the fixture: {e}")));
        match saved {
            Ok(exact) => {
                let how = if exact { "the world's contact" } else { "start-of-step poses; not the world's contact" };
                app.notice = Some(format!("Saved {} ({how})", path.display()));
            }
            Err(e) => app.error = Some(e),
        }
    }
}

impl World3dLab {
    /// Moves the spring's target; paused, as in 2D scenes, the body is placed so the grabbed
    /// point is on target.
    fn pull_to(&mut self, app: &Stage, target: Vec3) -> bool {
        let Some(m) = self.world.mouse.as_mut().filter(|_| target.is_finite()) else { return false };
        m.target = target;
        if app.mode == RunMode::Paused {
            // Paused, as in 2D scenes: place the body so the grabbed point is on target.
            let b = &mut self.world.bodies[m.body];
            let moved = b.pose.p + (target - m.anchor(b));
            b.set_pose(moved, b.pose.q);
            (b.linear_velocity, b.angular_velocity) = (Vec3::ZERO, Vec3::ZERO);
            self.world.refresh_contacts();
        }
        true
    }
}

impl Lab for World3dLab {
    fn kind(&self) -> LabKind {
        LabKind::World3d
    }

    fn file(&self) -> Option<&Path> {
        Some(&self.path)
    }

    /// Stepping, history and restart act on the 3D world; the view's zoom, pan and framing
    /// move the orbit camera. Play and pause are the app's own (its run mode).
    fn intercept(&mut self, app: &mut Stage, action: &Action) -> bool {
        let vp = app.viewport;
        match action {
            Action::Step => {
                app.mode = RunMode::Paused;
                if let Some(e) = self.step_once() {
                    app.error = Some(e);
                }
            }
            Action::StepBack => {
                app.mode = RunMode::Paused;
                if !self.step_back() {
                    app.notice = Some("No earlier step is kept".into());
                }
            }
            Action::Restart => self.restart(),
            Action::Unpin => self.pinned = None,
            Action::Timeline(a) => self.apply_timeline(app, a.clone()),
            Action::ZoomAt { screen, factor } if factor.is_finite() && *factor > 0.0 => {
                self.camera.zoom_at(&vp, *screen, *factor)
            }
            Action::PanPixels(d) => self.camera.pan_pixels(&vp, *d),
            Action::FrameAll => self.frame_camera(&vp),
            _ => return false,
        }
        true
    }

    /// Steps the world in real time while the app runs.
    fn update(&mut self, app: &mut Stage, dt: f32) {
        if !app.is_running() {
            self.accumulator = 0.0;
            return;
        }
        let step = self.world.dt();
        self.accumulator += dt.clamp(0.0, 0.1) * app.speed;
        let mut steps = 0;
        while self.accumulator >= step && steps < MAX_STEPS_PER_FRAME {
            if let Some(e) = self.step_once() {
                app.error = Some(e);
            }
            self.accumulator -= step;
            steps += 1;
        }
        if steps == MAX_STEPS_PER_FRAME {
            self.accumulator = 0.0;
        }
    }

    fn controls(&self, ui: &mut egui::Ui, app: &Stage, files: &mut UiState, out: &mut Vec<Action>) {
        panels::controls(ui, self, app, files, out);
    }

    fn details(&self, ui: &mut egui::Ui, _app: &Stage, out: &mut Vec<Action>) {
        panels::details(ui, self, out);
    }

    fn windows(&self, ctx: &egui::Context, app: &Stage, out: &mut Vec<Action>) {
        pin::window(ctx, self, app, out);
    }

    fn timeline_panel(
        &self,
        ctx: &egui::Context,
        _app: &Stage,
        out: &mut Vec<Action>,
        st: &mut UiState,
    ) -> Option<egui::Rect> {
        timeline_3d::panel(self, ctx, out, st)
    }

    /// The file's camera when the moving bodies fit the view from it; otherwise they are
    /// framed, seen from the file's direction.
    fn frame(&mut self, app: &mut Stage) {
        let vp = app.viewport;
        self.camera = camera_of(&self.spec);
        let margin = 0.04 * vp.size;
        let inner = ScreenRect { min: vp.min + margin, size: vp.size - 2.0 * margin };
        let fits = self.content_screen(app).is_some_and(|r| inner.contains(r.min) && inner.contains(r.min + r.size));
        if self.spec.camera.is_none() || !fits {
            self.frame_camera(&vp);
        }
    }

    fn content_screen(&self, app: &Stage) -> Option<ScreenRect> {
        let [lo, hi] = self.content_box()?;
        let corners = (0..8).map(|k| {
            Vec3::new(
                if k & 1 == 0 { lo.x } else { hi.x },
                if k & 2 == 0 { lo.y } else { hi.y },
                if k & 4 == 0 { lo.z } else { hi.z },
            )
        });
        let pts: Vec<Vec2> = corners.filter_map(|p| self.camera.project(&app.viewport, p).map(|(s, _)| s)).collect();
        let lo = pts.iter().copied().reduce(Vec2::min)?;
        let hi = pts.iter().copied().reduce(Vec2::max)?;
        Some(ScreenRect { min: lo, size: hi - lo })
    }

    fn draw(&self, _app: &Stage, _d: &mut dyn DebugDraw) {}

    fn draw_view(&self, app: &Stage) -> bool {
        draw::draw(app, self);
        true
    }

    /// The 3D world's step, selection and grab, its settings and the last step's narrowphase
    /// counts (pairs, SAT calls, cache hits), the water basins, and every body's centre with where it is
    /// on screen (`null` behind the camera).
    fn report(&self, app: &Stage) -> Option<serde_json::Value> {
        let bodies: Vec<serde_json::Value> = self
            .world
            .bodies
            .iter()
            .enumerate()
            .take(500)
            .map(|(i, b)| {
                let screen = self.camera.project(&app.viewport, b.center).map(|(s, _)| s.to_array());
                serde_json::json!({
                    "index": i,
                    "name": b.name,
                    "dynamic": b.is_dynamic(),
                    "center": b.center.to_array(),
                    "screen": screen,
                })
            })
            .collect();
        Some(serde_json::json!({
            "step": self.world.step_count,
            "steps": self.world.step_count,
            "selected": self.selected,
            "grabbed": self.world.mouse.as_ref().map(|m| m.body),
            "params": self.world.params,
            "narrow": self.world.profile.narrow,
            "water": settings::water_json(self),
            "bodies": bodies,
            "timeline": timeline_3d::state_json(self),
            "contact_points": inspect::points_json(self, app),
            "pinned_contact": pin::report(self),
            "hovered_contact": self.hover.map(|(c, k)| {
                inspect::describe(&self.world, c, k).into_iter().map(|(n, v)| (n.to_string(), serde_json::Value::String(v))).collect::<serde_json::Map<_, _>>()
            }),
        }))
    }

    fn pointer(&mut self, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
        input::pointer(self, app, f, over_ui)
    }

    fn uses_world(&self) -> bool {
        false
    }
}
