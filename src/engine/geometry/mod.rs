//! Plane geometry shared by the narrowphase, the water and slicing: the 000 article's `Line`,
//! Sutherland–Hodgman clipping of convex polygons by a line (003 article, "Dynamically
//! Slicing Shapes"; 000 article's clipping notes), its trace, circular segments and polygon
//! simplification.

pub mod circular_segment;
pub mod simplify;
pub mod slice_trace;
pub mod sutherland_hodgman;

pub use circular_segment::{circle_behind_line, CircleCut};
pub use simplify::simplify_to;
pub use slice_trace::{SliceStep, SliceTrace};
pub use sutherland_hodgman::{
    clip_polygon_to_line, clip_segment, crossing, split_polygon, split_polygon_with, EdgeCase, Split,
};

use crate::engine::math::{cross, right_perp};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A line `n·x = c` with unit normal `n` (000 article's `Line`). Points with a negative
/// distance are *behind* it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub n: Vec2,
    pub c: f32,
}

impl Line {
    /// Signed distance: negative behind the line (000 article's `DistanceToLine`).
    #[inline]
    pub fn distance_to_line(&self, p: Vec2) -> f32 {
        self.n.dot(p) - self.c
    }

    /// The line through `a` and `b` with its normal to the right of `a → b` (for a CCW
    /// polygon's edge, the outward normal): points left of `a → b` are behind it. `None` when
    /// the points coincide or are not finite.
    pub fn through(a: Vec2, b: Vec2) -> Option<Line> {
        let n = right_perp(b - a).try_normalize()?;
        let line = Line { n, c: n.dot(a) };
        line.c.is_finite().then_some(line)
    }
}

/// Signed area (positive when counter-clockwise) and centroid of a simple polygon, summed as
/// a triangle fan from the first vertex for precision (as `Polygon::mass_data`). A polygon of
/// fewer than three points, or of zero area, gives area 0 and the mean of its points.
pub fn area_centroid(points: &[Vec2]) -> (f32, Vec2) {
    let Some(&origin) = points.first() else { return (0.0, Vec2::ZERO) };
    let mut area = 0.0;
    let mut center = Vec2::ZERO;
    for w in points[1..].windows(2) {
        let (e1, e2) = (w[0] - origin, w[1] - origin);
        let tri = 0.5 * cross(e1, e2);
        area += tri;
        center += tri * (e1 + e2) / 3.0;
    }
    if area != 0.0 && area.is_finite() {
        (area, origin + center / area)
    } else {
        let mean = points.iter().copied().sum::<Vec2>() / points.len() as f32;
        (0.0, mean)
    }
}

/// Whether `points` form a convex polygon in counter-clockwise order: every turn is a left
/// turn or straight within `tolerance` (an area, in squared length units), and the polygon
/// winds once (its positive turns sum to one revolution).
pub fn is_convex_ccw(points: &[Vec2], tolerance: f32) -> bool {
    let n = points.len();
    if n < 3 {
        return false;
    }
    let mut turning = 0.0f32;
    for i in 0..n {
        let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
        let (e1, e2) = (b - a, c - b);
        if cross(e1, e2) < -tolerance {
            return false;
        }
        if e1 != Vec2::ZERO && e2 != Vec2::ZERO {
            turning += cross(e1, e2).atan2(e1.dot(e2));
        }
    }
    (turning - std::f32::consts::TAU).abs() < 1e-2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_and_centroid_of_a_square_and_a_triangle() {
        let sq = [Vec2::new(1.0, 1.0), Vec2::new(3.0, 1.0), Vec2::new(3.0, 3.0), Vec2::new(1.0, 3.0)];
        assert_eq!(area_centroid(&sq), (4.0, Vec2::new(2.0, 2.0)));
        let cw: Vec<Vec2> = sq.iter().rev().copied().collect();
        assert_eq!(area_centroid(&cw).0, -4.0);
        let tri = [Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(0.0, 3.0)];
        let (a, c) = area_centroid(&tri);
        assert!((a - 4.5).abs() < 1e-6 && (c - Vec2::ONE).length() < 1e-6);
        assert_eq!(area_centroid(&[Vec2::X, Vec2::Y]), (0.0, Vec2::splat(0.5)));
        assert_eq!(area_centroid(&[]), (0.0, Vec2::ZERO));
    }

    #[test]
    fn convexity_and_winding() {
        let sq = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        assert!(is_convex_ccw(&sq, 0.0));
        let cw: Vec<Vec2> = sq.iter().rev().copied().collect();
        assert!(!is_convex_ccw(&cw, 0.0));
        let dart = [Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.5), Vec2::new(1.0, 2.0)];
        assert!(!is_convex_ccw(&dart, 1e-6));
        // A pentagram's turns are all left but it winds twice.
        let star: Vec<Vec2> = (0..5).map(|i| Vec2::from_angle(i as f32 * 2.0 * std::f32::consts::TAU / 5.0)).collect();
        assert!(!is_convex_ccw(&star, 0.0));
        let line = Line::through(Vec2::ZERO, Vec2::X).unwrap();
        assert_eq!(line.n, Vec2::NEG_Y);
        assert!(line.distance_to_line(Vec2::Y) < 0.0, "left of the direction is behind");
        assert_eq!(Line::through(Vec2::ONE, Vec2::ONE), None);
    }
}
