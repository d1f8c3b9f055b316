//! Compact per-body solver state (as Box2D v3's body state) and the integrators: semi-implicit
//! Euler with the **implicit gyroscopic term** (Catto, "Physics for Game Programmers: Numerical
//! Methods", GDC 2015; Bullet's `computeGyroscopicImpulseImplicit_Body`), and the orientation
//! advanced by the exponential map. Catto's step linearises `L₂ = L₁ − h ω₂ × L₂`, which
//! shrinks `|L|` a little every step; written as the rotation `L₂ = exp(−h ω̂₂) L₁` it matches
//! the orientation update `q₂ = q₁ exp(h ω₂)` exactly, and a free body conserves its angular
//! momentum (see [`Gyroscopic`]).

use super::body::Body3;
use super::params::{Gyroscopic, World3Params};
use crate::engine::BodyKind;
use glam::{Mat3, Quat, Vec3};

/// What the solver touches of a body during a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverBody3 {
    pub v: Vec3,
    pub w: Vec3,
    pub inv_mass: f32,
    /// World inverse inertia, fixed at the start of the step (Box2D v3).
    pub inv_i: Mat3,
    /// Centre-of-mass displacement and rotation since the start of the step.
    pub dp: Vec3,
    pub dq: Quat,
}

impl SolverBody3 {
    pub fn new(b: &Body3) -> SolverBody3 {
        SolverBody3 {
            v: b.linear_velocity,
            w: b.angular_velocity,
            inv_mass: b.inv_mass,
            inv_i: b.inv_inertia_world(),
            dp: Vec3::ZERO,
            dq: Quat::IDENTITY,
        }
    }

    /// Applies impulse `p` at lever arm `r`.
    #[inline]
    pub fn apply(&mut self, r: Vec3, p: Vec3) {
        self.v += self.inv_mass * p;
        self.w += self.inv_i * r.cross(p);
    }

    /// Applies an angular impulse.
    #[inline]
    pub fn apply_angular(&mut self, l: Vec3) {
        self.w += self.inv_i * l;
    }

    /// Velocity of the point at arm `r`.
    #[inline]
    pub fn velocity_at(&self, r: Vec3) -> Vec3 {
        self.v + self.w.cross(r)
    }

    /// How far a point fixed to the body at arm `r` (from the start-of-step centre) has moved.
    #[inline]
    pub fn displacement_of(&self, r: Vec3) -> Vec3 {
        self.dp + self.dq * r - r
    }
}

/// The solver state of every body.
pub fn solver_bodies(bodies: &[Body3]) -> Vec<SolverBody3> {
    bodies.iter().map(SolverBody3::new).collect()
}

/// One Newton step of the implicit gyroscopic update (Catto 2015), in body coordinates:
/// solve `I (ω₂ − ω₁) + h ω₂ × I ω₂ = 0` from `ω₁` with Jacobian
/// `J = I + h (skew(ω₁) I − skew(I ω₁))`. Returns the new world angular velocity.
pub fn gyroscopic_implicit(w: Vec3, q: Quat, inertia_local: &Mat3, h: f32) -> Vec3 {
    let wb = q.inverse() * w;
    let iw = *inertia_local * wb;
    let f = h * wb.cross(iw);
    let jacobian = *inertia_local + h * (skew(wb) * *inertia_local - skew(iw));
    let det = jacobian.determinant();
    if !(det.is_finite() && det.abs() > 0.0) {
        return w;
    }
    q * (wb - jacobian.inverse() * f)
}

/// The implicit step as a rotation of the body-frame angular momentum: solves
/// `L₂ = exp(−h ω̂₂) L₁`, `ω₂ = I⁻¹ L₂` by fixed-point iteration (a contraction while `h |ω|` is
/// small); falls back to [`gyroscopic_implicit`] if it has not converged after 8 iterations.
pub fn gyroscopic_exponential(w: Vec3, q: Quat, inertia_local: &Mat3, inv_inertia_local: &Mat3, h: f32) -> Vec3 {
    let l1 = *inertia_local * (q.inverse() * w);
    let tolerance = 1e-12 * l1.length_squared();
    let mut l = l1;
    for _ in 0..8 {
        let next = Quat::from_scaled_axis(-h * (*inv_inertia_local * l)) * l1;
        let change = next.distance_squared(l);
        l = next;
        if change <= tolerance {
            return q * (*inv_inertia_local * l);
        }
    }
    gyroscopic_implicit(w, q, inertia_local, h)
}

