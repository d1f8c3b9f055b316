//! Box2D v3's GJK distance (`b2ShapeDistance`, its C library through `boxdd-sys`; the 002
//! article's GJK as Box2D runs it) on a pair of our shapes: both proxies in their body frames
//! (`b2MakeProxy`, radii used), B's pose in A's frame as Box2D's input takes it, an empty
//! simplex cache. The answer comes back in world space.

use super::box2d_toi::proxy;
use super::ClosestPoints;
use crate::engine::collide::toi::local_proxy;
use crate::engine::math::Transform;
use crate::engine::shape::Shape;
use boxdd_sys::ffi::{b2DistanceInput, b2Rot, b2ShapeDistance, b2SimplexCache, b2Transform, b2Vec2};
use glam::Vec2;

/// The input `b2ShapeDistance` gets for A at `xa` and B at `xb`.
pub fn input(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> b2DistanceInput {
    let r = xa.inv_mul(xb);
    b2DistanceInput {
        proxyA: proxy(&local_proxy(a)),
        proxyB: proxy(&local_proxy(b)),
        transform: b2Transform { p: b2Vec2 { x: r.p.x, y: r.p.y }, q: b2Rot { c: r.q.c, s: r.q.s } },
        useRadii: true,
    }
}

/// Box2D's distance between the rounded shapes (0 when they overlap), its closest points in
/// world space and its GJK iterations.
pub fn shape_distance(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> ClosestPoints {
    let mut cache = b2SimplexCache { count: 0, indexA: [0; 3], indexB: [0; 3] };
    // SAFETY: a pure function of plain-data input; no simplexes are recorded (capacity 0).
    let out = unsafe { b2ShapeDistance(&input(a, xa, b, xb), &mut cache, std::ptr::null_mut(), 0) };
    let world = |p: b2Vec2| xa.apply(Vec2::new(p.x, p.y));
    ClosestPoints {
        distance: out.distance,
        point_a: world(out.pointA),
        point_b: world(out.pointB),
        iterations: out.iterations as usize,
    }
}
