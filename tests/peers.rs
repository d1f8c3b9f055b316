//! The peer engines inside the debugger (`manifold_lab::peers`, `compare`): the same scene in
//! our engine, Box2D v3 and rapier2d. A body in free fall and a pendulum agree with Box2D to
//! 1e-4 m after a second (the same soft step); rapier's joints are another model, so its
//! pendulum agrees as the sub-steps grow; a pyramid's top box ends within 2 cm in every
//! engine; what a peer lacks is reported. Box2D v3's benchmark scenes are Box2D's own setup
//! (`peers_parts/benchmark.rs`).
#![cfg(feature = "peers")]

use manifold_lab::engine::World;
use manifold_lab::peers::{mirror, Engine, OursWorld, PeerWorld};
use std::path::Path;

fn world(file: &str, substeps: Option<u32>) -> World {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let mut scene = manifold_lab::scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    if let Some(n) = substeps {
        scene.settings.substeps = n;
    }
    scene.build_world()
}

/// Body `body`'s distance from ours in each peer after `steps` steps.
fn distances(file: &str, substeps: Option<u32>, steps: usize, body: usize) -> Vec<(Engine, f32)> {
    let w = world(file, substeps);
    let mut peers: Vec<Box<dyn PeerWorld>> = [Engine::Box2d, Engine::Rapier].map(|e| mirror(e, &w).unwrap()).into();
    let mut ours = OursWorld::new(w);
    for _ in 0..steps {
        ours.step();
        peers.iter_mut().for_each(|p| p.step());
    }
    let at = ours.poses()[body].position;
    peers.iter().map(|p| (p.engine(), p.poses()[body].position.distance(at))).collect()
}

#[test]
fn a_falling_box_agrees_in_every_engine() {
    for (engine, d) in distances("tests/peers/falling_box.ron", None, 60, 0) {
        assert!(d < 1e-4, "{engine:?}: {d} m from ours after 60 steps");
    }
}

#[test]
fn a_pendulum_agrees_with_box2d_and_converges_with_rapier() {
    let rapier = |substeps| {
        let d = distances("tests/peers/pendulum.ron", Some(substeps), 60, 1);
        assert!(d[0].1 < 1e-4, "Box2D, {substeps} sub-steps: {} m from ours", d[0].1);
        d[1].1
    };
    let (coarse, fine) = (rapier(4), rapier(64));
    // Measured: 12.6 mm at 4 sub-steps, 0.6 mm at 64.
    assert!(coarse < 0.02 && fine < 0.1 * coarse, "rapier {coarse} m at 4 sub-steps, {fine} m at 64");
}

/// A motor at speed zero holding the pendulum level (Box2D's joint friction, the bridge's
/// hinges): rigid up to its largest torque in Box2D and ours. Rapier's velocity motor, given
/// an unbounded damping, holds better than with the damping of 1 it had (measured: 3.1 m
/// below ours at step 60 before, 0.72 m after) but still yields.
#[test]
fn a_motor_holds_the_pendulum_level_in_every_engine() {
    let d = distances("tests/peers/held_pendulum.ron", None, 60, 1);
    assert!(d[0].1 < 1e-4, "Box2D {} m from ours", d[0].1);
    assert!(d[1].1 < 1.0, "rapier {} m from ours", d[1].1);
}

#[test]
fn the_pyramids_top_box_ends_within_2_cm_in_every_engine() {
    let w = world("scenes/pyramid.ron", None);
    let top = w.bodies.len() - 1;
    for (engine, d) in distances("scenes/pyramid.ron", None, 300, top) {
        assert!(d < 0.02, "{engine:?}: the top box {d} m from ours");
    }
}

#[test]
fn water_and_angle_joints_are_reported_as_skipped() {
    for (file, what) in [("scenes/buoyancy.ron", "water"), ("scenes/angle_joint.ron", "angle joints")] {
        let w = world(file, None);
        for engine in [Engine::Box2d, Engine::Rapier] {
            let lines = mirror(engine, &w).unwrap().skipped().lines();
            assert!(lines.iter().any(|l| l.contains(what)), "{engine:?} on {file}: {lines:?}");
        }
    }
    let w = world("tests/peers/falling_box.ron", None);
    assert!(mirror(Engine::Box2d, &w).unwrap().skipped().is_empty());
}

#[test]
fn compare_reports_every_engine_as_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .args(["compare", "tests/peers/falling_box.ron", "--steps", "60", "--json", "--per-body"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let engines = report["engines"].as_array().unwrap();
    let names: Vec<&str> = engines.iter().map(|e| e["engine"].as_str().unwrap()).collect();
    assert_eq!(names, ["manifold-lab", "Box2D v3", "rapier2d"]);
    for e in &engines[1..] {
        assert!(e["final_divergence"]["max_position"].as_f64().unwrap() < 1e-4, "{e}");
        assert!(e["first_divergence_step"].is_null());
        assert_eq!(e["bodies"][0]["name"], "box");
    }
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .args(["compare", "tests/peers/falling_box.ron", "--engines", "ours,bullet"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown engine 'bullet'"));
}

#[path = "peers_parts/benchmark.rs"]
mod benchmark;
