//! 3D coincident piles (issue 35): `n` unit cubes created at one point, on a ground (gravity)
//! or floating (no gravity). Per run: the slowest step and where its time went (collide,
//! solve), the pairs and contacts of the first step, the fastest body at any step and after
//! 120 steps, and the step at which the pile has spread (no two bodies overlap by more than
//! [`SPREAD_DEPTH`]).
//!
//! Run with `cargo bench --bench pile3d` (a release build; `PILE3D_SIZES=100,500` and
//! `PILE3D_STEPS=600` choose the piles and the steps).

use glam::Vec3;
use manifold_lab::engine::hull3d::shapes;
use manifold_lab::engine::world3d::pairs::find_pairs;
use manifold_lab::engine::world3d::{BodyDef3, World3, World3Params};
use manifold_lab::engine::BodyKind;
use std::sync::Arc;
use std::time::Instant;

/// A pile has spread once its deepest overlap is below this, m.
const SPREAD_DEPTH: f32 = 0.05;

fn pile(n: usize, gravity: bool) -> World3 {
    let g = if gravity { Vec3::new(0.0, -10.0, 0.0) } else { Vec3::ZERO };
    let mut w = World3::new(World3Params { gravity: g, ..World3Params::default() });
    if gravity {
        let ground = shapes::cuboid(Vec3::new(100.0, 0.5, 100.0));
        w.create_body(&BodyDef3::new(BodyKind::Static, ground, Vec3::new(0.0, -0.5, 0.0))).unwrap();
    }
    let cube = Arc::new(shapes::cube(0.5));
    for _ in 0..n {
        w.create_body(&BodyDef3::new(BodyKind::Dynamic, cube.clone(), Vec3::new(0.0, 0.5, 0.0))).unwrap();
    }
    w
}

/// The size of the box around the dynamic bodies' centres, m.
fn extent(w: &World3) -> Vec3 {
    let centres = w.bodies.iter().filter(|b| b.is_dynamic()).map(|b| b.center);
    let (lo, hi) = centres.fold((Vec3::MAX, Vec3::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)));
    (hi - lo).max(Vec3::ZERO)
}

fn fastest(w: &World3) -> f32 {
    w.bodies.iter().map(|b| b.linear_velocity.length()).fold(0.0, f32::max)
}

fn run(n: usize, gravity: bool, steps: usize) {
    let mut w = pile(n, gravity);
    let (mut slowest, mut at, mut split) = (0.0f32, 0, (0.0, 0.0));
    let (mut peak, mut at120, mut spread) = (0.0f32, 0.0f32, None);
    let (mut first, mut peak_at) = ((0, 0), 0);
    let t = Instant::now();
    let (pairs, _) = find_pairs(&w.bodies, &w.joints, w.params.speculative_margin);
    let pair_ms = t.elapsed().as_secs_f32() * 1000.0;
    let start = Instant::now();
    for step in 1..=steps {
        w.step();
        let p = w.profile;
        if step == 1 {
            first = (p.narrow.pairs, w.contacts.len());
        }
        if p.total_ms > slowest {
            (slowest, at, split) = (p.total_ms, step, (p.collide_ms, p.solve_ms));
        }
        if fastest(&w) > peak {
            (peak, peak_at) = (fastest(&w), step);
        }
        if step == 120 {
            at120 = fastest(&w);
        }
        if spread.is_none() && w.max_penetration() < SPREAD_DEPTH {
            spread = Some(step);
        }
    }
    let total = start.elapsed().as_secs_f32();
    let spread = spread.map_or(format!("not within {steps}"), |s| s.to_string());
    println!(
        "{n:>5} cubes {:<10} first step {:>7} pairs {:>6} contacts | slowest step {slowest:>8.1} ms (step {at}; collide {:.1}, solve {:.1}) | {steps} steps {total:.1} s | fastest {peak:.2} m/s (at step {peak_at}), after 120 steps {at120:.2} m/s | spread at step {spread} | final depth {:.3} m, extent {:.1} | pair finding {pair_ms:.1} ms for {}",
        if gravity { "on ground" } else { "floating" },
        first.0,
        first.1,
        split.0,
        split.1,
        w.max_penetration(),
        extent(&w),
        pairs.len(),
    );
}

fn main() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let sizes: Vec<usize> =
        env("PILE3D_SIZES", "100,500,1000").split(',').filter_map(|s| s.trim().parse().ok()).collect();
    let steps: usize = env("PILE3D_STEPS", "600").parse().unwrap_or(600);
    for n in sizes {
        for gravity in [true, false] {
            run(n, gravity, steps);
        }
    }
}
