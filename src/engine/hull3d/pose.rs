//! A rigid 3D transform. The article's demo "uses these additional values for positioning and
//! rotation": a position and a rotation applied to the hull's points before the SAT.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

/// A rigid transform: rotate by `q` (unit quaternion), then translate by `p`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pose3 {
    pub p: Vec3,
    pub q: Quat,
}

impl Default for Pose3 {
    fn default() -> Self {
        Pose3::IDENTITY
    }
}

impl Pose3 {
    pub const IDENTITY: Pose3 = Pose3 { p: Vec3::ZERO, q: Quat::IDENTITY };

    pub fn new(p: Vec3, q: Quat) -> Pose3 {
        Pose3 { p, q }
    }

    pub fn from_translation(p: Vec3) -> Pose3 {
        Pose3 { p, q: Quat::IDENTITY }
    }

    /// `self` applied to a point.
    #[inline]
    pub fn transform_point(&self, v: Vec3) -> Vec3 {
        self.q * v + self.p
    }

    /// `self`'s rotation applied to a direction.
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.q * v
    }

    /// The inverse of `self` applied to a point.
    #[inline]
    pub fn inverse_transform_point(&self, v: Vec3) -> Vec3 {
        self.q.inverse() * (v - self.p)
    }

    pub fn inverse(&self) -> Pose3 {
        let qi = self.q.inverse();
        Pose3 { p: -(qi * self.p), q: qi }
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn mul(&self, other: &Pose3) -> Pose3 {
        Pose3 { p: self.transform_point(other.p), q: (self.q * other.q).normalize() }
    }

    /// `self⁻¹ ∘ other`: `other` expressed in `self`'s frame.
    pub fn inv_mul(&self, other: &Pose3) -> Pose3 {
        self.inverse().mul(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_round_trips() {
        let x = Pose3::new(Vec3::new(1.0, -2.0, 3.0), Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7));
        let v = Vec3::new(0.3, 0.2, -0.9);
        assert!((x.inverse_transform_point(x.transform_point(v)) - v).length() < 1e-5);
        assert!((x.inverse().transform_point(x.transform_point(v)) - v).length() < 1e-5);
        let y = x.inv_mul(&x);
        assert!(y.p.length() < 1e-5 && y.q.angle_between(Quat::IDENTITY) < 1e-3);
    }
}
