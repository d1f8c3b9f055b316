//! 3D hull SAT (seed article 001): the article's worked example to its printed digits, analytic
//! cube–cube cases, QuickHull on degenerate clouds (`hull3d_parts/quickhull.rs`), property tests
//! (`hull3d_parts/props.rs`) and a differential test against parry3d (`hull3d_parts/parry.rs`).
//!
//! Run with `cargo test --test hull3d -- --nocapture` to see the printed comparisons.

#[path = "hull3d_parts/common.rs"]
mod common;
#[path = "hull3d_parts/local.rs"]
mod local;
#[path = "hull3d_parts/parry.rs"]
mod parry;
#[path = "hull3d_parts/props.rs"]
mod props;
#[path = "hull3d_parts/quickhull.rs"]
mod quickhull;

use glam::{Quat, Vec2, Vec3};
use manifold_lab::engine::hull3d::sat::{collide_with, ContactKind, SatConfig};
use manifold_lab::engine::hull3d::{contact_manifold, shapes, Hull, Pose3, SatTrace3};

fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(x as f32, y as f32, z as f32)
}

/// The article's tetrahedron (A), its four arrays as printed.
fn article_tetrahedron() -> Hull {
    Hull::from_raw(
        vec![
            v(-0.015474963193511798, 0.33537417751658094, -0.1404996212167574),
            v(0.5141696198411252, -0.9568235666566539, -0.35124017154634457),
            v(-1.0335072548392017, -0.5373752088540689, 0.30094133605231416),
            v(-0.6342374754213884, -0.1119237570390201, -1.3282023008556973),
        ],
        vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 1], vec![1, 2, 3]],
        vec![[0, 1], [0, 2], [0, 3], [1, 2], [2, 3], [3, 1]],
        vec![
            v(0.38748992453971465, 0.004074648544093487, 0.9218649335013498),
            v(-0.6349199599421436, 0.7711759948353863, 0.046521279611796626),
            v(0.7500043993541771, 0.3903606074731003, -0.5339587971769095),
            v(-0.3746117365449317, -0.8688005053127466, -0.3238081666837741),
        ],
    )
    .unwrap()
}

/// The article's cube (B), its four arrays as printed (faces listed `[0,1,4,5]`-style).
fn article_cube() -> Hull {
    Hull::from_raw(
        vec![
            v(-1.2969646066524665, -0.14439705019398202, 0.08105014237762323),
            v(-0.5917402473790571, -0.34852692650445355, 0.7656251200986752),
            v(0.09283473034199496, -0.43133948655379123, 0.0361372975730391),
            v(-0.6123896289314145, -0.2272096102433197, -0.648437680148013),
            v(-1.092834730341995, 0.8313394865537913, 0.1638627024269609),
            v(-0.38761037106858554, 0.6272096102433198, 0.8484376801480129),
            v(0.2969646066524665, 0.5443970501939821, 0.11894985762237678),
            v(-0.40825975262094294, 0.7485269265044536, -0.5656251200986753),
        ],
        vec![
            vec![0, 1, 2, 3],
            vec![4, 5, 6, 7],
            vec![0, 1, 4, 5],
            vec![1, 2, 5, 6],
            vec![2, 3, 6, 7],
            vec![3, 0, 7, 4],
        ],
        vec![[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4], [0, 4], [1, 5], [2, 6], [3, 7]],
        vec![
            v(-0.2016831109350874, -0.9760273663061185, -0.08181994246567997),
            v(0.2016831109350874, 0.9760273663061185, 0.08181994246567997),
            v(-0.688355761979541, 0.08181994246567997, 0.720743950348859),
            v(0.6967713166549776, -0.2016831109350874, 0.6883557619795408),
            v(0.688355761979541, -0.08181994246567997, -0.720743950348859),
            v(-0.6967713166549776, 0.2016831109350874, -0.6883557619795408),
        ],
    )
    .unwrap()
}

