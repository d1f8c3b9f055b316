//! Rounded manifolds: polygon–capsule (the capsule as a rounded two-gon, Box2D v3's
//! `b2MakeCapsule`) and rounded polygons (`b2MakeRoundedBox`, `b2Polygon.radius`), both
//! through `b2CollidePolygons`, which handles radii: SAT on the cores (`find_max_separation`),
//! the reference and incident edges, then either clipping (`clip_polygons`) or, when the cores
//! are apart and the closest features are two vertices, a single vertex–vertex point.
//! Traced through the SAT + clipping trace (`clip_trace`), with the radii and the closest
//! points of the edges.
//!
//! Computed in A's frame shifted to A's first vertex, returned in world space, normal A → B.

use super::clip::Line;
use super::clip_trace::{ClipEvent, ShapeId, TracedFace, TracedPoint};
use super::frame_of_a::{find_incident_edge, find_max_separation, own_proxy, proxy_in, record_axes, Frame};
use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use super::polygon::{ReferenceFaceRule, DEPTH_GUARD};
use super::segment::segment_distance;
use super::support::Proxy;
use crate::engine::math::{cross_sv, right_perp, Transform};
use crate::engine::shape::{Capsule, Polygon};
use crate::engine::trace::{NoTrace, Recorder};
use crate::engine::LINEAR_SLOP;
use glam::Vec2;

/// Contact between polygon A and capsule B; points separated by less than `margin` are kept.
pub fn collide_polygon_capsule(a: &Polygon, xfa: &Transform, b: &Capsule, xfb: &Transform, margin: f32) -> Manifold {
    collide_polygon_capsule_with(a, xfa, b, xfb, margin, &mut NoTrace)
}

/// [`collide_polygon_capsule`] recording its steps in the SAT + clipping trace.
pub fn collide_polygon_capsule_with<R: Recorder<ClipEvent>>(
    a: &Polygon,
    xfa: &Transform,
    b: &Capsule,
    xfb: &Transform,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let frame = Frame::of(a, xfa);
    // B in A's frame: the capsule's two-gon, normals rotated from its own frame.
    let (xf, origin) = (xfa.inv_mul(xfb), frame.origin);
    let n0 = right_perp((b.center2 - b.center1).normalize());
    let mut pb = Proxy::zeroed(2, b.radius);
    pb.points[0] = xf.apply(b.center1) - origin;
    pb.points[1] = xf.apply(b.center2) - origin;
    pb.normals[0] = xf.q.apply(n0);
    pb.normals[1] = -pb.normals[0];
    collide_in_frame_of_a(&own_proxy(a), &pb, &frame, margin, rec)
}

/// Contact between polygons A and B, either or both rounded (Box2D's `b2CollidePolygons` with
/// their radii); the sharp pair goes through [`super::polygon`]'s SAT and clipping.
pub fn collide_rounded_polygons(a: &Polygon, xfa: &Transform, b: &Polygon, xfb: &Transform, margin: f32) -> Manifold {
    collide_rounded_polygons_with(a, xfa, b, xfb, margin, &mut NoTrace)
}

/// [`collide_rounded_polygons`] recording its steps in the SAT + clipping trace.
pub fn collide_rounded_polygons_with<R: Recorder<ClipEvent>>(
    a: &Polygon,
    xfa: &Transform,
    b: &Polygon,
    xfb: &Transform,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let frame = Frame::of(a, xfa);
    collide_in_frame_of_a(&own_proxy(a), &proxy_in(&frame, b, xfb), &frame, margin, rec)
}

/// `b2CollidePolygons` on `pa` and `pb`, both given in `frame` (A's, shifted to its first
/// vertex); the manifold comes back in world space.
fn collide_in_frame_of_a<R: Recorder<ClipEvent>>(
    pa: &Proxy,
    pb: &Proxy,
    frame: &Frame,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    if R::ENABLED {
        let vertices = [pa, pb].map(|p| p.points[..p.count].iter().map(|&v| frame.point(v)).collect());
        rec.record(ClipEvent::Begin { rule: ReferenceFaceRule::Plain, vertices });
        rec.record(ClipEvent::Radii([pa.radius, pb.radius]));
    }
    let m = frame.manifold_to_world(collide_rounded(pa, pb, margin, frame, rec));
    if R::ENABLED {
        rec.record(ClipEvent::Done(m));
    }
    m
}

