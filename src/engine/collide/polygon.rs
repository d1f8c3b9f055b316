//! Polygon–polygon manifold by SAT and clipping (000 article, "OBB to OBB"; boxes are
//! polygons): find the axis of least penetration on each polygon, choose the reference face
//! with `BiasGreaterThan`, clip the incident face against the reference face's side planes and
//! keep the points behind the reference face.

use super::clip::{clip_segment_to_line, find_incident_edge, ClipVertex, Line};
use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use super::sat::find_max_separation_traced;
use super::trace::{ClipTrace, ShapeId, TracedFace, TracedPoint};
use crate::engine::math::{bias_greater_than, Transform};
use crate::engine::shape::Polygon;

/// How much shallower (metres) B's best face must be, beyond the article's bias, before it
/// replaces A's as the reference face. `BiasGreaterThan` is purely relative, so for
/// the millimetre overlaps of resting contacts its margin vanishes and the reference face
/// flips between frames; an absolute margin (Box2D uses a tenth of the linear slop) keeps it.
pub const REFERENCE_FACE_TOLERANCE: f32 = 0.1 * crate::engine::LINEAR_SLOP;

/// Contact between convex polygons A and B; the normal points from A to B. Points whose
/// separation is below `margin` are kept (margin 0 reports overlaps only).
pub fn collide_polygons(a: &Polygon, xfa: &Transform, b: &Polygon, xfb: &Transform, margin: f32) -> Manifold {
    collide_polygons_traced(a, xfa, b, xfb, margin, true, None)
}

