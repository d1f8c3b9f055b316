//! Hull pair files (`scenes/hulls/*.ron`): every shipped file loads, builds valid hulls and
//! keeps its poses through Euler angles; the article's pair reproduces article 001's result; bad files
//! fail with file:line:column.

use manifold_lab::engine::hull3d::sat::{collide_with, ContactKind, SatConfig};
use manifold_lab::engine::hull3d::{contact_manifold, SatTrace3};
use manifold_lab::scene::{HullPlacement, HullsSpec, PresetFile};
use std::path::{Path, PathBuf};

fn hull_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/hulls");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_hull_file_loads_builds_valid_hulls_and_keeps_its_poses_through_euler_angles() {
    let files = hull_files();
    assert!(files.len() >= 7, "the presets are shipped: {files:?}");
    for path in files {
        let spec = HullsSpec::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let [a, b] = spec.world_hulls();
        for h in [&a, &b] {
            h.validate(1e-4).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        let mut trace = SatTrace3::default();
        let result = collide_with(&a, &b, &SatConfig::ROBUST, Some(&mut trace));
        assert!(!trace.axes.is_empty());
        if let Ok(c) = result {
            assert!(c.separation <= 0.0 && c.normal.is_normalized());
            let m = contact_manifold(&a, &b, &c, None);
            assert!(!m.points.is_empty() && m.points.len() <= 4);
        }
        // Saving a pose (quaternion → Euler angles) reads back to the same placement.
        let again = HullsSpec::new(
            &spec.name,
            HullPlacement::new(spec.a.shape.clone(), spec.a.pose()),
            HullPlacement::new(spec.b.shape.clone(), spec.b.pose()),
        );
        let text = again.to_ron_string().unwrap();
        let reread = HullsSpec::parse(&text, "again.ron").unwrap();
        let [a2, b2] = reread.world_hulls();
        for (h, h2) in [(&a, &a2), (&b, &b2)] {
            for (p, q) in h.positions().iter().zip(h2.positions()) {
                assert!(p.distance(*q) < 1e-4, "{}: {p} vs {q}", path.display());
            }
        }
    }
}

#[test]
fn the_article_pair_reproduces_the_article() {
    let spec =
        HullsSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/hulls/article_tetrahedron_cube.ron"))
            .unwrap();
    let [a, b] = spec.world_hulls();
    assert_eq!((a.faces().len(), b.faces().len()), (4, 6));
    for config in [SatConfig::ROBUST, SatConfig::ARTICLE, SatConfig::FAST] {
        let c = collide_with(&a, &b, &config, None).expect("the article's hulls overlap");
        assert_eq!(c.kind, ContactKind::Edges, "{config:?}");
        assert!((c.separation as f64 + 0.48856698416292277).abs() < 1e-5, "{}", c.separation);
        let mtv = [-0.17742709499097423, 0.3525922983309437, 0.2879166461579119];
        for (k, want) in mtv.iter().enumerate() {
            assert!((c.mtv[k] as f64 - want).abs() < 1e-5, "mtv {:?}", c.mtv);
        }
        let point = [-0.39404904235014193, 0.010826225559499636, 0.023658338478221408];
        for (k, want) in point.iter().enumerate() {
            assert!((c.point[k] as f64 - want).abs() < 1e-5, "point {:?}", c.point);
        }
    }
}

#[test]
fn bad_hull_files_report_file_line_and_column() {
    let text = "Hulls(\n    version: 1,\n    a: (shape: Cube(half: 1)),\n    b: (shape: Points([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (2, 3, 0)])),\n)";
    let e = HullsSpec::parse(text, "flat.ron").unwrap_err().to_string();
    assert!(e.starts_with("flat.ron:4:"), "{e}");
    assert!(e.contains("coplanar"), "the engine's message: {e}");
    let few = text.replace(", (1, 1, 0), (2, 3, 0)", "");
    let e = HullsSpec::parse(&few, "few.ron").unwrap_err().to_string();
    assert!(e.starts_with("few.ron:4:") && e.contains("at least 4 points"), "{e}");
    let typo = text.replace("Cube(half: 1)", "Cube(halve: 1)");
    let e = HullsSpec::parse(&typo, "typo.ron").unwrap_err().to_string();
    assert!(e.starts_with("typo.ron:3:") && e.contains("halve"), "{e}");
    let e = HullsSpec::load(Path::new("scenes/hulls/missing.ron")).unwrap_err().to_string();
    assert!(e.contains("missing.ron"), "{e}");
}
