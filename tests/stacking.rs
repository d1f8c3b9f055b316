//! Stacking and material behaviour through the library API: stacks come to rest and stay
//! standing, restitution and friction behave as their definitions say.

use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::{PositionCorrection, SolverParams};
use manifold_lab::engine::{BodyDef, BodyKind, World};
use manifold_lab::scene::pyramid_positions;

fn ground(w: &mut World) {
    let def = BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(40.0, 1.0)).unwrap(), Vec2::new(0.0, -1.0));
    w.create_body(&def);
}

fn unit_box(w: &mut World, p: Vec2) -> usize {
    w.create_body(&BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.5)).unwrap(), p))
}

/// A pyramid of unit boxes on the ground, laid out by the scene format's generator.
fn pyramid(w: &mut World, base: u32) {
    for p in pyramid_positions(base, 0.5, Vec2::ZERO, 0.0) {
        unit_box(w, p);
    }
}

/// Steps `seconds` and returns the largest drift of any body from its start position.
fn max_drift_after(w: &mut World, seconds: f32) -> f32 {
    let start: Vec<Vec2> = w.bodies.iter().map(|b| b.center).collect();
    for _ in 0..(seconds * w.params.hz) as usize {
        w.step();
    }
    w.bodies.iter().zip(&start).map(|(b, s)| (b.center - *s).length()).fold(0.0, f32::max)
}

#[test]
fn vertical_stack_of_ten_comes_to_rest_and_stays() {
    let mut w = World::new(SolverParams::default());
    ground(&mut w);
    for i in 0..10 {
        unit_box(&mut w, Vec2::new(0.0, 0.5 + i as f32));
    }
    // Settling: the soft contacts compress a few millimetres each under the load above them.
    let settle = max_drift_after(&mut w, 1.0);
    assert!(settle < 0.05, "a box moved {settle} m while settling");
    // Then it stays: nothing creeps over the next 20 seconds.
    let drift = max_drift_after(&mut w, 20.0);
    assert!(drift < 0.005, "a box drifted {drift} m");
    assert!(w.kinetic_energy() < 1e-3, "kinetic energy {}", w.kinetic_energy());
    assert!(w.max_penetration() < 0.02, "penetration {}", w.max_penetration());
}

#[test]
fn pyramid_of_twenty_stays_standing_for_twenty_seconds() {
    let mut w = World::new(SolverParams::default());
    ground(&mut w);
    pyramid(&mut w, 20);
    assert_eq!(w.bodies.len(), 1 + 210);
    let settle = max_drift_after(&mut w, 1.0);
    assert!(settle < 0.05, "a box moved {settle} m while settling");
    let drift = max_drift_after(&mut w, 20.0);
    assert!(drift < 0.005, "a box drifted {drift} m");
    assert!(w.kinetic_energy() < 0.05, "kinetic energy {}", w.kinetic_energy());
}

/// Every way of removing overlap holds a vertical stack of ten boxes: after a second of
/// settling nothing creeps more than 5 mm over the next 10 s, with sleep off. The article's projection and
/// Box2D Lite's Baumgarte bias run with the article's iterated impulses (10), the soft step
/// with its defaults.
#[test]
fn every_correction_mode_holds_a_stack_within_five_millimetres() {
    for mode in PositionCorrection::ALL {
        let iterations = if mode == PositionCorrection::Soft { SolverParams::default().iterations } else { 10 };
        // Awake throughout: a sleeping stack cannot drift.
        let params = SolverParams { position_correction: mode, iterations, sleep: false, ..Default::default() };
        let mut w = World::new(params);
        ground(&mut w);
        for i in 0..10 {
            unit_box(&mut w, Vec2::new(0.0, 0.5 + i as f32));
        }
        let settle = max_drift_after(&mut w, 1.0);
        assert!(settle < 0.05, "{mode:?}: a box moved {settle} m while settling");
        let drift = max_drift_after(&mut w, 10.0);
        assert!(drift < 0.005, "{mode:?}: a box drifted {drift} m");
        assert!(w.max_penetration() < 0.02, "{mode:?}: penetration {}", w.max_penetration());
    }
}

