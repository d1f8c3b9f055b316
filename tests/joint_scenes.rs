//! The shipped joint scenes do what their descriptions say, measured from body poses and the
//! scenes' own geometry (not through the joints' code): the chain barely stretches, the bridge
//! holds together, ragdoll joints stay in their limits, the car drives, the angle joint holds.

use glam::Vec2;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::{Body, World};
use manifold_lab::scene;
use std::path::Path;

fn load(name: &str) -> World {
    scene::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name))
        .unwrap_or_else(|e| panic!("{e}"))
        .build_world()
}

fn named<'a>(w: &'a World, name: &str) -> &'a Body {
    w.bodies.iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no body {name}"))
}

/// A body-local point in world space.
fn world_point(b: &Body, local: Vec2) -> Vec2 {
    b.xf.apply(local)
}

#[test]
fn chain_stretches_less_than_a_centimetre_after_ten_seconds() {
    let mut w = load("chain.ron");
    // Attachment points in each body's own frame, taken from the starting layout: the links'
    // capsule ends, the ceiling's hook at (0, 30), the ball's at its left side.
    let ends = |b: &Body| match b.shape {
        Shape::Capsule(c) => (c.center1, c.center2),
        _ => unreachable!(),
    };
    let hook = named(&w, "ceiling").xf.apply_inv(Vec2::new(0.0, 30.0));
    let ball_hook = named(&w, "ball").xf.apply_inv(Vec2::new(15.0, 30.0));
    let stretch = |w: &World| {
        let links: Vec<&Body> = (0..30).map(|i| named(w, &format!("link_{i}"))).collect();
        let mut gaps = world_point(named(w, "ceiling"), hook).distance(world_point(links[0], ends(links[0]).0));
        for pair in links.windows(2) {
            gaps += world_point(pair[0], ends(pair[0]).1).distance(world_point(pair[1], ends(pair[1]).0));
        }
        gaps + world_point(links[29], ends(links[29]).1).distance(world_point(named(w, "ball"), ball_hook))
    };
    assert!(stretch(&w) < 1e-5);
    let (mut lowest, mut last_second) = (f32::MAX, 0.0f32);
    for step in 0..600 {
        w.step();
        lowest = lowest.min(named(&w, "ball").center.y);
        if step >= 540 {
            last_second = last_second.max(stretch(&w));
        }
    }
    // It swung down the full length (15 m below the ceiling, minus the stretch).
    assert!(lowest < 30.0 - 15.0, "{lowest}");
    let at_ten = stretch(&w);
    assert!(at_ten < 0.01, "stretch after 10 s: {at_ten} m");
    assert!(last_second < 0.01, "stretch in the tenth second up to {last_second} m");
}

#[test]
fn bridge_stays_intact_under_its_load() {
    let mut w = load("bridge.ron");
    for _ in 0..600 {
        w.step();
    }
    let planks: Vec<&Body> = (0..160).map(|i| named(&w, &format!("plank_{i}"))).collect();
    let (left, right) = (Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0));
    let mut worst = world_point(planks[0], left).distance(Vec2::new(-80.0, 20.0));
    for pair in planks.windows(2) {
        worst = worst.max(world_point(pair[0], right).distance(world_point(pair[1], left)));
    }
    worst = worst.max(world_point(planks[159], right).distance(Vec2::new(80.0, 20.0)));
    assert!(worst < 0.01, "a hinge opened by {worst} m");
    assert_eq!(w.joints().len(), 161);
    // The deck sags but holds: every load rests on it, none fell through.
    let deck_low = planks.iter().map(|p| p.center.y).fold(f32::MAX, f32::min);
    assert!(deck_low > 10.0 && deck_low < 19.9, "deck {deck_low}");
    for b in w.bodies.iter().filter(|b| b.name.starts_with("load_")) {
        let under =
            planks.iter().min_by(|a, c| (a.center.x - b.center.x).abs().total_cmp(&(c.center.x - b.center.x).abs()));
        assert!(b.center.y > under.unwrap().center.y, "{} fell through the deck", b.name);
    }
}

