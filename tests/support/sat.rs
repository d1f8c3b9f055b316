//! The separating axis test written out over every face of both polygons, as a reference for
//! GJK/EPA and the clipping narrowphase, and the `BiasGreaterThan` band in which the
//! narrowphase may legitimately pick the other polygon's face.

use glam::Vec2;
use manifold_lab::engine::collide::sat::{edge_separation, find_max_separation};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::Shape;

/// SAT for polygons over every face of both: (depth, normal A→B, gap to the best face with a
/// different normal). EPA's depth must equal `−max(sepA, sepB)`. `None` unless both are
/// polygons.
pub fn sat_reference(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Option<(f32, Vec2, f32)> {
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else { return None };
    let mut faces: Vec<(f32, Vec2)> = (0..pa.count)
        .map(|i| (edge_separation(pa, xa, i, pb, xb), xa.q.apply(pa.normals[i])))
        .chain((0..pb.count).map(|k| (edge_separation(pb, xb, k, pa, xa), -xb.q.apply(pb.normals[k]))))
        .collect();
    faces.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (best, n) = faces[0];
    let (sa, sb) = (find_max_separation(pa, xa, pb, xb).1, find_max_separation(pb, xb, pa, xa).1);
    assert!(super::close(best, sa.max(sb), 1e-5));
    let gap = faces.iter().find(|f| f.1.dot(n) < 1.0 - 1e-4).map(|f| best - f.0).unwrap_or(f32::MAX);
    Some((-best, n, gap))
}

/// Whether the two polygons' best face separations are close enough for `BiasGreaterThan`
/// (which prefers A's face within 5 % plus a margin) to choose either: then the reference face,
/// and with it the normal and depth, may be the other polygon's. False unless both are polygons.
pub fn in_bias_band(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> bool {
    match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb)) => {
            let (sa, sb) = (find_max_separation(pa, xa, pb, xb).1, find_max_separation(pb, xb, pa, xa).1);
            (sa - sb).abs() <= 0.08 * sa.abs().max(sb.abs()) + 0.02
        }
        _ => false,
    }
}
