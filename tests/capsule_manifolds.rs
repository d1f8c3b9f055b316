//! Capsule manifolds (capsule–capsule, capsule–polygon, capsule–circle) against parry2d and
//! the exact f64 answer (`support::exact_f64`: the brute-force Minkowski difference of the cores) on
//! random seeded pairs at three scales.
//!
//! The manifolds follow Box2D v3, whose tolerances are part of the algorithm: the reference
//! face may be the other shape's when their separations are within a tenth of the linear slop,
//! and two clipped points are accepted when the nearer is within one linear slop of the
//! segments' true distance (otherwise one closest point is used). So the deepest point's depth
//! may differ from the exact penetration by at most `LINEAR_SLOP`, and it is exact (to f32
//! round-off) for all but the pairs in those bands; where it is exact, the normal is the exact
//! one. Errors are printed with `cargo test --test capsule_manifolds -- --nocapture`.

mod support;

use glam::{DVec2, Vec2};
use manifold_lab::engine::collide::{collide, FeatureId};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::engine::LINEAR_SLOP;
use parry2d::math::{Pose, Vector};
use parry2d::shape as ps;
use support::exact_f64::{exact, Core};

struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// A random shape of the given kind (0 capsule, 1 circle, 2 box, 3 polygon) at `scale`.
fn random_shape(rng: &mut Rng, kind: u64, scale: f32) -> Shape {
    let min = 0.0055;
    match kind {
        0 => {
            let h = (scale * rng.f32(0.05, 1.5)).max(min);
            Shape::capsule(
                Vec2::new(-h, 0.0),
                Vec2::new(h, rng.f32(-0.2, 0.2) * scale),
                (scale * rng.f32(0.05, 1.0)).max(min),
            )
            .unwrap()
        }
        1 => Shape::circle((scale * rng.f32(0.05, 2.0)).max(min)).unwrap(),
        2 => {
            Shape::make_box((scale * Vec2::new(rng.f32(0.05, 2.0), rng.f32(0.05, 2.0))).max(Vec2::splat(min))).unwrap()
        }
        _ => loop {
            let n = 3 + (rng.next_u64() % 6) as usize;
            let r = scale * rng.f32(0.2, 2.0);
            let phase = rng.f32(0.0, std::f32::consts::TAU);
            let pts: Vec<Vec2> = (0..n)
                .map(|i| Vec2::from_angle(phase + i as f32 * std::f32::consts::TAU / n as f32) * r * rng.f32(0.6, 1.0))
                .collect();
            if let Ok(p) = Polygon::hull(&pts) {
                break Shape::Polygon(p);
            }
        },
    }
}

fn parry_shape(s: &Shape) -> Box<dyn ps::Shape> {
    let v = |p: Vec2| Vector::new(p.x, p.y);
    match s {
        Shape::Circle(c) => Box::new(ps::Ball::new(c.radius)),
        Shape::Polygon(p) => Box::new(
            ps::ConvexPolygon::from_convex_polyline_unmodified(p.vertices().iter().map(|&q| v(q)).collect()).unwrap(),
        ),
        Shape::Capsule(c) => Box::new(ps::Capsule::new(v(c.center1), v(c.center2), c.radius)),
    }
}

/// The outward unit normals of a shape's core faces in world space (both sides of a capsule's
/// segment, a polygon's edges, none for a circle).
fn face_normals(s: &Shape, xf: &Transform) -> Vec<DVec2> {
    let c = Core::of(s, xf).points;
    let edge = |p: DVec2, q: DVec2| DVec2::new((q - p).y, -(q - p).x).normalize();
    match s {
        Shape::Circle(_) => Vec::new(),
        Shape::Capsule(_) => vec![edge(c[0], c[1]), edge(c[1], c[0])],
        Shape::Polygon(_) => (0..c.len()).map(|i| edge(c[i], c[(i + 1) % c.len()])).collect(),
    }
}

#[derive(Default, Debug)]
struct Stats {
    pairs: usize,
    overlapping: usize,
    overlap_mismatch: usize,
    parry_overlap_mismatch: usize,
    /// Largest |depth − exact| over all overlapping pairs, and over the exact ones.
    depth_error: f64,
    exact_depth_pairs: usize,
    /// Overlapping pairs whose exact normal is well defined; of them, those whose normal is a
    /// face normal in the tolerance band instead of the exact one, and those that are neither.
    normals_compared: usize,
    face_normals: usize,
    normal_failures: usize,
    /// Largest normal error among the exact normals.
    normal_error: f64,
    /// Largest |depth − parry's depth| (parry's own error against the exact answer added).
    depth_vs_parry_excess: f64,
    two_point: usize,
}

