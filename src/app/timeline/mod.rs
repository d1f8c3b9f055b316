//! The timeline in the app: every step of the run reachable by scrubbing, branches made by
//! edits at past steps, the compared branch drawn as ghosts, and the determinism check.
//! The engine's `Timeline` keeps the keyframes; this module ties it to the App's actions.

pub mod panel;
pub mod profiler;
pub mod record;
mod record_check;
#[cfg(test)]
mod tests;
pub mod track;

use super::state::{Action, App, BodyEdit, RunMode};
use manifold_lab::engine::debug::{Color, DebugDraw};
use manifold_lab::engine::determinism::check_determinism;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::timeline::diff::{diff_worlds, BodyDiff};
use manifold_lab::engine::timeline::profile::profile_window;
use manifold_lab::engine::timeline::{Cause, Observed, Timeline};
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

/// Steps the in-app determinism check runs at most.
const CHECK_STEPS: u64 = 600;

/// The app's timeline: the engine's keyframes plus what the window shows of them.
pub struct AppTimeline {
    pub line: Timeline,
    /// The branch compared with the shown one.
    pub compare: Option<usize>,
    /// The compared branch at the cursor, re-simulated when the cursor moves.
    ghost: Option<World>,
    /// The last determinism check's report.
    pub last_check: Option<String>,
    /// The recording being made, if any.
    pub recorder: Option<record::Recorder>,
    /// Each branch's edits, stamped with their step (what a recording holds).
    logs: Vec<Vec<record::Stamped>>,
    /// The solver parameters of the timeline's first state.
    start_params: SolverParams,
    /// Whether the Profiler window is open.
    pub profiler: bool,
}

impl AppTimeline {
    pub fn new(world: &World) -> AppTimeline {
        AppTimeline {
            line: Timeline::new(world),
            compare: None,
            ghost: None,
            last_check: None,
            recorder: None,
            logs: vec![Vec::new()],
            start_params: world.params.clone(),
            profiler: false,
        }
    }

    /// Gives every new branch its log: the parent's edits up to the fork.
    fn sync_logs(&mut self) {
        while self.logs.len() < self.line.branches().len() {
            let b = &self.line.branches()[self.logs.len()];
            let inherited = match b.parent {
                Some((p, s)) => self.logs[p].iter().filter(|a| a.step <= s).cloned().collect(),
                None => Vec::new(),
            };
            self.logs.push(inherited);
        }
    }

    /// The compared branch at the shown step, if it reaches it.
    pub fn ghost(&self) -> Option<&World> {
        self.ghost.as_ref().filter(|g| g.step_count == self.line.cursor())
    }

    /// Bodies that differ most between the shown world and the ghost.
    pub fn diff(&self, world: &World) -> Vec<BodyDiff> {
        self.ghost().map(|g| diff_worlds(world, g)).unwrap_or_default()
    }

    /// Brings the ghost to the cursor (stepping on from the last ghost when it is behind).
    fn refresh_ghost(&mut self) {
        let (step, current) = (self.line.cursor(), self.line.current());
        let Some(b) = self.compare.filter(|&b| b != current) else {
            self.ghost = None;
            return;
        };
        if self.ghost.as_ref().is_some_and(|g| g.step_count == step) {
            return;
        }
        let near = self.ghost.as_ref().filter(|g| g.step_count < step);
        self.ghost = self.line.world_at(b, step, near);
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
                let seen = self.timeline.line.observe(&self.stage.world, Cause::Edited);
                if let Some(a) = action {
                    self.record_action(a, step_before);
                }
                if let Observed::Branched(b) = seen {
                    let parent = self.timeline.line.branch(b).and_then(|x| x.parent).map(|p| p.0);
                    self.timeline.compare = parent;
                    self.notice = Some(format!("Edited at a past step: branch {b} started, the old future kept"));
                }
            }
            Effect::Reset if self.error.is_none() => self.reset_timeline(),
            Effect::Reset => {}
            Effect::Back => {
                let cause = if self.world.step_count == step_before { Cause::Edited } else { Cause::Moved };
                self.timeline.line.observe(&self.stage.world, cause);
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
        if let Observed::Diverged { step, branch } = self.timeline.line.observe(&self.stage.world, Cause::Stepped) {
            self.error = Some(format!(
                "step {step} did not reproduce its stored state: the simulation is not deterministic here \
                 (the new run went to branch {branch})"
            ));
        }
        self.timeline.refresh_ghost();
    }

