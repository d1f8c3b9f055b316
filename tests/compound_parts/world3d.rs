//! 3D bodies of several hulls (`engine::world3d::compound`, article 003's multi-part bodies)
//! against closed forms: the chair of `scenes/world3d/compound.ron` standing on its four legs
//! with its centre of mass where the parts predict; a dumbbell thrown spinning, its centre of
//! mass on the integrator's parabola while the origin circles it, its spin about a principal axis
//! constant and its angular momentum conserved when it tumbles; buoyancy of a compound equal to
//! the sum of its hulls'; the scene syntax's located errors; snapshots; `run --json`.
//!
//! Run with `cargo test --test compound world3d -- --nocapture` to see the measured figures.

use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::{shapes, Pose3};
use manifold_lab::engine::world3d::buoyancy::buoyancy;
use manifold_lab::engine::world3d::{BodyDef3, Part3, Water3, World3, World3Params};
use manifold_lab::engine::BodyKind;
use manifold_lab::scene::{PresetFile, World3dScene};
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scene_world() -> World3 {
    World3dScene::load(&root().join("scenes/world3d/compound.ron")).unwrap().build_world().unwrap()
}

/// The chair: seat (1 × 0.1 × 1) at the origin, back (1 × 0.8 × 0.1) at (0, 0.45, −0.45), four
/// legs (0.1 × 0.5 × 0.1) at (±0.42, −0.3, ±0.42), all of one density. Volumes 0.1, 0.08 and
/// 4 × 0.005: V = 0.2, centre y = (0.08 · 0.45 − 0.02 · 0.3) / 0.2 = 0.15 and
/// z = −0.08 · 0.45 / 0.2 = −0.18, inside the legs' square, so it stands.
#[test]
fn the_chair_stands_on_its_four_legs_with_its_centre_of_mass_where_predicted() {
    let mut w = scene_world();
    let i = w.body_named("chair").unwrap();
    let start = w.bodies[i].pose;
    let chair = &w.bodies[i];
    assert_eq!(chair.hull_count(), 6);
    assert!((chair.local_center - Vec3::new(0.0, 0.15, -0.18)).length() < 1e-5, "{}", chair.local_center);
    assert!((chair.volume - 0.2).abs() < 1e-5 && (chair.mass - 120.0).abs() < 1e-3, "{}", chair.mass);
    for _ in 0..600 {
        w.step();
    }
    let chair = &w.bodies[i];
    let moved = (chair.pose.p - start.p).length();
    let turned = chair.pose.q.angle_between(start.q);
    println!(
        "chair after 10 s: moved {moved:.2e} m, turned {turned:.2e} rad, speed {:.1e}",
        chair.linear_velocity.length()
    );
    assert!(moved < 2e-3 && turned < 2e-3, "it stands still: {moved} m, {turned} rad");
    assert!(chair.linear_velocity.length() < 1e-3 && chair.angular_velocity.length() < 1e-3);
    // On its four legs (hulls 2..=5), each a face contact with the ground, and nothing else.
    let mut legs: Vec<u8> = w
        .contacts
        .iter()
        .filter(|c| c.a == 0 && c.b == i)
        .inspect(|c| assert_eq!(c.points.len(), 4))
        .map(|c| c.parts[1])
        .collect();
    legs.sort_unstable();
    assert_eq!(legs, [2, 3, 4, 5], "the legs hold it up");
    // The ground carries its weight, shared by the legs as the lever rule says: the centre of
    // mass 0.24 m in front of the back legs (z = −0.42) and 0.6 m behind the front ones, so each
    // back leg carries W · 0.6 / 0.84 / 2 and each front leg W · 0.24 / 0.84 / 2.
    let weight = chair.mass * w.params.gravity.length();
    let h = w.params.dt() / w.params.substeps as f32;
    let mut per_leg = [0.0f32; 6];
    for c in w.contacts.iter().filter(|c| c.a == 0 && c.b == i) {
        per_leg[c.parts[1] as usize] = c.points.iter().map(|p| p.normal_impulse).sum::<f32>() / h;
    }
    println!("leg forces {:?} N, weight {weight} N", &per_leg[2..]);
    let (back, front) = (weight * 0.6 / 0.84 / 2.0, weight * 0.24 / 0.84 / 2.0);
    for (k, want) in [(2, back), (3, back), (4, front), (5, front)] {
        assert!((per_leg[k] - want).abs() < 0.01 * weight, "leg {k}: {} N, want {want} N", per_leg[k]);
    }
}

/// A dumbbell with unequal ends: a bar along x with a 0.2 m cube at −0.5 and a 0.3 m cube at +0.5.
fn dumbbell() -> Vec<Part3> {
    let bar = Part3::new(shapes::cuboid(Vec3::new(0.5, 0.04, 0.04)), Vec3::ZERO, Quat::IDENTITY);
    let small = Part3::new(shapes::cube(0.1), Vec3::new(-0.5, 0.0, 0.0), Quat::IDENTITY);
    let big = Part3::new(shapes::cube(0.15), Vec3::new(0.5, 0.0, 0.0), Quat::IDENTITY);
    vec![
        bar.with_material(7800.0, 0.6, 0.0),
        small.with_material(7800.0, 0.6, 0.0),
        big.with_material(7800.0, 0.6, 0.0),
    ]
}