fn run(seed: u64, n: usize, scale: f32) -> Stats {
    let mut rng = Rng(seed);
    let mut st = Stats::default();
    let s = scale as f64;
    let touch = 1e-4 * s;
    for i in 0..n {
        // Every pair has a capsule: capsule against capsule, circle, box, polygon, in turn,
        // and as shape A or B.
        let other = random_shape(&mut rng, (i % 4) as u64, scale);
        let capsule = random_shape(&mut rng, 0, scale);
        let (a, b) = if i % 8 < 4 { (capsule, other) } else { (other, capsule) };
        let xa = Transform::new(scale * Vec2::new(rng.f32(-4.0, 4.0), rng.f32(-4.0, 4.0)), rng.f32(-3.2, 3.2));
        let reach = scale * rng.f32(0.0, 4.0);
        let xb = Transform::new(xa.p + Vec2::from_angle(rng.f32(0.0, 6.3)) * reach, rng.f32(-3.2, 3.2));
        let ex = exact(&Core::of(&a, &xa), &Core::of(&b, &xb));
        let m = collide(&a, &xa, &b, &xb, 0.0);
        assert!(m.count <= 2);
        if m.count > 0 {
            assert!((m.normal.length() - 1.0).abs() < 1e-5, "{m:?}");
            assert!(m.points().iter().all(|p| p.point.is_finite() && p.penetration.is_finite()), "{m:?}");
        }
        st.pairs += 1;
        st.two_point += (m.count == 2) as usize;
        let clear = ex.sd.abs() > touch;
        st.overlap_mismatch += (clear && (m.count > 0) != (ex.sd <= 0.0)) as usize;

        let (pa, pb) = (
            Pose::new(Vector::new(xa.p.x, xa.p.y), xa.q.angle()),
            Pose::new(Vector::new(xb.p.x, xb.p.y), xb.q.angle()),
        );
        let (ga, gb) = (parry_shape(&a), parry_shape(&b));
        let hit = parry2d::query::intersection_test(&pa, &*ga, &pb, &*gb).unwrap().intersecting;
        st.parry_overlap_mismatch += (clear && hit != (ex.sd <= 0.0)) as usize;
        if ex.sd >= -touch {
            continue;
        }
        st.overlapping += 1;
        let depth = m.max_penetration() as f64;
        let err = (depth + ex.sd).abs();
        st.depth_error = st.depth_error.max(err);
        if let Some(c) = parry2d::query::contact(&pa, &*ga, &pb, &*gb, 0.0).unwrap() {
            let parry_err = (c.dist as f64 - ex.sd).abs();
            st.depth_vs_parry_excess = st.depth_vs_parry_excess.max((depth + c.dist as f64).abs() - parry_err);
        }
        st.exact_depth_pairs += (err <= 1e-5 * s) as usize;
        // The exact normal is ill-conditioned where the cores nearly touch (two f32 points a
        // short way apart) or two faces of the cores' difference tie.
        let core_distance = ex.sd + (Core::of(&a, &xa).radius + Core::of(&b, &xb).radius);
        let well_defined = if core_distance > 0.0 { core_distance > 1e-2 * s } else { ex.gap > 1e-3 * s };
        if !well_defined {
            continue;
        }
        st.normals_compared += 1;
        let n = m.normal.as_dvec2();
        let normal_error = (n - ex.normal).length();
        if normal_error < 1e-4 {
            st.normal_error = st.normal_error.max(normal_error);
        } else {
            // Otherwise the normal must be a face normal of A or (negated) of B, and the
            // depth within the tolerance: Box2D's clipped face contact.
            let faces = face_normals(&a, &xa).into_iter().chain(face_normals(&b, &xb).into_iter().map(|f| -f));
            let is_face = faces.into_iter().any(|f| (f - n).length() < 1e-4);
            if is_face && err <= LINEAR_SLOP as f64 {
                st.face_normals += 1;
            } else {
                st.normal_failures += 1;
            }
        }
    }
    st
}

fn check(name: &str, st: &Stats) {
    eprintln!("{name}: {st:?}");
    assert!(st.overlapping > st.pairs / 4, "{st:?}");
    assert!(st.two_point > st.pairs / 20, "capsules resting on faces need two points: {st:?}");
    // Overlap agrees with the exact answer away from touching (parry's own slips are counted).
    assert_eq!(st.overlap_mismatch, 0, "{st:?}");
    // Depth: within Box2D's documented tolerance everywhere, exact for the great majority.
    assert!(st.depth_error <= LINEAR_SLOP as f64 * 1.01, "{st:?}");
    assert!(st.exact_depth_pairs * 100 >= st.overlapping * 90, "{st:?}");
    assert!(st.normals_compared * 100 >= st.overlapping * 80, "{st:?}");
    assert_eq!(st.normal_failures, 0, "{st:?}");
    assert!(st.face_normals * 100 <= st.normals_compared, "{st:?}");
    // Against parry: never further from parry than the tolerance beyond parry's own error.
    assert!(st.depth_vs_parry_excess <= LINEAR_SLOP as f64 * 1.01, "{st:?}");
}

#[test]
fn capsule_manifolds_agree_with_parry2d_and_the_exact_answer() {
    check("unit scale", &run(0xCA95_0001, 8_000, 1.0));
    check("scale 0.05", &run(0xCA95_0002, 2_000, 0.05));
    check("scale 50", &run(0xCA95_0003, 2_000, 50.0));
}

#[test]
fn feature_ids_persist_while_a_capsule_slides_on_a_box() {
    let ground = Shape::make_box(Vec2::new(5.0, 0.5)).unwrap();
    let cap = Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25).unwrap();
    let mut ids: Option<Vec<FeatureId>> = None;
    for k in 0..50 {
        let xb = Transform::new(Vec2::new(-2.0 + 0.08 * k as f32, 0.745), 0.01);
        let m = collide(&ground, &Transform::IDENTITY, &cap, &xb, 0.02);
        assert_eq!(m.count, 2);
        let now: Vec<_> = m.points().iter().map(|p| p.id).collect();
        if let Some(before) = &ids {
            assert_eq!(before, &now, "step {k}");
        }
        ids = Some(now);
    }
}
