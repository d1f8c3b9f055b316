//! Ray casts against shapes (Box2D's `b2RayCastCircle` / `b2RayCastPolygon`), used by the
//! dynamic tree's ray query (003 article, "Dynamic AABB Tree" → "Queries": "Sphere, AABB and
//! raycasts are all very fast") to find what a ray hits first.
//!
//! A ray is a segment `origin + t·translation`, `t ∈ [0, max_fraction]`. A ray that starts
//! inside a shape reports an *initial overlap*: fraction 0, point = origin, normal zero
//! (Box2D v3's convention), so picking from inside a body still finds that body.

use super::{Capsule, Polygon, Shape};
use crate::engine::math::Transform;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A ray (segment) to cast: from `origin` along `translation`, up to `max_fraction` of it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayCastInput {
    pub origin: Vec2,
    pub translation: Vec2,
    /// The ray is clipped to `origin + max_fraction · translation` (1 = the whole segment).
    pub max_fraction: f32,
}

impl RayCastInput {
    /// The whole segment from `origin` to `origin + translation`.
    pub fn new(origin: Vec2, translation: Vec2) -> RayCastInput {
        RayCastInput { origin, translation, max_fraction: 1.0 }
    }

    /// The point at `fraction` of the translation.
    pub fn point_at(&self, fraction: f32) -> Vec2 {
        self.origin + fraction * self.translation
    }
}

/// Where a ray enters a shape.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CastOutput {
    /// World point of entry (the origin on an initial overlap).
    pub point: Vec2,
    /// Outward unit normal of the surface at `point` (zero on an initial overlap).
    pub normal: Vec2,
    /// Fraction of the translation at which the ray enters, in `[0, max_fraction]`.
    pub fraction: f32,
}

impl CastOutput {
    fn initial_overlap(origin: Vec2) -> CastOutput {
        CastOutput { point: origin, normal: Vec2::ZERO, fraction: 0.0 }
    }
}

impl Shape {
    /// Casts `input` (world space) against this shape placed at `xf`; `None` on a miss.
    pub fn ray_cast(&self, xf: &Transform, input: &RayCastInput) -> Option<CastOutput> {
        match self {
            Shape::Circle(c) => ray_cast_circle(xf.p, c.radius, input),
            Shape::Polygon(p) => ray_cast_polygon(p, xf, input),
            Shape::Capsule(c) => c.ray_cast(xf, input),
        }
    }
}

/// Ray against the circle of `radius` at `center`: the nearest root of `|s + t·d|² = r²`
/// with `s = origin − center` and `d` the unit direction (solved through the closest point
/// of the line to the centre, which keeps precision for long rays).
pub fn ray_cast_circle(center: Vec2, radius: f32, input: &RayCastInput) -> Option<CastOutput> {
    let s = input.origin - center;
    let rr = radius * radius;
    let inside = s.length_squared() < rr;
    let length = input.translation.length();
    if length == 0.0 || !length.is_finite() {
        return inside.then(|| CastOutput::initial_overlap(input.origin));
    }
    let d = input.translation / length;
    // Closest point of the line to the centre: dot(s + t·d, d) = 0.
    let t = -s.dot(d);
    let c = s + t * d;
    let cc = c.length_squared();
    if cc > rr {
        return None;
    }
    let h = (rr - cc).sqrt();
    let distance = t - h;
    if distance < 0.0 || distance > input.max_fraction * length {
        return inside.then(|| CastOutput::initial_overlap(input.origin));
    }
    let local = s + distance * d;
    Some(CastOutput { point: center + local, normal: local.normalize_or_zero(), fraction: distance / length })
}