const ARTICLE_MTV: [f64; 3] = [-0.17742709499097423, 0.3525922983309437, 0.2879166461579119];
const ARTICLE_POINT: [f64; 3] = [-0.39404904235014193, 0.010826225559499636, 0.023658338478221408];
const ARTICLE_SEPARATION: f64 = -0.48856698416292277;
const ARTICLE_NORMAL: [f64; 3] = [-0.363158176344981, 0.7216867077808199, 0.5893084377185425];

fn close(got: Vec3, want: [f64; 3], tol: f32) -> bool {
    (got - v(want[0], want[1], want[2])).abs().max_element() <= tol
}

#[test]
fn article_example_reproduced() {
    let (a, b) = (article_tetrahedron(), article_cube());
    let mut trace = SatTrace3::default();
    let c = collide_with(&a, &b, &SatConfig::ARTICLE, Some(&mut trace)).expect("the article's hulls collide");
    println!("article: type 2, index [1, 2], separation {ARTICLE_SEPARATION}");
    println!("         normal {ARTICLE_NORMAL:?}\n         mtv {ARTICLE_MTV:?}\n         point {ARTICLE_POINT:?}");
    println!(
        "ours:    type {}, index {:?}, separation {}\n         normal {:?}\n         mtv {:?}\n         point {:?}",
        c.kind as u8,
        c.edges.index.unwrap(),
        c.separation,
        c.normal.to_array(),
        c.mtv.to_array(),
        c.point.to_array()
    );
    assert_eq!(c.kind, ContactKind::Edges);
    assert_eq!(c.edges.index, Some([1, 2]));
    // f32 against the article's f64: agreement to 2e-6 (about 7 significant digits).
    assert!((c.separation as f64 - ARTICLE_SEPARATION).abs() < 2e-6, "{}", c.separation);
    assert!(close(c.normal, ARTICLE_NORMAL, 2e-6));
    assert!(close(c.edges.normal, ARTICLE_NORMAL, 2e-6));
    assert!(close(c.mtv, ARTICLE_MTV, 2e-6));
    assert!(close(c.point, ARTICLE_POINT, 2e-6));
    // The intermediate queries (not printed by the article; from its code in f64).
    assert_eq!((c.face_a.face, c.face_a.support), (Some(1), Some(2)));
    assert!((c.face_a.separation as f64 + 0.6518217834354769).abs() < 2e-6);
    assert_eq!((c.face_b.face, c.face_b.support), (Some(0), Some(0)));
    assert!((c.face_b.separation as f64 + 0.7085974768251146).abs() < 2e-6);
    // Trace: 4 + 6 face axes (A's face 3 skipped, B all in front of none), 72 edge pairs.
    assert_eq!(trace.axes.len(), 4 + 6 + 6 * 12);
    let w = trace.axes[trace.winner.unwrap()];
    assert_eq!(w.separation, c.separation);
    assert!(trace.separating_axis().is_none());
}

#[test]
fn article_example_robust_and_quickhull_agree() {
    let (a, b) = (article_tetrahedron(), article_cube());
    let robust = collide_with(&a, &b, &SatConfig::ROBUST, None).unwrap();
    // Same answer: A's edge 1 ties with B's parallel edges 0, 2, 4, 6 on this axis, and the
    // robust settings keep the pair that realizes the separation, which is the article's.
    assert_eq!(robust.kind, ContactKind::Edges);
    assert_eq!(robust.edges.index, Some([1, 2]));
    assert!((robust.separation as f64 - ARTICLE_SEPARATION).abs() < 2e-6);
    assert!(close(robust.normal, ARTICLE_NORMAL, 2e-6));
    assert!(close(robust.mtv, ARTICLE_MTV, 2e-6));
    assert!(close(robust.point, ARTICLE_POINT, 2e-6));
    let fast = collide_with(&a, &b, &SatConfig::FAST, None).unwrap();
    assert_eq!(fast.edges.index, Some([1, 2]));
    assert!(close(fast.point, ARTICLE_POINT, 2e-6));

    let qa = Hull::from_points(a.positions()).unwrap();
    let qb = Hull::from_points(b.positions()).unwrap();
    assert_eq!((qa.faces().len(), qb.faces().len()), (4, 6));
    for config in [SatConfig::ARTICLE, SatConfig::ROBUST, SatConfig::FAST] {
        let c = collide_with(&qa, &qb, &config, None).unwrap();
        println!("quickhull {config:?}: sep {} normal {:?}", c.separation, c.normal.to_array());
        assert_eq!(c.kind, ContactKind::Edges);
        assert!((c.separation as f64 - ARTICLE_SEPARATION).abs() < 1e-5);
        assert!(close(c.normal, ARTICLE_NORMAL, 1e-5));
    }
}

