//! The shipped `scenes/world3d/` files: each loads, steps without NaN and the same way twice;
//! what each scene is for (towers stand, the half-density cube floats at the level, the welds
//! hold or slip, the hulls reach the ground); errors with file:line:column; round trips; the
//! headless CLI; the debug drawing.

use super::common::all_finite;
use glam::Vec3;
use manifold_lab::engine::debug3::{DebugList3, DrawCmd3, Layer3, LayerSet3};
use manifold_lab::engine::world3d::{DrawOptions3, World3};
use manifold_lab::engine::BodyKind;
use manifold_lab::scene::{self, is_world3d_text, PresetFile, World3dScene};
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("scenes/world3d"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

fn world(name: &str) -> World3 {
    let path = root().join("scenes/world3d").join(name);
    scene::World3dScene::load(&path).unwrap_or_else(|e| panic!("{e}")).build_world().unwrap()
}

fn run(w: &mut World3, steps: usize) {
    for _ in 0..steps {
        w.step();
    }
}

#[test]
fn every_shipped_world3d_scene_loads_and_steps_without_nan() {
    let files = shipped();
    let names: Vec<String> = files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for want in ["float.ron", "orientation_joint.ron", "stack.ron", "tumble.ron"] {
        assert!(names.iter().any(|n| n == want), "{want} is shipped");
    }
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(is_world3d_text(&text), "{} is detected as a 3D world", path.display());
        let mut w = scene::World3dScene::load(path).unwrap_or_else(|e| panic!("{e}")).build_world().unwrap();
        let mut repaired = 0;
        for _ in 0..600 {
            w.step();
            repaired += w.profile.repaired;
            assert!(all_finite(&w), "{}: NaN at step {}", path.display(), w.step_count);
        }
        assert_eq!(repaired, 0, "{}", path.display());
        assert!(w.max_penetration() < 0.05, "{}: penetration {}", path.display(), w.max_penetration());
        // Deterministic: a clone taken midway (SAT cache and warm starts included) and a fresh
        // run end in the same state.
        let mut fresh = scene::World3dScene::load(path).unwrap().build_world().unwrap();
        run(&mut fresh, 300);
        let mut copy = fresh.clone();
        run(&mut fresh, 300);
        run(&mut copy, 300);
        assert_eq!(fresh.state_hash(), w.state_hash(), "{}", path.display());
        assert_eq!(copy.state_hash(), w.state_hash(), "{}", path.display());
    }
}

#[test]
fn the_stack_scene_stands() {
    let mut w = world("stack.ron");
    let start: Vec<(Vec3, glam::Quat)> = w.bodies.iter().map(|b| (b.center, b.rotation())).collect();
    run(&mut w, 600);
    for (b, (c, q)) in w.bodies.iter().zip(start) {
        assert!((b.center - c).length() < 0.02, "{} moved {} m", b.name, (b.center - c).length());
        assert!(b.rotation().angle_between(q) < 0.02, "{} turned", b.name);
    }
    assert!(w.kinetic_energy() < 1.0);
}

#[test]
fn the_half_density_cube_floats_at_the_level_of_flat_water() {
    let mut w = world("float.ron");
    run(&mut w, 1800);
    let calm = w.water.iter().position(|x| x.name == "calm").unwrap();
    let level = w.water[calm].level;
    let fraction = |name: &str| {
        let b = w.body_named(name).unwrap();
        let r = w.buoyancy.iter().find(|r| r.body == b).unwrap_or_else(|| panic!("{name} floats"));
        (r.submerged.volume / w.bodies[b].volume, w.bodies[b].density / w.water[r.water].density)
    };
    let cube = &w.bodies[w.body_named("half_density_cube").unwrap()];
    println!("half_density_cube: centre {:+.4} m from the level", cube.center.y - level);
    assert!((cube.center.y - level).abs() < 0.02, "{}", cube.center.y);
    // Archimedes: at rest each calm body has its density ratio under water.
    for name in ["half_density_cube", "icosahedron", "long prism"] {
        let (f, ratio) = fraction(name);
        println!("{name}: {:.2} % under, density ratio {:.2}", 100.0 * f, ratio);
        assert!((f - ratio).abs() < 0.02, "{name}: {f} vs {ratio}");
    }
    // The wave tank's bodies are afloat in their tank.
    for name in ["raft", "buoy", "crate", "tetra"] {
        let b = &w.bodies[w.body_named(name).unwrap()];
        assert!(
            b.center.x > 1.0 && b.center.x < 9.0 && b.center.z.abs() < 3.0 && b.center.y > -0.8,
            "{name} {}",
            b.center
        );
    }
}

