//! QuickHull in 2D (Barber, Dobkin & Huhdanpaa 1996), the 2D twin of the 3D construction behind
//! article 001's "a convex hull can be described from its vertices alone": the chord between
//! the extreme points along x splits the cloud; each edge then takes the farthest point of its
//! outside set, which replaces the edge by two, and the points left inside the new triangle are
//! dropped. With an optional [`QuickHull2Trace`] every step is recorded for the hull lab.
//!
//! Same input rules and tolerances as [`super::hull::convex_hull`]: near-duplicates are welded
//! and a point within [`WELD_TOLERANCE`] of an edge's line is not outside it, so collinear
//! points never become vertices; a vertex left within the tolerance of the line through its
//! neighbours is removed at the end (`hull::remove_near_collinear`, shared by both). Both
//! return the same polygon (exactly on collinear runs, and up to a point within the tolerance
//! of an edge otherwise).

use super::hull::{remove_near_collinear, HullError, MAX_COORDINATE, WELD_TOLERANCE};
use super::quickhull2_trace::{QuickHull2Step, QuickHull2Trace};
use crate::engine::math::cross;
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec2;

/// The CCW hull of `points`, starting from the lowest (then leftmost) vertex; the trace, when
/// given, is cleared and receives every step and the result.
pub fn quickhull_2d(points: &[Vec2], trace: Option<&mut QuickHull2Trace>) -> Result<Vec<Vec2>, HullError> {
    match trace {
        None => run(points, &mut NoTrace),
        Some(t) => {
            t.clear(points);
            let result = run(points, t);
            t.result = Some(result.clone());
            result
        }
    }
}

/// How far `p` lies right of (outside) the CCW edge `a → b`.
fn outside_distance(a: Vec2, b: Vec2, p: Vec2) -> f32 {
    let e = b - a;
    -cross(e, p - a) / e.length().max(f32::MIN_POSITIVE)
}

/// The points of `set` more than the tolerance outside `a → b`.
fn outside_of(pts: &[Vec2], set: &[usize], a: Vec2, b: Vec2) -> Vec<usize> {
    set.iter().copied().filter(|&i| outside_distance(a, b, pts[i]) > WELD_TOLERANCE).collect()
}

/// The point of `set` farthest outside `a → b`, with its distance. Among points within the
/// tolerance of that distance (collinear on the supporting line) the last one along `a → b` is
/// taken: it is a vertex, while a point between two others on that line is not.
fn farthest_point(pts: &[Vec2], set: &[usize], a: Vec2, b: Vec2) -> (f32, usize) {
    let d = |i: usize| outside_distance(a, b, pts[i]);
    let max = set.iter().map(|&i| d(i)).fold(f32::NEG_INFINITY, f32::max);
    let along = |i: usize| (b - a).dot(pts[i]);
    let near = set.iter().copied().filter(|&i| d(i) >= max - WELD_TOLERANCE);
    let best = near.max_by(|&i, &j| along(i).total_cmp(&along(j))).unwrap_or(set[0]);
    (d(best), best)
}

