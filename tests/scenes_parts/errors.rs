//! Broken scene files: each error names the file, the line and column of the offending
//! value, and what was wrong.

use super::root;
use manifold_lab::scene;
use std::path::Path;

struct Broken {
    file: &'static str,
    line: usize,
    /// Text on that line the column must point into (or just after).
    at: &'static str,
    keywords: &'static [&'static str],
}

const BROKEN: &[Broken] = &[
    Broken { file: "syntax_error.ron", line: 7, at: "(0.0, 4.0) shape", keywords: &["expected comma"] },
    Broken {
        file: "unknown_shape.ron",
        line: 10,
        at: "Triangle",
        keywords: &["body 1 \"wedge\"", "unknown Shape variant `Triangle`", "`Circle`, `Box`, `Polygon`, `Hull`"],
    },
    Broken {
        file: "negative_radius.ron",
        line: 10,
        at: "Circle(radius: -0.5)",
        keywords: &["body 1 \"ball\"", "`Circle`", "radius", "got -0.5"],
    },
    Broken {
        file: "negative_rounding.ron",
        line: 10,
        at: "Box(half_extents: (0.5, 0.25), radius: -0.1)",
        keywords: &["body 1 \"pill\"", "`Box`", "polygon radius", "finite", "got -0.1"],
    },
    Broken {
        file: "zero_box.ron",
        line: 10,
        at: "Box(half_extents: (0.5, 0.0))",
        keywords: &["generator 0", "`Box`", "half extents", "got (0.5, 0)"],
    },
    Broken {
        file: "non_convex.ron",
        line: 8,
        at: "Polygon(points: [(0.0, 0.0), (2.0, 0.0), (1.0, 0.5), (1.0, 2.0)])",
        keywords: &["body 1 \"dart\"", "not strictly convex", "point 2", "Hull"],
    },
    Broken {
        file: "nan_value.ron",
        line: 10,
        at: "(NaN, 4.0)",
        keywords: &["body 1 \"box\"", "`position`", "finite", "NaN"],
    },
    Broken {
        file: "missing_field.ron",
        line: 7,
        at: "(name: \"floating\", shape: Circle(radius: 0.5))",
        keywords: &["body 1 \"floating\"", "missing field `position`"],
    },
    Broken { file: "bad_version.ron", line: 4, at: "2", keywords: &["unsupported", "`version` 2", "version 1"] },
    Broken { file: "bad_settings.ron", line: 8, at: "0", keywords: &["settings", "`substeps`", "between 1 and 64"] },
    Broken {
        file: "unknown_field.ron",
        line: 7,
        at: "colour",
        keywords: &["body 1 \"ball\"", "unknown field `colour`", "`position`", "`restitution`"],
    },
    Broken {
        file: "too_many_bodies.ron",
        line: 7,
        at: "Rain(columns: 150, rows: 150, shapes: [Circle(radius: 0.4)])",
        keywords: &["generator 1", "generator's 22500 bodies", "limit of 30000", "explicit and generated together"],
    },
    Broken {
        file: "joint_unknown_body.ron",
        line: 6,
        at: "\"lnk2\"",
        keywords: &["joint 1", "no body named \"lnk2\"", "did you mean \"link2\""],
    },
    Broken { file: "joint_self.ron", line: 8, at: "\"wheel\", anchor", keywords: &["joint 0", "two different bodies"] },
    Broken {
        file: "joint_static_pair.ron",
        line: 8,
        at: "\"right\"",
        keywords: &["joint 0", "at least one dynamic body", "\"left\" is Static"],
    },
    Broken {
        file: "joint_limits.ron",
        line: 10,
        at: "0.5, upper",
        keywords: &["joint 0", "`lower` (0.5)", "`upper` (-0.5)"],
    },
    Broken { file: "joint_length.ron", line: 9, at: "0.0)", keywords: &["joint 0", "`length` must be positive"] },
    Broken { file: "joint_nan.ron", line: 9, at: "NaN", keywords: &["joint 0", "`motor_speed`", "finite", "NaN"] },
    Broken {
        file: "zero_capsule.ron",
        line: 6,
        at: "Capsule(center1: (0.2, 0.0), center2: (0.2, 0.0), radius: 0.3)",
        keywords: &["body 1 \"pill\"", "`Capsule`", "segment length", "Circle"],
    },
    Broken {
        file: "hull_collinear.ron",
        line: 8,
        at: "Hull(points: [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (0.5, 0.5), (3.0, 3.0)])",
        keywords: &["body 1 \"needle\"", "collinear"],
    },
    Broken {
        file: "hull_duplicates.ron",
        line: 8,
        at: "Hull(points: [(0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (1.0, 0.0)])",
        keywords: &["body 1 \"pair\"", "at least 3 distinct points, got 2"],
    },
    Broken {
        file: "compound_both.ron",
        line: 7,
        at: "shapes: [(shape: Box(half_extents: (0.5, 0.5)))]",
        keywords: &["body 1 \"both\"", "either one `shape` or a list of `shapes`, not both"],
    },
    Broken {
        file: "awake_static.ron",
        line: 7,
        at: "awake: false)",
        keywords: &["body 1 \"ground\"", "only a dynamic body can start asleep", "Static"],
    },
    Broken {
        file: "compound_empty.ron",
        line: 7,
        at: "shapes: []",
        keywords: &["body 1 \"nothing\"", "`shapes` must list at least one shape"],
    },
    Broken {
        file: "zero_density.ron",
        line: 7,
        at: "density: 0.0)",
        keywords: &["body 1 \"ghost\"", "`density` must be > 0 for a dynamic body"],
    },
];

