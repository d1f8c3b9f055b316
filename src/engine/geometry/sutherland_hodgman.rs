//! Sutherland–Hodgman clipping of a convex polygon by one line, keeping the part behind it
//! or both parts (003 article, "Dynamically Slicing Shapes", and the 000 article's clipping
//! notes: walk the edges `s → e`; *in–in* pushes `e`, *in–out* pushes the intersection,
//! *out–in* pushes the intersection then `e`, *out–out* pushes nothing).
//!
//! "In" is behind the line, `d <= 0`, as in the article's `Segment::Clip`. A vertex exactly
//! on the line belongs to both parts, and an intersection is only made where an edge's ends
//! are strictly on opposite sides, so no part ever holds the same point twice. The segment
//! clip of the manifold (`collide::clip::clip_segment_to_line`) uses the same per-edge step.

use super::slice_trace::SliceStep;
use super::Line;
use crate::engine::collide::support::{NoTrace, Recorder};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How an edge `s → e` lies against the line (000 article's four cases).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdgeCase {
    /// Both ends behind (or on) the line: push `e`.
    InIn,
    /// From behind to in front: push the intersection.
    InOut,
    /// From in front to behind: push the intersection, then `e`.
    OutIn,
    /// Both ends in front: push nothing.
    OutOut,
}

impl EdgeCase {
    /// The case of an edge whose ends are at signed distances `ds` and `de`.
    #[inline]
    pub fn classify(ds: f32, de: f32) -> EdgeCase {
        match (ds <= 0.0, de <= 0.0) {
            (true, true) => EdgeCase::InIn,
            (true, false) => EdgeCase::InOut,
            (false, true) => EdgeCase::OutIn,
            (false, false) => EdgeCase::OutOut,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            EdgeCase::InIn => "in–in: push e",
            EdgeCase::InOut => "in–out: push i",
            EdgeCase::OutIn => "out–in: push i, e",
            EdgeCase::OutOut => "out–out: none",
        }
    }
}

/// Where edge `s → e` crosses the line, when its ends are strictly on opposite sides
/// (`alpha = ds / (ds − de)`, the article's interpolation).
#[inline]
pub fn crossing(s: Vec2, e: Vec2, ds: f32, de: f32) -> Option<Vec2> {
    if (ds < 0.0 && de > 0.0) || (ds > 0.0 && de < 0.0) {
        let alpha = ds / (ds - de);
        let alpha = if alpha.is_finite() { alpha } else { 0.5 };
        Some(s + alpha * (e - s))
    } else {
        None
    }
}

/// Both parts of a polygon cut by a line: `behind` (`d <= 0`) and `front` (`d >= 0`), each
/// counter-clockwise when the input is, or empty when fewer than three points remain.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Split {
    pub behind: Vec<Vec2>,
    pub front: Vec<Vec2>,
}

/// The one Sutherland–Hodgman walk: edge `k` runs from vertex `k` to `k + 1`; the part behind
/// goes to `behind`, the part in front to `front` when given.
fn walk<R: Recorder<SliceStep>>(
    poly: &[Vec2],
    line: &Line,
    behind: &mut Vec<Vec2>,
    mut front: Option<&mut Vec<Vec2>>,
    rec: &mut R,
) {
    behind.clear();
    if let Some(f) = front.as_deref_mut() {
        f.clear();
    }
    let n = poly.len();
    for k in 0..n {
        let (s, e) = (poly[k], poly[(k + 1) % n]);
        let (ds, de) = (line.distance_to_line(s), line.distance_to_line(e));
        let intersection = crossing(s, e, ds, de);
        if let Some(i) = intersection {
            behind.push(i);
            if let Some(f) = front.as_deref_mut() {
                f.push(i);
            }
        }
        if de <= 0.0 {
            behind.push(e);
        }
        if let Some(f) = front.as_deref_mut() {
            if de >= 0.0 {
                f.push(e);
            }
        }
        if R::ENABLED {
            rec.record(SliceStep {
                edge: k,
                from: s,
                to: e,
                d_from: ds,
                d_to: de,
                case: EdgeCase::classify(ds, de),
                intersection,
                behind: behind.clone(),
                front: front.as_deref().cloned().unwrap_or_default(),
            });
        }
    }
    if behind.len() < 3 {
        behind.clear();
    }
    if let Some(f) = front {
        if f.len() < 3 {
            f.clear();
        }
    }
}

