//! The closest points between two lines, which article 001 needs for the contact point of an
//! edge–edge collision ("a point on one of the hulls that minimizes the distance between the
//! two edges"), after Paul Bourke's "The shortest line between two lines in 3D".

use glam::Vec3;

/// The closest points of the lines `p1p2` and `p3p4` (article's `#lineLine`, after Paul Bourke,
/// "The shortest line between two lines in 3D"): `(mu_a, mu_b, pa, pb)` with `pa = p1 + mu_a
/// (p2 − p1)` and `pb = p3 + mu_b (p4 − p3)`. `None` for degenerate or parallel lines; `eps` is
/// the article's `E`, made relative to the lengths (f32).
pub fn closest_points_between_lines(
    p1: Vec3,
    p2: Vec3,
    p3: Vec3,
    p4: Vec3,
    eps: f32,
) -> Option<(f32, f32, Vec3, Vec3)> {
    let p13 = p1 - p3;
    let p43 = p4 - p3;
    let p21 = p2 - p1;
    let (d4343, d2121) = (p43.dot(p43), p21.dot(p21));
    if d4343.sqrt() < eps || d2121.sqrt() < eps {
        return None;
    }
    let d1343 = p13.dot(p43);
    let d4321 = p43.dot(p21);
    let d1321 = p13.dot(p21);
    let denom = d2121 * d4343 - d4321 * d4321;
    if denom.abs() < eps * d2121 * d4343 {
        return None;
    }
    let mu_a = (d1343 * d4321 - d1321 * d4343) / denom;
    let mu_b = (d1343 + d4321 * mu_a) / d4343;
    Some((mu_a, mu_b, p1 + p21 * mu_a, p3 + p43 * mu_b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_lines_meet_their_common_perpendicular() {
        // The x axis, and a line along y at height z = 2 through x = 3.
        let (mu_a, mu_b, pa, pb) = closest_points_between_lines(
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(3.0, -1.0, 2.0),
            Vec3::new(3.0, 1.0, 2.0),
            1e-6,
        )
        .unwrap();
        assert!((pa - Vec3::new(3.0, 0.0, 0.0)).length() < 1e-6 && (pb - Vec3::new(3.0, 0.0, 2.0)).length() < 1e-6);
        assert!((mu_a - 3.0).abs() < 1e-6 && (mu_b - 0.5).abs() < 1e-6);
    }

    #[test]
    fn parallel_or_degenerate_lines_have_no_answer() {
        let e = 1e-6;
        assert!(closest_points_between_lines(Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Y + Vec3::X * 2.0, e).is_none());
        assert!(closest_points_between_lines(Vec3::ZERO, Vec3::ZERO, Vec3::Y, Vec3::Z, e).is_none());
    }
}
