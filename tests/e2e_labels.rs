//! End to end: every lab (the 3D hull lab also building a hull and stepping the clipping, the 3D dynamics lab also with
//! every pair's SAT axis labelled on the stacks) and the scene view (a selected joint, a branch
//! diff, the profiler) shot by the real binary at 1280×720 and 900×560. The screenshot's report lists the labels
//! each view placed and every egui text cut at the edge of its clip rectangle (or panel wider
//! than its room); the test holds that no two placed labels overlap, each lies inside its view
//! and no text is cut.

mod support;

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use support::x_display;

/// What is shot: a name and the `screenshot` arguments.
const SHOTS: [(&str, &[&str]); 16] = [
    ("joint", &["scenes/chain.ron", "--frames", "2", "--script", "tests/scripts/chain_joint.ron"]),
    ("branch", &["scenes/vertical_stack.ron", "--frames", "1", "--script", "tests/scripts/timeline_branch.ron"]),
    ("profiler", &["scenes/pyramid.ron", "--frames", "1", "--script", "tests/scripts/profiler.ron"]),
    ("manifold", &["--lab", "manifold", "--frames", "2", "--script", "tests/scripts/manifold_lab.ron"]),
    ("minkowski", &["--lab", "minkowski", "--frames", "2", "--script", "tests/scripts/minkowski_lab.ron"]),
    ("epa", &["--lab", "minkowski", "--frames", "2", "--script", "tests/scripts/minkowski_epa.ron"]),
    ("tree", &["--lab", "tree", "--frames", "1", "--script", "tests/scripts/tree_insert.ron"]),
    ("hull3d", &["--lab", "hull3d", "--frames", "2", "--script", "tests/scripts/hull3d_lab.ron"]),
    ("construct", &["--lab", "hull3d", "--frames", "2", "--script", "tests/scripts/hull3d_construct.ron"]),
    (
        "clip",
        &[
            "--lab",
            "hull3d",
            "scenes/hulls/cube_on_cube.ron",
            "--frames",
            "2",
            "--script",
            "tests/scripts/hull3d_clip.ron",
        ],
    ),
    (
        "clip_manifold",
        &[
            "--lab",
            "hull3d",
            "scenes/hulls/cube_on_cube.ron",
            "--frames",
            "2",
            "--script",
            "tests/scripts/hull3d_clip_manifold.ron",
        ],
    ),
    ("toi", &["--lab", "toi", "--frames", "2", "--script", "tests/scripts/toi_lab.ron"]),
    ("slice", &["--lab", "slice", "--frames", "1", "--script", "tests/scripts/slice_lab.ron"]),
    ("hull", &["--lab", "hull", "--frames", "1", "--script", "tests/scripts/hull_lab.ron"]),
    ("world3d", &["--lab", "world3d", "--frames", "2", "--script", "tests/scripts/world3d_lab.ron"]),
    (
        "sat_pile",
        &[
            "--lab",
            "world3d",
            "scenes/world3d/stack.ron",
            "--frames",
            "2",
            "--script",
            "tests/scripts/world3d_sat_pile.ron",
        ],
    ),
];

const SIZES: [(u32, u32); 2] = [(1280, 720), (900, 560)];

/// A rectangle `[x, y, w, h]` from the report.
fn rect(v: &Value) -> [f64; 4] {
    let a: Vec<f64> = v.as_array().expect("a rectangle").iter().map(|x| x.as_f64().expect("a number")).collect();
    [a[0], a[1], a[2], a[3]]
}

fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

fn inside(r: [f64; 4], view: [f64; 4]) -> bool {
    let e = 1e-3;
    r[0] >= view[0] - e
        && r[1] >= view[1] - e
        && r[0] + r[2] <= view[0] + view[2] + e
        && r[1] + r[3] <= view[1] + view[3] + e
}

