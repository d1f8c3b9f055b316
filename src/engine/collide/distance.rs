//! The signed distance between two convex shapes, penetrating or not (004 article: "the
//! distance from the origin to the MD is actually the distance between the two shapes, and
//! the vector between the two gives you the Minimum Translational Distance"): GJK when they
//! are apart, EPA after GJK when they overlap.

use super::epa::penetration_from_gjk;
use super::epa_trace::EpaTrace;
use super::gjk::gjk;
use super::gjk_trace::GjkTrace;
use super::support::Proxy;
use crate::engine::math::Transform;
use crate::engine::shape::Shape;
use glam::Vec2;
use serde::Serialize;

/// Distance (positive) or penetration (negative) between two shapes along one normal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SignedDistance {
    /// Positive: the gap between the shapes; negative: minus the penetration depth.
    pub separation: f32,
    /// Unit normal from A to B. Moving B by `−separation · normal` makes the shapes touch.
    pub normal: Vec2,
    /// Closest (apart) or deepest (overlapping) points: `point_b − point_a = separation · normal`.
    pub point_a: Vec2,
    pub point_b: Vec2,
}

impl SignedDistance {
    /// The minimum translation of B that makes the shapes touch (the 004 article's MTD).
    pub fn minimum_translation(&self) -> Vec2 {
        -self.separation * self.normal
    }
}

/// GJK, then EPA if the shapes overlap, on two proxies in a common frame. Each trace, when
/// given, records its algorithm's steps (the EPA trace stays empty when the shapes are apart).
pub fn signed_distance_proxies(
    pa: &Proxy,
    pb: &Proxy,
    gjk_trace: Option<&mut GjkTrace>,
    epa_trace: Option<&mut EpaTrace>,
) -> SignedDistance {
    let g = gjk(pa, pb, gjk_trace);
    let mut epa_trace = epa_trace;
    if let Some(t) = epa_trace.as_deref_mut() {
        t.clear(g.simplex.count);
    }
    if !g.overlap {
        return SignedDistance { separation: g.distance, normal: g.normal, point_a: g.point_a, point_b: g.point_b };
    }
    let p = penetration_from_gjk(pa, pb, &g, epa_trace);
    SignedDistance { separation: -p.depth, normal: p.normal, point_a: p.point_a, point_b: p.point_b }
}

/// [`signed_distance_proxies`] for two shapes at their poses, world space in and out.
pub fn signed_distance(
    a: &Shape,
    xfa: &Transform,
    b: &Shape,
    xfb: &Transform,
    mut gjk_trace: Option<&mut GjkTrace>,
    mut epa_trace: Option<&mut EpaTrace>,
) -> SignedDistance {
    let pa = Proxy::from_shape(a, xfa, xfa.p);
    let pb = Proxy::from_shape(b, xfb, xfa.p);
    let mut out = signed_distance_proxies(&pa, &pb, gjk_trace.as_deref_mut(), epa_trace.as_deref_mut());
    out.point_a += xfa.p;
    out.point_b += xfa.p;
    if let Some(t) = gjk_trace {
        t.shift(xfa.p);
    }
    if let Some(t) = epa_trace {
        t.shift(xfa.p);
    }
    out
}
