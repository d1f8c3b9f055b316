//! 3D hull–hull SAT (seed article 001) beside parry3d, in the same process, on the same 64
//! seeded pairs per case:
//!
//! * `cube_cube`: two unit cubes, mostly overlapping. Ours: `collide_with` on world-space hulls
//!   with the three settings (ARTICLE, ROBUST, FAST = Gauss-map pruning), and FAST including
//!   the per-call `set_transformed` of both hulls ("posed"). parry3d: GJK + EPA on
//!   `ConvexPolyhedron`s (`contact_support_map_support_map`) and its cuboid SAT
//!   (`contact_cuboid_cuboid`).
//! * `hull20_overlap` / `hull20_apart`: hulls of 20 points on spheres (all 20 are vertices,
//!   ~36 faces, ~54 edges), overlapping or separated, against parry's GJK + EPA / GJK.
//! * `manifold`: FAST SAT + our clipped manifold against parry's `contact_manifold_pfm_pfm`.
//! * `trace_cost`: `collide_with(.., None)` against the `NoSatTrace` instantiation (ratio ≈ 1).
//!
//! Parry's calls take the relative pose `pos1⁻¹·pos2`, computed inside the timed code. After
//! the criterion groups, plain timed loops (both sides alternating, best of 7 × ~40 ms) print
//! ns per call and our / parry3d ratios.
//!
//! Run with `cargo bench --bench hull3d` (about a minute).

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use glam::Vec3;
use manifold_lab::engine::hull3d::sat::{collide_recorded, collide_with, SatConfig};
use manifold_lab::engine::hull3d::shapes::{cube, random_sphere_points};
use manifold_lab::engine::hull3d::trace::NoSatTrace;
use manifold_lab::engine::hull3d::{contact_manifold, Hull, Pose3};
use manifold_lab::engine::rng::SplitMix64;
use parry3d::math::{Pose, Rotation, Vector};
use parry3d::query::details::{contact_cuboid_cuboid, contact_manifold_pfm_pfm, contact_support_map_support_map};
use parry3d::query::ContactManifold;
use parry3d::shape::{ConvexPolyhedron, Cuboid};

const PAIRS: usize = 64;

struct Pair {
    local: (Hull, Hull),
    world: (Hull, Hull),
    scratch: (Hull, Hull),
    poses: (Pose3, Pose3),
    parry: (ConvexPolyhedron, ConvexPolyhedron),
    parry_poses: (Pose, Pose),
}

fn parry_pose(p: &Pose3) -> Pose {
    Pose::from_parts(Vector::new(p.p.x, p.p.y, p.p.z), Rotation::from_xyzw(p.q.x, p.q.y, p.q.z, p.q.w))
}

fn parry_hull(h: &Hull) -> ConvexPolyhedron {
    ConvexPolyhedron::from_convex_hull(&h.positions().iter().map(|p| Vector::new(p.x, p.y, p.z)).collect::<Vec<_>>())
        .unwrap()
}

/// B around A at `gap` times the sum of their radii (< 1 mostly overlaps, > 1.1 apart).
fn pairs(seed: u64, make: impl Fn(&mut SplitMix64) -> Hull, gap: (f32, f32)) -> Vec<Pair> {
    let mut rng = SplitMix64(seed);
    (0..PAIRS)
        .map(|_| {
            let (a, b) = (make(&mut rng), make(&mut rng));
            let qa = glam::Quat::from_axis_angle(rng.unit_vector(), rng.f32(0.0, std::f32::consts::TAU));
            let qb = glam::Quat::from_axis_angle(rng.unit_vector(), rng.f32(0.0, std::f32::consts::TAU));
            let dir = rng.unit_vector();
            let pa = Pose3::new(Vec3::ZERO, qa);
            let pb = Pose3::new(dir * (a.radius() + b.radius()) * rng.f32(gap.0, gap.1), qb);
            let world = (a.transformed(&pa), b.transformed(&pb));
            Pair {
                parry: (parry_hull(&a), parry_hull(&b)),
                parry_poses: (parry_pose(&pa), parry_pose(&pb)),
                scratch: world.clone(),
                world,
                poses: (pa, pb),
                local: (a, b),
            }
        })
        .collect()
}

fn hull20(rng: &mut SplitMix64) -> Hull {
    let r = rng.f32(0.5, 1.5);
    Hull::from_points(&random_sphere_points(rng.next_u64(), 20, r)).unwrap()
}

