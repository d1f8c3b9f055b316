//! Property tests of the Sutherland–Hodgman clipper over random convex polygons and lines:
//! the two parts' areas add up to the polygon's, both are convex and counter-clockwise, each
//! lies on its side of the line, keeping one side agrees with the split, and the trace
//! records one step per edge ending in the result.

use glam::{DVec2, Vec2};
use manifold_lab::engine::geometry::{
    area_centroid, clip_polygon_to_line, is_convex_ccw, split_polygon, Line, SliceTrace,
};
use manifold_lab::engine::shape::Polygon;
use proptest::prelude::*;

/// A convex polygon of 3 to 8 vertices, counter-clockwise, up to `scale` across.
fn polygon_strategy() -> impl Strategy<Value = Vec<Vec2>> {
    (
        3usize..=8,
        0.05f32..20.0,
        prop::collection::vec(0.5f32..1.0, 8),
        0.0f32..std::f32::consts::TAU,
        -30.0f32..30.0,
        -30.0f32..30.0,
    )
        .prop_map(|(n, r, radii, phase, x, y)| {
            let pts: Vec<Vec2> = (0..n)
                .map(|i| {
                    Vec2::new(x, y)
                        + Vec2::from_angle(phase + i as f32 * std::f32::consts::TAU / n as f32) * r * radii[i]
                })
                .collect();
            Polygon::hull(&pts).map(|p| p.vertices().to_vec()).unwrap_or_else(|_| pts[..3].to_vec())
        })
        .prop_filter("a proper polygon", |p| area_f64(p) > 1e-6)
}

/// A line through a point near the polygon (or far from it), at any angle.
fn line_strategy() -> impl Strategy<Value = (f32, f32, f32)> {
    (0.0f32..std::f32::consts::TAU, -1.5f32..1.5, prop::bool::weighted(0.1))
        .prop_map(|(angle, offset, far)| (angle, offset, if far { 50.0 } else { 1.0 }))
}

/// Area in f64 from the f32 vertices, so the test measures the clipper, not the summation.
fn area_f64(p: &[Vec2]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i].as_dvec2(), p[(i + 1) % n].as_dvec2());
            a.perp_dot(b)
        })
        .sum::<f64>()
        / 2.0
}

fn line_for(poly: &[Vec2], (angle, offset, far): (f32, f32, f32)) -> Line {
    let (a, c) = area_centroid(poly);
    let size = a.abs().sqrt();
    let n = Vec2::from_angle(angle);
    Line { n, c: n.dot(c) + offset * far * size * 0.6 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn both_parts_add_up_convex_ccw_and_on_their_sides(poly in polygon_strategy(), l in line_strategy()) {
        let line = line_for(&poly, l);
        let split = split_polygon(&poly, &line, None);
        let whole = area_f64(&poly);
        let (behind, front) = (area_f64(&split.behind), area_f64(&split.front));
        prop_assert!((behind + front - whole).abs() <= 1e-5 * whole.max(1.0),
            "areas {behind} + {front} != {whole}");
        let scale = poly.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element())).max(1.0);
        let tolerance = 1e-5 * scale * scale;
        for (part, sign) in [(&split.behind, -1.0f32), (&split.front, 1.0)] {
            if part.is_empty() {
                continue;
            }
            prop_assert!(part.len() >= 3 && part.len() <= poly.len() + 1);
            prop_assert!(area_f64(part) >= 0.0, "orientation kept (CCW): {part:?}");
            prop_assert!(is_convex_ccw(part, tolerance), "convex: {part:?}");
            for p in part.iter() {
                prop_assert!(p.is_finite());
                prop_assert!(sign * line.distance_to_line(*p) >= -1e-5 * scale, "{p} on the wrong side");
            }
            for w in part.windows(2) {
                prop_assert!(w[0] != w[1], "no repeated points");
            }
        }
        let mut kept = Vec::new();
        clip_polygon_to_line(&poly, &line, &mut kept);
        prop_assert_eq!(&kept, &split.behind);
    }

    #[test]
    fn the_trace_walks_every_edge_and_ends_in_the_result(poly in polygon_strategy(), l in line_strategy()) {
        let line = line_for(&poly, l);
        let mut trace = SliceTrace::new();
        let split = split_polygon(&poly, &line, Some(&mut trace));
        prop_assert_eq!(trace.len(), poly.len());
        prop_assert_eq!(split_polygon(&poly, &line, None), split.clone());
        for (k, step) in trace.edges().iter().enumerate() {
            prop_assert_eq!(step.edge, k);
            prop_assert_eq!(step.from, poly[k]);
            // An intersection exactly where the edge's ends are strictly on both sides.
            let strictly = (step.d_from < 0.0 && step.d_to > 0.0) || (step.d_from > 0.0 && step.d_to < 0.0);
            prop_assert_eq!(step.intersection.is_some(), strictly);
        }
        let last = trace.edges().last().unwrap();
        if !split.behind.is_empty() {
            prop_assert_eq!(&last.behind, &split.behind);
        }
        if !split.front.is_empty() {
            prop_assert_eq!(&last.front, &split.front);
        }
    }
}

#[test]
fn area_in_f64_is_the_shoelace_formula() {
    let sq = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
    assert_eq!(area_f64(&sq), 1.0);
    assert_eq!(DVec2::X.perp_dot(DVec2::Y), 1.0);
}
