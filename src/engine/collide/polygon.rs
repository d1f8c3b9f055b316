//! Polygon–polygon manifold by SAT and clipping (000 article, "OBB to OBB"; boxes are
//! polygons): find the axis of least penetration on each polygon, choose the reference face
//! with `BiasGreaterThan`, clip the incident face against the reference face's side planes and
//! keep the points behind the reference face.

use super::clip::{clip_segment_to_line, find_incident_edge, ClipVertex, Line};
use super::clip_trace::{ClipEvent, ClipTrace, ShapeId, TracedFace, TracedPoint};
use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use super::sat::find_max_separation_with;
use crate::engine::math::{bias_greater_than, Transform};
use crate::engine::shape::Polygon;
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec2;

/// How much shallower (metres) B's best face must be, beyond the article's bias, before it
/// replaces A's as the reference face. `BiasGreaterThan` is purely relative, so for
/// the millimetre overlaps of resting contacts its margin vanishes and the reference face
/// flips between frames; an absolute margin (Box2D uses a tenth of the linear slop) keeps it.
pub const REFERENCE_FACE_TOLERANCE: f32 = 0.1 * crate::engine::LINEAR_SLOP;

/// Contact between convex polygons A and B; the normal points from A to B. Points whose
/// separation is below `margin` are kept (margin 0 reports overlaps only).
pub fn collide_polygons(a: &Polygon, xfa: &Transform, b: &Polygon, xfb: &Transform, margin: f32) -> Manifold {
    collide_polygons_with(a, xfa, b, xfb, margin, true, &mut NoTrace)
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
    trace: Option<&mut ClipTrace>,
) -> Manifold {
    match trace {
        Some(t) => collide_polygons_with(a, xfa, b, xfb, margin, use_bias, t),
        None => collide_polygons_with(a, xfa, b, xfb, margin, use_bias, &mut NoTrace),
    }
}

/// The phases of the 000 article's "OBB to OBB" (and Box2D's `b2CollidePolygons`): find the
/// reference face, clip the incident face to its side planes, keep the points behind it.
pub fn collide_polygons_with<R: Recorder<ClipEvent>>(
    a: &Polygon,
    xfa: &Transform,
    b: &Polygon,
    xfb: &Transform,
    margin: f32,
    use_bias: bool,
    rec: &mut R,
) -> Manifold {
    if R::ENABLED {
        let vertices = [a.world_vertices(xfa).collect(), b.world_vertices(xfb).collect()];
        rec.record(ClipEvent::Begin { use_bias, vertices });
    }
    let m = match find_reference_face(a, xfa, b, xfb, margin, use_bias, rec) {
        None => Manifold::EMPTY,
        Some(rf) => {
            let (inc_poly, inc_xf) = if rf.flip { (a, xfa) } else { (b, xfb) };
            match clip_incident_face(&rf, inc_poly, inc_xf, rec) {
                Some(clipped) => keep_points_behind_reference(&rf, &clipped, margin, rec),
                None => {
                    // The incident face lies outside the side planes. The article treats this as
                    // round-off and reports nothing, but it also happens when a small polygon
                    // sits deep inside a large one, or straddles its corner; keep one point so
                    // such an overlap is never lost (`deepest_vertex_contact`).
                    if R::ENABLED {
                        rec.record(ClipEvent::Fallback);
                    }
                    deepest_vertex_contact(inc_poly, inc_xf, &rf, margin)
                }
            }
        }
    };
    if R::ENABLED {
        rec.record(ClipEvent::Done(m));
    }
    m
}

/// The reference face in world space: its shape (`flip`: B's), edge and end vertices, its
/// outward normal and the line through it.
#[derive(Clone, Copy, Debug)]
pub struct ReferenceFace {
    pub flip: bool,
    /// Whether a plain comparison of the separations would have chosen the other shape's face.
    pub bias_changed_choice: bool,
    /// The face runs from vertex `edge` (`v1`) to vertex `edge2` (`v2`) of its polygon.
    pub edge: usize,
    pub edge2: usize,
    pub v1: Vec2,
    pub v2: Vec2,
    pub normal: Vec2,
    pub face: Line,
}