/// `collide_polygons` with the reference-face bias switchable (`use_bias = false` compares
/// separations plainly, to show the flicker the article warns about) and an optional trace of
/// every step.
pub fn collide_polygons_traced(
    a: &Polygon,
    xfa: &Transform,
    b: &Polygon,
    xfb: &Transform,
    margin: f32,
    use_bias: bool,
    mut trace: Option<&mut ClipTrace>,
) -> Manifold {
    if let Some(t) = trace.as_deref_mut() {
        *t = ClipTrace { use_bias, ..Default::default() };
        t.vertices = [a.world_vertices(xfa).collect(), b.world_vertices(xfb).collect()];
    }
    let (edge_a, separation_a) =
        find_max_separation_traced(a, xfa, b, xfb, ShapeId::A, trace.as_deref_mut().map(|t| &mut t.axes));
    if let Some(t) = trace.as_deref_mut() {
        t.best[0] = Some(edge_a);
    }
    if separation_a > margin {
        if let Some(t) = trace.as_deref_mut() {
            t.separating_axis = Some(edge_a);
        }
        return Manifold::EMPTY;
    }
    let first_b = a.count;
    let (edge_b, separation_b) =
        find_max_separation_traced(b, xfb, a, xfa, ShapeId::B, trace.as_deref_mut().map(|t| &mut t.axes));
    if let Some(t) = trace.as_deref_mut() {
        t.best[1] = Some(first_b + edge_b);
    }
    if separation_b > margin {
        if let Some(t) = trace.as_deref_mut() {
            t.separating_axis = Some(first_b + edge_b);
        }
        return Manifold::EMPTY;
    }
    // Prefer A's face unless B's is clearly better (article: `BiasGreaterThan`, for stability).
    let plain = separation_b > separation_a;
    let flip = if use_bias { bias_greater_than(separation_b - REFERENCE_FACE_TOLERANCE, separation_a) } else { plain };
    let (ref_poly, ref_xf, ref_edge, inc_poly, inc_xf) =
        if flip { (b, xfb, edge_b, a, xfa) } else { (a, xfa, edge_a, b, xfb) };

    // Reference face in world space.
    let i1 = ref_edge;
    let i2 = (ref_edge + 1) % ref_poly.count;
    let v1 = ref_xf.apply(ref_poly.vertices[i1]);
    let v2 = ref_xf.apply(ref_poly.vertices[i2]);
    let ref_normal = ref_xf.q.apply(ref_poly.normals[ref_edge]);
    let tangent = (v2 - v1).normalize();

    // Incident face.
    let inc_edge = find_incident_edge(inc_poly, inc_xf, ref_normal);
    let j1 = inc_edge;
    let j2 = (inc_edge + 1) % inc_poly.count;
    let incident = [
        ClipVertex { v: inc_xf.apply(inc_poly.vertices[j1]), incident_vertex: Some(j1), side_plane: None },
        ClipVertex { v: inc_xf.apply(inc_poly.vertices[j2]), incident_vertex: Some(j2), side_plane: None },
    ];

    // Side planes bound the reference face along its tangent.
    let neg_plane = Line { n: -tangent, c: -tangent.dot(v1) };
    let pos_plane = Line { n: tangent, c: tangent.dot(v2) };
    let (clip1, n1) = clip_segment_to_line(incident, &neg_plane, 0);
    let (clip2, n2) = clip_segment_to_line(clip1, &pos_plane, 1);
    let ref_face = Line { n: ref_normal, c: ref_normal.dot(v1) };
    if let Some(t) = trace.as_deref_mut() {
        let (ref_id, inc_id) = if flip { (ShapeId::B, ShapeId::A) } else { (ShapeId::A, ShapeId::B) };
        t.flip = flip;
        t.bias_changed_choice = flip != plain;
        t.reference = Some(TracedFace { owner: ref_id, edge: ref_edge, v1, v2, normal: ref_normal });
        t.incident = Some(TracedFace {
            owner: inc_id,
            edge: inc_edge,
            v1: incident[0].v,
            v2: incident[1].v,
            normal: inc_xf.q.apply(inc_poly.normals[inc_edge]),
        });
        t.side_planes = vec![neg_plane, pos_plane];
        let traced = |pts: &[ClipVertex]| {
            pts.iter().map(|c| TracedPoint { p: c.v, created_by: c.side_plane }).collect::<Vec<_>>()
        };
        t.clip_stages = vec![traced(&incident), traced(&clip1[..n1]), traced(&clip2[..if n1 < 2 { 0 } else { n2 }])];
    }
    if n1 < 2 || n2 < 2 {
        // The incident face lies outside the side planes. The article treats this as round-off
        // and reports nothing, but it also happens when a small polygon sits deep inside a
        // large one; keep the deepest incident vertex so such an overlap is never lost.
        let m = deepest_vertex_contact(inc_poly, inc_xf, &ref_face, ref_edge, flip, margin);
        if let Some(t) = trace {
            t.fallback = true;
            t.result = m;
        }
        return m;
    }

    // Keep points behind the reference face (within the speculative margin).
    let mut m = Manifold::EMPTY;
    m.normal = if flip { -ref_normal } else { ref_normal };
    // The incident edge runs against the reference edge: the point towards v1 pairs
    // reference vertex i1 with incident vertex j2, the other i2 with j1 (Box2D v3). The id
    // stays the same whether the point is a kept vertex or a clip point, so a resting
    // contact keeps its warm start when a corner slides across a side plane.
    let lower_first = tangent.dot(clip2[0].v) <= tangent.dot(clip2[1].v);
    for (k, cv) in clip2.iter().enumerate() {
        let separation = ref_face.distance_to_line(cv.v);
        let keep = separation <= margin;
        if let Some(t) = trace.as_deref_mut() {
            if keep { &mut t.kept } else { &mut t.rejected }.push((cv.v, separation));
        }
        if keep {
            let (rv, iv) = if (k == 0) == lower_first { (i1, j2) } else { (i2, j1) };
            m.push(ManifoldPoint {
                // Midway between the incident point and the reference surface.
                point: cv.v - 0.5 * separation * ref_normal,
                penetration: -separation,
                id: FeatureId::new(flip, FeatureKind::Face, rv, iv),
            });
        }
    }
    if let Some(t) = trace {
        t.result = m;
    }
    m
}