#[test]
fn ragdoll_joints_stay_within_their_limits() {
    let mut w = load("ragdoll.ron");
    // Bones start upright (angle 0), so a hinge's angle is the child's angle minus the parent's.
    let beyond = |w: &World| {
        let mut worst = 0.0f32;
        for j in w.joints() {
            let manifold_lab::engine::solver::Joint::Revolute(r) = j else { continue };
            let (a, b) = j.bodies();
            let angle = manifold_lab::engine::math::unwind_angle(w.bodies[b].angle - w.bodies[a].angle);
            worst = worst.max(r.lower_angle - angle).max(angle - r.upper_angle);
        }
        worst
    };
    let mut worst = 0.0f32;
    for _ in 0..600 {
        w.step();
        worst = worst.max(beyond(&w));
    }
    // Soft limits: a hard landing bends a joint past its limit for a moment (contacts act after
    // the joints within an iteration), then the limit restores it. Continuous collision adds to
    // it: a fast limb is moved back to its time of impact while its neighbours are not (as in
    // Box2D v3), about 0.26 rad at worst in this scene (0.13 with `continuous` off).
    assert!(worst < 0.3, "a hinge went {worst} rad beyond its limit");
    assert!(beyond(&w) < 0.05, "{} rad beyond a limit at rest", beyond(&w));
    // They went down the stairs.
    let heads: Vec<f32> = ["red_2", "green_2", "blue_2", "stiff_2"].iter().map(|n| named(&w, n).center.y).collect();
    assert!(heads.iter().all(|&y| y < 11.0), "{heads:?}");
}

#[test]
fn the_car_drives_over_the_hills_on_its_wheels() {
    let mut w = load("car.ron");
    for _ in 0..600 {
        w.step();
    }
    let chassis = named(&w, "chassis");
    assert!(chassis.center.x > 30.0, "drove to x = {}", chassis.center.x);
    assert!(chassis.angle.abs() < 1.0, "upright: {}", chassis.angle);
    // Each wheel stays on its suspension axis (the chassis' local y through its anchor).
    for (name, x) in [("rear wheel", -0.85), ("front wheel", 0.85)] {
        let local = Transform::inv_mul(&chassis.xf, &named(&w, name).xf).p;
        assert!((local.x - x).abs() < 0.01, "{name} left its axis: {local}");
        assert!(named(&w, name).angular_velocity < -5.0, "{name} driven clockwise");
    }
}

#[test]
fn angle_joints_hold_the_towers_and_the_pair_turns_together() {
    let mut w = load("angle_joint.ron");
    for _ in 0..240 {
        w.step();
    }
    let rel = |a: &str, b: &str| named(&w, b).angle - named(&w, a).angle;
    assert!(rel("plank 1", "tower 1").abs() < 1e-3, "held: {}", rel("plank 1", "tower 1"));
    assert!(named(&w, "tower 1").angle.abs() < 0.05);
    assert!(named(&w, "tower 2").angle.abs() > 1.0, "the capped joint slipped and the tower fell");
    assert!((rel("box", "capsule") - 0.6).abs() < 1e-3, "{}", rel("box", "capsule"));
    assert!(named(&w, "box").angle.abs() > 0.5, "the pair turned on the peg");
}

#[test]
fn run_reports_joints_islands_and_errors() {
    let exe = env!("CARGO_BIN_EXE_manifold-lab");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/sleep.ron");
    let out =
        std::process::Command::new(exe).args(["run", scene.to_str().unwrap(), "--steps", "120", "--json"]).output();
    let out = out.expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // After 2 s the piles sleep and only the rolling ball is awake, alone in its island.
    assert_eq!(r["joints"], 0);
    assert_eq!(r["awake_bodies"], 1);
    assert_eq!(r["islands"], 4, "three piles and the ball");
    assert_eq!(r["broken_joints"], 0);
    let chain = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/chain.ron");
    let out = std::process::Command::new(exe).args(["run", chain.to_str().unwrap(), "--steps", "30"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("joints           31 (0 broken), max joint error"), "{text}");
    let r: serde_json::Value = serde_json::from_slice(
        &std::process::Command::new(exe)
            .args(["run", chain.to_str().unwrap(), "--steps", "30", "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let error = r["max_joint_error"].as_f64().unwrap();
    assert!(error > 0.0 && error < 0.01, "{error}");
}