/// SAT on both polygons' face normals, then the choice of reference face: A's unless B's is
/// clearly better (the article's `BiasGreaterThan`, for stability). `None` when an axis
/// separates the polygons by more than `margin`.
pub fn find_reference_face<R: Recorder<ClipEvent>>(
    a: &Polygon,
    xfa: &Transform,
    b: &Polygon,
    xfb: &Transform,
    margin: f32,
    use_bias: bool,
    rec: &mut R,
) -> Option<ReferenceFace> {
    let best_face = |poly1, xf1, poly2, xf2, owner, first: usize, rec: &mut R| {
        let (edge, separation) = find_max_separation_with(poly1, xf1, poly2, xf2, owner, rec);
        if R::ENABLED {
            rec.record(ClipEvent::Best { owner, axis: first + edge });
            if separation > margin {
                rec.record(ClipEvent::Separating(first + edge));
            }
        }
        (separation <= margin).then_some((edge, separation))
    };
    let (edge_a, separation_a) = best_face(a, xfa, b, xfb, ShapeId::A, 0, rec)?;
    let (edge_b, separation_b) = best_face(b, xfb, a, xfa, ShapeId::B, a.count, rec)?;
    let plain = separation_b > separation_a;
    let flip = if use_bias { bias_greater_than(separation_b - REFERENCE_FACE_TOLERANCE, separation_a) } else { plain };
    let (poly, xf, edge) = if flip { (b, xfb, edge_b) } else { (a, xfa, edge_a) };
    let edge2 = (edge + 1) % poly.count;
    let (v1, v2) = (xf.apply(poly.vertices[edge]), xf.apply(poly.vertices[edge2]));
    let normal = xf.q.apply(poly.normals[edge]);
    let face = Line { n: normal, c: normal.dot(v1) };
    Some(ReferenceFace { flip, bias_changed_choice: flip != plain, edge, edge2, v1, v2, normal, face })
}

/// The incident face clipped to the reference face's side planes: the two points, and the
/// incident edge's vertices (`j1` to `j2`) for the feature ids.
#[derive(Clone, Copy, Debug)]
pub struct ClippedFace {
    pub points: [ClipVertex; 2],
    pub j1: usize,
    pub j2: usize,
}

/// The incident face (the other polygon's edge most anti-parallel to the reference normal),
/// clipped to the reference face's side planes (Sutherland–Hodgman on a segment). `None`
/// when clipping leaves fewer than two points.
pub fn clip_incident_face<R: Recorder<ClipEvent>>(
    rf: &ReferenceFace,
    inc_poly: &Polygon,
    inc_xf: &Transform,
    rec: &mut R,
) -> Option<ClippedFace> {
    let inc_edge = find_incident_edge(inc_poly, inc_xf, rf.normal);
    let (j1, j2) = (inc_edge, (inc_edge + 1) % inc_poly.count);
    let incident = [
        ClipVertex { v: inc_xf.apply(inc_poly.vertices[j1]), incident_vertex: Some(j1), side_plane: None },
        ClipVertex { v: inc_xf.apply(inc_poly.vertices[j2]), incident_vertex: Some(j2), side_plane: None },
    ];
    // Side planes bound the reference face along its tangent.
    let tangent = (rf.v2 - rf.v1).normalize();
    let side_planes = [Line { n: -tangent, c: -tangent.dot(rf.v1) }, Line { n: tangent, c: tangent.dot(rf.v2) }];
    let (clip1, n1) = clip_segment_to_line(incident, &side_planes[0], 0);
    let (clip2, n2) = clip_segment_to_line(clip1, &side_planes[1], 1);
    if R::ENABLED {
        let (ref_id, inc_id) = if rf.flip { (ShapeId::B, ShapeId::A) } else { (ShapeId::A, ShapeId::B) };
        let reference = TracedFace { owner: ref_id, edge: rf.edge, v1: rf.v1, v2: rf.v2, normal: rf.normal };
        let normal = inc_xf.q.apply(inc_poly.normals[inc_edge]);
        let incident_face = TracedFace { owner: inc_id, edge: inc_edge, v1: incident[0].v, v2: incident[1].v, normal };
        rec.record(ClipEvent::Faces {
            flip: rf.flip,
            bias_changed_choice: rf.bias_changed_choice,
            reference,
            incident: incident_face,
            side_planes,
        });
        let traced =
            |pts: &[ClipVertex]| pts.iter().map(|c| TracedPoint { p: c.v, created_by: c.side_plane }).collect();
        rec.record(ClipEvent::Clipped([
            traced(&incident),
            traced(&clip1[..n1]),
            traced(&clip2[..if n1 < 2 { 0 } else { n2 }]),
        ]));
    }
    (n1 >= 2 && n2 >= 2).then_some(ClippedFace { points: clip2, j1, j2 })
}

/// The clipped points behind the reference face (within the speculative margin), each moved
/// halfway to the face, with Box2D v3's feature ids.
pub fn keep_points_behind_reference<R: Recorder<ClipEvent>>(
    rf: &ReferenceFace,
    clipped: &ClippedFace,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let mut m = Manifold::EMPTY;
    m.normal = if rf.flip { -rf.normal } else { rf.normal };
    // The incident edge runs against the reference edge: the point towards v1 pairs
    // reference vertex i1 with incident vertex j2, the other i2 with j1 (Box2D v3). The id
    // stays the same whether the point is a kept vertex or a clip point, so a resting
    // contact keeps its warm start when a corner slides across a side plane.
    let tangent = (rf.v2 - rf.v1).normalize();
    let pts = &clipped.points;
    let lower_first = tangent.dot(pts[0].v) <= tangent.dot(pts[1].v);
    let (i1, i2, j1, j2) = (rf.edge, rf.edge2, clipped.j1, clipped.j2);
    for (k, cv) in pts.iter().enumerate() {
        let separation = rf.face.distance_to_line(cv.v);
        let keep = separation <= margin;
        if R::ENABLED {
            rec.record(ClipEvent::Point { p: cv.v, separation, kept: keep });
        }
        if keep {
            let (rv, iv) = if (k == 0) == lower_first { (i1, j2) } else { (i2, j1) };
            m.push(ManifoldPoint {
                // Midway between the incident point and the reference surface.
                point: cv.v - 0.5 * separation * rf.normal,
                penetration: -separation,
                id: FeatureId::new(rf.flip, FeatureKind::Face, rv, iv),
            });
        }
    }
    m
}

