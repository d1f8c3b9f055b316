//! A 1,000-link chain with a heavy end, hanging from a static anchor, here and in Box2D v3
//! (same settings: 60 Hz, 4 sub-steps, joint softness 60 Hz / damping ratio 2, sleep off).
//! Links are circles 1 m apart (radius 0.25, density 1, not colliding with each other), the
//! end a ball of radius 0.5 and density 100 (400 times a link). Ours may stretch no more than
//! Box2D's. `CHAIN_LINKS=N CHAIN_STEPS=M` change the size.

use super::box2d_world::{B2Shape, B2World};
use manifold_lab::engine::World;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const FILTER: &str = "category_bits: 2, mask_bits: 4294967293";

/// Our chain, from a scene file as a user would write it.
fn ours(n: usize) -> World {
    let mut text = format!(
        "Scene(version: 1, settings: (sleep: false), bodies: [\n\
         (name: \"l0\", kind: Static, position: (0, 0), shape: Circle(radius: 0.25), {FILTER}),\n"
    );
    for i in 1..=n {
        text += &format!("(name: \"l{i}\", position: (0, -{i}), shape: Circle(radius: 0.25), {FILTER}),\n");
    }
    let end = n + 1;
    text += &format!(
        "(name: \"l{end}\", position: (0, -{end}), shape: Circle(radius: 0.5), density: 100, {FILTER}),\n], joints: [\n"
    );
    for i in 1..=end {
        text += &format!("Revolute(a: \"l{}\", b: \"l{i}\", anchor: (0, -{}.5)),\n", i - 1, i - 1);
    }
    text += "])";
    manifold_lab::scene::parse(&text, "chain.ron").unwrap_or_else(|e| panic!("{e}")).build_world()
}

/// Box2D's chain; returns the end body and the joints.
fn theirs(n: usize) -> (B2World, boxdd_sys::ffi::b2BodyId, Vec<boxdd_sys::ffi::b2JointId>) {
    let mut w = B2World::new((0.0, -10.0), false);
    let filter = Some((2, !2));
    let mut joints = Vec::new();
    let mut prev = w.body(false, (0.0, 0.0), &B2Shape::Circle { radius: 0.25 }, 1.0, filter);
    for i in 1..=n + 1 {
        let (radius, density) = if i == n + 1 { (0.5, 100.0) } else { (0.25, 1.0) };
        let body = w.body(true, (0.0, -(i as f32)), &B2Shape::Circle { radius }, density, filter);
        joints.push(w.revolute(prev, body, (0.0, -0.5), (0.0, 0.5)));
        prev = body;
    }
    (w, prev, joints)
}

#[test]
fn a_thousand_link_chain_with_a_heavy_end_stretches_no_more_than_in_box2d() {
    let (n, steps) = (env_or("CHAIN_LINKS", 1000), env_or("CHAIN_STEPS", 300));
    let mut world = ours(n);
    let (mut b2, end, joints) = theirs(n);
    let rest = (n + 1) as f32;
    let (mut worst_ours, mut worst_box2d) = (0.0f32, 0.0f32);
    let (mut joint_ours, mut joint_box2d) = (0.0f32, 0.0f32);
    for _ in 0..steps {
        world.step();
        b2.step(1.0 / 60.0, 4);
        let last = world.bodies.last().unwrap().center;
        worst_ours = worst_ours.max(last.length() - rest);
        let (x, y) = b2.position(end);
        worst_box2d = worst_box2d.max((x * x + y * y).sqrt() - rest);
        joint_ours = joint_ours.max(world.max_joint_error());
        joint_box2d = joint_box2d.max(joints.iter().map(|&j| b2.joint_separation(j)).fold(0.0, f32::max));
    }
    eprintln!(
        "{n}-link chain, {steps} steps: largest stretch ours {worst_ours:.4} m, Box2D v3 {worst_box2d:.4} m; \
         largest joint separation ours {joint_ours:.4} m, Box2D v3 {joint_box2d:.4} m"
    );
    assert!(worst_ours.is_finite() && worst_box2d.is_finite());
    assert!(worst_ours <= worst_box2d + 0.005, "ours {worst_ours} m, Box2D {worst_box2d} m");
    assert!(joint_ours <= joint_box2d + 0.002, "ours {joint_ours} m, Box2D {joint_box2d} m");
}
