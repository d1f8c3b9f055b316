//! Joints against physics that does not depend on the implementation: a pendulum's period,
//! a rod's length, held and slipping relative angles, limits, motor speeds, breaking.
//! Each world is built directly through the engine API.

use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::joints::{
    AngleJoint, DistanceJoint, JointBase, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
use manifold_lab::engine::solver::{Joint, SolverParams};
use manifold_lab::engine::{BodyDef, BodyKind, World};
use std::f32::consts::PI;

const G: f32 = 10.0;

fn world(gravity: f32) -> World {
    World::new(SolverParams { gravity: Vec2::new(0.0, -gravity), sleep: false, ..Default::default() })
}

fn add(w: &mut World, kind: BodyKind, shape: Shape, at: Vec2) -> usize {
    w.create_body(&BodyDef::new(kind, shape, at))
}

fn ground(w: &mut World) -> usize {
    add(w, BodyKind::Static, Shape::make_box(Vec2::new(0.5, 0.5)).unwrap(), Vec2::new(0.0, 50.0))
}

/// A revolute pendulum: a small disc at distance `length` below-right of a pivot on a static
/// body, released at `theta0`; the period of small oscillations is 2π√(L/g).
#[test]
fn revolute_pendulum_has_the_small_angle_period() {
    let length = 1.0;
    let mut w = world(G);
    let g = ground(&mut w);
    let pivot = Vec2::new(0.0, 40.0);
    let theta0 = 0.05f32;
    let bob_at = pivot + length * Vec2::new(theta0.sin(), -theta0.cos());
    // A disc of radius 1 cm: its own inertia adds (r²/2)/L² = 5e-5 to the period squared.
    let bob = add(&mut w, BodyKind::Dynamic, Shape::circle(0.01).unwrap(), bob_at);
    w.add_joint(Joint::Revolute(RevoluteJoint::new(JointBase::at(&w.bodies, g, bob, pivot)))).unwrap();
    // Upward zero crossings of x (the bob passes under the pivot moving right).
    let dt = w.dt();
    let mut crossings = Vec::new();
    let mut prev_x = w.bodies[bob].center.x - pivot.x;
    for step in 1..=(60.0 * 12.0) as usize {
        w.step();
        let x = w.bodies[bob].center.x - pivot.x;
        if prev_x < 0.0 && x >= 0.0 {
            crossings.push((step as f32 - 1.0 + prev_x / (prev_x - x)) * dt);
        }
        prev_x = x;
    }
    assert!(crossings.len() >= 5, "{crossings:?}");
    let periods = (crossings.len() - 1) as f32;
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / periods;
    let expected = 2.0 * PI * (length / G).sqrt();
    let error = (measured - expected).abs() / expected;
    assert!(error < 0.01, "period {measured} s vs 2π√(L/g) = {expected} s ({:.3} %)", 100.0 * error);
}

/// A distance joint (rigid rod) keeps a swinging body at its length within a millimetre.
#[test]
fn distance_joint_keeps_its_length() {
    let mut w = world(G);
    let g = ground(&mut w);
    let pivot = Vec2::new(0.0, 40.0);
    let bob = add(&mut w, BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.1)).unwrap(), pivot + Vec2::new(2.0, 0.0));
    let base = JointBase::with_anchors(&w.bodies, g, bob, pivot, pivot + Vec2::new(2.0, 0.0));
    w.add_joint(Joint::Distance(DistanceJoint::new(base, 2.0))).unwrap();
    let (mut worst, mut lowest) = (0.0f32, f32::MAX);
    for _ in 0..300 {
        w.step();
        let (pa, pb) = w.joints()[0].base().world_anchors(&w.bodies);
        worst = worst.max((pa.distance(pb) - 2.0).abs());
        lowest = lowest.min(w.bodies[bob].center.y);
    }
    // It swung: the bob passed under the pivot, at the bottom of a 2 m radius.
    assert!(lowest < 38.1, "{lowest}");
    assert!(worst < 1e-3, "length drifted by {worst} m");
}

