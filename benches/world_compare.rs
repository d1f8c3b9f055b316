//! Two more of Box2D v3's benchmark scenes in manifold-lab, Box2D v3 (C, `boxdd-sys`) and
//! rapier2d, in the same process, timed the way `large_pyramid`'s summary is (alternating
//! rounds, best round kept: `support::timing`), printing ms per step and the ratios of ours to
//! each peer.
//!
//! - **many_pyramids** (Box2D's `benchmark/many_pyramids`, `CreateManyPyramids`): 20 rows of
//!   20 small pyramids of base 10 (22,000 unit boxes, density 1, friction 0.6), each row on its
//!   own ground 11 m above the last. Box2D's grounds are segments 440 m long; ours are static
//!   boxes with their top face where the segment is (we have no segment shape), and the same
//!   boxes are given to all three engines. The pyramids come from the scene format's `Pyramid`
//!   generator, placed as Box2D places them (its row `i` of boxes sits at
//!   `y = (2i + 1)·extent + baseY`, centred on `centerX + (base - 1)·extent`). 60 Hz, 4
//!   sub-steps, sleep off. Timed after `WARM_UP` steps.
//! - **rain** (`scenes/rain.ron`): 3,000 circles, boxes and polygons falling onto a hilly
//!   terrain, loaded from the shipped scene, sleep off (so every engine does the same work),
//!   timed while they fall and land (after `WARM_UP` steps) and again once they have piled up
//!   (after `RAIN_SETTLE` steps).
//!
//! Our world is built first, then copied body for body into the other two
//! (`support::mirror`). Run with `cargo bench --bench world_compare`; `MANY_PYRAMIDS_ROWS=N`
//! shrinks the pyramid grid to N × N for a quick run.

mod support;

use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use manifold_lab::scene::Generator;
use rapier2d::prelude::PhysicsWorld;
use support::box2d_world::B2World;
use support::mirror::{box2d_from, rapier_from};
use support::timing::{alternate, print_ratios, Stepper};

/// Steps run after building the worlds and before timing them.
const WARM_UP: usize = 60;
/// Alternating rounds per engine, and steps per round; each engine's best round is kept.
const ROUNDS: usize = 5;
const ROUND_STEPS: usize = 30;
/// Steps after which the rain has landed and piled up.
const RAIN_SETTLE: usize = 600;

/// Box2D's many_pyramids layout, `rows` × `rows` pyramids.
fn many_pyramids(rows: usize) -> World {
    const BASE: u32 = 10;
    const EXTENT: f32 = 0.5;
    let columns = rows;
    let ground_dy = 2.0 * EXTENT * (BASE as f32 + 1.0);
    let ground_width = 2.0 * EXTENT * columns as f32 * (BASE as f32 + 1.0);
    let params =
        SolverParams { gravity: Vec2::new(0.0, -10.0), hz: 60.0, substeps: 4, sleep: false, ..Default::default() };
    let mut world = World::new(params);
    for i in 0..rows {
        // Box2D's segment runs from -groundWidth to groundWidth at this height; a box of the
        // same length has its top face there.
        let top = i as f32 * ground_dy;
        let shape = Shape::make_box(Vec2::new(ground_width, 0.5)).expect("a valid box");
        let mut ground = BodyDef::new(BodyKind::Static, shape, Vec2::new(0.0, top - 0.5));
        ground.material.friction = 0.6;
        world.create_body(&ground);
    }
    let base_width = 2.0 * EXTENT * BASE as f32;
    for i in 0..rows {
        let base_y = i as f32 * ground_dy;
        for j in 0..columns {
            let center_x = -0.5 * ground_width + j as f32 * (base_width + 2.0 * EXTENT) + EXTENT;
            let pyramid = Generator::Pyramid {
                base: BASE,
                half_size: EXTENT,
                origin: Vec2::new(center_x + (BASE as f32 - 1.0) * EXTENT, base_y),
                gap: 0.0,
                prefix: "box_".to_string(),
                density: 1.0,
                friction: 0.6,
                restitution: 0.0,
                grid: None,
            };
            for def in pyramid.bodies() {
                world.create_body(&def);
            }
        }
    }
    world
}

