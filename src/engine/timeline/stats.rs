//! Per-step counters kept for every step of a timeline (small, so all of them are kept).

use crate::engine::world::StepProfile;
use crate::engine::World;
use serde::{Deserialize, Serialize};

/// What one step produced, read from the world right after it (and after any edit made at
/// that step, which replaces the entry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepStats {
    pub contacts: u32,
    pub contact_points: u32,
    pub kinetic_energy: f32,
    pub max_penetration: f32,
    /// Wall time of the step, ms (0 for the initial state and for edits).
    pub step_ms: f32,
    /// Bodies moved back to a time of impact during the step.
    pub toi_events: u32,
    pub hash: u64,
    /// The step's time by phase, ms, in [`Phase::ALL`] order (zero for edits).
    #[serde(default)]
    pub phases: [f32; Phase::COUNT],
    /// Candidate pairs from the broadphase.
    #[serde(default)]
    pub pairs: u32,
    /// Awake dynamic bodies after the step.
    #[serde(default)]
    pub awake_bodies: u32,
}

/// A phase of the step, as `StepProfile` times it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Broadphase,
    Narrowphase,
    /// Islands, the sub-stepped solve of contacts and joints, joint breaking and sleep.
    Solve,
    Continuous,
    Water,
}

impl Phase {
    pub const COUNT: usize = 5;
    pub const ALL: [Phase; Phase::COUNT] =
        [Phase::Broadphase, Phase::Narrowphase, Phase::Solve, Phase::Continuous, Phase::Water];

    pub fn label(self) -> &'static str {
        match self {
            Phase::Broadphase => "broadphase",
            Phase::Narrowphase => "narrowphase",
            Phase::Solve => "solve (contacts, joints, sleep)",
            Phase::Continuous => "continuous (TOI)",
            Phase::Water => "water",
        }
    }

    /// The phase's time in a step profile, ms.
    pub fn of(self, p: &StepProfile) -> f32 {
        match self {
            Phase::Broadphase => p.broadphase_ms,
            Phase::Narrowphase => p.narrowphase_ms,
            // The water's forces are timed inside the solve.
            Phase::Solve => (p.solve_ms - p.water_ms).max(0.0),
            Phase::Continuous => p.ccd_ms,
            Phase::Water => p.water_ms,
        }
    }
}

impl StepStats {
    /// The counters of `world` as it is now; `stepped` says whether its profile belongs to a
    /// step just taken (otherwise timings and events are zero).
    pub fn of(world: &World, stepped: bool) -> StepStats {
        let points: usize = world.contacts.iter().map(|c| c.manifold.count).sum();
        StepStats {
            contacts: world.contacts.len() as u32,
            contact_points: points as u32,
            kinetic_energy: world.kinetic_energy(),
            max_penetration: world.max_penetration(),
            step_ms: if stepped { world.profile.total_ms } else { 0.0 },
            toi_events: if stepped { world.profile.toi_events as u32 } else { 0 },
            hash: world.state_hash(),
            phases: if stepped { Phase::ALL.map(|p| p.of(&world.profile)) } else { [0.0; Phase::COUNT] },
            pairs: if stepped { world.profile.pairs as u32 } else { 0 },
            awake_bodies: world.awake_body_count() as u32,
        }
    }
}

/// A counter the timeline can plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Counter {
    Contacts,
    KineticEnergy,
    MaxPenetration,
    StepMs,
    ToiEvents,
}

impl Counter {
    pub const ALL: [Counter; 5] =
        [Counter::Contacts, Counter::KineticEnergy, Counter::MaxPenetration, Counter::StepMs, Counter::ToiEvents];

    pub fn label(self) -> &'static str {
        match self {
            Counter::Contacts => "contacts",
            Counter::KineticEnergy => "kinetic energy (J)",
            Counter::MaxPenetration => "max penetration (m)",
            Counter::StepMs => "step (ms)",
            Counter::ToiEvents => "TOI events",
        }
    }

    pub fn value(self, s: &StepStats) -> f64 {
        match self {
            Counter::Contacts => s.contacts as f64,
            Counter::KineticEnergy => s.kinetic_energy as f64,
            Counter::MaxPenetration => s.max_penetration as f64,
            Counter::StepMs => s.step_ms as f64,
            Counter::ToiEvents => s.toi_events as f64,
        }
    }
}
