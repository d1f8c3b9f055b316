//! The whole run, reachable: keyframes (`World` snapshots) within a memory budget, per-step
//! counters for every step, and deterministic re-simulation from the nearest keyframe to reach
//! any step. Keyframes are spaced by what re-simulation costs, not by a step count: one is
//! kept once the steps since the last took `segment_ms` of step time, so a sleeping world
//! needs few and a busy one many; when memory runs short `segment_ms` grows by a quarter and keyframes
//! whose neighbours are close enough are dropped. An edit (a world change that is not a step) pins a keyframe
//! of the edited state; an edit at a past step starts a new branch and keeps the old future.

mod branch;
pub mod diff;
pub mod profile;
pub mod stats;
pub mod timed;

pub use branch::Branch;
pub use stats::{Counter, Phase, StepStats};
pub use timed::Timed;

use crate::engine::World;
use std::collections::HashSet;
use std::sync::Arc;

/// Keyframe memory the app allows by default.
pub const DEFAULT_BUDGET_BYTES: usize = 256 * 1024 * 1024;
/// Re-simulation a keyframe stretch may cost at first, ms of recorded step time.
pub const FIRST_SEGMENT_MS: f32 = 16.0;
/// Each re-simulated step counts at least this much, ms (see `Branch::cost`).
pub const STEP_FLOOR_MS: f32 = 0.02;
/// How much the stretch's cost grows when memory runs short: finer than doubling, so the
/// stretch ends close to the least the budget allows.
const SEGMENT_GROWTH: f32 = 1.25;
/// The stretch's cost stops growing here (the oldest keyframes are dropped instead).
const MAX_SEGMENT_MS: f32 = 1.0e6;

/// Rough size of one stored world, in bytes: bodies with their tree proxies, contacts, joints.
pub fn world_bytes(w: &World) -> usize {
    w.bodies.len() * (std::mem::size_of::<crate::engine::Body>() + 120)
        + w.contacts.len() * std::mem::size_of::<crate::engine::solver::Contact>()
        + std::mem::size_of_val(w.joints())
        + w.water.as_ref().map_or(0, |water| water.state.heights.len() * 8)
        + 512
}

/// What the timeline learned from `observe`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observed {
    /// The world followed the timeline (a new step at the head, or a known step).
    Followed,
    /// An edit at the head replaced the state of that step.
    EditedHead,
    /// An edit at a past step started branch `0`.
    Branched(usize),
    /// A re-simulated step did not reproduce the stored hash: the step is nondeterministic.
    /// The new state went to branch `branch`.
    Diverged { step: u64, branch: usize },
}

/// How the world came to be what `observe` is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// `World::step` ran once.
    Stepped,
    /// Something other than a step changed it (a drag, a parameter, a slice).
    Edited,
    /// It was replaced by a state the timeline should know (step back).
    Moved,
}

/// Branches of keyframes and counters, and where the shown world is on them. Any [`Timed`]
/// world: the 2D `World` (the default) or the 3D `World3`.
pub struct Timeline<W = World> {
    branches: Vec<Branch<W>>,
    current: usize,
    cursor: u64,
    /// Recorded step time a stretch between keyframes may hold, ms (grows when memory runs
    /// short).
    segment_ms: f32,
    budget: usize,
}

impl<W: Timed> Timeline<W> {
    /// A timeline starting at `world` with the default budget.
    pub fn new(world: &W) -> Timeline<W> {
        Timeline::with_budget(world, DEFAULT_BUDGET_BYTES)
    }

    /// A timeline starting at `world` that keeps at most about `budget` bytes of keyframes.
    pub fn with_budget(world: &W, budget: usize) -> Timeline<W> {
        Timeline {
            branches: vec![Branch::start(0, "main".into(), None, world)],
            current: 0,
            cursor: world.step_count(),
            segment_ms: FIRST_SEGMENT_MS,
            budget,
        }
    }

    pub fn branches(&self) -> &[Branch<W>] {
        &self.branches
    }

    pub fn branch(&self, i: usize) -> Option<&Branch<W>> {
        self.branches.get(i)
    }

    /// The branch the shown world is on.
    pub fn current(&self) -> usize {
        self.current
    }

    pub fn current_branch(&self) -> &Branch<W> {
        &self.branches[self.current]
    }

    /// The step the shown world is at.
    pub fn cursor(&self) -> u64 {
        self.cursor
    }

    /// The step time a stretch between keyframes may hold, ms: about the longest a seek
    /// re-simulates (see `Branch::worst_seek_cost` for the actual figure).
    pub fn segment_ms(&self) -> f32 {
        self.segment_ms
    }

