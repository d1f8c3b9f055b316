//! Polygon–polygon manifold by SAT and clipping (000 article, "OBB to OBB"; boxes are
//! polygons): find the axis of least penetration on each polygon, choose the reference face
//! (by default Box2D v3's absolute tolerance, or the article's `BiasGreaterThan`), clip the
//! incident face against the reference face's side planes and keep the points behind the
//! reference face.

use super::clip::{clip_segment_to_line, ClipVertex, Line};
use super::clip_trace::{ClipEvent, ClipTrace, ShapeId, TracedFace, TracedPoint};
use super::frame_of_a::{find_incident_edge, find_max_separation, own_proxy, proxy_in, record_axes, Frame};
use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use super::support::Proxy;
use crate::engine::math::{bias_greater_than, cross_sv, Transform};
use crate::engine::shape::Polygon;
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How much greater (metres) B's best face separation must be than A's before B's face
/// becomes the reference face under [`ReferenceFaceRule::Absolute`]: a tenth of the linear
/// slop, as Box2D v3. Resting contacts overlap by millimetres, so a relative margin would
/// vanish there and let the face flip between frames; this one does not, and it keeps the
/// normal within this much of the minimum translation.
pub const REFERENCE_FACE_TOLERANCE: f32 = 0.1 * crate::engine::LINEAR_SLOP;

/// Which polygon's face becomes the reference face (000 article, "OBB to OBB": the face of
/// least penetration, with a bias so the choice does not flicker between near-equal faces).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReferenceFaceRule {
    /// B's face wins only when its separation is greater by [`REFERENCE_FACE_TOLERANCE`]
    /// (Box2D v3): the normal's overlap is within 0.5 mm of the minimum translation.
    #[default]
    Absolute,
    /// The article's `BiasGreaterThan` (B's separation ≥ 0.95 × A's + 0.01 × B's): stable,
    /// but on deep overlaps it keeps A's face when B's is centimetres better, so bodies are
    /// pushed apart along a longer way than needed.
    Relative,
    /// The greater separation wins, with no hysteresis: the choice flips on near ties.
    Plain,
}

impl ReferenceFaceRule {
    pub const ALL: [ReferenceFaceRule; 3] =
        [ReferenceFaceRule::Absolute, ReferenceFaceRule::Relative, ReferenceFaceRule::Plain];

    pub fn label(self) -> &'static str {
        match self {
            ReferenceFaceRule::Absolute => "Absolute tolerance (Box2D v3)",
            ReferenceFaceRule::Relative => "BiasGreaterThan (article)",
            ReferenceFaceRule::Plain => "Greater separation (no bias)",
        }
    }

    /// Whether B's best face (separation `separation_b`) replaces A's (`separation_a`).
    pub fn prefers_b(self, separation_a: f32, separation_b: f32) -> bool {
        match self {
            ReferenceFaceRule::Absolute => separation_b > separation_a + REFERENCE_FACE_TOLERANCE,
            ReferenceFaceRule::Relative => bias_greater_than(separation_b, separation_a),
            ReferenceFaceRule::Plain => separation_b > separation_a,
        }
    }
}

/// Contact between convex polygons A and B; the normal points from A to B. Points whose
/// separation is below `margin` are kept (margin 0 reports overlaps only).
pub fn collide_polygons(a: &Polygon, xfa: &Transform, b: &Polygon, xfb: &Transform, margin: f32) -> Manifold {
    collide_polygons_with(a, xfa, b, xfb, margin, ReferenceFaceRule::default(), &mut NoTrace)
}

/// `collide_polygons` with the reference-face rule chosen (the Manifold lab shows what each
/// does) and an optional trace of every step.
pub fn collide_polygons_traced(
    a: &Polygon,
    xfa: &Transform,
    b: &Polygon,
    xfb: &Transform,
    margin: f32,
    rule: ReferenceFaceRule,
    trace: Option<&mut ClipTrace>,
) -> Manifold {
    match trace {
        Some(t) => collide_polygons_with(a, xfa, b, xfb, margin, rule, t),
        None => collide_polygons_with(a, xfa, b, xfb, margin, rule, &mut NoTrace),
    }
}

