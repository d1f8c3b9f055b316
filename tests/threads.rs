//! The `threads` setting: every graph colour's rows and joints are cut into blocks solved on
//! several threads, and the result must not depend on the thread count, to the bit (as Box2D v3
//! guarantees). Every shipped scene is stepped with 1, 2 and 3 threads, and on the baseline
//! SSE2 lanes instead of AVX2 (`avx2: false`), and must reach the same state hash, and the same
//! bits in every body.

mod support;

use manifold_lab::engine::solver::contact_wide::MIN_BLOCK_ROWS;
use manifold_lab::engine::solver::graph::GraphColor;
use manifold_lab::engine::solver::lanes::LANES;
use manifold_lab::engine::solver::PositionCorrection;
use manifold_lab::engine::World;
use manifold_lab::scene;
use manifold_lab::scene::set_solver_field;
use std::collections::BTreeMap;

/// Steps per scene (enough for the pyramids to settle into many colours and for `sleep.ron`
/// to fall asleep); `THREADS_STEPS` raises it.
fn steps() -> u32 {
    std::env::var("THREADS_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(90)
}

fn world_of(path: &std::path::Path, threads: u32) -> World {
    let s = scene::load(path).unwrap_or_else(|e| panic!("{e}"));
    let mut w = s.build_world();
    w.params.threads = threads;
    w
}

/// Every body's state as bits, for a message that names the first body that differs.
fn bits(w: &World) -> Vec<[u32; 6]> {
    w.bodies
        .iter()
        .map(|b| {
            [b.center.x, b.center.y, b.angle, b.linear_velocity.x, b.linear_velocity.y, b.angular_velocity]
                .map(f32::to_bits)
        })
        .collect()
}

/// Contacts per colour in the last step.
fn color_sizes(w: &World) -> BTreeMap<u8, usize> {
    let mut m = BTreeMap::new();
    for c in &w.contacts {
        if let GraphColor::Color(k) = c.graph_color {
            *m.entry(k).or_default() += 1;
        }
    }
    m
}

/// Joints per colour in the last step.
fn joint_color_sizes(w: &World) -> BTreeMap<u8, usize> {
    let mut m = BTreeMap::new();
    for j in w.joints() {
        if let GraphColor::Color(k) = j.base().graph_color {
            *m.entry(k).or_default() += 1;
        }
    }
    m
}

/// How a world is solved: threads, and whether AVX2 lanes may be used.
fn label(w: &World) -> String {
    format!("{} threads{}", w.params.threads, if w.params.avx2 { "" } else { " on SSE2 lanes" })
}

#[test]
fn every_shipped_scene_gives_the_same_bits_on_1_2_and_3_threads_and_on_sse2_lanes() {
    let scenes = support::scenes::shipped_scenes();
    assert!(scenes.len() >= 10, "expected the shipped scenes, found {scenes:?}");
    if !manifold_lab::engine::solver::lanes::avx2_detected() {
        eprintln!("this processor has no AVX2: every world here runs on SSE2 lanes");
    }
    let (mut split, mut split_joints) = (Vec::new(), Vec::new());
    for path in &scenes {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut worlds: Vec<World> = [1, 2, 3, 2].map(|t| world_of(path, t)).into();
        worlds[3].params.avx2 = false;
        for step in 0..steps() {
            for w in &mut worlds {
                w.step();
            }
            let one = worlds[0].state_hash();
            for w in &worlds[1..] {
                if w.state_hash() != one {
                    let (a, b) = (bits(&worlds[0]), bits(w));
                    let body = a.iter().zip(&b).position(|(x, y)| x != y);
                    panic!("{name}: {} differ from 1 thread at step {step}, first at body {body:?}", label(w));
                }
            }
        }
        // Which scenes had a colour large enough to be cut into blocks on 2 threads: contact
        // rows, or joints (a colour's joints are cut from 8 on).
        if color_sizes(&worlds[1]).values().any(|&n| n >= 2 * MIN_BLOCK_ROWS * LANES) {
            split.push(name.clone());
        }
        if joint_color_sizes(&worlds[1]).values().any(|&n| n >= 8) {
            split_joints.push(name);
        }
    }
    // The comparison means something only if some colours really were solved in blocks.
    assert!(split.iter().any(|n| n == "large_pyramid.ron"), "colours cut into blocks only in {split:?}");
    assert!(split_joints.iter().any(|n| n == "joint_grid.ron"), "joints cut into blocks only in {split_joints:?}");
}

#[test]
fn changing_the_thread_count_mid_run_changes_nothing() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/large_pyramid.ron"));
    let mut steady = world_of(path, 1);
    let mut switched = world_of(path, 2);
    for step in 0..40 {
        switched.params.threads = [2, 1, 3, 4][step % 4];
        steady.step();
        switched.step();
    }
    assert_eq!(steady.state_hash(), switched.state_hash());
    assert!(steady.profile.colors >= 4, "the pyramid needs several colours: {}", steady.profile.colors);
}

