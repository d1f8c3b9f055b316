//! Differential test against parry2d (the collision library under rapier2d) on random pairs of
//! circles, boxes, convex polygons and capsules: overlap, distance and normal when apart,
//! penetration depth and normal when overlapping. Both our GJK/EPA and our SAT narrowphase
//! (`collide::collide`) are compared, with parry and with an exact f64 answer
//! (`support::exact_f64::exact`: the brute-force Minkowski difference of the cores), which
//! tells whose error a disagreement is. The engine's seeded SplitMix64 keeps it deterministic
//! and fast; the maximum errors are printed (`cargo test --test parry_differential -- --nocapture`).

mod support;

use glam::{DVec2, Vec2};
use manifold_lab::engine::collide::collide;
use manifold_lab::engine::collide::distance::{signed_distance, signed_distance_proxies, SignedDistance};
use manifold_lab::engine::collide::gjk::{distance, gjk};
use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::{Polygon, Shape};
use parry2d::math::{Pose, Vector};
use parry2d::shape as ps;

use manifold_lab::engine::rng::SplitMix64;
use support::exact_f64::{exact, Core};
use support::sat::in_bias_band;

#[derive(Clone, Debug)]
enum Kind {
    Circle(f32),
    Box(Vec2),
    Polygon(Polygon),
    /// Half length along local x, radius.
    Capsule(f32, f32),
}

/// Just above the engine's smallest extent.
const MIN: f32 = 0.0055;

impl Kind {
    fn random(rng: &mut SplitMix64, scale: f32) -> Kind {
        match rng.below(4) {
            0 => Kind::Circle((scale * rng.f32(0.05, 2.0)).max(MIN)),
            1 => Kind::Box((scale * Vec2::new(rng.f32(0.05, 2.0), rng.f32(0.05, 2.0))).max(Vec2::splat(MIN))),
            2 => loop {
                let n = 3 + rng.below(6);
                let r = scale * rng.f32(0.2, 2.0);
                let phase = rng.f32(0.0, std::f32::consts::TAU);
                let pts: Vec<Vec2> = (0..n)
                    .map(|i| {
                        Vec2::from_angle(phase + i as f32 * std::f32::consts::TAU / n as f32) * r * rng.f32(0.6, 1.0)
                    })
                    .collect();
                if let Ok(p) = Polygon::hull(&pts) {
                    break Kind::Polygon(p);
                }
            },
            _ => Kind::Capsule(scale * rng.f32(0.05, 1.5), (scale * rng.f32(0.05, 1.0)).max(MIN)),
        }
    }

    fn shape(&self) -> Option<Shape> {
        match self {
            Kind::Circle(r) => Some(Shape::circle(*r).unwrap()),
            Kind::Box(h) => Some(Shape::make_box(*h).unwrap()),
            Kind::Polygon(p) => Some(Shape::Polygon(*p)),
            Kind::Capsule(..) => None,
        }
    }

    fn proxy(&self, xf: &Transform, offset: Vec2) -> Proxy {
        match self {
            Kind::Capsule(h, r) => {
                Proxy::capsule(xf.apply(Vec2::new(-h, 0.0)) - offset, xf.apply(Vec2::new(*h, 0.0)) - offset, *r)
            }
            _ => Proxy::from_shape(&self.shape().unwrap(), xf, offset),
        }
    }

    fn parry(&self) -> Box<dyn ps::Shape> {
        let v = |p: Vec2| Vector::new(p.x, p.y);
        match self {
            Kind::Circle(r) => Box::new(ps::Ball::new(*r)),
            Kind::Box(h) => Box::new(ps::Cuboid::new(v(*h))),
            Kind::Polygon(p) => Box::new(
                ps::ConvexPolygon::from_convex_polyline_unmodified(p.vertices().iter().map(|&q| v(q)).collect())
                    .unwrap(),
            ),
            Kind::Capsule(h, r) => Box::new(ps::Capsule::new(Vector::new(-h, 0.0), Vector::new(*h, 0.0), *r)),
        }
    }
}