/// Keeps the part of convex polygon `poly` behind `line` in `out` (empty when nothing, or
/// only a point or an edge, is behind it). `out` is reused, so repeated clips allocate once.
pub fn clip_polygon_to_line(poly: &[Vec2], line: &Line, out: &mut Vec<Vec2>) {
    walk(poly, line, out, None, &mut NoTrace);
}

/// Cuts convex polygon `poly` by `line` into the parts behind and in front of it, recording
/// every edge's case into `rec` (pass [`NoTrace`] for none; see [`split_polygon`]).
pub fn split_polygon_with<R: Recorder<SliceStep>>(poly: &[Vec2], line: &Line, rec: &mut R) -> Split {
    let mut split = Split::default();
    walk(poly, line, &mut split.behind, Some(&mut split.front), rec);
    split
}

/// Cuts convex polygon `poly` by `line` into the parts behind and in front of it. With a
/// trace, every edge's case, intersection and the two parts being built are recorded.
pub fn split_polygon(poly: &[Vec2], line: &Line, trace: Option<&mut super::SliceTrace>) -> Split {
    match trace {
        None => split_polygon_with(poly, line, &mut NoTrace),
        Some(t) => {
            t.clear(poly, *line);
            let split = split_polygon_with(poly, line, t);
            t.result = Some(split.clone());
            split
        }
    }
}

