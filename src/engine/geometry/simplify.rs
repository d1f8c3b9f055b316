//! Polygon simplification by Visvalingam–Whyatt ("Line generalisation by repeated
//! elimination of points", 1993): drop the vertex whose triangle with its two neighbours has
//! the least area, until few enough remain. On a convex polygon every such triangle lies
//! inside it, so the result stays convex, keeps its orientation, and loses the least area a
//! single removal can.

use crate::engine::math::cross;
use glam::Vec2;

/// Removes vertices of `points` (a convex polygon) until at most `max` (≥ 3) remain.
/// Returns the area removed.
pub fn simplify_to(points: &mut Vec<Vec2>, max: usize) -> f32 {
    let max = max.max(3);
    let mut removed = 0.0;
    while points.len() > max {
        let n = points.len();
        let triangle = |i: usize| {
            let (a, b, c) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
            0.5 * cross(b - a, c - b).abs()
        };
        let (index, area) = (0..n).map(|i| (i, triangle(i))).min_by(|x, y| x.1.total_cmp(&y.1)).unwrap_or((0, 0.0));
        removed += area;
        points.remove(index);
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::geometry::{area_centroid, is_convex_ccw};

    #[test]
    fn drops_the_flattest_vertices_first() {
        // A square with a nearly straight extra vertex on its bottom edge and a corner cut.
        let mut pts = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, -0.01),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.1, 2.0),
            Vec2::new(0.0, 1.9),
        ];
        let before = area_centroid(&pts).0;
        let removed = simplify_to(&mut pts, 4);
        assert_eq!(pts.len(), 4);
        assert!(!pts.contains(&Vec2::new(1.0, -0.01)));
        assert!(is_convex_ccw(&pts, 0.0));
        assert!((before - removed - area_centroid(&pts).0).abs() < 1e-5);
        let mut tri = vec![Vec2::ZERO, Vec2::X, Vec2::Y];
        assert_eq!(simplify_to(&mut tri, 0), 0.0);
        assert_eq!(tri.len(), 3);
    }
}