fn thrown(w: Vec3) -> (World3, usize) {
    let mut world = World3::new(World3Params::default());
    let mut def = BodyDef3::compound(BodyKind::Dynamic, dumbbell(), Vec3::new(0.0, 5.0, 0.0));
    def.linear_velocity = Vec3::new(3.0, 6.0, 0.0);
    def.angular_velocity = w;
    let b = world.create_body(&def).unwrap();
    (world, b)
}

/// Thrown spinning about z (a principal axis: the parts lie on x): the centre of mass follows
/// the integrator's parabola exactly (semi-implicit Euler with sub-steps h: after n sub-steps
/// `x0 + v0 n h + g h² n (n + 1) / 2`), the body origin circles it at its fixed distance, and
/// the spin stays what it was.
#[test]
fn a_dumbbell_thrown_spinning_turns_about_its_centre_of_mass() {
    let (mut w, b) = thrown(Vec3::new(0.0, 0.0, 7.0));
    let body = &w.bodies[b];
    let (c0, v0, offset) = (body.center, body.linear_velocity, body.local_center);
    assert!(offset.x > 0.2, "the heavy end pulls the centre towards +x: {offset}");
    let h = w.params.dt() / w.params.substeps as f32;
    let g = w.params.gravity;
    for step in 1..=90 {
        w.step();
        let n = (step * w.params.substeps) as f32;
        let want = c0 + v0 * (n * h) + g * (h * h * n * (n + 1.0) / 2.0);
        let body = &w.bodies[b];
        assert!((body.center - want).length() < 1e-3, "step {step}: {} vs {want}", body.center);
        assert!(((body.pose.p - body.center).length() - offset.length()).abs() < 1e-4);
        assert!((body.angular_velocity - Vec3::new(0.0, 0.0, 7.0)).length() < 1e-3, "{}", body.angular_velocity);
    }
    let body = &w.bodies[b];
    let turned = 1.5 * 7.0;
    let want_q = Quat::from_rotation_z(turned);
    assert!(body.pose.q.angle_between(want_q) < 1e-3, "turned {turned} rad about z");
}

/// Tumbling about no principal axis, the angular momentum `R I Rᵀ ω` about the centre of mass is
/// conserved with the world's gyroscopic integration (the exponential map by default), while
/// ω itself wanders.
#[test]
fn a_tumbling_dumbbell_keeps_its_angular_momentum() {
    let (mut w, b) = thrown(Vec3::new(2.0, 3.0, 5.0));
    let l0 = w.bodies[b].angular_momentum();
    let w0 = w.bodies[b].angular_velocity;
    let (mut worst, mut wander) = (0.0f32, 0.0f32);
    for _ in 0..120 {
        w.step();
        let body = &w.bodies[b];
        worst = worst.max((body.angular_momentum() - l0).length() / l0.length());
        wander = wander.max((body.angular_velocity - w0).length());
    }
    println!("tumbling: |ΔL|/|L| up to {worst:.2e}, ω wandered up to {wander:.2} rad/s");
    assert!(worst < 1e-2, "angular momentum kept within 1 %: {worst}");
    assert!(wander > 0.5, "the body tumbles (ω is not constant): {wander}");
}

/// Buoyancy of a compound is the sum of its hulls': the submerged volumes add, and the one force
/// at the combined centre of buoyancy has the torque of the hulls' forces at their own centres.
#[test]
fn buoyancy_of_a_compound_is_the_sum_of_its_parts() {
    let parts = dumbbell();
    let pose = Pose3::new(Vec3::new(0.3, 0.02, -0.2), Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.5).normalize(), 0.6));
    let mut def = BodyDef3::compound(BodyKind::Dynamic, parts.clone(), pose.p);
    def.rotation = pose.q;
    let mut world = World3::new(World3Params::default());
    let b = world.create_body(&def).unwrap();
    let body = &world.bodies[b];
    let water = Water3::flat(0.0);
    let g = world.params.gravity;
    let whole = buoyancy(body, b, &pose, body.center, (Vec3::ZERO, Vec3::ZERO), (&water, None, 0), 0.0, g).unwrap();
    let (mut volume, mut force, mut torque) = (0.0, Vec3::ZERO, Vec3::ZERO);
    for p in &parts {
        // Each hull alone, as a body of one hull at the part's world pose.
        let local = p.local();
        let at = Pose3::new(pose.transform_point(local.p), pose.q * local.q);
        let mut one = BodyDef3::new(BodyKind::Dynamic, p.hull.clone(), at.p);
        one.rotation = at.q;
        let single = manifold_lab::engine::world3d::Body3::new(&one).unwrap();
        if let Some(r) = buoyancy(&single, 0, &at, single.center, (Vec3::ZERO, Vec3::ZERO), (&water, None, 0), 0.0, g) {
            volume += r.submerged.volume;
            force += r.buoyant_force;
            torque += (r.submerged.centroid - body.center).cross(r.buoyant_force);
        }
    }
    let whole_torque = (whole.submerged.centroid - body.center).cross(whole.buoyant_force);
    println!("compound submerged {:.5} m³, parts {volume:.5} m³", whole.submerged.volume);
    assert!(volume > 1e-3 && (whole.submerged.volume - volume).abs() < 1e-5 * volume.max(1.0));
    assert!((whole.buoyant_force - force).length() < 1e-3 * force.length());
    assert!((whole_torque - torque).length() < 1e-3 * torque.length().max(1.0), "{whole_torque} vs {torque}");
}