/// `b2CollidePolygons` on two rounded polygons in one frame.
fn collide_rounded<R: Recorder<ClipEvent>>(a: &Proxy, b: &Proxy, margin: f32, frame: &Frame, rec: &mut R) -> Manifold {
    let (mut edge_a, separation_a) = find_max_separation(a, b);
    let (mut edge_b, separation_b) = find_max_separation(b, a);
    let radius = a.radius + b.radius;
    if R::ENABLED {
        record_axes(a, b, ShapeId::A, 0, ((edge_a, separation_a), margin + radius), frame, rec);
        if separation_a <= margin + radius {
            record_axes(b, a, ShapeId::B, a.count, ((edge_b, separation_b), margin + radius), frame, rec);
        }
    }
    if separation_a > margin + radius || separation_b > margin + radius {
        return Manifold::EMPTY;
    }
    let flip = separation_a < separation_b;
    if flip {
        edge_a = find_incident_edge(a, b.normals[edge_b]);
    } else {
        edge_b = find_incident_edge(b, a.normals[edge_a]);
    }
    // The cores overlap (or nearly): clip. Otherwise the edges are disjoint: clip unless the
    // closest features are two vertices with a clearly smaller separation (the slop keeps the
    // vertex–vertex normal safely normalisable).
    if separation_a <= 0.1 * LINEAR_SLOP && separation_b <= 0.1 * LINEAR_SLOP {
        // When the incident edge misses the reference edge's extent (a core's end at the
        // other's corner), Box2D reports nothing; the deepest incident vertex keeps the contact.
        let deepest = || (deepest_vertex_contact(a, b, if flip { edge_b } else { edge_a }, flip), ClipEvent::Fallback);
        let clipped = clip_polygons(a, b, edge_a, edge_b, flip, frame, rec);
        return within_margin(clipped, margin, deepest, frame, rec);
    }
    let (i11, i12) = (edge_a, (edge_a + 1) % a.count);
    let (i21, i22) = (edge_b, (edge_b + 1) % b.count);
    let (v11, v12, v21, v22) = (a.points[i11], a.points[i12], b.points[i21], b.points[i22]);
    let closest = segment_distance(v11, v12, v21, v22);
    let distance = closest.distance_squared.sqrt();
    let separation = distance - radius;
    if separation > margin || distance == 0.0 {
        return Manifold::EMPTY;
    }
    let normal = (closest.closest2 - closest.closest1) / distance;
    let single = |ia: usize, ib: usize| {
        let on_a = closest.closest1 + a.radius * normal;
        let on_b = closest.closest2 - b.radius * normal;
        let mut m = Manifold::EMPTY;
        m.normal = normal;
        m.push(ManifoldPoint {
            point: 0.5 * (on_a + on_b),
            penetration: -separation,
            id: FeatureId::new(false, FeatureKind::Vertex, ia, ib),
        });
        m
    };
    let closest_points = ClipEvent::ClosestPoints([closest.closest1, closest.closest2].map(|p| frame.point(p)));
    let clipped = clip_polygons(a, b, edge_a, edge_b, flip, frame, rec);
    let min_separation = clipped.points().iter().map(|p| -p.penetration).fold(f32::MAX, f32::min);
    let end = |f: f32, first: usize, second: usize| {
        if f == 0.0 {
            Some(first)
        } else if f == 1.0 {
            Some(second)
        } else {
            None
        }
    };
    let ends = (end(closest.fraction1, i11, i12), end(closest.fraction2, i21, i22));
    if let (Some(ia), Some(ib)) = ends {
        if separation + DEPTH_GUARD < min_separation {
            // Vertex–vertex: one point between the two closest vertices. (Box2D v3 keeps the
            // clipped points unless they are a tenth of a linear slop shallower; they report
            // the contact up to that much shallower than it is, so the guard here is 10 µm.)
            if R::ENABLED {
                rec.record(closest_points);
            }
            return single(ia, ib);
        }
    }
    // Keep the clipped points within the margin; if none is, the closest points still are.
    within_margin(clipped, margin, || (single(i11, i21), closest_points), frame, rec)
}

/// One point at the incident core's deepest vertex along the normal of the reference edge
/// `e1` (A's, or B's when `flip`), midway between the rounded surfaces.
fn deepest_vertex_contact(a: &Proxy, b: &Proxy, e1: usize, flip: bool) -> Manifold {
    let (p1, p2) = if flip { (b, a) } else { (a, b) };
    let normal = p1.normals[e1];
    let j = (0..p2.count).min_by(|&i, &k| normal.dot(p2.points[i]).total_cmp(&normal.dot(p2.points[k]))).unwrap_or(0);
    let s = (p2.points[j] - p1.points[e1]).dot(normal);
    let mut m = Manifold::EMPTY;
    m.normal = if flip { -normal } else { normal };
    m.push(ManifoldPoint {
        point: p2.points[j] + 0.5 * (p1.radius - p2.radius - s) * normal,
        penetration: p1.radius + p2.radius - s,
        id: FeatureId::new(flip, FeatureKind::Vertex, e1, j),
    });
    m
}