fn pose(xf: &Transform) -> Pose {
    Pose::new(Vector::new(xf.p.x, xf.p.y), xf.q.angle())
}

/// Our answer: the public Shape API when both are shapes, proxies for capsules.
fn ours(a: &Kind, xa: &Transform, b: &Kind, xb: &Transform) -> (bool, SignedDistance) {
    if let (Some(sa), Some(sb)) = (a.shape(), b.shape()) {
        return (distance(&sa, xa, &sb, xb, None).overlap, signed_distance(&sa, xa, &sb, xb, None, None));
    }
    let (pa, pb) = (a.proxy(xa, xa.p), b.proxy(xb, xa.p));
    let mut sd = signed_distance_proxies(&pa, &pb, None, None);
    sd.point_a += xa.p;
    sd.point_b += xa.p;
    (gjk(&pa, &pb, None).overlap, sd)
}

/// The shape's core in world space, in f64.
fn core_f64(k: &Kind, xf: &Transform) -> Core {
    let (c, s, p) = (xf.q.c as f64, xf.q.s as f64, xf.p.as_dvec2());
    let world = |v: Vec2| {
        let v = v.as_dvec2();
        DVec2::new(c * v.x - s * v.y, s * v.x + c * v.y) + p
    };
    let (points, radius) = match k {
        Kind::Circle(r) => (vec![p], *r as f64),
        Kind::Box(h) => {
            let corners = [Vec2::new(-h.x, -h.y), Vec2::new(h.x, -h.y), Vec2::new(h.x, h.y), Vec2::new(-h.x, h.y)];
            (corners.into_iter().map(world).collect(), 0.0)
        }
        Kind::Polygon(poly) => (poly.vertices().iter().map(|&v| world(v)).collect(), 0.0),
        Kind::Capsule(h, r) => (vec![world(Vec2::new(-h, 0.0)), world(Vec2::new(*h, 0.0))], *r as f64),
    };
    Core { points, radius }
}

/// Maxima of one implementation's errors against the exact answer (or of ours against parry).
#[derive(Default, Debug, Clone, Copy)]
struct Errors {
    overlap_mismatch: usize,
    distance: f64,
    normal_apart: f64,
    depth: f64,
    normal_overlapping: f64,
}

impl Errors {
    fn add(&mut self, overlap_wrong: bool, apart: Option<(f64, f64)>, overlapping: Option<(f64, Option<f64>)>) {
        self.overlap_mismatch += overlap_wrong as usize;
        if let Some((d, n)) = apart {
            self.distance = self.distance.max(d);
            self.normal_apart = self.normal_apart.max(n);
        }
        if let Some((d, n)) = overlapping {
            self.depth = self.depth.max(d);
            self.normal_overlapping = self.normal_overlapping.max(n.unwrap_or(0.0));
        }
    }
}

#[derive(Default, Debug)]
struct Stats {
    pairs: usize,
    apart: usize,
    overlapping: usize,
    normals_compared: usize,
    sat_pairs: usize,
    ours: Errors,
    parry: Errors,
    ours_vs_parry: Errors,
    sat: Errors,
    sat_vs_parry: Errors,
    /// Pairs where our error exceeds parry's by more than 4e-6 × scale.
    ours_worse: usize,
    parry_no_contact: usize,
}