#[test]
fn the_orientation_joint_scene_holds_below_the_limit_and_slips_above() {
    let mut w = world("orientation_joint.ron");
    let index = |name: &str| w.joints.iter().position(|j| j.name == name).unwrap();
    let (hold, slip, share, ball) =
        (index("hold.orientation"), index("slip.orientation"), index("share"), index("hold.ball"));
    let mut worst = [0.0f32; 4];
    for _ in 0..600 {
        w.step();
        let e = w.joint_errors();
        for (k, j) in [hold, slip, share, ball].into_iter().enumerate() {
            worst[k] = worst[k].max(e[j].magnitude);
        }
    }
    println!(
        "max errors: hold {:.2e} rad, slip {:.2e} rad, share {:.2e} rad, ball {:.2e} m",
        worst[0], worst[1], worst[2], worst[3]
    );
    assert!(worst[0] < 1e-3 && worst[2] < 1e-3 && worst[3] < 1e-3, "{worst:?}");
    assert!(worst[1] > 0.5, "the over-driven weld slips: {worst:?}");
    let (left, right) = (w.body_named("left").unwrap(), w.body_named("right").unwrap());
    assert!(w.bodies[left].angular_velocity.length() > 0.5, "left turns with right");
    assert!(w.bodies[right].center.z > 0.0 && w.bodies[left].center.z < -0.99, "translation stays free");
}

#[test]
fn the_tumble_scene_brings_every_hull_to_the_ground() {
    let mut w = world("tumble.ron");
    run(&mut w, 900);
    for b in w.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic) {
        assert!(b.center.y < 0.8 && b.center.x > 3.5, "{} ended at {}", b.name, b.center);
        assert!(b.linear_velocity.length() < 0.05, "{} still moves", b.name);
    }
}

const GOOD: &str = r#"// a comment first
World3d(
    version: 1,
    name: "t",
    bodies: [
        (name: "ground", kind: Static, shape: Cuboid(half_extents: (5, 0.5, 5)), position: (0, -0.5, 0)),
        (name: "box", shape: Cube(half: 0.5), position: (0, 2, 0), euler_degrees: (0, 30, 0)),
    ],
    joints: [Weld(a: "ground", b: "box", anchor: (0, 2, 0), max_torque: 10)],
)"#;

fn error(text: &str) -> String {
    World3dScene::parse(text, "t.ron").unwrap_err().to_string()
}

