//! Drawing truth for the contact inspector: for every pair of shape kinds, in many poses, the
//! rows the inspector writes for each contact point are parsed back and checked against the
//! geometry of the contact: a named reference face has the manifold's normal and is the same
//! for both points, named vertices and ends bound the named edges and lie in the points'
//! order along the face, a named deepest vertex is where the point is, a named closest
//! feature is the closest one.

use crate::app::tools::inspector::features::Feature;
use crate::app::tools::inspector::ui::feature_rows;
use crate::app::tools::inspector::{contact_info, ContactInfo, ContactRef};
use glam::Vec2;
use manifold_lab::engine::body::{BodyDef, BodyKind};
use manifold_lab::engine::collide::segment::segment_distance;
use manifold_lab::engine::collide::ReferenceFaceRule;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::engine::solver::{Contact, SolverParams};
use manifold_lab::engine::World;
use manifold_lab::scene::PresetFile;
use std::collections::BTreeMap;

/// A feature parsed back from the inspector's text, e.g. `vertex B2`.
fn parse_feature(text: &str) -> Feature {
    let (kind, rest) = text.rsplit_once(' ').unwrap_or_else(|| panic!("no feature in {text:?}"));
    let kind = ["vertex", "edge", "end", "side", "segment", "circle"]
        .into_iter()
        .find(|k| kind.ends_with(k))
        .unwrap_or_else(|| panic!("unknown kind in {text:?}"));
    let shape = rest.chars().next().filter(|c| *c == 'A' || *c == 'B').unwrap_or_else(|| panic!("{text:?}"));
    let index = (rest.len() > 1).then(|| rest[1..].parse().unwrap_or_else(|e| panic!("{text:?}: {e}")));
    Feature { shape, kind, index }
}

/// The rows of one point: the kind, the reference face, the point's features with roles.
struct Rows {
    kind: String,
    reference: Option<Feature>,
    items: Vec<(String, Feature)>,
}

fn parse_rows(info: &ContactInfo) -> Rows {
    let [(_, id), (_, reference), (_, features)] = feature_rows(info);
    assert!(id.starts_with(&format!("{:08x} (", info.feature_id)), "{id}");
    let kind = id[10..].trim_end_matches(" contact)").to_string();
    let reference = (reference != "none").then(|| parse_feature(&reference));
    let items = features
        .split(", ")
        .map(|item| {
            let words: Vec<&str> = item.split(' ').collect();
            let n = words.len();
            assert!(n >= 2, "{item:?}");
            (words[..n - 2].join(" "), parse_feature(&words[n - 2..].join(" ")))
        })
        .collect();
    Rows { kind, reference, items }
}

/// A body's shape and the pose the manifold was computed at.
struct Side<'a> {
    shape: &'a Shape,
    xf: Transform,
}

impl Side<'_> {
    fn polygon(&self) -> Option<&Polygon> {
        match self.shape {
            Shape::Polygon(p) => Some(p),
            _ => None,
        }
    }

    /// The world positions of vertices (polygons) or segment ends (capsules).
    fn corners(&self) -> Vec<Vec2> {
        match self.shape {
            Shape::Polygon(p) => p.world_vertices(&self.xf).collect(),
            Shape::Capsule(c) => vec![self.xf.apply(c.center1), self.xf.apply(c.center2)],
            Shape::Circle(_) => vec![self.xf.p],
        }
    }

    /// The outward world normals of the edges (a capsule's sides: 0 to the right of end 0 → 1).
    fn normals(&self) -> Vec<Vec2> {
        let c = self.corners();
        (0..c.len()).map(|e| (c[(e + 1) % c.len()] - c[e]).perp().normalize() * -1.0).collect()
    }
}

/// Every shape kind in a few sizes.
fn shapes() -> Vec<(&'static str, Shape)> {
    let pentagon = [(-0.6, -0.4), (0.7, -0.5), (0.9, 0.3), (0.1, 0.8), (-0.7, 0.4)].map(|(x, y)| Vec2::new(x, y));
    vec![
        ("box", Shape::make_box(Vec2::new(0.8, 0.4)).unwrap()),
        ("pentagon", Shape::Polygon(Polygon::new(&pentagon).unwrap())),
        ("circle", Shape::circle(0.5).unwrap()),
        ("capsule", Shape::capsule(Vec2::new(-0.6, 0.0), Vec2::new(0.6, 0.1), 0.3).unwrap()),
    ]
}

