//! What a QuickHull trace costs: the untraced call, the same call through the traced entry with
//! `None` (must match it: the recording is compiled out) and with a trace (what the hull lab
//! pays), in 2D (beside the monotone chain behind `Polygon::hull`) and 3D, on seeded clouds.
//!
//! Run with `cargo bench --bench quickhull`.

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use glam::{Vec2, Vec3};
use manifold_lab::engine::hull3d::{quickhull, quickhull_traced, HullOptions, QuickHullTrace3};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::hull::convex_hull;
use manifold_lab::engine::shape::{quickhull_2d, QuickHull2Trace};

fn clouds_2d() -> Vec<Vec<Vec2>> {
    let mut rng = SplitMix64::new(7);
    (0..32).map(|_| (0..64).map(|_| rng.vec2(-2.0, 2.0)).collect()).collect()
}

fn clouds_3d() -> Vec<Vec<Vec3>> {
    let mut rng = SplitMix64::new(8);
    (0..32).map(|_| (0..64).map(|_| rng.unit_vector() * rng.f32(0.5, 1.5)).collect()).collect()
}

fn bench(c: &mut Criterion) {
    let c2 = clouds_2d();
    let mut g = c.benchmark_group("quickhull_2d_64");
    g.bench_function("monotone_chain", |b| {
        b.iter(|| c2.iter().map(|p| convex_hull(black_box(p)).is_ok()).filter(|ok| *ok).count())
    });
    g.bench_function("quickhull_none", |b| {
        b.iter(|| c2.iter().map(|p| quickhull_2d(black_box(p), None).is_ok()).filter(|ok| *ok).count())
    });
    let mut t = QuickHull2Trace::default();
    g.bench_function("quickhull_traced", |b| {
        b.iter(|| c2.iter().map(|p| quickhull_2d(black_box(p), Some(&mut t)).is_ok()).filter(|ok| *ok).count())
    });
    g.finish();

    let c3 = clouds_3d();
    let o = HullOptions::default();
    let mut g = c.benchmark_group("quickhull_3d_64");
    g.bench_function("untraced", |b| {
        b.iter(|| c3.iter().map(|p| quickhull(black_box(p), &o).is_ok()).filter(|ok| *ok).count())
    });
    g.bench_function("traced_none", |b| {
        b.iter(|| c3.iter().map(|p| quickhull_traced(black_box(p), &o, None).is_ok()).filter(|ok| *ok).count())
    });
    let mut t = QuickHullTrace3::default();
    g.bench_function("traced", |b| {
        b.iter(|| c3.iter().map(|p| quickhull_traced(black_box(p), &o, Some(&mut t)).is_ok()).filter(|ok| *ok).count())
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    bench(&mut c);
    c.final_summary();
}
