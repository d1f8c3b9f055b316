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
    remove_near_collinear(&mut lower);
    Ok(lower)
}

/// Rotates a CCW hull to start from its lowest (then leftmost) vertex, a canonical order for
/// round trips.
pub(crate) fn rotate_to_lowest(hull: &mut [Vec2]) {
    let start = (0..hull.len())
        .min_by(|&i, &j| hull[i].y.total_cmp(&hull[j].y).then(hull[i].x.total_cmp(&hull[j].x)))
        .unwrap_or(0);
    hull.rotate_left(start);
}

/// How far vertex `i` of a CCW hull bulges out of the line through its two neighbours.
fn bulge(hull: &[Vec2], i: usize) -> f32 {
    let n = hull.len();
    let (a, p, b) = (hull[(i + n - 1) % n], hull[i], hull[(i + 1) % n]);
    let e = b - a;
    -cross(e, p - a) / e.length().max(f32::MIN_POSITIVE)
}

/// Puts a CCW hull in canonical order and removes, one at a time, the vertex that bulges least
/// out of the line through its neighbours while that is within [`WELD_TOLERANCE`] (down to a
/// triangle): a nearly straight run of edges becomes one edge, as Box2D's hull merges collinear
/// points. Each point was tested only against the edges its algorithm built, which lets a
/// vertex a fraction of a millimetre off its neighbours' line through; its two edges would
/// then have normals a hair apart, and the separating axis test would pick between them on
/// round-off. Returns the removed vertices, in removal order.
pub(crate) fn remove_near_collinear(hull: &mut Vec<Vec2>) -> Vec<Vec2> {
    rotate_to_lowest(hull);
    let mut removed = Vec::new();
    while hull.len() > 3 {
        let flattest = (0..hull.len()).map(|i| (bulge(hull, i), i)).min_by(|x, y| x.0.total_cmp(&y.0));
        match flattest {
            Some((d, i)) if d <= WELD_TOLERANCE => removed.push(hull.remove(i)),
            _ => break,
        }
    }
    rotate_to_lowest(hull);
    removed
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
    fn a_vertex_a_hair_off_its_neighbours_line_is_removed() {
        // A square with a fifth vertex just outside the middle of its bottom edge.
        let square = |sag: f32| {
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(0.5, -sag),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.0),
            ]
        };
        let mut h = square(0.0002);
        assert_eq!(remove_near_collinear(&mut h), [Vec2::new(0.5, -0.0002)]);
        assert_eq!(h, [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)]);
        // Beyond the tolerance it is a vertex (and the lowest, so the hull starts there).
        let mut h = square(0.003);
        assert!(remove_near_collinear(&mut h).is_empty());
        assert_eq!(h.len(), 5);
        assert_eq!(h[0], Vec2::new(0.5, -0.003));
    }

    /// Points around circles of 5 to 12 jittered directions, some pairs of directions a
    /// fraction of a degree apart: neither hull keeps a vertex within the weld tolerance of the
    /// line through its neighbours (QuickHull did: a vertex 0.2 mm off that line, tested only
    /// against edges it was far from, left two face normals 0.1° apart).
    #[test]
    fn no_hull_keeps_a_nearly_straight_vertex() {
        let mut seed = 0x9e37_79b9_u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        for _ in 0..2000 {
            let n = 5 + (rnd() * 8.0) as usize;
            let radius = 0.2 + 2.0 * rnd();
            let mut angles: Vec<f32> = (0..n).map(|_| rnd() * std::f32::consts::TAU).collect();
            // Pairs a hair apart: two edges whose normals differ by about 0.1°.
            for k in 1..n / 3 {
                angles[3 * k] = angles[3 * k - 1] + 0.002 * rnd();
            }
            let pts: Vec<Vec2> = angles.iter().map(|a| radius * Vec2::new(a.cos(), a.sin())).collect();
            let (Ok(mono), Ok(quick)) = (convex_hull(&pts), super::super::quickhull2::quickhull_2d(&pts, None)) else {
                continue;
            };
            for h in [&mono, &quick] {
                for i in 0..h.len() {
                    assert!(h.len() == 3 || bulge(h, i) > WELD_TOLERANCE, "vertex {i} of {h:?} is nearly straight");
                }
            }
        }
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
