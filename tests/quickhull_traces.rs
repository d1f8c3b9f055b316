//! QuickHull traces, 2D and 3D: recording a trace never changes the hull (random clouds with
//! duplicated, collinear and coplanar points), the 2D QuickHull (behind `Polygon::hull`, so
//! behind `Hull(points)` in scene files) agrees with the monotone chain, and the recorded steps tell a consistent story (each iteration's eye
//! is the farthest point of its outside set (up to the weld tolerance, within which the last
//! point along the edge wins), the last step is the finished hull).

use glam::{Vec2, Vec3};
use manifold_lab::engine::hull3d::{quickhull, quickhull_traced, HullOptions, QuickHullStep3, QuickHullTrace3};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::shape::hull::{convex_hull, HullError, WELD_TOLERANCE};
use manifold_lab::engine::shape::polygon::{Polygon, PolygonError};
use manifold_lab::engine::shape::{quickhull_2d, QuickHull2Step, QuickHull2Trace};
use manifold_lab::engine::trace::Trace3;

/// A 2D cloud: random points, some snapped to a coarse grid (collinear runs), some repeated.
fn cloud_2d(rng: &mut SplitMix64) -> Vec<Vec2> {
    let n = 3 + rng.below(40);
    let snap = rng.below(2) == 0;
    let mut pts: Vec<Vec2> = (0..n)
        .map(|_| {
            let p = rng.vec2(-3.0, 3.0);
            if snap {
                (p * 2.0).round() * 0.5
            } else {
                p
            }
        })
        .collect();
    for _ in 0..rng.below(5) {
        let k = rng.below(pts.len());
        pts.push(pts[k]);
    }
    pts
}

fn snapped(pts: &[Vec2]) -> bool {
    pts.iter().all(|p| (*p * 2.0).round() == *p * 2.0)
}

/// Every vertex of each CCW polygon lies within `tol` outside the other.
fn same_within(a: &[Vec2], b: &[Vec2], tol: f32) -> bool {
    let outside = |poly: &[Vec2], p: Vec2| {
        (0..poly.len())
            .map(|i| {
                let (u, v) = (poly[i], poly[(i + 1) % poly.len()]);
                -(v - u).perp_dot(p - u) / (v - u).length()
            })
            .fold(f32::NEG_INFINITY, f32::max)
    };
    a.iter().all(|p| outside(b, *p) <= tol) && b.iter().all(|p| outside(a, *p) <= tol)
}

#[test]
fn traced_2d_hull_equals_untraced_and_the_monotone_chain() {
    let mut rng = SplitMix64::new(15);
    let mut built = 0;
    for case in 0..600 {
        let pts = cloud_2d(&mut rng);
        let plain = quickhull_2d(&pts, None);
        let mut t = QuickHull2Trace::default();
        let traced = quickhull_2d(&pts, Some(&mut t));
        assert_eq!(plain, traced, "case {case}");
        assert_eq!(t.result.as_ref(), Some(&plain), "case {case}");
        let chain = convex_hull(&pts);
        // Scene files' `Hull(points)` is this QuickHull, errors included.
        match (Polygon::hull(&pts), &plain) {
            (Ok(p), Ok(h)) => assert_eq!(p.vertices(), &h[..], "case {case}"),
            (Err(PolygonError::Hull(e)), Err(h)) => assert_eq!(&e, h, "case {case}"),
            (Err(PolygonError::Hull(HullError::TooManyVertices { .. })), Ok(h)) => assert!(h.len() > 8),
            (p, h) => panic!("case {case}: Polygon::hull {p:?}, QuickHull {h:?}"),
        }
        match (&plain, &chain, snapped(&pts)) {
            // On a grid, collinear is exact: the same polygon, vertex for vertex.
            (_, _, true) => assert_eq!(plain, chain, "case {case}: {pts:?}"),
            // Elsewhere a point within the tolerance of an edge may be kept by one and not the
            // other: the same polygon up to that tolerance.
            (Ok(a), Ok(b), false) => assert!(same_within(a, b, 2.0 * WELD_TOLERANCE), "case {case}: {a:?} {b:?}"),
            _ => assert_eq!(plain.is_ok(), chain.is_ok(), "case {case}"),
        }
        if let Ok(h) = plain {
            built += 1;
            assert!(matches!(t.steps.last(), Some(QuickHull2Step::Done { hull }) if *hull == h));
            for s in &t.steps {
                if let QuickHull2Step::Expand { outside, farthest, distance, edge, .. } = s {
                    let e = edge[1] - edge[0];
                    let out = |p: Vec2| -e.perp_dot(p - edge[0]) / e.length();
                    assert!(outside.contains(farthest));
                    assert!(outside.iter().all(|p| out(*p) <= *distance + 1e-3), "case {case}: not the farthest");
                }
            }
        }
    }
    assert!(built > 500, "only {built} clouds had a hull");
}

