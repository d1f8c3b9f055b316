//! What the timeline needs of a world, so the 2D `World` and the 3D `World3` share one
//! timeline (keyframes, seek, branches, ghosts and diffs): the determinism check's
//! [`Stepped`] (step, hash, snapshot through serde, per-body diff) plus the step count, a
//! keyframe copy, its size and the per-step counters.

use super::stats::{Counter, Phase, StepStats};
use super::world_bytes;
use crate::engine::determinism::Stepped;
use crate::engine::world3d::{Contact3, World3};
use crate::engine::World;

/// A world a [`super::Timeline`] can keep: stepped, hashed, copied as a keyframe, measured.
pub trait Timed: Stepped {
    /// The counters the timeline plots for this world.
    const COUNTERS: &'static [Counter] = &Counter::ALL;
    /// Steps taken since the world was built (the timeline's step numbers).
    fn step_count(&self) -> u64;
    /// A copy that steps exactly as `self` does, without data a step rebuilds.
    fn keyframe(&self) -> Self;
    /// Rough bytes a keyframe of this world holds (what the memory budget counts).
    fn keyframe_bytes(&self) -> usize;
    /// The counters of the world as it is; `stepped` says whether its profile belongs to a
    /// step just taken (otherwise timings are zero).
    fn step_stats(&self, stepped: bool) -> StepStats;
    /// Rebuilds what the view reads between steps after a seek (nothing by default).
    fn rebuild_derived(&mut self) {}
}

impl Timed for World {
    fn step_count(&self) -> u64 {
        self.step_count
    }
    fn keyframe(&self) -> World {
        self.snapshot()
    }
    fn keyframe_bytes(&self) -> usize {
        world_bytes(self)
    }
    fn step_stats(&self, stepped: bool) -> StepStats {
        StepStats::of(self, stepped)
    }
    fn rebuild_derived(&mut self) {
        World::rebuild_derived(self);
    }
}

impl Timed for World3 {
    /// No time-of-impact events: the 3D world has no continuous pass.
    const COUNTERS: &'static [Counter] =
        &[Counter::Contacts, Counter::KineticEnergy, Counter::MaxPenetration, Counter::StepMs];
    fn step_count(&self) -> u64 {
        self.step_count
    }
    /// A whole copy: the hulls are shared (`Arc`), and the separating-axis cache and the
    /// contacts are state a step reads.
    fn keyframe(&self) -> World3 {
        self.clone()
    }
    fn keyframe_bytes(&self) -> usize {
        self.bodies.len() * std::mem::size_of::<crate::engine::world3d::Body3>()
            + self.contacts.len() * (std::mem::size_of::<Contact3>() + 4 * 96)
            + self.sat_cache.axes.len() * 32
            + 1024
    }
    /// The 3D step times collision (pairs and narrowphase) and the solve: they go to the
    /// narrowphase and solve phases.
    fn step_stats(&self, stepped: bool) -> StepStats {
        let p = &self.profile;
        let mut phases = [0.0; Phase::COUNT];
        if stepped {
            phases[Phase::Narrowphase as usize] = p.collide_ms;
            phases[Phase::Solve as usize] = p.solve_ms;
        }
        StepStats {
            contacts: self.contacts.len() as u32,
            contact_points: self.contacts.iter().map(|c| c.points.len()).sum::<usize>() as u32,
            kinetic_energy: self.kinetic_energy(),
            max_penetration: self.max_penetration(),
            step_ms: if stepped { p.total_ms } else { 0.0 },
            toi_events: 0,
            hash: self.state_hash(),
            phases,
            pairs: if stepped { p.pairs.candidates as u32 } else { 0 },
            awake_bodies: self.bodies.iter().filter(|b| b.is_dynamic()).count() as u32,
        }
    }
}
