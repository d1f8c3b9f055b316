//! Separating axis test between convex polygons (000 article, "OBB to OBB"): each face normal
//! of one polygon is an axis; the separation on it is the distance of the other polygon's
//! deepest vertex beyond that face.

use crate::engine::math::Transform;
use crate::engine::shape::Polygon;

/// The face of `poly1` with the largest separation from `poly2`, and that separation
/// (negative when the polygons overlap along every face normal of `poly1`). World-space
/// polygons, for tests and single axes; the manifolds run the same search in A's frame
/// (`frame_of_a::find_max_separation`).
pub fn find_max_separation(poly1: &Polygon, xf1: &Transform, poly2: &Polygon, xf2: &Transform) -> (usize, f32) {
    (0..poly1.count).map(|i| (i, edge_separation(poly1, xf1, i, poly2, xf2))).fold((0, -f32::MAX), |best, (i, s)| {
        if s > best.1 {
            (i, s)
        } else {
            best
        }
    })
}

/// Separation of `poly2` from face `edge` of `poly1` (for drawing and tests of single axes).
pub fn edge_separation(poly1: &Polygon, xf1: &Transform, edge: usize, poly2: &Polygon, xf2: &Transform) -> f32 {
    let n = xf1.q.apply(poly1.normals[edge]);
    let v1 = xf1.apply(poly1.vertices[edge]);
    poly2.world_vertices(xf2).map(|v| n.dot(v - v1)).fold(f32::MAX, f32::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn separation_of_axis_aligned_boxes() {
        let b = Polygon::make_box(Vec2::new(1.0, 1.0)).unwrap();
        let xa = Transform::IDENTITY;
        let xb = Transform::new(Vec2::new(1.5, 0.2), 0.0);
        let (edge, sep) = find_max_separation(&b, &xa, &b, &xb);
        // The right face (normal +x, index 1) overlaps by 0.5.
        assert_eq!(edge, 1);
        assert!((sep + 0.5).abs() < 1e-6);
        assert!((edge_separation(&b, &xa, 1, &b, &xb) - sep).abs() < 1e-6);
        let far = Transform::new(Vec2::new(3.0, 0.0), 0.0);
        assert!((find_max_separation(&b, &xa, &b, &far).1 - 1.0).abs() < 1e-6);
    }
}