fn world_of(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> World {
    world_with(a, xa, b, xb, Default::default())
}

/// [`world_of`] with polygon pairs' reference face chosen by `rule`.
fn world_with(a: &Shape, xa: Transform, b: &Shape, xb: Transform, rule: ReferenceFaceRule) -> World {
    let mut w = World::new(SolverParams { reference_face: rule, ..Default::default() });
    for (kind, shape, xf) in [(BodyKind::Static, a, xa), (BodyKind::Dynamic, b, xb)] {
        let mut def = BodyDef::new(kind, *shape, xf.p);
        def.angle = xf.q.angle();
        w.create_body(&def);
    }
    w.refresh_contacts();
    w
}

/// Checks every point of the world's one contact; returns the kinds of id seen.
fn check_contact(w: &World, c: &Contact, seen: &mut BTreeMap<String, usize>) {
    let xf = |i: usize| c.origin.map_or(w.bodies[i].start_transform(), |o| if i == 0 { o.xf_a } else { o.xf_b });
    let sides = [Side { shape: &w.bodies[0].shape, xf: xf(0) }, Side { shape: &w.bodies[1].shape, xf: xf(1) }];
    let side = |f: &Feature| &sides[usize::from(f.shape == 'B')];
    let n = c.normal();
    let infos: Vec<ContactInfo> = (0..c.manifold.count)
        .map(|k| contact_info(w, ContactRef { a: 0, b: 1, point: k, shape_pair: 0 }).unwrap())
        .collect();
    let rows: Vec<Rows> = infos.iter().map(parse_rows).collect();
    for (info, r) in infos.iter().zip(&rows) {
        let what = format!("{:08x} {:?} {:?}", info.feature_id, feature_rows(info), c.manifold);
        *seen
            .entry(format!("{} {}", r.kind, r.items.iter().map(|i| i.0.as_str()).collect::<Vec<_>>().join("/")))
            .or_default() += 1;
        assert_eq!(r.reference, rows[0].reference, "one reference face per manifold: {what}");
        // A reference face's outward normal is the manifold's, from the reference shape.
        if let Some(f) = r.reference.filter(|f| f.kind != "segment") {
            let toward = if f.shape == 'A' { n } else { -n };
            let normals = side(&f).normals();
            let e = f.index.unwrap();
            let best = normals.iter().map(|m| m.dot(toward)).fold(f32::MIN, f32::max);
            assert!(normals[e].dot(toward) > 0.99 && normals[e].dot(toward) >= best - 1e-5, "{what}");
        }
        if let Some(f) = r.reference.filter(|f| f.kind == "segment") {
            let c = side(&f).corners();
            assert!((c[1] - c[0]).normalize().dot(n).abs() < 1e-3, "the normal is square to the segment: {what}");
        }
        for (role, f) in &r.items {
            let other = &sides[usize::from(f.shape == 'A')];
            check_item(role, f, (side(f), other), &r.reference.map(|f| (f, side(&f))), info, n, &what);
        }
    }
    // Two points: the named vertices (ends) are in the points' order along the face.
    if rows.len() == 2 {
        let t = n.perp();
        for role in ["reference", "incident", "clipped"] {
            let named: Vec<Vec2> = rows
                .iter()
                .filter_map(|r| r.items.iter().find(|(ro, f)| ro == role && (f.kind == "vertex" || f.kind == "end")))
                .map(|(_, f)| side(f).corners()[f.index.unwrap()])
                .collect();
            if let [p, q] = named[..] {
                let (a, b) = (infos[0].point, infos[1].point);
                assert_eq!(t.dot(p) < t.dot(q), t.dot(a) < t.dot(b), "{role} order: {:?}", feature_rows(&infos[0]));
            }
        }
    }
}

/// Checks one named feature of a point against the geometry.
fn check_item(
    role: &str,
    f: &Feature,
    (s, other): (&Side, &Side),
    reference: &Option<(Feature, &Side)>,
    info: &ContactInfo,
    n: Vec2,
    what: &str,
) {
    let corners = s.corners();
    let count = corners.len();
    match (role, f.kind) {
        ("reference", "vertex" | "end") => {
            let (r, _) = reference.expect("a reference vertex has a reference face");
            let (e, v) = (r.index.unwrap(), f.index.unwrap());
            assert!(r.shape == f.shape && (v == e || v == (e + 1) % count), "a vertex of the face: {what}");
        }
        ("incident", "edge" | "side") => {
            let (r, rs) = reference.expect("an incident edge faces a reference face");
            let rn = rs.normals()[r.index.unwrap()];
            let dots: Vec<f32> = s.normals().iter().map(|m| m.dot(rn)).collect();
            let least = dots.iter().copied().fold(f32::MAX, f32::min);
            assert!(dots[f.index.unwrap()] <= least + 1e-5, "the most anti-parallel edge: {what}");
        }
        ("incident", "vertex" | "end") => {
            // An end of the incident edge named beside it (checked through the item list's
            // order: the edge is named after the vertex).
            let edges = s.normals();
            let dots: Vec<f32> = edges.iter().map(|m| m.dot(-n_toward(reference, n))).collect();
            let j = (0..count).max_by(|&x, &y| dots[x].total_cmp(&dots[y])).unwrap();
            let v = f.index.unwrap();
            assert!(v == j || v == (j + 1) % count, "an end of the incident edge {j}: {what}");
        }
        ("deepest", "vertex") => {
            let v = corners[f.index.unwrap()];
            assert!((info.point.distance(v) - 0.5 * info.separation.abs()).abs() < 1e-4, "at the vertex: {what}");
        }
        ("closest", "edge") => {
            let toward = if f.shape == 'A' { n } else { -n };
            assert!(s.normals()[f.index.unwrap()].dot(toward) > 0.999, "the edge's normal: {what}");
        }
        ("closest", "vertex") if s.polygon().is_some() => {
            // Nearest to the point of all the polygon's vertices, up to the other shape's radius.
            let v = corners[f.index.unwrap()];
            let nearest = corners.iter().map(|c| c.distance(info.point)).fold(f32::MAX, f32::min);
            assert!(v.distance(info.point) <= nearest + 1e-4, "the nearest vertex: {what}");
        }
        ("closest", "end" | "side" | "segment") if count == 2 => {
            let u = closest_fraction(&corners, other);
            match (f.kind, f.index) {
                ("end", Some(0)) => assert!(u < 1e-3, "end 0: {what}"),
                ("end", Some(1)) => assert!(u > 1.0 - 1e-3, "end 1: {what}"),
                ("side", None) => assert!(u > 0.0 && u < 1.0, "the side: {what}"),
                ("segment", None) => assert!(u > 1e-4, "past end 0: {what}"),
                _ => panic!("{what}"),
            }
        }
        ("clipped", "end") => {
            let (r, rs) = reference.expect("clipped onto a reference segment");
            assert_ne!(r.shape, f.shape, "{what}");
            let c = rs.corners();
            let (p, q) = (c[0], c[1]);
            let u = (info.point - p).dot(q - p) / (q - p).length_squared();
            assert!((-1e-3..=1.0 + 1e-3).contains(&u), "within the reference segment: {what}");
        }
        ("", "circle") => assert!(matches!(s.shape, Shape::Circle(_)), "{what}"),
        _ => panic!("unexpected item {role} {f}: {what}"),
    }
}

/// Where along segment `ends` its closest point to the other shape lies (0 at end 0, 1 at
/// end 1): to a circle's centre, a capsule's segment, a polygon's nearest vertex.
fn closest_fraction(ends: &[Vec2], other: &Side) -> f32 {
    let (p, q) = (ends[0], ends[1]);
    let along = |x: Vec2| ((x - p).dot(q - p) / (q - p).length_squared()).clamp(0.0, 1.0);
    let o = other.corners();
    match other.shape {
        Shape::Capsule(_) => segment_distance(p, q, o[0], o[1]).fraction1,
        _ => {
            let dist = |x: Vec2| x.distance(p.lerp(q, along(x)));
            along(o.iter().copied().min_by(|x, y| dist(*x).total_cmp(&dist(*y))).unwrap())
        }
    }
}

/// The reference face's outward normal (from the reference shape), or the manifold's.
fn n_toward(reference: &Option<(Feature, &Side)>, n: Vec2) -> Vec2 {
    reference.map_or(n, |(r, _)| if r.shape == 'A' { n } else { -n })
}

#[test]
fn every_pair_kinds_inspector_text_names_the_contacts_features() {
    let mut rng = SplitMix64::new(33);
    let mut seen = BTreeMap::new();
    let mut pairs = BTreeMap::new();
    for (name_a, a) in shapes() {
        for (name_b, b) in shapes() {
            let mut found = 0;
            for _ in 0..300 {
                let xa = Transform::new(rng.vec2(-1.0, 1.0), rng.f32(-3.2, 3.2));
                let xb = Transform::new(xa.p + rng.vec2(-1.6, 1.6), rng.f32(-3.2, 3.2));
                let w = world_of(&a, xa, &b, xb);
                if let Some(c) = w.contacts.first() {
                    check_contact(&w, c, &mut seen);
                    found += 1;
                }
            }
            // Resting flat: two points on one face.
            let flat = Transform::new(Vec2::new(0.05, 0.0), 0.0);
            let w = world_of(&a, flat, &b, Transform::new(Vec2::new(0.1, 0.85), 0.0));
            if let Some(c) = w.contacts.first() {
                check_contact(&w, c, &mut seen);
            }
            assert!(found > 30, "{name_a}-{name_b}: only {found} poses in contact");
            pairs.insert(format!("{name_a}-{name_b}"), found);
        }
    }
    // Every kind of id was decoded and checked, with each of its readings.
    for kind in [
        "face reference/incident/incident",
        "vertex closest/closest",
        "circle closest/",
        "circle /",
        "capsule closest/",
        "capsule clipped",
        "capsule closest/closest",
    ] {
        assert!(seen.get(kind).is_some_and(|&k| k > 3), "{kind} checked: {seen:?} over {pairs:?}");
    }
}

#[test]
fn both_points_of_a_box_on_a_floor_share_the_floors_top_face() {
    let floor = Shape::make_box(Vec2::new(5.0, 0.5)).unwrap();
    let block = Shape::make_box(Vec2::new(0.5, 0.5)).unwrap();
    let w =
        world_of(&floor, Transform::new(Vec2::new(0.0, -0.5), 0.0), &block, Transform::new(Vec2::new(0.0, 0.49), 0.0));
    let rows: Vec<[(&str, String); 3]> = (0..2)
        .map(|k| feature_rows(&contact_info(&w, ContactRef { a: 0, b: 1, point: k, shape_pair: 0 }).unwrap()))
        .collect();
    // The floor's top edge is its edge 2 (vertices 2 and 3 of the box, counter-clockwise from
    // the lower left); both points name it, each with its own end of it.
    assert_eq!(rows[0][1].1, "edge A2");
    assert_eq!(rows[1][1].1, "edge A2");
    let ends: Vec<&str> = rows.iter().map(|r| r[2].1.split(", ").next().unwrap()).collect();
    let mut sorted = ends.clone();
    sorted.sort();
    assert_eq!(sorted, ["reference vertex A2", "reference vertex A3"], "{rows:?}");
}

#[test]
fn every_pair_fixture_and_its_neighbourhood_is_named_truly() {
    // The shipped pairs and poses around each, with the default reference-face rule and the
    // article's (under which deep inside keeps the deepest vertex: clipping leaves nothing).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pairs");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let (mut rng, mut seen) = (SplitMix64::new(7), BTreeMap::new());
    for path in files.iter().filter(|p| p.extension().is_some_and(|x| x == "ron")) {
        let spec = manifold_lab::scene::PairSpec::load(path).unwrap_or_else(|e| panic!("{e}"));
        let (a, b) = (spec.a.shape.shape(), spec.b.shape.shape());
        for k in 0..60 {
            let jitter = if k == 0 { 0.0 } else { 1.0 };
            let pose = |p: Vec2, angle: f32, rng: &mut SplitMix64| {
                Transform::new(p + jitter * rng.vec2(-0.05, 0.05), angle + jitter * rng.f32(-0.1, 0.1))
            };
            let xa = pose(spec.a.position, spec.a.angle, &mut rng);
            let xb = pose(spec.b.position, spec.b.angle, &mut rng);
            for rule in [ReferenceFaceRule::Absolute, ReferenceFaceRule::Relative] {
                let w = world_with(&a, xa, &b, xb, rule);
                if let Some(c) = w.contacts.first() {
                    check_contact(&w, c, &mut seen);
                }
            }
        }
    }
    assert!(seen.get("vertex deepest").is_some_and(|&k| k > 3), "{seen:?}");
}
