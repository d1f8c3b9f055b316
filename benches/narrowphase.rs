//! Narrowphase micro-benchmarks of manifold-lab beside parry2d (the collision library under
//! rapier2d), in the same process, on the same 64 random shape pairs per case:
//!
//! * `box_box_manifold`: our SAT + clipping manifold (`collide::collide`) against parry's
//!   `contact_manifold_cuboid_cuboid` (its manifold is cleared before each call so parry's
//!   contact cache cannot skip the work);
//! * `polygon_manifold`: the same for convex polygons of 5–8 vertices, against parry's
//!   `contact_manifold_pfm_pfm`;
//! * `gjk_distance`: GJK between separated polygons (`gjk::distance`) against parry's
//!   `distance_support_map_support_map`;
//! * `epa`: GJK + EPA between overlapping polygons (`epa::penetration`) against parry's
//!   `contact_support_map_support_map`.
//!
//! Parry's calls take the relative pose `pos1⁻¹·pos2`, which is computed inside the timed code.
//!
//! Trace cost: the algorithms are generic over a `Recorder` whose `ENABLED` constant guards
//! every recording, and a `None` trace dispatches to the `NoTrace` instantiation. The
//! `trace_cost` group times `gjk(.., None)` against `gjk_with(.., &mut NoTrace)` (and the same
//! for EPA) on prebuilt proxies: the ratio should be 1.00 within noise. A traced run is shown
//! for scale.
//!
//! Criterion's estimates are not readable from code, so after the criterion groups plain
//! timed loops (both sides in alternation, best of 7 × ~40 ms) print ns per call and the
//! ratio ours / parry2d.
//!
//! The summary also puts Box2D v3 (its C library through `boxdd-sys`) beside us for the box
//! and polygon manifolds and GJK distance (`narrowphase_parts/box2d.rs`), and for the rounded
//! manifolds, capsule–capsule, polygon–capsule and polygon–circle, within Box2D's speculative
//! distance (`narrowphase_parts/rounded.rs`), with a pair-by-pair comparison of the answers.
//! Build Box2D with AVX2 (its fastest build) with `--features box2d-avx2`.
//!
//! Run with `cargo bench --bench narrowphase` (about a minute); `-- summary` (a filter that
//! matches no criterion group) prints the summary alone.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use glam::Vec2;
use manifold_lab::engine::collide::collide;
use manifold_lab::engine::collide::epa::{epa, epa_with, penetration};
use manifold_lab::engine::collide::epa_trace::EpaTrace;
use manifold_lab::engine::collide::gjk::{distance, gjk, gjk_with, GjkOutput};
use manifold_lab::engine::collide::gjk_trace::GjkTrace;
use manifold_lab::engine::collide::support::{NoTrace, Proxy};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::{Polygon, Shape};
use parry2d::math::{Pose, Vector};
use parry2d::query::details::{
    contact_manifold_cuboid_cuboid, contact_manifold_pfm_pfm, contact_support_map_support_map,
    distance_support_map_support_map,
};
use parry2d::query::ContactManifold;
use parry2d::shape::{ConvexPolygon, Cuboid};

#[path = "narrowphase_parts/box2d.rs"]
mod box2d;
#[path = "narrowphase_parts/rounded.rs"]
mod rounded;

const PAIRS: usize = 64;

/// One pair in both engines' terms.
struct Pair<P> {
    a: Shape,
    b: Shape,
    xa: Transform,
    xb: Transform,
    pa: P,
    pb: P,
    pose_a: Pose,
    pose_b: Pose,
}

fn pose(xf: &Transform) -> Pose {
    Pose::new(Vector::new(xf.p.x, xf.p.y), xf.q.angle())
}

