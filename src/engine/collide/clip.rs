//! Reference/incident faces and Sutherland–Hodgman clipping of a segment against a line
//! (000 article, "OBB to OBB": side planes, `Segment::Clip`, `DistanceToLine`). The segment
//! clip is the polygon clipper's special case (`geometry::sutherland_hodgman`): the same
//! per-edge step, on one open edge, keeping feature ids.

use crate::engine::geometry::crossing;
pub use crate::engine::geometry::Line;
use glam::Vec2;

/// A point of a clipped segment with the feature that produced it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipVertex {
    pub v: Vec2,
    /// Index of the incident vertex it is, or `None` if the clip created it.
    pub incident_vertex: Option<usize>,
    /// Index of the side plane (0 or 1) that created it, if any.
    pub side_plane: Option<usize>,
}

/// Keeps the part of segment `input` behind `line` (Sutherland–Hodgman for one plane).
/// Returns the number of output points; fewer than 2 means floating point error removed the
/// segment, which the article says to treat as no contact.
pub fn clip_segment_to_line(input: [ClipVertex; 2], line: &Line, side_plane: usize) -> ([ClipVertex; 2], usize) {
    let mut out = input;
    let mut count = 0;
    let d1 = line.distance_to_line(input[0].v);
    let d2 = line.distance_to_line(input[1].v);
    if d1 <= 0.0 {
        out[count] = input[0];
        count += 1;
    }
    if d2 <= 0.0 {
        out[count] = input[1];
        count += 1;
    }
    // Endpoints strictly on different sides: add the intersection.
    if let Some(v) = crossing(input[0].v, input[1].v, d1, d2).filter(|_| count < 2) {
        out[count] = ClipVertex { v, incident_vertex: None, side_plane: Some(side_plane) };
        count += 1;
    }
    (out, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cv(x: f32, y: f32, i: usize) -> ClipVertex {
        ClipVertex { v: Vec2::new(x, y), incident_vertex: Some(i), side_plane: None }
    }

    #[test]
    fn both_behind_kept() {
        let line = Line { n: Vec2::X, c: 1.0 };
        let (out, n) = clip_segment_to_line([cv(0.0, 0.0, 0), cv(0.5, 1.0, 1)], &line, 0);
        assert_eq!(n, 2);
        assert_eq!(out[0].incident_vertex, Some(0));
        assert_eq!(out[1].incident_vertex, Some(1));
    }

    #[test]
    fn crossing_segment_gets_intersection() {
        let line = Line { n: Vec2::X, c: 1.0 };
        let (out, n) = clip_segment_to_line([cv(0.0, 0.0, 0), cv(2.0, 2.0, 1)], &line, 1);
        assert_eq!(n, 2);
        assert_eq!(out[0].v, Vec2::ZERO);
        assert!((out[1].v - Vec2::new(1.0, 1.0)).length() < 1e-6);
        assert_eq!(out[1].side_plane, Some(1));
        assert_eq!(out[1].incident_vertex, None);
    }

    #[test]
    fn segment_in_front_is_removed() {
        let line = Line { n: Vec2::X, c: 1.0 };
        let (_, n) = clip_segment_to_line([cv(2.0, 0.0, 0), cv(3.0, 1.0, 1)], &line, 0);
        assert_eq!(n, 0);
    }
}