/// A 3D cloud: random points, or points on a cube's faces (coplanar sets on a grid), with some
/// repeated.
fn cloud_3d(rng: &mut SplitMix64) -> Vec<Vec3> {
    let n = 4 + rng.below(50);
    let mut pts: Vec<Vec3> = match rng.below(3) {
        0 => (0..n).map(|_| Vec3::new(rng.f32(-2.0, 2.0), rng.f32(-2.0, 2.0), rng.f32(-2.0, 2.0))).collect(),
        1 => (0..n)
            .map(|_| {
                let mut p = Vec3::new(rng.f32(-1.0, 1.0), rng.f32(-1.0, 1.0), rng.f32(-1.0, 1.0));
                p = (p * 2.0).round() * 0.5;
                let axis = rng.below(3);
                p[axis] = if rng.below(2) == 0 { -1.0 } else { 1.0 };
                p
            })
            .collect(),
        _ => (0..n).map(|_| rng.unit_vector() * 1.5).collect(),
    };
    for _ in 0..rng.below(6) {
        let k = rng.below(pts.len());
        pts.push(pts[k]);
    }
    pts
}

#[test]
fn traced_3d_hull_equals_untraced() {
    let mut rng = SplitMix64::new(1515);
    let o = HullOptions::default();
    let mut built = 0;
    for case in 0..300 {
        let pts = cloud_3d(&mut rng);
        let plain = quickhull(&pts, &o);
        let mut t = QuickHullTrace3::default();
        let traced = quickhull_traced(&pts, &o, Some(&mut t));
        assert_eq!(plain, traced, "case {case}");
        assert_eq!(t.result.as_ref(), Some(&plain));
        let Ok(h) = plain else { continue };
        built += 1;
        assert!(matches!(t.steps.first(), Some(QuickHullStep3::Simplex { .. })), "case {case}");
        match t.steps.last() {
            Some(QuickHullStep3::Merged { faces, .. }) => assert_eq!(faces.len(), h.faces().len()),
            other => panic!("case {case}: last step {other:?}"),
        }
        for s in &t.steps {
            if let QuickHullStep3::Iteration { outside, eye, removed, horizon, cone, .. } = s {
                assert!(outside.contains(eye));
                assert!(!removed.is_empty());
                assert_eq!(horizon.len(), cone.len(), "one new triangle per horizon edge");
            }
        }
        assert!(t.steps() > 0 && !t.step_label(t.steps() - 1).is_empty());
    }
    assert!(built > 250, "only {built} clouds had a hull");
}

#[test]
fn degenerate_3d_clouds_trace_and_fail_cleanly() {
    let o = HullOptions::default();
    let flat: Vec<Vec3> = (0..9).map(|i| Vec3::new((i % 3) as f32, (i / 3) as f32, 0.0)).collect();
    let mut t = QuickHullTrace3::default();
    assert!(quickhull_traced(&flat, &o, Some(&mut t)).is_err());
    assert!(t.steps.is_empty() && matches!(t.result, Some(Err(_))));
    assert_eq!(t.step_label(0), "no steps");
}

#[test]
fn every_3d_step_draws_its_layers() {
    use manifold_lab::engine::debug3::{DebugList3, Layer3, LayerSet3};
    // A cube's corners with its face centres and a point inside: merged quads, dropped points.
    let mut pts: Vec<Vec3> =
        (0..8).map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32)).collect();
    pts.extend([Vec3::new(0.5, 0.5, 0.0), Vec3::new(0.5, 0.5, 1.0), Vec3::splat(0.5)]);
    let mut t = QuickHullTrace3::default();
    let h = quickhull_traced(&pts, &HullOptions::default(), Some(&mut t)).unwrap();
    assert_eq!(h.faces().len(), 6);
    for k in 0..t.steps() {
        let mut d = DebugList3::new(LayerSet3::ALL);
        t.draw_step(k, &mut d);
        assert!(d.count(Layer3::Shape) > 0 && d.count(Layer3::Label) >= pts.len(), "step {k}");
        if matches!(t.steps[k], QuickHullStep3::Iteration { .. }) {
            assert!(d.count(Layer3::SatAxis) > 0, "step {k}: the face, eye and cone");
        }
    }
    match t.steps.last() {
        Some(QuickHullStep3::Merged { triangles, faces }) => assert!(*triangles == 12 && faces.len() == 6),
        other => panic!("{other:?}"),
    }
}
