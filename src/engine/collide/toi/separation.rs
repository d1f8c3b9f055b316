//! Box2D's separating-axis function for time of impact (`b2SeparationFunction`): from the GJK
//! simplex at `t1`, an axis that moves with the shapes, and the separation along it of the
//! deepest points of the two shapes at any `t`. Three kinds, after the simplex:
//!
//! - **points**: one vertex on each shape; the axis is fixed in world space, from A's vertex
//!   to B's at `t1`;
//! - **face A**: two vertices of A (an edge); the axis is that edge's normal, turning with A,
//!   and the separation is measured from the edge's midpoint;
//! - **face B**: the same with an edge of B.
//!
//! `find_min_separation` (the deepest pair at `t`, by support points along the axis) and
//! `evaluate` (a known pair at `t`) are what the root finder brackets.

use super::sweep::Sweep;
use crate::engine::collide::gjk_cache::SimplexCache;
use crate::engine::collide::support::Proxy;
use crate::engine::math::right_perp;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The kind of a separating-axis function (Box2D's `b2SeparationType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeparationType {
    Points,
    FaceA,
    FaceB,
}

/// A separating axis attached to the moving shapes (Box2D's `b2SeparationFunction`).
#[derive(Clone, Copy, Debug)]
pub struct SeparationFunction<'a> {
    pub proxy_a: &'a Proxy,
    pub proxy_b: &'a Proxy,
    pub sweep_a: Sweep,
    pub sweep_b: Sweep,
    /// The face's midpoint in its body frame (face types).
    pub local_point: Vec2,
    /// World axis (points), or the face normal in its body frame (face types).
    pub axis: Vec2,
    pub kind: SeparationType,
}

/// No vertex: the side whose face defines the axis.
pub const NO_INDEX: usize = usize::MAX;

impl<'a> SeparationFunction<'a> {
    /// The axis of the simplex `cache` (1 or 2 vertices) at `t1` (`b2MakeSeparationFunction`).
    pub fn new(
        cache: &SimplexCache,
        proxy_a: &'a Proxy,
        sweep_a: &Sweep,
        proxy_b: &'a Proxy,
        sweep_b: &Sweep,
        t1: f32,
    ) -> SeparationFunction<'a> {
        let (xa, xb) = (sweep_a.transform(t1), sweep_b.transform(t1));
        let mut f = SeparationFunction {
            proxy_a,
            proxy_b,
            sweep_a: *sweep_a,
            sweep_b: *sweep_b,
            local_point: Vec2::ZERO,
            axis: Vec2::ZERO,
            kind: SeparationType::Points,
        };
        if cache.count <= 1 {
            let pa = xa.apply(proxy_a.points[cache.index_a[0]]);
            let pb = xb.apply(proxy_b.points[cache.index_b[0]]);
            f.axis = (pb - pa).normalize_or_zero();
            return f;
        }
        if cache.index_a[0] == cache.index_a[1] {
            // Two points on B and one on A.
            f.kind = SeparationType::FaceB;
            let (b1, b2) = (proxy_b.points[cache.index_b[0]], proxy_b.points[cache.index_b[1]]);
            f.axis = right_perp(b2 - b1).normalize_or_zero();
            f.local_point = 0.5 * (b1 + b2);
            let normal = xb.q.apply(f.axis);
            let pa = xa.apply(proxy_a.points[cache.index_a[0]]);
            if (pa - xb.apply(f.local_point)).dot(normal) < 0.0 {
                f.axis = -f.axis;
            }
        } else {
            // Two points on A and one or two points on B.
            f.kind = SeparationType::FaceA;
            let (a1, a2) = (proxy_a.points[cache.index_a[0]], proxy_a.points[cache.index_a[1]]);
            f.axis = right_perp(a2 - a1).normalize_or_zero();
            f.local_point = 0.5 * (a1 + a2);
            let normal = xa.q.apply(f.axis);
            let pb = xb.apply(proxy_b.points[cache.index_b[0]]);
            if (pb - xa.apply(f.local_point)).dot(normal) < 0.0 {
                f.axis = -f.axis;
            }
        }
        f
    }

    /// The deepest pair along the axis at `t` and its separation (`b2FindMinSeparation`).
    /// The face's own side reports [`NO_INDEX`].
    #[inline]
    pub fn find_min_separation(&self, t: f32) -> (f32, usize, usize) {
        let (xa, xb) = (self.sweep_a.transform(t), self.sweep_b.transform(t));
        match self.kind {
            SeparationType::Points => {
                let ia = self.proxy_a.support_index(xa.q.apply_inv(self.axis));
                let ib = self.proxy_b.support_index(xb.q.apply_inv(-self.axis));
                let pa = xa.apply(self.proxy_a.points[ia]);
                let pb = xb.apply(self.proxy_b.points[ib]);
                ((pb - pa).dot(self.axis), ia, ib)
            }
            SeparationType::FaceA => {
                let normal = xa.q.apply(self.axis);
                let pa = xa.apply(self.local_point);
                let ib = self.proxy_b.support_index(xb.q.apply_inv(-normal));
                let pb = xb.apply(self.proxy_b.points[ib]);
                ((pb - pa).dot(normal), NO_INDEX, ib)
            }
            SeparationType::FaceB => {
                let normal = xb.q.apply(self.axis);
                let pb = xb.apply(self.local_point);
                let ia = self.proxy_a.support_index(xa.q.apply_inv(-normal));
                let pa = xa.apply(self.proxy_a.points[ia]);
                ((pa - pb).dot(normal), ia, NO_INDEX)
            }
        }
    }

    /// The separation of a known pair at `t` (`b2EvaluateSeparation`).
    #[inline]
    pub fn evaluate(&self, ia: usize, ib: usize, t: f32) -> f32 {
        let (pa, pb, axis) = self.witness(ia, ib, t);
        (pb - pa).dot(axis)
    }

    /// The pair's points at `t` in world space and the world axis from A to B (the face
    /// types measure from the face's midpoint).
    pub fn witness(&self, ia: usize, ib: usize, t: f32) -> (Vec2, Vec2, Vec2) {
        let (xa, xb) = (self.sweep_a.transform(t), self.sweep_b.transform(t));
        let vertex = |p: &Proxy, i: usize, xf: &crate::engine::math::Transform| xf.apply(p.points[i.min(p.count - 1)]);
        match self.kind {
            SeparationType::Points => (vertex(self.proxy_a, ia, &xa), vertex(self.proxy_b, ib, &xb), self.axis),
            SeparationType::FaceA => (xa.apply(self.local_point), vertex(self.proxy_b, ib, &xb), xa.q.apply(self.axis)),
            SeparationType::FaceB => {
                let normal = xb.q.apply(self.axis);
                (vertex(self.proxy_a, ia, &xa), xb.apply(self.local_point), -normal)
            }
        }
    }
}