/// A reference face kept only by the rule's hysteresis yields to the other polygon's deeper
/// face when its side planes would cut this much (metres) off the incident polygon's deepest
/// vertex (see [`collide_polygons_with`]).
pub const DEPTH_GUARD: f32 = 1e-5;

/// The phases of the 000 article's "OBB to OBB" (and Box2D's `b2CollidePolygons`): find the
/// reference face, clip the incident face to its side planes, keep the points behind it.
/// Computed in A's frame shifted to its first vertex, as Box2D does (`frame_of_a`); the
/// trace and the manifold are in world space.
///
/// Two guards make the result as deep as the overlap along its normal. Under the default
/// [`ReferenceFaceRule::Absolute`], a face kept by the rule's tolerance although the other
/// polygon's is deeper yields to that face when clipping loses depth: the incident polygon's
/// deepest vertex then lies beyond the kept face's side planes, so the contact is really at
/// this face's corner, and the other face (the minimum translation) clips it whole. And when
/// no point survives although the faces overlap, the deepest incident vertex is kept.
pub fn collide_polygons_with<R: Recorder<ClipEvent>>(
    a: &Polygon,
    xfa: &Transform,
    b: &Polygon,
    xfb: &Transform,
    margin: f32,
    rule: ReferenceFaceRule,
    rec: &mut R,
) -> Manifold {
    if a.radius > 0.0 || b.radius > 0.0 {
        // Rounded polygons: Box2D's `b2CollidePolygons` with radii.
        return super::rounded::collide_rounded_polygons_with(a, xfa, b, xfb, margin, rec);
    }
    if R::ENABLED {
        let vertices = [a.world_vertices(xfa).collect(), b.world_vertices(xfb).collect()];
        rec.record(ClipEvent::Begin { rule, vertices });
    }
    let frame = Frame::of(a, xfa);
    let (pa, pb) = (own_proxy(a), proxy_in(&frame, b, xfb));
    let m = match find_best_faces(&pa, &pb, margin, &frame, rec) {
        None => Manifold::EMPTY,
        Some(best) => {
            let flip = rule.prefers_b(best.separation_a, best.separation_b);
            let rf = ReferenceFace::new(&pa, &pb, &best, flip);
            let m = clip_to_reference(&rf, &pa, &pb, margin, &frame, rec);
            let lost = rf.depth_lost(&m);
            if rule == ReferenceFaceRule::Absolute && rf.bias_changed_choice && lost > DEPTH_GUARD {
                if R::ENABLED {
                    rec.record(ClipEvent::Yield { lost });
                }
                let deeper = ReferenceFace::new(&pa, &pb, &best, !flip);
                clip_to_reference(&deeper, &pa, &pb, margin, &frame, rec)
            } else {
                m
            }
        }
    };
    let m = frame.manifold_to_world(m);
    if R::ENABLED {
        rec.record(ClipEvent::Done(m));
    }
    m
}

/// Clips the incident face to `rf` and keeps the points behind it; when nothing survives
/// (the incident face lies outside the side planes, or its clipped points beyond the margin,
/// as when a small polygon sits deep inside a large one or straddles its corner), the
/// deepest incident vertex, so an overlap is never lost. (The article treats an empty clip
/// as round-off and reports nothing.) In `frame`, as the proxies.
fn clip_to_reference<R: Recorder<ClipEvent>>(
    rf: &ReferenceFace,
    pa: &Proxy,
    pb: &Proxy,
    margin: f32,
    frame: &Frame,
    rec: &mut R,
) -> Manifold {
    let incident = if rf.flip { pa } else { pb };
    let m = match clip_incident_face(rf, incident, frame, rec) {
        Some(clipped) => keep_points_behind_reference(rf, &clipped, margin, frame, rec),
        None => Manifold::EMPTY,
    };
    if m.count > 0 || rf.separation > margin {
        return m;
    }
    if R::ENABLED {
        rec.record(ClipEvent::Fallback);
    }
    deepest_vertex_contact(incident, rf, margin)
}

