//! parry2d's answers for a pair of our shapes (the crate under rapier2d), in world space:
//! its contact (`parry::query::contact`: the closest points or the deepest penetration, one
//! point pair with its normal) beside our manifold and Box2D's in the Manifold lab, and its
//! distance and closest points (`parry::query::distance`, `closest_points`: GJK, the 002
//! article) beside ours and Box2D's in the Minkowski lab.

use super::ClosestPoints;
use crate::engine::math::Transform;
use crate::engine::shape::Shape;
use glam::Vec2;
use rapier2d::parry::math::{Pose, Vector};
use rapier2d::parry::query;
use rapier2d::parry::shape::{Ball, Capsule, ConvexPolygon, Cuboid, Shape as ParryShape};

fn vec(p: Vec2) -> Vector {
    Vector::new(p.x, p.y)
}

/// parry's contact: the point on A, the point on B, the unit normal from A to B and the
/// signed distance (negative when penetrating).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParryContact {
    pub point_a: Vec2,
    pub point_b: Vec2,
    pub normal: Vec2,
    pub distance: f32,
}

/// Our shape as parry's (`None` for a polygon parry does not take as convex).
pub fn parry_shape(shape: &Shape) -> Option<Box<dyn ParryShape>> {
    Some(match shape {
        Shape::Circle(c) => Box::new(Ball::new(c.radius)),
        Shape::Capsule(c) => Box::new(Capsule::new(vec(c.center1), vec(c.center2), c.radius)),
        Shape::Polygon(p) => match p.box_half_extents {
            Some(h) if p.centroid == Vec2::ZERO => Box::new(Cuboid::new(vec(h))),
            _ => Box::new(ConvexPolygon::from_convex_polyline(p.vertices().iter().map(|&v| vec(v)).collect())?),
        },
    })
}

fn pose(xf: &Transform) -> Pose {
    Pose::new(vec(xf.p), xf.q.s.atan2(xf.q.c))
}

/// parry's contact between A at `xa` and B at `xb` within `prediction` metres of touching.
pub fn contact(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform, prediction: f32) -> Option<ParryContact> {
    let (sa, sb) = (parry_shape(a)?, parry_shape(b)?);
    let c = query::contact(&pose(xa), sa.as_ref(), &pose(xb), sb.as_ref(), prediction).ok()??;
    let v = |p: Vector| Vec2::new(p.x, p.y);
    Some(ParryContact { point_a: v(c.point1), point_b: v(c.point2), normal: v(c.normal1), distance: c.dist })
}

/// parry's distance between A at `xa` and B at `xb` (0 when they overlap) and its closest
/// points (on overlap parry gives none: both are then A's and B's contact points).
pub fn closest_points(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Option<ClosestPoints> {
    let (sa, sb) = (parry_shape(a)?, parry_shape(b)?);
    let (pa, pb) = (pose(xa), pose(xb));
    let distance = query::distance(&pa, sa.as_ref(), &pb, sb.as_ref()).ok()?.distance;
    let v = |p: Vector| Vec2::new(p.x, p.y);
    let (point_a, point_b) = match query::closest_points(&pa, sa.as_ref(), &pb, sb.as_ref(), f32::MAX).ok()? {
        query::ClosestPoints::WithinMargin(p, q) => (v(p), v(q)),
        _ => {
            let c = contact(a, xa, b, xb, 0.0)?;
            (c.point_a, c.point_b)
        }
    };
    Some(ClosestPoints { distance, point_a, point_b, iterations: 0 })
}
