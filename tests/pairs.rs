//! The shipped pair presets (`scenes/pairs/`): each loads, saves and loads back to the same
//! configuration, shows the situation its description promises, and matches its recorded
//! manifold (`UPDATE_GOLDEN=1 cargo test --test pairs` records new ones after an intended
//! change). The recorded manifolds are checked against an independent answer: the exact f64
//! penetration and normal from the brute-force Minkowski difference (`support::exact_f64`).

mod support;

use manifold_lab::engine::collide::clip_trace::{ClipTrace, ShapeId};
use manifold_lab::engine::collide::polygon::{collide_polygons_traced, REFERENCE_FACE_TOLERANCE};
use manifold_lab::engine::collide::{collide, Manifold, ReferenceFaceRule};
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::World;
use manifold_lab::scene::{PairSpec, PresetFile};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use support::exact_f64::{exact, Core};

const GOLDEN: &str = "tests/golden/pairs.txt";

fn pair_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pairs");
    let mut v: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.retain(|p| p.extension().is_some_and(|x| x == "ron"));
    v.sort();
    v
}

fn load(name: &str) -> (PairSpec, World) {
    let p = PairSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pairs").join(name)).unwrap();
    let w = p.build_world();
    (p, w)
}

fn manifold(w: &World) -> Manifold {
    let (a, b) = (&w.bodies[0], &w.bodies[1]);
    collide(&a.shape, &a.xf, &b.shape, &b.xf, 0.0)
}

fn trace(w: &World, rule: ReferenceFaceRule) -> ClipTrace {
    let (a, b) = (&w.bodies[0], &w.bodies[1]);
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (&a.shape, &b.shape) else { panic!("polygon pair expected") };
    let mut t = ClipTrace::default();
    collide_polygons_traced(pa, &a.xf, pb, &b.xf, 0.0, rule, Some(&mut t));
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
fn every_pair_matches_its_recorded_manifold() {
    let files = pair_files();
    assert!(files.len() >= 10, "{files:?}");
    let mut actual = BTreeMap::new();
    for path in &files {
        let p = PairSpec::load(path).unwrap_or_else(|e| panic!("{e}"));
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
    let stale: Vec<&String> = expected.keys().filter(|k| !actual.contains_key(*k)).collect();
    assert!(stale.is_empty(), "{GOLDEN} records pairs that are not shipped: {stale:?}");
}

/// Every shipped pair against the exact answer: separated pairs have no point; overlapping ones
/// have the exact depth at their deepest point, or up to the reference-face tolerance deeper
/// (the default rule keeps A's face unless B's is 0.5 mm better, and the contact is as deep as
/// the overlap along its normal), and the exact normal within 1°.
#[test]
fn every_pair_matches_the_exact_f64_answer() {
    let mut checked = Vec::new();
    for path in pair_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let w = PairSpec::load(&path).unwrap().build_world();
        let (a, b) = (&w.bodies[0], &w.bodies[1]);
        let ex = exact(&Core::of(&a.shape, &a.xf), &Core::of(&b.shape, &b.xf));
        let m = manifold(&w);
        if ex.sd > 0.0 {
            assert_eq!(m.count, 0, "{name}: apart by {} but {} points", ex.sd, m.count);
            continue;
        }
        assert!(m.count > 0, "{name}: overlapping by {} without a point", -ex.sd);
        let depth = m.max_penetration() as f64;
        let tolerance = REFERENCE_FACE_TOLERANCE as f64;
        assert!(
            depth >= -ex.sd - 1e-5 && depth <= -ex.sd + tolerance + 1e-5,
            "{name}: depth {depth}, exact {}",
            -ex.sd
        );
        let angle = m.normal.as_dvec2().dot(ex.normal).clamp(-1.0, 1.0).acos().to_degrees();
        assert!(angle < 1.0, "{name}: normal {:?} is {angle}° from the exact {:?}", m.normal, ex.normal);
        checked.push(name.clone());
    }
    assert!(checked.len() >= 8, "checked against the exact answer: {checked:?}");
}

#[test]
fn each_pair_shows_what_it_promises() {
    let (_, w) = load("box_on_box.ron");
    let t = trace(&w, ReferenceFaceRule::Absolute);
    assert_eq!(t.result.count, 2);
    assert!(t.clip_stages[2].iter().any(|p| p.created_by.is_some()), "one point comes from a side plane");

    let (_, w) = load("corner_into_face.ron");
    let t = trace(&w, ReferenceFaceRule::Absolute);
    assert_eq!((t.result.count, t.kept.len(), t.rejected.len()), (1, 1, 1));

    let (_, w) = load("near_tie.ron");
    let (biased, plain) = (trace(&w, ReferenceFaceRule::Relative), trace(&w, ReferenceFaceRule::Plain));
    assert!(biased.bias_changed_choice, "the bias decides this pair");
    assert_ne!(biased.reference.unwrap().owner, plain.reference.unwrap().owner);

    let (_, w) = load("polygons.ron");
    let t = trace(&w, ReferenceFaceRule::Absolute);
    assert_eq!(t.axes.len(), 8);
    assert!(t.result.count >= 1);

    // Deep inside: the article's bias keeps a face whose side planes clip the whole incident
    // face away (one point, the deepest incident vertex); the default takes the minimum
    // translation, whose clip keeps two points as deep as the overlap along its normal.
    let (_, w) = load("deep_inside.ron");
    let t = trace(&w, ReferenceFaceRule::Relative);
    assert!(t.fallback, "the incident face is clipped away");
    assert_eq!(t.result.count, 1);
    assert!(t.result.max_penetration() > 0.4, "deep: {}", t.result.max_penetration());
    let t = trace(&w, ReferenceFaceRule::Absolute);
    assert!(!t.fallback && t.result.count == 2);
    let along = -t.axes[t.winning_axis().unwrap()].separation;
    assert!((t.result.max_penetration() - along).abs() < 1e-5, "{} vs {along}", t.result.max_penetration());

    let (_, w) = load("separated.ron");
    let t = trace(&w, ReferenceFaceRule::Absolute);
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

    // Capsules: lying across another at a small angle (two clipped points, normal along A's
    // segment normal), resting on a box (two points on the top face), and a circle against
    // a capsule's rounded end (normal from the end centre through the circle's centre).
    let (_, w) = load("capsule_capsule.ron");
    let m = manifold(&w);
    assert_eq!(m.count, 2);
    assert!((m.normal - glam::Vec2::Y).length() < 1e-5, "{:?}", m.normal);
    let (_, w) = load("capsule_box.ron");
    let m = manifold(&w);
    assert_eq!(m.count, 2);
    assert!((m.normal - glam::Vec2::Y).length() < 1e-6);
    let (_, w) = load("capsule_circle.ron");
    let m = manifold(&w);
    assert_eq!(m.count, 1);
    let Shape::Capsule(c) = w.bodies[0].shape else { panic!("capsule expected") };
    let end = w.bodies[0].xf.apply(c.center2);
    let expected = (w.bodies[1].center - end).normalize();
    assert!((m.normal - expected).length() < 1e-5, "{:?} vs {expected:?}", m.normal);
}
