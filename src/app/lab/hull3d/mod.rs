//! The 3D hull SAT lab (seed article 001): two convex hulls from a `scenes/hulls/*.ron` file,
//! posed by dragging and trackball rotation, with every SAT axis, the best face axis of A and
//! of B, the best edge pair, the winner, the contact manifold, the MTV and both Gauss maps.
//! State and actions here; what the SAT found and what each layer shows are the engine's
//! (`hull3d::SatView3`, drawn through `DebugDraw3`); the lab's modes in `modes`, gestures in
//! `input`, projection in `draw`/`gauss`, panels in `panels`, the QuickHull stage in
//! `construct` and the clipping stage in `clip`; the orbit camera and the one
//! `DebugDraw3` renderer are shared (`app::view3d`).

pub mod clip;
pub mod construct;
pub mod draw;
pub mod gauss;
pub mod input;
pub mod modes;
pub mod panels;
#[cfg(test)]
mod tests;

pub use modes::{AxisSort, SatMode};

use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::camera::ScreenRect;
use crate::app::input::PointerFrame;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use crate::app::view3d::OrbitCamera;
use egui_macroquad::egui;
use glam::{Quat, Vec3};
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::debug3::{Layer3, LayerSet3};
use manifold_lab::engine::hull3d::{Hull, Pose3, SatScratch, SatView3, SAT_LAYERS};
use manifold_lab::engine::world3d::narrow::{collide_hulls, HullPair, HullPairContext};
use manifold_lab::scene::PresetFile;
use manifold_lab::scene::{self, HullPlacement, HullShape, HullShapeDesc, HullsSpec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the hull presets live.
pub const HULL_DIR: &str = "scenes/hulls";
/// The file opened by `--lab hull3d` without a file: the article's tetrahedron and cube.
pub const DEFAULT_HULLS: &str = "scenes/hulls/article_tetrahedron_cube.ron";

/// The 3D lab: the pair as loaded, the current poses, the camera and the derived view.
pub struct Hull3dLab {
    pub spec: HullsSpec,
    pub path: PathBuf,
    pub local: [Hull; 2],
    pub poses: [Pose3; 2],
    pub camera: OrbitCamera,
    pub mode: SatMode,
    pub sort: AxisSort,
    pub show_gauss: bool,
    /// What the view draws (the SAT's layers; all on by default).
    pub layers: LayerSet3,
    /// The axis whose projections are drawn (index into the trace's axes).
    pub axis: Option<usize>,
    /// Height of the ground grid (below the loaded hulls).
    pub ground: f32,
    pub view: SatView3,
    gesture: Option<input::Gesture3>,
    /// The construct stage, when on: QuickHull building one hull, step by step.
    pub construct: Option<construct::Construct>,
    /// The clip stage, when on: the step of the contact manifold's clipping shown.
    pub clip_step: Option<usize>,
    /// For a pair taken from a 3D world (the file's `world`): that world's narrowphase on the
    /// current poses, its margin and SAT mode (`narrow::collide_hulls`), beside the traced SAT.
    pub narrow: Option<HullPair>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Hull3dAction {
    /// Load a hull pair file (`scenes/hulls/*.ron`); a bad file keeps the lab as it is.
    Load(PathBuf),
    /// Save both hulls and their current poses as a hull pair file.
    Save(PathBuf),
    /// Place hull 0 (A) or 1 (B) at `position`, turned by the unit quaternion `rotation`
    /// (RON: `(x, y, z, w)`).
    SetPose { hull: usize, position: Vec3, rotation: Quat },
    /// Orbit the camera by `yaw` and `pitch` radians.
    Orbit { yaw: f32, pitch: f32 },
    /// Replace the shape of hull 0 (A) or 1 (B), keeping its pose.
    SetShape { hull: usize, shape: HullShapeDesc },
    /// The SAT variant (robust, article, fast).
    SetSat(SatMode),
    /// The order of the axis list.
    SortAxes(AxisSort),
    /// Show the Gauss-map inset.
    ShowGaussMaps(bool),
    /// Show or hide one of the SAT picture's layers (`SetLayer(Mtv, false)`).
    SetLayer(Layer3, bool),
    /// Draw the projections of both hulls on axis `k` of the trace.
    SelectAxis(Option<usize>),
    /// The construct stage: walk QuickHull building hull 0 (A) or 1 (B), or leave it.
    Construct(Option<usize>),
    /// Show step `k` of the construction (`None` = the last).
    ConstructStep(Option<usize>),
    /// The clip stage: walk how the contact manifold is clipped and reduced, or leave it.
    Clip(bool),
    /// Show step `k` of the clipping (clamped to the last).
    ClipStep(usize),
}

pub fn act(a: Hull3dAction) -> Action {
    Action::Lab(LabAction::HullSat(a))
}

impl Hull3dLab {
    /// The lab on `spec` (a file at `path`, or a pair to be saved there); a pair taken from a
    /// 3D world opens in that world's SAT mode.
    pub fn on_spec(spec: HullsSpec, path: PathBuf) -> Hull3dLab {
        let local = [spec.a.local_hull(), spec.b.local_hull()];
        let poses = [spec.a.pose(), spec.b.pose()];
        let mode = spec.world.map_or(SatMode::Robust, |w| SatMode::of(w.sat));
        let view = SatView3::compute(&local, &poses, &mode.config());
        let ground = view.hulls.iter().flat_map(|h| h.positions()).map(|p| p.y).fold(f32::INFINITY, f32::min);
        Hull3dLab {
            spec,
            path,
            local,
            poses,
            camera: OrbitCamera::default(),
            mode,
            sort: AxisSort::TestOrder,
            show_gauss: true,
            layers: LayerSet3::of(&SAT_LAYERS),
            axis: None,
            ground: (ground - 0.25).floor(),
            view,
            gesture: None,
            construct: None,
            clip_step: None,
            narrow: None,
        }
        .with_narrowphase()
    }

    fn with_narrowphase(mut self) -> Hull3dLab {
        self.narrow = self.world_narrowphase();
        self
    }

    /// The file's world narrowphase (`spec.world`) on the current hulls and poses.
    pub fn world_narrowphase(&self) -> Option<HullPair> {
        let n = self.spec.world?;
        let config = n.sat.config();
        let ctx = HullPairContext { margin: n.margin, config: &config, scratch: &mut SatScratch::default() };
        Some(collide_hulls((&self.local[0], &self.poses[0]), (&self.local[1], &self.poses[1]), ctx))
    }

    fn recompute(&mut self) {
        self.narrow = self.world_narrowphase();
        self.view = SatView3::compute(&self.local, &self.poses, &self.mode.config());
        if self.axis.is_some_and(|k| k >= self.view.trace.axes.len()) {
            self.axis = None;
        }
    }

    /// Points the camera at both hulls.
    pub fn frame_camera(&mut self, vp: &ScreenRect) {
        let pts: Vec<Vec3> = self.view.hulls.iter().flat_map(|h| h.positions().iter().copied()).collect();
        let (lo, hi) = pts.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let center = 0.5 * (lo + hi);
        let radius = pts.iter().map(|p| p.distance(center)).fold(0.0, f32::max);
        self.camera.frame(vp, center, radius);
    }

    /// The pair as currently posed, for saving.
    pub fn current_spec(&self, name: &str) -> HullsSpec {
        // A pair taken from a world keeps its rotations as quaternions, bit for bit.
        let place = |p: &HullPlacement, pose| match p.orientation {
            Some(_) => HullPlacement::exact(p.shape.clone(), pose, p.part),
            None => HullPlacement::new(p.shape.clone(), pose),
        };
        let mut s = HullsSpec::new(name, place(&self.spec.a, self.poses[0]), place(&self.spec.b, self.poses[1]));
        s.description = self.spec.description.clone();
        s.world = self.spec.world;
        s
    }

    /// Moves `hull` to `pose` (ignored when not finite).
    pub fn set_pose(&mut self, hull: usize, position: Vec3, rotation: Quat) {
        if hull < 2 && position.is_finite() && rotation.is_finite() && rotation.length() > 1e-6 {
            self.poses[hull] = Pose3::new(position, rotation.normalize());
            self.recompute();
        }
    }
}

impl LabType for Hull3dLab {
    type Action = Hull3dAction;
    const ENTRY: LabEntry = LabEntry {
        name: "3D hull SAT",
        description: "Two convex hulls in 3D: orbit, drag and turn them; see the best face axis of each, \
                      the best edge pair, the winner, the contact manifold, the MTV and both Gauss maps.",
        file: Some(manifold_lab::scene::FileKind::Hulls),
    };

    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String> {
        let path = file.map_or_else(|| PathBuf::from(DEFAULT_HULLS), Path::to_path_buf);
        let spec = scene::HullsSpec::load(&path).map_err(|e| e.to_string())?;
        app.world = manifold_lab::engine::World::new(Default::default());
        app.mode = crate::app::state::RunMode::Paused;
        Ok(Hull3dLab::on_spec(spec, path))
    }

    fn apply(&mut self, app: &mut Stage, action: Hull3dAction) {
        match action {
            Hull3dAction::Construct(hull) => {
                self.construct = hull.map(|h| construct::start(self, h, None));
                self.clip_step = self.clip_step.filter(|_| hull.is_none());
                return;
            }
            Hull3dAction::ConstructStep(k) => {
                if let Some(c) = &mut self.construct {
                    c.step = k;
                }
                return;
            }
            Hull3dAction::Clip(on) => {
                self.clip_step = on.then_some(0);
                self.construct = self.construct.take().filter(|_| !on);
                return;
            }
            Hull3dAction::ClipStep(k) => {
                let last = self.view.clip.len().saturating_sub(1);
                self.clip_step = self.clip_step.map(|_| k.min(last));
                return;
            }
            _ => {}
        }
        // Any other change (shape, pose, file) rebuilds a shown construction, and keeps the
        // clip stage on its step (the last one if the new clipping has fewer).
        let shown = self.construct.as_ref().map(|c| (c.hull, c.step));
        let clip_step = self.clip_step;
        self.apply_sat(app, action);
        if let Some((hull, step)) = shown {
            self.construct = Some(construct::start(self, hull, step));
        }
        let last = self.view.clip.len().saturating_sub(1);
        self.clip_step = clip_step.map(|k| k.min(last));
    }
}

impl Hull3dLab {
    fn apply_sat(&mut self, app: &mut Stage, action: Hull3dAction) {
        match action {
            Hull3dAction::Construct(_)
            | Hull3dAction::ConstructStep(_)
            | Hull3dAction::Clip(_)
            | Hull3dAction::ClipStep(_) => {}
            Hull3dAction::Load(path) => match Hull3dLab::open(app, Some(&path)) {
                Ok(lab) => {
                    // A new pair keeps the layers shown.
                    let layers = self.layers;
                    *self = lab;
                    self.layers = layers;
                    app.error = None;
                    self.frame(app);
                }
                Err(e) => app.error = Some(e),
            },
            Hull3dAction::Save(path) => {
                let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                match self.current_spec(&name).save(&path) {
                    Ok(()) => app.notice = Some(format!("Saved {}", path.display())),
                    Err(e) => app.error = Some(e.to_string()),
                }
            }
            Hull3dAction::SetPose { hull, position, rotation } => self.set_pose(hull, position, rotation),
            Hull3dAction::Orbit { yaw, pitch } => self.camera.orbit(yaw, pitch),
            Hull3dAction::SetShape { hull, shape } => match HullShape::try_from(shape) {
                Ok(s) if hull < 2 => {
                    let place = if hull == 0 { &mut self.spec.a } else { &mut self.spec.b };
                    place.shape = s;
                    self.local[hull] = place.local_hull();
                    self.recompute();
                }
                Ok(_) => app.error = Some(format!("no hull {hull}: 0 is A, 1 is B")),
                Err(e) => app.error = Some(e),
            },
            Hull3dAction::SetSat(mode) => {
                self.mode = mode;
                self.recompute();
            }
            Hull3dAction::SortAxes(sort) => self.sort = sort,
            Hull3dAction::ShowGaussMaps(on) => self.show_gauss = on,
            Hull3dAction::SetLayer(layer, on) => self.layers.set(layer, on),
            Hull3dAction::SelectAxis(k) => self.axis = k.filter(|&k| k < self.view.trace.axes.len()),
        }
    }
}

impl Lab for Hull3dLab {
    fn kind(&self) -> LabKind {
        LabKind::HullSat
    }

    fn file(&self) -> Option<&Path> {
        Some(&self.path)
    }

    /// The view's zoom, pan and framing move the orbit camera; Restart returns to the poses
    /// and shapes as loaded.
    fn intercept(&mut self, app: &mut Stage, action: &Action) -> bool {
        let vp = app.viewport;
        match action {
            Action::ZoomAt { screen, factor } if factor.is_finite() && *factor > 0.0 => {
                self.camera.zoom_at(&vp, *screen, *factor)
            }
            Action::PanPixels(d) => self.camera.pan_pixels(&vp, *d),
            Action::FrameAll => self.frame_camera(&vp),
            Action::Restart => {
                self.local = [self.spec.a.local_hull(), self.spec.b.local_hull()];
                self.poses = [self.spec.a.pose(), self.spec.b.pose()];
                self.recompute();
            }
            _ => return false,
        }
        true
    }

    fn controls(&self, ui: &mut egui::Ui, _app: &Stage, files: &mut UiState, out: &mut Vec<Action>) {
        panels::controls(ui, self, files, out);
        construct::controls(ui, self, out);
    }

    fn details(&self, ui: &mut egui::Ui, _app: &Stage, out: &mut Vec<Action>) {
        panels::details(ui, self, out);
    }

    /// The whole free area, with the Gauss-map inset in its corner.
    fn viewport(&self, free: ScreenRect) -> (ScreenRect, Option<ScreenRect>) {
        (free, Some(gauss::inset_rect(&free)))
    }

    fn frame(&mut self, app: &mut Stage) {
        let vp = app.viewport;
        self.frame_camera(&vp);
    }

    fn content_screen(&self, app: &Stage) -> Option<ScreenRect> {
        let pts: Vec<glam::Vec2> = (self.view.hulls.iter())
            .flat_map(|h| h.positions().iter())
            .filter_map(|&p| self.camera.project(&app.viewport, p).map(|(s, _)| s))
            .collect();
        let lo = pts.iter().copied().reduce(glam::Vec2::min)?;
        let hi = pts.iter().copied().reduce(glam::Vec2::max)?;
        Some(ScreenRect { min: lo, size: hi - lo })
    }

    fn draw(&self, _app: &Stage, _d: &mut dyn DebugDraw) {}

    fn draw_view(&self, app: &Stage) -> bool {
        match (&self.construct, self.clip_step) {
            (Some(c), _) => construct::draw(app, self, c),
            (None, Some(k)) => clip::draw(app, self, k),
            (None, None) => draw::draw(app, self),
        }
        true
    }

    fn pointer(&mut self, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
        input::pointer(self, app, f, over_ui)
    }

    fn uses_world(&self) -> bool {
        false
    }

    /// Each hull's pose, and its centroid in the world and on screen; whether a gesture is on.
    fn report(&self, app: &Stage) -> Option<serde_json::Value> {
        let hulls: Vec<serde_json::Value> = (0..2)
            .map(|i| {
                let c = self.view.hulls[i].centroid();
                let screen = self.camera.project(&app.viewport, c).map(|(s, _)| s.to_array());
                serde_json::json!({
                    "index": i,
                    "position": self.poses[i].p.to_array(),
                    "rotation": self.poses[i].q.to_array(),
                    "centroid": c.to_array(),
                    "screen": screen,
                })
            })
            .collect();
        let narrow: serde_json::Map<_, _> =
            panels::narrow_rows(self).into_iter().map(|(n, v)| (n.to_string(), v.into())).collect();
        let mut state = serde_json::json!({
            "hulls": hulls, "gesture": self.gesture.is_some(), "clip_step": self.clip_step,
            "narrow": self.spec.world.map(|_| narrow), "name": self.spec.name,
        });
        state.as_object_mut()?.extend(self.step_state().as_object()?.clone());
        Some(state)
    }
}

impl Hull3dLab {
    /// The stepper shown (the construct stage, else the clip stage, else the SAT's axes) as
    /// `stage`, with its `steps`, `step` and `caption` (`super::step_report`).
    fn step_state(&self) -> serde_json::Value {
        use manifold_lab::engine::trace::Trace3;
        let report = |t: &dyn Trace3, k: usize| super::step_report(t.steps(), k, |k| t.step_label(k));
        let (stage, mut state) = match (&self.construct, self.clip_step) {
            (Some(c), _) => ("construct", report(&c.trace, c.step.unwrap_or(usize::MAX))),
            (None, Some(k)) => ("clip", report(&self.view.clip, k)),
            (None, None) => ("sat", report(&self.view, self.axis.unwrap_or(0))),
        };
        state["stage"] = stage.into();
        state
    }
}