/// The angle joint (003 article) on a free body under a constant torque: below `max_torque`
/// the relative angle holds within 1e-3 rad; above it the joint slips and the body spins up
/// at the net torque's rate, (τ − max) t² / (2 I).
#[test]
fn angle_joint_holds_below_its_max_torque_and_slips_above() {
    for (torque, holds) in [(15.0f32, true), (60.0, false)] {
        let mut w = world(0.0);
        let g = ground(&mut w);
        let b = add(&mut w, BodyKind::Dynamic, Shape::make_box(Vec2::new(1.0, 0.5)).unwrap(), Vec2::ZERO);
        let mut joint = AngleJoint::new(JointBase::at(&w.bodies, g, b, Vec2::ZERO));
        joint.max_torque = Some(30.0);
        w.add_joint(Joint::Angle(joint)).unwrap();
        let inertia = w.bodies[b].inertia;
        let steps = 60;
        let mut worst = 0.0f32;
        for _ in 0..steps {
            w.apply_torque(b, torque);
            w.step();
            worst = worst.max(w.bodies[b].angle.abs());
        }
        // The joint leaves translation free: the body did not move.
        assert!(w.bodies[b].center.length() < 1e-6);
        if holds {
            assert!(worst < 1e-3, "held at {worst} rad under {torque} N·m");
        } else {
            let t = steps as f32 * w.dt();
            let expected = 0.5 * (torque - 30.0) / inertia * t * t;
            let angle = w.bodies[b].angle;
            assert!((angle - expected).abs() < 0.05 * expected, "slipped to {angle} rad, expected {expected}");
        }
    }
}

/// A hinged bar falls onto its limits and stays within them (both directions).
#[test]
fn revolute_limits_hold() {
    for (start, limit) in [(0.0f32, -0.5f32), (PI, 0.5)] {
        let mut w = world(G);
        let g = ground(&mut w);
        let pivot = Vec2::new(0.0, 40.0);
        let dir = Vec2::from_angle(start);
        let bar = add(&mut w, BodyKind::Dynamic, Shape::make_box(Vec2::new(0.5, 0.05)).unwrap(), pivot + 0.5 * dir);
        w.bodies[bar].set_transform(pivot + 0.5 * dir, start);
        let mut j = RevoluteJoint::new(JointBase::at(&w.bodies, g, bar, pivot));
        j.enable_limit = true;
        (j.lower_angle, j.upper_angle) = (-0.5, 0.5);
        w.add_joint(Joint::Revolute(j)).unwrap();
        let mut worst = 0.0f32;
        for _ in 0..240 {
            w.step();
            let rel = w.bodies[bar].angle - start;
            worst = worst.max((rel.abs() - 0.5).max(0.0));
        }
        let rel = w.bodies[bar].angle - start;
        assert!((rel - limit).abs() < 0.01, "rests at {rel}, limit {limit}");
        assert!(worst < 0.02, "went {worst} rad beyond the limit");
    }
}

