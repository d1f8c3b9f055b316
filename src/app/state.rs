//! App state as plain Rust, changed only through `Action`s. Input and panels produce actions;
//! `App::apply` carries them out, so the whole app logic runs in tests without a window.

pub use super::action::{Action, BodyEdit, ShapeEdit};
use super::camera::{ScreenRect, ViewCamera};
use super::lab::{Lab, LabAction};
pub use super::stage::{RunMode, Stage};
use crate::app::tools::ray::RayTool;
use crate::app::tools::shape_cast::ShapeCastTool;
use crate::app::tools::slice::SliceTool;
use crate::app::tools::{ToolContext, ToolView, Tools, WorldChange};
use glam::Vec2;
use manifold_lab::engine::broadphase::{PairFinding, TreeSettings};
use manifold_lab::engine::debug::LayerSet;
use manifold_lab::engine::BodyKind;
use manifold_lab::scene::{self, Scene};
use std::path::{Path, PathBuf};

/// The whole app.
pub struct App {
    /// The world on show, the view, the run state, history, selection and messages: all a
    /// lab sees (`App` dereferences to it).
    pub stage: Stage,
    /// The scene as loaded, for restart.
    pub scene: Scene,
    pub scene_path: Option<PathBuf>,
    pub layers: LayerSet,
    /// Whether the view follows the selected body.
    pub follow: bool,
    /// Real time not yet simulated.
    accumulator: f32,
    /// Recent step times in ms, for the status bar.
    pub step_ms: Vec<f32>,
    /// The open lab, if any.
    pub lab: Option<Box<dyn Lab>>,
    /// The scene's tools, one of each in the table's order (`tools`).
    pub tools: Tools,
    /// Every step of the run: keyframes, counters, branches (see `timeline`).
    pub timeline: super::timeline::AppTimeline,
    /// The recent-files list, hot reload and the dialogs asked for (see `files`).
    pub files: super::files::FileState,
    /// The scene as it was when a lab was opened from it (`lab_return`).
    pub(super) left_scene: Option<super::lab_return::LeftScene>,
    /// The lab a lab was opened from (the 3D dynamics lab behind the hull lab it opened a
    /// contact in): Back returns to it as it was.
    pub(super) left_lab: Option<Box<dyn Lab>>,
}

impl std::ops::Deref for App {
    type Target = Stage;
    fn deref(&self) -> &Stage {
        &self.stage
    }
}

impl std::ops::DerefMut for App {
    fn deref_mut(&mut self) -> &mut Stage {
        &mut self.stage
    }
}

impl App {
    pub fn new(scene: Scene, scene_path: Option<PathBuf>) -> App {
        let mut world = scene.build_world();
        world.refresh_contacts();
        let mut app = App {
            timeline: super::timeline::AppTimeline::new(&world),
            stage: Stage::new(world),
            scene,
            scene_path,
            layers: LayerSet::default(),
            follow: false,
            accumulator: 0.0,
            step_ms: Vec::new(),
            lab: None,
            tools: Tools::default(),
            files: Default::default(),
            left_scene: None,
            left_lab: None,
        };
        app.reset_camera();
        app
    }

    /// Loads a scene file; on error the current scene stays and the error is kept for display.
    pub fn from_path(path: &Path) -> Result<App, String> {
        let scene = scene::load(path).map_err(|e| e.to_string())?;
        Ok(App::new(scene, Some(path.to_path_buf())))
    }

    pub(super) fn reset_camera(&mut self) {
        match self.scene.camera {
            Some(c) => self.camera = ViewCamera { center: c.center, height: c.height },
            None => {
                if let Some(b) = self.world.bounds() {
                    self.stage.camera.frame(&self.stage.viewport, b);
                }
            }
        }
    }

    /// Sets the screen areas the panels leave free. The first call (the first laid-out frame)
    /// frames the open scene or lab again for the real viewport, as opening it did for a
    /// guessed one.
    pub fn set_viewport(&mut self, main: ScreenRect, inset: Option<ScreenRect>) {
        (self.viewport, self.inset) = (main, inset);
        if !std::mem::replace(&mut self.viewport_known, true) {
            self.frame_content();
        }
    }

    /// Frames what is shown: the open lab's content, or the scene (its own camera if it has
    /// one).
    pub fn frame_content(&mut self) {
        match self.lab.take() {
            Some(mut lab) => {
                lab.frame(self);
                self.lab = Some(lab);
            }
            None => self.reset_camera(),
        }
    }

