//! The 3D SAT picture without a window: what `SatView3` records into a `DebugList3` for known
//! pairs, checked against independent truth. Article 001's worked example (its printed contact
//! point, MTV and deciding edge pair, its printed face normals for the best face axes, the
//! projection intervals from its vertex arrays), cube on cube (the clipped face manifold from
//! the box corners by hand), a separated pair, the Gauss maps, and every layer switched off
//! on its own.

use glam::{DVec3, Vec3};
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::debug::OnLayer;
use manifold_lab::engine::debug3::{DebugList3, DrawCmd3, Layer3, LayerSet3};
use manifold_lab::engine::hull3d::sat::SatConfig;
use manifold_lab::engine::hull3d::{SatDrawOptions3, SatView3, SAT_LAYERS};
use manifold_lab::engine::trace::Trace3;
use manifold_lab::scene::{HullsSpec, PresetFile};

fn view(file: &str, config: &SatConfig) -> SatView3 {
    let spec = HullsSpec::load(&std::path::Path::new("scenes/hulls").join(file)).unwrap_or_else(|e| panic!("{e}"));
    let local = [spec.a.shape.hull().clone(), spec.b.shape.hull().clone()];
    SatView3::compute(&local, &[spec.a.pose(), spec.b.pose()], config)
}

fn record(v: &SatView3, layers: LayerSet3, selected: Option<usize>) -> DebugList3 {
    let mut list = DebugList3::new(layers);
    v.draw(&SatDrawOptions3 { selected, ..Default::default() }, &mut list);
    list
}

fn all() -> LayerSet3 {
    LayerSet3::of(&SAT_LAYERS)
}

fn d(v: [f64; 3]) -> DVec3 {
    DVec3::from_array(v)
}

fn close(a: Vec3, b: DVec3, tol: f64) -> bool {
    (a.as_dvec3() - b).length() < tol
}

