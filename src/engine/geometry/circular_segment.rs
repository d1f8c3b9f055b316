//! The part of a circle behind a line: a circular segment, with its area and centroid in
//! closed form (the half angle `θ` of the arc behind the line, `cos θ = d / r` for a centre
//! `d` in front of the line: area `r²(θ − sin θ cos θ)`, centroid `2 r sin³θ / (3(θ − sin θ
//! cos θ))` from the centre, away from the line's normal). Water uses it so circles float
//! exactly, not as n-gons.

use super::Line;
use glam::Vec2;

/// A circle cut by a line: what lies behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CircleCut {
    pub area: f32,
    /// Centroid of the part behind the line (the centre when all of it is).
    pub centroid: Vec2,
    /// Half angle of the arc behind the line, about the direction `−n` from the centre: 0 when
    /// nothing is behind, π when everything is.
    pub half_angle: f32,
}

/// `θ − sin θ cos θ` without the cancellation of small angles (`(x − sin x) / 2`, `x = 2θ`).
fn segment_factor(theta: f64) -> f64 {
    let x = 2.0 * theta;
    if x < 1e-2 {
        let x3 = x * x * x;
        0.5 * (x3 / 6.0 - x3 * x * x / 120.0 + x3 * x3 * x / 5040.0)
    } else {
        0.5 * (x - x.sin())
    }
}

/// The part of the circle at `center` with `radius` behind `line` (in f64 inside, so a sliver
/// of a cap keeps its digits).
pub fn circle_behind_line(center: Vec2, radius: f32, line: &Line) -> CircleCut {
    let d = line.distance_to_line(center) as f64;
    let r = radius as f64;
    if !(d.is_finite() && r > 0.0 && r.is_finite()) {
        return CircleCut { area: 0.0, centroid: center, half_angle: 0.0 };
    }
    let t = (d / r).clamp(-1.0, 1.0);
    let theta = t.acos();
    let factor = segment_factor(theta);
    let area = r * r * factor;
    let offset = if factor > 0.0 { 2.0 * r * theta.sin().powi(3) / (3.0 * factor) } else { r };
    CircleCut { area: area as f32, centroid: center - line.n * (offset.min(r) as f32), half_angle: theta as f32 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::PI;

    fn at_height(y: f32) -> Line {
        Line { n: Vec2::Y, c: y }
    }

    #[test]
    fn half_full_and_empty() {
        let c = Vec2::new(2.0, 1.0);
        let half = circle_behind_line(c, 2.0, &at_height(1.0));
        assert!((half.area - 2.0 * PI).abs() < 1e-5);
        // The centroid of a half disk is 4r / 3π from the centre.
        assert!((half.centroid - (c - Vec2::new(0.0, 8.0 / (3.0 * PI)))).length() < 1e-6);
        assert!((half.half_angle - 0.5 * PI).abs() < 1e-6);
        let full = circle_behind_line(c, 2.0, &at_height(10.0));
        assert!((full.area - 4.0 * PI).abs() < 1e-5 && (full.centroid - c).length() < 1e-6);
        let none = circle_behind_line(c, 2.0, &at_height(-10.0));
        assert_eq!((none.area, none.half_angle), (0.0, 0.0));
    }

    #[test]
    fn matches_numerical_integration_of_chord_widths() {
        // Area and first moment of the disk below y = h, by the midpoint rule over strips.
        let r = 0.7f64;
        for h in [-0.69f64, -0.5, -0.1, 0.0, 0.3, 0.65, 0.699] {
            let n = 200_000;
            let (mut area, mut moment) = (0.0, 0.0);
            let dy = (h + r) / n as f64;
            for i in 0..n {
                let y = -r + (i as f64 + 0.5) * dy;
                let w = 2.0 * (r * r - y * y).max(0.0).sqrt();
                area += w * dy;
                moment += w * y * dy;
            }
            let cut = circle_behind_line(Vec2::ZERO, r as f32, &at_height(h as f32));
            assert!((cut.area as f64 - area).abs() < 1e-5 * area.max(1e-3), "h {h}: {} vs {area}", cut.area);
            assert!((cut.centroid.y as f64 - moment / area).abs() < 1e-4, "h {h}");
            assert_eq!(cut.centroid.x, 0.0);
        }
    }

    #[test]
    fn tilted_lines_and_degenerate_input() {
        let n = Vec2::new(0.6, 0.8);
        let cut = circle_behind_line(Vec2::ZERO, 1.0, &Line { n, c: 0.0 });
        assert!((cut.area - 0.5 * PI).abs() < 1e-5);
        assert!((cut.centroid + n * (4.0 / (3.0 * PI))).length() < 1e-6);
        let sliver = circle_behind_line(Vec2::ZERO, 1.0, &at_height(-0.999_999));
        assert!(sliver.area > 0.0 && sliver.area < 1e-8 && sliver.centroid.y < -0.999);
        let nan = circle_behind_line(Vec2::NAN, 1.0, &at_height(0.0));
        assert_eq!(nan.area, 0.0);
    }
}