/// A rigid motion applied to both hulls must move the result with it.
fn both(a: &Hull, b: &Hull, pa: Pose3, pb: Pose3, common: Pose3) -> (Hull, Hull) {
    (a.transformed(&common.mul(&pa)), b.transformed(&common.mul(&pb)))
}

#[test]
fn cube_cube_face_contact_has_known_depth() {
    let cube = shapes::cube(1.0);
    let pb = Pose3::from_translation(Vec3::new(1.9, 0.3, 0.2));
    // Unrotated, A's +x face and B's −x face tie exactly at −0.1 (the same f32 operations):
    // the article's tie-break (strict `>`, face A first) keeps A's face.
    let (a, b) = (cube.clone(), cube.transformed(&pb));
    for config in [SatConfig::ARTICLE, SatConfig::ROBUST, SatConfig::FAST] {
        let c = collide_with(&a, &b, &config, None).unwrap();
        assert_eq!(c.face_a.separation, c.face_b.separation);
        assert_eq!((c.kind, c.face_a.face), (ContactKind::FaceA, Some(1)), "{config:?}");
    }
    // Turned and moved together, rounding breaks the tie either way; the answer is the same.
    let common =
        Pose3::new(Vec3::new(0.3, -2.0, 1.0), Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 0.9));
    let (a, b) = both(&cube, &cube, Pose3::IDENTITY, pb, common);
    for config in [SatConfig::ARTICLE, SatConfig::ROBUST, SatConfig::FAST] {
        let c = collide_with(&a, &b, &config, None).unwrap();
        assert!(matches!(c.kind, ContactKind::FaceA | ContactKind::FaceB), "{config:?}");
        assert!((c.separation + 0.1).abs() < 1e-5, "{}", c.separation);
        let n = common.transform_vector(Vec3::X);
        assert!((c.normal - n).length() < 1e-5);
        assert!((c.mtv - n * 0.1).length() < 1e-5);
        let m = contact_manifold(&a, &b, &c, None);
        assert_eq!(m.points.len(), 4);
        // The incident face is B's x = 0.9 or A's x = 1, clipped to y ∈ [−0.7, 1], z ∈ [−0.8, 1].
        let x = if c.kind == ContactKind::FaceA { 0.9 } else { 1.0 };
        let mut corners: Vec<[i32; 2]> = m
            .points
            .iter()
            .map(|p| {
                assert!((p.separation + 0.1).abs() < 1e-5);
                let local = common.inverse_transform_point(p.position);
                assert!((local.x - x).abs() < 1e-5, "{local:?}");
                [(local.y * 10.0).round() as i32, (local.z * 10.0).round() as i32]
            })
            .collect();
        corners.sort();
        assert_eq!(corners, vec![[-7, -8], [-7, 10], [10, -8], [10, 10]]);
    }
    // Moving B by the MTV leaves the cubes touching; a hair more separates them.
    let c = collide_with(&a, &b, &SatConfig::ROBUST, None).unwrap();
    let moved = b.transformed(&Pose3::from_translation(c.mtv + c.normal * 1e-4));
    assert!(collide_with(&a, &moved, &SatConfig::ROBUST, None).is_err());
}