/// Places B around A at `gap` times the sum of their rough radii (< 1 overlaps, > 1.5 apart).
fn poses(rng: &mut SplitMix64, ra: f32, rb: f32, gap: (f32, f32)) -> (Transform, Transform) {
    let xa = Transform::new(Vec2::new(rng.f32(-5.0, 5.0), rng.f32(-5.0, 5.0)), rng.f32(-3.1, 3.1));
    let dir = Vec2::from_angle(rng.f32(0.0, std::f32::consts::TAU));
    let xb = Transform::new(xa.p + dir * (ra + rb) * rng.f32(gap.0, gap.1), rng.f32(-3.1, 3.1));
    (xa, xb)
}

fn box_pairs(seed: u64) -> Vec<Pair<Cuboid>> {
    let mut rng = SplitMix64(seed);
    (0..PAIRS)
        .map(|_| {
            let ha = Vec2::new(rng.f32(0.3, 1.5), rng.f32(0.3, 1.5));
            let hb = Vec2::new(rng.f32(0.3, 1.5), rng.f32(0.3, 1.5));
            let (xa, xb) = poses(&mut rng, ha.length(), hb.length(), (0.5, 0.8));
            Pair {
                a: Shape::make_box(ha).unwrap(),
                b: Shape::make_box(hb).unwrap(),
                pa: Cuboid::new(Vector::new(ha.x, ha.y)),
                pb: Cuboid::new(Vector::new(hb.x, hb.y)),
                pose_a: pose(&xa),
                pose_b: pose(&xb),
                xa,
                xb,
            }
        })
        .collect()
}

fn random_polygon(rng: &mut SplitMix64) -> (Polygon, f32) {
    loop {
        let n = 5 + (rng.f32(0.0, 3.99) as usize);
        let r = rng.f32(0.5, 1.5);
        let phase = rng.f32(0.0, std::f32::consts::TAU);
        let pts: Vec<Vec2> = (0..n)
            .map(|i| Vec2::from_angle(phase + i as f32 * std::f32::consts::TAU / n as f32) * r * rng.f32(0.75, 1.0))
            .collect();
        if let Ok(p) = Polygon::hull(&pts) {
            return (p, r);
        }
    }
}

fn polygon_pairs(seed: u64, gap: (f32, f32)) -> Vec<Pair<ConvexPolygon>> {
    let mut rng = SplitMix64(seed);
    let parry = |p: &Polygon| {
        ConvexPolygon::from_convex_polyline_unmodified(p.vertices().iter().map(|v| Vector::new(v.x, v.y)).collect())
            .unwrap()
    };
    (0..PAIRS)
        .map(|_| {
            let ((a, ra), (b, rb)) = (random_polygon(&mut rng), random_polygon(&mut rng));
            let (xa, xb) = poses(&mut rng, ra, rb, gap);
            Pair {
                pa: parry(&a),
                pb: parry(&b),
                a: Shape::Polygon(a),
                b: Shape::Polygon(b),
                pose_a: pose(&xa),
                pose_b: pose(&xb),
                xa,
                xb,
            }
        })
        .collect()
}

/// The benchmarked routines: each runs all 64 pairs once and returns a checksum.
struct Data {
    boxes: Vec<Pair<Cuboid>>,
    polygons: Vec<Pair<ConvexPolygon>>,
    apart: Vec<Pair<ConvexPolygon>>,
    overlapping: Vec<Pair<ConvexPolygon>>,
    /// Proxies (relative to A's position) of the overlapping pairs, and GJK's output on them.
    proxies: Vec<(Proxy, Proxy, GjkOutput)>,
    apart_proxies: Vec<(Proxy, Proxy)>,
}

impl Data {
    fn new() -> Data {
        let overlapping = polygon_pairs(4, (0.3, 0.9));
        let apart = polygon_pairs(3, (1.6, 3.0));
        let proxy =
            |p: &Pair<ConvexPolygon>| (Proxy::from_shape(&p.a, &p.xa, p.xa.p), Proxy::from_shape(&p.b, &p.xb, p.xa.p));
        let proxies = overlapping
            .iter()
            .map(|p| {
                let (a, b) = proxy(p);
                (a, b, gjk(&a, &b, None))
            })
            .collect();
        let apart_proxies = apart.iter().map(proxy).collect();
        Data { boxes: box_pairs(1), polygons: polygon_pairs(2, (0.4, 0.9)), apart, overlapping, proxies, apart_proxies }
    }
}

