//! Property tests of GJK, EPA and the Minkowski difference over random shapes and poses: no
//! NaN, GJK overlap equals SAT overlap (`collide::collide`) except within 1e-4 of touching,
//! EPA depth equals the SAT depth `−max(sepA, sepB)` with the same normal away from ties,
//! normals unit and pointing from A to B, swapping A and B mirrors the result, the Minkowski
//! difference's signed distance equals GJK's distance or −EPA's depth, and moving B by the
//! minimum translation makes the shapes touch.

use glam::Vec2;
use manifold_lab::engine::collide::collide;
use manifold_lab::engine::collide::distance::signed_distance;
use manifold_lab::engine::collide::gjk::distance;
use manifold_lab::engine::collide::minkowski::MinkowskiDifference;
use manifold_lab::engine::collide::sat::{edge_separation, find_max_separation};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::{Polygon, Shape};
use proptest::prelude::*;

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

/// SAT for polygons over every face of both: (depth, normal A→B, gap to the best face with a
/// different normal). EPA's depth must equal `−max(sepA, sepB)`.
fn sat_reference(a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> Option<(f32, Vec2, f32)> {
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else { return None };
    let mut faces: Vec<(f32, Vec2)> = (0..pa.count)
        .map(|i| (edge_separation(pa, xa, i, pb, xb), xa.q.apply(pa.normals[i])))
        .chain((0..pb.count).map(|k| (edge_separation(pb, xb, k, pa, xa), -xb.q.apply(pb.normals[k]))))
        .collect();
    faces.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (best, n) = faces[0];
    let (sa, sb) = (find_max_separation(pa, xa, pb, xb).1, find_max_separation(pb, xb, pa, xa).1);
    assert!(close(best, sa.max(sb), 1e-5));
    let gap = faces.iter().find(|f| f.1.dot(n) < 1.0 - 1e-4).map(|f| best - f.0).unwrap_or(f32::MAX);
    Some((-best, n, gap))
}

fn shape_strategy() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.05f32..3.0).prop_map(|r| Shape::circle(r).unwrap()),
        (0.05f32..3.0, 0.05f32..3.0).prop_map(|(x, y)| Shape::make_box(Vec2::new(x, y)).unwrap()),
        (3usize..=8, 0.2f32..2.5, prop::collection::vec(0.6f32..1.0, 8), 0.0f32..std::f32::consts::TAU).prop_map(
            |(n, r, radii, phase)| {
                let pts: Vec<Vec2> = (0..n)
                    .map(|i| Vec2::from_angle(phase + i as f32 * std::f32::consts::TAU / n as f32) * r * radii[i])
                    .collect();
                Shape::Polygon(Polygon::hull(&pts).unwrap())
            }
        ),
    ]
}

