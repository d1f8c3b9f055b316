//! Time-of-impact micro-benchmarks: ns per call of each of our five methods beside Box2D v3's
//! `b2TimeOfImpact` (its C library through `boxdd-sys`) and parry2d's nonlinear shape cast
//! (`cast_shapes_nonlinear`), on the same 64 random sweeps (boxes, convex polygons, circles and
//! capsules; B crosses A, each turning up to 0.8 rad, about half of them hitting; also the same
//! turning up to 2.5 rad, and translating), then the world's continuous-collision cost on
//! `scenes/rain.ron`, `scenes/bullets.ron` and `scenes/spinning_rods.ron`. The certified
//! method (the default) is the root finder plus the motion bound that accepts its advances:
//! its cost over Box2D's `b2TimeOfImpact` is the figure to read (goal ≤ 1.2).
//!
//! Box2D and our root finder run the same algorithm on the same sweeps (centre lerped,
//! rotation nlerped) and target (a linear slop). Parry's motion turns at a constant rate and
//! its target is touching, so its answers differ slightly; the casts ignore rotation. The
//! summary (plain timed loops, each side in alternation, best of 7 × ~40 ms) prints the ratios.
//!
//! Run with `cargo bench --bench toi` (about a minute).

mod support;

use criterion::Criterion;
use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::collide::toi::{time_of_impact, ToiInput, ToiMethod, ToiState};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::World;
use manifold_lab::peers::box2d_toi as box2d;
use manifold_lab::scene;
use parry2d::math::{Pose, Vector};
use parry2d::query::{cast_shapes_nonlinear, NonlinearRigidMotion};
use parry2d::shape::{Ball, Capsule, ConvexPolygon, SharedShape};
use std::hint::black_box;
use std::time::{Duration, Instant};
use support::toi as sweeps;

const CASES: usize = 64;

struct Case {
    input: ToiInput,
    b2: boxdd_sys::ffi::b2TOIInput,
    shape_a: SharedShape,
    shape_b: SharedShape,
    motion_a: NonlinearRigidMotion,
    motion_b: NonlinearRigidMotion,
}

fn parry_shape(p: &Proxy) -> SharedShape {
    let v = |q: glam::Vec2| Vector::new(q.x, q.y);
    match p.count {
        1 => SharedShape::new(Ball::new(p.radius)),
        2 => SharedShape::new(Capsule::new(v(p.points[0]), v(p.points[1]), p.radius)),
        _ => SharedShape::new(
            ConvexPolygon::from_convex_polyline_unmodified(p.points().iter().map(|&q| v(q)).collect()).unwrap(),
        ),
    }
}

fn motion(s: &manifold_lab::engine::collide::toi::Sweep) -> NonlinearRigidMotion {
    let start = s.transform(0.0);
    let lc = Vector::new(s.local_center.x, s.local_center.y);
    let d = s.translation();
    NonlinearRigidMotion::new(
        Pose::new(Vector::new(start.p.x, start.p.y), start.q.angle()),
        lc,
        Vector::new(d.x, d.y),
        s.rotation(),
    )
}

fn cases(seed: u64, max_turn: f32) -> Vec<Case> {
    let mut rng = SplitMix64(seed);
    (0..CASES)
        .map(|_| {
            let input = sweeps::random_input(&mut rng, max_turn);
            Case {
                b2: box2d::input(&input),
                shape_a: parry_shape(&input.proxy_a),
                shape_b: parry_shape(&input.proxy_b),
                motion_a: motion(&input.sweep_a),
                motion_b: motion(&input.sweep_b),
                input,
            }
        })
        .collect()
}

fn ours(cases: &[Case], m: ToiMethod) -> f32 {
    cases.iter().map(|c| time_of_impact(m, black_box(&c.input), None).t).sum()
}

fn box2d_toi(cases: &[Case]) -> f32 {
    cases.iter().map(|c| box2d::time_of_impact_raw(black_box(&c.b2)).1).sum()
}

fn parry_toi(cases: &[Case]) -> f32 {
    cases
        .iter()
        .map(|c| {
            let hit =
                cast_shapes_nonlinear(black_box(&c.motion_a), &*c.shape_a, &c.motion_b, &*c.shape_b, 0.0, 1.0, true);
            hit.ok().flatten().map_or(1.0, |h| h.time_of_impact)
        })
        .sum()
}

