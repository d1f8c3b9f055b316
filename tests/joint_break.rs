//! Breaking a joint must not inject energy. A taut chain of hinged planks (the shipped bridge,
//! and a shorter chain built here) is settled, then its middle hinge breaks, both ways: its
//! break force exceeded during a step, and `World::remove_joint`; the same scene in Box2D v3
//! breaks the same joint with `b2DestroyJoint` (after its joint event, or at the same step).
//! Measured in both: the mechanical energy of the dynamic bodies (kinetic plus gravity's
//! potential, f64 sums) just after the break and over the 3 s that follow, the largest speed
//! any body gains in one step, and how high the loads rise. `--nocapture` prints the numbers.
//!
//! Bounds, with ε the work of lifting every dynamic body by 1 mm (the golden scenes' rule):
//! * settled: without a break the energy rises by at most ε over the same 3 s, so what the
//!   break does is what is measured;
//! * right after the break (a quarter second) the energy rises by at most ε;
//! * over the 3 s it rises by at most ε plus the work of closing the hinge gaps that were open
//!   at the break: released joints close them slowly (`solver::joints::release`), and each
//!   gap closed lifts what hangs beyond it by at most its width;
//! * ours gains at most ε more energy than Box2D's run and at most g·dt more speed in a step,
//!   and the loads rise less than 5 cm.

mod support;

use manifold_lab::engine::World;
use manifold_lab::scene;
use std::path::Path;
use support::box2d_jointed::B2Jointed;

/// Steps of settling (10 s), with every dynamic body damped by `SETTLE_DAMPING` meanwhile.
const SETTLE_STEPS: usize = 600;
const SETTLE_DAMPING: f32 = 3.0;
/// Steps measured after the break (3 s), the first `RIGHT_AFTER` of them (0.25 s) "right after".
const WINDOW: usize = 180;
const RIGHT_AFTER: usize = 15;
/// How far loads may rise after the break, metres.
const LOAD_RISE: f32 = 0.05;

/// A chain of bodies hinged end to end between two static anchors: `chain` from the left
/// anchor to the right one, the hinge `chain[cut]`–`chain[cut + 1]` breaks, `loads` rest on it.
struct Taut {
    name: &'static str,
    world: World,
    chain: Vec<usize>,
    cut: usize,
    loads: Vec<usize>,
}

impl Taut {
    fn new(name: &'static str, world: World, anchors: (&str, &str), prefix: &str, cut: usize) -> Taut {
        let index = |name: &str| world.bodies.iter().position(|b| b.name == name).unwrap_or_else(|| panic!("{name}"));
        let links = (0..).map(|i| format!("{prefix}{i}")).take_while(|n| world.bodies.iter().any(|b| &b.name == n));
        let mut chain = vec![index(anchors.0)];
        chain.extend(links.map(|n| index(&n)));
        chain.push(index(anchors.1));
        let loads = (0..world.bodies.len()).filter(|&i| world.bodies[i].name.starts_with("load_")).collect();
        let undamped = world.bodies.iter().all(|b| b.linear_damping == 0.0 && b.angular_damping == 0.0);
        assert!(undamped, "{name}: the settling damping is taken off to zero before the break");
        Taut { name, world, chain, cut, loads }
    }

    /// The world's index of the hinge that breaks.
    fn hinge(&self, w: &World) -> usize {
        let pair = (self.chain[self.cut], self.chain[self.cut + 1]);
        w.joints().iter().position(|j| j.bodies() == pair).expect("the middle hinge")
    }

    /// ε: the work of lifting every dynamic body by 1 mm, J.
    fn epsilon(&self) -> f64 {
        let g = self.world.params.gravity.length() as f64;
        1e-3 * g * self.world.bodies.iter().filter(|b| b.is_dynamic()).map(|b| b.mass as f64).sum::<f64>()
    }

    /// The work of closing every hinge gap of `w` after the break: a gap lifts the links beyond
    /// it (towards the cut) and, as an upper bound, every load, by at most its width.
    fn closure_allowance(&self, w: &World) -> f64 {
        let mass = |i: &usize| w.bodies[*i].mass as f64;
        let loads: f64 = self.loads.iter().map(mass).sum();
        let at = |body: usize| self.chain.iter().position(|&c| c == body).expect("a chain body");
        let g = w.params.gravity.length() as f64;
        let mut work = 0.0;
        for j in w.joints() {
            let (a, b) = j.bodies();
            let (lo, hi) = (at(a).min(at(b)), at(a).max(at(b)));
            let beyond = if hi <= self.cut { &self.chain[hi..=self.cut] } else { &self.chain[self.cut + 1..=lo] };
            let (pa, pb) = j.base().world_anchors(&w.bodies);
            work += g * pa.distance(pb) as f64 * (beyond.iter().map(mass).sum::<f64>() + loads);
        }
        work
    }
}