/// Shoots `args` at `w`×`h` and returns the report.
fn shoot(name: &str, args: &[&str], (w, h): (u32, u32)) -> Value {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("e2e_labels_{name}_{w}x{h}.png"));
    let _ = std::fs::remove_file(&out);
    let output = x_display::output(|| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_manifold-lab"));
        c.current_dir(env!("CARGO_MANIFEST_DIR")).arg("screenshot").args(args);
        c.args(["--width", &w.to_string(), "--height", &h.to_string(), "--out"]).arg(&out);
        c
    });
    assert!(output.status.success(), "{name} at {w}x{h}: {}", String::from_utf8_lossy(&output.stderr));
    let img = image::open(&out).expect("a PNG was written");
    assert_eq!((img.width(), img.height()), (w, h), "{name}: the window's size");
    let report = std::fs::read_to_string(out.with_extension("json")).expect("the report was written");
    serde_json::from_str(&report).expect("the report parses")
}

/// The problems in one shot's report: overlapping or stray labels, cut texts. Also returns how
/// many labels were placed.
fn problems(report: &Value) -> (Vec<String>, usize) {
    let mut found = Vec::new();
    let mut placed: Vec<([f64; 4], &str)> = Vec::new();
    for view in report["labels"].as_array().expect("a list of views") {
        let v = rect(&view["view"]);
        for l in view["labels"].as_array().expect("the view's labels") {
            let text = l["text"].as_str().expect("a label's text");
            assert!(!text.is_empty(), "a label with no text");
            // The window's font is ASCII: a character with no spelling becomes '?'.
            if text.contains('?') {
                found.push(format!("label {text:?} has a character the font lacks"));
            }
            if l["elided"].as_bool().expect("elided or not") {
                assert!(l["rect"].is_null(), "an elided label has no place: {l}");
                continue;
            }
            let r = rect(&l["rect"]);
            if !inside(r, v) {
                found.push(format!("label {text:?} at {r:?} outside its view {v:?}"));
            }
            if let Some((_, other)) = placed.iter().find(|(o, _)| overlap(*o, r)) {
                found.push(format!("label {text:?} at {r:?} overlaps {other:?}"));
            }
            placed.push((r, text));
        }
    }
    for cut in report["text_cuts"].as_array().expect("a list of cut texts") {
        found.push(format!("text cut: {cut}"));
    }
    (found, placed.len())
}

#[test]
fn every_view_places_its_labels_apart_inside_the_view_and_cuts_no_text() {
    let mut failures = Vec::new();
    let mut labelled = Vec::new();
    for size in SIZES {
        for (name, args) in SHOTS {
            let (found, placed) = problems(&shoot(name, args, size));
            failures.extend(found.into_iter().map(|p| format!("{name} {}x{}: {p}", size.0, size.1)));
            if placed > 0 {
                labelled.push(name);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Not a vacuous pass: the labs that label their pictures reported placed labels.
    let labelling = ["manifold", "epa", "tree", "hull3d", "construct", "clip", "clip_manifold", "toi", "slice", "hull"];
    for lab in labelling.into_iter().chain(["world3d", "sat_pile"]) {
        assert_eq!(labelled.iter().filter(|n| **n == lab).count(), 2, "{lab}: no labels reported at one size");
    }
}

#[test]
fn a_pile_of_insertion_costs_is_spread_or_elided() {
    // The tree lab after "Insert one" at the smaller size: the visited candidates' costs
    // crowd the corners they share, so some move off their anchor, and none overlap.
    let report = shoot("tree_pile", SHOTS[6].1, SIZES[1]);
    let (found, placed) = problems(&report);
    assert!(found.is_empty(), "{}", found.join("\n"));
    let labels: Vec<&Value> =
        report["labels"].as_array().unwrap().iter().flat_map(|v| v["labels"].as_array().unwrap()).collect();
    let moved = labels
        .iter()
        .filter(|l| !l["rect"].is_null())
        .filter(|l| {
            let (r, a) = (rect(&l["rect"]), &l["anchor"]);
            let (ax, ay) = (a[0].as_f64().unwrap(), a[1].as_f64().unwrap());
            !(r[0] <= ax && ax <= r[0] + r[2] && r[1] <= ay && ay <= r[1] + r[3])
        })
        .count();
    assert!(placed > 5 && moved > 0, "{placed} placed, {moved} moved off their anchor");
}
