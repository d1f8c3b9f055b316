//! A world's snapshot for keyframes: the state a step reads, without what a step rebuilds.
//! The broadphase tree and pairs, the islands, the solver's scratch arrays, the narrowphase's record of poses and the joints'
//! contact filter are derived data; a world restored without them steps exactly as the
//! original (`tests/timeline.rs` checks every shipped scene), so keyframes leave them out and
//! hold only bodies, contacts, joints, water and parameters.

use super::contacts::NarrowphaseCache;
use super::{StepProfile, World};
use crate::engine::solver::SolverScratch;
use std::sync::OnceLock;

impl World {
    /// A copy of the world without its derived data (see the module docs). Stepping it gives
    /// the same states as stepping `self`; its first step rebuilds the broadphase.
    pub fn snapshot(&self) -> World {
        World {
            params: self.params.clone(),
            bodies: self.bodies.clone(),
            contacts: self.contacts.clone(),
            mouse_joint: self.mouse_joint.clone(),
            joints: self.joints.clone(),
            broken_joints: self.broken_joints,
            step_count: self.step_count,
            profile: StepProfile::default(),
            broadphase: self.broadphase.emptied(),
            islands: OnceLock::new(),
            joint_filter: None,
            last_params: self.last_params.clone(),
            water: self.water.clone(),
            solver_scratch: SolverScratch::default(),
            narrowphase: NarrowphaseCache::default(),
            toi_events: Default::default(),
            spawner: self.spawner.clone(),
        }
    }

    /// Rebuilds what a snapshot left out and the view reads between steps: the broadphase
    /// tree (for drawing and ray casts) and the islands.
    pub fn rebuild_derived(&mut self) {
        self.sync_broadphase();
        if self.islands.get().is_some_and(|islands| islands.of_body.len() != self.bodies.len()) {
            self.islands = OnceLock::new();
        }
        self.islands();
    }
}
