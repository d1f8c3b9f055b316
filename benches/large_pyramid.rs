//! Box2D's "large_pyramid" benchmark in manifold-lab, Box2D v3 (C, `boxdd-sys`) and rapier2d,
//! in the same process.
//!
//! Scene (identical in both engines, as in Box2D v3's `benchmark/large_pyramid`): a static
//! ground box of half extents (100, 1) centred at (0, -1), and a pyramid of base 100
//! (5,050 dynamic unit boxes, half size 0.5, density 1, friction 0.6, restitution 0), laid out
//! by the scene format's `Pyramid` generator as in `scenes/large_pyramid.ron`: row `i` (0-based
//! from the bottom) holds `100 - i` boxes at `x = j - (100 - i - 1) / 2`, `y = 0.5 + i`, with
//! no gap. Gravity (0, -10), 60 Hz, 4 sub-steps, no sleeping.
//!
//! Each world first runs `WARM_UP_STEPS` steps outside any timing, then criterion times single
//! `step()` calls (`large_pyramid/manifold_lab`, `large_pyramid/rapier2d`). Criterion's
//! estimates are not readable from code, so afterwards fresh worlds of all three engines are
//! stepped in alternating rounds (`support::timing::alternate`, best round kept) and the
//! summary prints ms/step, steps/s and the ratios of ours to each peer; then the worlds
//! criterion left behind (over a thousand steps in). A sanity check shows that every pyramid
//! is still standing, and where each engine leaves the top box.
//!
//! Our rows run on AVX2 where the processor has it (and once more on SSE2 lanes in the
//! summary); Box2D v3 is built with its default SSE2 unless the bench is run with
//! `--features box2d-avx2`, which builds it with its AVX2 option. The summary names both.
//!
//! Run with `cargo bench --bench large_pyramid`; `-- summary-only` (a filter that matches none
//! of criterion's benchmarks) prints the summary alone.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use manifold_lab::scene::Generator;
use rapier2d::prelude::{
    ColliderBuilder, IntegrationParameters, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle, SpringCoefficients, Vector,
};
use support::box2d_world::{B2Shape, B2World};
use support::timing::{alternate, print_ratios, Stepper};

const BASE_COUNT: usize = 100;
const HALF: f32 = 0.5;
const DENSITY: f32 = 1.0;
const FRICTION: f32 = 0.6;
const GROUND_HALF_EXTENTS: (f32, f32) = (100.0, 1.0);
const GROUND_CENTER: (f32, f32) = (0.0, -1.0);
const GRAVITY: (f32, f32) = (0.0, -10.0);
const HZ: f32 = 60.0;
const SUBSTEPS: u32 = 4;
/// Steps run after building a world and before timing it (the pyramid settles onto the ground).
const WARM_UP_STEPS: usize = 60;
/// Steps each engine is timed for in the printed summary.
const TIMED_STEPS: usize = 120;

/// The pyramid's boxes, laid out by the scene format's `Pyramid` generator (the one that
/// builds `scenes/large_pyramid.ron`): bottom row first, the last one is the top box.
fn pyramid() -> Vec<BodyDef> {
    Generator::Pyramid {
        base: BASE_COUNT as u32,
        half_size: HALF,
        origin: glam::Vec2::ZERO,
        gap: 0.0,
        prefix: "box_".to_string(),
        density: DENSITY,
        friction: FRICTION,
        restitution: 0.0,
        grid: None,
    }
    .bodies()
}

/// The top box's starting height.
fn top_start_y() -> f32 {
    pyramid().last().map(|d| d.position.y).unwrap_or(0.0)
}

/// The pyramid in our engine, solved on `threads` threads. Returns the world and the top box's
/// index.
fn build_manifold_lab(threads: u32) -> (World, usize) {
    let params = SolverParams {
        gravity: glam::Vec2::new(GRAVITY.0, GRAVITY.1),
        hz: HZ,
        substeps: SUBSTEPS,
        threads,
        // No sleeping, as the peers here (and as `world_compare`).
        sleep: false,
        ..Default::default()
    };
    let mut world = World::new(params);
    let ground_shape = Shape::make_box(glam::Vec2::new(GROUND_HALF_EXTENTS.0, GROUND_HALF_EXTENTS.1)).unwrap();
    let mut ground = BodyDef::new(BodyKind::Static, ground_shape, glam::Vec2::new(GROUND_CENTER.0, GROUND_CENTER.1));
    ground.material.friction = FRICTION;
    ground.material.restitution = 0.0;
    world.create_body(&ground);
    let mut top = 0;
    for def in pyramid() {
        top = world.create_body(&def);
    }
    (world, top)
}