/// Each polygon's face of greatest separation from the other (SAT).
#[derive(Clone, Copy, Debug)]
struct BestFaces {
    edge_a: usize,
    separation_a: f32,
    edge_b: usize,
    separation_b: f32,
}

/// The reference face in A's frame shifted to its first vertex (`frame_of_a`): its shape
/// (`flip`: B's), edge and end vertices, its outward normal and the line through it.
#[derive(Clone, Copy, Debug)]
struct ReferenceFace {
    flip: bool,
    /// Whether a plain comparison of the separations would have chosen the other shape's face.
    bias_changed_choice: bool,
    /// The reference face's separation: the incident polygon's deepest vertex beyond it.
    separation: f32,
    /// The face runs from vertex `edge` (`v1`) to vertex `edge2` (`v2`) of its polygon.
    edge: usize,
    edge2: usize,
    v1: Vec2,
    v2: Vec2,
    normal: Vec2,
    /// Along the face, from `v1` to `v2` (Box2D's `b2CrossSV(1, normal)`).
    tangent: Vec2,
    face: Line,
}

impl ReferenceFace {
    /// A's best face as the reference, or B's when `flip`.
    fn new(pa: &Proxy, pb: &Proxy, best: &BestFaces, flip: bool) -> Self {
        let (p, edge, separation) =
            if flip { (pb, best.edge_b, best.separation_b) } else { (pa, best.edge_a, best.separation_a) };
        let edge2 = (edge + 1) % p.count;
        let (v1, v2, normal) = (p.points[edge], p.points[edge2], p.normals[edge]);
        let face = Line { n: normal, c: normal.dot(v1) };
        let plain = best.separation_b > best.separation_a;
        let tangent = cross_sv(1.0, normal);
        ReferenceFace {
            flip,
            bias_changed_choice: flip != plain,
            separation,
            edge,
            edge2,
            v1,
            v2,
            normal,
            tangent,
            face,
        }
    }

    /// How much shallower `m`'s deepest point is than this face's separation (infinite when
    /// `m` is empty): the depth its side planes cut off.
    fn depth_lost(&self, m: &Manifold) -> f32 {
        let deepest = m.points().iter().map(|p| -p.penetration).fold(f32::INFINITY, f32::min);
        deepest - self.separation
    }
}

/// SAT on both polygons' face normals (Box2D's `b2FindMaxSeparation`, both ways): each one's
/// best face, or `None` when an axis separates the polygons by more than `margin`.
fn find_best_faces<R: Recorder<ClipEvent>>(
    pa: &Proxy,
    pb: &Proxy,
    margin: f32,
    frame: &Frame,
    rec: &mut R,
) -> Option<BestFaces> {
    let (edge_a, separation_a) = find_max_separation(pa, pb);
    if R::ENABLED {
        record_axes(pa, pb, ShapeId::A, 0, ((edge_a, separation_a), margin), frame, rec);
    }
    if separation_a > margin {
        return None;
    }
    let (edge_b, separation_b) = find_max_separation(pb, pa);
    if R::ENABLED {
        record_axes(pb, pa, ShapeId::B, pa.count, ((edge_b, separation_b), margin), frame, rec);
    }
    (separation_b <= margin).then_some(BestFaces { edge_a, separation_a, edge_b, separation_b })
}

/// The incident face clipped to the reference face's side planes: the two points, and the
/// incident edge's vertices (`j1` to `j2`) for the feature ids.
#[derive(Clone, Copy, Debug)]
struct ClippedFace {
    points: [ClipVertex; 2],
    j1: usize,
    j2: usize,
}