#[test]
fn the_scalar_corrections_ignore_threads() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/pyramid.ron"));
    for mode in [PositionCorrection::Projection, PositionCorrection::Baumgarte] {
        let mut a = world_of(path, 1);
        let mut b = world_of(path, 3);
        a.params.position_correction = mode;
        b.params.position_correction = mode;
        for _ in 0..60 {
            a.step();
            b.step();
        }
        assert_eq!(a.state_hash(), b.state_hash(), "{mode:?}");
        assert_eq!((a.profile.colors, a.profile.overflow), (0, 0));
        assert!(a.contacts.iter().all(|c| c.graph_color == GraphColor::None));
    }
}

#[test]
fn threads_is_set_from_the_command_line_syntax_and_checked() {
    let mut p = manifold_lab::engine::solver::SolverParams::default();
    assert_eq!(p.threads, 1);
    set_solver_field(&mut p, "threads=2").unwrap();
    assert_eq!(p.threads, 2);
    for bad in ["threads=0", "threads=65", "threads=-1", "threads=two"] {
        let e = set_solver_field(&mut p, bad).unwrap_err();
        assert!(e.contains("threads"), "{bad}: {e}");
        assert_eq!(p.threads, 2, "{bad} left the setting alone");
    }
    // A scene's settings carry it, and a scene that asks for too many threads is refused with
    // its location.
    let s = scene::parse("Scene(version: 1, settings: (threads: 3))", "t.ron").unwrap();
    assert_eq!(s.settings.threads, 3);
    let e = scene::parse("Scene(version: 1,\n  settings: (threads: 0))", "t.ron").unwrap_err().to_string();
    assert!(e.starts_with("t.ron:2:") && e.contains("threads"), "{e}");
    // So do `avx2` (on by default) and a scene's settings; a value that is not a bool is refused.
    assert!(p.avx2);
    set_solver_field(&mut p, "avx2=false").unwrap();
    assert!(!p.avx2);
    assert!(set_solver_field(&mut p, "avx2=2").unwrap_err().contains("avx2"));
    let s = scene::parse("Scene(version: 1, settings: (avx2: false))", "t.ron").unwrap();
    assert!(!s.settings.avx2);
}

/// `manifold-lab run SCENE --set threads=N --json`: the state hash of the real binary's run.
fn cli_hash(threads: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenes/pyramid.ron", "--steps", "60", "--json", "--set", threads])
        .output()
        .expect("the binary runs")
}

#[test]
fn the_command_line_sets_threads_and_gets_the_same_hash() {
    let hash = |threads: &str| {
        let out = cli_hash(threads);
        assert!(out.status.success(), "{threads}: {}", String::from_utf8_lossy(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
        report["state_hash"].clone()
    };
    let one = hash("threads=1");
    assert!(!one.is_null());
    assert_eq!(hash("threads=2"), one);
    assert_eq!(hash("threads=3"), one);
    let bad = cli_hash("threads=0");
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--set threads=0") && err.contains("between 1 and 64"), "{err}");
}

/// A pile created at one point reaches the broadphase's limits (at most `MAX_NEW_PAIRS` new
/// pairs a step, the queries that do not fit put off): its move-buffer queries run in parts on
/// the workers, and which pairs are kept must not depend on how the buffer was cut.
#[test]
fn a_pile_at_the_pair_limits_keeps_the_same_pairs_on_1_2_and_3_threads() {
    use manifold_lab::engine::broadphase::MAX_NEW_PAIRS;
    use manifold_lab::engine::shape::Shape;
    use manifold_lab::engine::{BodyDef, BodyKind};
    let pile = |threads: u32| {
        let mut w = World::new(manifold_lab::engine::solver::SolverParams { threads, ..Default::default() });
        let ground = Shape::make_box(glam::Vec2::new(50.0, 1.0)).unwrap();
        w.create_body(&BodyDef::new(BodyKind::Static, ground, glam::Vec2::new(0.0, -1.0)));
        for i in 0..900 {
            // Circles and boxes alternate, a few apart, so the queries report pairs unevenly.
            let shape = match i % 2 {
                0 => Shape::circle(0.5).unwrap(),
                _ => Shape::make_box(glam::Vec2::splat(0.4)).unwrap(),
            };
            let at = glam::Vec2::new((i % 7) as f32 * 0.05, 2.0);
            w.create_body(&BodyDef::new(BodyKind::Dynamic, shape, at));
        }
        let mut steps = Vec::new();
        for _ in 0..4 {
            w.step();
            steps.push((w.broadphase.pairs().to_vec(), w.broadphase.stats.deferred, bits(&w)));
        }
        steps
    };
    let one = pile(1);
    assert!(one.iter().all(|(_, deferred, _)| *deferred > 0), "the pile reached the limit every step");
    assert!(one.windows(2).all(|s| s[1].0.len() - s[0].0.len() <= MAX_NEW_PAIRS));
    for threads in [2, 3] {
        let other = pile(threads);
        for (step, (a, b)) in one.iter().zip(&other).enumerate() {
            assert!(a.0 == b.0, "step {step}: the pairs differ on {threads} threads");
            assert_eq!(a.1, b.1, "step {step}: queries put off");
            assert!(a.2 == b.2, "step {step}: body bits differ on {threads} threads");
        }
    }
}