const GOOD: &str = r#"World3d(
    version: 1,
    bodies: [
        (name: "ground", kind: Static, shape: Cuboid(half_extents: (10, 0.5, 10)), position: (0, -0.5, 0)),
        (name: "two", position: (0, 2, 0), shapes: [
            (shape: Cube(half: 0.5)),
            (shape: Cube(half: 0.5), offset: (1, 0, 0), euler_degrees: (0, 45, 0), density: 500, friction: 0.3),
        ]),
    ],
)"#;

fn error(text: &str) -> String {
    World3dScene::parse(text, "t.ron").unwrap_err().to_string()
}

/// The 2D scene syntax's errors, in 3D: both `shape` and `shapes`, an empty list, more than 16
/// hulls, neither; each located at file:line:column.
#[test]
fn shapes_errors_are_located_as_in_2d() {
    let w = World3dScene::parse(GOOD, "t.ron").unwrap().build_world().unwrap();
    assert_eq!((w.bodies[1].hull_count(), w.bodies[1].parts[1].density), (2, 500.0));
    let both = GOOD.replace(r#"(0, 2, 0), shapes"#, r#"(0, 2, 0), shape: Cube(half: 0.5), shapes"#);
    let e = error(&both);
    assert!(e.starts_with("t.ron:5:") && e.contains("either one `shape` or a list of `shapes`, not both"), "{e}");
    assert!(e.contains(r#"body 1 "two""#), "{e}");
    let empty = r#"World3d(version: 1, bodies: [
        (name: "none", shapes: []),
    ])"#;
    let e = error(empty);
    assert!(e.starts_with("t.ron:2:") && e.contains("`shapes` must list at least one shape"), "{e}");
    let many =
        format!("World3d(version: 1, bodies: [\n    (shapes: [{}]),\n])", "(shape: Cube(half: 0.5)),".repeat(17));
    let e = error(&many);
    assert!(e.starts_with("t.ron:2:") && e.contains("`shapes` lists 17 shapes; a body holds at most 16"), "{e}");
    let neither = "World3d(version: 1, bodies: [\n    (name: \"x\", position: (0, 1, 0)),\n])";
    let e = error(neither);
    assert!(e.starts_with("t.ron:2:") && e.contains("missing field `shape` (or `shapes: [...]`)"), "{e}");
    let bad = GOOD.replace("density: 500", "density: -1");
    let e = error(&bad);
    assert!(e.starts_with("t.ron:7:") && e.contains("`density`"), "{e}");
}

/// A world with a compound goes through serde and steps on alike; a world of single hulls writes
/// no `parts` (so files written before compounds existed read the same).
#[test]
fn snapshots_keep_the_hulls_and_single_hull_worlds_write_nothing_new() {
    let mut w = scene_world();
    for _ in 0..30 {
        w.step();
    }
    let text = serde_json::to_string(&w).unwrap();
    let mut back: World3 = serde_json::from_str(&text).unwrap();
    assert_eq!(back.bodies[1].parts, w.bodies[1].parts);
    for _ in 0..30 {
        w.step();
        back.step();
    }
    assert_eq!(w.state_hash(), back.state_hash());
    let single = World3dScene::load(&root().join("scenes/world3d/stack.ron")).unwrap().build_world().unwrap();
    let mut single = single;
    single.step();
    let text = serde_json::to_string(&single).unwrap();
    assert!(!text.contains("\"parts\""), "a single-hull world's snapshot is as before");
}

#[test]
fn run_json_lists_each_bodys_hulls_and_the_determinism_check_passes() {
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_manifold-lab")).current_dir(root()).args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let v = run(&["run", "scenes/world3d/compound.ron", "--steps", "10", "--json"]);
    let poses = v["poses"].as_array().unwrap();
    let count = |name: &str| {
        let p = poses.iter().find(|p| p["name"] == name).unwrap();
        p["shapes"].as_array().unwrap().len()
    };
    assert_eq!((count("ground"), count("chair"), count("dumbbell"), count("L-block")), (1, 6, 3, 2));
    let chair = poses.iter().find(|p| p["name"] == "chair").unwrap();
    assert_eq!(chair["shapes"][1]["offset"], serde_json::json!([0.0, 0.45, -0.45]));
    let v = run(&["run", "scenes/world3d/compound.ron", "--check-determinism", "--steps", "120", "--json"]);
    assert_eq!(v["divergences"].as_array().map(Vec::len), Some(0), "{v}");
}
