//! The mouse spring: a damped spring pulling a point of a body (grabbed in its own frame)
//! towards a target, as a user drags it. Like Box2D's mouse joint it is tuned by a frequency
//! and a damping ratio measured at the point: the force is `M (ω² e − 2ζω v)` with `M` the
//! point's effective mass `(1/m − [r]× I⁻¹ [r]×)⁻¹` (Catto, "Soft Constraints", GDC 2011), so
//! light and heavy, thin and round bodies answer alike. A held body would spin freely about
//! the grabbed point, so, as Box2D v3's mouse joint does, the spring also damps the body's
//! spin (torque `−I ω ζω`). It is applied as an external force at
//! every sub-step, its frequency capped so the explicit step stays stable, and its force capped
//! at `max_force_per_weight` times the body's weight.

use super::body::Body3;
use super::integrate::skew;
use glam::{Mat3, Vec3};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MouseSpring3 {
    pub body: usize,
    /// The grabbed point in the body's frame (relative to its hull origin).
    pub local_point: Vec3,
    /// Where the point is pulled to (world).
    pub target: Vec3,
    pub hertz: f32,
    pub damping_ratio: f32,
    pub max_force_per_weight: f32,
}

impl MouseSpring3 {
    /// A spring grabbing `body` at the world point `point` (the target starts there).
    pub fn new(body: &Body3, index: usize, point: Vec3) -> MouseSpring3 {
        MouseSpring3 {
            body: index,
            local_point: body.pose.inverse_transform_point(point),
            target: point,
            hertz: 4.0,
            damping_ratio: 0.9,
            max_force_per_weight: 30.0,
        }
    }

    /// The grabbed point in the world, at the body's current pose.
    pub fn anchor(&self, body: &Body3) -> Vec3 {
        body.pose.transform_point(self.local_point)
    }

    /// Force and torque about the centre of mass for a body whose centre is `center`, turned by
    /// `q`, moving with `(v, w)`; `h` is the sub-step. Zero for a body that cannot move.
    pub fn force_and_torque(
        &self,
        b: &Body3,
        (center, q): (Vec3, glam::Quat),
        (v, w): (Vec3, Vec3),
        gravity: f32,
        h: f32,
    ) -> (Vec3, Vec3) {
        if !b.is_dynamic() || !self.target.is_finite() || b.mass <= 0.0 {
            return (Vec3::ZERO, Vec3::ZERO);
        }
        let r = q * (self.local_point - b.local_center);
        let p = center + r;
        let inv_i = Mat3::from_quat(q) * b.inv_inertia_local * Mat3::from_quat(q.conjugate());
        let rx = skew(r);
        let k = Mat3::from_diagonal(Vec3::splat(1.0 / b.mass)) - rx * inv_i * rx;
        if k.determinant().abs() < 1e-12 {
            return (Vec3::ZERO, Vec3::ZERO);
        }
        let m_eff = k.inverse();
        // ω h ≤ 0.5 keeps the explicit spring stable.
        let omega = (std::f32::consts::TAU * self.hertz.max(0.0)).min(0.5 / h.max(1e-6));
        let e = self.target - p;
        let vp = v + w.cross(r);
        let mut f = m_eff * (omega * omega * e - 2.0 * self.damping_ratio.max(0.0) * omega * vp);
        let max = self.max_force_per_weight * b.mass * gravity.max(1.0);
        if f.length() > max {
            f = f.normalize_or_zero() * max;
        }
        let i_world = Mat3::from_quat(q) * b.inertia_local * Mat3::from_quat(q.conjugate());
        let spin_damping = -(i_world * w) * (self.damping_ratio.max(0.0) * omega);
        let tau = r.cross(f) + spin_damping;
        if !(f.is_finite() && tau.is_finite()) {
            return (Vec3::ZERO, Vec3::ZERO);
        }
        (f, tau)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;
    use crate::engine::world3d::{BodyDef3, World3, World3Params};
    use crate::engine::BodyKind;

    #[test]
    fn the_spring_pulls_the_grabbed_corner_to_the_target() {
        let mut w = World3::new(World3Params { gravity: Vec3::ZERO, ..Default::default() });
        let i = w.create_body(&BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::ZERO)).unwrap();
        let corner = Vec3::splat(0.5);
        let mut spring = MouseSpring3::new(&w.bodies[i], i, corner);
        spring.target = Vec3::new(2.0, 1.0, -1.0);
        w.mouse = Some(spring.clone());
        for _ in 0..180 {
            w.step();
        }
        let at = spring.anchor(&w.bodies[i]);
        assert!(at.distance(spring.target) < 0.05, "the corner reached the target: {at}");
        assert!(w.bodies[i].linear_velocity.length() < 0.1, "and rests there");
        // A static body is never pushed.
        let s = w.create_body(&BodyDef3::new(BodyKind::Static, shapes::cube(0.5), Vec3::X * 5.0)).unwrap();
        let pin = MouseSpring3::new(&w.bodies[s], s, Vec3::X * 5.0);
        let b = &w.bodies[s];
        assert_eq!(pin.force_and_torque(b, (b.center, b.pose.q), (Vec3::ZERO, Vec3::ZERO), 10.0, 0.01).0, Vec3::ZERO);
    }
}