    /// Whether one step back can be taken (B, Backspace, the Back button): a state kept before
    /// the last step, or an earlier step of the branch. What the Back button shows and what
    /// `StepBack` does both come from here.
    pub fn can_step_back(&self) -> bool {
        self.history.len() > 0 || self.timeline_back_target().is_some()
    }

    /// The step before the cursor on the branch, if it reaches one (←, ◀).
    pub fn timeline_back_target(&self) -> Option<u64> {
        let cursor = self.timeline.line.cursor();
        (cursor > self.timeline.line.current_branch().first_reachable()).then(|| cursor - 1)
    }

    /// B with no step-back history left: one step back along the timeline.
    pub(super) fn timeline_step_back(&mut self) -> bool {
        self.timeline_back_target().is_some_and(|s| self.seek(self.timeline.line.current(), s))
    }

    pub(super) fn apply_timeline(&mut self, a: TimelineAction) {
        let line = &self.timeline.line;
        let (current, cursor) = (line.current(), line.cursor());
        let b = line.current_branch();
        let (first, newest) = (b.first_reachable(), b.newest());
        match a {
            TimelineAction::Seek(s) => {
                self.seek(current, s.clamp(first, newest));
            }
            TimelineAction::SeekBy(n) => {
                let s = cursor.saturating_add_signed(n).clamp(first, newest);
                self.seek(current, s);
            }
            TimelineAction::SeekStart => {
                self.seek(current, first);
            }
            TimelineAction::SeekEnd => {
                self.seek(current, newest);
            }
            TimelineAction::SelectBranch(i) => match line.branch(i) {
                Some(to) => {
                    let s = cursor.clamp(to.first_reachable(), to.newest());
                    let from = current;
                    if self.seek(i, s) && self.timeline.compare == Some(i) {
                        self.timeline.compare = Some(from);
                        self.timeline.refresh_ghost();
                    }
                }
                None => self.error = Some(format!("no branch {i}")),
            },
            TimelineAction::Compare(c) => {
                if c.is_some_and(|i| line.branch(i).is_none()) {
                    self.error = Some(format!("no branch {}", c.unwrap_or_default()));
                } else {
                    self.timeline.compare = c;
                    self.timeline.refresh_ghost();
                }
            }
            TimelineAction::CheckDeterminism => self.check_determinism(),
            TimelineAction::Record(on) => self.set_recording(on),
            TimelineAction::SaveRecording(path) => self.save_recording(&path),
            TimelineAction::ShowProfiler(on) => self.timeline.profiler = on,
            TimelineAction::JumpToSlowest => {
                let w = profile_window(b.stats(), b.origin(), newest, profiler::PROFILE_STEPS);
                match w.slowest {
                    Some((s, _)) => {
                        self.seek(current, s);
                    }
                    None => self.notice = Some("no step to profile yet".into()),
                }
            }
        }
    }

    /// Shows `step` of `branch`; false (with a notice) when it cannot be reached.
    fn seek(&mut self, branch: usize, step: u64) -> bool {
        self.mode = RunMode::Paused;
        match self.timeline.line.seek(branch, step, &self.stage.world) {
            Some(w) => {
                self.world = w;
                self.history.clear();
                let n = self.world.bodies.len();
                self.selection.retain(|&i| i < n);
                self.world.mouse_joint = None;
                self.timeline.refresh_ghost();
                self.tools.world_changed(crate::app::tools::WorldChange::Jumped, &self.stage.world);
                true
            }
            None => {
                self.notice = Some(format!("step {step} is not kept"));
                false
            }
        }
    }

    fn check_determinism(&mut self) {
        let b = self.timeline.line.current_branch();
        let from = b.first_reachable();
        let Some(start) = self.timeline.line.world_at(self.timeline.line.current(), from, None) else { return };
        let steps = (b.newest() - from).clamp(1, CHECK_STEPS);
        let r = check_determinism(&start, steps);
        self.notice = Some(match r.divergences.first() {
            None if r.is_deterministic() => format!("deterministic over {steps} steps from step {from}"),
            None => "the determinism check could not take its snapshot".into(),
            Some(d) => format!(
                "not deterministic: {:?} run diverges after step {}{}",
                d.run,
                from + d.step,
                d.bodies.first().map_or(String::new(), |b| format!(" (body `{}` first)", b.name))
            ),
        });
        self.timeline.last_check = Some(r.to_text());
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
                Shape::Polygon(p) => {
                    let pts: Vec<_> = p.world_vertices(&xf).collect();
                    d.polygon(Layer::Shape, &pts, none, GHOST);
                }
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