/// Rapier settings matched to `SolverParams::default()` with 60 Hz and 4 sub-steps.
///
/// Rapier (since 0.20) uses the same Box2D v3 "soft step" (TGS-soft) scheme as our
/// `PositionCorrection::Soft`: each step is split into `num_solver_iterations` sub-steps, and
/// each sub-step runs `num_internal_pgs_iterations` biased velocity iterations, integrates
/// positions, then runs `num_internal_stabilization_iterations` relax (unbiased) iterations
/// (see `staged_island_solver/init.rs`: `dt / num_solver_iterations`). So
/// `num_solver_iterations` is our `substeps`, `num_internal_pgs_iterations` our `iterations`
/// and `num_internal_stabilization_iterations` our `relax_iterations`.
fn rapier_params(rapier_defaults_for_algorithms: bool) -> IntegrationParameters {
    let ours = SolverParams::default();
    let contact = SpringCoefficients::new(ours.contact_hertz, ours.contact_damping_ratio);
    let mut p = IntegrationParameters {
        dt: 1.0 / HZ,
        num_solver_iterations: SUBSTEPS as usize,
        num_internal_pgs_iterations: ours.iterations as usize,
        num_internal_stabilization_iterations: ours.relax_iterations as usize,
        // Our soft contacts use one stiffness everywhere; rapier's default doubles it for
        // contacts with fixed bodies.
        contact_softness: contact,
        static_contact_softness: contact,
        warmstart_coefficient: 1.0,
        length_unit: 1.0,
        normalized_allowed_linear_error: ours.slop,
        normalized_max_corrective_velocity: ours.max_push_velocity,
        normalized_prediction_distance: ours.speculative_margin,
        normalized_max_linear_velocity: ours.max_linear_speed,
        // We have no continuous collision; rapier sweeps fast bodies against fixed colliders
        // by default. Nothing is fast here, but skip the checks too.
        max_ccd_substeps: 0,
        ..IntegrationParameters::default()
    };
    if !rapier_defaults_for_algorithms {
        // Do the same work per step as our solver with `recycle_contacts` off: no contact
        // recycling (the narrowphase on every pair every step) and friction solved in the
        // biased pass too.
        p.contact_recycling = false;
        p.friction_in_bias_pass = true;
    }
    p
}

/// The pyramid in rapier2d. Returns the world and the top box's handle.
fn build_rapier(rapier_defaults_for_algorithms: bool) -> (PhysicsWorld, RigidBodyHandle) {
    let mut world = PhysicsWorld {
        gravity: Vector::new(GRAVITY.0, GRAVITY.1),
        integration_parameters: rapier_params(rapier_defaults_for_algorithms),
        ..PhysicsWorld::default()
    };
    world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(GROUND_CENTER.0, GROUND_CENTER.1)),
        ColliderBuilder::cuboid(GROUND_HALF_EXTENTS.0, GROUND_HALF_EXTENTS.1).friction(FRICTION).restitution(0.0),
    );
    let mut top = None;
    for def in pyramid() {
        let (handle, _) = world.insert(
            RigidBodyBuilder::dynamic().translation(Vector::new(def.position.x, def.position.y)).can_sleep(false),
            ColliderBuilder::cuboid(HALF, HALF).density(DENSITY).friction(FRICTION).restitution(0.0),
        );
        top = Some(handle);
    }
    (world, top.expect("the pyramid has boxes"))
}

/// One engine's pyramid, seen the same way for both engines.
trait Pyramid {
    fn step(&mut self);
    /// Steps taken since the world was built.
    fn steps(&self) -> usize;
    /// (x, y) of the top box.
    fn top(&self) -> (f32, f32);
    /// Lowest dynamic box centre.
    fn lowest_y(&self) -> f32;
}

struct Ours {
    world: World,
    top: usize,
}

impl Ours {
    fn new() -> Ours {
        Ours::with_threads(1)
    }

    fn with_threads(threads: u32) -> Ours {
        let (world, top) = build_manifold_lab(threads);
        Ours { world, top }
    }

    /// On SSE2 lanes (`avx2` off): the same bits, on the baseline instruction set.
    fn on_sse2() -> Ours {
        let mut ours = Ours::new();
        ours.world.params.avx2 = false;
        ours
    }