fn texts(list: &DebugList3, layer: Layer3) -> Vec<String> {
    list.on(layer)
        .filter_map(|c| match c {
            DrawCmd3::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn segments(list: &DebugList3, layer: Layer3) -> Vec<[Vec3; 2]> {
    list.on(layer)
        .filter_map(|c| match c {
            DrawCmd3::Segment { a, b, .. } => Some([*a, *b]),
            _ => None,
        })
        .collect()
}

fn polygons(list: &DebugList3, layer: Layer3) -> Vec<Vec<Vec3>> {
    list.on(layer)
        .filter_map(|c| match c {
            DrawCmd3::Polygon { points, .. } => Some(points.clone()),
            _ => None,
        })
        .collect()
}

fn points(list: &DebugList3, layer: Layer3) -> Vec<(Vec3, f32)> {
    list.on(layer)
        .filter_map(|c| match c {
            DrawCmd3::Point { p, size, .. } => Some((*p, *size)),
            _ => None,
        })
        .collect()
}

// Article 001's example, as printed: the tetrahedron (A) and cube (B) vertex arrays, their face
// lists, and the output.
const A: [[f64; 3]; 4] = [
    [-0.015474963193511798, 0.33537417751658094, -0.1404996212167574],
    [0.5141696198411252, -0.9568235666566539, -0.35124017154634457],
    [-1.0335072548392017, -0.5373752088540689, 0.30094133605231416],
    [-0.6342374754213884, -0.1119237570390201, -1.3282023008556973],
];
const A_FACES: [&[usize]; 4] = [&[0, 1, 2], &[0, 2, 3], &[0, 3, 1], &[1, 2, 3]];
const B: [[f64; 3]; 8] = [
    [-1.2969646066524665, -0.14439705019398202, 0.08105014237762323],
    [-0.5917402473790571, -0.34852692650445355, 0.7656251200986752],
    [0.09283473034199496, -0.43133948655379123, 0.0361372975730391],
    [-0.6123896289314145, -0.2272096102433197, -0.648437680148013],
    [-1.092834730341995, 0.8313394865537913, 0.1638627024269609],
    [-0.38761037106858554, 0.6272096102433198, 0.8484376801480129],
    [0.2969646066524665, 0.5443970501939821, 0.11894985762237678],
    [-0.40825975262094294, 0.7485269265044536, -0.5656251200986753],
];
const B_FACES: [&[usize]; 6] =
    [&[0, 1, 2, 3], &[4, 5, 6, 7], &[0, 1, 4, 5], &[1, 2, 5, 6], &[2, 3, 6, 7], &[3, 0, 7, 4]];
const MTV: [f64; 3] = [-0.17742709499097423, 0.3525922983309437, 0.2879166461579119];
const POINT: [f64; 3] = [-0.39404904235014193, 0.010826225559499636, 0.023658338478221408];
const NORMAL: [f64; 3] = [-0.363158176344981, 0.7216867077808199, 0.5893084377185425];

/// The best face axis of one hull, by brute force in f64: the face whose plane has the other
/// hull's vertices furthest in front of it at their deepest. (The article's printed normals
/// hold about three digits, so the planes come from its vertices and face lists.)
fn best_face(own: &[[f64; 3]], faces: &[&[usize]], other: &[[f64; 3]]) -> (DVec3, f64) {
    let centroid = own.iter().map(|&p| d(p)).sum::<DVec3>() / own.len() as f64;
    faces
        .iter()
        .map(|f| {
            let [p, q, r] = [f[0], f[1], f[2]].map(|i| d(own[i]));
            let n = (q - p).cross(r - p).normalize();
            let n = if n.dot(p - centroid) < 0.0 { -n } else { n };
            (n, other.iter().map(|&x| n.dot(d(x) - p)).fold(f64::INFINITY, f64::min))
        })
        .fold((DVec3::ZERO, f64::NEG_INFINITY), |best, x| if x.1 > best.1 { x } else { best })
}

fn polygon_normal(poly: &[Vec3]) -> DVec3 {
    let p: Vec<DVec3> = poly.iter().map(|q| q.as_dvec3()).collect();
    (p[1] - p[0]).cross(p[2] - p[0]).normalize()
}

#[test]
fn article_example_draws_its_winning_edge_pair_contact_and_mtv() {
    for config in [SatConfig::ROBUST, SatConfig::ARTICLE, SatConfig::FAST] {
        let v = view("article_tetrahedron_cube.ron", &config);
        let list = record(&v, all(), None);
        // The deciding axis: A's edge 1 (vertices 0, 2) against B's edge 2 (vertices 2, 3).
        let win = segments(&list, Layer3::SatAxis);
        assert_eq!(win.len(), 2, "{config:?}: both edges of the winning pair");
        let same = |s: [Vec3; 2], p: [f64; 3], q: [f64; 3]| {
            (close(s[0], d(p), 1e-5) && close(s[1], d(q), 1e-5)) || (close(s[0], d(q), 1e-5) && close(s[1], d(p), 1e-5))
        };
        assert!(same(win[0], A[0], A[2]), "{config:?}: A's edge {:?}", win[0]);
        assert!(same(win[1], B[2], B[3]), "{config:?}: B's edge {:?}", win[1]);
        let label = texts(&list, Layer3::SatAxis);
        // Named as the article prints it (`index: [ 1, 2 ]`).
        assert!(label.len() == 1 && label[0] == "edges 1 x 2  -0.489  WINNER", "{label:?}");
        // The article's contact point, and the MTV from it.
        let contacts = points(&list, Layer3::Contact);
        assert_eq!(contacts.len(), 1);
        assert!(close(contacts[0].0, d(POINT), 1e-5), "{:?}", contacts[0].0);
        let arrows: Vec<_> = list.on(Layer3::Mtv).filter(|c| matches!(c, DrawCmd3::Arrow { .. })).collect();
        let [DrawCmd3::Arrow { from, to, .. }] = arrows[..] else { panic!("one MTV arrow: {arrows:?}") };
        assert!(close(*from, d(POINT), 1e-5) && close(*to, d(POINT) + d(MTV), 1e-5), "{from} -> {to}");
        assert_eq!(texts(&list, Layer3::Mtv), ["MTV 0.489"]);
        assert_eq!(texts(&list, Layer3::Label), ["A", "B"]);
    }
}

#[test]
fn article_example_outlines_each_hulls_best_face_axis() {
    let v = view("article_tetrahedron_cube.ron", &SatConfig::ROBUST);
    let list = record(&v, all(), None);
    let faces = polygons(&list, Layer3::BestFace);
    let labels = texts(&list, Layer3::BestFace);
    assert_eq!((faces.len(), labels.len()), (2, 2), "the best face of A and of B");
    let want = [best_face(&A, &A_FACES, &B), best_face(&B, &B_FACES, &A)];
    for (i, (n, sep)) in want.into_iter().enumerate() {
        assert!(polygon_normal(&faces[i]).dot(n) > 1.0 - 1e-6, "hull {i}: {faces:?}");
        let printed = format!("{sep:+.3}");
        assert!(
            labels[i].starts_with(["A face", "B face"][i]) && labels[i].ends_with(&printed),
            "{labels:?} {printed}"
        );
    }
    // The best face of each hull is filled brighter than its other faces.
    let fills: Vec<f32> = list
        .on(Layer3::Shape)
        .filter_map(|c| if let DrawCmd3::Polygon { fill, .. } = c { Some(fill.a) } else { None })
        .collect();
    assert_eq!(fills.len(), 4 + 6);
    assert_eq!(fills.iter().filter(|a| **a > 0.5).count(), 2);
    // The best edge pair is the winner, so it is drawn once, as the deciding axis.
    assert_eq!(list.count(Layer3::BestEdge), 0);
    assert_eq!(list.count(Layer3::Edge), 6 + 12);
}

#[test]
fn a_selected_axis_shows_both_projection_intervals() {
    let v = view("article_tetrahedron_cube.ron", &SatConfig::ROBUST);
    for k in [0, 5, v.trace.winner.unwrap()] {
        let n = v.trace.axes[k].axis.as_dvec3();
        let mut list = DebugList3::new(all());
        v.draw_step(k, &mut list);
        let bars = polygons(&list, Layer3::Projection);
        assert_eq!(bars.len(), 2, "axis {k}");
        for (i, cloud) in [&A[..], &B[..]].into_iter().enumerate() {
            let dots = cloud.iter().map(|&p| d(p).dot(n));
            let (lo, hi) = (dots.clone().fold(f64::INFINITY, f64::min), dots.fold(f64::NEG_INFINITY, f64::max));
            let along = bars[i].iter().map(|p| p.as_dvec3().dot(n));
            let (blo, bhi) = (along.clone().fold(f64::INFINITY, f64::min), along.fold(f64::NEG_INFINITY, f64::max));
            assert!(
                (blo - lo).abs() < 1e-4 && (bhi - hi).abs() < 1e-4,
                "axis {k} hull {i}: [{blo}, {bhi}] vs [{lo}, {hi}]"
            );
        }
        // The line runs along the axis; the bars sit on opposite sides of it.
        let line = segments(&list, Layer3::Projection)[0];
        assert!((line[1] - line[0]).normalize().as_dvec3().dot(n) > 1.0 - 1e-6);
        let side = |bar: &[Vec3]| {
            let c = bar.iter().copied().sum::<Vec3>() / 4.0 - line[0];
            c - c.dot(n.as_vec3()) * n.as_vec3()
        };
        assert!(side(&bars[0]).dot(side(&bars[1])) < 0.0, "axis {k}");
        assert!(texts(&list, Layer3::Projection)[0].starts_with(&format!("axis: {}", v.trace.axes[k].kind.name())));
    }
    // The step protocol: one step per tested axis, clamped.
    assert_eq!(v.steps(), v.trace.axes.len());
    let (mut last, mut past) = (DebugList3::new(all()), DebugList3::new(all()));
    v.draw_step(v.steps() - 1, &mut last);
    v.draw_step(usize::MAX, &mut past);
    assert_eq!(last.cmds, past.cmds);
    assert!(v.step_label(v.trace.winner.unwrap()).ends_with("the winner"));
    // Nothing is selected without a step: no projection.
    assert_eq!(record(&v, all(), None).count(Layer3::Projection), 0);
}

#[test]
fn cube_on_cube_draws_the_clipped_face_manifold() {
    let v = view("cube_on_cube.ron", &SatConfig::ROBUST);
    let list = record(&v, all(), None);
    let contacts: Vec<Vec3> = points(&list, Layer3::Contact).into_iter().map(|(p, _)| p).collect();
    assert_eq!(contacts.len(), 4, "{contacts:?}");
    // B (half 0.5 at (0.7, 1.42, 0.3), turned 0.6 rad about y) sinks 0.08 into A's top face
    // (y = 1, |x|, |z| <= 1). Three corners of B's bottom square lie over A's top face: the
    // manifold keeps them, on A's top face; every point lies on that face inside both squares.
    let (c, s) = (0.6f64.cos(), 0.6f64.sin());
    let corner = |x: f64, z: f64| DVec3::new(0.7 + x * c + z * s, 1.0, 0.3 - x * s + z * c);
    for (x, z) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5)] {
        assert!(contacts.iter().any(|p| close(*p, corner(x, z), 1e-4)), "corner ({x}, {z}) in {contacts:?}");
    }
    for p in &contacts {
        let q = p.as_dvec3() - DVec3::new(0.7, 1.0, 0.3);
        let local = (q.x * c - q.z * s, q.x * s + q.z * c);
        assert!((p.y - 1.0).abs() < 1e-5 && p.x <= 1.0 + 1e-5 && p.z.abs() <= 1.0 + 1e-5, "{p}");
        assert!(local.0.abs() <= 0.5 + 1e-4 && local.1.abs() <= 0.5 + 1e-4, "{p} outside B: {local:?}");
    }
    let win = texts(&list, Layer3::SatAxis);
    assert!(win.len() == 1 && win[0].ends_with("-0.080  WINNER"), "{win:?}");
    // The MTV lifts B by the depth.
    let Some(DrawCmd3::Arrow { from, to, .. }) = list.on(Layer3::Mtv).next() else { panic!("no MTV") };
    assert!(close(*to - *from, DVec3::new(0.0, 0.08, 0.0), 1e-5), "{}", *to - *from);
}

#[test]
fn a_separated_pair_shows_the_separating_axis_and_no_contact() {
    let v = view("separated.ron", &SatConfig::ROBUST);
    let list = record(&v, all(), None);
    let sep = v.result.as_ref().expect_err("the preset is apart");
    let label = texts(&list, Layer3::SatAxis);
    assert!(label.len() == 1 && label[0].ends_with("SEPARATES"), "{label:?}");
    assert!(label[0].starts_with(&sep.kind.name()), "{label:?} {:?}", sep.kind);
    assert!(list.on(Layer3::SatAxis).all(|c| match c {
        DrawCmd3::Text { color, .. } | DrawCmd3::Segment { color, .. } => *color == palette::SEPARATING,
        DrawCmd3::Polygon { outline, .. } => *outline == palette::SEPARATING,
        _ => false,
    }));
    assert_eq!(list.count(Layer3::Contact) + list.count(Layer3::Mtv), 0);
}

#[test]
fn each_layer_switches_off_alone() {
    for file in ["article_tetrahedron_cube.ron", "cube_on_cube.ron", "separated.ron"] {
        let v = view(file, &SatConfig::ROBUST);
        let count = |list: &DebugList3| SAT_LAYERS.map(|l| list.count(l));
        let mut full = record(&v, all(), Some(3));
        v.draw_gauss(&mut full);
        let full_counts = count(&full);
        assert!(full.cmds.iter().all(|c| SAT_LAYERS.contains(&c.layer())), "{file}: only the SAT's layers");
        for (k, layer) in SAT_LAYERS.into_iter().enumerate() {
            let mut set = all();
            set.set(layer, false);
            let mut list = record(&v, set, Some(3));
            v.draw_gauss(&mut list);
            let mut want = full_counts;
            want[k] = 0;
            assert_eq!(count(&list), want, "{file}: without {layer:?}");
        }
        let mut none = record(&v, LayerSet3(0), Some(3));
        v.draw_gauss(&mut none);
        assert!(none.cmds.is_empty(), "{file}: nothing with every layer off");
    }
}

#[test]
fn gauss_maps_lie_on_the_sphere_and_mark_the_minkowski_faces() {
    let v = view("article_tetrahedron_cube.ron", &SatConfig::ROBUST);
    let mut list = DebugList3::new(all());
    v.draw_gauss(&mut list);
    // A tetrahedron and a cube: 4 + 6 face normals, 6 + 12 arcs.
    assert_eq!(points(&list, Layer3::Gauss).len(), 4 + 6);
    assert_eq!(segments(&list, Layer3::Gauss).len(), (6 + 12) * 12);
    for c in &list.cmds {
        let on_sphere = |p: &Vec3| (p.length() - 1.0).abs() < 1e-4;
        match c {
            DrawCmd3::Segment { a, b, .. } => assert!(on_sphere(a) && on_sphere(b)),
            DrawCmd3::Point { p, .. } => assert!(on_sphere(p)),
            DrawCmd3::Polygon { points, .. } => assert!(points.iter().all(on_sphere)),
            other => panic!("unexpected {other:?}"),
        }
    }
    // A crossing of two arcs is the direction of the cross product of the two edges.
    let crossings = points(&list, Layer3::MinkowskiFace);
    assert_eq!(crossings.len(), v.crossings.len());
    assert!(!crossings.is_empty());
    for ([ea, eb], p) in &v.crossings {
        let dir = |h: usize, e: usize| {
            let [a, b] = v.hulls[h].edge_segment(e);
            (b - a).normalize()
        };
        assert!(p.dot(dir(0, *ea)).abs() < 1e-4 && p.dot(dir(1, *eb)).abs() < 1e-4, "{ea} x {eb}: {p}");
    }
    // The winning pair's crossing (the larger dot) is the article's contact normal, ringed.
    let (best, _) = crossings.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert!(best.as_dvec3().dot(d(NORMAL)) > 1.0 - 1e-6, "{best}");
    let ring = &polygons(&list, Layer3::Normal)[0];
    let center = (ring.iter().copied().sum::<Vec3>() / ring.len() as f32).normalize();
    assert!(center.as_dvec3().dot(d(NORMAL)) > 1.0 - 1e-6, "{center}");
}
