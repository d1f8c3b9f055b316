//! The motion of a body over one step, as time of impact sees it (Box2D v3's `b2Sweep`): the
//! centre of mass moves on a straight line from `c1` to `c2` while the rotation is blended
//! from `q1` to `q2` and renormalized (nlerp), both over the unit interval `t ∈ [0, 1]`.
//! Shapes are defined about the body origin, which may differ from the centre of mass, so the
//! sweep keeps the local centre and rotates about it.
//!
//! Nlerp covers rotations of less than half a turn per sweep; the angle it traces is not
//! uniform in `t`, and its rate peaks at `t = ½` at `2·tan(Δ/2)` for a total turn `Δ`
//! ([`Sweep::max_angular_speed`], the ω that conservative advancement multiplies by r_max).

use crate::engine::math::{cross, Rot, Transform};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Largest rate [`Sweep::max_angular_speed`] reports (a sweep of nearly half a turn).
pub const MAX_SWEEP_ANGULAR_SPEED: f32 = 1.0e3;

/// A body's motion over `t ∈ [0, 1]` (Box2D's `b2Sweep`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// Centre of mass in the body frame.
    pub local_center: Vec2,
    /// Centre of mass in world space at `t = 0` and `t = 1`.
    pub c1: Vec2,
    pub c2: Vec2,
    /// Rotation at `t = 0` and `t = 1`.
    pub q1: Rot,
    pub q2: Rot,
}

impl Sweep {
    /// A sweep between two poses of the body origin.
    pub fn between(local_center: Vec2, start: &Transform, end: &Transform) -> Sweep {
        Sweep { local_center, c1: start.apply(local_center), c2: end.apply(local_center), q1: start.q, q2: end.q }
    }

    /// A body that does not move.
    pub fn stationary(local_center: Vec2, xf: &Transform) -> Sweep {
        Sweep::between(local_center, xf, xf)
    }

    /// The body origin's transform at `t` (Box2D's `b2GetSweepTransform`): centre lerped,
    /// rotation nlerped, then shifted from the centre of mass to the origin.
    #[inline]
    pub fn transform(&self, t: f32) -> Transform {
        let p = (1.0 - t) * self.c1 + t * self.c2;
        let c = (1.0 - t) * self.q1.c + t * self.q2.c;
        let s = (1.0 - t) * self.q1.s + t * self.q2.s;
        let mag = (c * c + s * s).sqrt();
        // Exactly opposite rotations blend to zero at t = ½: take the quarter turn.
        let q = if mag > 0.0 { Rot { c: c / mag, s: s / mag } } else { Rot { c: -self.q1.s, s: self.q1.c } };
        Transform { p: p - q.apply(self.local_center), q }
    }

    /// The displacement of the centre of mass over the sweep.
    pub fn translation(&self) -> Vec2 {
        self.c2 - self.c1
    }

    /// The signed angle from `q1` to `q2`, in `(−π, π]`.
    pub fn rotation(&self) -> f32 {
        let (a, b) = (self.q1, self.q2);
        cross(a.x_axis(), b.x_axis()).atan2(a.c * b.c + a.s * b.s)
    }

    /// Whether the rotation is the same at both ends (a pure translation).
    pub fn is_translation(&self) -> bool {
        self.q1 == self.q2
    }

    /// An upper bound on the rate of turn `dθ/dt` along the sweep: nlerp between rotations
    /// `Δ` apart turns at `sin Δ / |q(t)|²`, largest at `t = ½`, `2·tan(Δ/2)`.
    pub fn max_angular_speed(&self) -> f32 {
        let half = 0.5 * self.rotation().abs();
        let rate = 2.0 * half.tan();
        if rate.is_finite() && rate >= 0.0 {
            rate.min(MAX_SWEEP_ANGULAR_SPEED)
        } else {
            MAX_SWEEP_ANGULAR_SPEED
        }
    }

    /// The same motion in a frame whose origin is at `base` (Box2D's `b2MakeRelativeSweep`):
    /// time of impact stays precise for bodies far from the world origin.
    pub fn relative_to(&self, base: Vec2) -> Sweep {
        Sweep { c1: self.c1 - base, c2: self.c2 - base, ..*self }
    }

    /// Whether every number is finite.
    pub fn is_finite(&self) -> bool {
        self.local_center.is_finite()
            && self.c1.is_finite()
            && self.c2.is_finite()
            && [self.q1.c, self.q1.s, self.q2.c, self.q2.s].iter().all(|x| x.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    #[test]
    fn ends_and_midpoint() {
        let lc = Vec2::new(0.5, 0.0);
        let (a, b) = (Transform::new(Vec2::new(1.0, 2.0), 0.0), Transform::new(Vec2::new(5.0, 2.0), FRAC_PI_2));
        let s = Sweep::between(lc, &a, &b);
        assert!((s.transform(0.0).p - a.p).length() < 1e-6);
        assert!((s.transform(1.0).p - b.p).length() < 1e-6 && (s.transform(1.0).q.angle() - FRAC_PI_2).abs() < 1e-6);
        // The centre of mass moves on the straight line; the midpoint rotation is 45°.
        let m = s.transform(0.5);
        assert!((m.apply(lc) - 0.5 * (s.c1 + s.c2)).length() < 1e-5);
        assert!((m.q.angle() - 0.25 * std::f32::consts::PI).abs() < 1e-6);
        assert!((s.rotation() - FRAC_PI_2).abs() < 1e-6);
        // Nlerp over a quarter turn peaks at 2·tan(π/4) = 2 rad per unit t, more than the mean π/2.
        assert!((s.max_angular_speed() - 2.0).abs() < 1e-5);
        let h = 1e-3;
        let rate = (s.transform(0.5 + h).q.angle() - s.transform(0.5 - h).q.angle()) / (2.0 * h);
        assert!((rate - s.max_angular_speed()).abs() < 1e-2, "{rate}");
    }

    #[test]
    fn opposite_rotations_stay_finite() {
        let half_turn = Rot { c: -1.0, s: 0.0 };
        let s = Sweep { local_center: Vec2::X, c1: Vec2::ZERO, c2: Vec2::ONE, q1: Rot::IDENTITY, q2: half_turn };
        let m = s.transform(0.5);
        assert!(m.p.is_finite() && m.q.c.is_finite() && (m.q.c * m.q.c + m.q.s * m.q.s - 1.0).abs() < 1e-5);
        assert!(s.max_angular_speed() <= MAX_SWEEP_ANGULAR_SPEED);
    }
}