/// What one engine does across the break.
#[derive(Debug, Default)]
struct Measured {
    /// Energy at the break (after the step that broke the hinge, or when it was removed), J.
    before: f64,
    /// Largest rise of the energy in the first `RIGHT_AFTER` steps and in the whole window, J.
    right_after: f64,
    gain: f64,
    /// Largest speed any body gained in one step, m/s.
    speed_gain: f32,
    /// Highest rise of a load above its height at the break, m.
    load_rise: f32,
    /// What closing the hinge gaps open at the break may cost (`Taut::closure_allowance`), J.
    allowance: f64,
}

/// How the hinge goes.
#[derive(Clone, Copy, Debug)]
enum Break {
    /// Its break force is set to half its reaction; it breaks in the next step.
    Threshold,
    /// Removed between steps.
    Remove,
}

/// One engine stepping a settled copy of a `Taut` scene.
trait Sim {
    /// One step; whether the hinge broke in it.
    fn step(&mut self) -> bool;
    fn energy(&self) -> f64;
    fn speed(&self, body: usize) -> f32;
    fn height(&self, body: usize) -> f32;
    /// Sets the hinge's break threshold to half its current force.
    fn arm(&mut self);
    fn remove(&mut self);
    /// What closing the hinge gaps open now may cost, J (only measured in ours).
    fn closure_allowance(&self) -> f64 {
        0.0
    }
}

/// Kinetic plus gravity's potential energy of the dynamic bodies, J (f64 sums).
fn mechanical_energy(w: &World) -> f64 {
    let g = w.params.gravity.as_dvec2();
    let body = |b: &manifold_lab::engine::Body| {
        b.kinetic_energy() as f64 - (b.mass * b.gravity_scale) as f64 * g.dot(b.center.as_dvec2())
    };
    w.bodies.iter().filter(|b| b.is_dynamic()).map(body).sum()
}

/// Ours: `step` says whether the hinge broke in it.
struct Ours<'a> {
    w: World,
    hinge: usize,
    taut: &'a Taut,
}

impl Sim for Ours<'_> {
    fn step(&mut self) -> bool {
        let n = self.w.joints().len();
        self.w.step();
        self.w.joints().len() < n
    }
    fn energy(&self) -> f64 {
        mechanical_energy(&self.w)
    }
    fn speed(&self, body: usize) -> f32 {
        self.w.bodies[body].linear_velocity.length()
    }
    fn height(&self, body: usize) -> f32 {
        self.w.bodies[body].center.y
    }
    fn arm(&mut self) {
        let force = self.w.joint_reaction(self.hinge).unwrap().force.length();
        self.w.joint_mut(self.hinge).unwrap().base_mut().break_force = Some(0.5 * force);
    }
    fn remove(&mut self) {
        self.w.remove_joint(self.hinge).expect("the hinge");
    }
    fn closure_allowance(&self) -> f64 {
        self.taut.closure_allowance(&self.w)
    }
}

/// Box2D v3: `step` destroys the hinge when its joint event comes, and says so.
struct Box2d {
    b2: B2Jointed,
    hinge: usize,
}

impl Sim for Box2d {
    fn step(&mut self) -> bool {
        let events = self.b2.step();
        assert!(events.iter().all(|&k| k == self.hinge), "only the hinge has a threshold: {events:?}");
        if events.is_empty() {
            return false;
        }
        self.b2.destroy_joint(self.hinge);
        true
    }
    fn energy(&self) -> f64 {
        self.b2.mechanical_energy()
    }
    fn speed(&self, body: usize) -> f32 {
        let (vx, vy) = self.b2.body_state(body).1;
        vx.hypot(vy)
    }
    fn height(&self, body: usize) -> f32 {
        self.b2.body_state(body).0 .1
    }
    fn arm(&mut self) {
        let (fx, fy) = self.b2.joint_force(self.hinge);
        self.b2.set_force_threshold(self.hinge, 0.5 * fx.hypot(fy));
    }
    fn remove(&mut self) {
        self.b2.destroy_joint(self.hinge);
    }
}