    /// Where the shown shapes are on screen (the scene's bodies, or the lab's content), for
    /// tests that check a view is framed.
    pub fn content_screen_rect(&self) -> Option<ScreenRect> {
        match &self.lab {
            Some(lab) => lab.content_screen(self),
            None => self.world.bounds().map(|b| super::lab::screen_rect_of(self, b)),
        }
    }

    /// Runs `f` on the open lab with the rest of the app at hand (the lab is lent out for
    /// the call, so it can change the app).
    pub fn with_lab<R>(&mut self, f: impl FnOnce(&mut dyn Lab, &mut App) -> R) -> Option<R> {
        let mut lab = self.lab.take()?;
        let r = f(lab.as_mut(), self);
        if self.lab.is_none() {
            self.lab = Some(lab);
        }
        Some(r)
    }

    /// What the tools see of the app.
    pub fn tool_view(&self) -> ToolView<'_> {
        view_of(&self.stage, self.layers, self.lab.is_some())
    }

    /// Runs `f` on the tools with what they see of the rest of the app.
    pub fn with_tools<R>(&mut self, f: impl FnOnce(&mut Tools, &ToolView) -> R) -> R {
        let view = view_of(&self.stage, self.layers, self.lab.is_some());
        f(&mut self.tools, &view)
    }

    /// The tools, and what they may change of the rest of the app.
    pub fn tool_parts(&mut self) -> (&mut Tools, ToolContext<'_>) {
        let cx = ToolContext {
            world: &mut self.stage.world,
            selection: &mut self.stage.selection,
            history: &mut self.stage.history,
            in_lab: self.lab.is_some(),
            notice: &mut self.stage.notice,
            error: &mut self.stage.error,
        };
        (&mut self.tools, cx)
    }

    /// The tool of type `T` (for tests).
    #[cfg(test)]
    pub fn tool<T: crate::app::tools::ToolType>(&self) -> &T {
        self.tools.get::<T>()
    }

    /// The open lab as its own type `T`, if it is one.
    pub fn lab_as<T: Lab>(&self) -> Option<&T> {
        self.lab.as_ref().and_then(|l| l.as_any().downcast_ref::<T>())
    }

    /// Whether the world (bodies, contacts, steps) is what is shown: not in a lab with its own
    /// content (the tree and 3D labs).
    pub fn shows_world(&self) -> bool {
        self.lab.as_ref().is_none_or(|l| l.uses_world())
    }

    /// One simulation step, remembered in the history.
    pub fn step_once(&mut self) {
        self.stage.history.push(&self.stage.world);
        self.world.step();
        self.track_joint_selection();
        self.follow_selection();
        self.timeline_stepped();
        let ms = self.world.profile.total_ms;
        self.tools.stepped(&self.stage.world, ms as f64);
        self.step_ms.push(ms);
        if self.step_ms.len() > 60 {
            self.step_ms.remove(0);
        }
    }

    /// Advances the simulation by `real_dt` seconds of wall time when running. At most a few
    /// steps per frame, so a slow scene slows down instead of freezing the window.
    pub fn update(&mut self, real_dt: f32) {
        self.with_lab(|lab, app| lab.update(app, real_dt));
        if self.mode != RunMode::Running || !self.shows_world() {
            self.accumulator = 0.0;
            return;
        }
        let dt = self.world.dt();
        self.accumulator += real_dt.clamp(0.0, 0.1) * self.speed;
        // Catch up at most a few steps per frame; a scene whose steps are slow runs one step
        // per frame (slower than real time) rather than freezing the window.
        let max_steps = if self.median_step_ms() > 8.0 { 1 } else { 4 };
        let mut steps = 0;
        while self.accumulator >= dt && steps < max_steps {
            self.step_once();
            self.accumulator -= dt;
            steps += 1;
        }
        if steps == max_steps {
            self.accumulator = 0.0;
        }
    }

    /// Centres the view on the first selected body when following.
    fn follow_selection(&mut self) {
        let center = self.selection.first().and_then(|&i| self.world.bodies.get(i)).map(|b| b.center);
        if let Some(c) = center.filter(|c| self.follow && c.is_finite()) {
            self.camera.center = c;
        }
    }

    /// Median of the recent step times.
    pub fn median_step_ms(&self) -> f32 {
        if self.step_ms.is_empty() {
            return 0.0;
        }
        let mut v = self.step_ms.clone();
        v.sort_by(f32::total_cmp);
        v[v.len() / 2]
    }

    /// Carries out an action. An open lab sees the app's actions first (`Lab::intercept`).
    pub fn apply(&mut self, action: Action) {
        if self.with_lab(|lab, app| lab.intercept(app, &action)) == Some(true) {
            return;
        }
        let (effect, step_before) = (super::timeline::effect_of(self, &action), self.world.step_count);
        let logged = (effect == super::timeline::Effect::Edit).then(|| action.clone());
        self.apply_own(action);
        self.timeline_after(logged.as_ref(), effect, step_before);
    }

    fn apply_own(&mut self, action: Action) {
        match action {
            Action::Play => self.mode = RunMode::Running,
            Action::Pause => self.mode = RunMode::Paused,
            Action::TogglePlay => {
                self.mode = if self.is_running() { RunMode::Paused } else { RunMode::Running };
            }
            Action::Step => {
                self.mode = RunMode::Paused;
                self.step_once();
            }
            Action::StepBack => self.step_back(),
            Action::Restart => self.restart(),
            Action::LoadScene(path) if super::timeline::record::is_recording(&path) => self.open_recording(&path),
            Action::LoadScene(path) => self.load_scene(&path),
            Action::SaveScene(path) => self.save_scene(&path),
            Action::Select(_) | Action::SelectNamed(_) | Action::ToggleSelect(_) => self.select(action),
            Action::SetPose { .. } | Action::EditBody { .. } => {
                self.edit(action);
                if self.tools.get::<RayTool>().on || self.tools.get::<ShapeCastTool>().on {
                    // The ray is cast through the tree: keep it up to date with hand moves.
                    self.world.sync_broadphase();
                }
            }
            Action::StartPull { .. } | Action::PullTo(_) | Action::EndPull => self.pull(action),
            Action::SetParams(p) => match p.validate() {
                // Sleep depends on every parameter: a change wakes the world.
                Ok(()) => self.world.set_params(p),
                Err(e) => self.error = Some(e),
            },
            Action::SetLayer(l, on) => self.layers.set(l, on),
            Action::SetMotionScales { force, velocity } => {
                self.motion_scales = self.motion_scales.clamped(force, velocity);
            }
            Action::SetSpeed(s) if s.is_finite() => self.speed = s.clamp(0.05, 8.0),
            Action::SetSpeed(_) => {}
            Action::SetCamera { .. } | Action::ZoomAt { .. } | Action::PanPixels(_) | Action::FrameAll => {
                self.view(action)
            }
            Action::DismissError => self.error = None,
            Action::OpenLab { kind, file } => self.open_lab(kind, file.as_deref()),
            Action::CloseLab => self.close_lab(),
            Action::Lab(a) => self.apply_lab(a),
            Action::SetBroadphase { mode, settings } => self.set_broadphase(mode, settings),
            Action::SetTreeView { min_depth, max_depth, tight } => {
                self.tree_depth = (min_depth.min(max_depth), max_depth);
                self.tree_tight = tight;
            }
            Action::Slice { .. } | Action::Tool(_) => self.tool_action(action),
            Action::OpenContactInLab { a, b, shape_pair } => self.open_contact_in_lab(a, b, shape_pair),
            Action::OpenToiEventInLab { step, body } => self.open_toi_event_in_lab(step, body),
            Action::OpenContact3InHullLab(pair) => self.open_contact3_in_hull_lab(pair),
            Action::Unpin => {
                let unpin = crate::app::tools::inspector::InspectorAction::Pin(None);
                self.apply_own(Action::Tool(crate::app::tools::ToolAction::Inspector(unpin)));
            }
            Action::SetWater(p) => {
                if let Err(e) = crate::app::tools::water::set_water(&mut self.world, p) {
                    self.error = Some(e);
                }
            }
            Action::SelectJoint(k) => self.select_joint(k),
            Action::SetJoint { joint, param } => self.set_joint(joint, &param),
            Action::WakeBody(i) => self.world.wake_body(i),
            Action::Follow(on) => {
                self.follow = on;
                self.follow_selection();
            }
            Action::SetFilter { body, category_bits, mask_bits } => self.set_filter(body, category_bits, mask_bits),
            Action::EditShape { body, shape, edit } => self.edit_shape(body, shape, edit),
            Action::Timeline(a) => self.apply_timeline(a),
            Action::OpenFile(_)
            | Action::ReloadFile
            | Action::SetReloadResimulate(_)
            | Action::SaveCurrent
            | Action::ShowDialog(_)
            | Action::ForgetRecent(_) => self.apply_files(action),
        }
    }

    /// The mouse joint's pull: start, move, end.
    fn pull(&mut self, action: Action) {
        match action {
            Action::StartPull { body, point } => {
                self.world.start_mouse_joint(body, point);
            }
            Action::PullTo(p) => {
                if let Some(j) = self.world.mouse_joint.as_mut().filter(|_| p.is_finite()) {
                    j.target = p;
                }
            }
            Action::EndPull => self.world.mouse_joint = None,
            _ => {}
        }
    }

    /// A tool's action, and the slice that recordings replay as an app action.
    fn tool_action(&mut self, action: Action) {
        let (tools, mut cx) = self.tool_parts();
        match action {
            Action::Slice { from, to } => tools.get_mut::<SliceTool>().cut(&mut cx, from, to),
            Action::Tool(a) => tools.apply(a, &mut cx),
            _ => {}
        }
    }

    fn step_back(&mut self) {
        self.mode = RunMode::Paused;
        match self.history.pop() {
            Some(w) => {
                self.world = w;
                // A slice undone has fewer bodies.
                let n = self.world.bodies.len();
                self.selection.retain(|&i| i < n);
                self.track_joint_selection();
                self.tools.world_changed(WorldChange::Jumped, &self.stage.world);
            }
            None if self.timeline_step_back() => {}
            None => self.notice = Some("No earlier step is kept".into()),
        }
    }

    /// Rebuilds the scene as loaded; live solver edits survive.
    fn restart(&mut self) {
        let params = self.world.params.clone();
        self.world = self.scene.build_world();
        self.world.params = params;
        self.world.refresh_contacts();
        self.history.clear();
        self.stage.selection.retain(|&i| i < self.stage.world.bodies.len());
        self.track_joint_selection();
        self.tools.world_changed(WorldChange::Restarted, &self.stage.world);
    }

    fn load_scene(&mut self, path: &Path) {
        match scene::load(path) {
            Ok(s) => {
                (self.lab, self.left_scene, self.left_lab) = (None, None, None);
                self.world = s.build_world();
                self.world.refresh_contacts();
                self.scene = s;
                self.scene_path = Some(path.to_path_buf());
                self.history.clear();
                self.selection.clear();
                self.joint_selection = None;
                self.tools.world_changed(WorldChange::Loaded, &self.stage.world);
                self.error = None;
                self.notice = Some(format!("Loaded {}", path.display()));
                self.reset_camera();
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn save_scene(&mut self, path: &Path) {
        let cam = scene::Camera { center: self.camera.center, height: self.camera.height };
        let s = scene::scene_from_world(&self.world, &self.scene.name, Some(cam));
        match scene::save(&s, path) {
            Ok(()) => {
                self.notice = Some(format!("Saved {}", path.display()));
                self.scene_saved(path);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn select(&mut self, action: Action) {
        let n = self.world.bodies.len();
        // Bodies and joints are selected in turn, never together.
        self.joint_selection = None;
        match action {
            Action::Select(b) => self.selection = b.filter(|&i| i < n).into_iter().collect(),
            Action::SelectNamed(name) => match self.world.bodies.iter().position(|b| b.name == name) {
                Some(i) => self.selection = vec![i],
                None => self.error = Some(format!("no body named `{name}`")),
            },
            Action::ToggleSelect(i) if i < n => {
                if let Some(k) = self.selection.iter().position(|&s| s == i) {
                    self.selection.remove(k);
                } else {
                    self.selection.push(i);
                    if self.selection.len() > 2 {
                        self.selection.remove(0);
                    }
                }
            }
            _ => {}
        }
    }

    fn edit(&mut self, action: Action) {
        match action {
            Action::SetPose { body, position, angle } => {
                let Some(b) = self.world.bodies.get_mut(body) else { return };
                if position.is_finite() && angle.is_finite() {
                    b.set_transform(position, angle);
                    // A placed body starts at rest, like picking it up in an editor.
                    if b.kind == BodyKind::Dynamic {
                        b.linear_velocity = Vec2::ZERO;
                        b.angular_velocity = 0.0;
                    }
                }
            }
            Action::EditBody { body, edit } => self.edit_body(body, edit),
            _ => {}
        }
    }

    fn view(&mut self, action: Action) {
        let vp = self.viewport;
        match action {
            Action::SetCamera { center, height } if center.is_finite() && height.is_finite() && height > 0.0 => {
                self.camera.center = center;
                self.camera.height = height.clamp(ViewCamera::MIN_HEIGHT, ViewCamera::MAX_HEIGHT);
            }
            Action::ZoomAt { screen, factor } if factor.is_finite() && factor > 0.0 => {
                self.camera.zoom_at(&vp, screen, factor)
            }
            Action::PanPixels(d) if d.is_finite() => self.camera.pan_pixels(&vp, d),
            Action::FrameAll => match &self.lab {
                Some(_) => self.frame_content(),
                None => {
                    if let Some(b) = self.world.bounds() {
                        self.camera.frame(&vp, b);
                    }
                }
            },
            _ => {}
        }
    }

    fn set_broadphase(&mut self, mode: PairFinding, settings: TreeSettings) {
        let valid = settings.margin.is_finite()
            && settings.margin >= 0.0
            && settings.displacement_multiplier.is_finite()
            && settings.displacement_multiplier >= 0.0;
        if valid {
            self.world.broadphase.mode = mode;
            self.world.broadphase.set_tree_settings(settings);
            self.tools.world_changed(WorldChange::Broadphase, &self.stage.world);
            self.world.sync_broadphase();
        } else {
            self.error = Some("tree margin and displacement multiplier must be finite and >= 0".into());
        }
    }

    /// Hands a lab action to the open lab, if it is that lab.
    fn apply_lab(&mut self, action: LabAction) {
        let kind = action.kind();
        let refused = self.with_lab(|lab, app| action.apply_to(lab, app).is_err());
        if refused != Some(false) {
            self.error = Some(format!("open the {} lab first", kind.entry().name));
        }
    }

    fn edit_body(&mut self, body: usize, e: BodyEdit) {
        let Some(b) = self.world.bodies.get_mut(body) else { return };
        let finite = e.position.is_finite()
            && e.angle.is_finite()
            && e.linear_velocity.is_finite()
            && e.angular_velocity.is_finite();
        if !finite {
            self.error = Some("body values must be finite".into());
            return;
        }
        if let Err(msg) = e.material.check() {
            self.error = Some(msg);
            return;
        }
        // A body of several shapes keeps a material per shape (`Action::EditShape`).
        let material = if b.parts.is_empty() { e.material } else { b.material };
        let kind_or_density_changed = b.kind != e.kind || b.material.density != material.density;
        b.kind = e.kind;
        b.material = material;
        b.bullet = e.bullet;
        if kind_or_density_changed {
            b.update_mass();
        }
        if b.xf.p != e.position || b.angle != e.angle {
            b.set_transform(e.position, e.angle);
        }
        if b.kind != BodyKind::Static {
            b.linear_velocity = e.linear_velocity;
            b.angular_velocity = e.angular_velocity;
        }
        if kind_or_density_changed {
            // Its contacts' manifolds are computed afresh, not recycled.
            self.world.forget_manifold_origins(body);
        }
    }
}

impl App {
    /// Applies `e` to shape `k` of body `body` (a body of several shapes).
    fn edit_shape(&mut self, body: usize, k: usize, e: ShapeEdit) {
        let Some(part) = self.world.bodies.get(body).and_then(|b| b.parts.get(k)).copied() else {
            self.error = Some(format!("body #{body} has no shape {k} to edit"));
            return;
        };
        let part =
            manifold_lab::engine::compound::Part { offset: e.offset, angle: e.angle, material: e.material, ..part };
        if let Err(msg) = self.world.set_part(body, k, part) {
            self.error = Some(msg);
        }
    }
}

impl BodyEdit {
    pub fn of(b: &manifold_lab::engine::Body) -> BodyEdit {
        BodyEdit {
            position: b.xf.p,
            angle: b.angle,
            linear_velocity: b.linear_velocity,
            angular_velocity: b.angular_velocity,
            material: b.material,
            kind: b.kind,
            bullet: b.bullet,
        }
    }
}

/// What the tools see of `stage`.
fn view_of(stage: &Stage, layers: LayerSet, in_lab: bool) -> ToolView<'_> {
    ToolView {
        world: &stage.world,
        camera: &stage.camera,
        viewport: stage.viewport,
        layers,
        in_lab,
        selection: &stage.selection,
    }
}