/// Runs `n` random pairs at `scale`; errors are divided by `scale` (relative to the shapes' size).
fn run(seed: u64, n: usize, scale: f32) -> Stats {
    let mut rng = SplitMix64(seed);
    let mut st = Stats::default();
    let touch = 1e-4 * scale as f64;
    let s = scale as f64;
    let v64 = |v: Vec2| v.as_dvec2();
    for _ in 0..n {
        let (a, b) = (Kind::random(&mut rng, scale), Kind::random(&mut rng, scale));
        let xa = Transform::new(scale * Vec2::new(rng.f32(-4.0, 4.0), rng.f32(-4.0, 4.0)), rng.f32(-3.2, 3.2));
        let reach = scale * rng.f32(0.0, 5.0);
        let xb = Transform::new(xa.p + Vec2::from_angle(rng.f32(0.0, 6.3)) * reach, rng.f32(-3.2, 3.2));
        let ex = exact(&core_f64(&a, &xa), &core_f64(&b, &xb));
        let (overlap, sd) = ours(&a, &xa, &b, &xb);
        assert!(sd.separation.is_finite() && sd.normal.is_finite() && sd.point_a.is_finite() && sd.point_b.is_finite());
        assert!((sd.normal.length() - 1.0).abs() < 1e-5);
        st.pairs += 1;
        let clear = ex.sd.abs() > touch;
        let is_apart = ex.sd > touch;
        let is_overlapping = ex.sd < -touch;
        let compare_normal = ex.gap > 1e-3 * s;
        st.apart += is_apart as usize;
        st.overlapping += is_overlapping as usize;
        st.normals_compared += (is_overlapping && compare_normal) as usize;
        let (our_sep, our_n) = (sd.separation as f64, v64(sd.normal));
        let errs = |sep: f64, n: DVec2, ex_sep: f64, ex_n: DVec2| {
            (
                is_apart.then(|| ((sep - ex_sep).abs() / s, (n - ex_n).length())),
                is_overlapping.then(|| ((sep - ex_sep).abs() / s, compare_normal.then(|| (n - ex_n).length()))),
            )
        };
        let (oa, oo) = errs(our_sep, our_n, ex.sd, ex.normal);
        st.ours.add(clear && overlap != (ex.sd <= 0.0), oa, oo);
        // The SAT + clipping narrowphase (shapes only).
        let sat = a.shape().zip(b.shape()).map(|(sa, sb)| {
            let m = collide(&sa, &xa, &sb, &xb, 0.0);
            (m, -(m.max_penetration() as f64), m.count > 0 && !in_bias_band(&sa, &xa, &sb, &xb))
        });
        if let Some((m, sat_depth, usable)) = sat {
            st.sat_pairs += 1;
            let over = (is_overlapping && usable)
                .then(|| ((sat_depth - ex.sd).abs() / s, compare_normal.then(|| (v64(m.normal) - ex.normal).length())));
            st.sat.add(clear && (m.count > 0) != (ex.sd <= 0.0), None, over);
        }

        // parry2d, against the exact answer and against ours.
        let (ga, gb) = (a.parry(), b.parry());
        let (pa, pb) = (pose(&xa), pose(&xb));
        let hit = parry2d::query::intersection_test(&pa, &*ga, &pb, &*gb).unwrap().intersecting;
        let parry_distance = parry2d::query::distance(&pa, &*ga, &pb, &*gb).unwrap().distance as f64;
        let Some(c) = parry2d::query::contact(&pa, &*ga, &pb, &*gb, 100.0 * scale).unwrap() else {
            st.parry_no_contact += 1; // (parry found no contact within a prediction far beyond the distance)
            continue;
        };
        let pn = DVec2::new(c.normal1.x as f64, c.normal1.y as f64);
        let (pa_, po) = errs(c.dist as f64, pn, ex.sd, ex.normal);
        let parry_apart = pa_.map(|(_, n)| ((parry_distance - ex.sd).abs() / s, n));
        st.parry.add(clear && hit != (ex.sd <= 0.0), parry_apart, po);
        let (va, vo) = errs(our_sep, our_n, if is_apart { parry_distance } else { c.dist as f64 }, pn);
        st.ours_vs_parry.add(clear && overlap != hit, va, vo);
        // Never less accurate than parry by more than a few ulps of the coordinates (~5·scale).
        let parry_err = if is_apart { (parry_distance - ex.sd).abs() } else { (c.dist as f64 - ex.sd).abs() };
        st.ours_worse += (clear && (our_sep - ex.sd).abs() > parry_err + 4e-6 * s) as usize;
        if let Some((m, sat_depth, true)) = sat.filter(|_| is_overlapping) {
            let d = (sat_depth - c.dist as f64).abs() / s;
            st.sat_vs_parry.add(false, None, Some((d, compare_normal.then(|| (v64(m.normal) - pn).length()))));
        }
        if let Some((m, _, _)) = sat {
            st.sat_vs_parry.add(clear && (m.count > 0) != hit, None, None);
        }
    }
    st
}

