//! The rounded manifolds beside Box2D v3 (its C library through `boxdd-sys`): capsule–capsule
//! (`b2CollideCapsules`), polygon–capsule (`b2CollidePolygonAndCapsule`) and polygon–circle
//! (`b2CollidePolygonAndCircle`), on the same 64 random pairs in both engines. Both sides
//! keep points within Box2D's speculative distance (4 linear slops), and each call takes the
//! relative transform `inv(xfA)·xfB` computed inside the timed code, as Box2D's contact update
//! does. [`agreement`] compares the two answers pair by pair, so the rows time equal work.

use super::{poses, random_polygon, Pair, PAIRS};
use boxdd_sys::ffi::{
    b2Capsule, b2Circle, b2CollideCapsules, b2CollidePolygonAndCapsule, b2CollidePolygonAndCircle, b2ComputeHull,
    b2LocalManifold, b2MakePolygon, b2Polygon, b2Rot, b2Transform, b2Vec2,
};
use glam::Vec2;
use manifold_lab::engine::collide::{collide, Manifold};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::{Capsule, Polygon, Shape};
use manifold_lab::engine::LINEAR_SLOP;
use std::hint::black_box;

/// Box2D's speculative distance, the margin both sides use here.
pub const MARGIN: f32 = 4.0 * LINEAR_SLOP;

/// One of Box2D's shape structs in its body frame.
pub trait B2Shape: Copy {
    fn from_shape(shape: &Shape) -> Self;
}

impl B2Shape for b2Capsule {
    fn from_shape(shape: &Shape) -> Self {
        let Shape::Capsule(c) = shape else { panic!("a capsule") };
        b2Capsule { center1: v(c.center1), center2: v(c.center2), radius: c.radius }
    }
}

impl B2Shape for b2Circle {
    fn from_shape(shape: &Shape) -> Self {
        let Shape::Circle(c) = shape else { panic!("a circle") };
        b2Circle { center: v(Vec2::ZERO), radius: c.radius }
    }
}

impl B2Shape for b2Polygon {
    fn from_shape(shape: &Shape) -> Self {
        let Shape::Polygon(p) = shape else { panic!("a polygon") };
        let pts: Vec<b2Vec2> = p.vertices().iter().map(|&q| v(q)).collect();
        // SAFETY: plain C functions on stack data; `pts` holds `count` valid points.
        unsafe {
            let hull = b2ComputeHull(pts.as_ptr(), pts.len() as i32);
            assert!(hull.count as usize == pts.len(), "Box2D accepted the hull");
            b2MakePolygon(&hull, 0.0)
        }
    }
}

fn v(p: Vec2) -> b2Vec2 {
    b2Vec2 { x: p.x, y: p.y }
}

/// A pair in Box2D's terms.
pub struct B2Pair<A, B> {
    a: A,
    b: B,
    xa: Transform,
    xb: Transform,
}

/// Box2D's manifold function for shapes `A` and `B`.
pub type Collider<A, B> = unsafe extern "C" fn(*const A, *const B, b2Transform) -> b2LocalManifold;

/// One row: our pairs, Box2D's, and Box2D's function.
pub struct Case<A, B> {
    pub pairs: Vec<Pair<()>>,
    pub b2: Vec<B2Pair<A, B>>,
    pub collide: Collider<A, B>,
}

impl<A: B2Shape, B: B2Shape> Case<A, B> {
    fn new(pairs: Vec<Pair<()>>, collide: Collider<A, B>) -> Self {
        let b2 = pairs
            .iter()
            .map(|p| B2Pair { a: A::from_shape(&p.a), b: B::from_shape(&p.b), xa: p.xa, xb: p.xb })
            .collect();
        Case { pairs, b2, collide }
    }

    /// Ours: the sum over the pairs of the deepest penetration (0 without a point).
    pub fn ours(&self) -> f32 {
        self.pairs.iter().map(|p| depth(&collide(black_box(&p.a), &p.xa, &p.b, &p.xb, MARGIN))).sum()
    }