fn bench_mode() -> bool {
    // Under `cargo test --benches` criterion runs each routine once (no `--bench` argument).
    std::env::args().any(|a| a == "--bench")
}

fn benches(c: &mut Criterion, rotating: &[Case]) {
    let mut g = c.benchmark_group("toi_x64");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_millis(1500));
    for m in ToiMethod::ALL {
        g.bench_function(format!("rotating/{m:?}"), |b| b.iter(|| ours(rotating, m)));
    }
    g.bench_function("rotating/box2d_v3", |b| b.iter(|| box2d_toi(rotating)));
    g.bench_function("rotating/parry2d_nonlinear", |b| b.iter(|| parry_toi(rotating)));
    g.finish();
}

fn summary(name: &str, set: &[Case]) {
    let compare = |f: &mut dyn FnMut() -> f32, g: &mut dyn FnMut() -> f32| support::compare::compare(CASES, f, g);
    let hits = set.iter().filter(|c| box2d::time_of_impact_raw(&c.b2).0 == ToiState::Hit).count();
    let same = set
        .iter()
        .filter(|c| time_of_impact(ToiMethod::RootFinder, &c.input, None).state == box2d::time_of_impact_raw(&c.b2).0)
        .count();
    println!("\n{name} sweeps ({CASES}, {hits} hits; root finder and Box2D agree on {same}):");
    println!("  {:<34} {:>10} {:>12} {:>14}", "method", "ns/call", "box2d_v3", "ours / box2d");
    for m in ToiMethod::ALL {
        let (o, b) = compare(&mut || ours(set, m), &mut || box2d_toi(set));
        println!("  {:<34} {o:>10.1} {b:>12.1} {:>14.2}", m.label(), o / b);
    }
    let (c, r) = compare(&mut || ours(set, ToiMethod::Certified), &mut || ours(set, ToiMethod::RootFinder));
    println!("  certified {c:.1} ns vs our root finder {r:.1} ns: certified / root finder {:.2}", c / r);
    let (o, p) = compare(&mut || ours(set, ToiMethod::RootFinder), &mut || parry_toi(set));
    println!("  root finder {o:.1} ns vs parry2d cast_shapes_nonlinear {p:.1} ns: ours / parry {:.2}", o / p);
}

/// ms per step over `steps` steps from the scene's start, best of `rounds` runs alternating
/// continuous on and off; also the mean continuous-collision ms and events per step (on).
fn world_cost(path: &str, steps: usize, rounds: usize) {
    let scene = scene::load(std::path::Path::new(path)).expect("scene loads");
    let run = |continuous: bool| {
        let mut s = scene.clone();
        s.settings.continuous = continuous;
        let mut w: World = s.build_world();
        let (mut ccd, mut events) = (0.0f64, 0usize);
        let start = Instant::now();
        for _ in 0..steps {
            w.step();
            ccd += w.profile.ccd_ms as f64;
            events += w.profile.toi_events;
        }
        (start.elapsed().as_secs_f64() * 1000.0 / steps as f64, ccd / steps as f64, events)
    };
    let (mut on, mut off, mut ccd, mut events) = (f64::MAX, f64::MAX, 0.0, 0);
    for _ in 0..rounds {
        let r = run(true);
        if r.0 < on {
            (on, ccd, events) = r;
        }
        off = off.min(run(false).0);
    }
    let name = std::path::Path::new(path).file_name().map_or(path.into(), |n| n.to_string_lossy());
    println!(
        "  {name:<14} on {on:>8.3} ms/step, off {off:>8.3} ms/step, CCD pass {ccd:.3} ms/step ({:.1} %), {events} TOI events in {steps} steps",
        100.0 * ccd / on
    );
}

fn main() {
    let rotating = cases(0xB0_11E7, 0.8);
    let spinning = cases(0x5_1217, 2.5);
    let translating = cases(0x5_11DE, 0.0);
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion, &rotating);
    criterion.final_summary();
    if bench_mode() {
        summary("rotating", &rotating);
        summary("rotating up to 2.5 rad", &spinning);
        summary("translating", &translating);
        println!("\nworld continuous collision (best of alternating runs from the scene's start):");
        let root = env!("CARGO_MANIFEST_DIR");
        world_cost(&format!("{root}/scenes/bullets.ron"), 240, 5);
        world_cost(&format!("{root}/scenes/rain.ron"), 240, 3);
        world_cost(&format!("{root}/scenes/spinning_rods.ron"), 180, 5);
    }
}
