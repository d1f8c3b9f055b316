//! Per-step counters kept for every step of a timeline (small, so all of them are kept).

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
