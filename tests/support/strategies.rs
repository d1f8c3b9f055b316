//! Proptest strategies for the narrowphase properties: shapes (circles, boxes, convex polygons
//! of 3–8 vertices) and poses.

use glam::Vec2;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::{Polygon, Shape};
use proptest::prelude::*;

/// A circle (radius 0.05–3), a box (half extents 0.05–3) or a convex polygon (hull of 3–8
/// points at radii 0.6–1 of a 0.2–2.5 circle, evenly spread in angle).
pub fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.05f32..3.0).prop_map(|r| Shape::circle(r).unwrap()),
        (0.05f32..3.0, 0.05f32..3.0).prop_map(|(x, y)| Shape::make_box(Vec2::new(x, y)).unwrap()),
        polygon().prop_map(Shape::Polygon),
    ]
}

/// A convex polygon as in [`shape`].
pub fn polygon() -> impl Strategy<Value = Polygon> {
    (3usize..=8, 0.2f32..2.5, prop::collection::vec(0.6f32..1.0, 8), 0.0f32..std::f32::consts::TAU).prop_map(
        |(n, r, radii, phase)| {
            let pts: Vec<Vec2> = (0..n)
                .map(|i| Vec2::from_angle(phase + i as f32 * std::f32::consts::TAU / n as f32) * r * radii[i])
                .collect();
            Polygon::hull(&pts).unwrap()
        },
    )
}

/// A position in a 6 m square around the origin and any angle (−7 to 7 rad).
pub fn pose() -> impl Strategy<Value = Transform> {
    (-3.0f32..3.0, -3.0f32..3.0, -7.0f32..7.0).prop_map(|(x, y, a)| Transform::new(Vec2::new(x, y), a))
}
