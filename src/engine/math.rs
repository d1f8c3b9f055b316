//! Small 2D math layer on glam: a rotation with cached cosine/sine (the 000 article's
//! `Mat2`), rigid transforms, axis-aligned boxes and the 2D cross products.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A 2D rotation stored as cosine and sine, computed once per angle change
/// (000 article, "Mat2 Rotation Matrices": cache the trig results).
/// `repr(C)`: the solver loads a body's `[dp, dq]` as one vector (`solver::state`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct Rot {
    pub c: f32,
    pub s: f32,
}

impl Rot {
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    pub fn from_angle(radians: f32) -> Rot {
        let (s, c) = radians.sin_cos();
        Rot { c, s }
    }

    pub fn angle(self) -> f32 {
        self.s.atan2(self.c)
    }

    /// The rotated x axis (first column of the matrix).
    pub fn x_axis(self) -> Vec2 {
        Vec2::new(self.c, self.s)
    }

    /// The rotated y axis (second column of the matrix).
    pub fn y_axis(self) -> Vec2 {
        Vec2::new(-self.s, self.c)
    }

    /// Rotate `v` by this rotation.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotate `v` by the inverse (transpose) of this rotation.
    #[inline]
    pub fn apply_inv(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// `self⁻¹ · other`: `other` relative to `self` (Box2D's `b2InvMulRot`).
    #[inline]
    pub fn inv_mul(self, other: Rot) -> Rot {
        Rot { c: self.c * other.c + self.s * other.s, s: self.c * other.s - self.s * other.c }
    }

    /// Advance by angular displacement `da` and renormalize (first-order, as Box2D v3's
    /// `b2IntegrateRotation`), keeping the rotation unit length without calling trig.
    pub fn integrate(self, da: f32) -> Rot {
        let c = self.c - da * self.s;
        let s = self.s + da * self.c;
        let mag = (c * c + s * s).sqrt();
        if mag > 0.0 {
            Rot { c: c / mag, s: s / mag }
        } else {
            Rot::IDENTITY
        }
    }
}

/// The composition `a · b` (rotate by `b`, then by `a`; Box2D's `b2MulRot`).
impl std::ops::Mul for Rot {
    type Output = Rot;

    #[inline]
    fn mul(self, other: Rot) -> Rot {
        Rot { c: self.c * other.c - self.s * other.s, s: self.s * other.c + self.c * other.s }
    }
}

/// A rigid transform: rotation then translation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    pub p: Vec2,
    pub q: Rot,
}

impl Transform {
    pub const IDENTITY: Transform = Transform { p: Vec2::ZERO, q: Rot::IDENTITY };

    pub fn new(p: Vec2, angle: f32) -> Transform {
        Transform { p, q: Rot::from_angle(angle) }
    }

    /// Local point to world.
    #[inline]
    pub fn apply(&self, v: Vec2) -> Vec2 {
        self.q.apply(v) + self.p
    }

    /// World point to local (change of basis, 000 article "OBBs and Orientation").
    #[inline]
    pub fn apply_inv(&self, v: Vec2) -> Vec2 {
        self.q.apply_inv(v - self.p)
    }

    /// `inv(self) * other`: expresses `other` in this transform's frame.
    pub fn inv_mul(&self, other: &Transform) -> Transform {
        Transform {
            p: self.q.apply_inv(other.p - self.p),
            q: Rot { c: self.q.c * other.q.c + self.q.s * other.q.s, s: self.q.c * other.q.s - self.q.s * other.q.c },
        }
    }
}

/// An axis-aligned bounding box (000 article: `min` is the lower corner, `max` the upper).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    pub min: Vec2,
    pub max: Vec2,
}

impl Aabb {
    pub fn new(min: Vec2, max: Vec2) -> Aabb {
        Aabb { min, max }
    }

    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.min.x <= o.max.x && o.min.x <= self.max.x && self.min.y <= o.max.y && o.min.y <= self.max.y
    }

    pub fn contains_point(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    pub fn union(&self, o: &Aabb) -> Aabb {
        Aabb { min: self.min.min(o.min), max: self.max.max(o.max) }
    }

    pub fn expanded(&self, margin: f32) -> Aabb {
        Aabb { min: self.min - Vec2::splat(margin), max: self.max + Vec2::splat(margin) }
    }

    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    pub fn extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }

    pub fn is_valid(&self) -> bool {
        self.min.is_finite() && self.max.is_finite() && self.min.x <= self.max.x && self.min.y <= self.max.y
    }
}

