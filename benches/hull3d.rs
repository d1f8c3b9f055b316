//! 3D hull–hull SAT (seed article 001) beside parry3d, in the same process, on the same seeded
//! pairs per case:
//!
//! * `cube_cube`: two unit cubes, mostly overlapping.
//! * `hull20_overlap` / `hull20_apart`: hulls of 20 points on spheres (all 20 are vertices,
//!   ~36 faces, ~54 edges), overlapping or separated.
//! * `random`: the workload, hulls of 4–24 random cloud points (some squashed into
//!   slabs and needles), radius 0.3–1.5, centres within 1.5 of the origin: about half overlap.
//!   `random20`: the same with 20–24 points.
//! * `prism`: 32- and 24-sided prisms (64 and 48 vertices; hill-climbing supports).
//! * `manifold`: SAT + clipped manifold against parry's `contact_manifold_pfm_pfm`.
//!
//! Ours: `collide_with` on world-space hulls with ARTICLE, ROBUST and FAST (Gauss-map pruning),
//! `FAST moved` = FAST plus the per-call `set_transformed` of both hulls, and `LOCAL` =
//! `collide_posed_with` (local hulls and poses, FAST settings: A's frame, Gauss-map pruning,
//! support bound, hill climbing; see `sat_local.rs`), which is what the 3D world calls, and
//! `LOCAL ROBUST` = the same with ROBUST settings (every edge pair, full supports), `LOCAL
//! GUARDED` = with GUARDED settings (the world's `sat: Robust`: full supports on the pairs
//! within a wide margin of a Minkowski face). parry3d:
//! `query::contact` on `ConvexPolyhedron`s (GJK + EPA) or `Cuboid`s (its box SAT), poses given,
//! world-space output, as ours. After the criterion groups, plain timed loops (both sides
//! alternating, best of 7 × ~40 ms) print ns per call and our / parry3d ratios.
//!
//! Run with `cargo bench --bench hull3d` (about a minute).

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::sat::{collide_with, SatConfig};
use manifold_lab::engine::hull3d::sat_local::{collide_posed_with, SatScratch};
use manifold_lab::engine::hull3d::shapes::{cube, prism, random_cloud, random_sphere_points};
use manifold_lab::engine::hull3d::{contact_manifold, Hull, Pose3};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::trace::NoTrace;
use parry3d::math::{Pose, Rotation, Vector};
use parry3d::query::details::contact_manifold_pfm_pfm;
use parry3d::query::{self, ContactManifold};
use parry3d::shape::{ConvexPolyhedron, Cuboid};

struct Pair {
    local: (Hull, Hull),
    world: (Hull, Hull),
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

fn pair(a: Hull, b: Hull, pa: Pose3, pb: Pose3) -> Pair {
    let world = (a.transformed(&pa), b.transformed(&pb));
    Pair {
        parry: (parry_hull(&a), parry_hull(&b)),
        parry_poses: (parry_pose(&pa), parry_pose(&pb)),
        world,
        poses: (pa, pb),
        local: (a, b),
    }
}

/// `n` pairs with B around A at `gap` times the sum of their radii (< 1 mostly overlaps).
fn around(seed: u64, n: usize, make: impl Fn(&mut SplitMix64) -> Hull, gap: (f32, f32)) -> Vec<Pair> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| {
            let (a, b) = (make(&mut rng), make(&mut rng));
            let qa = Quat::from_axis_angle(rng.unit_vector(), rng.f32(0.0, std::f32::consts::TAU));
            let qb = Quat::from_axis_angle(rng.unit_vector(), rng.f32(0.0, std::f32::consts::TAU));
            let dir = rng.unit_vector();
            let pb = Pose3::new(dir * (a.radius() + b.radius()) * rng.f32(gap.0, gap.1), qb);
            pair(a, b, Pose3::new(Vec3::ZERO, qa), pb)
        })
        .collect()
}

fn hull20(rng: &mut SplitMix64) -> Hull {
    let r = rng.f32(0.5, 1.5);
    Hull::from_points(&random_sphere_points(rng.next_u64(), 20, r)).unwrap()
}

/// The random pairs (as `tests/hull3d_parts/common.rs`): `points` cloud points,
/// squashed, radius 0.3–1.5, poses anywhere within `spread`.
fn random(seed: u64, n: usize, points: (u64, u64), spread: f32) -> Vec<Pair> {
    let mut rng = SplitMix64(seed);
    let hull = |rng: &mut SplitMix64| loop {
        let count = (points.0 + rng.next_u64() % (points.1 - points.0 + 1)) as usize;
        let r = rng.f32(0.3, 1.5);
        let squash = Vec3::new(rng.f32(0.2, 1.0), rng.f32(0.2, 1.0), 1.0);
        let pts: Vec<Vec3> = random_cloud(rng.next_u64(), count, r).into_iter().map(|p| p * squash).collect();
        if let Ok(h) = Hull::from_points(&pts) {
            return h;
        }
    };
    let pose = |rng: &mut SplitMix64| {
        let axis = rng.unit_vector();
        let p = rng.unit_vector() * rng.f32(0.0, spread);
        Pose3::new(p, Quat::from_axis_angle(axis, rng.f32(0.0, std::f32::consts::TAU)))
    };
    (0..n)
        .map(|_| {
            let (a, b) = (hull(&mut rng), hull(&mut rng));
            let (pa, pb) = (pose(&mut rng), pose(&mut rng));
            pair(a, b, pa, pb)
        })
        .collect()
}

