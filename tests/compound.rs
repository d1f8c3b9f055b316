//! Multi-part bodies (`engine::compound`) against closed forms: the combined inertia of two
//! boxes by the parallel-axis theorem, an L-shape settling on the leg its centre of mass
//! lies over, a hammer thrown spinning whose centre of mass follows the integrator's own
//! parabola while its spin stays constant; contacts per shape pair (never within a body),
//! slicing that cuts only the crossed shape, buoyancy that sums the parts', and the scene
//! syntax.

use glam::Vec2;
use manifold_lab::engine::compound::{compose, Part};
use manifold_lab::engine::math::cross;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::water::{Water, WaterParams};
use manifold_lab::engine::{BodyDef, BodyKind, Material, World};
use manifold_lab::scene;

fn boxed(hx: f32, hy: f32, offset: Vec2, density: f32) -> Part {
    let mut p = Part::new(Shape::make_box(Vec2::new(hx, hy)).unwrap(), offset, 0.0);
    p.material.density = density;
    p
}

fn compound(kind: BodyKind, position: Vec2, angle: f32, parts: Vec<Part>) -> BodyDef {
    let mut def = BodyDef::new(kind, parts[0].shape, position);
    def.angle = angle;
    def.parts = parts;
    def
}

fn ground(w: &mut World) {
    let floor = Shape::make_box(Vec2::new(20.0, 0.5)).unwrap();
    w.create_body(&BodyDef::new(BodyKind::Static, floor, Vec2::new(0.0, -0.5)));
}

/// By hand: a 2 × 1 box (density 1) at (0, 0) and a 1 × 1 box (density 2) at (2, 1).
/// Masses 2 and 2, centre (1, 0.5). Own inertias m(w² + h²)/12: 2·5/12 and 2·2/12. Shifted to
/// the centre (distance² 1.25 each): 10/12 + 2.5 + 4/12 + 2.5 = 37/6.
#[test]
fn two_boxes_combine_mass_centre_and_inertia_by_the_parallel_axis_theorem() {
    let mut w = World::new(SolverParams::default());
    let parts = vec![boxed(1.0, 0.5, Vec2::ZERO, 1.0), boxed(0.5, 0.5, Vec2::new(2.0, 1.0), 2.0)];
    let i = w.create_body(&compound(BodyKind::Dynamic, Vec2::new(3.0, 4.0), 0.0, parts));
    let b = &w.bodies[i];
    assert!((b.mass - 4.0).abs() < 1e-5, "mass {}", b.mass);
    assert!((b.local_center - Vec2::new(1.0, 0.5)).length() < 1e-5, "centre {}", b.local_center);
    assert!((b.center - Vec2::new(4.0, 4.5)).length() < 1e-5, "world centre {}", b.center);
    assert!((b.inertia - 37.0 / 6.0).abs() < 1e-4, "inertia {} vs {}", b.inertia, 37.0 / 6.0);
}

/// An L of two 2 × 0.2 legs meeting at a corner, leg A along x, leg B along y, balanced on
/// that corner with the corner's outer bisector pointing straight down (angle π/4). About the
/// corner, the centre of mass C (body frame) is at world x ∝ (C.x − C.y): gravity turns the
/// body towards the heavier leg, so it comes to rest on A (angle 0) when C.x > C.y and on B
/// (angle π/2) when C.y > C.x. The densities decide which.
#[test]
fn an_l_shape_comes_to_rest_on_the_leg_its_centre_of_mass_predicts() {
    for (density_a, density_b) in [(3.0, 1.0), (1.0, 3.0)] {
        let mut w = World::new(SolverParams::default());
        ground(&mut w);
        let parts =
            vec![boxed(1.0, 0.1, Vec2::new(1.0, 0.1), density_a), boxed(0.1, 1.0, Vec2::new(0.1, 1.0), density_b)];
        let angle = std::f32::consts::FRAC_PI_4;
        let i = w.create_body(&compound(BodyKind::Dynamic, Vec2::new(0.0, 0.01), angle, parts));
        let c = w.bodies[i].local_center;
        let predicted = if c.x > c.y { 0.0 } else { std::f32::consts::FRAC_PI_2 };
        for _ in 0..360 {
            w.step();
        }
        let b = &w.bodies[i];
        assert!(
            (b.angle - predicted).abs() < 0.02,
            "densities ({density_a}, {density_b}): centre {c}, rests at {} rad, predicted {predicted}",
            b.angle
        );
        assert!(b.linear_velocity.length() < 0.01 && b.angular_velocity.abs() < 0.01, "at rest");
        // The leg it lies on touches the ground along its length: two points on that shape.
        let leg = if predicted == 0.0 { 0 } else { 1 };
        let lying = w.contacts.iter().find(|c| c.b == i && c.sb() == leg).expect("the leg below touches");
        assert_eq!(lying.manifold.count, 2);
    }
}

