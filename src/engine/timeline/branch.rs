//! One line of history: keyframes by step and the counters of every step.

use super::stats::StepStats;
use super::timed::Timed;
use super::STEP_FLOOR_MS;
use crate::engine::World;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A stored world. Branches share the keyframes before their fork.
pub struct Keyframe<W = World> {
    pub world: Arc<W>,
    /// Pinned keyframes hold an edit (or the start) and are never thinned away.
    pub pinned: bool,
    pub bytes: usize,
}

// Derived `Clone` would ask `W: Clone`; a keyframe's clone shares the world.
impl<W> Clone for Keyframe<W> {
    fn clone(&self) -> Self {
        Keyframe { world: Arc::clone(&self.world), pinned: self.pinned, bytes: self.bytes }
    }
}

impl<W: Timed> Keyframe<W> {
    fn of(world: &W, pinned: bool) -> Keyframe<W> {
        Keyframe { world: Arc::new(world.keyframe()), pinned, bytes: world.keyframe_bytes() }
    }
}

/// A branch: where it came from, its keyframes and its per-step counters.
pub struct Branch<W = World> {
    pub id: usize,
    pub name: String,
    /// The branch it was forked from and the step of the edit that started it.
    pub parent: Option<(usize, u64)>,
    keyframes: BTreeMap<u64, Keyframe<W>>,
    /// Counters of steps `origin ..= newest`.
    stats: Vec<StepStats>,
    origin: u64,
}

impl<W: Timed> Branch<W> {
    /// A branch whose first state is `world`.
    pub(super) fn start(id: usize, name: String, parent: Option<(usize, u64)>, world: &W) -> Branch<W> {
        let mut keyframes = BTreeMap::new();
        let origin = world.step_count();
        keyframes.insert(origin, Keyframe::of(world, true));
        Branch { id, name, parent, keyframes, stats: vec![world.step_stats(false)], origin }
    }

    /// The first step with counters.
    pub fn origin(&self) -> u64 {
        self.origin
    }

    /// The last step reached.
    pub fn newest(&self) -> u64 {
        self.origin + self.stats.len() as u64 - 1
    }

    /// The first step a seek can reach (the oldest keyframe kept).
    pub fn first_reachable(&self) -> u64 {
        self.keyframes.keys().next().copied().unwrap_or(self.origin)
    }

    pub fn stats(&self) -> &[StepStats] {
        &self.stats
    }

    pub fn stats_at(&self, step: u64) -> Option<&StepStats> {
        let i = usize::try_from(step.checked_sub(self.origin)?).ok()?;
        self.stats.get(i)
    }

    pub fn keyframes(&self) -> impl Iterator<Item = (&u64, &Keyframe<W>)> {
        self.keyframes.iter()
    }

    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }

    pub(super) fn keyframe_at_or_before(&self, step: u64) -> Option<(u64, &Keyframe<W>)> {
        self.keyframes.range(..=step).next_back().map(|(&s, k)| (s, k))
    }

    /// Appends the state after a new step; keeps it as a keyframe once re-simulating from the
    /// previous keyframe would cost `segment_ms`.
    pub(super) fn push(&mut self, world: &W, segment_ms: f32) {
        self.stats.push(world.step_stats(true));
        let last = self.keyframes.keys().next_back().copied().unwrap_or(self.origin);
        if self.cost(last, world.step_count()) >= segment_ms {
            self.keyframes.insert(world.step_count(), Keyframe::of(world, false));
        }
    }

    /// What re-simulating from step `from` to step `to` costs, ms: the recorded time of each
    /// step, at least [`STEP_FLOOR_MS`] (steps of a sleeping world are nearly free, but not
    /// quite, and edits record no time).
    pub fn cost(&self, from: u64, to: u64) -> f32 {
        (from + 1..=to).map(|s| self.stats_at(s).map_or(0.0, |x| x.step_ms).max(STEP_FLOOR_MS)).sum()
    }

    /// The most a seek on this branch re-simulates, ms: the costliest stretch from a keyframe
    /// to the step before the next one (or to the newest step).
    pub fn worst_seek_cost(&self) -> f32 {
        let steps: Vec<u64> = self.keyframes.keys().copied().collect();
        let ends = steps.iter().skip(1).map(|&s| s - 1).chain(std::iter::once(self.newest()));
        steps.iter().zip(ends).map(|(&a, b)| self.cost(a, b.max(a))).fold(0.0, f32::max)
    }

    /// Replaces the head's state by an edited one (pinned). A world beyond the head fills the
    /// gap with the edited counters.
    pub(super) fn pin_head(&mut self, world: &W) {
        let step = world.step_count();
        let mut stats = world.step_stats(false);
        if let Some(old) = self.stats_at(step) {
            // Keep the step's timing: the edit came after it.
            (stats.step_ms, stats.toi_events) = (old.step_ms, old.toi_events);
        }
        while self.newest() < step {
            self.stats.push(stats);
        }
        let last = self.stats.len() - 1;
        self.stats[last] = stats;
        self.keyframes.insert(step, Keyframe::of(world, true));
    }

    /// A new branch that shares this one's past up to `step` and has `world` there.
    pub(super) fn fork(&self, id: usize, name: String, world: &W, step: u64) -> Branch<W> {
        let mut keyframes: BTreeMap<u64, Keyframe<W>> =
            self.keyframes.range(..step).map(|(&s, k)| (s, k.clone())).collect();
        keyframes.insert(step, Keyframe::of(world, true));
        let origin = self.origin.min(step);
        let kept = usize::try_from(step.saturating_sub(self.origin)).unwrap_or(usize::MAX).min(self.stats.len());
        let mut stats: Vec<StepStats> = if step >= self.origin { self.stats[..kept].to_vec() } else { Vec::new() };
        let mut new = world.step_stats(false);
        if let Some(old) = self.stats_at(step) {
            (new.step_ms, new.toi_events) = (old.step_ms, old.toi_events);
        }
        // A fork past the head (not expected) repeats the edit's counters over the gap.
        while (stats.len() as u64) < step - origin {
            stats.push(new);
        }
        stats.push(new);
        Branch { id, name, parent: Some((self.id, step)), keyframes, stats, origin }
    }

    /// Drops regular keyframes whose neighbours are close enough: walking from the oldest, a
    /// keyframe goes when re-simulating from the last one kept to the next would cost at most
    /// `segment_ms` (pinned keyframes stay).
    pub(super) fn thin(&mut self, segment_ms: f32) {
        let steps: Vec<u64> = self.keyframes.keys().copied().collect();
        let Some(&first) = steps.first() else { return };
        let mut last = first;
        let mut dropped = Vec::new();
        for (i, &s) in steps.iter().enumerate().skip(1) {
            let next = steps.get(i + 1).copied().unwrap_or(self.newest());
            if !self.keyframes[&s].pinned && self.cost(last, next) <= segment_ms {
                dropped.push(s);
            } else {
                last = s;
            }
        }
        for s in dropped {
            self.keyframes.remove(&s);
        }
    }

    /// Drops the oldest keyframe if another remains; false when none could go.
    pub(super) fn drop_oldest(&mut self) -> bool {
        if self.keyframes.len() < 2 {
            return false;
        }
        self.keyframes.pop_first();
        true
    }
}