/// Drops points separated by more than `margin`; an emptied manifold becomes `fallback`'s,
/// whose event the trace records (computed only then).
fn within_margin<R: Recorder<ClipEvent>>(
    m: Manifold,
    margin: f32,
    fallback: impl FnOnce() -> (Manifold, ClipEvent),
    frame: &Frame,
    rec: &mut R,
) -> Manifold {
    let mut kept = Manifold { count: 0, ..m };
    for p in m.points() {
        if R::ENABLED {
            let kept = -p.penetration <= margin;
            rec.record(ClipEvent::Point { p: frame.point(p.point), separation: -p.penetration, kept });
        }
        if -p.penetration <= margin {
            kept.push(*p);
        }
    }
    if kept.count > 0 {
        return kept;
    }
    let (f, event) = fallback();
    if R::ENABLED {
        rec.record(event);
    }
    f
}

/// Box2D's `b2ClipPolygons`: the incident edge clipped to the reference edge's extent, each
/// point moved midway between the two rounded surfaces.
fn clip_polygons<R: Recorder<ClipEvent>>(
    a: &Proxy,
    b: &Proxy,
    edge_a: usize,
    edge_b: usize,
    flip: bool,
    frame: &Frame,
    rec: &mut R,
) -> Manifold {
    let (p1, e1, p2, e2) = if flip { (b, edge_b, a, edge_a) } else { (a, edge_a, b, edge_b) };
    let (i11, i12) = (e1, (e1 + 1) % p1.count);
    let (i21, i22) = (e2, (e2 + 1) % p2.count);
    let normal = p1.normals[i11];
    let (v11, v12) = (p1.points[i11], p1.points[i12]);
    let (v21, v22) = (p2.points[i21], p2.points[i22]);
    let tangent = cross_sv(1.0, normal);
    let (lower1, upper1) = (0.0, (v12 - v11).dot(tangent));
    // The incident edge runs against the tangent (CCW winding).
    let upper2 = (v21 - v11).dot(tangent);
    let lower2 = (v22 - v11).dot(tangent);
    let disjoint = upper2 < lower1 || upper1 < lower2;
    let span = upper2 - lower2;
    let v_lower = if lower2 < lower1 && span > f32::EPSILON { v22.lerp(v21, (lower1 - lower2) / span) } else { v22 };
    let v_upper = if upper2 > upper1 && span > f32::EPSILON { v22.lerp(v21, (upper1 - lower2) / span) } else { v21 };
    if R::ENABLED {
        let faces = [(p1, i11, i12), (p2, i21, i22)].map(|(p, i, j)| (p.normals[i], [p.points[i], p.points[j]]));
        let ends = [(v22, v22 != v_lower), (v21, v21 != v_upper)];
        rec.record(faces_event(faces, [e1, e2], flip, frame));
        rec.record(clipped_event([v_lower, v_upper], ends, disjoint, frame));
    }
    if disjoint {
        return Manifold::EMPTY;
    }
    let separation_lower = (v_lower - v11).dot(normal);
    let separation_upper = (v_upper - v11).dot(normal);
    let (r1, r2) = (p1.radius, p2.radius);
    let v_lower = v_lower + 0.5 * (r1 - r2 - separation_lower) * normal;
    let v_upper = v_upper + 0.5 * (r1 - r2 - separation_upper) * normal;
    let radius = r1 + r2;
    let mut m = Manifold::EMPTY;
    m.normal = if flip { -normal } else { normal };
    let points = if flip {
        [(v_upper, separation_upper, i12, i21), (v_lower, separation_lower, i11, i22)]
    } else {
        [(v_lower, separation_lower, i11, i22), (v_upper, separation_upper, i12, i21)]
    };
    for (point, s, reference, incident) in points {
        m.push(ManifoldPoint {
            point,
            penetration: radius - s,
            id: FeatureId::new(flip, FeatureKind::Face, reference, incident),
        });
    }
    m
}

