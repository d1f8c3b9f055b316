//! Bodies created on top of each other at one point: the pile spreads at about the push-out
//! speed (`max_push_velocity`, 3 m/s), not at the sum of every contact's push.
//! `PILE_BODIES=2000 cargo test --release --test limits pile -- --nocapture` runs a bigger pile.

use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use std::time::Instant;

/// `n` unit boxes created at one point above a wide ground.
fn coincident_boxes(n: usize) -> World {
    coincident_boxes_with(n, SolverParams::default())
}

fn coincident_boxes_with(n: usize, params: SolverParams) -> World {
    let mut w = World::new(params);
    let ground = Shape::make_box(Vec2::new(1000.0, 1.0)).unwrap();
    w.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -1.0)));
    let unit = Shape::make_box(Vec2::splat(0.5)).unwrap();
    for _ in 0..n {
        w.create_body(&BodyDef::new(BodyKind::Dynamic, unit, Vec2::new(0.0, 2.0)));
    }
    w
}

/// What a pile did over some steps.
#[derive(Debug)]
struct Spread {
    /// The largest speed at the end, and ever, m/s.
    fastest_end: f32,
    fastest_ever: f32,
    /// The largest upward and sideways speeds ever, m/s: what the pushes gave (a fall only
    /// adds downward speed).
    pushed_ever: f32,
    /// The bodies' extent at the end, m.
    width: f32,
    height: f32,
    /// Bodies whose centre ended below the ground's top.
    sunk: usize,
    /// The slowest step, s.
    slowest: f64,
}

/// Steps `steps` times and measures the pile.
fn spread(w: &mut World, steps: usize) -> Spread {
    let (mut fastest_ever, mut pushed_ever, mut slowest) = (0.0f32, 0.0f32, 0.0f64);
    let pushed =
        |w: &World| w.bodies.iter().map(|b| b.linear_velocity.y.max(b.linear_velocity.x.abs())).fold(0.0, f32::max);
    let speed = |w: &World| w.bodies.iter().map(|b| b.linear_velocity.length()).fold(0.0f32, f32::max);
    for _ in 0..steps {
        let t = Instant::now();
        w.step();
        slowest = slowest.max(t.elapsed().as_secs_f64());
        assert!(w.bodies.iter().all(|b| b.center.is_finite()));
        fastest_ever = fastest_ever.max(speed(w));
        pushed_ever = pushed_ever.max(pushed(w));
    }
    let range = |f: &dyn Fn(Vec2) -> f32| {
        let (lo, hi) =
            w.bodies[1..].iter().map(|b| f(b.center)).fold((f32::MAX, f32::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        hi - lo
    };
    Spread {
        fastest_end: speed(w),
        fastest_ever,
        pushed_ever,
        width: range(&|p| p.x),
        height: range(&|p| p.y),
        sunk: w.bodies[1..].iter().filter(|b| b.center.y < 0.0).count(),
        slowest,
    }
}

#[test]
fn a_coincident_pile_spreads_at_about_the_push_out_speed() {
    let n = std::env::var("PILE_BODIES").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let steps = std::env::var("PILE_STEPS").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let mut w = coincident_boxes(n);
    let s = spread(&mut w, steps);
    println!(
        "{n} coincident boxes, {steps} steps: fastest {:.2} m/s at the end, {:.2} ever ({:.2} up or sideways); {:.1} m wide, {:.1} m high; slowest step {:.1} ms",
        s.fastest_end, s.fastest_ever, s.pushed_ever, s.width, s.height, s.slowest * 1e3
    );
    // Falling 1.5 m to the ground gives 5.5 m/s; the pushes add at most a few m/s.
    assert!(s.fastest_ever < 10.0, "{s:?}");
    assert_eq!(s.sunk, 0, "{s:?}");
}

#[test]
fn the_baumgarte_mode_shares_the_push_out_speed_too() {
    use manifold_lab::engine::solver::PositionCorrection;
    // The article's Baumgarte correction pushes with velocity too; a body of the pile shares
    // `max_push_velocity` among its deep contacts as the soft step's rows do.
    let baumgarte = SolverParams { position_correction: PositionCorrection::Baumgarte, ..SolverParams::default() };
    let mut w = coincident_boxes_with(100, baumgarte.clone());
    let s = spread(&mut w, 120);
    println!("Baumgarte, 100 coincident boxes: {s:?}");
    // Before, a body's pushes added up: boxes flew up and out at 204 m/s. Shared, each body
    // is pushed at about the cap by its own overlaps, but Baumgarte keeps the velocity its
    // correction adds (no relax pass: the article's known cost), so along a column of boxes
    // the links' pushes still add: 14 m/s up here (the soft step: 5.5 m/s, the fall).
    assert!(s.pushed_ever < 20.0, "{s:?}");
    assert!(s.height > 2.0, "the pile spreads: {s:?}");
    // A lone overlap keeps the whole cap: one box 0.4 m into the ground pushes out at it.
    let push = baumgarte.max_push_velocity;
    let mut one = World::new(SolverParams { gravity: Vec2::ZERO, ..baumgarte });
    let ground = Shape::make_box(Vec2::new(10.0, 1.0)).unwrap();
    one.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -1.0)));
    let unit = Shape::make_box(Vec2::splat(0.5)).unwrap();
    one.create_body(&BodyDef::new(BodyKind::Dynamic, unit, Vec2::new(0.0, 0.1)));
    one.step();
    let v = one.bodies[1].linear_velocity.y;
    assert!((v - push).abs() < 0.5, "{v}");
}
