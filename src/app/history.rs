//! Step-back history: recent world states, bounded by an approximate memory budget so large
//! scenes keep fewer states. Generic over the world kept (the 2D world, a lab's 3D world).

use manifold_lab::engine::World;
use std::collections::VecDeque;

/// Bytes of history to keep at most.
const BUDGET_BYTES: usize = 64 * 1024 * 1024;
const MAX_STATES: usize = 600;

/// A state the history can keep.
pub trait Snapshot: Clone {
    /// Rough size of one stored state, in bytes.
    fn approx_bytes(&self) -> usize;
}

impl Snapshot for World {
    fn approx_bytes(&self) -> usize {
        // Bodies, their tree proxies (about 120 bytes each) and contacts.
        self.bodies.len() * (std::mem::size_of::<manifold_lab::engine::Body>() + 120)
            + self.contacts.len() * std::mem::size_of::<manifold_lab::engine::solver::Contact>()
            + 256
    }
}

pub struct History<W: Snapshot = World> {
    states: VecDeque<W>,
}

impl<W: Snapshot> Default for History<W> {
    fn default() -> Self {
        History { states: VecDeque::new() }
    }
}

impl<W: Snapshot> History<W> {
    pub fn capacity_for(w: &W) -> usize {
        (BUDGET_BYTES / w.approx_bytes().max(1)).clamp(1, MAX_STATES)
    }

    pub fn push(&mut self, w: &W) {
        let cap = Self::capacity_for(w);
        while self.states.len() >= cap {
            self.states.pop_front();
        }
        self.states.push_back(w.clone());
    }

    pub fn pop(&mut self) -> Option<W> {
        self.states.pop_back()
    }

    /// The state kept last (the one before the last step or edit).
    pub fn last(&self) -> Option<&W> {
        self.states.back()
    }

    pub fn clear(&mut self) {
        self.states.clear();
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }
}