/// The trace's faces: `faces` are the reference and incident edges (normal, ends) of edges
/// `edges`; the side planes bound the reference edge along its tangent.
fn faces_event(faces: [(Vec2, [Vec2; 2]); 2], edges: [usize; 2], flip: bool, frame: &Frame) -> ClipEvent {
    let owners = if flip { [ShapeId::B, ShapeId::A] } else { [ShapeId::A, ShapeId::B] };
    let [reference, incident] = [0, 1].map(|k| {
        let (n, [v1, v2]) = faces[k];
        TracedFace { owner: owners[k], edge: edges[k], v1: frame.point(v1), v2: frame.point(v2), normal: frame.dir(n) }
    });
    let tangent = (reference.v2 - reference.v1).normalize();
    let side_planes =
        [Line { n: -tangent, c: -tangent.dot(reference.v1) }, Line { n: tangent, c: tangent.dot(reference.v2) }];
    ClipEvent::Faces { flip, bias_changed_choice: false, reference, incident, side_planes }
}

/// The incident edge before clipping, after the lower bound and after the upper bound
/// (`ends` are its lower and upper ends, each with whether its bound clipped it); nothing
/// after clipping when the edges' extents are `disjoint`.
fn clipped_event(clipped: [Vec2; 2], ends: [(Vec2, bool); 2], disjoint: bool, frame: &Frame) -> ClipEvent {
    let point = |p: Vec2, plane: Option<usize>| TracedPoint { p: frame.point(p), created_by: plane };
    let lower = point(clipped[0], ends[0].1.then_some(0));
    let upper = point(clipped[1], ends[1].1.then_some(1));
    let before = vec![point(ends[0].0, None), point(ends[1].0, None)];
    if disjoint {
        return ClipEvent::Clipped([before, Vec::new(), Vec::new()]);
    }
    ClipEvent::Clipped([before, vec![lower, point(ends[1].0, None)], vec![lower, upper]])
}

