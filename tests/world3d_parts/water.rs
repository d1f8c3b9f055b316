//! Buoyancy: the submerged volume of a cube against the analytic value at tilts 0° and 45°,
//! a cube of half the water's density floating half under, waves moving a floating body.

use super::common::{add, all_finite, cube};
use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::{shapes, Plane, Pose3};
use manifold_lab::engine::world3d::{submerged_part, Water3, Wave, World3, World3Params};

/// A unit cube (side 1) centred at height `y`, turned by `tilt` about z, water plane y = 0.
fn submerged_cube(y: f32, tilt_degrees: f32) -> f32 {
    let pose = Pose3::new(Vec3::new(0.3, y, -0.7), Quat::from_rotation_z(tilt_degrees.to_radians()));
    submerged_part(&shapes::cube(0.5), &pose, &Plane { n: Vec3::Y, d: 0.0 }).volume
}

#[test]
fn submerged_volume_of_an_upright_cube() {
    // Upright: the part below y = 0 is a box of height clamp(0.5 − y, 0, 1).
    for k in 0..=20 {
        let y = -0.7 + 0.07 * k as f32;
        let want = (0.5 - y).clamp(0.0, 1.0);
        let got = submerged_cube(y, 0.0);
        assert!((got - want).abs() < 1e-5, "centre at {y}: {got} vs {want}");
    }
}

#[test]
fn submerged_volume_of_a_cube_turned_45_degrees() {
    // Turned 45° about z the cross-section is a square standing on a corner, half-diagonal
    // r = √2/2: below the level the area is (r − y)² while the corner alone is under
    // (y ≥ 0), 1 − (r + y)² once the level passes the centre (y < 0); depth 1 along z.
    let r = std::f32::consts::FRAC_1_SQRT_2;
    for k in 0..=20 {
        let y = -0.8 + 0.08 * k as f32;
        let want = if y >= r {
            0.0
        } else if y >= 0.0 {
            (r - y) * (r - y)
        } else if y > -r {
            1.0 - (r + y) * (r + y)
        } else {
            1.0
        };
        let got = submerged_cube(y, 45.0);
        assert!((got - want).abs() < 2e-5, "centre at {y}: {got} vs {want}");
    }
}

/// Flat water at level 1 with a `density`-ratio cube dropped in; returns the world after `t` s.
fn float_cube(ratio: f32, rotation: Quat, seconds: f32) -> (World3, usize) {
    let mut w = World3::new(World3Params::default());
    w.add_water(Water3 { linear_drag: 1.5, angular_drag: 1.5, ..Water3::flat(1.0) });
    let b = add(&mut w, cube(), Vec3::new(0.2, 2.0, -0.1), rotation, 1000.0 * ratio);
    for _ in 0..(seconds * w.params.hz) as usize {
        w.step();
    }
    assert!(all_finite(&w));
    (w, b)
}

#[test]
fn a_cube_of_half_the_waters_density_floats_half_under() {
    for rotation in [Quat::IDENTITY, Quat::from_axis_angle(Vec3::new(1.0, 0.3, 0.2).normalize(), 0.7)] {
        let (w, b) = float_cube(0.5, rotation, 20.0);
        let body = &w.bodies[b];
        let rec = w.buoyancy.iter().find(|r| r.body == b).expect("the cube is in the water");
        let fraction = rec.submerged.volume / body.volume;
        println!(
            "half-density cube: centre {:.4} m from the level, {:.2} % under, speed {:.1e}",
            body.center.y - 1.0,
            100.0 * fraction,
            body.linear_velocity.length()
        );
        assert!((body.center.y - 1.0).abs() < 0.02, "centre at {}", body.center.y);
        assert!((fraction - 0.5).abs() < 0.02, "{fraction}");
        assert!(body.linear_velocity.length() < 0.01, "settled");
    }
    // A quarter-density cube rides higher: a quarter under, its centre 0.25 m above the level.
    let (w, b) = float_cube(0.25, Quat::IDENTITY, 20.0);
    assert!((w.bodies[b].center.y - 1.25).abs() < 0.02, "{}", w.bodies[b].center.y);
}

#[test]
fn waves_lift_and_tilt_a_floating_body() {
    // A raft (1 × 0.4 × 1 m, half the water's density) on 0.3 m waves 6 m long: it heaves with
    // the surface, pitches with its slope (up to 17°) and, being stable (metacentric height
    // 0.32 m), does not capsize.
    let mut w = World3::new(World3Params::default());
    let mut water = Water3 { linear_drag: 3.0, angular_drag: 3.0, ..Water3::flat(0.0) };
    water.waves.push(Wave { amplitude: 0.3, wavelength: 6.0, direction_degrees: 0.0, phase_degrees: 0.0, speed: None });
    w.add_water(water);
    let b = add(&mut w, shapes::cuboid(Vec3::new(0.5, 0.2, 0.5)), Vec3::ZERO, Quat::IDENTITY, 500.0);
    let (mut lo, mut hi, mut tilt) = (f32::INFINITY, f32::NEG_INFINITY, 0.0f32);
    for _ in 0..900 {
        w.step();
        let body = &w.bodies[b];
        (lo, hi) = (lo.min(body.center.y), hi.max(body.center.y));
        tilt = tilt.max((body.rotation() * Vec3::Y).angle_between(Vec3::Y));
    }
    println!("on 0.3 m waves the raft moves between {lo:.3} and {hi:.3} m, tilting up to {:.1}°", tilt.to_degrees());
    assert!(all_finite(&w));
    assert!(hi - lo > 0.4, "it rides the waves up and down");
    assert!(tilt > 10f32.to_radians(), "and pitches with the slope");
    assert!(tilt < 60f32.to_radians(), "without capsizing");
}
