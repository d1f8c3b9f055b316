//! Convex hull of a 2D point set by Andrew's monotone chain, with welding of near-duplicate
//! points and removal of collinear points, so the result is a strictly convex CCW polygon.

use crate::engine::math::cross;
use glam::Vec2;
use std::fmt;

/// Points closer than this are welded into one (metres).
pub const WELD_TOLERANCE: f32 = 0.5 * crate::engine::LINEAR_SLOP;

/// Why a point set has no usable hull.
#[derive(Clone, Debug, PartialEq)]
pub enum HullError {
    NotFinite { index: usize },
    TooFewPoints { count: usize },
    TooManyVertices { count: usize, max: usize },
    Collinear,
    TooLarge { index: usize },
}

impl fmt::Display for HullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HullError::NotFinite { index } => write!(f, "point {index} is not a finite number"),
            HullError::TooFewPoints { count } => {
                write!(f, "a polygon needs at least 3 distinct points, got {count}")
            }
            HullError::TooManyVertices { count, max } => {
                write!(f, "the hull has {count} vertices, at most {max} are supported")
            }
            HullError::Collinear => write!(f, "the points are collinear (zero area)"),
            HullError::TooLarge { index } => {
                write!(f, "point {index} is too far from the origin (|x|,|y| must be < 1e5)")
            }
        }
    }
}

/// Largest coordinate accepted for shape geometry; beyond this f32 precision breaks collision.
pub const MAX_COORDINATE: f32 = 1.0e5;

/// Computes the CCW convex hull of `points`. Near-duplicates are welded and collinear
/// points dropped. Returns the hull vertices, starting from the lowest-leftmost point.
pub fn convex_hull(points: &[Vec2]) -> Result<Vec<Vec2>, HullError> {
    for (index, p) in points.iter().enumerate() {
        if !p.is_finite() {
            return Err(HullError::NotFinite { index });
        }
        if p.x.abs() >= MAX_COORDINATE || p.y.abs() >= MAX_COORDINATE {
            return Err(HullError::TooLarge { index });
        }
    }
    // Weld near-duplicates.
    let mut unique: Vec<Vec2> = Vec::with_capacity(points.len());
    for &p in points {
        if unique.iter().all(|q| q.distance_squared(p) > WELD_TOLERANCE * WELD_TOLERANCE) {
            unique.push(p);
        }
    }
    if unique.len() < 3 {
        return Err(HullError::TooFewPoints { count: unique.len() });
    }
    unique.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));

    // Monotone chain; `<= tol` pops collinear points.
    let keep_left = |h: &Vec<Vec2>, p: Vec2| {
        let n = h.len();
        let (a, b) = (h[n - 2], h[n - 1]);
        let e = b - a;
        let len = e.length();
        // Signed distance of p from line ab, scaled tolerance keeps nearly collinear points out.
        cross(e, p - a) > WELD_TOLERANCE * len
    };
    let mut lower: Vec<Vec2> = Vec::new();
    for &p in &unique {
        while lower.len() >= 2 && !keep_left(&lower, p) {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<Vec2> = Vec::new();
    for &p in unique.iter().rev() {
        while upper.len() >= 2 && !keep_left(&upper, p) {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    if lower.len() < 3 {
        return Err(HullError::Collinear);
    }
    // Start from the lowest point (then leftmost), a canonical order for round trips.
    let start = (0..lower.len())
        .min_by(|&i, &j| lower[i].y.total_cmp(&lower[j].y).then(lower[i].x.total_cmp(&lower[j].x)))
        .unwrap_or(0);
    lower.rotate_left(start);
    Ok(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(h: &[Vec2]) -> f32 {
        let mut a = 0.0;
        for i in 0..h.len() {
            a += cross(h[i], h[(i + 1) % h.len()]);
        }
        0.5 * a
    }

    #[test]
    fn square_with_interior_and_duplicate_points() {
        let pts = [
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 0.0), // collinear on an edge
        ];
        let h = convex_hull(&pts).unwrap();
        assert_eq!(h.len(), 4);
        assert_eq!(h[0], Vec2::new(0.0, 0.0));
        assert!((area(&h) - 1.0).abs() < 1e-6, "CCW area must be +1");
    }

    #[test]
    fn degenerate_inputs_are_errors() {
        assert_eq!(convex_hull(&[Vec2::ZERO, Vec2::X]), Err(HullError::TooFewPoints { count: 2 }));
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::ZERO, Vec2::ZERO, Vec2::X]),
            Err(HullError::TooFewPoints { count: 2 })
        );
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.0)]),
            Err(HullError::Collinear)
        );
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::new(f32::NAN, 1.0), Vec2::Y]),
            Err(HullError::NotFinite { index: 1 })
        );
        assert_eq!(convex_hull(&[Vec2::ZERO, Vec2::new(1e9, 1.0), Vec2::Y]), Err(HullError::TooLarge { index: 1 }));
    }
}
