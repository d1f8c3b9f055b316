//! The timeline and the determinism check on the shipped scenes: a scrub to step k gives the
//! state hash of k steps run fresh, and the check finds a planted nondeterminism.

use manifold_lab::engine::determinism::{check_determinism, check_determinism_with, Run};
use manifold_lab::engine::timeline::{Cause, Observed, Timeline};
use manifold_lab::scene;
use manifold_lab::scene::PresetFile;
use std::path::PathBuf;

/// Shipped 2D scenes small enough to step a few hundred times in a test.
fn scenes() -> Vec<PathBuf> {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut v: Vec<_> = std::fs::read_dir("scenes")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .filter(|p| !p.ends_with("large_pyramid.ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn scrubbing_to_a_step_matches_a_fresh_run_in_every_scene() {
    const STEPS: u64 = 90;
    for path in scenes() {
        let s = scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let mut w = s.build_world();
        w.refresh_contacts();
        // A small budget: few keyframes, so seeks re-simulate.
        let mut t = Timeline::with_budget(&w, 8 * manifold_lab::engine::timeline::world_bytes(&w));
        let mut fresh_hashes = vec![w.state_hash()];
        for _ in 0..STEPS {
            w.step();
            assert_eq!(t.observe(&w, Cause::Stepped), Observed::Followed);
            fresh_hashes.push(w.state_hash());
        }
        // Fresh runs, independent of the timeline's own stepping.
        let mut fresh = s.build_world();
        fresh.refresh_contacts();
        let mut at = vec![fresh.state_hash()];
        for _ in 0..STEPS {
            fresh.step();
            at.push(fresh.state_hash());
        }
        assert_eq!(at, fresh_hashes, "{} is not deterministic run to run", path.display());
        for k in [0, 1, 17, 45, 89, 90] {
            let got = t.world_at(0, k, None).unwrap_or_else(|| panic!("{}: step {k}", path.display()));
            assert_eq!(got.state_hash(), at[k as usize], "{} at step {k}", path.display());
        }
        assert!(t.keyframe_bytes() <= t.budget(), "{}", path.display());
    }
}

/// Every shipped 2D scene, the large pyramid included.
fn all_scenes() -> Vec<PathBuf> {
    let mut v = scenes();
    v.push(PathBuf::from("scenes/large_pyramid.ron"));
    v
}

/// A world serialized mid-run and read back steps exactly as the uninterrupted run, in every
/// shipped scene: what the snapshot leaves out (the broadphase tree, islands, the joints'
/// per-step data, the contact filter of joints) is rebuilt without changing the result.
#[test]
fn every_shipped_scene_steps_alike_twice_and_after_a_restore() {
    for path in all_scenes() {
        let s = scene::load(&path).unwrap();
        let mut w = s.build_world();
        w.refresh_contacts();
        let steps = if path.ends_with("large_pyramid.ron") { 40 } else { 120 };
        let r = check_determinism(&w, steps);
        let text = r.to_text();
        assert!(r.is_deterministic(), "{}:\n{text}", path.display());
        assert!(text.ends_with("deterministic\n"));
    }
}

/// Snapshots at several steps, including the first (before any step built the broadphase
/// or the joint filter) and one taken while bodies fall asleep.
#[test]
fn a_restore_at_any_step_continues_exactly() {
    for path in scenes() {
        let s = scene::load(&path).unwrap();
        let mut start = s.build_world();
        start.refresh_contacts();
        for snap in [0u64, 1, 7, 150] {
            let mut w = start.clone();
            for _ in 0..snap {
                w.step();
            }
            let json = serde_json::to_string(&w).unwrap();
            let mut r: manifold_lab::engine::World = serde_json::from_str(&json).unwrap();
            for k in 1..=60 {
                w.step();
                r.step();
                assert_eq!(r.state_hash(), w.state_hash(), "{} restored at {snap}, {k} steps on", path.display());
            }
        }
    }
}

/// The 3D scenes: a `World3` serialized mid-run steps as the original.
#[test]
fn shipped_3d_scenes_continue_exactly_after_a_restore() {
    let mut paths: Vec<_> = std::fs::read_dir(format!("{}/scenes/world3d", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    for path in paths {
        let start = scene::World3dScene::load(&path).unwrap_or_else(|e| panic!("{e}")).build_world().unwrap();
        for snap in [0u64, 1, 60] {
            let mut w = start.clone();
            for _ in 0..snap {
                w.step();
            }
            let json = serde_json::to_string(&w).unwrap();
            let mut r: manifold_lab::engine::world3d::World3 = serde_json::from_str(&json).unwrap();
            for k in 1..=100 {
                w.step();
                r.step();
                assert_eq!(r.state_hash(), w.state_hash(), "{} restored at {snap}, {k} steps on", path.display());
            }
        }
    }
}

#[test]
fn the_check_catches_a_planted_nondeterminism_and_names_step_and_body() {
    let s = scene::load(std::path::Path::new(&format!("{}/scenes/pyramid.ron", env!("CARGO_MANIFEST_DIR")))).unwrap();
    let w = s.build_world();
    let target = w.bodies.iter().rposition(|b| b.kind == manifold_lab::engine::BodyKind::Dynamic).unwrap();
    // The second run nudges one body by a millionth of a metre per second at step 37.
    let r = check_determinism_with(&w, 80, |w, run| {
        w.step();
        if run == Run::Second && w.step_count == 37 {
            w.bodies[target].linear_velocity.x += 1e-6;
        }
    });
    assert!(!r.is_deterministic());
    assert_eq!(r.divergences.len(), 1, "{}", r.to_text());
    let d = &r.divergences[0];
    assert_eq!((d.run, d.step), (Run::Second, 37));
    assert_eq!(d.bodies[0].body, target);
    assert!(r.to_text().contains("the second run diverges after step 37"), "{}", r.to_text());

    // A nondeterminism only after the snapshot shows in the restored run.
    let r = check_determinism_with(&w, 80, |w, run| {
        w.step();
        if run == Run::Restored && w.step_count == 50 {
            w.bodies[target].angle += 1e-4;
        }
    });
    assert_eq!(r.divergences.len(), 1);
    assert_eq!((r.divergences[0].run, r.divergences[0].step), (Run::Restored, 50));
}

#[path = "timeline_parts/world3d.rs"]
mod world3d;