#[test]
fn restitution_one_bounces_back_near_its_height_and_zero_does_not_bounce() {
    for (e, expect_high) in [(1.0, true), (0.0, false)] {
        let mut w = World::new(SolverParams::default());
        ground(&mut w);
        let mut def = BodyDef::new(BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(0.0, 5.5));
        def.material.restitution = e;
        let ball = w.create_body(&def);
        // Fall 5 m (≈1 s), then watch the next second for the highest point.
        let mut landed = false;
        let mut peak: f32 = 0.0;
        for _ in 0..180 {
            w.step();
            let b = &w.bodies[ball];
            if b.center.y < 0.6 {
                landed = true;
            }
            if landed {
                peak = peak.max(b.center.y);
            }
        }
        assert!(landed);
        if expect_high {
            assert!(peak > 4.5, "e = 1 should come back near 5.5 m, peak {peak}");
        } else {
            assert!(peak < 0.6, "e = 0 should not bounce, peak {peak}");
        }
    }
}

#[test]
fn friction_holds_a_box_on_a_ramp_only_above_tan_theta() {
    // Ramp at 20°: tan = 0.364. μ = 0.6 holds, μ = 0.1 slides.
    let angle = 20f32.to_radians();
    for (mu, should_slide) in [(0.6, false), (0.1, true)] {
        let mut w = World::new(SolverParams::default());
        let mut ramp = BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(20.0, 0.5)).unwrap(), Vec2::ZERO);
        ramp.angle = angle;
        ramp.material.friction = mu;
        w.create_body(&ramp);
        let normal = Vec2::new(-angle.sin(), angle.cos());
        let mut def = BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::splat(0.5)).unwrap(), normal * 1.0);
        def.angle = angle;
        def.material.friction = mu;
        let b = w.create_body(&def);
        for _ in 0..60 {
            w.step();
        }
        let start = w.bodies[b].center;
        for _ in 0..120 {
            w.step();
        }
        let moved = (w.bodies[b].center - start).length();
        if should_slide {
            // a = g (sin θ − μ cos θ) ≈ 2.48 m/s²; over 2 s that is several metres.
            assert!(moved > 2.0, "μ = {mu} should slide, moved {moved}");
        } else {
            assert!(moved < 0.02, "μ = {mu} should hold, moved {moved}");
        }
    }
}

#[test]
fn same_scene_same_steps_same_hash() {
    let build = || {
        // Sleep off: once the pile sleeps, a step changes nothing for the hash to see.
        let mut w = World::new(SolverParams { sleep: false, ..Default::default() });
        ground(&mut w);
        pyramid(&mut w, 10);
        w.create_body(&BodyDef::new(BodyKind::Dynamic, Shape::circle(0.4).unwrap(), Vec2::new(0.3, 14.0)));
        w
    };
    let (mut a, mut b) = (build(), build());
    for _ in 0..300 {
        a.step();
        b.step();
    }
    assert_eq!(a.state_hash(), b.state_hash());
    let mut c = build();
    for _ in 0..299 {
        c.step();
    }
    assert_ne!(a.state_hash(), c.state_hash(), "the hash must see a one-step difference");
}

#[test]
fn clone_resumes_identically() {
    let mut w = World::new(SolverParams::default());
    ground(&mut w);
    pyramid(&mut w, 6);
    for _ in 0..50 {
        w.step();
    }
    let mut copy = w.clone();
    for _ in 0..50 {
        w.step();
        copy.step();
    }
    assert_eq!(w.state_hash(), copy.state_hash());
}

#[test]
fn mouse_joint_pulls_a_body_to_the_target() {
    let mut w = World::new(SolverParams { gravity: Vec2::ZERO, ..Default::default() });
    let b = unit_box(&mut w, Vec2::ZERO);
    assert!(w.start_mouse_joint(b, Vec2::new(0.2, 0.0)));
    w.mouse_joint.as_mut().unwrap().target = Vec2::new(3.2, 1.0);
    for _ in 0..240 {
        w.step();
    }
    let anchor = w.mouse_joint.as_ref().unwrap().anchor(&w.bodies);
    assert!((anchor - Vec2::new(3.2, 1.0)).length() < 0.05, "anchor at {anchor:?}");
}

/// The shipped stacking scenes, loaded as a user would open them.
#[test]
fn shipped_pyramid_and_vertical_stack_stay_standing_for_twenty_seconds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    for name in ["pyramid.ron", "vertical_stack.ron"] {
        let scene = manifold_lab::scene::load(&dir.join(name)).unwrap_or_else(|e| panic!("{e}"));
        let mut w = scene.build_world();
        let settle = max_drift_after(&mut w, 1.0);
        assert!(settle < 0.05, "{name}: a box moved {settle} m while settling");
        let drift = max_drift_after(&mut w, 20.0);
        assert!(drift < 0.005, "{name}: a box drifted {drift} m in 20 s");
        assert!(w.max_penetration() < 0.02, "{name}: penetration {}", w.max_penetration());
        assert!(w.bodies.iter().all(|b| b.center.is_finite()));
    }
}