fn ours(pairs: &[Pair], config: &SatConfig) -> f32 {
    pairs
        .iter()
        .map(|p| collide_with(black_box(&p.world.0), &p.world.1, config, None).map_or(0.0, |c| c.separation))
        .sum()
}

/// FAST with both hulls moved into world space first (`moved` holds clones to overwrite).
fn ours_moved(pairs: &[Pair], moved: &mut [(Hull, Hull)]) -> f32 {
    let mut sum = 0.0;
    for (p, w) in pairs.iter().zip(moved.iter_mut()) {
        w.0.set_transformed(&p.local.0, black_box(&p.poses.0));
        w.1.set_transformed(&p.local.1, &p.poses.1);
        sum += collide_with(&w.0, &w.1, &SatConfig::FAST, None).map_or(0.0, |c| c.separation);
    }
    sum
}

fn ours_local(pairs: &[Pair], s: &mut SatScratch) -> f32 {
    ours_local_with(pairs, &SatConfig::FAST, s)
}

/// The local-frame SAT with `config`: `ROBUST` is the 3D world's `sat: Robust`.
fn ours_local_with(pairs: &[Pair], config: &SatConfig, s: &mut SatScratch) -> f32 {
    pairs
        .iter()
        .map(|p| {
            let (a, b) = (&p.local.0, &p.local.1);
            collide_posed_with(a, black_box(&p.poses.0), b, &p.poses.1, config, 0.0, s, &mut NoTrace)
                .map_or(0.0, |c| c.separation)
        })
        .sum()
}

fn ours_manifold(pairs: &[Pair], s: &mut SatScratch) -> f32 {
    let mut sum = 0.0;
    for p in pairs {
        let (a, b, xa, xb) = (&p.local.0, &p.local.1, black_box(&p.poses.0), &p.poses.1);
        if let Ok(c) = collide_posed_with(a, xa, b, xb, &SatConfig::FAST, 0.0, s, &mut NoTrace) {
            let (wa, wb) = (&p.world.0, &p.world.1);
            sum += contact_manifold(wa, wb, &c, None).points.iter().map(|q| q.separation).sum::<f32>();
        }
    }
    sum
}

/// parry3d's `query::contact` (GJK + EPA for polyhedra), poses in, world-space contact out.
fn parry_contact(pairs: &[Pair]) -> f32 {
    pairs
        .iter()
        .map(|p| {
            let (pa, pb) = (black_box(&p.parry_poses.0), &p.parry_poses.1);
            query::contact(pa, &p.parry.0, pb, &p.parry.1, 0.0).unwrap().map_or(0.0, |c| c.dist)
        })
        .sum()
}

