//! Narrowphase: manifolds for every pair of shape kinds (000 article; capsules after Box2D v3).

pub mod aabb;
pub mod capsule;
pub mod capsule_trace;
pub mod circle;
pub mod circle_trace;
pub mod clip;
pub mod clip_trace;
pub mod distance;
pub mod epa;
pub mod epa_trace;
mod frame_of_a;
pub mod gjk;
pub mod gjk_cache;
pub mod gjk_trace;
pub mod manifold;
pub mod minkowski;
pub mod pair_trace;
pub mod polygon;
pub mod polygon_circle;
pub mod polygon_circle_trace;
pub mod rounded;
pub mod sat;
pub mod segment;
pub mod support;
pub mod toi;

pub use manifold::{FeatureId, Manifold, ManifoldPoint};
pub use polygon::ReferenceFaceRule;

use crate::engine::math::Transform;
use crate::engine::shape::Shape;

/// The manifold between two shapes, normal from A to B; points with separation below
/// `margin` are reported (0 = overlaps only, the article's definition).
pub fn collide(a: &Shape, xfa: &Transform, b: &Shape, xfb: &Transform, margin: f32) -> Manifold {
    collide_with(a, xfa, b, xfb, margin, ReferenceFaceRule::default())
}

/// [`collide`] with the polygon pairs' reference face chosen by `rule` (the world's
/// `reference_face` setting).
pub fn collide_with(
    a: &Shape,
    xfa: &Transform,
    b: &Shape,
    xfb: &Transform,
    margin: f32,
    rule: ReferenceFaceRule,
) -> Manifold {
    match (a, b) {
        (Shape::Circle(ca), Shape::Circle(cb)) => circle::collide_circles(xfa.p, ca.radius, xfb.p, cb.radius, margin),
        (Shape::Polygon(pa), Shape::Circle(cb)) => {
            polygon_circle::collide_polygon_circle(pa, xfa, xfb.p, cb.radius, margin)
        }
        (Shape::Circle(ca), Shape::Polygon(pb)) => {
            polygon_circle::collide_polygon_circle(pb, xfb, xfa.p, ca.radius, margin).flipped()
        }
        (Shape::Polygon(pa), Shape::Polygon(pb)) => {
            polygon::collide_polygons_traced(pa, xfa, pb, xfb, margin, rule, None)
        }
        (Shape::Capsule(ca), Shape::Capsule(cb)) => capsule::collide_capsules(ca, xfa, cb, xfb, margin),
        (Shape::Capsule(ca), Shape::Circle(cb)) => capsule::collide_capsule_circle(ca, xfa, xfb.p, cb.radius, margin),
        (Shape::Circle(ca), Shape::Capsule(cb)) => {
            capsule::collide_capsule_circle(cb, xfb, xfa.p, ca.radius, margin).flipped()
        }
        (Shape::Polygon(pa), Shape::Capsule(cb)) => rounded::collide_polygon_capsule(pa, xfa, cb, xfb, margin),
        (Shape::Capsule(ca), Shape::Polygon(pb)) => {
            rounded::collide_polygon_capsule(pb, xfb, ca, xfa, margin).flipped()
        }
    }
}