fn report(name: &str, st: &Stats) {
    eprintln!(
        "{name}: {} pairs ({} apart, {} overlapping, {} overlap normals compared away from ties); \
         {} of them shapes for SAT; ours less accurate than parry by > 4e-6: {}; parry found no contact: {}",
        st.pairs, st.apart, st.overlapping, st.normals_compared, st.sat_pairs, st.ours_worse, st.parry_no_contact
    );
    eprintln!(
        "  {:<22} {:>9} {:>11} {:>11} {:>11} {:>11}",
        "", "overlap≠", "|Δdist|", "|Δn| apart", "|Δdepth|", "|Δn| pen."
    );
    for (label, e) in [
        ("GJK/EPA vs exact f64", st.ours),
        ("parry2d vs exact f64", st.parry),
        ("GJK/EPA vs parry2d", st.ours_vs_parry),
        ("SAT vs exact f64", st.sat),
        ("SAT vs parry2d", st.sat_vs_parry),
    ] {
        // SAT gives no distance when apart.
        let apart = if label.starts_with("SAT") {
            format!("{:>11} {:>11}", "n/a", "n/a")
        } else {
            format!("{:>11.2e} {:>11.2e}", e.distance, e.normal_apart)
        };
        eprintln!("  {label:<22} {:>9} {apart} {:>11.2e} {:>11.2e}", e.overlap_mismatch, e.depth, e.normal_overlapping);
    }
}

fn check(st: &Stats) {
    assert!(st.apart > st.pairs / 4 && st.overlapping > st.pairs / 4, "{st:?}");
    assert!(st.normals_compared > st.overlapping * 9 / 10, "{st:?}");
    // Overlap agrees with the exact answer away from touching (1e-4 × scale), and with parry
    // wherever parry is right (on a few capsule pairs in a million parry's answer is wrong).
    assert_eq!(st.ours.overlap_mismatch, 0);
    assert_eq!(st.sat.overlap_mismatch, 0);
    assert!(st.ours_vs_parry.overlap_mismatch <= st.parry.overlap_mismatch, "{st:?}");
    assert!(st.sat_vs_parry.overlap_mismatch <= st.parry.overlap_mismatch, "{st:?}");
    // Against the exact answer: f32 round-off only. Normals between a vertex and a circle
    // centre (cores apart, rounded parts overlapping) come from two f32 points a short way
    // apart, hence the looser bound; face normals are the shapes' own.
    let o = st.ours;
    assert!(o.distance < 5e-6 && o.depth < 5e-6, "{o:?}");
    assert!(o.normal_apart < 1e-5 && o.normal_overlapping < 5e-5, "{o:?}");
    assert!(st.sat.depth < 5e-6 && st.sat.normal_overlapping < 1e-5, "{:?}", st.sat);
    // Against parry: within parry's own error, and never meaningfully worse than it.
    let p = st.parry;
    let v = st.ours_vs_parry;
    assert!(v.distance <= p.distance + o.distance && v.depth <= p.depth + o.depth, "{v:?} {p:?}");
    assert!(v.normal_apart <= p.normal_apart + o.normal_apart + 1e-6, "{v:?} {p:?}");
    assert!(v.normal_overlapping <= p.normal_overlapping + o.normal_overlapping + 1e-6, "{v:?} {p:?}");
    assert_eq!(st.ours_worse, 0);
    assert!(st.parry_no_contact * 1000 <= st.pairs, "{st:?}");
}

#[test]
fn gjk_epa_and_sat_agree_with_parry2d_and_the_exact_answer() {
    let st = run(0x5EED_0001, 12_000, 1.0);
    report("unit scale", &st);
    check(&st);
}

#[test]
fn small_and_large_scales_agree_with_parry2d_and_the_exact_answer() {
    for (seed, scale) in [(7, 0.02f32), (8, 100.0)] {
        let st = run(seed, 2_000, scale);
        report(&format!("scale {scale}"), &st);
        check(&st);
    }
}
