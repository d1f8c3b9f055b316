//! The 3D world beside a 3D engine (issue 37): manifold-lab's `World3` and rapier3d 0.36 (which
//! shares our parry3d 0.31) step the same three worlds (`tests/support/peer3d.rs`), in the
//! same process, one thread each, sleep off, 60 Hz with 4 sub-steps:
//!
//! * `stack10`: 10 unit cubes in a column on the ground;
//! * `pyramid20`: a tetrahedral pyramid of unit cubes, base 20 (1,540 cubes);
//! * `tumble500`: 500 random hulls of 8–16 cloud points falling and tumbling in a walled box.
//!
//! Each case is timed in alternating rounds (`support::timing::alternate`: a few steps of ours,
//! then of rapier3d, repeated, best round kept, so load from other processes hits both alike)
//! and prints ms per step and the ratio ours / rapier3d, then where the worlds ended up (the
//! dynamic bodies' mean height and the top of the stack) as a check they simulate the same scene.
//!
//! Run with `cargo bench --bench peer3d` (release). `PEER3D_ROUNDS` (default 5) and
//! `PEER3D_STEPS` (steps per round, default 20; the stack takes 10× as many) choose the work.

#[path = "../tests/support/peer3d.rs"]
mod peer3d;
mod support;

use glam::Vec3;
use manifold_lab::engine::world3d::World3;
use peer3d::{our_centres, pyramid, rapier_centres, rapier_from, stack, tumbling_hulls};
use rapier3d::prelude::PhysicsWorld;
use support::timing::{alternate, print_ratios, Stepper};

struct Ours(World3);
struct Rapier(PhysicsWorld);

impl Stepper for Ours {
    fn name(&self) -> String {
        "manifold_lab".into()
    }
    fn step(&mut self) {
        self.0.step();
    }
}

impl Stepper for Rapier {
    fn name(&self) -> String {
        "rapier3d".into()
    }
    fn step(&mut self) {
        self.0.step();
    }
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn mean_height(centres: &[Vec3]) -> f32 {
    centres.iter().map(|c| c.y).sum::<f32>() / centres.len().max(1) as f32
}

/// Times `world` in both engines and prints the case's lines.
fn case(name: &str, world: World3, rounds: usize, steps: usize) {
    let mut rapier = Rapier(rapier_from(&world));
    let mut ours = Ours(world);
    let bodies = ours.0.bodies.len();
    let ms = alternate(&mut [&mut ours, &mut rapier], rounds, steps);
    println!("\n{name} ({bodies} bodies, {} steps each):", rounds * steps);
    print_ratios(&[ours.name(), rapier.name()], &ms);
    let (a, b) = (our_centres(&ours.0), rapier_centres(&rapier.0));
    let top = |c: &[Vec3]| c.iter().map(|c| c.y).fold(f32::MIN, f32::max);
    println!(
        "  mean height of the dynamic bodies: manifold_lab {:.3}, rapier3d {:.3}; highest {:.3} and {:.3}",
        mean_height(&a),
        mean_height(&b),
        top(&a),
        top(&b)
    );
}

fn main() {
    let (rounds, steps) = (env("PEER3D_ROUNDS", 5), env("PEER3D_STEPS", 20));
    println!("peer3d: manifold_lab World3 vs rapier3d 0.36, one thread, sleep off, 60 Hz, 4 sub-steps");
    println!("best of {rounds} alternating rounds; ratio below 1: ours is faster");
    case("stack10", stack(10), rounds, 10 * steps);
    case("pyramid20", pyramid(20), rounds, steps);
    case("tumble500", tumbling_hulls(500, 37), rounds, steps);
}
