//! Box2D's joint_grid benchmark in manifold-lab, Box2D v3 (C, `boxdd-sys`) and rapier2d, in the
//! same process.
//!
//! Scene (as Box2D v3's `benchmark/joint_grid`, and `scenes/joint_grid.ron` for us): a 100 × 100
//! grid of circles (radius 0.4, density 1), column `k` at `x = k`, row `i` at `y = −i`; each
//! circle is hinged (revolute joint) to the one above it (anchors (0, −0.5) and (0, 0.5)) and
//! to the one on its left (anchors (0.5, 0) and (−0.5, 0)). The top-row circles of columns
//! 47..=53 are static. The circles do not collide with each other (category 2, mask !2),
//! gravity (0, −10), 60 Hz, 4 sub-steps, sleep off. Box2D hinges the neighbouring static
//! anchors too (joints that do nothing); we skip those 6, so we solve 19,794 joints to its
//! 19,800. rapier2d uses its impulse joints with its default joint settings.
//!
//! `cargo bench --bench joint_grid`: criterion times single steps of each engine; then explicit
//! loops, alternating the engines, print ms/step and the ratios for the first seconds (the net
//! falling and stretching) and after ten seconds (hanging), with how far each net sagged.

mod support;

use criterion::Criterion;
use manifold_lab::engine::World;
use rapier2d::prelude::{
    ColliderBuilder, Group, InteractionGroups, InteractionTestMode, PhysicsWorld, RevoluteJointBuilder,
    RigidBodyBuilder, RigidBodyHandle, Vector,
};
use std::hint::black_box;
use std::time::Duration;
use support::box2d_world::{B2Shape, B2World};
use support::timing::{alternate, print_ratios, Stepper};

const N: usize = 100;
const HZ: f32 = 60.0;
const SUBSTEPS: usize = 4;

fn is_anchor(k: usize, i: usize) -> bool {
    i == 0 && (N / 2 - 3..=N / 2 + 3).contains(&k)
}

struct Ours(World);

impl Ours {
    fn new() -> Ours {
        Ours::with_threads(1)
    }

    /// The shipped scene solved on `threads` threads (its colours' joints cut into blocks).
    fn with_threads(threads: u32) -> Ours {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/joint_grid.ron");
        let mut world = manifold_lab::scene::load(&path).expect("the shipped scene").build_world();
        assert_eq!(world.bodies.len(), N * N);
        world.params.threads = threads;
        Ours(world)
    }

    /// Lowest circle centre.
    fn lowest(&self) -> f32 {
        self.0.bodies.iter().map(|b| b.center.y).fold(f32::MAX, f32::min)
    }
}

impl Stepper for Ours {
    fn name(&self) -> String {
        match self.0.params.threads {
            1 => "manifold_lab".into(),
            t => format!("manifold_lab, {t} threads"),
        }
    }
    fn step(&mut self) {
        self.0.step();
    }
}

struct Box2d {
    world: B2World,
    bodies: Vec<boxdd_sys::ffi::b2BodyId>,
    workers: i32,
}

impl Box2d {
    fn new() -> Box2d {
        Box2d::with_workers(1)
    }

    /// Box2D's grid stepped by `workers` threads (its built-in scheduler).
    fn with_workers(workers: i32) -> Box2d {
        let mut world = B2World::with_workers((0.0, -10.0), false, workers);
        let mut bodies = Vec::with_capacity(N * N);
        for k in 0..N {
            for i in 0..N {
                let body = world.body(
                    !is_anchor(k, i),
                    (k as f32, -(i as f32)),
                    &B2Shape::Circle { radius: 0.4 },
                    1.0,
                    Some((2, !2)),
                );
                let index = bodies.len();
                if i > 0 {
                    world.revolute(bodies[index - 1], body, (0.0, -0.5), (0.0, 0.5));
                }
                if k > 0 {
                    world.revolute(bodies[index - N], body, (0.5, 0.0), (-0.5, 0.0));
                }
                bodies.push(body);
            }
        }
        Box2d { world, bodies, workers }
    }

    fn lowest(&self) -> f32 {
        self.bodies.iter().map(|&b| self.world.position(b).1).fold(f32::MAX, f32::min)
    }
}

impl Stepper for Box2d {
    fn name(&self) -> String {
        match self.workers {
            1 => "Box2D v3".into(),
            w => format!("Box2D v3, {w} workers"),
        }
    }
    fn step(&mut self) {
        self.world.step(1.0 / HZ, SUBSTEPS as i32);
    }
}

struct Rapier {
    world: PhysicsWorld,
    bodies: Vec<RigidBodyHandle>,
}