impl Data {
    /// The box pairs with plain polygons in place of parry's cuboids (for Box2D).
    fn boxes_as_polygons(&self) -> Vec<Pair<()>> {
        self.boxes
            .iter()
            .map(|p| Pair { a: p.a, b: p.b, xa: p.xa, xb: p.xb, pa: (), pb: (), pose_a: p.pose_a, pose_b: p.pose_b })
            .collect()
    }
}

fn ours_manifolds<P>(pairs: &[Pair<P>]) -> f32 {
    pairs.iter().map(|p| collide(black_box(&p.a), &p.xa, &p.b, &p.xb, 0.0).max_penetration()).sum()
}

fn parry_box_manifolds(pairs: &[Pair<Cuboid>], m: &mut ContactManifold<(), ()>) -> f32 {
    let mut sum = 0.0;
    for p in pairs {
        m.clear();
        let pos12 = black_box(&p.pose_a).inv_mul(&p.pose_b);
        contact_manifold_cuboid_cuboid(&pos12, &p.pa, &p.pb, 0.0, m);
        sum += m.points.iter().map(|c| c.dist).sum::<f32>();
    }
    sum
}

fn parry_polygon_manifolds(pairs: &[Pair<ConvexPolygon>], m: &mut ContactManifold<(), ()>) -> f32 {
    let mut sum = 0.0;
    for p in pairs {
        m.clear();
        let pos12 = black_box(&p.pose_a).inv_mul(&p.pose_b);
        contact_manifold_pfm_pfm(&pos12, &p.pa, 0.0, None, &p.pb, 0.0, None, 0.0, m);
        sum += m.points.iter().map(|c| c.dist).sum::<f32>();
    }
    sum
}

fn ours_distance(pairs: &[Pair<ConvexPolygon>]) -> f32 {
    pairs.iter().map(|p| distance(black_box(&p.a), &p.xa, &p.b, &p.xb, None).distance).sum()
}

fn parry_distance(pairs: &[Pair<ConvexPolygon>]) -> f32 {
    pairs.iter().map(|p| distance_support_map_support_map(&black_box(&p.pose_a).inv_mul(&p.pose_b), &p.pa, &p.pb)).sum()
}

fn ours_epa(pairs: &[Pair<ConvexPolygon>]) -> f32 {
    pairs.iter().map(|p| penetration(black_box(&p.a), &p.xa, &p.b, &p.xb, None).map_or(0.0, |q| q.depth)).sum()
}

fn parry_epa(pairs: &[Pair<ConvexPolygon>]) -> f32 {
    pairs
        .iter()
        .map(|p| {
            let pos12 = black_box(&p.pose_a).inv_mul(&p.pose_b);
            contact_support_map_support_map(&pos12, &p.pa, &p.pb, 0.0).map_or(0.0, |c| -c.dist)
        })
        .sum()
}

fn gjk_none(d: &Data) -> f32 {
    d.apart_proxies.iter().map(|(a, b)| gjk(black_box(a), b, None).distance).sum()
}

fn gjk_untraced(d: &Data) -> f32 {
    d.apart_proxies.iter().map(|(a, b)| gjk_with(black_box(a), b, &mut NoTrace).distance).sum()
}

fn gjk_traced(d: &Data, t: &mut GjkTrace) -> f32 {
    d.apart_proxies.iter().map(|(a, b)| gjk(black_box(a), b, Some(t)).distance).sum()
}

fn epa_none(d: &Data) -> f32 {
    d.proxies.iter().map(|(a, b, g)| epa(black_box(a), b, &g.simplex, None).depth).sum()
}