    /// Mean steps between the current branch's keyframes.
    pub fn mean_spacing(&self) -> f64 {
        let b = self.current_branch();
        (b.newest() - b.first_reachable()) as f64 / b.keyframe_count().max(1) as f64
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Bytes held by keyframes, each shared snapshot counted once.
    pub fn keyframe_bytes(&self) -> usize {
        let mut seen = HashSet::new();
        self.branches
            .iter()
            .flat_map(|b| b.keyframes())
            .filter(|(_, k)| seen.insert(Arc::as_ptr(&k.world)))
            .map(|(_, k)| k.bytes)
            .sum()
    }

    pub fn keyframe_count(&self) -> usize {
        let mut seen = HashSet::new();
        self.branches.iter().flat_map(|b| b.keyframes()).filter(|(_, k)| seen.insert(Arc::as_ptr(&k.world))).count()
    }

    /// Tells the timeline what the shown world is now and why; keeps keyframes, counters,
    /// branches and the cursor in step with it.
    pub fn observe(&mut self, world: &W, cause: Cause) -> Observed {
        let step = world.step_count();
        let b = &self.branches[self.current];
        let known = b.stats_at(step).map(|s| s.hash);
        match cause {
            Cause::Stepped | Cause::Moved if known == Some(world.hash()) => {
                self.cursor = step;
                Observed::Followed
            }
            Cause::Stepped if step == b.newest() + 1 && self.cursor == b.newest() => {
                let branch = &mut self.branches[self.current];
                branch.push(world, self.segment_ms);
                self.cursor = step;
                self.enforce_budget();
                Observed::Followed
            }
            Cause::Stepped if known.is_some() => {
                let branch = self.fork(world, step);
                Observed::Diverged { step, branch }
            }
            _ if step == b.newest() || known.is_none() && step > b.newest() => {
                let branch = &mut self.branches[self.current];
                branch.pin_head(world);
                self.cursor = step;
                self.enforce_budget();
                Observed::EditedHead
            }
            _ => Observed::Branched(self.fork(world, step)),
        }
    }

    /// Starts a branch from the current one at `step` with `world` as its state there.
    fn fork(&mut self, world: &W, step: u64) -> usize {
        let id = self.branches.len();
        let parent = &self.branches[self.current];
        let b = parent.fork(id, format!("branch {id}"), world, step);
        self.branches.push(b);
        self.current = id;
        self.cursor = step;
        self.enforce_budget();
        id
    }

    /// The world of branch `branch` at `step`, re-simulated from the nearest keyframe (or from
    /// `near`, a world of that branch at an earlier step past that keyframe, when given).
    /// `None` when the step is outside what the branch can reach.
    pub fn world_at(&self, branch: usize, step: u64, near: Option<&W>) -> Option<W> {
        let b = self.branches.get(branch)?;
        if step < b.first_reachable() || step > b.newest() {
            return None;
        }
        let (kf_step, kf) = b.keyframe_at_or_before(step)?;
        let mut w = match near {
            Some(n) if n.step_count() >= kf_step && n.step_count() <= step => n.clone(),
            _ => (*kf.world).clone(),
        };
        while w.step_count() < step {
            w.advance();
        }
        w.rebuild_derived();
        Some(w)
    }

    /// Moves the cursor to `step` of `branch` (switching branch) and returns the world there.
    /// `shown` is the world shown now, reused when it is on the way.
    pub fn seek(&mut self, branch: usize, step: u64, shown: &W) -> Option<W> {
        let near = (branch == self.current && shown.step_count() == self.cursor).then_some(shown);
        let w = self.world_at(branch, step, near)?;
        self.current = branch;
        self.cursor = step;
        Some(w)
    }

    /// The first step where the counters' state hashes of two branches differ, within the
    /// steps both have, or `None` if they agree everywhere both reach.
    pub fn first_divergence(&self, a: usize, b: usize) -> Option<u64> {
        let (a, b) = (self.branches.get(a)?, self.branches.get(b)?);
        let from = a.origin().max(b.origin());
        let to = a.newest().min(b.newest());
        (from..=to).find(|&s| a.stats_at(s).map(|x| x.hash) != b.stats_at(s).map(|x| x.hash))
    }

    /// Keeps keyframes within the budget: grows the stretch cost and drops the keyframes
    /// that allows; if edits pinned too many, drops the oldest keyframes (those steps become
    /// unreachable, the counters stay).
    fn enforce_budget(&mut self) {
        while self.keyframe_bytes() > self.budget && self.segment_ms < MAX_SEGMENT_MS {
            self.segment_ms *= SEGMENT_GROWTH;
            let c = self.segment_ms;
            for b in &mut self.branches {
                b.thin(c);
            }
        }
        while self.keyframe_bytes() > self.budget {
            let biggest = (0..self.branches.len()).max_by_key(|&i| self.branches[i].keyframe_count());
            match biggest {
                Some(i) if self.branches[i].drop_oldest() => {}
                _ => break,
            }
        }
    }
}

#[cfg(test)]
mod tests;