    /// With contact recycling off: the engine as it stepped before recycling, bit for bit.
    fn without_recycling() -> Ours {
        let mut ours = Ours::new();
        ours.world.params.recycle_contacts = false;
        ours
    }
}

impl Pyramid for Ours {
    fn step(&mut self) {
        self.world.step();
    }
    fn steps(&self) -> usize {
        self.world.step_count as usize
    }
    fn top(&self) -> (f32, f32) {
        let p = self.world.bodies[self.top].position();
        (p.x, p.y)
    }
    fn lowest_y(&self) -> f32 {
        self.world
            .bodies
            .iter()
            .filter(|b| b.kind == BodyKind::Dynamic)
            .map(|b| b.position().y)
            .fold(f32::INFINITY, f32::min)
    }
}

struct Rapier {
    world: PhysicsWorld,
    top: RigidBodyHandle,
    steps: usize,
}

impl Rapier {
    fn new(rapier_defaults_for_algorithms: bool) -> Rapier {
        let (world, top) = build_rapier(rapier_defaults_for_algorithms);
        Rapier { world, top, steps: 0 }
    }
}

impl Pyramid for Rapier {
    fn step(&mut self) {
        self.world.step();
        self.steps += 1;
    }
    fn steps(&self) -> usize {
        self.steps
    }
    fn top(&self) -> (f32, f32) {
        let p = self.world.bodies[self.top].translation();
        (p.x, p.y)
    }
    fn lowest_y(&self) -> f32 {
        self.world
            .bodies
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| b.translation().y)
            .fold(f32::INFINITY, f32::min)
    }
}

fn bench_mode() -> bool {
    // Under `cargo test --benches` criterion runs each routine once (no `--bench` argument).
    std::env::args().any(|a| a == "--bench")
}

fn warm_up(p: &mut (impl Pyramid + ?Sized)) {
    // Keep test mode quick in the unoptimised test profile.
    let steps = if bench_mode() { WARM_UP_STEPS } else { 1 };
    for _ in 0..steps {
        p.step();
    }
}

/// Criterion timing of single steps. Returns the two worlds, which criterion has advanced by
/// however many iterations it ran.
fn bench_large_pyramid(c: &mut Criterion) -> (Ours, Rapier) {
    let mut group = c.benchmark_group("large_pyramid");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(10));

    let mut ours = Ours::new();
    warm_up(&mut ours);
    group.bench_function("manifold_lab", |b| {
        b.iter(|| {
            ours.step();
            black_box(&ours.world);
        })
    });

    let mut theirs = Rapier::new(true);
    warm_up(&mut theirs);
    group.bench_function("rapier2d", |b| {
        b.iter(|| {
            theirs.step();
            black_box(&theirs.world);
        })
    });
    group.finish();
    (ours, theirs)
}

/// Box2D v3's pyramid (its own defaults: 30 Hz contacts, as ours), single-threaded or on
/// Box2D's own scheduler with several workers.
struct Box2d {
    world: B2World,
    top: boxdd_sys::ffi::b2BodyId,
}

impl Box2d {
    fn new() -> Box2d {
        Box2d::with_workers(1)
    }

    fn with_workers(workers: i32) -> Box2d {
        let mut world = B2World::with_workers(GRAVITY, false, workers);
        let ground = B2Shape::Box { hx: GROUND_HALF_EXTENTS.0, hy: GROUND_HALF_EXTENTS.1 };
        world.body(false, GROUND_CENTER, &ground, 1.0, None);
        let mut top = None;
        for def in pyramid() {
            let shape = B2Shape::Box { hx: HALF, hy: HALF };
            top = Some(world.body(true, (def.position.x, def.position.y), &shape, DENSITY, None));
        }
        Box2d { world, top: top.expect("the pyramid has boxes") }
    }
}

impl Pyramid for Box2d {
    fn step(&mut self) {
        self.world.step(1.0 / HZ, SUBSTEPS as i32);
    }
    fn steps(&self) -> usize {
        self.world.steps
    }
    fn top(&self) -> (f32, f32) {
        self.world.position(self.top)
    }
    fn lowest_y(&self) -> f32 {
        f32::NAN
    }
}

/// Any pyramid as a `Stepper` for the alternating timer.
struct Timed<'a>(&'a str, &'a mut dyn Pyramid);