fn ours(pairs: &[Pair], config: &SatConfig) -> f32 {
    pairs
        .iter()
        .map(|p| collide_with(black_box(&p.world.0), &p.world.1, config, None).map_or(0.0, |c| c.separation))
        .sum()
}

fn ours_posed(pairs: &mut [Pair]) -> f32 {
    let mut sum = 0.0;
    for p in pairs.iter_mut() {
        p.scratch.0.set_transformed(&p.local.0, black_box(&p.poses.0));
        p.scratch.1.set_transformed(&p.local.1, &p.poses.1);
        sum += collide_with(&p.scratch.0, &p.scratch.1, &SatConfig::FAST, None).map_or(0.0, |c| c.separation);
    }
    sum
}

fn ours_untraced(pairs: &[Pair]) -> f32 {
    pairs
        .iter()
        .map(|p| {
            collide_recorded(black_box(&p.world.0), &p.world.1, &SatConfig::FAST, &mut NoSatTrace)
                .map_or(0.0, |c| c.separation)
        })
        .sum()
}

fn ours_manifold(pairs: &[Pair]) -> f32 {
    let mut sum = 0.0;
    for p in pairs {
        if let Ok(c) = collide_with(black_box(&p.world.0), &p.world.1, &SatConfig::FAST, None) {
            sum += contact_manifold(&p.world.0, &p.world.1, &c, None).points.iter().map(|q| q.separation).sum::<f32>();
        }
    }
    sum
}

fn parry_gjk_epa(pairs: &[Pair]) -> f32 {
    pairs
        .iter()
        .map(|p| {
            let pos12 = black_box(&p.parry_poses.0).inv_mul(&p.parry_poses.1);
            contact_support_map_support_map(&pos12, &p.parry.0, &p.parry.1, 0.0).map_or(0.0, |c| c.dist)
        })
        .sum()
}

fn parry_cuboid(pairs: &[Pair], half: &Cuboid) -> f32 {
    pairs
        .iter()
        .map(|p| {
            let pos12 = black_box(&p.parry_poses.0).inv_mul(&p.parry_poses.1);
            contact_cuboid_cuboid(&pos12, half, half, 0.0).map_or(0.0, |c| c.dist)
        })
        .sum()
}

fn parry_manifold(pairs: &[Pair], m: &mut ContactManifold<(), ()>) -> f32 {
    let mut sum = 0.0;
    for p in pairs {
        m.clear();
        let pos12 = black_box(&p.parry_poses.0).inv_mul(&p.parry_poses.1);
        contact_manifold_pfm_pfm(&pos12, &p.parry.0, 0.0, None, &p.parry.1, 0.0, None, 0.0, m);
        sum += m.points.iter().map(|c| c.dist).sum::<f32>();
    }
    sum
}

struct Data {
    cubes: Vec<Pair>,
    /// The same pairs as `cubes`, with scratch hulls rewritten by the posed variant.
    posed: Vec<Pair>,
    overlap: Vec<Pair>,
    apart: Vec<Pair>,
    cuboid: Cuboid,
}

fn benches(c: &mut Criterion, d: &mut Data) {
    let mut m = ContactManifold::<(), ()>::new();
    let mut g = c.benchmark_group("hull3d_x64");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_millis(1000));
    for (name, cfg) in [("article", SatConfig::ARTICLE), ("robust", SatConfig::ROBUST), ("fast", SatConfig::FAST)] {
        g.bench_function(format!("cube_cube/{name}"), |b| b.iter(|| ours(&d.cubes, &cfg)));
        g.bench_function(format!("hull20_overlap/{name}"), |b| b.iter(|| ours(&d.overlap, &cfg)));
    }
    g.bench_function("cube_cube/fast_posed", |b| b.iter(|| ours_posed(&mut d.posed)));
    g.bench_function("cube_cube/parry3d_gjk_epa", |b| b.iter(|| parry_gjk_epa(&d.cubes)));
    g.bench_function("cube_cube/parry3d_cuboid", |b| b.iter(|| parry_cuboid(&d.cubes, &d.cuboid)));
    g.bench_function("hull20_overlap/parry3d", |b| b.iter(|| parry_gjk_epa(&d.overlap)));
    g.bench_function("hull20_apart/fast", |b| b.iter(|| ours(&d.apart, &SatConfig::FAST)));
    g.bench_function("hull20_apart/parry3d", |b| b.iter(|| parry_gjk_epa(&d.apart)));
    g.bench_function("manifold/hull20_fast", |b| b.iter(|| ours_manifold(&d.overlap)));
    g.bench_function("manifold/hull20_parry3d", |b| b.iter(|| parry_manifold(&d.overlap, &mut m)));
    g.bench_function("trace_cost/none", |b| b.iter(|| ours(&d.overlap, &SatConfig::FAST)));
    g.bench_function("trace_cost/untraced", |b| b.iter(|| ours_untraced(&d.overlap)));
    g.finish();
}

