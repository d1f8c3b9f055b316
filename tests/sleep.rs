//! Islands and sleep: `sleep.ron`'s piles fall asleep, a ball wakes one and it sleeps again;
//! sleep changes nothing while nothing sleeps; sleeping bodies stay put (poses, proxies,
//! contacts) and wake when touched, dragged, edited or when the solver changes.

use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::joints::{DistanceJoint, JointBase};
use manifold_lab::engine::solver::Joint;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use manifold_lab::scene;
use std::path::Path;

fn load(name: &str) -> World {
    scene::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name))
        .unwrap_or_else(|e| panic!("{e}"))
        .build_world()
}

fn pile_awake(w: &World, prefix: &str) -> (usize, usize) {
    let pile: Vec<_> = w.bodies.iter().filter(|b| b.name.starts_with(prefix)).collect();
    (pile.iter().filter(|b| b.awake).count(), pile.len())
}

#[test]
fn piles_sleep_wake_on_the_ball_and_sleep_again() {
    let mut w = load("sleep.ron");
    let hz = w.params.hz as usize;
    let piles = ["pile1_", "pile2_", "pile3_"];
    // Within 3 s every pile is asleep while the ball still rolls towards them.
    for _ in 0..3 * hz {
        w.step();
    }
    for p in piles {
        assert_eq!(pile_awake(&w, p).0, 0, "{p} still awake at 3 s");
    }
    let ball = w.bodies.iter().position(|b| b.name == "ball").unwrap();
    assert!(w.bodies[ball].awake && w.bodies[ball].linear_velocity.x > 1.0);
    let asleep_at = w.bodies.iter().map(|b| (b.center, b.angle)).collect::<Vec<_>>();
    // The ball reaches the first pile: it wakes (and only it), moves, then sleeps again.
    let mut woke = None;
    for step in 0..4 * hz {
        w.step();
        if woke.is_none() && pile_awake(&w, "pile1_").0 > 0 {
            woke = Some(step);
            assert_eq!(w.island_of(ball), w.island_of(w.bodies.iter().position(|b| b.name == "pile1_0").unwrap()));
        }
    }
    assert!(woke.is_some(), "the ball never woke pile 1");
    let moved = w
        .bodies
        .iter()
        .zip(&asleep_at)
        .filter(|(b, _)| b.name.starts_with("pile1_"))
        .any(|(b, (c, _))| b.center.distance(*c) > 0.01);
    assert!(moved, "the woken pile took the blow");
    for p in ["pile2_", "pile3_"] {
        // Untouched piles slept through it: not a bit moved.
        for (b, (c, a)) in w.bodies.iter().zip(&asleep_at).filter(|(b, _)| b.name.starts_with(p)) {
            assert!(!b.awake && b.center == *c && b.angle == *a, "{} moved", b.name);
        }
    }
    for _ in 0..3 * hz {
        w.step();
    }
    assert_eq!(pile_awake(&w, "pile1_").0, 0, "pile 1 asleep again");
}

#[test]
fn sleep_changes_nothing_while_nothing_sleeps() {
    // The first 0.4 s of every scene: too early for anything to sleep, so the step with sleep
    // on (islands built, sleep timers kept) must match the step with sleep off bit for bit.
    // With sleep off the step leaves the islands out and they are built when asked for: the
    // same islands, all awake.
    for name in ["default.ron", "pyramid.ron", "bridge.ron", "ragdoll.ron", "car.ron", "angle_joint.ron"] {
        let run = |sleep: bool| {
            let mut w = load(name);
            w.params.sleep = sleep;
            let mut islands = Vec::new();
            for _ in 0..24 {
                w.step();
                assert_eq!(w.awake_body_count(), w.bodies.iter().filter(|b| b.is_dynamic()).count());
                assert_eq!(w.awake_island_count(), w.island_count());
                islands.push((0..w.bodies.len()).map(|i| w.island_of(i)).collect::<Vec<_>>());
            }
            (w.state_hash(), islands)
        };
        let (on, off) = (run(true), run(false));
        assert!(on.1.iter().any(|step| step.iter().any(Option::is_some)), "{name}: islands");
        assert_eq!(on, off, "{name}");
    }
}

