//! Continuous collision under rotation in the world: `scenes/spinning_rods.ron` (32 thin rods
//! and capsules fired spinning at a 10 cm static wall) and the same bodies at the hard limits
//! (400 m/s, 1000 rad/s), bullets or not: no body's centre ends beyond the wall. Box2D v3 runs
//! the same bodies and its count is printed beside ours
//! (`cargo test --test toi spinning_rods -- --nocapture`). Then 64 random refills of the scene:
//! each body at 40–400 m/s and up to ±1000 rad/s, a bullet or not, by a coin.

use crate::box2d_world::{B2Shape, B2World};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::{BodyKind, World};
use manifold_lab::scene;

const STEPS: usize = 180;

fn world() -> World {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/spinning_rods.ron");
    scene::load(std::path::Path::new(path)).unwrap_or_else(|e| panic!("{e}")).build_world()
}

/// The wall's centre line and the indices of the fired bodies.
fn wall_and_rods(w: &World) -> (f32, Vec<usize>) {
    let wall = w.bodies.iter().find(|b| b.name == "wall").expect("the scene has a wall").xf.p.x;
    let rods: Vec<usize> = (0..w.bodies.len()).filter(|&i| w.bodies[i].kind == BodyKind::Dynamic).collect();
    (wall, rods)
}

/// Steps our world and names the bodies whose centre ends beyond the wall, and the largest
/// number of time-of-impact events in a step (the continuous pass must have worked).
fn ours(mut w: World) -> (Vec<String>, usize) {
    let (wall, rods) = wall_and_rods(&w);
    assert!(rods.iter().all(|&i| w.bodies[i].center.x < wall), "every body starts left of the wall");
    let mut events = 0;
    for _ in 0..STEPS {
        w.step();
        events += w.profile.toi_events;
        assert!(rods.iter().all(|&i| w.bodies[i].center.is_finite()));
    }
    let beyond = rods.iter().filter(|&&i| w.bodies[i].center.x > wall).map(|&i| w.bodies[i].name.clone()).collect();
    (beyond, events)
}

/// The same bodies in Box2D v3 (its defaults, continuous collision on); how many end beyond.
fn box2d(w: &World) -> usize {
    let (wall, rods) = wall_and_rods(w);
    let g = w.params.gravity;
    let mut b2 = B2World::new((g.x, g.y), true);
    let mut ids = Vec::new();
    for (i, b) in w.bodies.iter().enumerate() {
        let shape = match &b.shape {
            Shape::Polygon(p) => B2Shape::Polygon { points: p.vertices().iter().map(|v| (v.x, v.y)).collect() },
            Shape::Capsule(c) => B2Shape::Capsule {
                center1: (c.center1.x, c.center1.y),
                center2: (c.center2.x, c.center2.y),
                radius: c.radius,
            },
            Shape::Circle(c) => B2Shape::Circle { radius: c.radius },
        };
        let m = &b.material;
        let dynamic = b.kind == BodyKind::Dynamic;
        let id = b2.body_posed(dynamic, (b.xf.p.x, b.xf.p.y), b.angle, &shape, (m.density, m.friction, m.restitution));
        if dynamic {
            b2.set_motion(id, (b.linear_velocity.x, b.linear_velocity.y), b.angular_velocity, b.bullet);
        }
        if rods.contains(&i) {
            ids.push(id);
        }
    }
    for _ in 0..STEPS {
        b2.step(w.dt(), w.params.substeps as i32);
    }
    ids.iter().filter(|&&id| b2.position(id).0 > wall).count()
}

fn compare(name: &str, w: World) {
    let theirs = box2d(&w);
    let (beyond, events) = ours(w);
    println!(
        "{name}: {} of 32 end beyond the wall with ours, {theirs} with Box2D v3 ({events} TOI events)",
        beyond.len()
    );
    assert!(events >= 32, "every body should have met the wall through the continuous pass: {events}");
    assert!(beyond.is_empty(), "{name}: beyond the wall: {beyond:?}");
}

#[test]
fn spinning_rods_never_pass_the_wall() {
    compare("spinning_rods.ron", world());
}

#[test]
fn spinning_rods_at_the_hard_limits_never_pass_the_wall() {
    // The limits a scene accepts: 400 m/s (`linear_velocity`, also `max_linear_speed`'s
    // default) and 1000 rad/s (`angular_velocity`), all bullets, then none.
    for bullet in [true, false] {
        let mut w = world();
        let (_, rods) = wall_and_rods(&w);
        for (k, &i) in rods.iter().enumerate() {
            let b = &mut w.bodies[i];
            b.linear_velocity.x = 400.0;
            b.angular_velocity = if k % 2 == 0 { 1000.0 } else { -1000.0 };
            b.bullet = bullet;
        }
        compare(if bullet { "at the limits, bullets" } else { "at the limits, not bullets" }, w);
    }
}

#[test]
fn spinning_rods_at_random_speeds_and_spins_never_pass_the_wall() {
    let (mut beyond, mut events, mut theirs) = (Vec::new(), 0, 0);
    for seed in 0..64u64 {
        let mut w = world();
        let (_, rods) = wall_and_rods(&w);
        let mut rng = SplitMix64(seed);
        for &i in &rods {
            let b = &mut w.bodies[i];
            b.linear_velocity = glam::Vec2::new(rng.f32(40.0, 400.0), rng.f32(-20.0, 20.0));
            b.angular_velocity = rng.f32(-1000.0, 1000.0);
            b.bullet = rng.below(2) == 0;
        }
        theirs += box2d(&w);
        let (names, e) = ours(w);
        events += e;
        beyond.extend(names.into_iter().map(|n| format!("{n} (seed {seed})")));
    }
    println!(
        "64 random refills of 32: {} end beyond the wall with ours, {theirs} with Box2D v3 ({events} TOI events)",
        beyond.len()
    );
    assert!(events >= 64 * 32, "the continuous pass should have met every body: {events}");
    assert!(beyond.is_empty(), "beyond the wall: {beyond:?}");
}
