//! The simulated surface in the world (`world_water`, `displace`): still water floats a hull
//! exactly as the analytic flat water does, bodies bobbing keep the water's volume, a dropped
//! cube makes waves that spread and die away, and the columns are part of the state hash.

use super::buoyancy::buoyancy;
use super::displace::vertical_cut;
use super::*;
use crate::engine::hull3d::{shapes, Pose3};
use crate::engine::BodyKind;
use glam::{Quat, Vec2, Vec3};

const FLOOR: f32 = -1.0;

fn pool(surface: Surface3) -> World3 {
    let mut w = World3::new(World3Params::default());
    let floor = BodyDef3::new(BodyKind::Static, shapes::cuboid(Vec3::new(5.0, 0.5, 4.0)), Vec3::Y * (FLOOR - 0.5));
    w.create_body(&floor).unwrap();
    let region = Region { min: Vec2::new(-4.0, -3.0), max: Vec2::new(4.0, 3.0) };
    w.add_water(Water3 { region: Some(region), surface, ..Water3::flat(0.0) });
    w
}

fn simulated() -> Surface3 {
    Surface3::Simulated { columns: (48, 36), stiffness: 2.0, spread: 225.0, damping: 0.6 }
}

fn dynamic(w: &mut World3, hull: crate::engine::hull3d::Hull, at: Vec3, density: f32, q: Quat) -> usize {
    let mut def = BodyDef3::new(BodyKind::Dynamic, hull, at);
    def.density = density;
    def.rotation = q;
    w.create_body(&def).unwrap()
}

fn field(w: &World3) -> &HeightField3 {
    w.surfaces[0].as_ref().unwrap()
}

#[test]
fn a_still_surface_floats_a_hull_exactly_as_the_analytic_flat_water() {
    let mut flat = pool(Surface3::Analytic);
    let mut sim = pool(simulated());
    let tilt = Quat::from_euler(glam::EulerRot::XYZ, 0.3, 0.5, -0.2);
    for w in [&mut flat, &mut sim] {
        dynamic(w, shapes::icosahedron(0.6), Vec3::new(0.7, 0.1, -0.4), 600.0, tilt);
        dynamic(w, shapes::cube(0.4), Vec3::new(-1.5, -0.05, 1.0), 500.0, Quat::IDENTITY);
        w.sync_surfaces();
    }
    let g = flat.params.gravity;
    for i in 1..3 {
        let b = &flat.bodies[i];
        let pose = b.pose;
        let a = buoyancy(b, i, &pose, b.center, (Vec3::X, Vec3::Z), (&flat.water[0], None, 0), 0.0, g).unwrap();
        let s = buoyancy(b, i, &pose, b.center, (Vec3::X, Vec3::Z), (&sim.water[0], Some(field(&sim)), 0), 0.0, g);
        assert_eq!(Some(a), s, "body {i}");
    }
    // One step of each world: the bodies move identically (the surface moves after the step).
    flat.step();
    sim.step();
    for (a, b) in flat.bodies.iter().zip(&sim.bodies) {
        assert_eq!((a.center, a.pose.q, a.linear_velocity), (b.center, b.pose.q, b.linear_velocity));
    }
}

#[test]
fn the_vertical_cut_of_a_cube_is_its_height_and_misses_beside_it() {
    let cube = shapes::cube(0.5);
    let pose = Pose3::new(Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY);
    let (lo, hi) = vertical_cut(&cube, &pose, 1.2, 3.3).unwrap();
    assert!((lo - 1.5).abs() < 1e-6 && (hi - 2.5).abs() < 1e-6);
    assert!(vertical_cut(&cube, &pose, 1.6, 3.0).is_none());
    // Turned 45° about z, the vertical through the centre crosses the diagonal: √2.
    let turned = Pose3::new(pose.p, Quat::from_rotation_z(std::f32::consts::FRAC_PI_4));
    let (lo, hi) = vertical_cut(&cube, &turned, 1.0, 3.0).unwrap();
    assert!((hi - lo - std::f32::consts::SQRT_2).abs() < 1e-5);
}

