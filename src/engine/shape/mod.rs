//! Collision shapes: circles, capsules and convex polygons (boxes are polygons that remember
//! their half extents). Each shape gives its mass properties, support points and bounding box.

pub mod capsule;
pub mod extents;
pub mod hull;
pub mod polygon;
pub mod quickhull2;
pub mod quickhull2_trace;
pub mod ray;

pub use capsule::Capsule;
pub use polygon::{Polygon, PolygonError, MAX_POLYGON_VERTICES, MAX_ROUNDING_RADIUS};
pub use quickhull2::quickhull_2d;
pub use quickhull2_trace::{QuickHull2Step, QuickHull2Trace};

use crate::engine::math::{Aabb, Transform};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Smallest accepted radius or half extent (metres): below this the solver's slop dominates.
pub const MIN_EXTENT: f32 = 0.005;

/// Mass properties of a shape for a given density.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassData {
    pub mass: f32,
    /// Centre of mass in the body's local frame.
    pub center: Vec2,
    /// Rotational inertia about the centre of mass.
    pub inertia: f32,
    pub area: f32,
}

/// A circle centred on its body's origin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Circle {
    pub radius: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    Circle(Circle),
    Polygon(Polygon),
    Capsule(Capsule),
}

impl Shape {
    /// A circle; the radius must be finite and in `[MIN_EXTENT, 1e5)`.
    pub fn circle(radius: f32) -> Result<Shape, String> {
        if !(MIN_EXTENT..hull::MAX_COORDINATE).contains(&radius) {
            return Err(format!("circle radius must be finite and between {MIN_EXTENT} and 1e5, got {radius}"));
        }
        Ok(Shape::Circle(Circle { radius }))
    }

    /// A capsule from its segment and radius, validated by [`Capsule::new`].
    pub fn capsule(center1: Vec2, center2: Vec2, radius: f32) -> Result<Shape, String> {
        Capsule::new(center1, center2, radius).map(Shape::Capsule)
    }

    pub fn make_box(half_extents: Vec2) -> Result<Shape, PolygonError> {
        Polygon::make_box(half_extents).map(Shape::Polygon)
    }

    pub fn mass_data(&self, density: f32) -> MassData {
        match self {
            Shape::Circle(c) => {
                let area = std::f32::consts::PI * c.radius * c.radius;
                let mass = density * area;
                MassData { mass, center: Vec2::ZERO, inertia: 0.5 * mass * c.radius * c.radius, area }
            }
            Shape::Polygon(p) => p.mass_data(density),
            Shape::Capsule(c) => c.mass_data(density),
        }
    }

    pub fn compute_aabb(&self, xf: &Transform) -> Aabb {
        match self {
            Shape::Circle(c) => Aabb::new(xf.p - Vec2::splat(c.radius), xf.p + Vec2::splat(c.radius)),
            Shape::Polygon(p) => {
                // From the first vertex, by comparisons (Box2D's `b2ComputePolygonAABB`):
                // `f32::min`'s NaN handling costs more than the rest for a box (shapes have
                // finite vertices; a NaN pose gives a box that is not valid either way).
                let mut vs = p.world_vertices(xf);
                let first = vs.next().unwrap_or(xf.p);
                let (mut min, mut max) = (first, first);
                for v in vs {
                    min.x = if v.x < min.x { v.x } else { min.x };
                    min.y = if v.y < min.y { v.y } else { min.y };
                    max.x = if v.x > max.x { v.x } else { max.x };
                    max.y = if v.y > max.y { v.y } else { max.y };
                }
                if p.radius > 0.0 {
                    // A rounded polygon's box is its core's grown by the radius.
                    let r = Vec2::splat(p.radius);
                    return Aabb::new(min - r, max + r);
                }
                Aabb::new(min, max)
            }
            Shape::Capsule(c) => c.compute_aabb(xf),
        }
    }

    /// The point of the shape (world space) furthest along world direction `d`.
    pub fn support(&self, xf: &Transform, d: Vec2) -> Vec2 {
        match self {
            Shape::Circle(c) => xf.p + d.normalize_or_zero() * c.radius,
            Shape::Polygon(p) if p.radius > 0.0 => {
                xf.apply(p.vertices[p.support_index(xf.q.apply_inv(d))]) + d.normalize_or_zero() * p.radius
            }
            Shape::Polygon(p) => xf.apply(p.vertices[p.support_index(xf.q.apply_inv(d))]),
            Shape::Capsule(c) => {
                let (p1, p2) = c.world_centers(xf);
                let core = if (p2 - p1).dot(d) > 0.0 { p2 } else { p1 };
                core + d.normalize_or_zero() * c.radius
            }
        }
    }

    /// Whether the world point lies inside the shape.
    pub fn test_point(&self, xf: &Transform, point: Vec2) -> bool {
        let local = xf.apply_inv(point);
        match self {
            Shape::Circle(c) => local.length_squared() <= c.radius * c.radius,
            Shape::Polygon(p) => p.test_point(local),
            Shape::Capsule(c) => c.test_point(local),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_validation() {
        assert!(Shape::circle(0.5).is_ok());
        assert!(Shape::circle(-1.0).is_err());
        assert!(Shape::circle(0.0).is_err());
        assert!(Shape::circle(f32::NAN).is_err());
        assert!(Shape::circle(f32::INFINITY).is_err());
    }

    #[test]
    fn circle_inertia_is_half_m_r2() {
        let m = Shape::circle(2.0).unwrap().mass_data(1.0);
        assert!((m.inertia - 0.5 * m.mass * 4.0).abs() < 1e-3);
    }

    #[test]
    fn aabb_of_rotated_box() {
        let s = Shape::make_box(Vec2::new(1.0, 1.0)).unwrap();
        let xf = Transform::new(Vec2::new(2.0, 0.0), std::f32::consts::FRAC_PI_4);
        let bb = s.compute_aabb(&xf);
        let r = std::f32::consts::SQRT_2;
        assert!((bb.min - Vec2::new(2.0 - r, -r)).length() < 1e-5);
        assert!((bb.max - Vec2::new(2.0 + r, r)).length() < 1e-5);
        assert!(s.test_point(&xf, Vec2::new(2.0, 1.3)));
        assert!(!s.test_point(&xf, Vec2::new(3.0, 1.0)));
    }
}
