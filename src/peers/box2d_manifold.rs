//! Box2D v3's manifold functions (its C library through `boxdd-sys`, the raw FFI under the
//! `boxdd` crate) on our shapes: `b2CollidePolygons`, `b2CollidePolygonAndCircle`,
//! `b2CollideCircles`, `b2CollideCapsules`, `b2CollideCapsuleAndCircle` and
//! `b2CollidePolygonAndCapsule`, each given B's pose in A's frame, as Box2D's contact update
//! calls them. The answer comes back in world space.

use crate::engine::math::Transform;
use crate::engine::shape::Shape;
use boxdd_sys::ffi::{
    b2Capsule, b2Circle, b2CollideCapsuleAndCircle, b2CollideCapsules, b2CollideCircles, b2CollidePolygonAndCapsule,
    b2CollidePolygonAndCircle, b2CollidePolygons, b2ComputeHull, b2LocalManifold, b2MakePolygon, b2Polygon, b2Rot,
    b2Transform, b2Vec2,
};
use glam::Vec2;

fn v(p: Vec2) -> b2Vec2 {
    b2Vec2 { x: p.x, y: p.y }
}

/// Box2D's polygon for ours, or `None` when Box2D's hull welds it to another vertex count
/// (Box2D merges points closer than its linear slop).
pub fn polygon(vertices: &[Vec2]) -> Option<b2Polygon> {
    rounded_polygon(vertices, 0.0)
}

/// [`polygon`] rounded by `radius` (`b2MakePolygon(hull, radius)`).
pub fn rounded_polygon(vertices: &[Vec2], radius: f32) -> Option<b2Polygon> {
    let pts: Vec<b2Vec2> = vertices.iter().map(|&q| v(q)).collect();
    // SAFETY: plain C functions on stack data; `pts` holds `count` valid points.
    unsafe {
        let hull = b2ComputeHull(pts.as_ptr(), pts.len() as i32);
        (hull.count as usize == pts.len()).then(|| b2MakePolygon(&hull, radius))
    }
}

/// Whether Box2D accepts `shape` as it is (same vertex count after its hull).
pub fn accepts(shape: &Shape) -> bool {
    match shape {
        Shape::Polygon(p) => polygon(p.vertices()).is_some(),
        _ => true,
    }
}

/// Box2D's manifold in world space: the normal from A to B and each point's world position
/// and separation (negative when penetrating).
#[derive(Clone, Debug, Default)]
pub struct B2Manifold {
    pub normal: Vec2,
    pub points: Vec<(Vec2, f32)>,
}

impl B2Manifold {
    /// The deepest separation, `None` without points.
    pub fn deepest(&self) -> Option<f32> {
        self.points.iter().map(|p| p.1).reduce(f32::min)
    }
}

enum B2Shape {
    Circle(b2Circle),
    Capsule(b2Capsule),
    Polygon(b2Polygon),
}

fn b2_shape(shape: &Shape) -> B2Shape {
    match shape {
        Shape::Circle(c) => B2Shape::Circle(b2Circle { center: v(Vec2::ZERO), radius: c.radius }),
        Shape::Capsule(c) => {
            B2Shape::Capsule(b2Capsule { center1: v(c.center1), center2: v(c.center2), radius: c.radius })
        }
        Shape::Polygon(p) => {
            B2Shape::Polygon(rounded_polygon(p.vertices(), p.radius).expect("Box2D accepts the polygon"))
        }
    }
}

/// Box2D's manifold for A at `xa` and B at `xb`, with its own speculative distance
/// (4 linear slops). Panics on a polygon Box2D would weld (check [`accepts`] first).
pub fn collide(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> B2Manifold {
    let r = xa.inv_mul(xb);
    let xf = b2Transform { p: v(r.p), q: b2Rot { c: r.q.c, s: r.q.s } };
    let (sa, sb) = (b2_shape(a), b2_shape(b));
    // SAFETY: the shapes are plain C structs built above (polygons by b2MakePolygon).
    let m = unsafe {
        match (&sa, &sb) {
            (B2Shape::Circle(ca), B2Shape::Circle(cb)) => b2CollideCircles(ca, cb, xf),
            (B2Shape::Capsule(ca), B2Shape::Circle(cb)) => b2CollideCapsuleAndCircle(ca, cb, xf),
            (B2Shape::Capsule(ca), B2Shape::Capsule(cb)) => b2CollideCapsules(ca, cb, xf),
            (B2Shape::Polygon(pa), B2Shape::Circle(cb)) => b2CollidePolygonAndCircle(pa, cb, xf),
            (B2Shape::Polygon(pa), B2Shape::Capsule(cb)) => b2CollidePolygonAndCapsule(pa, cb, xf),
            (B2Shape::Polygon(pa), B2Shape::Polygon(pb)) => b2CollidePolygons(pa, pb, xf),
            // Box2D orders its pairs so A is the "larger" kind; swap and mirror.
            _ => return mirrored(b, xb, a, xa),
        }
    };
    local_to_world(&m, xa)
}

fn mirrored(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> B2Manifold {
    let mut m = collide(a, xa, b, xb);
    m.normal = -m.normal;
    m
}

fn local_to_world(m: &b2LocalManifold, xa: &Transform) -> B2Manifold {
    let normal = xa.q.apply(Vec2::new(m.normal.x, m.normal.y));
    let points = (0..m.pointCount as usize)
        .map(|i| {
            let p = m.points[i];
            (xa.apply(Vec2::new(p.point.x, p.point.y)), p.separation)
        })
        .collect();
    B2Manifold { normal, points }
}