/// 2D cross product of two vectors (the z of their 3D cross product).
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Cross of a vector with a scalar z axis: `v × s = (s·v.y, −s·v.x)`.
#[inline]
pub fn cross_vs(v: Vec2, s: f32) -> Vec2 {
    Vec2::new(s * v.y, -s * v.x)
}

/// Cross of a scalar z axis with a vector: `s × v = (−s·v.y, s·v.x)`.
#[inline]
pub fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}

/// The left perpendicular `(−y, x)`.
#[inline]
pub fn left_perp(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

/// The right perpendicular `(y, −x)`; for a CCW polygon edge this is the outward normal.
#[inline]
pub fn right_perp(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

/// An angle in `(−π, π]` (Box2D's `b2UnwindAngle`).
#[inline]
pub fn unwind_angle(radians: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if radians < -PI {
        radians + TAU * ((PI - radians) / TAU).floor()
    } else if radians > PI {
        radians - TAU * ((radians + PI) / TAU).floor()
    } else {
        radians
    }
}

/// Compares two floats so that `a` must beat `b` by a relative and absolute margin
/// (the 000 article's `BiasGreaterThan`), so near-ties resolve the same way every frame.
#[inline]
pub fn bias_greater_than(a: f32, b: f32) -> bool {
    const K_BIAS_RELATIVE: f32 = 0.95;
    const K_BIAS_ABSOLUTE: f32 = 0.01;
    a >= b * K_BIAS_RELATIVE + a * K_BIAS_ABSOLUTE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_round_trips() {
        let q = Rot::from_angle(0.7);
        let v = Vec2::new(1.5, -2.0);
        assert!((q.apply_inv(q.apply(v)) - v).length() < 1e-6);
        assert!((q.angle() - 0.7).abs() < 1e-6);
        assert!((q.apply(Vec2::X) - q.x_axis()).length() < 1e-7);
        assert!((q.apply(Vec2::Y) - q.y_axis()).length() < 1e-7);
    }

    #[test]
    fn rotation_composition_and_unwinding() {
        let (a, b) = (Rot::from_angle(0.4), Rot::from_angle(-1.1));
        assert!(((a * b).angle() + 0.7).abs() < 1e-6);
        assert!((a.inv_mul(b).angle() + 1.5).abs() < 1e-6);
        assert!((unwind_angle(3.5) - (3.5 - std::f32::consts::TAU)).abs() < 1e-6);
        assert!((unwind_angle(-7.0) - (-7.0 + std::f32::consts::TAU)).abs() < 1e-5);
        assert_eq!(unwind_angle(1.0), 1.0);
    }

    #[test]
    fn transform_inverse_composition() {
        let a = Transform::new(Vec2::new(1.0, 2.0), 0.3);
        let b = Transform::new(Vec2::new(-3.0, 0.5), -1.1);
        let rel = a.inv_mul(&b);
        let p = Vec2::new(0.25, 0.75);
        let via_world = a.apply_inv(b.apply(p));
        assert!((rel.apply(p) - via_world).length() < 1e-5);
    }

    #[test]
    fn integrate_keeps_unit_length() {
        let mut q = Rot::IDENTITY;
        for _ in 0..1000 {
            q = q.integrate(0.05);
        }
        assert!((q.c * q.c + q.s * q.s - 1.0).abs() < 1e-5);
    }

    #[test]
    fn bias_prefers_first_on_near_tie() {
        // Separations are negative when overlapping. On a near tie the comparison is false
        // in both orders, so the second candidate is chosen consistently.
        assert!(!bias_greater_than(-0.100, -0.101));
        assert!(!bias_greater_than(-0.101, -0.100));
        // A clearly larger (shallower) separation still wins, a clearly smaller one loses.
        assert!(bias_greater_than(-0.05, -0.1));
        assert!(!bias_greater_than(-0.5, -0.1));
    }

    #[test]
    fn cross_helpers_agree_with_3d() {
        let a = Vec2::new(2.0, 3.0);
        let b = Vec2::new(-1.0, 4.0);
        let a3 = a.extend(0.0).cross(b.extend(0.0));
        assert_eq!(cross(a, b), a3.z);
        let s = 1.5;
        let sv = glam::Vec3::Z.mul_add(glam::Vec3::splat(s), glam::Vec3::ZERO).cross(a.extend(0.0));
        assert!((cross_sv(s, a) - sv.truncate()).length() < 1e-6);
        let vs = a.extend(0.0).cross(glam::Vec3::Z * s);
        assert!((cross_vs(a, s) - vs.truncate()).length() < 1e-6);
    }
}
