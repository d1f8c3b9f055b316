//! Narrowphase: manifolds for every pair of shape kinds (000 article).

pub mod circle;
pub mod clip;
pub mod clip_trace;
pub mod distance;
pub mod epa;
pub mod epa_trace;
pub mod gjk;
pub mod gjk_cache;
pub mod gjk_trace;
pub mod manifold;
pub mod minkowski;
pub mod polygon;
pub mod polygon_circle;
pub mod sat;
pub mod support;
pub mod toi;

pub use manifold::{FeatureId, Manifold, ManifoldPoint};

use crate::engine::math::Transform;
use crate::engine::shape::Shape;

/// The manifold between two shapes, normal from A to B; points with separation below
/// `margin` are reported (0 = overlaps only, the article's definition).
pub fn collide(a: &Shape, xfa: &Transform, b: &Shape, xfb: &Transform, margin: f32) -> Manifold {
    match (a, b) {
        (Shape::Circle(ca), Shape::Circle(cb)) => circle::collide_circles(xfa.p, ca.radius, xfb.p, cb.radius, margin),
        (Shape::Polygon(pa), Shape::Circle(cb)) => {
            polygon_circle::collide_polygon_circle(pa, xfa, xfb.p, cb.radius, margin)
        }
        (Shape::Circle(ca), Shape::Polygon(pb)) => {
            polygon_circle::collide_polygon_circle(pb, xfb, xfa.p, ca.radius, margin).flipped()
        }
        (Shape::Polygon(pa), Shape::Polygon(pb)) => polygon::collide_polygons(pa, xfa, pb, xfb, margin),
    }
}
