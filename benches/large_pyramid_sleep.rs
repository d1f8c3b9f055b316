//! Box2D's large_pyramid with sleep on, in manifold-lab, Box2D v3 (C, `boxdd-sys`) and
//! rapier2d, in the same process: how long each takes to put the pyramid to sleep, and what a
//! step costs while it settles and once it sleeps.
//!
//! Scene as `benches/large_pyramid.rs` (and `scenes/large_pyramid.rs` for us): a static ground
//! box (100 × 1 half extents) and 5,050 unit boxes (base 100), density 1, friction 0.6,
//! gravity (0, −10), 60 Hz, 4 sub-steps. Each engine sleeps by its own rule: ours is an island
//! still (under 0.05 m/s and 2°/s) for 0.5 s; Box2D's is a body's speed (its angular speed
//! times its extent included) under 0.05 m/s for 0.5 s; rapier's are its defaults.
//!
//! `cargo bench --bench large_pyramid_sleep` prints, for each engine, the awake bodies every
//! five seconds up to 30 s, then ms/step (alternating rounds, best kept) while settling and at
//! the end, with the ratios.

mod support;

use manifold_lab::engine::World;
use rapier2d::prelude::{ColliderBuilder, PhysicsWorld, RigidBodyBuilder, Vector};
use support::box2d_world::{B2Shape, B2World};
use support::timing::{alternate, print_ratios, Stepper};

const BASE: usize = 100;
const HZ: f32 = 60.0;
const SUBSTEPS: usize = 4;
const SECONDS: usize = 30;

fn box_positions() -> Vec<(f32, f32)> {
    let mut out = Vec::new();
    for i in 0..BASE {
        let count = BASE - i;
        for j in 0..count {
            out.push((j as f32 - (count - 1) as f32 * 0.5, 0.5 + i as f32));
        }
    }
    out
}

trait Pyramid: Stepper {
    fn awake(&self) -> usize;
}

struct Ours(World);

impl Stepper for Ours {
    fn name(&self) -> String {
        "manifold_lab".into()
    }
    fn step(&mut self) {
        self.0.step();
    }
}

impl Pyramid for Ours {
    fn awake(&self) -> usize {
        self.0.awake_body_count()
    }
}

struct Box2d(B2World);

impl Stepper for Box2d {
    fn name(&self) -> String {
        "Box2D v3".into()
    }
    fn step(&mut self) {
        self.0.step(1.0 / HZ, SUBSTEPS as i32);
    }
}

impl Pyramid for Box2d {
    fn awake(&self) -> usize {
        // The static ground is not counted by Box2D either.
        self.0.awake_bodies()
    }
}

struct Rapier(PhysicsWorld);

impl Stepper for Rapier {
    fn name(&self) -> String {
        "rapier2d".into()
    }
    fn step(&mut self) {
        self.0.step();
    }
}

impl Pyramid for Rapier {
    fn awake(&self) -> usize {
        self.0.bodies.iter().filter(|(_, b)| b.is_dynamic() && !b.is_sleeping()).count()
    }
}

fn ours() -> Ours {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/large_pyramid.ron");
    let mut world = manifold_lab::scene::load(&path).expect("the shipped scene").build_world();
    // The shipped scene runs sleep off, as Box2D's benchmark; this bench is about sleep.
    world.params.sleep = true;
    assert!(world.bodies.len() == 5051);
    Ours(world)
}

fn box2d() -> Box2d {
    let mut w = B2World::new((0.0, -10.0), true);
    w.body(false, (0.0, -1.0), &B2Shape::Box { hx: 100.0, hy: 1.0 }, 1.0, None);
    for p in box_positions() {
        w.body(true, p, &B2Shape::Box { hx: 0.5, hy: 0.5 }, 1.0, None);
    }
    Box2d(w)
}

fn rapier() -> Rapier {
    let mut w = PhysicsWorld { gravity: Vector::new(0.0, -10.0), ..PhysicsWorld::default() };
    w.integration_parameters.dt = 1.0 / HZ;
    w.integration_parameters.num_solver_iterations = SUBSTEPS;
    w.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, -1.0)),
        ColliderBuilder::cuboid(100.0, 1.0).friction(0.6),
    );
    for (x, y) in box_positions() {
        w.insert(
            RigidBodyBuilder::dynamic().translation(Vector::new(x, y)),
            ColliderBuilder::cuboid(0.5, 0.5).density(1.0).friction(0.6),
        );
    }
    Rapier(w)
}

fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn main() {
    if !bench_mode() {
        // `cargo test --benches`: build and step once.
        let (mut o, mut b, mut r) = (ours(), box2d(), rapier());
        o.step();
        b.step();
        r.step();
        assert!(o.awake() > 0 && b.awake() > 0 && r.awake() > 0);
        return;
    }
    let (mut o, mut b, mut r) = (ours(), box2d(), rapier());
    let names = vec![o.name(), b.name(), r.name()];
    println!("\nlarge_pyramid with sleep on (5,050 boxes, 60 Hz, 4 sub-steps; best of alternating rounds):");
    println!("settling, steps 1..=120:");
    let ms = alternate(&mut [&mut o, &mut b, &mut r], 4, 30);
    print_ratios(&names, &ms);
    let mut asleep_at: [Option<usize>; 3] = [None; 3];
    println!("awake bodies (of 5,050) by time:");
    for step in 121..=SECONDS * 60 {
        let engines: [&mut dyn Pyramid; 3] = [&mut o, &mut b, &mut r];
        for (e, at) in engines.into_iter().zip(&mut asleep_at) {
            e.step();
            if at.is_none() && e.awake() == 0 {
                *at = Some(step);
            }
        }
        if step % 300 == 0 {
            println!(
                "  {:>2} s: manifold_lab {:>4}, Box2D v3 {:>4}, rapier2d {:>4}",
                step / 60,
                o.awake(),
                b.awake(),
                r.awake()
            );
        }
    }
    for (n, at) in names.iter().zip(asleep_at) {
        match at {
            Some(s) => println!("  {n}: all asleep after {:.2} s", s as f32 / 60.0),
            None => println!("  {n}: still awake after {SECONDS} s"),
        }
    }
    println!("after {SECONDS} s, steps {}..={}:", SECONDS * 60 + 1, SECONDS * 60 + 120);
    let ms = alternate(&mut [&mut o, &mut b, &mut r], 4, 30);
    print_ratios(&names, &ms);
}
