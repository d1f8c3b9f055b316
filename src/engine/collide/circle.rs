//! Circle–circle manifold (000 article, "Circle to Circle"); traced by `circle_trace`.

use super::circle_trace::CircleStep;
use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec2;

/// Centres closer than this are treated as coincident.
const COINCIDENT: f32 = 1.0e-6;

/// Contact between circles of radii `ra`, `rb` centred at `ca`, `cb`. Points whose separation
/// is below `margin` are kept (margin 0 reports overlaps only).
///
/// Coincident centres get the article's consistent fallback normal `(1, 0)`; the depth is
/// `ra + rb`, the distance that separates them along it.
pub fn collide_circles(ca: Vec2, ra: f32, cb: Vec2, rb: f32, margin: f32) -> Manifold {
    collide_circles_with(ca, ra, cb, rb, margin, &mut NoTrace)
}

/// [`collide_circles`] recording its steps (the Manifold lab's trace).
pub fn collide_circles_with<R: Recorder<CircleStep>>(
    ca: Vec2,
    ra: f32,
    cb: Vec2,
    rb: f32,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let m = circles(ca, ra, cb, rb, margin, rec);
    if R::ENABLED {
        rec.record(CircleStep::Done(m, 0.5 * (ca + cb)));
    }
    m
}

fn circles<R: Recorder<CircleStep>>(ca: Vec2, ra: f32, cb: Vec2, rb: f32, margin: f32, rec: &mut R) -> Manifold {
    let t = cb - ca;
    let radius = ra + rb;
    let reach = radius + margin;
    // Early out before any square root.
    let separated = t.length_squared() > reach * reach;
    if R::ENABLED {
        rec.record(CircleStep::CentreLine { ca, cb, t });
        rec.record(CircleStep::Distance { ca, cb, distance: t.length(), radius, reach, separated });
    }
    if separated {
        return Manifold::EMPTY;
    }
    let d = t.length();
    let mut m = Manifold::EMPTY;
    let coincident = d < COINCIDENT;
    let (normal, penetration) = if coincident { (Vec2::X, radius) } else { (t / d, radius - d) };
    if R::ENABLED {
        rec.record(CircleStep::Normal { ca, normal, coincident, penetration });
    }
    m.normal = normal;
    // Midway between the two surfaces along the normal.
    let on_a = ca + normal * ra;
    let on_b = cb - normal * rb;
    m.push(ManifoldPoint {
        point: 0.5 * (on_a + on_b),
        penetration,
        id: FeatureId::new(false, FeatureKind::Circle, 0, 0),
    });
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_circles() {
        let m = collide_circles(Vec2::ZERO, 1.0, Vec2::new(1.5, 0.0), 1.0, 0.0);
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec2::X);
        assert!((m.points[0].penetration - 0.5).abs() < 1e-6);
        assert!((m.points[0].point - Vec2::new(0.75, 0.0)).length() < 1e-6);
    }

    #[test]
    fn separated_circles_have_no_contact() {
        assert_eq!(collide_circles(Vec2::ZERO, 1.0, Vec2::new(0.0, 2.5), 1.0, 0.0).count, 0);
        // ...unless within the speculative margin
        let m = collide_circles(Vec2::ZERO, 1.0, Vec2::new(0.0, 2.01), 1.0, 0.02);
        assert_eq!(m.count, 1);
        assert!((m.points[0].penetration + 0.01).abs() < 1e-5);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
    }

    #[test]
    fn coincident_centres_use_a_consistent_normal() {
        let c = Vec2::new(3.0, -2.0);
        let m = collide_circles(c, 0.5, c, 0.25, 0.0);
        assert_eq!(m.count, 1);
        assert_eq!(m.normal, Vec2::X);
        assert!((m.points[0].penetration - 0.75).abs() < 1e-6);
        assert!(m.points[0].point.is_finite());
    }

    #[test]
    fn just_touching_reports_zero_depth() {
        let m = collide_circles(Vec2::ZERO, 1.0, Vec2::new(2.0, 0.0), 1.0, 0.0);
        assert_eq!(m.count, 1);
        assert!(m.points[0].penetration.abs() < 1e-6);
    }
}
