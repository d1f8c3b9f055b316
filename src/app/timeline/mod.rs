//! The timeline in the app: every step of the run reachable by scrubbing, branches made by
//! edits at past steps, the compared branch drawn as ghosts, and the determinism check.
//! The engine's `Timeline` keeps the keyframes; this module ties it to the App's actions.

pub mod logs;
pub mod panel;
pub mod profiler;
pub mod record;
pub mod record3;
mod record_check;
pub mod scrub;
#[cfg(test)]
mod tests;
pub mod track;

pub use scrub::{Resolved, Scrub};

use super::state::{Action, App, BodyEdit, RunMode};
use manifold_lab::engine::debug::{Color, DebugDraw};
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::World;
use serde::{Deserialize, Serialize};

/// The timeline's own actions, `Timeline(...)` in scripts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TimelineAction {
    /// Show step `n` of the current branch (pauses).
    Seek(u64),
    /// Move by `n` steps (negative: back), within what the branch reaches.
    SeekBy(i64),
    /// The first reachable step.
    SeekStart,
    /// The newest step.
    SeekEnd,
    /// Switch to a branch, at the same step or its newest if it is shorter.
    SelectBranch(usize),
    /// The branch drawn as ghost outlines and diffed against; `None` hides them.
    Compare(Option<usize>),
    /// Run the determinism check from the current branch's first state.
    CheckDeterminism,
    /// Start (`true`) or stop recording user actions (see `record`).
    Record(bool),
    /// Write the recording made so far to a `.mlrec` file.
    SaveRecording(std::path::PathBuf),
    /// Open or close the Profiler window.
    ShowProfiler(bool),
    /// Move to the slowest of the profiler's steps (the last `PROFILE_STEPS` of the branch).
    JumpToSlowest,
}

/// The 2D app's timeline: the shared [`Scrub`] (keyframes, ghost, diff, check; reached
/// through `Deref`) plus what only the 2D app has: recordings and the Profiler window.
pub struct AppTimeline {
    pub scrub: Scrub<World>,
    /// The recording being made, if any.
    pub recorder: Option<record::Recorder>,
    /// Each branch's edits, stamped with their step (what a recording holds).
    logs: logs::BranchLogs<record::Stamped>,
    /// The solver parameters of the timeline's first state.
    start_params: SolverParams,
    /// Whether the Profiler window is open.
    pub profiler: bool,
}

impl std::ops::Deref for AppTimeline {
    type Target = Scrub<World>;
    fn deref(&self) -> &Scrub<World> {
        &self.scrub
    }
}

impl std::ops::DerefMut for AppTimeline {
    fn deref_mut(&mut self) -> &mut Scrub<World> {
        &mut self.scrub
    }
}

impl AppTimeline {
    pub fn new(world: &World) -> AppTimeline {
        AppTimeline {
            scrub: Scrub::new(world),
            recorder: None,
            logs: logs::BranchLogs::default(),
            start_params: world.params.clone(),
            profiler: false,
        }
    }
}

/// How an action touches the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    /// The world is edited (a branch if at a past step).
    Edit,
    /// A new world: the timeline starts again (unless the action failed).
    Reset,
    /// Step back: the world is replaced by a kept state.
    Back,
}

/// The actions that edit the world: the timeline records them (when they change something),
/// and a recording holds nothing else, so a replay never opens or writes a file.
pub fn edits_world(a: &Action) -> bool {
    matches!(
        a,
        Action::SetPose { .. }
            | Action::StartPull { .. }
            | Action::PullTo(_)
            | Action::EndPull
            | Action::Slice { .. }
            | Action::SetWater(_)
            | Action::SetJoint { .. }
            | Action::SetFilter { .. }
            | Action::WakeBody(_)
            | Action::SetBroadphase { .. }
            | Action::EditBody { .. }
            | Action::EditShape { .. }
            | Action::SetParams(_)
    )
}

/// What `action` will do to the timeline, judged before it is applied (an edit that changes
/// nothing is no edit).
pub fn effect_of(app: &App, action: &Action) -> Effect {
    let w = &app.world;
    match action {
        Action::EditBody { body, edit } => match w.bodies.get(*body) {
            Some(b) if BodyEdit::of(b) != *edit => Effect::Edit,
            _ => Effect::None,
        },
        Action::SetParams(p) if *p == w.params => Effect::None,
        a if edits_world(a) => Effect::Edit,
        Action::LoadScene(p) if record::is_recording(p) => Effect::None,
        // Back to the scene brings its timeline back (`lab_return`).
        Action::Restart
        | Action::LoadScene(_)
        | Action::OpenLab { .. }
        | Action::OpenContactInLab { .. }
        | Action::OpenToiEventInLab { .. } => Effect::Reset,
        Action::StepBack => Effect::Back,
        _ => Effect::None,
    }
}

impl App {
    /// Tells the timeline (and the recorder) what an applied action did.
    pub(super) fn timeline_after(&mut self, action: Option<&Action>, effect: Effect, step_before: u64) {
        match effect {
            Effect::None => {}
            Effect::Edit => {
                let notice = self.timeline.scrub.edited(&self.stage.world);
                if let Some(a) = action {
                    self.record_action(a, step_before);
                }
                if notice.is_some() {
                    self.notice = notice;
                }
            }
            Effect::Reset if self.error.is_none() => self.reset_timeline(),
            Effect::Reset => {}
            Effect::Back => {
                let edited = self.world.step_count == step_before;
                self.timeline.scrub.moved(&self.stage.world, edited);
            }
        }
        self.timeline.refresh_ghost();
    }