/// Breaks the hinge `how`, then steps `WINDOW` steps measuring.
fn measure(sim: &mut impl Sim, how: Break, bodies: usize, loads: &[usize]) -> Measured {
    match how {
        Break::Threshold => {
            sim.arm();
            assert!(sim.step(), "the hinge breaks in the step after its threshold is set to half its force");
        }
        Break::Remove => sim.remove(),
    }
    let (right_after, gain, allowance) = (f64::MIN, f64::MIN, sim.closure_allowance());
    let mut m = Measured { before: sim.energy(), right_after, gain, allowance, ..Default::default() };
    let mut speeds: Vec<f32> = (0..bodies).map(|i| sim.speed(i)).collect();
    let heights: Vec<f32> = loads.iter().map(|&i| sim.height(i)).collect();
    for step in 0..WINDOW {
        assert!(!sim.step(), "nothing else breaks");
        let rise = sim.energy() - m.before;
        if step < RIGHT_AFTER {
            m.right_after = m.right_after.max(rise);
        }
        m.gain = m.gain.max(rise);
        for (i, s) in speeds.iter_mut().enumerate() {
            let now = sim.speed(i);
            m.speed_gain = m.speed_gain.max(now - *s);
            *s = now;
        }
        for (&i, h) in loads.iter().zip(&heights) {
            m.load_rise = m.load_rise.max(sim.height(i) - h);
        }
    }
    m
}

/// Both engines from the scene's start: sleep off, every dynamic body damped while settling,
/// damping off again before the break.
fn settled(t: &Taut) -> (World, B2Jointed) {
    let mut w = t.world.clone();
    w.params.sleep = false;
    for b in w.bodies.iter_mut() {
        (b.linear_damping, b.angular_damping) = (SETTLE_DAMPING, SETTLE_DAMPING);
    }
    let mut b2 = B2Jointed::from_world(&w);
    for _ in 0..SETTLE_STEPS {
        w.step();
        assert!(b2.step().is_empty());
    }
    for b in w.bodies.iter_mut() {
        (b.linear_damping, b.angular_damping) = (0.0, 0.0);
    }
    b2.set_damping(0.0);
    (w, b2)
}

/// Settles `t`, checks it stays settled without a break, and breaks its hinge both ways in
/// both engines, checking the bounds of the module docs.
fn check(t: &Taut) {
    let eps = t.epsilon();
    let g_dt = t.world.params.gravity.length() * t.world.params.dt();
    let n = t.world.bodies.len();
    let mut still = settled(t).0;
    let start = mechanical_energy(&still);
    let mut drift = f64::MIN;
    for _ in 0..WINDOW {
        still.step();
        drift = drift.max(mechanical_energy(&still) - start);
    }
    assert!(drift <= eps, "{}: settled, the energy still rises {drift:.1} J in 3 s (ε {eps:.1} J)", t.name);
    for how in [Break::Threshold, Break::Remove] {
        let (w, b2) = settled(t);
        let hinge = t.hinge(&w);
        let m = measure(&mut Ours { w, hinge, taut: t }, how, n, &t.loads);
        let allowance = m.allowance;
        let mut theirs = Box2d { b2, hinge };
        let b = measure(&mut theirs, how, n, &t.loads);
        let report = format!(
            "{} {how:?}: energy at the break {:.0} J (Box2D {:.0} J); rise in 0.25 s / 3 s: ours {:.1} / {:.1} J \
             (closing the gaps may cost {allowance:.0} J), Box2D {:.1} / {:.1} J; largest speed gained in a step: \
             ours {:.2} m/s, Box2D {:.2} m/s; loads rise: ours {:.3} m, Box2D {:.3} m; ε {eps:.1} J",
            t.name,
            m.before,
            b.before,
            m.right_after,
            m.gain,
            b.right_after,
            b.gain,
            m.speed_gain,
            b.speed_gain,
            m.load_rise,
            b.load_rise
        );
        println!("{report}");
        assert!(m.right_after <= eps, "the break adds energy right away: {report}");
        assert!(m.gain <= eps + allowance, "the break adds more energy than closing the gaps costs: {report}");
        assert!(m.gain <= b.gain + eps, "more energy than Box2D's: {report}");
        assert!(m.speed_gain <= b.speed_gain + g_dt, "a larger kick than Box2D's: {report}");
        assert!(m.load_rise < LOAD_RISE, "loads thrown up: {report}");
    }
}

#[test]
fn breaking_the_bridge_hinge_adds_no_energy_and_no_more_than_box2d() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/bridge.ron");
    let world = scene::load(&path).unwrap_or_else(|e| panic!("{e}")).build_world();
    check(&Taut::new("bridge", world, ("left bank", "right bank"), "plank_", 80));
}

/// 40 planks of 5 kg hinged across 40 m, without joint friction or loads.
const TAUT_CHAIN: &str = r#"Scene(
    version: 1,
    name: "Taut chain",
    settings: (gravity: (0.0, -10.0), hz: 60.0, substeps: 4, iterations: 1),
    bodies: [
        (name: "left post", kind: Static, position: (-21.0, 10.0), shape: Box(half_extents: (1.0, 1.0))),
        (name: "right post", kind: Static, position: (21.0, 10.0), shape: Box(half_extents: (1.0, 1.0))),
    ],
    generators: [
        Chain(count: 40, origin: (-20.0, 10.0), link: Box(half_extents: (0.5, 0.125)), start: "left post",
              end: "right post", density: 20.0, prefix: "link_"),
    ],
)"#;

