//! What the timeline panel shows and does for any world the engine's `Timeline` keeps (the 2D
//! scene's `World`, the 3D lab's `World3`): the keyframes, the compared branch and its ghost
//! at the cursor, the per-body diff, the determinism check, and what each `TimelineAction`
//! asks of them. The 2D app (`AppTimeline`) and the 3D lab each hold one and apply the
//! resolved action to their own world.

use super::TimelineAction;
use manifold_lab::engine::determinism::check_determinism;
use manifold_lab::engine::timeline::diff::BodyDiff;
use manifold_lab::engine::timeline::profile::profile_window;
use manifold_lab::engine::timeline::{Cause, Observed, Timed, Timeline};

/// Steps the in-app determinism check runs at most.
const CHECK_STEPS: u64 = 600;

/// A timeline and what the window shows of it.
pub struct Scrub<W> {
    pub line: Timeline<W>,
    /// The branch compared with the shown one.
    pub compare: Option<usize>,
    /// The compared branch at the cursor, re-simulated when the cursor moves.
    ghost: Option<W>,
    /// The last determinism check's report.
    pub last_check: Option<String>,
}

/// What a timeline action asks, resolved against the timeline (its steps clamped to what the
/// branch reaches).
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved {
    /// Show `step` of `branch`; `swap` when the compared branch becomes the shown one (the
    /// one left is compared instead).
    Seek {
        branch: usize,
        step: u64,
        swap: bool,
    },
    /// Compare with another branch (or none); already applied.
    Compared,
    /// Run the determinism check.
    Check,
    /// Nothing to see (a notice says why).
    Notice(String),
    Error(String),
    /// An action of the 2D app alone (record, save, profiler).
    Other(TimelineAction),
}

impl<W: Timed> Scrub<W> {
    pub fn new(world: &W) -> Scrub<W> {
        Scrub { line: Timeline::new(world), compare: None, ghost: None, last_check: None }
    }

    /// The compared branch at the shown step, if it reaches it.
    pub fn ghost(&self) -> Option<&W> {
        self.ghost.as_ref().filter(|g| g.step_count() == self.line.cursor())
    }

    /// Bodies that differ most between the shown world and the ghost.
    pub fn diff(&self, world: &W) -> Vec<BodyDiff> {
        self.ghost().map(|g| world.differing_bodies(g)).unwrap_or_default()
    }

    /// Brings the ghost to the cursor (stepping on from the last ghost when it is behind).
    pub fn refresh_ghost(&mut self) {
        let (step, current) = (self.line.cursor(), self.line.current());
        let Some(b) = self.compare.filter(|&b| b != current) else {
            self.ghost = None;
            return;
        };
        if self.ghost.as_ref().is_some_and(|g| g.step_count() == step) {
            return;
        }
        let near = self.ghost.as_ref().filter(|g| g.step_count() < step);
        self.ghost = self.line.world_at(b, step, near);
    }

    /// Tells the timeline a step was taken; the error when the step did not reproduce the
    /// state the timeline holds for it.
    pub fn stepped(&mut self, world: &W) -> Option<String> {
        let seen = self.line.observe(world, Cause::Stepped);
        self.refresh_ghost();
        match seen {
            Observed::Diverged { step, branch } => Some(format!(
                "step {step} did not reproduce its stored state: the simulation is not deterministic here \
                 (the new run went to branch {branch})"
            )),
            _ => None,
        }
    }

    /// Tells the timeline the world was edited (a drag, a setting); at a past step that starts
    /// a branch, compared with the one it left: the notice saying so.
    pub fn edited(&mut self, world: &W) -> Option<String> {
        let seen = self.line.observe(world, Cause::Edited);
        let notice = match seen {
            Observed::Branched(b) => {
                self.compare = self.line.branch(b).and_then(|x| x.parent).map(|p| p.0);
                Some(format!("Edited at a past step: branch {b} started, the old future kept"))
            }
            _ => None,
        };
        self.refresh_ghost();
        notice
    }

    /// Tells the timeline the world was replaced by a kept state (step back); `edited` when it
    /// is not quite that state (settings kept through the step back).
    pub fn moved(&mut self, world: &W, edited: bool) {
        self.line.observe(world, if edited { Cause::Edited } else { Cause::Moved });
        self.refresh_ghost();
    }

    /// The step before the cursor on the branch, if it reaches one (←, ◀).
    pub fn back_target(&self) -> Option<u64> {
        let cursor = self.line.cursor();
        (cursor > self.line.current_branch().first_reachable()).then(|| cursor - 1)
    }

    /// Moves to `step` of `branch` and returns the world there (`None`: not kept).
    pub fn seek(&mut self, branch: usize, step: u64, shown: &W) -> Option<W> {
        let w = self.line.seek(branch, step, shown)?;
        self.refresh_ghost();
        Some(w)
    }

    /// After a seek that made the compared branch the shown one: compare with `from`.
    pub fn swap_compare(&mut self, from: usize) {
        self.compare = Some(from);
        self.refresh_ghost();
    }

    /// What `a` asks: a seek to make, the check to run, or an action of the app's own. A
    /// comparison is applied here.
    pub fn resolve(&mut self, a: TimelineAction, profile_steps: u64) -> Resolved {
        let line = &self.line;
        let (current, cursor) = (line.current(), line.cursor());
        let b = line.current_branch();
        let (first, newest) = (b.first_reachable(), b.newest());
        let seek = |step: u64| Resolved::Seek { branch: current, step: step.clamp(first, newest), swap: false };
        match a {
            TimelineAction::Seek(s) => seek(s),
            TimelineAction::SeekBy(n) => seek(cursor.saturating_add_signed(n)),
            TimelineAction::SeekStart => seek(first),
            TimelineAction::SeekEnd => seek(newest),
            TimelineAction::SelectBranch(i) => match line.branch(i) {
                Some(to) => Resolved::Seek {
                    branch: i,
                    step: cursor.clamp(to.first_reachable(), to.newest()),
                    swap: self.compare == Some(i),
                },
                None => Resolved::Error(format!("no branch {i}")),
            },
            TimelineAction::Compare(c) => match c {
                Some(i) if line.branch(i).is_none() => Resolved::Error(format!("no branch {i}")),
                _ => {
                    self.compare = c;
                    self.refresh_ghost();
                    Resolved::Compared
                }
            },
            TimelineAction::CheckDeterminism => Resolved::Check,
            TimelineAction::JumpToSlowest => match profile_window(b.stats(), b.origin(), newest, profile_steps).slowest
            {
                Some((s, _)) => Resolved::Seek { branch: current, step: s, swap: false },
                None => Resolved::Notice("no step to profile yet".into()),
            },
            other => Resolved::Other(other),
        }
    }

    /// Runs the determinism check from the current branch's first kept state; returns the
    /// notice (the whole report is kept in `last_check`).
    pub fn check_determinism(&mut self) -> Option<String> {
        let b = self.line.current_branch();
        let from = b.first_reachable();
        let start = self.line.world_at(self.line.current(), from, None)?;
        let steps = (b.newest() - from).clamp(1, CHECK_STEPS);
        let r = check_determinism(&start, steps);
        self.last_check = Some(r.to_text());
        Some(match r.divergences.first() {
            None if r.is_deterministic() => format!("deterministic over {steps} steps from step {from}"),
            None => "the determinism check could not take its snapshot".into(),
            Some(d) => format!(
                "not deterministic: {:?} run diverges after step {}{}",
                d.run,
                from + d.step,
                d.bodies.first().map_or(String::new(), |b| format!(" (body `{}` first)", b.name))
            ),
        })
    }
}