#[test]
fn broken_files_report_file_line_column_and_cause() {
    let dir = root().join("tests/broken");
    let mut seen = 0;
    for case in BROKEN {
        let path = dir.join(case.file);
        let text = std::fs::read_to_string(&path).unwrap();
        let err = scene::load(&path).expect_err(case.file).to_string();
        let prefix = format!("{}:{}:", path.display(), case.line);
        assert!(err.starts_with(&prefix), "{}: expected line {}, got: {err}", case.file, case.line);
        let col: usize = err[prefix.len()..].split(':').next().unwrap().parse().expect("a column");
        let line = text.lines().nth(case.line - 1).unwrap();
        // The value sits on this line and the column points into it or just after it.
        let start =
            line.find(case.at).unwrap_or_else(|| panic!("{}: `{}` not on line {}", case.file, case.at, case.line)) + 1;
        let end = start + case.at.len();
        assert!((start..=end).contains(&col), "{}: column {col} outside {start}..={end}: {err}", case.file);
        for k in case.keywords {
            assert!(err.contains(k), "{}: `{k}` missing from: {err}", case.file);
        }
        seen += 1;
    }
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(seen, files, "every file in tests/broken needs a case");
}

#[test]
fn io_errors_name_the_file() {
    let err = scene::load(Path::new("scenes/does_not_exist.ron")).unwrap_err().to_string();
    assert!(err.starts_with("scenes/does_not_exist.ron: "), "{err}");
}

#[test]
fn unknown_generators_and_kinds_list_the_choices() {
    let err = scene::parse("Scene(version: 1, generators: [Tower(count: 3)])", "t.ron").unwrap_err().to_string();
    assert!(err.starts_with("t.ron:1:"), "{err}");
    assert!(err.contains("`Tower`") && err.contains("`Pyramid`, `Stack`, `Rain`"), "{err}");
    let err =
        scene::parse("Scene(version: 1, bodies: [(kind: Fixed, position: (0, 0), shape: Circle(radius: 1))])", "t.ron")
            .unwrap_err()
            .to_string();
    assert!(err.contains("`Static`, `Kinematic`, `Dynamic`"), "{err}");
    let err = scene::parse("Scene(name: \"x\")", "t.ron").unwrap_err().to_string();
    assert!(err.contains("missing field `version`"), "{err}");
}