impl Stepper for Timed<'_> {
    fn name(&self) -> String {
        self.0.to_string()
    }
    fn step(&mut self) {
        self.1.step();
    }
}

/// Rounds of `ROUND_STEPS` steps per engine in the alternating timing; the best round is kept.
const ROUNDS: usize = 5;
const ROUND_STEPS: usize = TIMED_STEPS / 4;

fn time_alternating(engines: Vec<(&str, &mut dyn Pyramid)>) {
    let mut timed: Vec<Timed> = engines.into_iter().map(|(n, p)| Timed(n, p)).collect();
    let names: Vec<String> = timed.iter().map(|t| t.name()).collect();
    let mut refs: Vec<&mut dyn Stepper> = timed.iter_mut().map(|t| t as &mut dyn Stepper).collect();
    let ms = alternate(&mut refs, ROUNDS, ROUND_STEPS);
    print_ratios(&names, &ms);
}

/// Where each engine's step goes, by its own timers (ours: `World::profile`; Box2D's:
/// `b2World_GetProfile`), mean over `PHASE_STEPS` more steps, taken alternately. The two
/// engines cut their steps differently: Box2D's solve includes what ours counts as the
/// end-of-step broadphase (moving the proxies), and its continuous pass.
fn print_phases(ours: &mut Ours, b2: &mut Box2d) {
    const PHASE_STEPS: usize = 30;
    let (mut o, mut b) = ([0.0f64; 5], [0.0f64; 7]);
    for _ in 0..PHASE_STEPS {
        ours.step();
        b2.step();
        let p = &ours.world.profile;
        for (acc, x) in o.iter_mut().zip([p.total_ms, p.broadphase_ms, p.narrowphase_ms, p.solve_ms, p.ccd_ms]) {
            *acc += x as f64 / PHASE_STEPS as f64;
        }
        let q = b2.world.profile();
        let constraints =
            q.warmStart + q.solveImpulses + q.relaxImpulses + q.integrateVelocities + q.integratePositions;
        let finish = q.applyRestitution + q.storeImpulses;
        for (acc, x) in
            b.iter_mut().zip([q.step, q.pairs, q.collide, q.solve, q.prepareConstraints, constraints, finish])
        {
            *acc += x as f64 / PHASE_STEPS as f64;
        }
    }
    println!("phases, ms/step by each engine's own timers (mean of {PHASE_STEPS} more steps):");
    println!(
        "  manifold_lab: step {:.3} = broadphase {:.3} (pairs + moving proxies) + narrowphase {:.3} + solve {:.3} \
         (islands, solver, sleep) + continuous {:.3} + rest",
        o[0], o[1], o[2], o[3], o[4]
    );
    println!(
        "  Box2D v3: step {:.3} = pairs {:.3} + collide {:.3} + solve {:.3} (prepare {:.3}, sub-steps {:.3}, \
         restitution + store {:.3}, the rest: bodies, proxies, continuous, islands)",
        b[0], b[1], b[2], b[3], b[4], b[5], b[6]
    );
}

fn print_sanity(name: &str, p: &dyn Pyramid) {
    let start_y = top_start_y();
    let (x, y) = p.top();
    let lowest = p.lowest_y();
    let drop = start_y - y;
    let standing = drop.abs() < 2.0 && x.abs() < 1.0 && (lowest.is_nan() || lowest > 0.0);
    // Box2D's bodies are not read back, so its lowest box is not known.
    let lowest = if lowest.is_nan() { "not read".to_string() } else { format!("{lowest:.3}") };
    println!(
        "  {name}: after {} steps top box at ({x:.3}, {y:.3}), dropped {drop:.3}; lowest box y = {lowest} -> {}",
        p.steps(),
        if standing { "standing" } else { "NOT STANDING" }
    );
}

