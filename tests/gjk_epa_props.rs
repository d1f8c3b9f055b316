//! Property tests of GJK, EPA and the Minkowski difference over random shapes and poses: no
//! NaN, GJK overlap equals SAT overlap (`collide::collide`) except within 1e-4 of touching,
//! EPA depth equals the SAT depth `−max(sepA, sepB)` with the same normal away from ties,
//! normals unit and pointing from A to B, swapping A and B mirrors the result, the Minkowski
//! difference's signed distance equals GJK's distance or −EPA's depth, and moving B by the
//! minimum translation makes the shapes touch.

mod support;

use manifold_lab::engine::collide::collide;
use manifold_lab::engine::collide::distance::signed_distance;
use manifold_lab::engine::collide::gjk::distance;
use manifold_lab::engine::collide::minkowski::MinkowskiDifference;
use manifold_lab::engine::math::Transform;
use proptest::prelude::*;
use support::sat::sat_reference;
use support::strategies;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn gjk_epa_agree_with_sat_and_the_minkowski_difference(
        a in strategies::shape(), b in strategies::shape(), xa in strategies::pose(), xb in strategies::pose()
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
        a in strategies::shape(), b in strategies::shape(), xa in strategies::pose(), xb in strategies::pose()
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
    fn identical_shapes_at_the_same_pose_have_the_sat_depth(a in strategies::shape(), xa in strategies::pose()) {
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
        a in strategies::shape(), b in strategies::shape(), xa in strategies::pose(), xb in strategies::pose()
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
