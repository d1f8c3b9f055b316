//! The command line: `run --record` with a scripted drag, `replay` of it, a damaged recording,
//! and `run --check-determinism`.

use std::process::{Command, Output};

fn bin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("JSON")
}

#[test]
fn a_recording_of_a_scripted_drag_replays_to_the_same_hash() {
    let rec = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("drag.mlrec");
    let r = rec.to_str().unwrap();
    let made = json(&bin(&[
        "run",
        "scenes/vertical_stack.ron",
        "--script",
        "tests/scripts/select_drag.ron",
        "--steps",
        "40",
        "--record",
        r,
        "--json",
    ]));
    assert!(made["actions"].as_u64().unwrap() > 5, "the drag's SetPose actions are recorded: {made}");
    // The same run without recording reaches the same hash.
    let plain = json(&bin(&[
        "run",
        "scenes/vertical_stack.ron",
        "--script",
        "tests/scripts/select_drag.ron",
        "--steps",
        "40",
        "--json",
    ]));
    assert_eq!(made["state_hash"], plain["state_hash"]);
    let replayed = json(&bin(&["replay", r, "--json"]));
    assert_eq!(replayed["state_hash"], plain["state_hash"]);
    assert_eq!(replayed["matches"], true);

    // A recording whose hash was tampered with is reported as differing (exit code 4).
    let text = std::fs::read_to_string(&rec).unwrap();
    let hash = made["state_hash"].as_str().unwrap();
    let bad = rec.with_file_name("tampered.mlrec");
    std::fs::write(&bad, text.replace(hash, "0000000000000001")).unwrap();
    let o = bin(&["replay", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stdout).contains("differs"));
    // A truncated one is a located error.
    std::fs::write(&bad, &text[..text.len() / 2]).unwrap();
    let o = bin(&["replay", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tampered.mlrec:"), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn check_determinism_reports_deterministic_or_the_first_divergence() {
    let o = bin(&["run", "scenes/pyramid.ron", "--check-determinism", "--steps", "60"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).trim_end().ends_with("deterministic"));
    // A jointed scene restores exactly too; the JSON report says so (a divergence's step and
    // bodies are checked against a planted nondeterminism in tests/timeline.rs).
    let o = bin(&["run", "scenes/chain.ron", "--check-determinism", "--steps", "60", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["divergences"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["snapshot_step"], 30);
    assert!(v["snapshot_error"].is_null());
}

#[path = "replay_cli_parts/world3d.rs"]
mod world3d;