    /// A new timeline from the world as it is (the Profiler window stays as it was).
    pub(in crate::app) fn reset_timeline(&mut self) {
        let profiler = self.timeline.profiler;
        self.timeline = AppTimeline::new(&self.world);
        self.timeline.profiler = profiler;
    }

    /// Tells the timeline a step was taken.
    pub(super) fn timeline_stepped(&mut self) {
        if let Some(e) = self.timeline.scrub.stepped(&self.stage.world) {
            self.error = Some(e);
        }
    }

    /// Whether one step back can be taken (B, Backspace, the Back button): a state kept before
    /// the last step, or an earlier step of the branch. What the Back button shows and what
    /// `StepBack` does both come from here.
    pub fn can_step_back(&self) -> bool {
        self.history.len() > 0 || self.timeline_back_target().is_some()
    }

    /// The step before the cursor on the branch, if it reaches one (←, ◀).
    pub fn timeline_back_target(&self) -> Option<u64> {
        self.timeline.back_target()
    }

    /// B with no step-back history left: one step back along the timeline.
    pub(super) fn timeline_step_back(&mut self) -> bool {
        self.timeline_back_target().is_some_and(|s| self.seek(self.timeline.line.current(), s))
    }

    pub(super) fn apply_timeline(&mut self, a: TimelineAction) {
        let from = self.timeline.line.current();
        match self.timeline.resolve(a, profiler::PROFILE_STEPS) {
            Resolved::Seek { branch, step, swap } => {
                if self.seek(branch, step) && swap {
                    self.timeline.swap_compare(from);
                }
            }
            Resolved::Compared => {}
            Resolved::Check => {
                if let Some(n) = self.timeline.check_determinism() {
                    self.notice = Some(n);
                }
            }
            Resolved::Notice(n) => self.notice = Some(n),
            Resolved::Error(e) => self.error = Some(e),
            Resolved::Other(TimelineAction::Record(on)) => self.set_recording(on),
            Resolved::Other(TimelineAction::SaveRecording(path)) => self.save_recording(&path),
            Resolved::Other(TimelineAction::ShowProfiler(on)) => self.timeline.profiler = on,
            Resolved::Other(_) => {}
        }
    }

    /// Shows `step` of `branch`; false (with a notice) when it cannot be reached.
    fn seek(&mut self, branch: usize, step: u64) -> bool {
        self.mode = RunMode::Paused;
        match self.timeline.scrub.seek(branch, step, &self.stage.world) {
            Some(w) => {
                self.world = w;
                self.history.clear();
                let n = self.world.bodies.len();
                self.selection.retain(|&i| i < n);
                self.world.mouse_joint = None;
                self.tools.world_changed(crate::app::tools::WorldChange::Jumped, &self.stage.world);
                true
            }
            None => {
                self.notice = Some(format!("step {step} is not kept"));
                false
            }
        }
    }
}

/// The ghost outline colour.
const GHOST: Color = Color::rgb(190, 150, 255);

/// Draws the compared branch's moving bodies that are not where the shown ones are, as
/// outlines.
pub fn draw_ghost(app: &App, d: &mut dyn DebugDraw) {
    use manifold_lab::engine::debug::Layer;
    use manifold_lab::engine::shape::Shape;
    use manifold_lab::engine::BodyKind;
    let Some(g) = app.timeline.ghost().filter(|_| app.lab.is_none()) else { return };
    let none = GHOST.with_alpha(0.0);
    for (i, b) in g.bodies.iter().enumerate().filter(|(_, b)| b.kind != BodyKind::Static) {
        if app.world.bodies.get(i).is_some_and(|s| s.center == b.center && s.angle == b.angle) {
            continue;
        }
        for (shape, xf) in b.shapes() {
            match shape {
                Shape::Polygon(p) => d.polygon(Layer::Shape, &p.outline(&xf, 4), none, GHOST),
                Shape::Circle(c) => d.circle(Layer::Shape, xf.p, c.radius, none, GHOST),
                Shape::Capsule(c) => {
                    let (p1, p2) = (xf.apply(c.center1), xf.apply(c.center2));
                    d.circle(Layer::Shape, p1, c.radius, none, GHOST);
                    d.circle(Layer::Shape, p2, c.radius, none, GHOST);
                    d.segment(Layer::Shape, p1, p2, GHOST);
                }
            }
        }
    }
}

/// The timeline's part of `--state-out`: branch, newest step, branches, keyframes.
pub fn state_json(app: &App) -> serde_json::Value {
    let t = &app.timeline.line;
    serde_json::json!({
        "branch": t.current(),
        "branches": t.branches().len(),
        "newest": t.current_branch().newest(),
        "first": t.current_branch().first_reachable(),
        "segment_ms": t.segment_ms(),
        "mean_spacing": t.mean_spacing(),
        "keyframe_bytes": t.keyframe_bytes(),
        "recording": app.timeline.recorder.is_some(),
        "can_step_back": app.can_step_back(),
    })
}
