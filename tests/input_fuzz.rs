//! Fuzzes the inputs besides scene files (issue 35): recordings (`replay`) and scripts (`run
//! --script`). Recordings made by `run --record` and the shipped scripts are mutated (byte
//! flips, numbers replaced by 1e30, NaN, -1, 0 or huge integers, truncation, duplicated and
//! dropped lines, bytes that are not UTF-8) and each mutant is run through the command line.
//! Every one must either be refused at `file:line:column`, or run with finite state; none may
//! panic or outlive `HANG_BOUND`. `FUZZ_CASES=N` sets the mutants per kind (default 200).

mod fuzz_parts;

use fuzz_parts::{mutate, outcome, Outcome, Tally};
use manifold_lab::engine::rng::SplitMix64;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_manifold-lab"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn cases() -> usize {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(200)
}

fn dir(kind: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("input_fuzz_{kind}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Recordings to mutate: a scripted drag (SetPose actions), a slice in water, a plain run.
fn seed_recordings() -> Vec<Vec<u8>> {
    let runs: [&[&str]; 3] = [
        &["scenes/vertical_stack.ron", "--script", "tests/scripts/select_drag.ron", "--steps", "20"],
        &["scenes/buoyancy.ron", "--script", "tests/scripts/slice_box.ron", "--steps", "10"],
        &["scenes/pyramid.ron", "--steps", "15"],
    ];
    runs.iter()
        .enumerate()
        .map(|(k, args)| {
            let out = dir("seeds").join(format!("seed{k}.mlrec"));
            let o = bin().arg("run").args(*args).arg("--record").arg(&out).output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            std::fs::read(&out).unwrap()
        })
        .collect()
}

/// Runs each of `cases()` mutants of `seeds` with `command(path)`; returns the tally.
fn fuzz(kind: &str, ext: &str, seeds: &[Vec<u8>], command: &(dyn Fn(&Path) -> Command + Sync)) -> Tally {
    let n = cases();
    let tally = std::sync::Mutex::new(Tally::default());
    let workers = std::thread::available_parallelism().map_or(2, |p| p.get()).min(4);
    std::thread::scope(|s| {
        for w in 0..workers {
            let tally = &tally;
            s.spawn(move || {
                for case in (w..n).step_by(workers) {
                    let mut rng = SplitMix64::new(0x5eed_0035 ^ (case as u64).wrapping_mul(0x9e37_79b9));
                    let seed = &seeds[case % seeds.len()];
                    let (mutant, how) = mutate(seed, &mut rng);
                    let path = dir(kind).join(format!("case{case}.{ext}"));
                    std::fs::write(&path, &mutant).unwrap();
                    let o = outcome(command(&path), &path);
                    tally.lock().unwrap().add(&o, &format!("{kind} case {case} ({how})"));
                    if matches!(o, Outcome::Refused) {
                        std::fs::remove_file(&path).ok();
                    }
                }
            });
        }
    });
    tally.into_inner().unwrap()
}

#[test]
fn mutated_recordings_are_refused_where_they_break_or_replay_finite() {
    let seeds = seed_recordings();
    let t = fuzz("rec", "mlrec", &seeds, &|p| {
        let mut c = bin();
        c.args(["replay", "--json", "--steps", "60"]).arg(p);
        c
    });
    t.report("recordings");
}

#[test]
fn mutated_scripts_are_refused_where_they_break_or_run_finite() {
    let scripts = ["select_drag", "slice_box", "chain_joint", "ray_tool", "timeline_branch", "contact_inspect"];
    let seeds: Vec<Vec<u8>> =
        scripts.iter().map(|s| std::fs::read(format!("tests/scripts/{s}.ron")).unwrap()).collect();
    let scenes = ["scenes/vertical_stack.ron", "scenes/buoyancy.ron", "scenes/chain.ron"];
    let t = fuzz("script", "ron", &seeds, &|p| {
        let name = p.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let case: usize = name.trim_start_matches("case").parse().unwrap_or(0);
        let mut c = bin();
        c.args(["run", scenes[case % scenes.len()], "--json", "--steps", "5", "--script"]).arg(p);
        c
    });
    t.report("scripts");
}

/// The cases issue 35 measured, one by one through the command line.
#[test]
fn the_issue_cases_are_refused_at_their_place_with_the_range() {
    let seed = String::from_utf8(seed_recordings().remove(0)).unwrap();
    let d = dir("issue");
    let refused = |name: &str, text: &str, args: &[&str], says: &str| {
        let path = d.join(name);
        std::fs::write(&path, text).unwrap();
        let o = bin().args(args).arg(&path).output().unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{name} accepted");
        assert!(e.starts_with(&format!("{}:", path.display())) && e.contains(says), "{name}: {e}");
        println!("{}", e.trim_end());
    };
    let replay = ["replay", "--steps", "5"];
    for (old, new, says) in [
        ("threads: 1,", "threads: 1000000,", "`threads` must be between 1 and 64"),
        ("substeps: 4,", "substeps: 4000000,", "`substeps` must be between 1 and 64"),
        ("iterations: 1,", "iterations: 100000,", "`iterations` must be between 1 and 200"),
        ("hz: 60.0,", "hz: 0,", "`hz` must be between 1 and 10000"),
        ("gravity: (0.0, -10.0)", "gravity: (0.0, NaN)", "`gravity.y` must be a finite number"),
    ] {
        assert!(seed.contains(old), "{old}");
        refused("params.mlrec", &seed.replacen(old, new, 1), &replay, says);
    }
    let steps = seed.lines().find(|l| l.trim_start().starts_with("steps:")).unwrap();
    refused("steps.mlrec", &seed.replacen(steps, "    steps: 1000000000000,", 1), &replay, "at most 1000000");
    let hash = seed.lines().find(|l| l.trim_start().starts_with("final_hash:")).unwrap();
    refused("hash.mlrec", &seed.replacen(hash, "    final_hash: \"xyz\",", 1), &replay, "1 to 16 hex digits");
    let late = seed.lines().find(|l| l.trim_start().starts_with("step:")).unwrap();
    refused("late.mlrec", &seed.replacen(late, "            step: 900000,", 1), &replay, "past the end");
    let run = ["run", "scenes/vertical_stack.ron", "--script"];
    refused("wait.ron", "[\n    Wait(1000000000),\n]", &run, ":2:5: step 0: `Wait` must be at most 100000 frames");
    let pose = "[\n    Do(SetPose(body: 1, position: (1e30, 0), angle: 0)),\n]";
    refused("pose.ron", pose, &run, ":2:35: step 0: `position` must be in [-100000, 100000], got 1e30");
    let fails = "[\n    Do(Pause),\n    Do(SelectNamed(\"nobody\")),\n]";
    refused("fails.ron", fails, &run, ":3:5: the step failed: no body named `nobody`");
    let mut bytes = b"[\n    Do(SelectNamed(\"".to_vec();
    bytes.extend_from_slice(&[0xff, b'"', b')', b')', b']']);
    let path = d.join("bytes.ron");
    std::fs::write(&path, &bytes).unwrap();
    let o = bin().args(run).arg(&path).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("bytes.ron:2:21: byte 0xff is not UTF-8"));
    // --set names the argument and the valid range.
    let o = bin().args(["run", "scenes/pyramid.ron", "--steps", "1", "--set", "threads=1000000"]).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(e.starts_with("--set threads=1000000: ") && e.contains("valid `threads`: 1 to 64"), "{e}");
    let o = bin().args(["replay", "--steps", "2000000", "x.mlrec"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("0..=1000000"), "{o:?}");
}
