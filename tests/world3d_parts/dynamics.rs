//! Dynamics: inertia against parry3d, angular momentum of a free tumbling hull, a stack of
//! five cubes, the orientation joint below and above its torque limit, a weld.

use super::common::{add, all_finite, cube, world_with_ground, zero_gravity};
use glam::{Mat3, Quat, Vec3};
use manifold_lab::engine::hull3d::shapes::{self, random_cloud};
use manifold_lab::engine::hull3d::Hull;
use manifold_lab::engine::world3d::{mass_properties, Gyroscopic, Joint3, World3, World3Params};
use parry3d::mass_properties::MassProperties;
use parry3d::math::Vector;
use parry3d::shape::{ConvexPolyhedron, Shape};

/// parry3d's mass properties of the same polyhedron: our faces fanned into triangles, given to
/// `MassProperties::from_convex_polyhedron` (parry's own hull of the points may merge nearly
/// coplanar points differently, which would compare two solids).
fn parry_inertia(h: &Hull, density: f32) -> (f32, Vec3, Mat3) {
    let pts: Vec<Vector> = h.positions().iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    let tris: Vec<[u32; 3]> = h
        .faces()
        .iter()
        .flat_map(|f| (1..f.len() - 1).map(move |k| [f[0] as u32, f[k] as u32, f[k + 1] as u32]))
        .collect();
    let mp = MassProperties::from_convex_polyhedron(density, &pts, &tris);
    let c = mp.local_com;
    let m = mp.reconstruct_inertia_matrix();
    let cols = m.to_cols_array();
    (mp.mass(), Vec3::new(c.x, c.y, c.z), Mat3::from_cols_array(&cols))
}

#[test]
fn inertia_tensors_match_parry3d() {
    let mut hulls = vec![shapes::cube(0.5), shapes::cuboid(Vec3::new(0.2, 0.7, 1.3)), shapes::icosahedron(0.8)];
    hulls.push(shapes::prism(7, 0.6, 1.5));
    for seed in 0..40u64 {
        let pts: Vec<Vec3> = random_cloud(0xA55 + seed, 6 + (seed as usize % 30), 1.0)
            .into_iter()
            .map(|p| p * Vec3::new(1.0, 0.4 + 0.02 * seed as f32, 0.7) + Vec3::new(0.3, -0.2, 0.5))
            .collect();
        hulls.push(Hull::from_points(&pts).unwrap());
    }
    let mut worst = 0.0f32;
    for (k, h) in hulls.iter().enumerate() {
        let ours = mass_properties(h, 750.0).unwrap();
        let (mass, com, inertia) = parry_inertia(h, 750.0);
        let scale = inertia.to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()));
        assert!((ours.mass - mass).abs() <= 1e-4 * mass, "hull {k}: mass {} vs {mass}", ours.mass);
        assert!((ours.center - com).length() <= 1e-5 * (1.0 + com.length()), "hull {k}: {} vs {com}", ours.center);
        let err = (ours.inertia - inertia).to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs())) / scale;
        worst = worst.max(err);
        assert!(err < 1e-4, "hull {k}: inertia {:?} vs {:?}", ours.inertia, inertia);
    }
    println!("{} hulls, worst relative inertia difference {worst:.2e}", hulls.len());
    // parry's own hull of a box agrees too (no nearly coplanar points to merge).
    let b = shapes::cuboid(Vec3::new(0.2, 0.7, 1.3));
    let pts: Vec<Vector> = b.positions().iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    let theirs = ConvexPolyhedron::from_convex_hull(&pts).unwrap().mass_properties(750.0).reconstruct_inertia_matrix();
    let ours = mass_properties(&b, 750.0).unwrap().inertia;
    assert!((Mat3::from_cols_array(&theirs.to_cols_array()) - ours).to_cols_array().iter().all(|x| x.abs() < 1e-2));
}

#[test]
fn a_free_tumbling_hull_keeps_its_angular_momentum() {
    // A long irregular hull spinning near its intermediate axis (the unstable one, where
    // explicit integration drifts most), no gravity, 10 s.
    let hull = shapes::cuboid(Vec3::new(0.2, 0.5, 1.0));
    let mut w = World3::new(zero_gravity());
    let b = add(&mut w, hull, Vec3::ZERO, Quat::from_rotation_x(0.3), 500.0);
    w.bodies[b].angular_velocity = Vec3::new(0.1, 6.0, 0.2);
    let l0 = w.bodies[b].angular_momentum();
    let e0 = w.kinetic_energy();
    let mut worst = 0.0f32;
    let steps = (10.0 * w.params.hz) as usize;
    let mut flipped = false;
    let y0 = w.bodies[b].pose.q * Vec3::Y;
    for _ in 0..steps {
        w.step();
        let l = w.bodies[b].angular_momentum();
        worst = worst.max((l - l0).length() / l0.length());
        flipped |= (w.bodies[b].pose.q * Vec3::Y).dot(y0) < 0.0;
    }
    println!("max |ΔL| / |L| over 10 s: {worst:.2e}; intermediate axis flipped: {flipped}");
    assert!(worst < 0.01, "{worst}");
    assert!(w.kinetic_energy() > 0.5 * e0, "the tumble keeps most of its energy");
    // For comparison (printed, not asserted): Catto's linearised form of the same step.
    let mut c = World3::new(World3Params { gyroscopic: Gyroscopic::Catto, ..zero_gravity() });
    let cb = add(&mut c, shapes::cuboid(Vec3::new(0.2, 0.5, 1.0)), Vec3::ZERO, Quat::from_rotation_x(0.3), 500.0);
    c.bodies[cb].angular_velocity = Vec3::new(0.1, 6.0, 0.2);
    for _ in 0..steps {
        c.step();
    }
    let lost = 1.0 - c.bodies[cb].angular_momentum().length() / l0.length();
    println!(
        "Gyroscopic::Catto loses {:.1} % of |L| and {:.0} % of the energy",
        100.0 * lost,
        100.0 * (1.0 - c.kinetic_energy() / e0)
    );
    assert!(flipped, "the intermediate-axis spin should tumble (Dzhanibekov), or the test shows nothing");
}

