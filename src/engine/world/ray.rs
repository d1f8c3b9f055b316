//! `World::ray_cast` through the dynamic tree (003 article, "Dynamic AABB Tree" → "Queries":
//! raycasts against the tree, then against the shapes of the leaves the ray reaches), keeping
//! the closest hit by clipping the ray as hits are found.

use crate::engine::broadphase::pair_finder::PairFinding;
use crate::engine::broadphase::tree_query::ray_may_cross;
use crate::engine::broadphase::tree_query::QueryStats;
use crate::engine::math::Aabb;
use crate::engine::shape::ray::RayCastInput;
use crate::engine::world::World;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The first body a ray enters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayHit {
    pub body: usize,
    pub point: Vec2,
    /// Outward surface normal at `point` (zero when the ray starts inside `body`).
    pub normal: Vec2,
    /// Fraction of the translation at which the ray enters.
    pub fraction: f32,
}

/// A ray cast with its work shown: the closest hit, every body the segment enters (by
/// fraction), and the tree nodes the closest-hit query tested.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RayTrace {
    pub closest: Option<RayHit>,
    /// Every body the segment enters, nearest first (ties by body index).
    pub hits: Vec<RayHit>,
    /// The nodes the closest-hit query tested, in order, with whether the ray may cross
    /// each (entered) or it was culled; empty when the world keeps no tree.
    pub visited: Vec<(Aabb, bool)>,
    pub stats: QueryStats,
}

impl World {
    /// [`World::ray_cast`] with its work recorded for drawing (the ray tool): the same
    /// closest hit, the tree nodes that query visited, and every body the segment enters.
    pub fn ray_cast_traced(&self, origin: Vec2, translation: Vec2) -> RayTrace {
        let mut trace = RayTrace { closest: self.ray_cast(origin, translation), ..Default::default() };
        if !(origin.is_finite() && translation.is_finite()) {
            return trace;
        }
        let input = RayCastInput::new(origin, translation);
        if self.broadphase.has_proxies_for(self.bodies.len()) {
            let tree = &self.broadphase.tree;
            let mut best = f32::INFINITY;
            let visited = &mut trace.visited;
            // The same query as `ray_cast`, replayed to record the nodes it tests.
            trace.stats = tree.ray_cast_visiting(
                &input,
                |id, hit| visited.push((tree.nodes()[id as usize].aabb, hit)),
                |sub, _, body| {
                    let b = &self.bodies[body as usize];
                    match b.ray_cast(sub) {
                        Some(out) => {
                            best = best.min(out.fraction);
                            best
                        }
                        None if best.is_finite() => best,
                        None => -1.0,
                    }
                },
            );
        }
        for (body, b) in self.bodies.iter().enumerate() {
            if !ray_may_cross(&b.compute_aabb(), &input) {
                continue;
            }
            if let Some(out) = b.ray_cast(&input) {
                trace.hits.push(RayHit { body, point: out.point, normal: out.normal, fraction: out.fraction });
            }
        }
        trace.hits.sort_by(|x, y| x.fraction.total_cmp(&y.fraction).then(x.body.cmp(&y.body)));
        trace
    }

    /// The closest body hit by the segment `origin → origin + translation`, found through the
    /// broadphase tree (brute force over all bodies when the world keeps no tree). A ray that
    /// starts inside a body hits it at fraction 0. Ties go to the lower body index.
    ///
    /// The tree is as of the last step: after moving bodies by hand, call
    /// [`World::sync_broadphase`] first.
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2) -> Option<RayHit> {
        let input = RayCastInput::new(origin, translation);
        let mut best: Option<RayHit> = None;
        let mut consider = |sub: &RayCastInput, body: usize| -> f32 {
            let b = &self.bodies[body];
            let Some(out) = b.ray_cast(sub) else { return -1.0 };
            let better =
                best.is_none_or(|h| out.fraction < h.fraction || (out.fraction == h.fraction && body < h.body));
            if better {
                best = Some(RayHit { body, point: out.point, normal: out.normal, fraction: out.fraction });
            }
            // Clip the ray at the closest hit so far (0 stops the cast: nothing is closer).
            best.map_or(-1.0, |h| h.fraction)
        };
        if self.broadphase.has_proxies_for(self.bodies.len()) {
            self.broadphase.tree.ray_cast(&input, |sub, _, body| consider(sub, body as usize));
        } else {
            let mut max_fraction = input.max_fraction;
            for (i, b) in self.bodies.iter().enumerate() {
                let sub = RayCastInput { max_fraction, ..input };
                if ray_may_cross(&b.compute_aabb(), &sub) {
                    let clip = consider(&sub, i);
                    if clip >= 0.0 {
                        max_fraction = clip;
                    }
                }
            }
        }
        best
    }

    /// Brings the broadphase tree up to date with the bodies now (after the app moved,
    /// reshaped, added or removed bodies between steps). `step` does this by itself.
    pub fn sync_broadphase(&mut self) {
        if self.broadphase.mode == PairFinding::Tree {
            self.broadphase.synchronize(&self.bodies, self.params.speculative_margin);
        }
    }
}
