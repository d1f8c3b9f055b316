//! The tree lab's insertion stepping (003 article, "Dynamic AABB Tree" → "Insert", "Update"):
//! "insert one" adds a proxy at a random place and "move one" moves a random proxy and
//! reinserts it, each recording a [`TreeTrace`] (candidates with their cost, the chosen
//! sibling, the new parent, refits, rotations) that a slider walks.

use super::proxies::{Mover, Proxies};
use glam::Vec2;
use manifold_lab::engine::broadphase::TreeTrace;
use manifold_lab::engine::math::Aabb;

/// The last traced operation and the step shown.
#[derive(Clone, Debug, Default)]
pub struct Insertion {
    pub trace: TreeTrace,
    /// What was done ("insert proxy 2001").
    pub what: String,
    /// The step shown (`None` = the last).
    pub step: Option<usize>,
}

impl Proxies {
    /// A random box in the square.
    fn random_box(&mut self) -> Aabb {
        let c = Vec2::new(self.random(), self.random()) * self.region;
        let h = Vec2::new(0.1 + 0.4 * self.random(), 0.1 + 0.4 * self.random());
        Aabb::new(c - h, c + h)
    }

    /// Inserts a new proxy at a random place, recorded.
    pub fn insert_one_traced(&mut self) -> Insertion {
        let tight = self.random_box();
        let mut trace = TreeTrace::default();
        let proxy = self.tree.create_proxy_traced(tight, self.movers.len() as u32, &mut trace);
        self.movers.push(Mover { proxy, tight, velocity: Vec2::ZERO });
        self.run_query();
        Insertion { trace, what: format!("insert proxy {proxy}"), step: None }
    }

    /// Moves a random proxy to a random place and reinserts it, recorded (`None` without
    /// proxies).
    pub fn move_one_traced(&mut self) -> Option<Insertion> {
        if self.movers.is_empty() {
            return None;
        }
        let i = ((self.random() * self.movers.len() as f32) as usize).min(self.movers.len() - 1);
        let tight = self.random_box();
        let proxy = self.movers[i].proxy;
        let mut trace = TreeTrace::default();
        if !self.tree.reinsert_proxy_traced(proxy, tight, &mut trace) {
            return None;
        }
        self.movers[i].tight = tight;
        self.run_query();
        Some(Insertion { trace, what: format!("move proxy {proxy}"), step: None })
    }
}
