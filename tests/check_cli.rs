//! `manifold-lab check` on every kind of file the app opens: each shipped file under `scenes/`
//! (scenes, 3D worlds, every lab's presets) and a recording pass, each told by its content;
//! broken files fail with their file, line and column.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn check(files: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_manifold-lab")).current_dir(root()).arg("check").args(files).output().unwrap()
}

/// Every file below `dir` with one of `extensions`, recursively, sorted.
fn files_below(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// What `check` says a file of each shipped folder holds.
fn expected_kind(path: &Path) -> &'static str {
    let folder = path.parent().and_then(Path::file_name).and_then(|f| f.to_str()).unwrap_or("");
    match folder {
        "pairs" => "(Pair preset",
        "hulls" => "(Hulls preset",
        "hull" => "(Cloud preset",
        "toi" => "(Toi preset",
        "slice" => "(Slice preset",
        "world3d" => "(3D world:",
        _ => " bodies)",
    }
}

#[test]
fn every_shipped_file_checks_as_its_kind() {
    let files = files_below(&root().join("scenes"), &["ron", "mlrec"]);
    assert!(files.len() >= 50, "only {} files found under scenes/", files.len());
    let out = check(&files);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), files.len(), "{stdout}");
    for (line, file) in lines.iter().zip(&files) {
        assert!(line.starts_with(&format!("ok    {}", file.display())), "{line}");
        assert!(line.contains(expected_kind(file)), "{}: {line}", file.display());
    }
}

#[test]
fn a_recording_checks() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check_recording");
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("run.mlrec");
    let made = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
        .current_dir(root())
        .args(["run", "scenes/pyramid.ron", "--steps", "7", "--record"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    // Without its extension too: told by its first line.
    let bare = dir.join("run_copy");
    std::fs::copy(&rec, &bare).unwrap();
    let out = check(&[rec.clone(), bare]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(stdout.matches("(recording: 7 steps, 0 edits)").count(), 2, "{stdout}");
}

/// `error FILE:LINE:COLUMN: message` for one bad file: (line, column, message).
fn located_error(file: &Path) -> (u32, u32, String) {
    let out = check(&[file.to_path_buf()]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{}: {stdout}", file.display());
    let rest = stdout
        .strip_prefix(&format!("error {}:", file.display()))
        .unwrap_or_else(|| panic!("not located in {}: {stdout}", file.display()));
    let mut parts = rest.splitn(3, ':');
    let mut number = || parts.next().and_then(|n| n.parse::<u32>().ok()).filter(|&n| n > 0);
    let (line, column) = (number(), number());
    let (Some(line), Some(column)) = (line, column) else { panic!("no line and column: {stdout}") };
    (line, column, parts.next().unwrap_or("").trim().to_owned())
}

#[test]
fn broken_files_of_every_kind_fail_where_they_break() {
    // (file, line, column, part of the message)
    let cases = [
        ("pair_negative_radius.ron", 5, 36, "circle radius must be finite"),
        ("hulls_unknown_shape.ron", 5, 28, "unknown HullShape variant `Dodecahedron`"),
        ("cloud_nan.ron", 8, 6, "point 2 must be two finite numbers"),
        ("toi_missing_b.ron", 5, 1, "missing field `b` in Toi"),
        ("slice_zero_box.ron", 4, 41, "box half extents must be finite"),
        ("world3d_unknown_field.ron", 4, 11, "unknown field `gravty` in World3d"),
        ("unknown_kind.ron", 3, 1, "`Sandbox` is not a kind of file manifold-lab opens"),
        ("truncated.mlrec", 2, 1, "missing the `--- scene ---` line"),
        ("bad_scene.mlrec", 7, 88, "circle radius must be finite"),
    ];
    let dir = Path::new("tests/broken_presets");
    let mut files: Vec<PathBuf> = files_below(&root().join(dir), &["ron", "mlrec"]);
    files.iter_mut().for_each(|f| *f = dir.join(f.file_name().unwrap()));
    assert_eq!(files.len(), cases.len(), "every file in {} needs a case", dir.display());
    for (name, line, column, message) in cases {
        let got = located_error(&dir.join(name));
        assert_eq!((got.0, got.1), (line, column), "{name}: {}", got.2);
        assert!(got.2.contains(message), "{name}: {}", got.2);
    }
    // The broken scenes and 3D worlds too (their exact positions are the scene tests').
    for dir in ["tests/broken", "tests/broken3d"] {
        let files = files_below(&root().join(dir), &["ron"]);
        assert!(!files.is_empty(), "{dir} is empty");
        for f in files {
            located_error(&Path::new(dir).join(f.file_name().unwrap()));
        }
    }
}