/// Ours on one and two threads (the `threads` setting) beside Box2D v3 on one and two workers
/// (its built-in scheduler), fresh worlds, alternating; on a machine with two cores, whatever
/// else runs takes from the two-thread figures first.
fn two_threads() {
    let mut ours1 = Ours::with_threads(1);
    let mut ours2 = Ours::with_threads(2);
    let mut b2_1 = Box2d::with_workers(1);
    let mut b2_2 = Box2d::with_workers(2);
    for p in [&mut ours1 as &mut dyn Pyramid, &mut ours2, &mut b2_1, &mut b2_2] {
        warm_up(p);
    }
    println!("threads ({} cores available), fresh worlds after {WARM_UP_STEPS} warm-up steps:", cores());
    let mut timed = [
        Timed("manifold_lab, 1 thread", &mut ours1),
        Timed("manifold_lab, 2 threads", &mut ours2),
        Timed("Box2D v3, 1 worker", &mut b2_1),
        Timed("Box2D v3, 2 workers", &mut b2_2),
    ];
    let names: Vec<String> = timed.iter().map(|t| t.name()).collect();
    let mut refs: Vec<&mut dyn Stepper> = timed.iter_mut().map(|t| t as &mut dyn Stepper).collect();
    let ms = alternate(&mut refs, ROUNDS, ROUND_STEPS);
    for (n, m) in names.iter().zip(&ms) {
        println!("  {n}: {m:.3} ms/step, {:.1} steps/s", 1000.0 / m);
    }
    println!("  speed-up at 2 threads: manifold_lab {:.2}x, Box2D v3 {:.2}x", ms[0] / ms[1], ms[2] / ms[3]);
    println!("  ratio manifold_lab / Box2D v3: 1 thread {:.2}, 2 threads {:.2}", ms[0] / ms[2], ms[1] / ms[3]);
    print_sanity("manifold_lab, 2 threads", &ours2);
    print_sanity("Box2D v3, 2 workers", &b2_2);
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Alternating timed rounds (criterion's estimates cannot be read back), printed as a summary.
fn print_summary(mut ours_late: Ours, mut theirs_late: Rapier) {
    const SAME_WORK: &str = "rapier2d (no contact recycling, friction in bias pass)";

    // Early phase: fresh worlds after the warm-up, while the pyramid settles.
    let mut ours = Ours::new();
    let mut ours_off = Ours::without_recycling();
    let mut ours_sse2 = Ours::on_sse2();
    let mut b2 = Box2d::new();
    let mut theirs = Rapier::new(true);
    let mut theirs_same_work = Rapier::new(false);
    warm_up(&mut ours);
    warm_up(&mut ours_off);
    warm_up(&mut ours_sse2);
    warm_up(&mut b2);
    warm_up(&mut theirs);
    warm_up(&mut theirs_same_work);
    println!();
    println!(
        "large_pyramid summary ({} boxes, 60 Hz, 4 sub-steps; one thread; best of {ROUNDS} alternating rounds of \
         {ROUND_STEPS} steps):",
        BASE_COUNT * (BASE_COUNT + 1) / 2
    );
    println!("{}", support::instruction_sets());
    println!("early phase, fresh worlds after {WARM_UP_STEPS} warm-up steps:");
    time_alternating(vec![
        ("manifold_lab", &mut ours),
        ("Box2D v3", &mut b2),
        ("rapier2d", &mut theirs),
        (SAME_WORK, &mut theirs_same_work),
        ("manifold_lab, recycling off", &mut ours_off),
        ("manifold_lab, SSE2 lanes", &mut ours_sse2),
    ]);
    print_phases(&mut ours, &mut b2);
    let (ours_from, theirs_from) = (ours_late.steps(), theirs_late.steps());
    two_threads();
    println!("late phase, criterion's worlds (manifold_lab from step {ours_from}, rapier2d from step {theirs_from}):");
    time_alternating(vec![("manifold_lab", &mut ours_late), ("rapier2d", &mut theirs_late)]);
    println!("sanity check (top box starts at (0, {:.2}); a standing pyramid keeps it near there):", top_start_y());
    print_sanity("manifold_lab, early", &ours);
    print_sanity("manifold_lab recycling off, early", &ours_off);
    print_sanity("manifold_lab SSE2 lanes, early", &ours_sse2);
    let w = &ours.world;
    println!(
        "  manifold_lab's last step: {} contacts, {} manifolds recycled, {} computed, {} reused unchanged",
        w.contacts.len(),
        w.profile.manifolds_recycled,
        w.profile.manifolds,
        w.profile.manifolds_reused
    );
    print_sanity("Box2D v3, early", &b2);
    print_sanity("rapier2d, early", &theirs);
    print_sanity(&format!("{SAME_WORK}, early"), &theirs_same_work);
    print_sanity("manifold_lab, late", &ours_late);
    print_sanity("rapier2d, late", &theirs_late);
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let (ours, theirs) = bench_large_pyramid(&mut criterion);
    criterion.final_summary();
    if bench_mode() {
        print_summary(ours, theirs);
    }
}