/// `skew(a) b = a × b`.
pub fn skew(a: Vec3) -> Mat3 {
    Mat3::from_cols(Vec3::new(0.0, a.z, -a.y), Vec3::new(-a.z, 0.0, a.x), Vec3::new(a.y, -a.x, 0.0))
}

/// Semi-implicit Euler, velocity half, for dynamic bodies: gravity, the body's own force and
/// torque plus `external` (force, torque about the centre of mass; buoyancy), the gyroscopic
/// term at the current orientation, implicit damping, speed clamps.
pub fn integrate_velocities(
    states: &mut [SolverBody3],
    bodies: &[Body3],
    external: &[(Vec3, Vec3)],
    params: &World3Params,
    h: f32,
) {
    for (i, (s, b)) in states.iter_mut().zip(bodies).enumerate() {
        if b.kind != BodyKind::Dynamic {
            continue;
        }
        let (f, tau) = external.get(i).copied().unwrap_or((Vec3::ZERO, Vec3::ZERO));
        let mut v = s.v + h * (b.gravity_scale * params.gravity + s.inv_mass * (b.force + f));
        let mut w = s.w;
        let q = s.dq * b.q0;
        w = match params.gyroscopic {
            Gyroscopic::Off => w,
            Gyroscopic::Catto => gyroscopic_implicit(w, q, &b.inertia_local, h),
            Gyroscopic::Exponential => gyroscopic_exponential(w, q, &b.inertia_local, &b.inv_inertia_local, h),
        };
        w += h * (s.inv_i * (b.torque + tau));
        v *= 1.0 / (1.0 + h * b.linear_damping);
        w *= 1.0 / (1.0 + h * b.angular_damping);
        s.v = clamp_length(v, params.max_linear_speed);
        s.w = clamp_length(w, params.max_angular_speed);
    }
}

fn clamp_length(v: Vec3, max: f32) -> Vec3 {
    if v.length_squared() > max * max {
        v.normalize() * max
    } else {
        v
    }
}

/// Clamps every body's speeds after the solver (a joint holding an anchor 100 km out can ask
/// for 1e20 m/s); a no-op below the caps, so only a blow-up is touched.
pub fn clamp_speeds(states: &mut [SolverBody3], params: &World3Params) {
    for s in states {
        s.v = clamp_length(s.v, params.max_linear_speed);
        s.w = clamp_length(s.w, params.max_angular_speed);
    }
}

/// Position half: displacement from the new velocity; rotation by the exponential map,
/// `dq ← exp(h ω / 2) dq`.
pub fn integrate_positions(states: &mut [SolverBody3], h: f32) {
    for s in states {
        s.dp += h * s.v;
        s.dq = (Quat::from_scaled_axis(h * s.w) * s.dq).normalize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_is_the_cross_product() {
        let (a, b) = (Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.3, 0.7, -1.1));
        assert!((skew(a) * b - a.cross(b)).length() < 1e-6);
    }

    #[test]
    fn a_symmetric_top_about_a_principal_axis_keeps_spinning() {
        let inertia = Mat3::from_diagonal(Vec3::new(1.0, 2.0, 3.0));
        let w = Vec3::new(0.0, 5.0, 0.0);
        let q = Quat::from_rotation_x(0.3);
        // ω along a principal axis (in body axes): no gyroscopic torque.
        let w_world = q * w;
        let w2 = gyroscopic_implicit(w_world, q, &inertia, 1.0 / 60.0);
        assert!((w2 - w_world).length() < 1e-5);
        let w3 = gyroscopic_exponential(w_world, q, &inertia, &inertia.inverse(), 1.0 / 60.0);
        assert!((w3 - w_world).length() < 1e-5);
    }
}
