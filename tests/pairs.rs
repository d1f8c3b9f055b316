//! The shipped pair presets (`scenes/pairs/`): each loads, saves and loads back to the same
//! configuration, shows the situation its description promises, and matches its recorded
//! manifold (`UPDATE_GOLDEN=1 cargo test --test pairs` records new ones after an intended
//! change).

use manifold_lab::engine::collide::clip_trace::{ClipTrace, ShapeId};
use manifold_lab::engine::collide::polygon::collide_polygons_traced;
use manifold_lab::engine::collide::{collide, Manifold};
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::World;
use manifold_lab::scene::{load_pair, parse_pair, PairSpec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const GOLDEN: &str = "tests/golden/pairs.txt";

fn pair_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pairs");
    let mut v: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.retain(|p| p.extension().is_some_and(|x| x == "ron"));
    v.sort();
    v
}

fn load(name: &str) -> (PairSpec, World) {
    let p = load_pair(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pairs").join(name)).unwrap();
    let w = p.build_world();
    (p, w)
}

fn manifold(w: &World) -> Manifold {
    let (a, b) = (&w.bodies[0], &w.bodies[1]);
    collide(&a.shape, &a.xf, &b.shape, &b.xf, 0.0)
}

fn trace(w: &World, use_bias: bool) -> ClipTrace {
    let (a, b) = (&w.bodies[0], &w.bodies[1]);
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (&a.shape, &b.shape) else { panic!("polygon pair expected") };
    let mut t = ClipTrace::default();
    collide_polygons_traced(pa, &a.xf, pb, &b.xf, 0.0, use_bias, Some(&mut t));
    t
}

fn describe(m: &Manifold) -> String {
    let mut s = format!("count {} normal ({:.5}, {:.5})", m.count, m.normal.x, m.normal.y);
    for p in m.points() {
        s += &format!(" | ({:.5}, {:.5}) depth {:.5} id {:08x}", p.point.x, p.point.y, p.penetration, p.id.0);
    }
    s
}

#[test]
fn every_pair_round_trips_and_matches_its_recorded_manifold() {
    let files = pair_files();
    assert!(files.len() >= 7, "{files:?}");
    let mut actual = BTreeMap::new();
    for path in &files {
        let p = load_pair(path).unwrap_or_else(|e| panic!("{e}"));
        let back = parse_pair(&p.to_ron_string().unwrap(), "round trip").unwrap();
        assert_eq!(back, p, "{} does not round-trip", path.display());
        let w = p.build_world();
        let again = PairSpec::from_world(&w, &p.name).unwrap();
        assert_eq!(
            (again.a.position, again.a.angle, again.b.position, again.b.angle),
            (p.a.position, p.a.angle, p.b.position, p.b.angle)
        );
        actual.insert(path.file_name().unwrap().to_string_lossy().into_owned(), describe(&manifold(&w)));
    }
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let text: String = actual.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
        std::fs::write(&golden, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&golden).expect("recorded manifolds (UPDATE_GOLDEN=1 to create)");
    let expected: BTreeMap<String, String> =
        text.lines().filter_map(|l| l.split_once(": ")).map(|(k, v)| (k.to_string(), v.to_string())).collect();
    for (k, v) in &actual {
        assert_eq!(Some(v), expected.get(k), "{k}: manifold changed");
    }
}

#[test]
fn each_pair_shows_what_it_promises() {
    let (_, w) = load("box_on_box.ron");
    let t = trace(&w, true);
    assert_eq!(t.result.count, 2);
    assert!(t.clip_stages[2].iter().any(|p| p.created_by.is_some()), "one point comes from a side plane");

    let (_, w) = load("corner_into_face.ron");
    let t = trace(&w, true);
    assert_eq!((t.result.count, t.kept.len(), t.rejected.len()), (1, 1, 1));

    let (_, w) = load("near_tie.ron");
    let (biased, plain) = (trace(&w, true), trace(&w, false));
    assert!(biased.bias_changed_choice, "the bias decides this pair");
    assert_ne!(biased.reference.unwrap().owner, plain.reference.unwrap().owner);

    let (_, w) = load("polygons.ron");
    let t = trace(&w, true);
    assert_eq!(t.axes.len(), 8);
    assert!(t.result.count >= 1);

    let (_, w) = load("deep_inside.ron");
    let t = trace(&w, true);
    assert!(t.fallback, "the incident face is clipped away");
    assert_eq!(t.result.count, 1);
    assert!(t.result.max_penetration() > 0.4, "deep: {}", t.result.max_penetration());

    let (_, w) = load("separated.ron");
    let t = trace(&w, true);
    assert_eq!(t.result.count, 0);
    let s = t.axes[t.separating_axis.unwrap()];
    assert!(s.separation > 0.0);
    assert!(matches!(s.owner, ShapeId::A | ShapeId::B));

    // The circle's centre is inside the box: pushed out through the closest face, whose
    // normal is a box face normal (the box is turned by 0.3 rad).
    let (_, w) = load("box_circle.ron");
    let m = manifold(&w);
    assert_eq!(m.count, 1);
    let box_xf = w.bodies[0].xf;
    let local_n = box_xf.q.apply_inv(m.normal);
    assert!(local_n.x.abs() < 1e-5 || local_n.y.abs() < 1e-5, "a face normal, got {local_n:?}");
    assert!(w.bodies[0].shape.test_point(&box_xf, w.bodies[1].center));
}