/// The part of segment `a`–`b` behind `line`, in the segment's direction; `None` when
/// nothing (or a single point) is behind it.
pub fn clip_segment(a: Vec2, b: Vec2, line: &Line) -> Option<(Vec2, Vec2)> {
    let (da, db) = (line.distance_to_line(a), line.distance_to_line(b));
    match (da <= 0.0, db <= 0.0) {
        (true, true) => Some((a, b)),
        (false, false) => None,
        (true, false) => crossing(a, b, da, db).map(|i| (a, i)),
        (false, true) => crossing(a, b, da, db).map(|i| (i, b)),
    }
    .filter(|(p, q)| p != q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::geometry::{area_centroid, is_convex_ccw, SliceTrace};

    fn square() -> Vec<Vec2> {
        vec![Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)]
    }

    fn horizontal(y: f32) -> Line {
        Line { n: Vec2::Y, c: y }
    }

    #[test]
    fn square_cut_at_a_quarter_height() {
        let s = split_polygon(&square(), &horizontal(-0.5), None);
        assert_eq!(s.behind.len(), 4);
        assert_eq!(s.front.len(), 4);
        let (ab, cb) = area_centroid(&s.behind);
        let (af, cf) = area_centroid(&s.front);
        assert!((ab - 1.0).abs() < 1e-6 && (af - 3.0).abs() < 1e-6);
        assert!((cb - Vec2::new(0.0, -0.75)).length() < 1e-6);
        assert!((cf - Vec2::new(0.0, 0.25)).length() < 1e-6);
    }

    #[test]
    fn diagonal_through_two_vertices_gives_two_triangles_without_duplicates() {
        // The line y = x passes through (-1, -1) and (1, 1): both vertices go to both parts.
        let line = Line { n: Vec2::new(1.0, -1.0).normalize(), c: 0.0 };
        let s = split_polygon(&square(), &line, None);
        assert_eq!(s.behind.len(), 3, "{:?}", s.behind);
        assert_eq!(s.front.len(), 3, "{:?}", s.front);
        assert!((area_centroid(&s.behind).0 - 2.0).abs() < 1e-6);
        assert!(s.behind.contains(&Vec2::new(-1.0, 1.0)) && s.front.contains(&Vec2::new(1.0, -1.0)));
    }

    #[test]
    fn line_missing_or_touching_leaves_one_part() {
        let s = split_polygon(&square(), &horizontal(5.0), None);
        assert_eq!((s.behind.len(), s.front.len()), (4, 0));
        let s = split_polygon(&square(), &horizontal(-5.0), None);
        assert_eq!((s.behind.len(), s.front.len()), (0, 4));
        // Touching the top edge: the edge is on both sides, but only the square has area.
        let s = split_polygon(&square(), &horizontal(1.0), None);
        assert_eq!((s.behind.len(), s.front.len()), (4, 0));
        // Touching one vertex of a diamond.
        let diamond = [Vec2::new(0.0, -1.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(-1.0, 0.0)];
        let s = split_polygon(&diamond, &horizontal(1.0), None);
        assert_eq!((s.behind.len(), s.front.len()), (4, 0));
    }

    #[test]
    fn triangle_cut_near_a_vertex_keeps_orientation() {
        let tri = [Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(0.0, 4.0)];
        let s = split_polygon(&tri, &Line { n: Vec2::X, c: 3.0 }, None);
        // Behind x = 3: a quadrilateral; in front: the triangle (3,0) (4,0) (3,1) of area 1/2.
        assert_eq!((s.behind.len(), s.front.len()), (4, 3));
        assert!((area_centroid(&s.front).0 - 0.5).abs() < 1e-6);
        assert!((area_centroid(&s.behind).0 - 7.5).abs() < 1e-5);
        assert!(is_convex_ccw(&s.behind, 1e-6) && is_convex_ccw(&s.front, 1e-6));
    }

    #[test]
    fn keep_behind_matches_the_split() {
        let line = Line { n: Vec2::new(0.6, 0.8), c: 0.3 };
        let mut out = Vec::new();
        clip_polygon_to_line(&square(), &line, &mut out);
        assert_eq!(out, split_polygon(&square(), &line, None).behind);
        clip_polygon_to_line(&[], &line, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn trace_records_every_edge_case() {
        let mut trace = SliceTrace::new();
        let s = split_polygon(&square(), &horizontal(0.0), Some(&mut trace));
        let cases: Vec<EdgeCase> = trace.edges().iter().map(|st| st.case).collect();
        // Edges: bottom (in–in), right (in–out), top (out–out), left (out–in).
        assert_eq!(cases, [EdgeCase::InIn, EdgeCase::InOut, EdgeCase::OutOut, EdgeCase::OutIn]);
        assert_eq!(trace.edges()[1].intersection, Some(Vec2::new(1.0, 0.0)));
        assert_eq!(trace.edges()[3].intersection, Some(Vec2::new(-1.0, 0.0)));
        assert_eq!(trace.edges()[0].intersection, None);
        assert_eq!(trace.edges().last().unwrap().behind, s.behind);
        assert_eq!(trace.result.as_ref(), Some(&s));
        assert_eq!(trace.len(), 4);
    }

    #[test]
    fn segments_are_clipped_in_their_direction() {
        let line = horizontal(0.0);
        let up = clip_segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 3.0), &line);
        assert_eq!(up, Some((Vec2::new(0.0, -1.0), Vec2::ZERO)));
        let down = clip_segment(Vec2::new(2.0, 1.0), Vec2::new(0.0, -1.0), &line);
        assert_eq!(down, Some((Vec2::new(1.0, 0.0), Vec2::new(0.0, -1.0))));
        assert_eq!(clip_segment(Vec2::Y, Vec2::ONE, &line), None);
        assert_eq!(clip_segment(Vec2::ZERO, Vec2::Y, &line), None, "a single point is nothing");
        assert_eq!(crossing(Vec2::ZERO, Vec2::X, 0.0, 1.0), None);
        assert_eq!(EdgeCase::classify(0.0, 0.0), EdgeCase::InIn);
    }
}