fn pose_strategy() -> impl Strategy<Value = Transform> {
    (-3.0f32..3.0, -3.0f32..3.0, -7.0f32..7.0).prop_map(|(x, y, a)| Transform::new(Vec2::new(x, y), a))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn gjk_epa_agree_with_sat_and_the_minkowski_difference(
        a in shape_strategy(), b in shape_strategy(), xa in pose_strategy(), xb in pose_strategy()
    ) {
        let g = distance(&a, &xa, &b, &xb, None);
        let sd = signed_distance(&a, &xa, &b, &xb, None, None);
        let md = MinkowskiDifference::from_shapes(&a, &xa, &b, &xb);
        prop_assert!(g.distance.is_finite() && g.point_a.is_finite() && g.point_b.is_finite() && g.normal.is_finite());
        prop_assert!(sd.separation.is_finite() && sd.point_a.is_finite() && sd.point_b.is_finite());
        prop_assert!((sd.normal.length() - 1.0).abs() < 1e-4, "normal {:?}", sd.normal);
        prop_assert!(md.signed_distance().is_finite() && md.vertices.iter().all(|v| v.is_finite()));

        // Overlap agrees with SAT except within 1e-4 of touching.
        let sat = collide(&a, &xa, &b, &xb, 0.0);
        if g.overlap != (sat.count > 0) {
            prop_assert!(sd.separation.abs() < 1e-4, "GJK {} vs SAT {} at {}", g.overlap, sat.count, sd.separation);
        }
        // The normal points from A to B: moving B along it separates, and the points match.
        prop_assert!((sd.point_b - sd.point_a - sd.separation * sd.normal).length() < 1e-4);
        let moved = Transform { p: xb.p + (sd.separation.min(0.0).abs() + 1e-2) * sd.normal, q: xb.q };
        prop_assert!(!distance(&a, &xa, &b, &moved, None).overlap, "moving B along the normal must separate");

        // EPA depth ≈ SAT depth; normals agree away from ties.
        if sd.separation < 0.0 {
            if let Some((depth, n, gap)) = sat_reference(&a, &xa, &b, &xb) {
                prop_assert!((-sd.separation - depth).abs() < 1e-4, "EPA {} vs SAT {}", -sd.separation, depth);
                if gap > 1e-3 {
                    prop_assert!((sd.normal - n).length() < 1e-3, "EPA {:?} vs SAT {:?}", sd.normal, n);
                }
            } else if sat.count > 0 {
                prop_assert!((-sd.separation - sat.max_penetration()).abs() < 1e-4);
            }
        }
        // The Minkowski difference's signed distance is GJK's distance or −EPA's depth.
        prop_assert!((md.signed_distance() - sd.separation).abs() < 1e-4, "MD {} vs {}", md.signed_distance(), sd.separation);
        let tie = sat_reference(&a, &xa, &b, &xb).map(|r| r.2 < 1e-3).unwrap_or(false);
        if !tie {
            prop_assert!((md.minimum_translation() - sd.minimum_translation()).length() < 1e-3,
                "MTV {:?} vs {:?}", md.minimum_translation(), sd.minimum_translation());
        }
        if !g.overlap {
            prop_assert!((g.distance - sd.separation).abs() < 1e-6);
        }
    }

    #[test]
    fn moving_b_by_the_minimum_translation_makes_the_shapes_touch(
        a in shape_strategy(), b in shape_strategy(), xa in pose_strategy(), xb in pose_strategy()
    ) {
        let sd = signed_distance(&a, &xa, &b, &xb, None, None);
        let moved = Transform { p: xb.p + sd.minimum_translation(), q: xb.q };
        let t = signed_distance(&a, &xa, &b, &moved, None, None);
        prop_assert!(t.separation.abs() < 1e-4, "{} after moving by {:?} (was {})", t.separation, sd.minimum_translation(), sd.separation);
        prop_assert!(distance(&a, &xa, &b, &moved, None).distance < 1e-4);
        let md = MinkowskiDifference::from_shapes(&a, &xa, &b, &moved);
        prop_assert!(md.signed_distance().abs() < 1e-4, "MD {} vs {}", md.signed_distance(), t.separation);
        prop_assert!(collide(&a, &xa, &b, &moved, 1e-4).count > 0, "SAT must see the touching contact");
    }

    #[test]
    fn identical_shapes_at_the_same_pose_have_the_sat_depth(a in shape_strategy(), xa in pose_strategy()) {
        let sd = signed_distance(&a, &xa, &a, &xa, None, None);
        prop_assert!((sd.normal.length() - 1.0).abs() < 1e-5 && sd.point_a.is_finite() && sd.point_b.is_finite());
        let depth = match sat_reference(&a, &xa, &a, &xa) {
            Some((depth, _, _)) => depth,
            None => collide(&a, &xa, &a, &xa, 0.0).max_penetration(),
        };
        prop_assert!((-sd.separation - depth).abs() < 1e-5, "{} vs {}", -sd.separation, depth);
    }

    #[test]
    fn swapping_a_and_b_mirrors_the_result(
        a in shape_strategy(), b in shape_strategy(), xa in pose_strategy(), xb in pose_strategy()
    ) {
        let ab = signed_distance(&a, &xa, &b, &xb, None, None);
        let ba = signed_distance(&b, &xb, &a, &xa, None, None);
        prop_assert!((ab.separation - ba.separation).abs() < 1e-4, "{} vs {}", ab.separation, ba.separation);
        let tie = sat_reference(&a, &xa, &b, &xb).map(|r| r.2 < 1e-3).unwrap_or(false);
        if ab.separation > 1e-4 || (ab.separation < -1e-4 && !tie) {
            prop_assert!((ab.normal + ba.normal).length() < 1e-3, "{:?} vs {:?}", ab.normal, ba.normal);
        }
        let (mab, mba) = (MinkowskiDifference::from_shapes(&a, &xa, &b, &xb), MinkowskiDifference::from_shapes(&b, &xb, &a, &xa));
        prop_assert!((mab.signed_distance() - mba.signed_distance()).abs() < 1e-4);
    }
}