/// A single contact at the incident polygon's deepest vertex below the reference face.
fn deepest_vertex_contact(
    inc: &Polygon,
    inc_xf: &Transform,
    ref_face: &Line,
    ref_edge: usize,
    flip: bool,
    margin: f32,
) -> Manifold {
    let j = inc.support_index(inc_xf.q.apply_inv(-ref_face.n));
    let v = inc_xf.apply(inc.vertices[j]);
    let separation = ref_face.distance_to_line(v);
    let mut m = Manifold::EMPTY;
    if separation <= margin {
        m.normal = if flip { -ref_face.n } else { ref_face.n };
        m.push(ManifoldPoint {
            point: v - 0.5 * separation * ref_face.n,
            penetration: -separation,
            id: FeatureId::new(flip, FeatureKind::Vertex, ref_edge, j),
        });
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn square(h: f32) -> Polygon {
        Polygon::make_box(Vec2::splat(h)).unwrap()
    }

    #[test]
    fn box_resting_on_box_gives_two_points() {
        // B sits on A overlapping by 0.1, shifted right by 0.5.
        let a = square(1.0);
        let b = square(0.5);
        let xa = Transform::IDENTITY;
        let xb = Transform::new(Vec2::new(0.5, 1.4), 0.0);
        let m = collide_polygons(&a, &xa, &b, &xb, 0.0);
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.penetration - 0.1).abs() < 1e-5);
            assert!((p.point.y - 0.95).abs() < 1e-5);
        }
        let xs: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
        assert!(xs.iter().any(|x| (x - 0.0).abs() < 1e-5) && xs.iter().any(|x| (x - 1.0).abs() < 1e-5));
    }

    #[test]
    fn incident_face_wider_than_reference_is_clipped() {
        // A small box under a wide one: the reference face is on the small box or the wide
        // one; either way the clipped points lie within the overlap x ∈ [-0.5, 0.5].
        let a = square(0.5);
        let b = Polygon::make_box(Vec2::new(3.0, 0.5)).unwrap();
        let m = collide_polygons(&a, &Transform::IDENTITY, &b, &Transform::new(Vec2::new(0.0, 0.9), 0.0), 0.0);
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!(p.point.x.abs() <= 0.5 + 1e-5);
            assert!((p.penetration - 0.1).abs() < 1e-5);
        }
    }

    #[test]
    fn corner_into_face_gives_one_point() {
        let a = square(1.0);
        let b = square(0.5);
        let r = 0.5 * std::f32::consts::SQRT_2;
        let xb = Transform::new(Vec2::new(0.2, 1.0 + r - 0.05), std::f32::consts::FRAC_PI_4);
        let m = collide_polygons(&a, &Transform::IDENTITY, &b, &xb, 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec2::Y).length() < 1e-5);
        assert!((m.points[0].penetration - 0.05).abs() < 1e-4);
        assert!((m.points[0].point.x - 0.2).abs() < 1e-4);
    }

    #[test]
    fn separated_or_touching() {
        let a = square(1.0);
        let m = collide_polygons(&a, &Transform::IDENTITY, &a, &Transform::new(Vec2::new(2.1, 0.0), 0.0), 0.0);
        assert_eq!(m.count, 0);
        let m = collide_polygons(&a, &Transform::IDENTITY, &a, &Transform::new(Vec2::new(2.0, 0.0), 0.0), 0.0);
        assert_eq!(m.count, 2, "touching faces report zero-depth points");
        assert!(m.points().iter().all(|p| p.penetration.abs() < 1e-6));
    }

    #[test]
    fn small_polygon_deep_inside_a_large_one_keeps_a_contact() {
        // A tiny box inside a big one, offset so the big box's incident face (seen from the
        // tiny box's face) lies entirely outside the tiny face's side planes.
        let big = square(2.0);
        let tiny = square(0.1);
        let xt = Transform::new(Vec2::new(1.5, 1.2), 0.3);
        let ab = collide_polygons(&big, &Transform::IDENTITY, &tiny, &xt, 0.0);
        let ba = collide_polygons(&tiny, &xt, &big, &Transform::IDENTITY, 0.0);
        assert!(ab.count > 0 && ba.count > 0);
        assert!(ab.max_penetration() > 0.5 && ba.max_penetration() > 0.5);
    }

    #[test]
    fn identical_boxes_at_same_pose_do_not_produce_nan() {
        let a = square(1.0);
        let xf = Transform::new(Vec2::new(1.0, 2.0), 0.3);
        let m = collide_polygons(&a, &xf, &a, &xf, 0.0);
        assert!(m.count >= 1);
        assert!((m.normal.length() - 1.0).abs() < 1e-5);
        for p in m.points() {
            assert!(p.point.is_finite() && p.penetration.is_finite());
            assert!((p.penetration - 2.0).abs() < 1e-4);
        }
    }

    #[test]
    fn feature_ids_are_stable_under_small_motion() {
        let a = square(1.0);
        let b = square(0.5);
        let m1 = collide_polygons(&a, &Transform::IDENTITY, &b, &Transform::new(Vec2::new(0.3, 1.45), 0.0), 0.0);
        let m2 = collide_polygons(&a, &Transform::IDENTITY, &b, &Transform::new(Vec2::new(0.31, 1.44), 0.0), 0.0);
        let ids1: Vec<_> = m1.points().iter().map(|p| p.id).collect();
        let ids2: Vec<_> = m2.points().iter().map(|p| p.id).collect();
        assert_eq!(ids1, ids2);
    }
}
