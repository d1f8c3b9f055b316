//! Extremes inside the ranges: values each in range whose combination used to go non-finite
//! (a feather-light speck, a motor far past what the integrator lets a wheel reach, a joint
//! anchor far from its body), and a hull of too many points. Each is refused where it is
//! written or runs finite and bounded.

use manifold_lab::engine::body::{MIN_INERTIA, MIN_MASS};
use manifold_lab::engine::World;
use manifold_lab::scene::{self, SceneError};
use std::path::Path;

fn world(text: &str) -> World {
    scene::parse(text, "extremes.ron").unwrap_or_else(|e| panic!("{e}")).build_world()
}

/// Steps `w` `steps` times; every step must leave every body finite, none repaired. Returns
/// the largest speed seen.
fn step_finite(w: &mut World, steps: usize) -> f32 {
    let mut fastest = 0.0f32;
    for k in 0..steps {
        w.step();
        assert_eq!(w.profile.repaired, 0, "step {k}: a body went non-finite");
        for b in &w.bodies {
            assert!(b.center.is_finite() && b.angle.is_finite(), "step {k}: {} at {:?}", b.name, b.center);
            fastest = fastest.max(b.linear_velocity.length());
        }
    }
    assert!(w.kinetic_energy().is_finite());
    fastest
}

#[test]
fn a_feather_light_speck_gets_the_mass_floor_and_stays_finite() {
    let mut w = world(
        "Scene(version: 1, settings: (sleep: false), bodies: [
            (name: \"ground\", kind: Static, position: (0, -1), shape: Box(half_extents: (20, 1))),
            (name: \"dust\", position: (0, 0.004), shape: Circle(radius: 0.005), density: 1e-30),
            (name: \"dust2\", position: (0.002, 0.01), shape: Circle(radius: 0.005), density: 1e-30),
            (name: \"box\", position: (0, 0.5), shape: Box(half_extents: (0.5, 0.5))),
        ])",
    );
    let dust = &w.bodies[1];
    assert_eq!(dust.mass, MIN_MASS);
    assert!(dust.inertia >= MIN_INERTIA && dust.inv_inertia.is_finite());
    step_finite(&mut w, 300);
}

#[test]
fn a_wheel_motor_at_1000_rad_s_and_1e6_n_m_stays_finite_and_on_the_ground() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/car.ron")).unwrap();
    let text = text
        .replace("motor_speed: -12.0", "motor_speed: 1000.0")
        .replace("max_motor_torque: 60.0", "max_motor_torque: 1e6");
    assert_eq!(text.matches("motor_speed: 1000.0").count(), 2, "the car's two motors");
    let mut w = world(&text);
    // The wheels may turn at most π/4 per step (47 rad/s, 19 m/s at their rim); the motor
    // drove at 1000 rad/s regardless and flung the car off at over 100 m/s.
    let fastest = step_finite(&mut w, 600);
    assert!(fastest < 40.0, "fastest body {fastest} m/s");
    assert!(w.max_joint_error() < 0.5, "joint error {} m", w.max_joint_error());
}

fn hanging(arm: f32, shape: &str) -> String {
    format!(
        "Scene(version: 1, settings: (sleep: false), bodies: [
            (name: \"a\", kind: Static, position: (0, 10), shape: Box(half_extents: (0.5, 0.5))),
            (name: \"b\", position: (0, 0), shape: {shape}),
        ], joints: [
            Distance(a: \"a\", b: \"b\", anchor_a: ({arm}, 5), anchor_b: ({arm}, 0)),
        ])"
    )
}

#[test]
fn a_distance_joint_anchored_far_from_its_body_is_refused_where_written() {
    let text = "Scene(version: 1, bodies: [
  (name: \"a\", position: (0, 1), shape: Box(half_extents: (0.5, 0.5))),
  (name: \"b\", position: (3, 1), shape: Box(half_extents: (0.5, 0.5))),
], joints: [
  Distance(a: \"a\", b: \"b\", anchor_a: (-1e5, 1e5), anchor_b: (1e5, -1e5)),
])";
    match scene::parse(text, "far.ron") {
        Err(SceneError::Parse { line, message, .. }) => {
            assert_eq!(line, 5, "{message}");
            assert!(message.contains("within 100 m") && message.contains("\"a\""), "{message}");
        }
        other => panic!("not refused where written: {other:?}"),
    }
    assert!(scene::parse(&hanging(100.5, "Box(half_extents: (0.5, 0.5))"), "x").is_err());
}

#[test]
fn long_levers_within_the_limit_hang_finite() {
    // A rod at the end of a lever: its effective mass is taken at its current arms (at the
    // step's start it overshot from 12 m on a unit box and diverged to 1e19 m). Up to 50 m it
    // holds its length; at the 100 m limit it stays finite but stretches (printed).
    for (arm, shape, holds) in [
        (12.0, "Box(half_extents: (0.5, 0.5))", true),
        (50.0, "Box(half_extents: (0.5, 0.5))", true),
        (100.0, "Box(half_extents: (0.5, 0.5))", false),
        (100.0, "Circle(radius: 0.005)", false),
    ] {
        let mut w = world(&hanging(arm, shape));
        step_finite(&mut w, 600);
        let error = w.max_joint_error();
        println!("arm {arm} m, {shape}: joint error {error} m");
        assert!(!holds || error < 0.01, "arm {arm} m: joint error {error} m");
    }
}

#[test]
fn a_hull_of_too_many_points_is_refused_where_written() {
    let hull = |n: usize| {
        let points: Vec<String> = (0..n)
            .map(|i| {
                let t = i as f32 / n as f32 * std::f32::consts::TAU;
                format!("({}, {})", t.cos(), t.sin())
            })
            .collect();
        format!(
            "Scene(version: 1, bodies: [\n  (position: (0, 0),\n   shape: Hull(points: [{}])),\n])",
            points.join(", ")
        )
    };
    // 256 points on a circle wrap to more than 8 vertices: refused by the vertex limit.
    let square =
        "Scene(version: 1, bodies: [(position: (0, 0), shape: Hull(points: [(0, 0), (1, 0), (1, 1), (0, 1)]))])";
    assert!(scene::parse(square, "x").is_ok());
    match scene::parse(&hull(1_000_000), "big.ron") {
        Err(SceneError::Parse { line, message, .. }) => {
            assert_eq!(line, 3, "{message}");
            assert!(message.contains("at most 256 points, got 1000000"), "{message}");
        }
        other => panic!("not refused where written: {:?}", other.map(|_| ())),
    }
    let e = scene::parse(&hull(256), "x").unwrap_err().to_string();
    assert!(e.contains("vertices"), "256 points are taken, and fail on their hull's vertex count: {e}");
}