#[test]
fn breaking_a_taut_chain_hinge_adds_no_energy_and_no_more_than_box2d() {
    let world = scene::parse(TAUT_CHAIN, "taut_chain.ron").unwrap_or_else(|e| panic!("{e}")).build_world();
    check(&Taut::new("taut chain", world, ("left post", "right post"), "link_", 20));
}

/// The joints a break releases: those linked to the broken joint's bodies through dynamic
/// bodies, not past a static one. They lose their impulses, and the release ends after
/// `RELEASE_TIME`.
#[test]
fn a_break_releases_the_joints_of_its_structure_only() {
    use glam::Vec2;
    use manifold_lab::engine::shape::Shape;
    use manifold_lab::engine::solver::joints::release::RELEASE_TIME;
    use manifold_lab::engine::solver::joints::{JointBase, RevoluteJoint};
    use manifold_lab::engine::solver::{Joint, SolverParams};
    use manifold_lab::engine::{BodyDef, BodyKind};

    let mut w = World::new(SolverParams { sleep: false, ..Default::default() });
    let plank = Shape::make_box(Vec2::new(0.5, 0.125)).unwrap();
    let post = Shape::make_box(Vec2::new(0.25, 0.25)).unwrap();
    // post 0 – a – b – c – post 1 – d, and e hanging from a.
    let mut add = |kind, shape, x: f32, y: f32| w.create_body(&BodyDef::new(kind, shape, Vec2::new(x, y)));
    let (p0, a, b, c) = (
        add(BodyKind::Static, post, -2.0, 0.0),
        add(BodyKind::Dynamic, plank, -1.0, 0.0),
        add(BodyKind::Dynamic, plank, 0.0, 0.0),
        add(BodyKind::Dynamic, plank, 1.0, 0.0),
    );
    let (p1, d, e) = (
        add(BodyKind::Static, post, 2.0, 0.0),
        add(BodyKind::Dynamic, plank, 3.0, 0.0),
        add(BodyKind::Dynamic, plank, -1.0, -1.0),
    );
    for (x, y, at) in [(p0, a, -1.5), (a, b, -0.5), (b, c, 0.5), (c, p1, 1.5), (p1, d, 2.5)] {
        let base = JointBase::at(&w.bodies, x, y, Vec2::new(at, 0.0));
        w.add_joint(Joint::Revolute(RevoluteJoint::new(base))).unwrap();
    }
    let base = JointBase::at(&w.bodies, a, e, Vec2::new(-1.0, -0.5));
    w.add_joint(Joint::Revolute(RevoluteJoint::new(base))).unwrap();
    for _ in 0..30 {
        w.step();
    }
    let impulse = |j: &Joint| match j {
        Joint::Revolute(r) => r.linear_impulse.length(),
        _ => unreachable!(),
    };
    assert!(w.joints().iter().all(|j| impulse(j) > 0.0), "every joint carries a load");
    w.remove_joint(1).expect("a – b");
    let released: Vec<bool> = w.joints().iter().map(|j| j.base().release > 0).collect();
    // Left: post 0 – a, b – c, c – post 1, post 1 – d, a – e.
    assert_eq!(released, [true, true, true, false, true]);
    for (j, &r) in w.joints().iter().zip(&released) {
        assert_eq!(impulse(j) == 0.0, r, "released joints lose their impulses, the others keep them");
    }
    // Released for the steps of RELEASE_TIME seconds (at 60 Hz, 180), then solved as before.
    let steps = (RELEASE_TIME * w.params.hz).ceil() as usize;
    for _ in 0..steps {
        assert!(w.joints()[0].base().release > 0);
        w.step();
    }
    let left: Vec<u32> = w.joints().iter().map(|j| j.base().release).collect();
    assert_eq!(left, [0; 5], "released for {RELEASE_TIME} s");
}

/// A hinge breaking under load gives the same bits with 1, 2 and 3 solver threads.
#[test]
fn a_break_steps_the_same_at_any_thread_count() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/bridge.ron");
    let scene = scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let run = |threads: u32| {
        let mut w = scene.build_world();
        w.params.threads = threads;
        w.joint_mut(80).unwrap().base_mut().break_force = Some(15_000.0);
        for _ in 0..240 {
            w.step();
        }
        assert_eq!(w.broken_joints, 1, "the middle hinge broke under the loads");
        w.state_hash()
    };
    let one = run(1);
    assert_eq!(run(2), one);
    assert_eq!(run(3), one);
}
