//! Scene-level step rules that create and destroy bodies while the world runs (Box2D's
//! benchmark app's step functions, its `shared/benchmarks.c`): the rule lives in the world,
//! runs at the start of each step, before the collision, as Box2D's app calls its step
//! function before `b2World_Step`, and is part of the world's state (snapshots, saves, the
//! state hash), so a timeline scrubs across a spawn and a recording replays it.
//!
//! A rule works through a [`SpawnHost`] (the world, or a peer engine mirroring it), so the
//! same rule drives both sides of a comparison.

pub mod human;
pub mod rain;

pub use human::{HumanDef, HumanFilter, HUMAN_BONES, HUMAN_JOINTS, HUMAN_SHAPES};
pub use rain::{RagdollRain, RainState};
use serde::{Deserialize, Serialize};

/// What a step rule needs of the world it changes.
pub trait SpawnHost {
    /// Bodies in the world; a new body gets this index.
    fn body_count(&self) -> usize;
    /// Removes the bodies at these indices (ascending, distinct) with their joints and
    /// contacts; later bodies move down.
    fn remove_bodies(&mut self, sorted: &[usize]);
    /// Appends one human's bodies (in [`HumanDef::bodies`]'s order) and joints.
    fn add_human(&mut self, human: &HumanDef);
}

/// A step rule of a scene (`spawner:` in a scene file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Spawner {
    /// Box2D's rain benchmark: columns of ragdoll groups dropped every few steps.
    RagdollRain(RagdollRain),
}

impl Spawner {
    /// Runs the rule before step `step` (the world's `step_count`).
    pub fn apply(&mut self, step: u64, host: &mut dyn SpawnHost) {
        match self {
            Spawner::RagdollRain(r) => r.apply(step, host),
        }
    }

    /// What is wrong with its parameters, the field named in backticks.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Spawner::RagdollRain(r) => r.check(),
        }
    }

    /// Most bodies the rule keeps in the world at once.
    pub fn max_bodies(&self) -> u64 {
        match self {
            Spawner::RagdollRain(r) => r.max_bodies(),
        }
    }

    /// After the world removed bodies `removed` (ascending) by other means: the rule's own
    /// bodies are renumbered, and those removed are no longer its to destroy.
    pub fn forget(&mut self, removed: &[usize]) {
        match self {
            Spawner::RagdollRain(r) => r.forget(removed),
        }
    }

    /// The rule's state in a hash (the bodies it made are in the world's hash already).
    pub fn state_words(&self) -> Vec<u32> {
        match self {
            Spawner::RagdollRain(r) => {
                let s = &r.state;
                let mut words = vec![s.column_count, s.column_index];
                words.extend(s.groups.iter().flat_map(|g| [g.0, g.1]));
                words
            }
        }
    }
}