/// ns per call (per pair) of two routines over the same pairs (see `support/compare.rs`).
fn compare(f: impl FnMut() -> f32, g: impl FnMut() -> f32) -> (f64, f64) {
    support::compare::compare(PAIRS, f, g)
}

fn print_summary(d: &mut Data) {
    let mut m = ContactManifold::<(), ()>::new();
    let (a, r, f) = (SatConfig::ARTICLE, SatConfig::ROBUST, SatConfig::FAST);
    let mut rows: Vec<(&str, &str, (f64, f64))> = vec![
        ("cube-cube ARTICLE", "GJK+EPA", compare(|| ours(&d.cubes, &a), || parry_gjk_epa(&d.cubes))),
        ("cube-cube ROBUST", "GJK+EPA", compare(|| ours(&d.cubes, &r), || parry_gjk_epa(&d.cubes))),
        ("cube-cube FAST", "GJK+EPA", compare(|| ours(&d.cubes, &f), || parry_gjk_epa(&d.cubes))),
        ("cube-cube FAST", "cuboid SAT", compare(|| ours(&d.cubes, &f), || parry_cuboid(&d.cubes, &d.cuboid))),
    ];
    rows.push(("cube-cube FAST posed", "GJK+EPA", compare(|| ours_posed(&mut d.posed), || parry_gjk_epa(&d.cubes))));
    rows.extend([
        ("hull20 ARTICLE", "GJK+EPA", compare(|| ours(&d.overlap, &a), || parry_gjk_epa(&d.overlap))),
        ("hull20 ROBUST", "GJK+EPA", compare(|| ours(&d.overlap, &r), || parry_gjk_epa(&d.overlap))),
        ("hull20 FAST", "GJK+EPA", compare(|| ours(&d.overlap, &f), || parry_gjk_epa(&d.overlap))),
        ("hull20 apart ROBUST", "GJK", compare(|| ours(&d.apart, &r), || parry_gjk_epa(&d.apart))),
        ("hull20 apart FAST", "GJK", compare(|| ours(&d.apart, &f), || parry_gjk_epa(&d.apart))),
        (
            "hull20 manifold FAST",
            "pfm_pfm",
            compare(|| ours_manifold(&d.overlap), || parry_manifold(&d.overlap, &mut m)),
        ),
    ]);
    println!("\nhull3d summary (ns per call, {PAIRS} pairs per case, best of 7 alternating rounds):");
    println!("  {:<22} {:>10} {:>12} {:>10} {:>8}", "case", "ours", "parry3d", "parry op", "ratio");
    for (name, op, (ours, peer)) in rows {
        println!("  {name:<22} {ours:>10.1} {peer:>12.1} {op:>10} {:>8.2}", ours / peer);
    }
    let (none, untraced) = compare(|| ours(&d.overlap, &f), || ours_untraced(&d.overlap));
    println!("trace cost: None {none:.1} ns, NoSatTrace {untraced:.1} ns, ratio {:.2}", none / untraced);
    let dd = (ours(&d.overlap, &r) - parry_gjk_epa(&d.overlap)).abs() / PAIRS as f32;
    println!("sanity: mean |Δ depth| vs parry3d on hull20 overlap {dd:.2e}");
}

fn main() {
    let mut data = Data {
        cubes: pairs(1, |_| cube(0.5), (0.5, 0.9)),
        posed: pairs(1, |_| cube(0.5), (0.5, 0.9)),
        overlap: pairs(2, hull20, (0.3, 0.9)),
        apart: pairs(3, hull20, (1.1, 2.0)),
        cuboid: Cuboid::new(Vector::new(0.5, 0.5, 0.5)),
    };
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion, &mut data);
    criterion.final_summary();
    if std::env::args().any(|a| a == "--bench") {
        print_summary(&mut data);
    }
}
