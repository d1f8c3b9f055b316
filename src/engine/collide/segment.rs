//! Closest points of two segments (Ericson, "Real-Time Collision Detection" 5.1.9, as Box2D
//! v3's `b2SegmentDistance`), the core query of capsule manifolds.

use glam::Vec2;

/// The closest points `closest1 = p1 + fraction1 (q1 − p1)` and `closest2 = p2 + fraction2
/// (q2 − p2)` of segments `p1 q1` and `p2 q2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentDistance {
    pub closest1: Vec2,
    pub closest2: Vec2,
    pub fraction1: f32,
    pub fraction2: f32,
    pub distance_squared: f32,
}

/// `b2SegmentDistance`: the closest points of two segments; degenerate (point) segments are
/// handled.
pub fn segment_distance(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistance {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let dd1 = d1.dot(d1);
    let dd2 = d2.dot(d2);
    let rd1 = r.dot(d1);
    let rd2 = r.dot(d2);
    let eps_sqr = f32::EPSILON * f32::EPSILON;
    let (f1, f2) = if dd1 < eps_sqr || dd2 < eps_sqr {
        if dd1 >= eps_sqr {
            ((-rd1 / dd1).clamp(0.0, 1.0), 0.0)
        } else if dd2 >= eps_sqr {
            (0.0, (rd2 / dd2).clamp(0.0, 1.0))
        } else {
            (0.0, 0.0)
        }
    } else {
        let d12 = d1.dot(d2);
        let denominator = dd1 * dd2 - d12 * d12;
        // Fraction on segment 1 (0 when parallel).
        let mut f1 = if denominator != 0.0 { ((d12 * rd2 - rd1 * dd2) / denominator).clamp(0.0, 1.0) } else { 0.0 };
        // The point of segment 2 closest to p1 + f1 d1; clamping it means redoing segment 1.
        let mut f2 = (d12 * f1 + rd2) / dd2;
        if f2 < 0.0 {
            f2 = 0.0;
            f1 = (-rd1 / dd1).clamp(0.0, 1.0);
        } else if f2 > 1.0 {
            f2 = 1.0;
            f1 = ((d12 - rd1) / dd1).clamp(0.0, 1.0);
        }
        (f1, f2)
    };
    let closest1 = p1 + f1 * d1;
    let closest2 = p2 + f2 * d2;
    SegmentDistance {
        closest1,
        closest2,
        fraction1: f1,
        fraction2: f2,
        distance_squared: closest1.distance_squared(closest2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_parallel_and_end_to_end() {
        let r = segment_distance(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0));
        assert_eq!(r.distance_squared, 0.0);
        assert_eq!((r.fraction1, r.fraction2), (0.5, 0.5));
        let r = segment_distance(Vec2::ZERO, Vec2::X, Vec2::new(0.5, 2.0), Vec2::new(3.0, 2.0));
        assert!((r.distance_squared - 4.0).abs() < 1e-6);
        let r = segment_distance(Vec2::ZERO, Vec2::X, Vec2::new(2.0, 1.0), Vec2::new(3.0, 2.0));
        assert_eq!((r.fraction1, r.fraction2), (1.0, 0.0));
        assert!((r.distance_squared - 2.0).abs() < 1e-6);
        // A point segment.
        let r = segment_distance(Vec2::ZERO, Vec2::X, Vec2::new(0.25, 1.0), Vec2::new(0.25, 1.0));
        assert!((r.closest1 - Vec2::new(0.25, 0.0)).length() < 1e-6);
    }
}