fn parry_cuboid(pairs: &[Pair], half: &Cuboid) -> f32 {
    pairs
        .iter()
        .map(|p| {
            let (pa, pb) = (black_box(&p.parry_poses.0), &p.parry_poses.1);
            query::contact(pa, half, pb, half, 0.0).unwrap().map_or(0.0, |c| c.dist)
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
    overlap: Vec<Pair>,
    apart: Vec<Pair>,
    random: Vec<Pair>,
    random20: Vec<Pair>,
    prisms: Vec<Pair>,
    cuboid: Cuboid,
    scratch: SatScratch,
    /// World-space clones of `cubes`, rewritten by `ours_moved`.
    moved: Vec<(Hull, Hull)>,
}

fn benches(c: &mut Criterion, d: &mut Data) {
    let mut g = c.benchmark_group("hull3d");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_millis(1000));
    let fast = SatConfig::FAST;
    for (name, set) in [("cube_cube", &d.cubes), ("hull20_overlap", &d.overlap), ("random", &d.random)] {
        g.bench_function(format!("{name}/robust"), |b| b.iter(|| ours(set, &SatConfig::ROBUST)));
        g.bench_function(format!("{name}/fast"), |b| b.iter(|| ours(set, &fast)));
        g.bench_function(format!("{name}/local"), |b| b.iter(|| ours_local(set, &mut d.scratch)));
        g.bench_function(format!("{name}/parry3d"), |b| b.iter(|| parry_contact(set)));
    }
    g.bench_function("cube_cube/parry3d_cuboid", |b| b.iter(|| parry_cuboid(&d.cubes, &d.cuboid)));
    g.finish();
}

/// ns per call (per pair) of two routines over `n` pairs (see `support/compare.rs`).
fn compare(n: usize, f: impl FnMut() -> f32, g: impl FnMut() -> f32) -> (f64, f64) {
    support::compare::compare(n, f, g)
}

fn print_summary(d: &mut Data) {
    let mut m = ContactManifold::<(), ()>::new();
    let (a, r, f) = (SatConfig::ARTICLE, SatConfig::ROBUST, SatConfig::FAST);
    let mut s = SatScratch::default();
    let mut rows: Vec<(&str, &str, (f64, f64))> = Vec::new();
    let sets: [(&str, &Vec<Pair>); 5] = [
        ("cube-cube", &d.cubes),
        ("hull20", &d.overlap),
        ("random 4-24", &d.random),
        ("random 20-24", &d.random20),
        ("prism 64/48 v", &d.prisms),
    ];
    let names = |set: &str, what: &str| -> &'static str { Box::leak(format!("{set} {what}").into_boxed_str()) };
    for (set, pairs) in sets {
        let n = pairs.len();
        if set != "prism 64/48 v" {
            rows.push((names(set, "ARTICLE"), "GJK+EPA", compare(n, || ours(pairs, &a), || parry_contact(pairs))));
        }
        rows.push((names(set, "ROBUST"), "GJK+EPA", compare(n, || ours(pairs, &r), || parry_contact(pairs))));
        rows.push((names(set, "FAST"), "GJK+EPA", compare(n, || ours(pairs, &f), || parry_contact(pairs))));
        rows.push((names(set, "LOCAL"), "GJK+EPA", compare(n, || ours_local(pairs, &mut s), || parry_contact(pairs))));
        let robust = || ours_local_with(pairs, &r, &mut s);
        rows.push((names(set, "LOCAL ROBUST"), "GJK+EPA", compare(n, robust, || parry_contact(pairs))));
        let guarded = || ours_local_with(pairs, &SatConfig::GUARDED, &mut s);
        rows.push((names(set, "LOCAL GUARDED"), "GJK+EPA", compare(n, guarded, || parry_contact(pairs))));
    }
    let n = d.cubes.len();
    let cubes = &d.cubes;
    rows.push((
        "cube-cube LOCAL",
        "cuboid SAT",
        compare(n, || ours_local(cubes, &mut s), || parry_cuboid(cubes, &d.cuboid)),
    ));
    let moved = &mut d.moved;
    rows.push(("cube-cube FAST moved", "GJK+EPA", compare(n, || ours_moved(cubes, moved), || parry_contact(cubes))));
    let (apart, n) = (&d.apart, d.apart.len());
    rows.push(("hull20 apart FAST", "GJK", compare(n, || ours(apart, &f), || parry_contact(apart))));
    rows.push(("hull20 apart LOCAL", "GJK", compare(n, || ours_local(apart, &mut s), || parry_contact(apart))));
    let (overlap, n) = (&d.overlap, d.overlap.len());
    rows.push((
        "hull20 manifold LOCAL",
        "pfm_pfm",
        compare(n, || ours_manifold(overlap, &mut s), || parry_manifold(overlap, &mut m)),
    ));
    println!("\nhull3d summary (ns per call, best of 7 alternating rounds):");
    println!("  {:<28} {:>10} {:>12} {:>10} {:>8}", "case", "ours", "parry3d", "parry op", "ratio");
    for (name, op, (ours, peer)) in rows {
        println!("  {name:<28} {ours:>10.1} {peer:>12.1} {op:>10} {:>8.2}", ours / peer);
    }
    let random = &d.random;
    let overlapping = random.iter().filter(|p| collide_with(&p.world.0, &p.world.1, &r, None).is_ok()).count();
    println!("random 4-24: {overlapping} of {} pairs overlap", random.len());
    let dd = (ours(&d.overlap, &r) - parry_contact(&d.overlap)).abs() / d.overlap.len() as f32;
    let dl = (ours_local(&d.random, &mut s) - parry_contact(&d.random)).abs() / d.random.len() as f32;
    println!("sanity: mean |Δ depth| vs parry3d: hull20 ROBUST {dd:.2e}, random LOCAL {dl:.2e}");
}

fn main() {
    let cubes = around(1, 64, |_| cube(0.5), (0.5, 0.9));
    let moved = cubes.iter().map(|p| p.world.clone()).collect();
    let mut data = Data {
        moved,
        cubes,
        overlap: around(2, 64, hull20, (0.3, 0.9)),
        apart: around(3, 64, hull20, (1.1, 2.0)),
        random: random(4, 256, (4, 24), 1.5),
        random20: random(5, 256, (20, 24), 1.5),
        prisms: around(
            6,
            64,
            |rng| if rng.next_u64() % 2 == 0 { prism(32, 1.0, 0.6) } else { prism(24, 0.7, 1.0) },
            (0.4, 0.9),
        ),
        cuboid: Cuboid::new(Vector::new(0.5, 0.5, 0.5)),
        scratch: SatScratch::default(),
    };
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion, &mut data);
    criterion.final_summary();
    if std::env::args().any(|a| a == "--bench") {
        print_summary(&mut data);
    }
}