/// A box resting on the ground, asleep after a second.
fn sleeping_box() -> (World, usize) {
    let mut w = World::new(Default::default());
    w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(5.0, 0.5)).unwrap(), Vec2::ZERO));
    let b = w.create_body(&BodyDef::new(
        BodyKind::Dynamic,
        Shape::make_box(Vec2::splat(0.5)).unwrap(),
        Vec2::new(0.0, 1.0),
    ));
    for _ in 0..60 {
        w.step();
    }
    assert!(!w.bodies[b].awake);
    (w, b)
}

#[test]
fn sleeping_bodies_keep_pose_proxy_and_contact() {
    let (mut w, b) = sleeping_box();
    let (pose, contacts) = ((w.bodies[b].center, w.bodies[b].angle), w.contacts.clone());
    let proxy = w.broadphase.proxy_of(b).unwrap();
    let fat = w.broadphase.tree.fat_aabb(proxy);
    for _ in 0..30 {
        w.step();
    }
    assert_eq!((w.bodies[b].center, w.bodies[b].angle), pose);
    assert_eq!(w.contacts, contacts, "the contact is carried, impulses and all");
    assert_eq!(w.broadphase.tree.fat_aabb(proxy), fat);
    assert_eq!(w.profile.proxies_moved, 0);
    assert_eq!(w.awake_body_count(), 0);
}

#[test]
fn bodies_wake_when_dragged_edited_pushed_or_the_solver_changes() {
    let (mut w, b) = sleeping_box();
    w.start_mouse_joint(b, Vec2::new(0.0, 1.2));
    assert!(w.bodies[b].awake);
    w.mouse_joint = None;

    let (mut w, b) = sleeping_box();
    w.bodies[b].set_transform(Vec2::new(0.0, 2.0), 0.3); // the app's "set pose"
    w.step();
    assert!(w.bodies[b].awake && w.bodies[b].center.y < 2.0, "falls again");

    let (mut w, b) = sleeping_box();
    w.apply_force(b, Vec2::new(0.0, 100.0), w.bodies[b].center);
    w.step();
    assert!(w.bodies[b].awake && w.bodies[b].linear_velocity.y > 0.0);

    let (mut w, b) = sleeping_box();
    w.params.gravity = Vec2::new(3.0, -10.0);
    w.step();
    assert!(w.bodies[b].awake, "a parameter change wakes everyone");

    let (mut w, b) = sleeping_box();
    w.params.sleep = false;
    w.step();
    assert!(w.bodies[b].awake);
}

#[test]
fn a_joint_joins_islands_and_its_change_wakes_them() {
    let mut w = World::new(Default::default());
    w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(10.0, 0.5)).unwrap(), Vec2::ZERO));
    let box_at = |x| BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::new(x, 1.0));
    let (a, b) = (w.create_body(&box_at(-3.0)), w.create_body(&box_at(3.0)));
    w.step();
    assert_eq!(w.island_count(), 2);
    let base = JointBase::with_anchors(&w.bodies, a, b, Vec2::new(-3.0, 1.0), Vec2::new(3.0, 1.0));
    w.add_joint(Joint::Distance(DistanceJoint::new(base, 6.0))).unwrap();
    w.step();
    assert_eq!(w.island_count(), 1);
    assert_eq!(w.island_of(a), w.island_of(b));
    for _ in 0..60 {
        w.step();
    }
    assert_eq!(w.awake_body_count(), 0);
    if let Some(Joint::Distance(d)) = w.joint_mut(0) {
        d.length = 5.0;
    }
    assert_eq!(w.awake_body_count(), 2, "changing the joint wakes both bodies");
}