impl Rapier {
    fn new() -> Rapier {
        let mut world = PhysicsWorld { gravity: Vector::new(0.0, -10.0), ..PhysicsWorld::default() };
        world.integration_parameters.dt = 1.0 / HZ;
        world.integration_parameters.num_solver_iterations = SUBSTEPS;
        let groups = InteractionGroups::new(Group::GROUP_2, !Group::GROUP_2, InteractionTestMode::And);
        let mut bodies = Vec::with_capacity(N * N);
        for k in 0..N {
            for i in 0..N {
                let rb = if is_anchor(k, i) { RigidBodyBuilder::fixed() } else { RigidBodyBuilder::dynamic() };
                let rb = rb.translation(Vector::new(k as f32, -(i as f32))).can_sleep(false);
                let (body, _) = world.insert(rb, ColliderBuilder::ball(0.4).density(1.0).collision_groups(groups));
                let index = bodies.len();
                if i > 0 {
                    let joint = RevoluteJointBuilder::new()
                        .local_anchor1(Vector::new(0.0, -0.5))
                        .local_anchor2(Vector::new(0.0, 0.5));
                    world.impulse_joints.insert(bodies[index - 1], body, joint, true);
                }
                if k > 0 {
                    let joint = RevoluteJointBuilder::new()
                        .local_anchor1(Vector::new(0.5, 0.0))
                        .local_anchor2(Vector::new(-0.5, 0.0));
                    world.impulse_joints.insert(bodies[index - N], body, joint, true);
                }
                bodies.push(body);
            }
        }
        Rapier { world, bodies }
    }

    fn lowest(&self) -> f32 {
        self.bodies.iter().map(|&b| self.world.bodies[b].translation().y).fold(f32::MAX, f32::min)
    }
}

impl Stepper for Rapier {
    fn name(&self) -> String {
        "rapier2d".into()
    }
    fn step(&mut self) {
        self.world.step();
    }
}

fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn criterion_steps(c: &mut Criterion) {
    let mut group = c.benchmark_group("joint_grid");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    let mut ours = Ours::new();
    group.bench_function("manifold_lab", |b| {
        b.iter(|| {
            ours.step();
            black_box(&ours.0);
        })
    });
    let mut b2 = Box2d::new();
    group.bench_function("box2d_v3", |b| {
        b.iter(|| {
            b2.step();
            black_box(&b2.world);
        })
    });
    let mut rp = Rapier::new();
    group.bench_function("rapier2d", |b| {
        b.iter(|| {
            rp.step();
            black_box(&rp.world);
        })
    });
    group.finish();
}

fn summary() {
    let (mut ours, mut b2, mut rp) = (Ours::new(), Box2d::new(), Rapier::new());
    let names = vec![ours.name(), b2.name(), rp.name()];
    println!("\njoint_grid summary ({} bodies, 60 Hz, 4 sub-steps, sleep off; best of alternating rounds):", N * N);
    println!("falling, steps 1..=120 (4 rounds of 30 steps each engine):");
    let ms = alternate(&mut [&mut ours, &mut b2, &mut rp], 4, 30);
    print_ratios(&names, &ms);
    for _ in 120..600 {
        ours.step();
        b2.step();
        rp.step();
    }
    println!("hanging, steps 601..=720:");
    let ms = alternate(&mut [&mut ours, &mut b2, &mut rp], 4, 30);
    print_ratios(&names, &ms);
    println!(
        "sanity: lowest circle after 12 s (starts at y = -99): manifold_lab {:.2}, Box2D v3 {:.2}, rapier2d {:.2}",
        ours.lowest(),
        b2.lowest(),
        rp.lowest()
    );
    println!("  manifold_lab's largest joint error: {:.3} m", ours.0.max_joint_error());
}

/// Ours on one and two threads beside Box2D v3 on one and two workers: fresh grids after the
/// falling phase (120 steps), alternating rounds while they hang and swing.
fn two_threads() {
    let (mut ours1, mut ours2) = (Ours::with_threads(1), Ours::with_threads(2));
    let (mut b2_1, mut b2_2) = (Box2d::with_workers(1), Box2d::with_workers(2));
    let mut engines: [&mut dyn Stepper; 4] = [&mut ours1, &mut ours2, &mut b2_1, &mut b2_2];
    for e in engines.iter_mut() {
        for _ in 0..120 {
            e.step();
        }
    }
    let names: Vec<String> = engines.iter().map(|e| e.name()).collect();
    println!("threads, steps 121..=240 (4 rounds of 30 steps each):");
    let ms = alternate(&mut engines, 4, 30);
    for (n, m) in names.iter().zip(&ms) {
        println!("  {n}: {m:.3} ms/step");
    }
    println!("  speed-up at 2 threads: manifold_lab {:.2}x, Box2D v3 {:.2}x", ms[0] / ms[1], ms[2] / ms[3]);
    println!("  ratio manifold_lab / Box2D v3: 1 thread {:.2}, 2 threads {:.2}", ms[0] / ms[2], ms[1] / ms[3]);
    let bits = |w: &World| w.bodies.iter().map(|b| (b.center.x.to_bits(), b.center.y.to_bits())).collect::<Vec<_>>();
    println!("  same bits on 1 and 2 threads after 240 steps: {}", bits(&ours1.0) == bits(&ours2.0));
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    if bench_mode() {
        criterion_steps(&mut criterion);
        criterion.final_summary();
        summary();
        two_threads();
    } else {
        // `cargo test --benches`: build each world and step it once.
        let (mut o, mut b, mut r) = (Ours::new(), Box2d::new(), Rapier::new());
        o.step();
        b.step();
        r.step();
        assert!(o.lowest().is_finite() && b.lowest().is_finite() && r.lowest().is_finite());
    }
}