#[cfg(test)]
mod tests {
    use super::super::clip_trace::ClipTrace;
    use super::super::pair_trace::manifold_bits;
    use super::*;
    use crate::engine::shape::Shape;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_trace_returns_the_untraced_manifold_bit_for_bit(
            hx in 0.1f32..2.0, hy in 0.1f32..2.0, h in 0.05f32..1.5, r in 0.05f32..0.8,
            aa in -4.0f32..4.0, bx in -3.0f32..3.0, by in -3.0f32..3.0, ab in -4.0f32..4.0,
            margin in prop_oneof![Just(0.0f32), 0.0f32..0.1],
        ) {
            let a = Polygon::make_box(Vec2::new(hx, hy)).unwrap();
            let b = Capsule::horizontal(h, r).unwrap();
            let (xa, xb) = (Transform::new(Vec2::new(0.2, -0.1), aa), Transform::new(Vec2::new(bx, by), ab));
            let mut t = ClipTrace::default();
            let m = collide_polygon_capsule_with(&a, &xa, &b, &xb, margin, &mut t);
            let plain = collide_polygon_capsule(&a, &xa, &b, &xb, margin);
            prop_assert_eq!(manifold_bits(&m), manifold_bits(&plain));
            prop_assert_eq!(manifold_bits(&t.result), manifold_bits(&plain));
            prop_assert_eq!(t.radii, [0.0, r]);
            prop_assert_eq!(t.vertices[1].len(), 2, "the capsule's two-gon");
            // Touching means no axis separated, so both shapes' axes were tested.
            if plain.count > 0 {
                prop_assert_eq!(t.axes.len(), 6);
                prop_assert!(t.reference.is_some());
            }
        }
    }

    proptest! {
        #[test]
        fn rounded_polygons_trace_returns_the_untraced_manifold_bit_for_bit(
            hx in 0.1f32..2.0, hy in 0.1f32..2.0, ra in 0.0f32..0.5, rb in 0.0f32..0.5, tri in any::<bool>(),
            aa in -4.0f32..4.0, bx in -3.0f32..3.0, by in -3.0f32..3.0, ab in -4.0f32..4.0,
            margin in prop_oneof![Just(0.0f32), 0.0f32..0.1],
        ) {
            let a = Polygon::make_rounded_box(Vec2::new(hx, hy), ra).unwrap();
            let b = if tri {
                Polygon::new(&[Vec2::new(-0.5, -0.3), Vec2::new(0.6, -0.2), Vec2::new(0.0, 0.7)]).unwrap()
            } else {
                Polygon::make_box(Vec2::new(hy, hx)).unwrap()
            }
            .rounded(rb)
            .unwrap();
            let (xa, xb) = (Transform::new(Vec2::new(0.2, -0.1), aa), Transform::new(Vec2::new(bx, by), ab));
            let mut t = ClipTrace::default();
            let m = collide_rounded_polygons_with(&a, &xa, &b, &xb, margin, &mut t);
            let plain = collide_rounded_polygons(&a, &xa, &b, &xb, margin);
            prop_assert_eq!(manifold_bits(&m), manifold_bits(&plain));
            prop_assert_eq!(manifold_bits(&t.result), manifold_bits(&plain));
            prop_assert_eq!(t.radii, [ra, rb]);
            // The world's dispatch takes the same path (unless both are sharp).
            let via = super::super::collide(&Shape::Polygon(a), &xa, &Shape::Polygon(b), &xb, margin);
            if ra > 0.0 || rb > 0.0 {
                prop_assert_eq!(manifold_bits(&via), manifold_bits(&plain));
            }
        }
    }

    #[test]
    fn rounded_boxes_resting_face_to_face() {
        let ground = Polygon::make_rounded_box(Vec2::new(3.0, 0.5), 0.1).unwrap();
        let b = Polygon::make_rounded_box(Vec2::new(0.5, 0.5), 0.2).unwrap();
        // Surfaces at 0.6 and 0.78 - 0.7 = 0.08 below: 1 cm overlap.
        let xb = Transform::new(Vec2::new(0.4, 0.5 + 0.1 + 0.2 + 0.5 - 0.01), 0.0);
        let m = collide_rounded_polygons(&ground, &Transform::IDENTITY, &b, &xb, 0.0);
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.penetration - 0.01).abs() < 1e-5, "{p:?}");
            assert!((p.point.y - 0.595).abs() < 1e-5, "{p:?}");
        }
        // Apart by 2 cm beyond both radii: nothing without a margin, two points within one.
        let xb = Transform::new(Vec2::new(0.4, 0.5 + 0.1 + 0.2 + 0.5 + 0.02), 0.0);
        assert_eq!(collide_rounded_polygons(&ground, &Transform::IDENTITY, &b, &xb, 0.0).count, 0);
        assert_eq!(collide_rounded_polygons(&ground, &Transform::IDENTITY, &b, &xb, 0.04).count, 2);
    }

    #[test]
    fn capsule_lying_on_a_box_rests_on_two_points() {
        let ground = Polygon::make_box(Vec2::new(3.0, 0.5)).unwrap();
        let cap = Capsule::horizontal(1.0, 0.25).unwrap();
        let xb = Transform::new(Vec2::new(0.4, 0.74), 0.0);
        let m = collide_polygon_capsule(&ground, &Transform::IDENTITY, &cap, &xb, 0.0);
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.penetration - 0.01).abs() < 1e-5);
            assert!((p.point.y - 0.495).abs() < 1e-5);
        }
    }

    #[test]
    fn tilted_capsule_end_and_box_corner() {
        let b = Polygon::make_box(Vec2::splat(0.5)).unwrap();
        let cap = Capsule::horizontal(0.5, 0.2).unwrap();
        // The capsule stands on its lower end above the box's top face.
        let xb = Transform::new(Vec2::new(0.1, 0.5 + 0.5 + 0.2 - 0.03), std::f32::consts::FRAC_PI_2);
        let m = collide_polygon_capsule(&b, &Transform::IDENTITY, &cap, &xb, 0.0);
        assert!(m.count >= 1);
        assert!((m.normal - Vec2::Y).length() < 1e-5);
        assert!((m.max_penetration() - 0.03).abs() < 1e-5);
        // Beyond the box's corner, apart by a gap inside the margin: one vertex–vertex point.
        let corner = Vec2::new(0.5, 0.5);
        let dir = Vec2::new(1.0, 1.0).normalize();
        let end = corner + (0.2 + 0.01) * dir;
        let xb = Transform::new(end + 0.5 * dir, std::f32::consts::FRAC_PI_4);
        let m = collide_polygon_capsule(&b, &Transform::IDENTITY, &cap, &xb, 0.02);
        assert_eq!(m.count, 1);
        assert!((m.normal - dir).length() < 1e-4, "{:?}", m.normal);
        assert!((m.points[0].penetration + 0.01).abs() < 1e-5);
        // The trace says why: the closest points of the two edges, the box's corner and the
        // capsule's end, 1 cm apart beyond the radius.
        let mut t = ClipTrace::default();
        collide_polygon_capsule_with(&b, &Transform::IDENTITY, &cap, &xb, 0.02, &mut t);
        let [p, q] = t.closest_points.expect("the vertex–vertex point");
        assert!((p - corner).length() < 1e-5 && (q - end).length() < 1e-4, "{p} {q}");
    }
}