#[test]
fn bodies_bobbing_keep_the_water_volume_and_push_a_ring_of_water_out() {
    let mut w = pool(simulated());
    dynamic(
        &mut w,
        shapes::cuboid(Vec3::new(0.9, 0.12, 0.6)),
        Vec3::new(-1.8, 1.2, -0.8),
        450.0,
        Quat::from_rotation_y(0.3),
    );
    dynamic(&mut w, shapes::cube(0.35), Vec3::new(1.5, 2.0, 0.9), 600.0, Quat::from_rotation_x(0.4));
    dynamic(&mut w, shapes::cube(0.25), Vec3::new(2.4, 2.6, -1.0), 2500.0, Quat::IDENTITY);
    let volume = field(&w).water_volume(FLOOR);
    let mut lowest_dip = 0.0f32;
    // 30 s: the thin raft rocks longest (its roll couples with the ring it pushes up).
    for step in 0..1800 {
        w.step();
        let v = field(&w).water_volume(FLOOR);
        assert!(((v - volume) / volume).abs() < 1e-4, "step {step}: {v} of {volume}");
        lowest_dip = lowest_dip.min(w.bodies[1].linear_velocity.y);
    }
    assert!(lowest_dip < -3.0, "the bodies fell in");
    let f = field(&w);
    // Floating and settled: the raft rides at the level raised by what the bodies displace.
    let rest = f.rest_height();
    let raised = f.occupied.iter().sum::<f32>() * f.column_area() / 48.0;
    assert!(rest > 0.0 && (rest - raised).abs() < 0.1 * raised + 1e-3, "rest {rest}, displaced {raised}");
    let speeds: Vec<f32> = w.bodies.iter().map(|b| b.linear_velocity.length()).collect();
    assert!(speeds.iter().all(|&v| v < 0.05), "settled: {speeds:?}");
    assert!(w.bodies[3].center.y < FLOOR + 0.3, "the heavy crate sank: {}", w.bodies[3].center.y);
}

#[test]
fn a_dropped_cube_makes_waves_that_spread_and_decay() {
    let mut w = pool(simulated());
    dynamic(&mut w, shapes::cube(0.3), Vec3::new(0.0, 0.8, 0.0), 500.0, Quat::IDENTITY);
    // The disturbance at a distance r from the cube: the largest |η − rest| in the ring there.
    let ring = |w: &World3, r: f32| {
        let f = field(w);
        let rest = f.rest_height();
        let mut most = 0.0f32;
        for j in 0..f.nz() {
            for i in 0..f.nx() {
                if (f.column_xz(i, j).length() - r).abs() < 0.2 {
                    most = most.max((f.heights[f.index(i, j)] - rest).abs());
                }
            }
        }
        most
    };
    // The cube enters after ~0.3 s; waves run at 2.5 m/s, so they reach 2.5 m about 1 s later.
    let (mut near, mut far_before, mut far_after) = (0.0f32, 0.0f32, 0.0f32);
    for step in 0..150 {
        w.step();
        near = near.max(ring(&w, 0.6));
        if step < 40 {
            far_before = far_before.max(ring(&w, 2.5));
        } else {
            far_after = far_after.max(ring(&w, 2.5));
        }
    }
    assert!(near > 5e-3, "the cube's entry raised the water beside it: {near}");
    assert!(far_after > 5.0 * far_before.max(1e-6), "the wave reached 2.5 m: {far_before} -> {far_after}");
    let peak = field(&w).energy();
    for _ in 0..1800 {
        w.step();
    }
    let f = field(&w);
    assert!(f.energy() < 0.01 * peak, "the waves died away: {} of {peak}", f.energy());
    assert!(f.heights.iter().all(|h| (h - f.rest_height()).abs() < 5e-3));
}

#[test]
fn the_columns_are_part_of_the_state_hash_and_the_analytic_worlds_hash_is_unchanged() {
    let mut w = pool(simulated());
    let analytic = pool(Surface3::Analytic);
    let before = w.state_hash();
    assert_ne!(before, analytic.state_hash(), "a simulated world hashes its columns");
    let mut bodies_only = analytic.clone();
    bodies_only.surfaces.clear();
    assert_eq!(bodies_only.state_hash(), analytic.state_hash(), "no surface, nothing added");
    w.surfaces[0].as_mut().unwrap().heights[7] += 1e-3;
    assert_ne!(w.state_hash(), before);
}
