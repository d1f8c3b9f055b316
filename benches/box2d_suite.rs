//! Box2D v3's benchmark suite (its `benchmark/main.c` over `shared/benchmarks.c`) in
//! manifold-lab and in Box2D v3 (its C library through `boxdd-sys`, the SSE2 default or, with
//! `--features box2d-avx2`, its AVX2 build), at 1 and 2 threads, in one process.
//!
//! Each scene is the shipped file in `scenes/benchmark/` (checked against Box2D's own setup
//! in `tests/peers_parts/benchmark.rs`), built in Box2D through the peer
//! (`peers::box2d::Box2dWorld`, the Compare panel's translation). A run is timed as Box2D's
//! app times one: a fresh world, its first step left out, then the scene's remaining steps
//! (500 for joint_grid and large_pyramid, 200 many_pyramids, 1000 rain, 300 smash, 1,400
//! spinner, 750 tumbler; 60 Hz, 4 sub-steps). rain's step rule (`StepRain`: ragdolls created
//! and destroyed before steps) runs inside each engine's timed step, ours in `World::step`,
//! Box2D's in the peer's step before `b2World_Step`, as Box2D's app calls it inside its timed
//! loop. Each round runs ours then Box2D at each thread count, and each keeps its
//! best round (load from other processes hits both alike). Ours runs on `threads` workers,
//! Box2D on `workerCount` workers of its own scheduler.
//!
//! `cargo bench --bench box2d_suite` runs every scene whole, 3 rounds. The quick mode,
//! `SUITE_STEPS=N` (or `-- --steps N`), times only each scene's first N steps, 2 rounds
//! (`SUITE_ROUNDS` or `--rounds` sets the rounds); `SUITE_SCENES=smash,tumbler` picks scenes.

mod support;

use manifold_lab::engine::World;
use manifold_lab::peers::box2d::Box2dWorld;
use manifold_lab::peers::{OursWorld, PeerWorld};
use std::time::Instant;

/// Box2D's benchmark app's scenes that exist here, with its step counts.
const SCENES: [(&str, usize); 7] = [
    ("joint_grid", 500),
    ("large_pyramid", 500),
    ("many_pyramids", 200),
    ("rain", 1000),
    ("smash", 300),
    ("spinner", 1400),
    ("tumbler", 750),
];
const THREADS: [usize; 2] = [1, 2];

fn load(name: &str) -> World {
    let path = format!("{}/scenes/benchmark/{name}.ron", env!("CARGO_MANIFEST_DIR"));
    let scene = manifold_lab::scene::load(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{e}"));
    scene.build_world()
}

/// A fresh world of `engine` on `threads` threads.
fn fresh(box2d: bool, world: &World, threads: usize) -> Box<dyn PeerWorld> {
    if box2d {
        Box::new(Box2dWorld::with_workers(world, threads))
    } else {
        let mut w = world.clone();
        w.params.threads = threads as u32;
        Box::new(OursWorld::new(w))
    }
}

/// One run: ms per step over steps 1..steps (the first step untimed), and the touching
/// contacts at the end.
fn run(box2d: bool, world: &World, threads: usize, steps: usize) -> (f64, usize) {
    let mut w = fresh(box2d, world, threads);
    w.step();
    let t = Instant::now();
    for _ in 1..steps {
        w.step();
    }
    let ms = t.elapsed().as_secs_f64() * 1000.0 / (steps - 1).max(1) as f64;
    (ms, w.contact_count())
}

/// The suite's settings: from the arguments (`--steps N`, `--rounds R`) or the environment
/// (`SUITE_STEPS`, `SUITE_ROUNDS`, `SUITE_SCENES`).
struct Options {
    steps: Option<usize>,
    rounds: usize,
    scenes: Option<Vec<String>>,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().collect();
    let arg = |flag: &str, var: &str| {
        let given = args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
        given.or_else(|| std::env::var(var).ok()).and_then(|s| s.parse::<usize>().ok())
    };
    let steps = arg("--steps", "SUITE_STEPS").map(|n| n.max(2));
    let rounds = arg("--rounds", "SUITE_ROUNDS").unwrap_or(if steps.is_some() { 2 } else { 3 }).max(1);
    let scenes = std::env::var("SUITE_SCENES").ok().map(|s| s.split(',').map(|x| x.trim().to_string()).collect());
    Options { steps, rounds, scenes }
}

/// One row of the table: a scene at a thread count, each engine's best round.
fn row(name: &str, world: &World, threads: usize, steps: usize, rounds: usize) {
    let (mut ours, mut theirs) = ((f64::MAX, 0), (f64::MAX, 0));
    for _ in 0..rounds {
        let o = run(false, world, threads, steps);
        let t = run(true, world, threads, steps);
        ours = (ours.0.min(o.0), o.1);
        theirs = (theirs.0.min(t.0), t.1);
    }
    println!(
        "{name:<14} {threads:>7} {steps:>6} {:>13.3} {:>14.3} {:>9.2} {:>17}",
        ours.0,
        theirs.0,
        ours.0 / theirs.0,
        format!("{} / {}", ours.1, theirs.1)
    );
}

fn main() {
    // Under `cargo test --benches` the bench only has to build and start.
    if !std::env::args().any(|a| a == "--bench") {
        let w = load("tumbler");
        run(false, &w, 1, 2);
        run(true, &w, 1, 2);
        return;
    }
    let opts = options();
    let t0 = Instant::now();
    let mode = match opts.steps {
        Some(n) => format!("quick: the first {n} steps of each scene"),
        None => "each scene's whole run".to_string(),
    };
    println!("Box2D v3's benchmark suite, {mode}; best of {} alternating rounds; ms per step", opts.rounds);
    println!("{}", support::instruction_sets());
    println!(
        "{:<14} {:>7} {:>6} {:>13} {:>14} {:>9} {:>17}",
        "scene", "threads", "steps", "ours ms", "Box2D ms", "ours/B2D", "contacts ours/B2D"
    );
    for (name, box2d_steps) in SCENES {
        if opts.scenes.as_ref().is_some_and(|s| !s.iter().any(|x| x == name)) {
            continue;
        }
        let world = load(name);
        let steps = opts.steps.map_or(box2d_steps, |n| n.min(box2d_steps));
        for threads in THREADS {
            row(name, &world, threads, steps, opts.rounds);
        }
    }
    println!("({:.0} s in all)", t0.elapsed().as_secs_f64());
}