/// The shipped rain scene, sleep off.
fn rain() -> World {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/rain.ron");
    let scene = manifold_lab::scene::load(std::path::Path::new(path)).expect("scenes/rain.ron loads");
    let mut world = scene.build_world();
    world.params.sleep = false;
    world
}

/// Our world, and whether its contact recycling is on (off steps exactly as the engine did
/// before recycling, so the two side by side are the before and after).
struct Ours(World);
struct Box2d(B2World, f32);
struct Rapier(PhysicsWorld);

impl Stepper for Ours {
    fn name(&self) -> String {
        if self.0.params.recycle_contacts {
            "manifold_lab".into()
        } else {
            "manifold_lab, recycling off".into()
        }
    }
    fn step(&mut self) {
        self.0.step();
    }
}

impl Stepper for Box2d {
    fn name(&self) -> String {
        "Box2D v3".into()
    }
    fn step(&mut self) {
        self.0.step(self.1, 4);
    }
}

impl Stepper for Rapier {
    fn name(&self) -> String {
        "rapier2d".into()
    }
    fn step(&mut self) {
        self.0.step();
    }
}

/// Mean height of the dynamic bodies in each engine (a check that they simulate the same scene).
fn print_heights(ours: &Ours, b2: &Box2d, rapier: &Rapier) {
    let dynamic: Vec<_> = ours.0.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic).collect();
    let mean_ours = dynamic.iter().map(|b| b.xf.p.y as f64).sum::<f64>() / dynamic.len() as f64;
    let r: Vec<f64> =
        rapier.0.bodies.iter().filter(|(_, b)| b.is_dynamic()).map(|(_, b)| b.translation().y as f64).collect();
    let mean_rapier = r.iter().sum::<f64>() / r.len() as f64;
    println!(
        "  mean height of the {} dynamic bodies: manifold_lab {mean_ours:.3}, Box2D v3 {:.3}, rapier2d {mean_rapier:.3}",
        dynamic.len(),
        b2.0.mean_dynamic_height(),
    );
}

fn run(name: &str, world: World, phases: &[(&str, usize)]) {
    let hz = world.params.hz;
    let mut b2 = Box2d(box2d_from(&world, false), 1.0 / hz);
    let mut rapier = Rapier(rapier_from(&world, false));
    let mut no_recycling = world.clone();
    no_recycling.params.recycle_contacts = false;
    let mut ours = Ours(world);
    let mut ours_off = Ours(no_recycling);
    println!();
    println!(
        "{name} summary ({} bodies, 60 Hz, 4 sub-steps, sleep off, one thread; best of {ROUNDS} alternating rounds of \
         {ROUND_STEPS} steps):",
        ours.0.bodies.len()
    );
    println!("{}", support::instruction_sets());
    let mut done = 0;
    for &(phase, from) in phases {
        for _ in done..from {
            ours.step();
            ours_off.step();
            b2.step();
            rapier.step();
        }
        println!("{phase} (from step {from}):");
        let mut engines: [&mut dyn Stepper; 4] = [&mut ours, &mut b2, &mut rapier, &mut ours_off];
        let ms = alternate(&mut engines, ROUNDS, ROUND_STEPS);
        let names: Vec<String> = engines.iter().map(|e| e.name()).collect();
        print_ratios(&names, &ms);
        done = from + ROUNDS * ROUND_STEPS;
        print_heights(&ours, &b2, &rapier);
    }
}

fn main() {
    // Under `cargo test --benches` the bench only has to build and start.
    if !std::env::args().any(|a| a == "--bench") {
        let mut w = many_pyramids(1);
        w.step();
        return;
    }
    let rows = std::env::var("MANY_PYRAMIDS_ROWS").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    run("many_pyramids", many_pyramids(rows), &[("settling", WARM_UP)]);
    run("rain", rain(), &[("falling", WARM_UP), ("piled up", RAIN_SETTLE)]);
}