fn epa_untraced(d: &Data) -> f32 {
    d.proxies.iter().map(|(a, b, g)| epa_with(black_box(a), b, &g.simplex, &mut NoTrace).depth).sum()
}

fn epa_traced(d: &Data, t: &mut EpaTrace) -> f32 {
    d.proxies.iter().map(|(a, b, g)| epa(black_box(a), b, &g.simplex, Some(t)).depth).sum()
}

fn bench_mode() -> bool {
    // Under `cargo test --benches` criterion runs each routine once (no `--bench` argument).
    std::env::args().any(|a| a == "--bench")
}

fn benches(c: &mut Criterion, d: &Data) {
    let mut m = ContactManifold::<(), ()>::new();
    let mut gt = GjkTrace::new();
    let mut et = EpaTrace::new();
    let mut g = c.benchmark_group("narrowphase_x64");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_millis(1500));
    g.bench_function("box_box_manifold/manifold_lab", |b| b.iter(|| ours_manifolds(&d.boxes)));
    g.bench_function("box_box_manifold/parry2d", |b| b.iter(|| parry_box_manifolds(&d.boxes, &mut m)));
    g.bench_function("polygon_manifold/manifold_lab", |b| b.iter(|| ours_manifolds(&d.polygons)));
    g.bench_function("polygon_manifold/parry2d", |b| b.iter(|| parry_polygon_manifolds(&d.polygons, &mut m)));
    g.bench_function("gjk_distance/manifold_lab", |b| b.iter(|| ours_distance(&d.apart)));
    g.bench_function("gjk_distance/parry2d", |b| b.iter(|| parry_distance(&d.apart)));
    g.bench_function("epa/manifold_lab", |b| b.iter(|| ours_epa(&d.overlapping)));
    g.bench_function("epa/parry2d", |b| b.iter(|| parry_epa(&d.overlapping)));
    g.bench_function("trace_cost/gjk_none", |b| b.iter(|| gjk_none(d)));
    g.bench_function("trace_cost/gjk_untraced", |b| b.iter(|| gjk_untraced(d)));
    g.bench_function("trace_cost/gjk_traced", |b| b.iter(|| gjk_traced(d, &mut gt)));
    g.bench_function("trace_cost/epa_none", |b| b.iter(|| epa_none(d)));
    g.bench_function("trace_cost/epa_untraced", |b| b.iter(|| epa_untraced(d)));
    g.bench_function("trace_cost/epa_traced", |b| b.iter(|| epa_traced(d, &mut et)));
    g.finish();
}

/// ns per call (per pair) of two routines over the same pairs (see `support/compare.rs`).
fn compare(f: impl FnMut() -> f32, g: impl FnMut() -> f32) -> (f64, f64) {
    support::compare::compare(PAIRS, f, g)
}