    /// Box2D's function on the same pairs, the same checksum.
    pub fn box2d(&self) -> f32 {
        self.b2.iter().map(|p| b2_depth(&self.call(black_box(p)))).sum()
    }

    fn call(&self, p: &B2Pair<A, B>) -> b2LocalManifold {
        let r = p.xa.inv_mul(&p.xb);
        let xf = b2Transform { p: v(r.p), q: b2Rot { c: r.q.c, s: r.q.s } };
        // SAFETY: the shapes are plain C structs (polygons from b2MakePolygon).
        unsafe { (self.collide)(&p.a, &p.b, xf) }
    }

    /// Pair by pair: how many pairs touch (have points) in ours, on how many the engines
    /// disagree about touching, on how many their point counts differ, and the largest
    /// difference of the deepest penetrations where both touch.
    pub fn agreement(&self) -> Agreement {
        let mut a = Agreement::default();
        for (p, q) in self.pairs.iter().zip(&self.b2) {
            let (m, b) = (collide(&p.a, &p.xa, &p.b, &p.xb, MARGIN), self.call(q));
            a.touching += usize::from(m.count > 0);
            a.touch_differs += usize::from((m.count > 0) != (b.pointCount > 0));
            a.count_differs += usize::from(m.count != b.pointCount as usize);
            if m.count > 0 && b.pointCount > 0 {
                a.max_delta = a.max_delta.max((depth(&m) - b2_depth(&b)).abs());
            }
        }
        a
    }
}

/// How far the two engines' answers agree on a case's pairs (see [`Case::agreement`]).
#[derive(Default)]
pub struct Agreement {
    pub touching: usize,
    pub touch_differs: usize,
    pub count_differs: usize,
    pub max_delta: f32,
}

fn depth(m: &Manifold) -> f32 {
    m.points().iter().map(|p| p.penetration).fold(0.0, f32::max)
}

fn b2_depth(m: &b2LocalManifold) -> f32 {
    (0..m.pointCount as usize).map(|i| -m.points[i].separation).fold(0.0, f32::max)
}

fn random_capsule(rng: &mut SplitMix64) -> (Shape, f32) {
    let (h, r) = (rng.f32(0.2, 1.0), rng.f32(0.1, 0.5));
    (Shape::Capsule(Capsule::horizontal(h, r).unwrap()), h + r)
}

/// `make` draws A and B (each with a rough radius); B is placed around A close enough that
/// most pairs touch, so the rows time whole manifolds rather than early-outs.
fn pairs(seed: u64, mut make: impl FnMut(&mut SplitMix64) -> ((Shape, f32), (Shape, f32))) -> Vec<Pair<()>> {
    let mut rng = SplitMix64(seed);
    (0..PAIRS)
        .map(|_| {
            let ((a, ra), (b, rb)) = make(&mut rng);
            let (xa, xb) = poses(&mut rng, ra, rb, (0.2, 0.8));
            Pair { a, b, xa, xb, pa: (), pb: (), pose_a: super::pose(&xa), pose_b: super::pose(&xb) }
        })
        .collect()
}

fn polygon(rng: &mut SplitMix64) -> (Shape, f32) {
    let (p, r): (Polygon, f32) = random_polygon(rng);
    (Shape::Polygon(p), r)
}

pub fn capsules() -> Case<b2Capsule, b2Capsule> {
    Case::new(pairs(11, |rng| (random_capsule(rng), random_capsule(rng))), b2CollideCapsules)
}

pub fn polygon_capsules() -> Case<b2Polygon, b2Capsule> {
    Case::new(pairs(12, |rng| (polygon(rng), random_capsule(rng))), b2CollidePolygonAndCapsule)
}

pub fn polygon_circles() -> Case<b2Polygon, b2Circle> {
    let circle = |rng: &mut SplitMix64| {
        let r = rng.f32(0.1, 1.0);
        (Shape::circle(r).unwrap(), r)
    };
    Case::new(pairs(13, |rng| (polygon(rng), circle(rng))), b2CollidePolygonAndCircle)
}