/// A hammer (light handle, heavy head) thrown spinning with no ground: its centre of mass
/// follows the integrator's own parabola (semi-implicit Euler over the sub-steps, whose
/// closed form after n sub-steps of h is c0 + v0·t + g·h²·n(n+1)/2), its angular velocity
/// stays exactly what it was thrown with, and it turns about its centre of mass (the origin,
/// at the handle's end, circles the centre at a fixed distance).
#[test]
fn a_hammer_thrown_spinning_turns_about_its_centre_of_mass() {
    let mut w = World::new(SolverParams::default());
    let parts = vec![boxed(0.05, 0.6, Vec2::new(0.0, 0.6), 0.7), boxed(0.3, 0.1, Vec2::new(0.0, 1.2), 7.8)];
    let mut def = compound(BodyKind::Dynamic, Vec2::new(0.0, 2.0), 0.3, parts);
    def.linear_velocity = Vec2::new(2.0, 9.0);
    def.angular_velocity = 7.0;
    let i = w.create_body(&def);
    let (c0, v0, omega) = (w.bodies[i].center.as_dvec2(), def.linear_velocity.as_dvec2(), def.angular_velocity);
    let arm = w.bodies[i].local_center.length();
    assert!(arm > 0.9, "the centre is near the head, far from the origin: {arm}");
    let g = w.params.gravity.as_dvec2();
    let h = f64::from(w.dt()) / f64::from(w.params.substeps);
    for step in 1..=90u32 {
        w.step();
        let b = &w.bodies[i];
        let n = f64::from(step * w.params.substeps);
        let want = c0 + v0 * (n * h) + g * (h * h * n * (n + 1.0) / 2.0);
        assert!((b.center.as_dvec2() - want).length() < 2e-3, "step {step}: centre {} vs {want}", b.center);
        assert_eq!(b.angular_velocity, omega, "step {step}: the spin is unchanged");
        assert!(((b.xf.p - b.center).length() - arm).abs() < 1e-4, "step {step}: the origin circles the centre");
    }
    // It turned 90 steps' worth (within the rotation integrator's renormalisation).
    let turned = w.bodies[i].angle - 0.3;
    assert!((turned - omega * 1.5).abs() < 1e-3, "turned {turned} rad");
}

/// Contacts are per shape pair: a table's two legs each touch the ground with their own
/// contact (shape 1 and shape 2 of the table), and the table's top never touches its legs.
#[test]
fn a_table_touches_the_ground_with_each_leg_and_never_itself() {
    let mut w = World::new(SolverParams::default());
    ground(&mut w);
    let parts = vec![
        boxed(1.4, 0.08, Vec2::new(0.0, 1.0), 0.6),
        boxed(0.08, 0.46, Vec2::new(-1.2, 0.46), 1.0),
        boxed(0.08, 0.46, Vec2::new(1.2, 0.46), 1.0),
    ];
    let t = w.create_body(&compound(BodyKind::Dynamic, Vec2::ZERO, 0.0, parts));
    for _ in 0..120 {
        w.step();
        assert!(w.contacts.iter().all(|c| c.a != c.b), "a body never touches itself");
    }
    let mut legs: Vec<usize> = w.contacts.iter().filter(|c| c.b == t).map(|c| c.sb()).collect();
    legs.sort();
    assert_eq!(legs, vec![1, 2], "one contact per leg");
    assert!(w.contacts.iter().filter(|c| c.b == t).all(|c| c.manifold.count == 2), "two points on each leg's foot");
    let b = &w.bodies[t];
    assert!(b.center.y > 0.5 && b.angle.abs() < 1e-3, "it stands: {} {}", b.center, b.angle);
}

/// A knife through one box of a two-box body cuts that box only: the piece on its far side
/// keeps the other box whole, at its offset; masses and areas add up to the parent's.
#[test]
fn slicing_a_compound_cuts_only_the_shape_it_crosses() {
    let mut w = World::new(SolverParams { gravity: Vec2::ZERO, ..SolverParams::default() });
    let parts = vec![boxed(0.5, 0.5, Vec2::new(-1.0, 0.0), 1.0), boxed(0.5, 0.5, Vec2::new(1.0, 0.0), 2.0)];
    let i = w.create_body(&compound(BodyKind::Dynamic, Vec2::new(0.0, 3.0), 0.0, parts));
    let parent_mass = w.bodies[i].mass;
    // A vertical cut through the left box, 0.25 m from its left side.
    let report = w.slice(Vec2::new(-1.25, 5.0), Vec2::new(-1.25, 1.0));
    assert_eq!(report.sliced.len(), 1, "{report:?}");
    let pieces = &report.sliced[0].pieces;
    assert_eq!(pieces.len(), 2);
    let (left, right) = (&w.bodies[pieces[0].index], &w.bodies[pieces[1].index]);
    // Left of the downward knife is +x: piece `a` holds the right part of the left box and
    // the whole right box; piece `b` the 0.25-wide sliver.
    let (whole, sliver) = if left.parts.len() == 2 { (left, right) } else { (right, left) };
    assert_eq!(whole.parts.len(), 2);
    assert_eq!(sliver.parts.len(), 1);
    assert_eq!(whole.parts[1].offset, Vec2::new(1.0, 0.0), "the uncut box keeps its place");
    assert!((sliver.mass - 0.25).abs() < 1e-5, "sliver {}", sliver.mass);
    assert!((whole.mass + sliver.mass - parent_mass).abs() < 1e-4);
    let area: f32 = pieces.iter().map(|p| p.area).sum();
    assert!((area - 2.0).abs() < 1e-5, "area {area}");
}

