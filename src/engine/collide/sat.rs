//! Separating axis test between convex polygons (000 article, "OBB to OBB"): each face normal
//! of one polygon is an axis; the separation on it is the distance of the other polygon's
//! deepest vertex beyond that face.

use super::clip_trace::{ClipEvent, SatAxis, ShapeId};
use crate::engine::math::Transform;
use crate::engine::shape::Polygon;
use crate::engine::trace::{NoTrace, Recorder};

/// The face of `poly1` with the largest separation from `poly2`, and that separation
/// (negative when the polygons overlap along every face normal of `poly1`).
pub fn find_max_separation(poly1: &Polygon, xf1: &Transform, poly2: &Polygon, xf2: &Transform) -> (usize, f32) {
    find_max_separation_with(poly1, xf1, poly2, xf2, ShapeId::A, &mut NoTrace)
}

/// `find_max_separation`, recording every tested axis (face `i` of `poly1`, which belongs to
/// shape `owner`) as a `ClipEvent::Axis`.
#[inline]
pub fn find_max_separation_with<R: Recorder<ClipEvent>>(
    poly1: &Polygon,
    xf1: &Transform,
    poly2: &Polygon,
    xf2: &Transform,
    owner: ShapeId,
    rec: &mut R,
) -> (usize, f32) {
    // Work in poly2's frame: move poly1's normals and vertices there once.
    let xf = xf2.inv_mul(xf1);
    let mut best_index = 0;
    let mut max_separation = -f32::MAX;
    for i in 0..poly1.count {
        let n = xf.q.apply(poly1.normals[i]);
        let v1 = xf.apply(poly1.vertices[i]);
        // The deepest vertex of poly2 along -n.
        let mut si = f32::MAX;
        let mut deepest = 0;
        for (j, v2) in poly2.vertices().iter().enumerate() {
            let s = n.dot(*v2 - v1);
            if s < si {
                si = s;
                deepest = j;
            }
        }
        if R::ENABLED {
            rec.record(ClipEvent::Axis(SatAxis {
                owner,
                edge: i,
                normal: xf1.q.apply(poly1.normals[i]),
                face: [xf1.apply(poly1.vertices[i]), xf1.apply(poly1.vertices[(i + 1) % poly1.count])],
                separation: si,
                deepest_vertex: deepest,
                deepest_point: xf2.apply(poly2.vertices[deepest]),
            }));
        }
        if si > max_separation {
            max_separation = si;
            best_index = i;
        }
    }
    (best_index, max_separation)
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
