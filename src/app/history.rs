//! Step-back history: recent world states, bounded by an approximate memory budget so large
//! scenes keep fewer states.

use manifold_lab::engine::World;
use std::collections::VecDeque;

/// Bytes of history to keep at most.
const BUDGET_BYTES: usize = 64 * 1024 * 1024;
const MAX_STATES: usize = 600;

#[derive(Default)]
pub struct History {
    states: VecDeque<World>,
}

impl History {
    /// Rough size of one stored world.
    fn approx_bytes(w: &World) -> usize {
        // Bodies, their tree proxies (about 120 bytes each) and contacts.
        w.bodies.len() * (std::mem::size_of::<manifold_lab::engine::Body>() + 120)
            + w.contacts.len() * std::mem::size_of::<manifold_lab::engine::solver::Contact>()
            + 256
    }

    pub fn capacity_for(w: &World) -> usize {
        (BUDGET_BYTES / Self::approx_bytes(w)).clamp(1, MAX_STATES)
    }

    pub fn push(&mut self, w: &World) {
        let cap = Self::capacity_for(w);
        while self.states.len() >= cap {
            self.states.pop_front();
        }
        self.states.push_back(w.clone());
    }

    pub fn pop(&mut self) -> Option<World> {
        self.states.pop_back()
    }

    pub fn clear(&mut self) {
        self.states.clear();
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }
}