#[test]
fn a_stack_of_five_cubes_stands_600_steps() {
    let mut w = world_with_ground(World3Params::default());
    let cubes: Vec<usize> =
        (0..5).map(|k| add(&mut w, cube(), Vec3::new(0.0, 0.5 + k as f32, 0.0), Quat::IDENTITY, 1000.0)).collect();
    for _ in 0..600 {
        w.step();
    }
    assert!(all_finite(&w));
    for (k, &i) in cubes.iter().enumerate() {
        let b = &w.bodies[i];
        let drift = Vec3::new(b.center.x, 0.0, b.center.z).length();
        assert!(drift < 0.01, "cube {k} drifted {drift} m sideways");
        assert!((b.center.y - (0.5 + k as f32)).abs() < 0.03, "cube {k} at height {}", b.center.y);
        assert!(b.rotation().angle_between(Quat::IDENTITY) < 0.01, "cube {k} turned");
        assert!(b.linear_velocity.length() < 0.01);
    }
    // Warm starting: the resting contacts are the same features step after step.
    assert!(w.contacts.iter().all(|c| c.points.len() == 4 && c.points.iter().all(|p| p.persisted > 100)));
}

/// Two cubes side by side joined by an orientation joint of limit `max_torque`; B is driven
/// by `drive` N·m about y. Returns the largest joint error (rad) over the run and B's spin.
fn driven_pair(drive: f32, max_torque: f32, with_ball: bool) -> (f32, f32) {
    let mut w = World3::new(zero_gravity());
    let a = add(&mut w, cube(), Vec3::new(-0.6, 0.0, 0.0), Quat::from_rotation_z(0.2), 1000.0);
    let b = add(&mut w, cube(), Vec3::new(0.6, 0.0, 0.0), Quat::from_rotation_x(0.5), 1000.0);
    w.bodies[a].kind = manifold_lab::engine::BodyKind::Static;
    w.bodies[a].inv_mass = 0.0;
    w.bodies[a].inv_inertia_local = Mat3::ZERO;
    w.bodies[b].torque = Vec3::new(0.0, drive, 0.0);
    let basis = Quat::from_rotation_y(0.3);
    w.add_joint(Joint3::orientation(&w.bodies, a, b, basis, Some(max_torque))).unwrap();
    if with_ball {
        w.add_joint(Joint3::ball(&w.bodies, a, b, Vec3::new(0.0, 0.0, 0.0))).unwrap();
    }
    let mut worst = 0.0f32;
    for _ in 0..300 {
        w.step();
        worst = worst.max(w.joint_errors()[0].magnitude);
    }
    assert!(all_finite(&w));
    (worst, w.bodies[b].angular_velocity.length())
}

#[test]
fn the_orientation_joint_holds_below_its_limit_and_slips_above() {
    // A 1000 kg cube has I = 167 kg m²; 100 N·m would spin it up at 0.6 rad/s².
    let (err, spin) = driven_pair(100.0, 150.0, true);
    println!("driven at 100 N·m, limit 150: max error {err:.2e} rad, spin {spin:.2e} rad/s");
    assert!(err < 1e-3, "{err}");
    assert!(spin < 1e-2);
    let (err, spin) = driven_pair(100.0, 50.0, true);
    println!("driven at 100 N·m, limit 50: max error {err:.2e} rad, spin {spin:.2e} rad/s");
    assert!(err > 0.1 && spin > 0.1, "above its limit the joint must slip: {err} {spin}");
}

#[test]
fn the_orientation_joint_alone_leaves_translation_free() {
    // Orientation joint only, both dynamic: B pushed sideways moves away but keeps A's
    // relative orientation, and A turns along when B is driven.
    let mut w = World3::new(zero_gravity());
    let a = add(&mut w, cube(), Vec3::new(-1.0, 0.0, 0.0), Quat::IDENTITY, 1000.0);
    let b = add(&mut w, cube(), Vec3::new(1.0, 0.0, 0.0), Quat::from_rotation_z(0.4), 1000.0);
    w.add_joint(Joint3::orientation(&w.bodies, a, b, Quat::IDENTITY, None)).unwrap();
    w.bodies[b].linear_velocity = Vec3::new(1.0, 0.5, 0.0);
    w.bodies[b].torque = Vec3::new(0.0, 0.0, 50.0);
    for _ in 0..120 {
        w.step();
    }
    let e = w.joint_errors()[0].magnitude;
    assert!(e < 1e-3, "{e}");
    assert!((w.bodies[b].center.x - 3.0).abs() < 0.05, "B moved freely: {}", w.bodies[b].center.x);
    assert!(w.bodies[a].center.length() > 0.99 && w.bodies[a].angular_velocity.z > 0.1, "A turns with B");
}