#[test]
fn cube_cube_edge_contact_has_known_depth() {
    // A: a unit cube turned 45° about z (rightmost edge along z at x = √2). B: turned 45° about
    // y (leftmost edge along y at x = c − √2). They cross with depth 2√2 − c = 0.1 along x.
    let cube = shapes::cube(1.0);
    let r2 = 2f32.sqrt();
    let pa = Pose3::new(Vec3::ZERO, Quat::from_rotation_z(std::f32::consts::FRAC_PI_4));
    let pb = Pose3::new(Vec3::new(2.0 * r2 - 0.1, 0.0, 0.0), Quat::from_rotation_y(std::f32::consts::FRAC_PI_4));
    let common =
        Pose3::new(Vec3::new(-1.0, 0.5, 2.0), Quat::from_axis_angle(Vec3::new(-0.3, 1.0, 0.2).normalize(), 2.1));
    let (a, b) = both(&cube, &cube, pa, pb, common);
    for config in [SatConfig::ARTICLE, SatConfig::ROBUST, SatConfig::FAST] {
        let mut trace = SatTrace3::default();
        let c = collide_with(&a, &b, &config, Some(&mut trace)).unwrap();
        assert_eq!(c.kind, ContactKind::Edges, "{config:?}");
        assert!((c.separation + 0.1).abs() < 2e-5, "{}", c.separation);
        let n = common.transform_vector(Vec3::X);
        assert!((c.normal - n).length() < 1e-4, "{:?}", c.normal);
        assert!((c.face_a.separation + 0.778).abs() < 1e-3 && (c.face_b.separation + 0.778).abs() < 1e-3);
        // The point lies on A's edge line x = √2, y = 0; the article keeps the first of the 16
        // tied parallel pairs, the robust settings the realizing pair (z = 0).
        let local = common.inverse_transform_point(c.point);
        assert!((local.truncate() - Vec2::new(r2, 0.0)).length() < 1e-4, "{local:?}");
        if config != SatConfig::ARTICLE {
            assert!(local.z.abs() < 1e-4, "{local:?}");
        }
        let m = contact_manifold(&a, &b, &c, None);
        assert_eq!(m.points.len(), 1);
        assert!(trace.winner.is_some());
    }
}

#[test]
fn deep_containment_shows_the_article_quirk() {
    // A small turned cube inside a big one: every face of A has all of B behind it, which the
    // article skips, so it misses the true depth 3 − 2 + h_x along A's +x face (h_x = B's half
    // extent along x) and reports a deeper axis; the robust settings find it.
    let big = shapes::cube(3.0);
    let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let small = shapes::cube(0.5).transformed(&Pose3::new(Vec3::new(2.0, 0.0, 0.0), q));
    let h_x = small.positions().iter().map(|p| 2.0 - p.x).fold(0.0, f32::max);
    let want = 1.0 + h_x;
    let robust = collide_with(&big, &small, &SatConfig::ROBUST, None).unwrap();
    assert_eq!(robust.kind, ContactKind::FaceA);
    assert!((robust.separation + want).abs() < 1e-5, "{} vs {want}", robust.separation);
    assert!((robust.normal - Vec3::X).length() < 1e-5);
    let fast = collide_with(&big, &small, &SatConfig::FAST, None).unwrap();
    assert!((fast.separation - robust.separation).abs() < 1e-5);
    let article = collide_with(&big, &small, &SatConfig::ARTICLE, None).unwrap();
    println!(
        "deep containment: robust {} ({:?}), article {} ({:?})",
        robust.separation, robust.kind, article.separation, article.kind
    );
    assert_eq!(article.face_a.face, None, "the article skipped all of A's faces");
    assert!(article.separation < robust.separation - 0.05, "{}", article.separation);
}

#[test]
fn separated_pair_reports_its_axis() {
    let a = shapes::cube(1.0);
    let b = shapes::icosahedron(1.0).transformed(&Pose3::from_translation(Vec3::new(0.0, 2.5, 0.0)));
    let mut trace = SatTrace3::default();
    let err = collide_with(&a, &b, &SatConfig::ROBUST, Some(&mut trace)).unwrap_err();
    assert!(err.separation > 0.0);
    let axis = trace.separating_axis().unwrap();
    assert_eq!(axis.axis, err.axis);
    assert!(trace.winner.is_none());
}