fn print_summary(d: &Data) {
    let mut m = ContactManifold::<(), ()>::new();
    let mut m2 = ContactManifold::<(), ()>::new();
    let rows: [(&str, (f64, f64)); 4] = [
        ("box-box manifold", compare(|| ours_manifolds(&d.boxes), || parry_box_manifolds(&d.boxes, &mut m))),
        ("polygon manifold", compare(|| ours_manifolds(&d.polygons), || parry_polygon_manifolds(&d.polygons, &mut m2))),
        ("GJK distance (apart)", compare(|| ours_distance(&d.apart), || parry_distance(&d.apart))),
        ("GJK+EPA (overlapping)", compare(|| ours_epa(&d.overlapping), || parry_epa(&d.overlapping))),
    ];
    println!("\nnarrowphase summary (ns per call, {PAIRS} pairs per case, best of 7 alternating rounds):");
    println!("  {:<24} {:>12} {:>12} {:>14}", "case", "manifold_lab", "parry2d", "ours / parry");
    for (name, (ours, peer)) in rows {
        println!("  {name:<24} {ours:>12.1} {peer:>12.1} {:>14.2}", ours / peer);
    }
    let mut gt = GjkTrace::new();
    let mut et = EpaTrace::new();
    let (gn, gu) = compare(|| gjk_none(d), || gjk_untraced(d));
    let (en, eu) = compare(|| epa_none(d), || epa_untraced(d));
    let (gtr, etr) = compare(|| gjk_traced(d, &mut gt), || epa_traced(d, &mut et));
    println!("trace cost (prebuilt proxies): a `None` trace against the untraced `NoTrace` instantiation:");
    println!("  GJK: None {gn:.1} ns, untraced {gu:.1} ns, ratio {:.2} (traced: {gtr:.1} ns)", gn / gu);
    println!("  EPA: None {en:.1} ns, untraced {eu:.1} ns, ratio {:.2} (traced: {etr:.1} ns)", en / eu);
    // Box2D v3 on the same pairs (no EPA in Box2D).
    let (b2_boxes, b2_polygons, b2_apart) =
        (box2d::pairs(&d.boxes_as_polygons()), box2d::pairs(&d.polygons), box2d::pairs(&d.apart));
    let (capsules, polygon_capsules, polygon_circles) =
        (rounded::capsules(), rounded::polygon_capsules(), rounded::polygon_circles());
    let b2_rows: [(&str, (f64, f64)); 6] = [
        ("box-box manifold", compare(|| ours_manifolds(&d.boxes), || box2d::manifolds(&b2_boxes))),
        ("polygon manifold", compare(|| ours_manifolds(&d.polygons), || box2d::manifolds(&b2_polygons))),
        ("GJK distance (apart)", compare(|| ours_distance(&d.apart), || box2d::distances(&b2_apart))),
        ("capsule-capsule", compare(|| capsules.ours(), || capsules.box2d())),
        ("polygon-capsule", compare(|| polygon_capsules.ours(), || polygon_capsules.box2d())),
        ("polygon-circle", compare(|| polygon_circles.ours(), || polygon_circles.box2d())),
    ];
    println!("beside Box2D v3 (boxdd-sys, C), same pairs:");
    println!("  {:<24} {:>12} {:>12} {:>14}", "case", "manifold_lab", "box2d_v3", "ours / box2d");
    for (name, (ours, peer)) in b2_rows {
        println!("  {name:<24} {ours:>12.1} {peer:>12.1} {:>14.2}", ours / peer);
    }
    let db = (ours_distance(&d.apart) - box2d::distances(&b2_apart)).abs() / PAIRS as f32;
    let mb = (ours_manifolds(&d.polygons) - box2d::manifolds(&b2_polygons)).abs() / PAIRS as f32;
    println!("sanity: mean |Δ| vs Box2D v3: distance {db:.2e}, polygon manifold depth {mb:.2e}");
    let agreement = [
        ("capsule-capsule", capsules.agreement()),
        ("polygon-capsule", polygon_capsules.agreement()),
        ("polygon-circle", polygon_circles.agreement()),
    ];
    for (name, a) in agreement {
        println!(
            "sanity: {name} (margin {}): {}/{PAIRS} pairs touch, touching differs on {}, point counts on {}, \
             deepest penetrations by at most {:.2e}",
            rounded::MARGIN,
            a.touching,
            a.touch_differs,
            a.count_differs,
            a.max_delta
        );
    }
    // Sanity: both engines answer the same on the benchmarked pairs.
    let dd = (ours_distance(&d.apart) - parry_distance(&d.apart)).abs() / PAIRS as f32;
    let de = (ours_epa(&d.overlapping) - parry_epa(&d.overlapping)).abs() / PAIRS as f32;
    println!("sanity: mean |Δ| vs parry2d: distance {dd:.2e}, depth {de:.2e}");
}

fn main() {
    let data = Data::new();
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion, &data);
    criterion.final_summary();
    if bench_mode() {
        print_summary(&data);
    }
}