/// The buoyancy of a two-box body is the sum of its boxes' buoyancy: each box on its own (a
/// body of that one shape, at that shape's world pose) gives a force and submerged centroid;
/// the compound's force is their sum, its area too, and its torque is the sum of each force's
/// moment about the compound's centre of mass.
#[test]
fn the_buoyancy_of_a_compound_is_the_sum_of_its_parts() {
    let water = WaterParams::flat(0.0, (-10.0, 10.0));
    let parts = vec![boxed(0.6, 0.3, Vec2::new(-0.7, 0.1), 0.5), boxed(0.3, 0.5, Vec2::new(0.6, -0.2), 0.8)];
    let (position, angle) = (Vec2::new(0.5, 0.05), 0.4);
    let mut w = World::new(SolverParams::default());
    w.set_water(Some(Water::new(water.clone())));
    let i = w.create_body(&compound(BodyKind::Dynamic, position, angle, parts.clone()));
    w.refresh_water();
    let whole = w.buoyancy(i).unwrap().clone();
    let center = w.bodies[i].center;
    let (mut force, mut area, mut torque) = (Vec2::ZERO, 0.0, 0.0);
    let body_xf = manifold_lab::engine::math::Transform::new(position, angle);
    for p in &parts {
        let mut alone = World::new(SolverParams::default());
        alone.set_water(Some(Water::new(water.clone())));
        let at = compose(&body_xf, &p.local());
        let mut def = BodyDef::new(BodyKind::Dynamic, p.shape, at.p);
        def.angle = angle + p.angle;
        def.material = Material { density: p.material.density, ..Material::DEFAULT };
        let k = alone.create_body(&def);
        alone.refresh_water();
        let r = alone.buoyancy(k).unwrap().clone();
        force += r.force;
        area += r.area;
        torque += cross(r.centroid - center, r.force);
    }
    assert!((whole.force - force).length() < 1e-4, "{} vs {force}", whole.force);
    assert!((whole.area - area).abs() < 1e-5, "{} vs {area}", whole.area);
    assert!((whole.torque - torque).abs() < 1e-4, "{} vs {torque}", whole.torque);
}

/// The shipped scene: every body lists its shapes, and a saved compound loads back the same.
#[test]
fn the_compound_scene_loads_and_saves_its_shapes() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/compound.ron"));
    let s = scene::load(path).unwrap();
    let w = s.build_world();
    let count = |name: &str| w.bodies.iter().find(|b| b.name == name).unwrap().shape_count();
    assert_eq!([count("table"), count("L-shape"), count("hammer"), count("car"), count("ground")], [3, 2, 2, 5, 1]);
    let saved = scene::scene_from_world(&w, "again", None).to_ron_string().unwrap();
    let again = scene::parse(&saved, "again.ron").unwrap().build_world();
    for (a, b) in w.bodies.iter().zip(&again.bodies) {
        assert_eq!(a.parts, b.parts, "{}", a.name);
        assert_eq!(a.center, b.center, "{}", a.name);
        assert_eq!(a.inertia, b.inertia, "{}", a.name);
    }
}

/// `run --json` lists each body's shapes, one entry per shape, with its offset and material.
#[test]
fn run_json_lists_every_shape_of_every_body() {
    let exe = env!("CARGO_BIN_EXE_manifold-lab");
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/compound.ron");
    let out = std::process::Command::new(exe).args(["run", scene, "--steps", "10", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let body = |name: &str| report["bodies"].as_array().unwrap().iter().find(|b| b["name"] == name).unwrap().clone();
    let car = body("car");
    assert_eq!(car["shape"], "Compound");
    let shapes = car["shapes"].as_array().unwrap();
    assert_eq!(shapes.len(), 5);
    assert_eq!(shapes[3]["kind"], "Circle");
    let number = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
    assert_eq!((number(&shapes[3]["offset_x"]), number(&shapes[3]["offset_y"])), (-1.0, -0.35));
    assert_eq!(number(&shapes[1]["density"]), 0.4);
    let ground = body("ground");
    assert_eq!(ground["shapes"].as_array().unwrap().len(), 1, "a body of one shape has one entry");
    let area: f64 = shapes.iter().map(|s| s["area"].as_f64().unwrap()).sum();
    assert!((car["area"].as_f64().unwrap() - area).abs() < 1e-4);
}

#[path = "compound_parts/world3d.rs"]
mod world3d;