/// A single contact when clipping leaves nothing: the deepest incident vertex between the
/// reference face's side planes, else the deepest of all.
fn deepest_vertex_contact(inc: &Polygon, inc_xf: &Transform, rf: &ReferenceFace, margin: f32) -> Manifold {
    let n = rf.face.n;
    let tangent = rf.v2 - rf.v1;
    let in_slab = |p: Vec2| {
        let t = tangent.dot(p - rf.v1);
        (0.0..=tangent.length_squared()).contains(&t)
    };
    // The deepest incident vertex between the side planes: it lies in the reference polygon
    // when it is behind the face, so half its depth lands on both surfaces.
    let deepest_in_slab = (0..inc.count)
        .map(|j| (j, inc_xf.apply(inc.vertices[j])))
        .filter(|&(_, v)| in_slab(v))
        .map(|(j, v)| (j, v, rf.face.distance_to_line(v)))
        .min_by(|a, b| a.2.total_cmp(&b.2));
    let in_slab = deepest_in_slab.filter(|&(_, _, separation)| separation <= margin).map(|(j, v, separation)| {
        (v - 0.5 * separation * n, separation, FeatureId::new(rf.flip, FeatureKind::Vertex, rf.edge, j))
    });
    // Else the deepest incident vertex (a small polygon deep inside a large one, beyond a short
    // reference face's side planes): its depth is the overlap along this axis.
    let deepest = || {
        let j = inc.support_index(inc_xf.q.apply_inv(-n));
        let v = inc_xf.apply(inc.vertices[j]);
        let separation = rf.face.distance_to_line(v);
        (v - 0.5 * separation * n, separation, FeatureId::new(rf.flip, FeatureKind::Vertex, rf.edge, j))
    };
    let (point, separation, id) = in_slab.unwrap_or_else(deepest);
    let mut m = Manifold::EMPTY;
    if separation <= margin {
        m.normal = if rf.flip { -n } else { n };
        m.push(ManifoldPoint { point, penetration: -separation, id });
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

    /// Distance from `p` to the boundary of `poly` at `xf`, signed (negative inside).
    fn boundary_distance(poly: &Polygon, xf: &Transform, p: Vec2) -> f32 {
        let v: Vec<Vec2> = poly.world_vertices(xf).collect();
        let edge = |a: Vec2, b: Vec2| {
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            p.distance(a + t * (b - a))
        };
        let d = (0..v.len()).map(|i| edge(v[i], v[(i + 1) % v.len()])).fold(f32::MAX, f32::min);
        let inside = (0..v.len()).all(|i| (v[(i + 1) % v.len()] - v[i]).perp_dot(p - v[i]) >= 0.0);
        if inside {
            -d
        } else {
            d
        }
    }

    #[test]
    fn a_polygon_straddling_a_corner_gets_a_point_on_both_surfaces() {
        // Found by the contact-point property test: B overlaps A's corner, and its face that
        // meets A's reference face lies wholly beyond the side plane, so clipping leaves
        // nothing. B's deepest vertex is then outside A; the point must come from inside the
        // side planes instead.
        let a = Polygon::make_box(Vec2::new(1.5809743, 2.4719121)).unwrap();
        let b = Polygon::new(&[
            Vec2::new(-0.18574902, -0.5023217),
            Vec2::new(0.27691835, -0.45841682),
            Vec2::new(0.5310605, -0.069314785),
            Vec2::new(0.59911615, 0.57840425),
            Vec2::new(-0.05059504, 0.5331697),
            Vec2::new(-0.73102796, 0.477471),
            Vec2::new(-0.50854343, -0.1679683),
        ])
        .unwrap();
        let xa = Transform {
            p: Vec2::new(-2.4089355, 1.8686086),
            q: crate::engine::math::Rot { c: 0.96989006, s: -0.2435431 },
        };
        let xb = Transform {
            p: Vec2::new(-1.5055859, -1.2039133),
            q: crate::engine::math::Rot { c: 0.95289904, s: -0.30328777 },
        };
        let m = collide_polygons(&a, &xa, &b, &xb, 0.0);
        assert_eq!(m.count, 1);
        let p = m.points[0];
        assert!(p.penetration > 0.0);
        let on_a = p.point + 0.5 * p.penetration * m.normal;
        let on_b = p.point - 0.5 * p.penetration * m.normal;
        assert!(boundary_distance(&a, &xa, on_a).abs() < 1e-4, "{}", boundary_distance(&a, &xa, on_a));
        assert!(boundary_distance(&b, &xb, on_b).abs() < 1e-4, "{}", boundary_distance(&b, &xb, on_b));
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
