//! A shape's extents about its centre of mass (Box2D's `b2ComputeShapeExtent`), which the
//! continuous collision and the speculative reach measure motion against.

use super::Shape;

/// The smallest and largest extent of a shape about `local_center` (Box2D's
/// `b2ComputeShapeExtent`): the distance to the nearest face plane, and to the furthest point.
pub fn shape_extents(shape: &Shape, local_center: glam::Vec2) -> (f32, f32) {
    match shape {
        Shape::Circle(c) => (c.radius, local_center.length() + c.radius),
        Shape::Polygon(p) => {
            let min = (0..p.count).map(|i| p.normals[i].dot(p.vertices[i] - p.centroid)).fold(f32::MAX, f32::min);
            let max = p.vertices().iter().map(|v| (*v - local_center).length()).fold(0.0, f32::max);
            if p.radius > 0.0 {
                return (min + p.radius, max + p.radius);
            }
            (min, max)
        }
        Shape::Capsule(c) => {
            let far = (c.center1 - local_center).length().max((c.center2 - local_center).length());
            (c.radius, far + c.radius)
        }
    }
}
