//! Joints in scene files: syntax, defaults, generators, references by index, and saves that
//! read back with identical joints.

use super::root;
use glam::Vec2;
use manifold_lab::engine::solver::Joint;
use manifold_lab::engine::{BodyKind, World};
use manifold_lab::scene::{self, BodyRef, JointSpec};

fn parse(text: &str) -> World {
    scene::parse(text, "j.ron").unwrap_or_else(|e| panic!("{e}")).build_world()
}

const TWO_LINKS: &str = r#"Scene(version: 1,
    bodies: [
        (name: "ground", kind: Static, position: (0, 0), shape: Box(half_extents: (5, 0.5))),
        (name: "link1", position: (1, 3), shape: Capsule(half_length: 1, radius: 0.1)),
        (name: "link2", position: (3, 3), shape: Capsule(half_length: 1, radius: 0.1)),
    ],
    joints: [
        Revolute(a: "ground", b: "link1", anchor: (0, 3)),
        Revolute(a: "link1", b: "link2", anchor: (2, 3), lower: -0.5, upper: 0.5, motor_speed: 2.0, max_motor_torque: 50.0),
        Prismatic(a: "ground", b: 2, anchor: (3, 3), axis: (0, 1), hertz: 2.0, damping_ratio: 0.5),
    ],
)"#;

#[test]
fn the_readme_syntax_builds_the_described_joints() {
    let w = parse(TWO_LINKS);
    assert_eq!(w.joints().len(), 3);
    let Joint::Revolute(r) = &w.joints()[1] else { panic!("revolute expected") };
    assert_eq!(r.base.body_a, 1);
    assert_eq!(r.base.body_b, 2);
    assert!(r.enable_limit && r.enable_motor && !r.enable_spring);
    assert_eq!((r.lower_angle, r.upper_angle, r.motor_speed, r.max_motor_torque), (-0.5, 0.5, 2.0, 50.0));
    // The anchor is the same world point on both links, and joints start satisfied.
    let (pa, pb) = r.base.world_anchors(&w.bodies);
    assert!(pa.distance(Vec2::new(2.0, 3.0)) < 1e-6 && pb.distance(pa) < 1e-6);
    assert!(w.joints().iter().all(|j| j.linear_error(&w.bodies) < 1e-6 && j.angular_error(&w.bodies) < 1e-6));
    // `b: 2` refers to the third body; the axis turns the frames.
    let Joint::Prismatic(p) = &w.joints()[2] else { panic!("prismatic expected") };
    assert_eq!(p.base.body_b, 2);
    let (fa, _) = p.base.world_frames(&w.bodies);
    assert!((fa.q.x_axis() - Vec2::Y).length() < 1e-6);
    assert!(p.enable_spring && !p.enable_limit && !p.enable_motor);
}

#[test]
fn saved_joints_read_back_identically() {
    for file in ["bridge.ron", "car.ron", "ragdoll.ron", "angle_joint.ron", "chain.ron"] {
        let mut w = scene::load(&root().join("scenes").join(file)).unwrap().build_world();
        for _ in 0..30 {
            w.step();
        }
        let saved = scene::scene_from_world(&w, "saved", None);
        let text = saved.to_ron_string().unwrap();
        let back = scene::parse(&text, file).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let rebuilt = back.build_world();
        assert_eq!(rebuilt.joints().len(), w.joints().len(), "{file}");
        for (a, b) in w.joints().iter().zip(rebuilt.joints()) {
            let (ra, rb) = (BodyRef::Index(0), BodyRef::Index(0));
            // Same kind, bodies, frames and settings (impulses are not saved).
            assert_eq!(JointSpec::from_joint(a, ra.clone(), rb.clone()), JointSpec::from_joint(b, ra, rb), "{file}");
            assert_eq!(a.bodies(), b.bodies(), "{file}");
            assert_eq!(a.base().local_frame_a, b.base().local_frame_a, "{file}");
        }
        assert_eq!(rebuilt.state_hash(), w.state_hash(), "{file}");
    }
}