fn run<R: Recorder<QuickHull2Step>>(points: &[Vec2], rec: &mut R) -> Result<Vec<Vec2>, HullError> {
    for (index, p) in points.iter().enumerate() {
        if !p.is_finite() {
            return Err(HullError::NotFinite { index });
        }
        if p.x.abs() >= MAX_COORDINATE || p.y.abs() >= MAX_COORDINATE {
            return Err(HullError::TooLarge { index });
        }
    }
    let mut pts: Vec<Vec2> = Vec::with_capacity(points.len());
    let mut welded = Vec::new();
    for &p in points {
        if pts.iter().all(|q| q.distance_squared(p) > WELD_TOLERANCE * WELD_TOLERANCE) {
            pts.push(p);
        } else if R::ENABLED {
            welded.push(p);
        }
    }
    if R::ENABLED && !welded.is_empty() {
        rec.record(QuickHull2Step::Weld { dropped: welded });
    }
    if pts.len() < 3 {
        return Err(HullError::TooFewPoints { count: pts.len() });
    }
    let lex = |i: &usize, j: &usize| pts[*i].x.total_cmp(&pts[*j].x).then(pts[*i].y.total_cmp(&pts[*j].y));
    let all: Vec<usize> = (0..pts.len()).collect();
    let (Some(a), Some(b)) = (all.iter().copied().min_by(lex), all.iter().copied().max_by(lex)) else {
        return Err(HullError::TooFewPoints { count: 0 });
    };
    // The hull as a CCW loop of point indices; edge k runs from hull[k] to hull[k + 1].
    let mut hull = vec![a, b];
    let mut outside = vec![outside_of(&pts, &all, pts[a], pts[b]), outside_of(&pts, &all, pts[b], pts[a])];
    if R::ENABLED {
        let on_chord = all.iter().copied().filter(|&i| i != a && i != b);
        let on_chord: Vec<Vec2> =
            on_chord.filter(|i| !outside[0].contains(i) && !outside[1].contains(i)).map(|i| pts[i]).collect();
        rec.record(QuickHull2Step::Extremes {
            a: pts[a],
            b: pts[b],
            below: outside[0].iter().map(|&i| pts[i]).collect(),
            above: outside[1].iter().map(|&i| pts[i]).collect(),
            dropped: on_chord,
        });
    }
    while let Some(k) = outside.iter().position(|s| !s.is_empty()) {
        let (ea, eb) = (hull[k], hull[(k + 1) % hull.len()]);
        let set = std::mem::take(&mut outside[k]);
        let far = farthest_point(&pts, &set, pts[ea], pts[eb]);
        let p = far.1;
        let left = outside_of(&pts, &set, pts[ea], pts[p]);
        let right = outside_of(&pts, &set, pts[p], pts[eb]);
        if R::ENABLED {
            let dropped = set.iter().copied().filter(|i| *i != p && !left.contains(i) && !right.contains(i));
            rec.record(QuickHull2Step::Expand {
                before: hull.iter().map(|&i| pts[i]).collect(),
                edge: [pts[ea], pts[eb]],
                outside: set.iter().map(|&i| pts[i]).collect(),
                farthest: pts[p],
                distance: far.0,
                dropped: dropped.map(|i| pts[i]).collect(),
            });
        }
        hull.insert(k + 1, p);
        outside[k] = left;
        outside.insert(k + 1, right);
    }
    if hull.len() < 3 {
        return Err(HullError::Collinear);
    }
    let mut out: Vec<Vec2> = hull.iter().map(|&i| pts[i]).collect();
    let before = if R::ENABLED { out.clone() } else { Vec::new() };
    let dropped = remove_near_collinear(&mut out);
    if R::ENABLED && !dropped.is_empty() {
        rec.record(QuickHull2Step::Collinear { before, dropped });
    }
    if R::ENABLED {
        rec.record(QuickHull2Step::Done { hull: out.clone() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shape::hull::convex_hull;

    #[test]
    fn square_with_inner_duplicate_and_collinear_points() {
        let pts = [(1.0, 1.0), (0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 0.0), (0.5, 0.0)]
            .map(|(x, y)| Vec2::new(x, y));
        let mut t = QuickHull2Trace::default();
        let h = quickhull_2d(&pts, Some(&mut t)).unwrap();
        assert_eq!(h, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| Vec2::new(x, y)));
        assert_eq!(h, convex_hull(&pts).unwrap());
        assert!(matches!(t.steps[0], QuickHull2Step::Weld { ref dropped } if dropped.len() == 1));
        assert!(matches!(t.steps.last(), Some(QuickHull2Step::Done { .. })));
    }

    #[test]
    fn a_nearly_straight_vertex_is_removed_as_a_step() {
        // Five points on a circle of radius 0.67, two of them 0.3° apart (3.7 mm): each was
        // far from the edge it was tested against, so the expansion keeps both; the last step
        // removes the one that hardly bulges out of its neighbours' line.
        let pts = [
            (-0.46089587, 0.4851397),
            (-0.6158229, -0.26181605),
            (-0.4581757, 0.48770943),
            (0.5794103, 0.3347674),
            (0.66838163, 0.032426752),
        ]
        .map(|(x, y)| Vec2::new(x, y));
        let mut t = QuickHull2Trace::default();
        let h = quickhull_2d(&pts, Some(&mut t)).unwrap();
        let n = t.steps.len();
        let Some(QuickHull2Step::Collinear { before, dropped }) = t.steps.get(n - 2) else {
            panic!("no removal step: {:?}", t.steps)
        };
        assert_eq!((before.len(), dropped.len(), h.len()), (5, 1, 4));
        assert!(!h.contains(&dropped[0]));
        assert!(matches!(t.steps.last(), Some(QuickHull2Step::Done { hull }) if *hull == h));
        assert_eq!(h.len(), convex_hull(&pts).unwrap().len());
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let line = [Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.0)];
        assert_eq!(quickhull_2d(&line, None), Err(HullError::Collinear));
        assert_eq!(quickhull_2d(&[Vec2::ZERO; 5], None), Err(HullError::TooFewPoints { count: 1 }));
        assert_eq!(quickhull_2d(&[], None), Err(HullError::TooFewPoints { count: 0 }));
        let nan = [Vec2::ZERO, Vec2::new(f32::NAN, 1.0), Vec2::Y];
        assert_eq!(quickhull_2d(&nan, None), Err(HullError::NotFinite { index: 1 }));
        let mut t = QuickHull2Trace::default();
        assert!(quickhull_2d(&line, Some(&mut t)).is_err());
        assert_eq!(t.result, Some(Err(HullError::Collinear)));
    }
}
