//! `manifold-lab run SCENE --script ACTIONS.ron`: the script plays without a window, the
//! same way `screenshot` plays it (actions and pointer gestures frame by frame), and the
//! JSON report lists the bodies after it. Here a script slices the half-density box in the
//! water by an action and the plank by a dragged knife, and the pieces must weigh what their
//! parents did.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("run")
        .args(args)
        .arg("--json")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

fn body<'a>(r: &'a Value, name: &str) -> &'a Value {
    let bodies = r["bodies"].as_array().expect("a list of bodies");
    bodies.iter().find(|b| b["name"] == name).unwrap_or_else(|| panic!("no body {name} in {bodies:?}"))
}

fn num(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn a_script_slices_bodies_headless_and_the_pieces_keep_the_mass() {
    let plain = run(&["scenes/buoyancy.ron", "--steps", "0"]);
    let r = run(&["scenes/buoyancy.ron", "--script", "tests/scripts/slice_box.ron", "--steps", "30"]);
    assert!(num(&r["script_frames"]) > 5.0);
    assert_eq!(num(&r["body_count"]), num(&plain["body_count"]) + 2.0, "two bodies cut in two");
    for parent in ["half_density_box", "plank"] {
        let whole = body(&plain, parent);
        let (a, b) = (body(&r, &format!("{parent}#a")), body(&r, &format!("{parent}#b")));
        let mass = num(&a["mass"]) + num(&b["mass"]);
        assert!((mass - num(&whole["mass"])).abs() < 1e-4 * num(&whole["mass"]), "{parent}: {mass} vs {whole}");
        let area = num(&a["area"]) + num(&b["area"]);
        assert!((area - num(&whole["area"])).abs() < 1e-4 * num(&whole["area"]), "{parent}: area {area}");
        assert!(r["bodies"].as_array().unwrap().iter().all(|b| b["name"] != parent), "{parent} was replaced");
        // Thirty steps after the cut (in the water): finite poses.
        for piece in [a, b] {
            for k in ["x", "y", "angle"] {
                assert!(num(&piece[k]).is_finite(), "{piece}");
            }
        }
    }
    assert_eq!(r["steps"], 30);
}

#[test]
fn a_bad_script_is_a_located_error() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let bad = dir.join("bad_script.ron");
    std::fs::write(&bad, "[\n    Do(Pause),\n    Do(Slice(from: (0, 0))),\n]").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenes/buoyancy.ron", "--script"])
        .arg(&bad)
        .output()
        .expect("the binary runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad_script.ron:3:"), "{err}");
}