#[test]
fn generators_make_chains_grids_and_ragdolls() {
    let w = parse(
        r#"Scene(version: 1,
        bodies: [(name: "hook", kind: Static, position: (0, 10), shape: Circle(radius: 0.2))],
        generators: [
            Chain(count: 5, origin: (0, 10), direction: (0, -1), link: Box(half_extents: (0.25, 0.05)), start: "hook"),
            JointGrid(size: 4, origin: (10, 0), anchors: 2),
            Ragdoll(origin: (-5, 0)),
        ])"#,
    );
    assert_eq!(w.bodies.len(), 1 + 5 + 16 + 11);
    // Chain: 5 links hanging down from the hook, 5 hinges (hook + 4 between links).
    let links: Vec<_> = w.bodies.iter().filter(|b| b.name.starts_with("link_")).collect();
    assert_eq!(links.len(), 5);
    assert!((links[4].center - Vec2::new(0.0, 10.0 - 0.5 * 4.5)).length() < 1e-5);
    // Grid: 2 static anchors, 4·3 vertical and 3·4 horizontal hinges but not between anchors.
    assert_eq!(w.bodies.iter().filter(|b| b.name.starts_with("grid_") && b.kind == BodyKind::Static).count(), 2);
    // Ragdoll: 10 hinges with limits.
    let limited = w.joints().iter().filter(|j| matches!(j, Joint::Revolute(r) if r.enable_limit)).count();
    assert_eq!(limited, 10);
    assert_eq!(w.joints().len(), 5 + (12 + 12 - 1) + 10);
    assert!(w.joints().iter().all(|j| j.linear_error(&w.bodies) < 1e-5));
}

#[test]
fn joint_kinds_and_fields_are_listed_on_error() {
    let base = r#"Scene(version: 1, bodies: [(name: "a", position: (0, 0), shape: Circle(radius: 1)),
        (name: "b", position: (3, 0), shape: Circle(radius: 1))], joints: [JOINT])"#;
    let err = scene::parse(&base.replace("JOINT", "Hinge(a: \"a\", b: \"b\")"), "k.ron").unwrap_err().to_string();
    assert!(err.contains("`Angle`, `Revolute`, `Prismatic`, `Distance`, `Weld`, `Wheel`"), "{err}");
    let err = scene::parse(&base.replace("JOINT", "Weld(a: \"a\", b: \"b\", anchr: (0, 0))"), "k.ron")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown field `anchr`") && err.contains("`anchor`"), "{err}");
    let err = scene::parse(&base.replace("JOINT", "Revolute(a: \"a\", b: \"b\")"), "k.ron").unwrap_err().to_string();
    assert!(err.contains("joint 0: a Revolute joint needs an `anchor`"), "{err}");
    let err = scene::parse(
        &base.replace("JOINT", "Distance(a: \"a\", b: \"b\", anchor_a: (0, 0), anchor_b: (3, 0), max_length: -1)"),
        "k.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("`max_length` must be positive, got -1"), "{err}");
    let err =
        scene::parse(&base.replace("JOINT", "Weld(a: \"a\", b: 7, anchor: (0, 0))"), "k.ron").unwrap_err().to_string();
    assert!(err.contains("body index 7 is out of range: the scene has 2 bodies"), "{err}");
    let err =
        scene::parse(&base.replace("JOINT", "Prismatic(a: \"a\", b: \"b\", anchor: (0, 0), axis: (0, 0))"), "k.ron")
            .unwrap_err()
            .to_string();
    assert!(err.contains("`axis` must be a direction"), "{err}");
    let dup = base.replace("(name: \"b\"", "(name: \"a\"").replace("JOINT", "Weld(a: \"a\", b: 1, anchor: (0, 0))");
    let err = scene::parse(&dup, "k.ron").unwrap_err().to_string();
    assert!(err.contains("shared by 2 bodies (indices 0, 1)"), "{err}");
    let gen = r#"Scene(version: 1, generators: [Chain(count: 2, link: Circle(radius: 0.2),
        start: "nail")])"#;
    let err = scene::parse(gen, "g.ron").unwrap_err().to_string();
    assert!(err.starts_with("g.ron:2:16: generator 0: no body named \"nail\""), "{err}");
}