/// Motors reach their speed: revolute and wheel (angular), prismatic (linear).
#[test]
fn motors_reach_their_speed() {
    let mut w = world(0.0);
    let g = ground(&mut w);
    let disc = add(&mut w, BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(-5.0, 0.0));
    let mut r = RevoluteJoint::new(JointBase::at(&w.bodies, g, disc, Vec2::new(-5.0, 0.0)));
    (r.enable_motor, r.motor_speed, r.max_motor_torque) = (true, 3.0, 50.0);
    w.add_joint(Joint::Revolute(r)).unwrap();
    let slider = add(&mut w, BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.3)).unwrap(), Vec2::new(0.0, 0.0));
    let mut p = PrismaticJoint::new(JointBase::at(&w.bodies, g, slider, Vec2::ZERO).with_axis(Vec2::new(1.0, 1.0)));
    (p.enable_motor, p.motor_speed, p.max_motor_force) = (true, 1.5, 100.0);
    w.add_joint(Joint::Prismatic(p)).unwrap();
    let wheel = add(&mut w, BodyKind::Dynamic, Shape::circle(0.4).unwrap(), Vec2::new(5.0, 0.0));
    let mut wh = WheelJoint::new(JointBase::at(&w.bodies, g, wheel, Vec2::new(5.0, 0.0)).with_axis(Vec2::Y));
    (wh.enable_motor, wh.motor_speed, wh.max_motor_torque) = (true, -4.0, 20.0);
    w.add_joint(Joint::Wheel(wh)).unwrap();
    for _ in 0..90 {
        w.step();
    }
    let close = |a: f32, b: f32| (a - b).abs() <= 0.01 * b.abs();
    assert!(close(w.bodies[disc].angular_velocity, 3.0), "{}", w.bodies[disc].angular_velocity);
    let v = w.bodies[slider].linear_velocity;
    assert!(close(v.dot(Vec2::new(1.0, 1.0).normalize()), 1.5) && v.x == v.x.clamp(v.y - 1e-3, v.y + 1e-3), "{v}");
    assert!(close(w.bodies[wheel].angular_velocity, -4.0), "{}", w.bodies[wheel].angular_velocity);
    // The slider did not turn, the wheel stayed on its axis.
    assert!(w.bodies[slider].angle.abs() < 1e-3);
    assert!((w.bodies[wheel].center.x - 5.0).abs() < 1e-3);
}

/// A weld holds a cantilever; with a break force below its load the joint disappears.
#[test]
fn weld_holds_and_breaks_past_its_force() {
    for (break_force, survives) in [(None, true), (Some(5.0f32), false)] {
        let mut w = world(G);
        let g = ground(&mut w);
        let beam = add(&mut w, BodyKind::Dynamic, Shape::make_box(Vec2::new(1.0, 0.1)).unwrap(), Vec2::new(1.5, 50.0));
        let mut base = JointBase::at(&w.bodies, g, beam, Vec2::new(0.5, 50.0));
        base.break_force = break_force;
        w.add_joint(Joint::Weld(WeldJoint::new(base))).unwrap();
        for _ in 0..60 {
            w.step();
        }
        assert_eq!(w.joints().len(), survives as usize);
        assert_eq!(w.broken_joints, !survives as usize);
        if survives {
            assert!((w.bodies[beam].center - Vec2::new(1.5, 50.0)).length() < 0.01);
            // The reaction carries the beam's weight.
            let r = w.joint_reaction(0).unwrap();
            let weight = w.bodies[beam].mass * G;
            assert!((r.force.y - weight).abs() < 0.02 * weight, "{r:?} vs {weight}");
        } else {
            assert!(w.bodies[beam].center.y < 49.0, "the beam fell");
        }
    }
}

/// Two overlapping discs held by a revolute joint with `collide_connected` off never get a
/// contact, also when contacts are found before the first step (a scene loaded paused) and
/// over the steps after it: the joint's filter is built on first use wherever that is.
#[test]
fn jointed_bodies_do_not_collide_from_the_first_refresh_on() {
    let mut w = world(G);
    let a = add(&mut w, BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(0.0, 0.0));
    let b = add(&mut w, BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(0.6, 0.0));
    let free = add(&mut w, BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(-0.6, 0.0));
    w.add_joint(Joint::Revolute(RevoluteJoint::new(JointBase::at(&w.bodies, a, b, Vec2::new(0.3, 0.0))))).unwrap();
    w.refresh_contacts();
    let pairs = |w: &World| w.contacts.iter().map(|c| (c.a, c.b)).collect::<Vec<_>>();
    assert_eq!(pairs(&w), vec![(a, free)], "only the unjointed pair touches");
    for _ in 0..5 {
        w.step();
        assert!(!pairs(&w).contains(&(a, b)), "{:?}", pairs(&w));
    }
}
