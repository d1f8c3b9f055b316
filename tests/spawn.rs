//! A scene's step rule (`engine::spawn`, Box2D's rain benchmark's `StepRain`) is part of the
//! world's state: the same bits at 1 and 2 threads, a timeline scrubbed back across a spawn
//! re-simulates it, the determinism check's serialized snapshot resumes it, a save resumes it,
//! and a recording replays it. The rain is made small (2 rows × 3 columns of 2 humans) so the
//! columns wrap (destroy and recreate) within a few dozen steps; one test runs the shipped one.

use manifold_lab::engine::determinism::check_determinism;
use manifold_lab::engine::spawn::Spawner;
use manifold_lab::engine::timeline::{Cause, Timeline};
use manifold_lab::engine::World;
use manifold_lab::scene;
use std::process::Command;

fn rain() -> World {
    let s = scene::load(std::path::Path::new("scenes/benchmark/rain.ron")).unwrap_or_else(|e| panic!("{e}"));
    s.build_world()
}

/// The shipped rain with 2 rows, 3 columns, 2 humans a group: waves at steps 0, 8, 16, then
/// each wave from step 24 recreates the oldest column.
fn small_rain() -> World {
    let mut w = rain();
    let Some(Spawner::RagdollRain(r)) = &mut w.spawner else { panic!("rain.ron has a ragdoll rain") };
    (r.rows, r.columns, r.group_size) = (2, 3, 2);
    w
}

fn stepped(mut w: World, steps: u64) -> World {
    for _ in 0..steps {
        w.step();
    }
    w
}

#[test]
fn the_rain_is_the_same_bits_at_one_and_two_threads() {
    for (name, start, steps) in [("small", small_rain(), 60), ("shipped", rain(), 20)] {
        let runs: Vec<World> = [1, 2]
            .into_iter()
            .map(|threads| {
                let mut w = start.clone();
                w.params.threads = threads;
                stepped(w, steps)
            })
            .collect();
        assert_eq!(runs[0].bodies.len(), runs[1].bodies.len());
        for (i, (a, b)) in runs[0].bodies.iter().zip(&runs[1].bodies).enumerate() {
            let bits = |b: &manifold_lab::engine::Body| [b.center.x, b.center.y, b.angle].map(f32::to_bits);
            assert_eq!(bits(a), bits(b), "{name}: body {i} differs at 2 threads");
        }
        assert_eq!(runs[0].state_hash(), runs[1].state_hash(), "{name}");
    }
}

#[test]
fn a_timeline_scrubs_back_across_spawns_and_wraps() {
    let start = small_rain();
    let mut t = Timeline::with_budget(&start, 64 * manifold_lab::engine::timeline::world_bytes(&start));
    let mut w = start.clone();
    let mut hashes = vec![w.state_hash()];
    for _ in 0..50 {
        w.step();
        t.observe(&w, Cause::Stepped);
        hashes.push(w.state_hash());
    }
    // Back to before the first wrap (step 24), before the second wave, and to the end again.
    for step in [23u64, 7, 33, 50, 1] {
        let at = t.seek(0, step, &w).expect("reachable");
        assert_eq!(at.state_hash(), hashes[step as usize], "step {step}");
        w = at;
    }
}

#[test]
fn the_determinism_check_resumes_the_rule_from_its_snapshot() {
    // 64 steps: the serialized snapshot is taken at step 32, a wave that recreates a column.
    let report = check_determinism(&small_rain(), 64);
    assert!(report.is_deterministic(), "{}", report.to_text());
}

#[test]
fn a_save_mid_rain_reads_back_to_the_same_world_and_rule() {
    let w = stepped(small_rain(), 27);
    let saved = scene::scene_from_world(&w, "rain mid-run", None);
    let text = saved.to_ron_string().unwrap();
    assert!(text.contains("RagdollRain") && text.contains("column_index"), "the rule and its state are saved");
    let back = scene::parse(&text, "saved.ron").unwrap_or_else(|e| panic!("{e}")).build_world();
    assert_eq!(back.spawner, w.spawner);
    assert_eq!(back.state_hash(), w.state_hash());
    // The next wave (step 32) destroys the same column in both.
    let (a, b) = (stepped(w, 8), stepped(back, 8));
    assert_eq!(a.bodies.len(), b.bodies.len());
    assert_eq!(a.spawner, b.spawner);
}

#[test]
fn a_bad_rule_is_a_located_error() {
    let text = std::fs::read_to_string("scenes/benchmark/rain.ron").unwrap();
    let bad = text.replace("group_size: 5", "group_size: 40");
    let e = scene::parse(&bad, "rain.ron").unwrap_err().to_string();
    let line = bad.lines().position(|l| l.contains("group_size: 40")).unwrap() + 1;
    assert!(e.contains(&format!("rain.ron:{line}:")) && e.contains("`group_size`"), "{e}");
    let big = text.replace("columns: 40,", "columns: 400,");
    let e = scene::parse(&big, "rain.ron").unwrap_err().to_string();
    assert!(e.contains("limit of 30000 bodies"), "{e}");
}

fn bin(args: &[&str]) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("JSON")
}

#[test]
fn a_recording_of_the_rain_replays_and_the_cli_finds_it_deterministic() {
    let rec = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rain.mlrec");
    let r = rec.to_str().unwrap();
    let made = bin(&["run", "scenes/benchmark/rain.ron", "--steps", "18", "--record", r, "--json"]);
    let replayed = bin(&["replay", r, "--json"]);
    assert_eq!(replayed["state_hash"], made["state_hash"]);
    assert_eq!(replayed["matches"], true);
    let o = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenes/benchmark/rain.ron", "--check-determinism", "--steps", "18"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(String::from_utf8_lossy(&o.stdout).trim_end().ends_with("deterministic"));
}