/// The incident face (the other polygon's edge most anti-parallel to the reference normal),
/// clipped to the reference face's side planes (Sutherland–Hodgman on a segment). `None`
/// when clipping leaves fewer than two points.
fn clip_incident_face<R: Recorder<ClipEvent>>(
    rf: &ReferenceFace,
    incident_poly: &Proxy,
    frame: &Frame,
    rec: &mut R,
) -> Option<ClippedFace> {
    let inc_edge = find_incident_edge(incident_poly, rf.normal);
    let (j1, j2) = (inc_edge, (inc_edge + 1) % incident_poly.count);
    let incident = [
        ClipVertex { v: incident_poly.points[j1], incident_vertex: Some(j1), side_plane: None },
        ClipVertex { v: incident_poly.points[j2], incident_vertex: Some(j2), side_plane: None },
    ];
    // Side planes bound the reference face along its tangent.
    let t = rf.tangent;
    let side_planes = [Line { n: -t, c: -t.dot(rf.v1) }, Line { n: t, c: t.dot(rf.v2) }];
    let (clip1, n1) = clip_segment_to_line(incident, &side_planes[0], 0);
    let (clip2, n2) = clip_segment_to_line(clip1, &side_planes[1], 1);
    if R::ENABLED {
        let (ref_id, inc_id) = if rf.flip { (ShapeId::B, ShapeId::A) } else { (ShapeId::A, ShapeId::B) };
        let face = |owner, edge, v1, v2, n| TracedFace {
            owner,
            edge,
            v1: frame.point(v1),
            v2: frame.point(v2),
            normal: frame.dir(n),
        };
        let reference = face(ref_id, rf.edge, rf.v1, rf.v2, rf.normal);
        let incident_face = face(inc_id, inc_edge, incident[0].v, incident[1].v, incident_poly.normals[inc_edge]);
        let world_line = |l: &Line, through: Vec2| {
            let n = frame.dir(l.n);
            Line { n, c: n.dot(frame.point(through)) }
        };
        rec.record(ClipEvent::Faces {
            flip: rf.flip,
            bias_changed_choice: rf.bias_changed_choice,
            reference,
            incident: incident_face,
            side_planes: [world_line(&side_planes[0], rf.v1), world_line(&side_planes[1], rf.v2)],
        });
        let traced = |pts: &[ClipVertex]| {
            pts.iter().map(|c| TracedPoint { p: frame.point(c.v), created_by: c.side_plane }).collect()
        };
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
fn keep_points_behind_reference<R: Recorder<ClipEvent>>(
    rf: &ReferenceFace,
    clipped: &ClippedFace,
    margin: f32,
    frame: &Frame,
    rec: &mut R,
) -> Manifold {
    let mut m = Manifold::EMPTY;
    m.normal = if rf.flip { -rf.normal } else { rf.normal };
    // The incident edge runs against the reference edge: the point towards v1 pairs
    // reference vertex i1 with incident vertex j2, the other i2 with j1 (Box2D v3). The id
    // stays the same whether the point is a kept vertex or a clip point, so a resting
    // contact keeps its warm start when a corner slides across a side plane.
    let pts = &clipped.points;
    let lower_first = rf.tangent.dot(pts[0].v) <= rf.tangent.dot(pts[1].v);
    let (i1, i2, j1, j2) = (rf.edge, rf.edge2, clipped.j1, clipped.j2);
    for (k, cv) in pts.iter().enumerate() {
        let separation = rf.face.distance_to_line(cv.v);
        let keep = separation <= margin;
        if R::ENABLED {
            rec.record(ClipEvent::Point { p: frame.point(cv.v), separation, kept: keep });
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

/// A single contact when clipping leaves nothing: the incident polygon's deepest vertex, so
/// the contact is as deep as the overlap along the normal.
fn deepest_vertex_contact(incident: &Proxy, rf: &ReferenceFace, margin: f32) -> Manifold {
    let n = rf.face.n;
    let mut j = 0;
    for i in 1..incident.count {
        if n.dot(incident.points[i]) < n.dot(incident.points[j]) {
            j = i;
        }
    }
    let v = incident.points[j];
    let separation = rf.face.distance_to_line(v);
    let mut m = Manifold::EMPTY;
    if separation <= margin {
        m.normal = if rf.flip { -n } else { n };
        m.push(ManifoldPoint {
            point: v - 0.5 * separation * n,
            penetration: -separation,
            id: FeatureId::new(rf.flip, FeatureKind::Vertex, rf.edge, j),
        });
    }
    m
}

#[cfg(test)]
mod tests {
    use super::super::sat;
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
    fn a_polygon_straddling_a_corner_gets_points_on_both_surfaces() {
        // Found by the contact-point property test: B overlaps A's corner. Under the article's
        // relative bias A's face was the reference, B's face that meets it lay wholly beyond
        // the side plane and clipping left nothing; B's face is the minimum translation, and
        // with it as the reference every point lies on both surfaces, as deep as the overlap.
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
        assert!(m.count >= 1);
        let best = sat::find_max_separation(&a, &xa, &b, &xb).1.max(sat::find_max_separation(&b, &xb, &a, &xa).1);
        assert!((m.max_penetration() + best).abs() < 1e-5, "{} vs {best}", m.max_penetration());
        for p in m.points() {
            let on_a = p.point + 0.5 * p.penetration * m.normal;
            let on_b = p.point - 0.5 * p.penetration * m.normal;
            assert!(boundary_distance(&a, &xa, on_a).abs() < 1e-4, "{}", boundary_distance(&a, &xa, on_a));
            assert!(boundary_distance(&b, &xb, on_b).abs() < 1e-4, "{}", boundary_distance(&b, &xb, on_b));
        }
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
    fn only_the_relative_bias_pushes_deep_overlaps_the_long_way_out() {
        // Random deep overlaps of two boxes: the normal's overlap against the minimum
        // translation (the best face of either box). The absolute tolerance stays within it;
        // the article's relative bias keeps A's face when B's is up to ~5 % better.
        let mut rng = crate::engine::rng::SplitMix64(0xB1A5);
        let (mut worst_absolute, mut worst_relative, mut overlaps) = (0.0f32, 0.0f32, 0);
        for _ in 0..3000 {
            let a = Polygon::make_box(Vec2::new(rng.f32(0.2, 1.5), rng.f32(0.2, 1.5))).unwrap();
            let b = Polygon::make_box(Vec2::new(rng.f32(0.2, 1.5), rng.f32(0.2, 1.5))).unwrap();
            let xa = Transform::new(Vec2::ZERO, rng.f32(-3.0, 3.0));
            let xb = Transform::new(Vec2::new(rng.f32(-1.0, 1.0), rng.f32(-1.0, 1.0)), rng.f32(-3.0, 3.0));
            let best = sat::find_max_separation(&a, &xa, &b, &xb).1.max(sat::find_max_separation(&b, &xb, &a, &xa).1);
            if best > -0.01 {
                continue;
            }
            overlaps += 1;
            let frame = Frame::of(&a, &xa);
            let (pa, pb) = (own_proxy(&a), proxy_in(&frame, &b, &xb));
            let faces = find_best_faces(&pa, &pb, 0.0, &frame, &mut NoTrace).unwrap();
            for (rule, worst) in
                [(ReferenceFaceRule::Absolute, &mut worst_absolute), (ReferenceFaceRule::Relative, &mut worst_relative)]
            {
                let flip = rule.prefers_b(faces.separation_a, faces.separation_b);
                let rf = ReferenceFace::new(&pa, &pb, &faces, flip);
                *worst = worst.max(best - rf.separation);
            }
        }
        assert!(overlaps > 1000);
        assert!(worst_absolute <= REFERENCE_FACE_TOLERANCE + 1e-6, "{worst_absolute}");
        assert!(worst_relative > 0.01, "{worst_relative}");
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