/// Ray against a convex polygon by clipping the segment's parameter interval `[lower, upper]`
/// against each edge's half-plane (Cyrus–Beck, as `b2RayCastPolygon`); the edge that raised
/// `lower` last is the entry edge. Computed in the polygon's frame, relative to its first
/// vertex so far-away polygons keep precision.
pub fn ray_cast_polygon(poly: &Polygon, xf: &Transform, input: &RayCastInput) -> Option<CastOutput> {
    if poly.radius > 0.0 {
        return ray_cast_rounded_polygon(poly, xf, input);
    }
    let base = poly.vertices[0];
    let p1 = xf.apply_inv(input.origin) - base;
    let d = xf.q.apply_inv(input.translation);
    let (mut lower, mut upper) = (0.0f32, input.max_fraction);
    let mut index = None;
    for i in 0..poly.count {
        let n = poly.normals[i];
        // dot(n, p1 + t·d − v) = 0  →  t = numerator / denominator.
        let numerator = n.dot(poly.vertices[i] - base - p1);
        let denominator = n.dot(d);
        if denominator == 0.0 {
            // Parallel to the edge: a miss if the ray runs outside it.
            if numerator < 0.0 {
                return None;
            }
        } else if denominator < 0.0 && numerator < lower * denominator {
            // The segment enters this half-plane later than any before.
            lower = numerator / denominator;
            index = Some(i);
        } else if denominator > 0.0 && numerator < upper * denominator {
            // The segment leaves this half-plane earlier than any before.
            upper = numerator / denominator;
        }
        if upper < lower {
            return None;
        }
    }
    match index {
        Some(i) => {
            Some(CastOutput { point: input.point_at(lower), normal: xf.q.apply(poly.normals[i]), fraction: lower })
        }
        None => Some(CastOutput::initial_overlap(input.origin)),
    }
}

/// Ray against a rounded polygon (the core swept by a disk): a ray from outside enters it
/// through the first of its edges' capsules it meets (their union is the shape's boundary
/// layer), so the earliest capsule hit (`b2RayCastCapsule`) is the entry. Box2D casts a point
/// against the rounded polygon by GJK (`b2ShapeCast`); this gives the same point exactly.
fn ray_cast_rounded_polygon(poly: &Polygon, xf: &Transform, input: &RayCastInput) -> Option<CastOutput> {
    if poly.test_point(xf.apply_inv(input.origin)) {
        return Some(CastOutput::initial_overlap(input.origin));
    }
    (0..poly.count)
        .filter_map(|i| {
            let (center1, center2) = (poly.vertices[i], poly.vertices[(i + 1) % poly.count]);
            Capsule { center1, center2, radius: poly.radius }.ray_cast(xf, input)
        })
        .min_by(|a, b| a.fraction.total_cmp(&b.fraction))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_hit_from_the_left() {
        let input = RayCastInput::new(Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0));
        let hit = ray_cast_circle(Vec2::ZERO, 1.0, &input).unwrap();
        assert!((hit.fraction - 0.4).abs() < 1e-6);
        assert!((hit.point - Vec2::new(-1.0, 0.0)).length() < 1e-5);
        assert!((hit.normal - Vec2::new(-1.0, 0.0)).length() < 1e-5);
    }

    #[test]
    fn rounded_box_is_hit_on_its_side_and_on_its_corner_arc() {
        let p = Polygon::make_rounded_box(Vec2::new(1.0, 0.5), 0.25).unwrap();
        let side = RayCastInput::new(Vec2::new(-5.0, 0.2), Vec2::new(10.0, 0.0));
        let hit = ray_cast_polygon(&p, &Transform::IDENTITY, &side).unwrap();
        assert!((hit.point - Vec2::new(-1.25, 0.2)).length() < 1e-5, "{hit:?}");
        assert!((hit.normal - Vec2::NEG_X).length() < 1e-5);
        // Towards the corner (1, 0.5) along its diagonal: the arc, 0.25 from the corner.
        let dir = Vec2::new(1.0, 1.0).normalize();
        let corner = RayCastInput::new(Vec2::new(1.0, 0.5) + 3.0 * dir, -4.0 * dir);
        let hit = ray_cast_polygon(&p, &Transform::new(Vec2::ZERO, 0.0), &corner).unwrap();
        assert!((hit.point - (Vec2::new(1.0, 0.5) + 0.25 * dir)).length() < 1e-5, "{hit:?}");
        assert!((hit.normal - dir).length() < 1e-5);
        // Past the sharp corner's reach but inside the square corner: a miss.
        let miss = RayCastInput::new(Vec2::new(1.24, -3.0), Vec2::new(0.2, 6.0));
        assert!(ray_cast_polygon(&p, &Transform::IDENTITY, &miss).is_none());
        let inside = RayCastInput::new(Vec2::new(1.1, 0.0), Vec2::new(1.0, 0.0));
        assert_eq!(ray_cast_polygon(&p, &Transform::IDENTITY, &inside).unwrap().fraction, 0.0);
    }

    #[test]
    fn polygon_parallel_outside_misses() {
        let s = Shape::make_box(Vec2::ONE).unwrap();
        let input = RayCastInput::new(Vec2::new(-5.0, 2.0), Vec2::new(10.0, 0.0));
        assert!(s.ray_cast(&Transform::IDENTITY, &input).is_none());
    }
}
