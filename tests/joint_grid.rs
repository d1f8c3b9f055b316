//! Box2D's joint grid (circles hinged to the one above and the one to the left, hanging from
//! the 7 static circles in the middle of the top row) in our engine, built from a scene file
//! as a user would, and in Box2D v3 (its C library, same settings: 60 Hz, 4 sub-steps, joint
//! softness 60 Hz / damping ratio 2, warm starting, sleep off). After the same number of
//! steps, our largest joint separation may not exceed Box2D's by more than a small margin.
//!
//! The grid is 40 × 40 for CI; `JOINT_GRID_SIZE=100 JOINT_GRID_STEPS=600` runs the
//! benchmark's own size. Print the figures with
//! `cargo test --release --test joint_grid -- --nocapture`.

#[path = "../benches/support/box2d_world.rs"]
#[allow(dead_code)] // the test uses part of the bench support
mod box2d_world;

use box2d_world::{B2Shape, B2World};
use manifold_lab::engine::World;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Our world: the shipped scene's generator at size `n`.
fn ours(n: usize) -> World {
    let text = format!(
        "Scene(version: 1, name: \"grid\", settings: (gravity: (0.0, -10.0), hz: 60.0, substeps: 4, \
         iterations: 1, sleep: false), generators: [JointGrid(size: {n}, radius: 0.4, spacing: 1.0, anchors: 7)])"
    );
    let scene = manifold_lab::scene::parse(&text, "grid.ron").expect("a valid scene");
    let world = scene.build_world();
    assert_eq!(world.bodies.len(), n * n);
    world
}

/// Box2D's grid at size `n`, as its `joint_grid` benchmark builds it; returns the joints too.
fn theirs(n: usize) -> (B2World, Vec<boxdd_sys::ffi::b2JointId>) {
    let mut world = B2World::new((0.0, -10.0), false);
    let mut bodies = Vec::with_capacity(n * n);
    let mut joints = Vec::with_capacity(2 * n * n);
    for k in 0..n {
        for i in 0..n {
            let anchor = i == 0 && (n / 2 - 3..=n / 2 + 3).contains(&k);
            let body =
                world.body(!anchor, (k as f32, -(i as f32)), &B2Shape::Circle { radius: 0.4 }, 1.0, Some((2, !2)));
            let index = bodies.len();
            if i > 0 {
                joints.push(world.revolute(bodies[index - 1], body, (0.0, -0.5), (0.0, 0.5)));
            }
            if k > 0 {
                joints.push(world.revolute(bodies[index - n], body, (0.5, 0.0), (-0.5, 0.0)));
            }
            bodies.push(body);
        }
    }
    (world, joints)
}

/// The largest joint separation after `steps` steps: (ours, Box2D's), metres.
fn largest_separation(n: usize, steps: usize) -> (f32, f32) {
    let mut world = ours(n);
    let (mut b2, joints) = theirs(n);
    let (hz, substeps) = (world.params.hz, world.params.substeps);
    for _ in 0..steps {
        world.step();
        b2.step(1.0 / hz, substeps as i32);
    }
    let box2d = joints.iter().map(|&j| b2.joint_separation(j)).fold(0.0, f32::max);
    (world.max_joint_error(), box2d)
}

#[test]
fn the_joint_grid_stretches_no_more_than_in_box2d() {
    let n = env_or("JOINT_GRID_SIZE", 40);
    let steps = env_or("JOINT_GRID_STEPS", 300);
    let (ours, box2d) = largest_separation(n, steps);
    eprintln!("{n} × {n} grid, {steps} steps: largest joint separation ours {ours:.4} m, Box2D v3 {box2d:.4} m");
    assert!(ours.is_finite() && box2d.is_finite());
    assert!(ours <= 1.1 * box2d + 0.002, "ours {ours} m, Box2D {box2d} m");
}