#[test]
fn errors_name_file_line_and_column() {
    assert!(World3dScene::parse(GOOD, "t.ron").is_ok());
    let e = error(&GOOD.replace(r#"b: "box""#, r#"b: "bx""#));
    assert!(e.starts_with("t.ron:9:") && e.contains("unknown body `bx`, expected one of `ground`, `box`"), "{e}");
    let e = error(&GOOD.replace("(0, 2, 0), euler", "(0, NaN, 0), euler"));
    assert!(e.starts_with("t.ron:7:") && e.contains("`position` must be three finite numbers"), "{e}");
    let flat = GOOD.replace("Cube(half: 0.5)", "Points([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)])");
    let e = error(&flat);
    assert!(e.starts_with("t.ron:7:") && e.contains("coplanar") && e.contains(r#"body 1 "box""#), "{e}");
    let thin = GOOD.replace("Cube(half: 0.5)", "Cuboid(half_extents: (1000, 1000, 0.0001))");
    let e = error(&thin);
    assert!(e.starts_with("t.ron:7:") && e.contains("`z` must be in [0.005, 10000]"), "{e}");
    let e = error(&GOOD.replace(r#"(name: "box""#, r#"(name: "ground""#));
    assert!(e.starts_with("t.ron:7:") && e.contains("already taken"), "{e}");
    let e = error(&GOOD.replace("euler_degrees", "euler"));
    assert!(e.starts_with("t.ron:7:") && e.contains("unknown field `euler`"), "{e}");
    let e = error(&GOOD.replace(r#"b: "box""#, r#"b: "ground""#));
    assert!(e.starts_with("t.ron:9:") && e.contains("two different bodies"), "{e}");
    let e = error(&GOOD.replace("version: 1,\n", "version: 1,\n    settings: (hz: 0),\n"));
    assert!(e.starts_with("t.ron:4:") && e.contains("`hz`"), "{e}");
    let e = error(&GOOD.replace("max_torque: 10", "max_torque: -1"));
    assert!(e.starts_with("t.ron:9:") && e.contains("`max_torque` must be in (0, 1000000000]"), "{e}");
    // Joints refer to bodies listed above them.
    let moved = "World3d(version: 1, joints: [Ball(a: \"a\", b: \"b\", anchor: (0, 0, 0))], bodies: [])";
    assert!(error(moved).contains("list `bodies` before `joints`"));
    // A 2D scene is not a 3D world, and says so.
    assert!(!is_world3d_text("Scene(version: 1)") && is_world3d_text("/* x */ World3d (version: 1)"));
    assert!(
        error("Scene(version: 1)").contains("expected `World3d(...)`, found `Scene`"),
        "{}",
        error("Scene(version: 1)")
    );
}

#[test]
fn a_world3d_file_reads_back_the_same() {
    for path in shipped() {
        let spec = scene::World3dScene::load(&path).unwrap();
        let text = spec.to_ron_string().unwrap();
        let back = World3dScene::parse(&text, "back.ron").unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, spec, "{}", path.display());
        let (mut a, mut b) = (spec.build_world().unwrap(), back.build_world().unwrap());
        run(&mut a, 30);
        run(&mut b, 30);
        assert_eq!(a.state_hash(), b.state_hash());
    }
}

#[test]
fn headless_run_reports_poses_hash_and_joint_error() {
    let scene = "scenes/world3d/orientation_joint.ron";
    let out = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(root())
        .args(["run", scene, "--steps", "120", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut w = world("orientation_joint.ron");
    run(&mut w, 120);
    assert_eq!(report["world"], "3d");
    assert_eq!(report["state_hash"], format!("{:016x}", w.state_hash()));
    let max = report["max_joint_error"].as_f64().unwrap() as f32;
    assert!((max - w.max_joint_error()).abs() < 1e-6, "{max}");
    let poses = report["poses"].as_array().unwrap();
    assert_eq!(poses.len(), w.bodies.len());
    let q = poses[2]["rotation"].as_array().unwrap();
    assert_eq!(q.len(), 4);
    assert!((q[3].as_f64().unwrap() as f32 - w.bodies[2].rotation().w).abs() < 1e-6);
    let text = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(root())
        .args(["run", scene, "--steps", "5"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("max_joint_error") && text.contains("state hash") && text.contains("(3D world)"), "{text}");
    // `check` takes 3D files too and reports errors with their position.
    let dir = std::env::temp_dir().join(format!("world3d_check_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, GOOD.replace(r#"b: "box""#, r#"b: "bx""#)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .arg("check")
        .arg(root().join(scene))
        .arg(&bad)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(stdout.contains("ok    ") && stdout.contains("3D world") && stdout.contains("bad.ron:9:"), "{stdout}");
    // `run` exits as it does on 2D scenes: 1 for a bad file, 2 for a bad `--set`.
    let code = |args: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_manifold-lab")).arg("run").args(args).output().unwrap().status.code()
    };
    assert_eq!(code(&[bad.as_os_str()]), Some(1));
    let good = root().join(scene);
    assert_eq!(code(&[good.as_os_str(), "--set".as_ref(), "hetz=3".as_ref()]), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_debug_drawing_shows_contacts_sat_axes_water_and_joint_bases() {
    let mut w = world("float.ron");
    run(&mut w, 120);
    let mut list = DebugList3::new(LayerSet3::ALL);
    w.debug_draw(&mut list, &DrawOptions3::default());
    let floating = w.buoyancy.len();
    assert!(floating >= 5);
    assert_eq!(list.count(Layer3::Submerged), w.buoyancy.iter().filter(|r| r.submerged.waterline.len() >= 3).count());
    let arrows = list.on(Layer3::Buoyancy).filter(|c| matches!(c, DrawCmd3::Arrow { .. })).count();
    assert_eq!(arrows, 2 * floating, "buoyant force and drag per floating body");
    // The waterline polygon lies in the local water plane.
    for (rec, cmd) in w.buoyancy.iter().filter(|r| r.submerged.waterline.len() >= 3).zip(list.on(Layer3::Submerged)) {
        let DrawCmd3::Polygon { points, .. } = cmd else { panic!("a polygon") };
        assert!(points.iter().all(|p| rec.plane.distance(*p).abs() < 1e-3));
    }
    assert_eq!(list.count(Layer3::Water), 2 * 16 * 16);

    let mut w = world("stack.ron");
    run(&mut w, 10);
    let mut list = DebugList3::new(LayerSet3::of(&[Layer3::Contact, Layer3::SatAxis, Layer3::Shape]));
    w.debug_draw(&mut list, &DrawOptions3::default());
    assert_eq!(list.count(Layer3::Contact), w.contacts.iter().map(|c| c.points.len()).sum::<usize>());
    let labels = list.on(Layer3::SatAxis).filter(|c| matches!(c, DrawCmd3::Text { .. })).count();
    assert_eq!(labels, w.contacts.len(), "one deciding axis per pair");
    assert_eq!(list.count(Layer3::Normal), 0, "unwanted layers are not drawn");
    assert_eq!(list.count(Layer3::Shape), w.bodies.iter().map(|b| b.hull.faces().len()).sum::<usize>());

    let mut w = world("orientation_joint.ron");
    run(&mut w, 10);
    let mut list = DebugList3::new(LayerSet3::of(&[Layer3::JointBasis, Layer3::JointError]));
    w.debug_draw(&mut list, &DrawOptions3::default());
    let orientation = w.joints.iter().filter(|j| j.name.ends_with("orientation") || j.name == "share").count();
    assert_eq!(list.count(Layer3::JointBasis), 6 * orientation, "xa, ya, za, xb, yb, zb per orientation joint");
    assert_eq!(list.count(Layer3::JointError), w.joints.len());
    assert!(serde_json::to_string(&list).unwrap().contains("JointBasis"));
}

/// The 2D world's determinism check (`engine::determinism`, through its `Stepped` trait) on
/// every shipped 3D world: two runs from the start and one from a serialized mid-run snapshot
/// give the same hash at every step. A planted difference in the second run is found at the
/// step it was planted, with the body that was moved first in the list.
#[test]
fn every_shipped_3d_world_passes_the_determinism_check_and_a_planted_difference_is_found() {
    use manifold_lab::engine::determinism::{check_determinism, check_determinism_with, Run};
    for path in shipped() {
        let w = World3dScene::load(&path).unwrap().build_world().unwrap();
        let r = check_determinism(&w, 120);
        assert!(r.is_deterministic(), "{}: {}", path.display(), r.to_text());
        assert_eq!(r.snapshot_step, 60);
    }
    let w = world("tumble.ron");
    let dynamic = w.bodies.iter().position(|b| b.is_dynamic()).unwrap();
    let r = check_determinism_with(&w, 40, |w: &mut World3, run| {
        w.step();
        if run == Run::Second && w.step_count == 17 {
            w.bodies[dynamic].linear_velocity.x += 1e-3;
        }
    });
    assert_eq!(r.divergences.len(), 1, "{}", r.to_text());
    let d = &r.divergences[0];
    assert_eq!((d.run, d.step, d.bodies[0].body), (Run::Second, 17, dynamic), "{}", r.to_text());
    assert!((d.bodies[0].velocity - 1e-3).abs() < 1e-5, "{:?}", d.bodies[0]);
}

#[test]
fn the_cli_checks_a_3d_worlds_determinism() {
    let o = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(root())
        .args(["run", "scenes/world3d/float.ron", "--check-determinism", "--steps", "60", "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["divergences"].as_array().map(Vec::len), Some(0));
    assert_eq!((v["snapshot_step"].as_u64(), v["snapshot_error"].is_null()), (Some(30), true));
}
