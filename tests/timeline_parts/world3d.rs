//! The timeline on 3D worlds (the same `Timeline` as 2D, through `Timed`): a scrub to step k
//! of every shipped 3D scene gives the state hash of k steps run fresh, an edit at a past step
//! branches and keeps the old future, and the per-body diff names the edited body.

use glam::Vec3;
use manifold_lab::engine::determinism::Stepped;
use manifold_lab::engine::timeline::{Cause, Observed, Timed, Timeline};
use manifold_lab::engine::world3d::World3;
use manifold_lab::scene::{PresetFile, World3dScene};
use std::path::{Path, PathBuf};

fn world3d_scenes() -> Vec<PathBuf> {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut v: Vec<_> = std::fs::read_dir("scenes/world3d")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

fn build(path: &Path) -> World3 {
    World3dScene::load(path).unwrap_or_else(|e| panic!("{e}")).build_world().unwrap()
}

fn run(t: &mut Timeline<World3>, w: &mut World3, n: u64) {
    for _ in 0..n {
        w.step();
        assert_eq!(t.observe(w, Cause::Stepped), Observed::Followed);
    }
}

#[test]
fn scrubbing_a_3d_world_matches_a_fresh_run_in_every_scene() {
    const STEPS: u64 = 60;
    let scenes = world3d_scenes();
    assert!(scenes.len() >= 4);
    for path in scenes {
        let mut w = build(&path);
        // A small budget: few keyframes, so seeks re-simulate.
        let mut t = Timeline::with_budget(&w, 6 * w.keyframe_bytes());
        run(&mut t, &mut w, STEPS);
        let mut fresh = build(&path);
        let mut at = vec![fresh.state_hash()];
        for _ in 0..STEPS {
            fresh.step();
            at.push(fresh.state_hash());
        }
        for k in [0, 1, 13, 31, 59, 60] {
            let got = t.world_at(0, k, None).unwrap_or_else(|| panic!("{}: step {k}", path.display()));
            assert_eq!((got.step_count, got.state_hash()), (k, at[k as usize]), "{} at step {k}", path.display());
            assert_eq!(t.current_branch().stats_at(k).unwrap().hash, at[k as usize]);
        }
        assert!(t.keyframe_bytes() <= t.budget(), "{}", path.display());
        assert!(t.world_at(0, STEPS + 1, None).is_none());
    }
}

#[test]
fn a_3d_edit_in_the_past_branches_keeps_the_old_future_and_diffs_the_edited_body() {
    let path = PathBuf::from("scenes/world3d/stack.ron");
    let mut w = build(&path);
    let mut t = Timeline::new(&w);
    run(&mut t, &mut w, 40);
    let old_end = w.state_hash();
    let mut past = t.seek(0, 15, &w).unwrap();
    assert_eq!((t.cursor(), past.step_count), (15, 15));
    let moved = past.bodies.iter().position(|b| b.is_dynamic()).unwrap();
    past.bodies[moved].linear_velocity += Vec3::new(2.0, 0.0, 0.0);
    assert_eq!(t.observe(&past, Cause::Edited), Observed::Branched(1));
    assert_eq!(t.branch(1).unwrap().parent, Some((0, 15)));
    run(&mut t, &mut past, 10);
    assert_eq!(t.branch(1).unwrap().newest(), 25);
    assert_eq!(t.world_at(0, 40, None).unwrap().state_hash(), old_end, "the old future is kept");
    assert_eq!(t.first_divergence(0, 1), Some(15));
    assert_eq!(t.world_at(1, 25, None).unwrap().state_hash(), past.state_hash());
    let ghost = t.world_at(0, 25, None).unwrap();
    let d = past.differing_bodies(&ghost);
    assert!(d[0].body == moved && d[0].position > 0.01, "the pushed body differs most: {d:?}");
    // Stepping through a known future follows it rather than branching.
    let mut back = t.seek(0, 5, &past).unwrap();
    run(&mut t, &mut back, 3);
    assert_eq!((t.current(), t.cursor(), t.branches().len()), (0, 8, 2));
}

#[test]
fn a_3d_step_that_does_not_reproduce_is_caught_as_a_divergence() {
    let mut w = build(&PathBuf::from("scenes/world3d/tumble.ron"));
    let mut t = Timeline::new(&w);
    run(&mut t, &mut w, 20);
    let mut back = t.seek(0, 10, &w).unwrap();
    back.step();
    // A planted nondeterminism: the re-run step lands somewhere else.
    back.bodies[1].center.y += 1e-3;
    assert_eq!(t.observe(&back, Cause::Stepped), Observed::Diverged { step: 11, branch: 1 });
}

#[test]
fn scrubbing_the_splash_back_and_forth_gives_the_same_simulated_surface() {
    let mut w = build(&PathBuf::from("scenes/world3d/splash.ron"));
    let mut t = Timeline::with_budget(&w, 4 * w.keyframe_bytes());
    run(&mut t, &mut w, 120);
    let surface = |w: &World3| w.surfaces[0].clone().expect("splash.ron's pool is simulated");
    let end = surface(&w);
    let back = t.seek(0, 45, &w).unwrap();
    let at_45 = surface(&back);
    assert_ne!(at_45.heights, end.heights, "the waves moved between steps 45 and 120");
    let forth = t.seek(0, 120, &back).unwrap();
    assert_eq!(surface(&forth), end, "forward again: the same columns, bit for bit");
    let again = t.seek(0, 45, &forth).unwrap();
    assert_eq!(surface(&again), at_45);
    // The columns are in the hash: a scrub that restored the bodies alone would not match.
    let mut other = again.clone();
    other.surfaces[0].as_mut().unwrap().velocities[100] += 1e-4;
    assert_ne!(other.state_hash(), again.state_hash());
}
