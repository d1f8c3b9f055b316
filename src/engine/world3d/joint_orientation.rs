//! The orientation joint exactly as article 003 ("Orientation Constraint Derivation", after
//! Barenbrug's thesis) derives it: a basis `(u, v, w)` is taken into both bodies' frames; in
//! world space A's copy is `xa, ya, za` and B's `xb, yb, zb`, and they should coincide. The
//! errors are `xa·yb` (along u), `xa·zb` (along v) and `ya·zb` (along w), four vectors in all.
//! Each row has the Jacobian `J = [0, −t, 0, t]` with `t` an axis of rotation:
//! `d/dt (xa·yb) = (ω_b − ω_a)·(yb × xa)`, so `t₁ = yb × xa`, `t₂ = zb × xa`, `t₃ = zb × ya`.
//! The three rows are solved together through the 3×3 constraint mass
//! `K_ij = t_i · (I_a⁻¹ + I_b⁻¹) t_j` (the article's `J M⁻¹ Jᵀ`), inverted as one block.
//! Soft (Box2D v3): a spring of `hertz` and damping ratio in the biased pass, rigid in the relax
//! pass. An optional `max_torque` caps the accumulated angular impulse at `max_torque · h` per
//! sub-step, so a drive stronger than the joint makes it slip.

use super::integrate::SolverBody3;
use crate::engine::solver::soft::Softness;
use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};

/// The orientation joint's data (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrientationJoint {
    /// The basis `(u, v, w)` in A's and in B's frame, as rotations of the body axes.
    pub frame_a: Quat,
    pub frame_b: Quat,
    /// Largest torque the joint can exert, N·m (unlimited if `None`).
    pub max_torque: Option<f32>,
    /// Accumulated angular impulse, world (applied `+` to B, `−` to A).
    pub impulse: Vec3,
}

/// The six world vectors `[xa, ya, za, xb, yb, zb]` of the bases for body rotations `qa`, `qb`.
pub fn bases(j: &OrientationJoint, qa: Quat, qb: Quat) -> [Vec3; 6] {
    let (fa, fb) = (qa * j.frame_a, qb * j.frame_b);
    [fa * Vec3::X, fa * Vec3::Y, fa * Vec3::Z, fb * Vec3::X, fb * Vec3::Y, fb * Vec3::Z]
}

/// The article's errors `(xa·yb, xa·zb, ya·zb)` and rotation axes `[yb × xa, zb × xa, zb × ya]`.
pub fn rows(j: &OrientationJoint, qa: Quat, qb: Quat) -> (Vec3, [Vec3; 3]) {
    let [xa, ya, _, _, yb, zb] = bases(j, qa, qb);
    (Vec3::new(xa.dot(yb), xa.dot(zb), ya.dot(zb)), [yb.cross(xa), zb.cross(xa), zb.cross(ya)])
}

/// The rotation taking A's basis to B's, as a rotation vector in A's basis (radians about u, v,
/// w): the joint's error per axis; its length is the angle between the bases.
pub fn error_rotation(j: &OrientationJoint, qa: Quat, qb: Quat) -> Vec3 {
    let (fa, fb) = (qa * j.frame_a, qb * j.frame_b);
    let mut rel = fa.inverse() * fb;
    if rel.w < 0.0 {
        rel = -rel;
    }
    rel.to_scaled_axis()
}

/// Re-applies the accumulated impulse.
pub fn warm_start(j: &OrientationJoint, sa: &mut SolverBody3, sb: &mut SolverBody3) {
    sa.apply_angular(-j.impulse);
    sb.apply_angular(j.impulse);
}

/// One solve of the three rows as a block. `qa`, `qb` are the bodies' current rotations.
#[allow(clippy::too_many_arguments)]
pub fn solve(
    j: &mut OrientationJoint,
    (sa, sb): (&mut SolverBody3, &mut SolverBody3),
    (qa, qb): (Quat, Quat),
    softness: Softness,
    h: f32,
    use_bias: bool,
) {
    let (c, t) = rows(j, qa, qb);
    let inv_i = sa.inv_i + sb.inv_i;
    let k = Mat3::from_cols_array_2d(&[0, 1, 2].map(|col| [0, 1, 2].map(|row| t[row].dot(inv_i * t[col]))));
    let det = k.determinant();
    let basis = Mat3::from_cols(t[0], t[1], t[2]);
    let basis_det = basis.determinant();
    if !(det.is_finite() && det.abs() > 1e-12 && basis_det.abs() > 1e-6) {
        return;
    }
    let dw = sb.w - sa.w;
    let cdot = Vec3::new(t[0].dot(dw), t[1].dot(dw), t[2].dot(dw));
    let (bias, mass_scale, impulse_scale) = if use_bias {
        (softness.bias_rate * c, softness.mass_scale, softness.impulse_scale)
    } else {
        (Vec3::ZERO, 1.0, 0.0)
    };
    // The accumulated impulse in row space: P = T λ.
    let lambda_acc = basis.inverse() * j.impulse;
    let lambda = -mass_scale * (k.inverse() * (cdot + bias)) - impulse_scale * lambda_acc;
    let mut new = j.impulse + basis * lambda;
    if let Some(max) = j.max_torque {
        let limit = max * h;
        if new.length() > limit {
            new = new.normalize_or_zero() * limit;
        }
    }
    let applied = new - j.impulse;
    j.impulse = new;
    sa.apply_angular(-applied);
    sb.apply_angular(applied);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_bases_have_no_error_and_independent_axes() {
        let j = OrientationJoint {
            frame_a: Quat::IDENTITY,
            frame_b: Quat::IDENTITY,
            max_torque: None,
            impulse: Vec3::ZERO,
        };
        let (c, t) = rows(&j, Quat::IDENTITY, Quat::IDENTITY);
        assert_eq!(c, Vec3::ZERO);
        assert_eq!(t, [-Vec3::Z, Vec3::Y, -Vec3::X]);
        // B turned a little about z: xa·yb = −sin θ on the first row, about t₁ = −z.
        let (c, _) = rows(&j, Quat::IDENTITY, Quat::from_rotation_z(0.01));
        assert!((c.x + 0.01f32.sin()).abs() < 1e-6 && c.y.abs() < 1e-6 && c.z.abs() < 1e-6);
        let e = error_rotation(&j, Quat::IDENTITY, Quat::from_rotation_z(0.01));
        assert!((e - Vec3::new(0.0, 0.0, 0.01)).length() < 1e-5);
    }

    #[test]
    fn one_solve_stops_the_relative_spin() {
        let mut j = OrientationJoint {
            frame_a: Quat::IDENTITY,
            frame_b: Quat::IDENTITY,
            max_torque: None,
            impulse: Vec3::ZERO,
        };
        let body = |w: Vec3| SolverBody3 {
            v: Vec3::ZERO,
            w,
            inv_mass: 1.0,
            inv_i: Mat3::from_diagonal(Vec3::new(1.0, 2.0, 0.5)),
            dp: Vec3::ZERO,
            dq: Quat::IDENTITY,
        };
        let (mut a, mut b) = (body(Vec3::new(0.3, -1.0, 2.0)), body(Vec3::new(-0.5, 0.2, 0.1)));
        let q = Quat::from_rotation_y(0.2);
        solve(&mut j, (&mut a, &mut b), (q, q), Softness::RIGID, 1.0 / 240.0, false);
        assert!((a.w - b.w).length() < 1e-5, "{:?} {:?}", a.w, b.w);
        // With a cap, only part of the relative spin is removed.
        let (mut a, mut b) = (body(Vec3::ZERO), body(Vec3::new(0.0, 10.0, 0.0)));
        j.impulse = Vec3::ZERO;
        j.max_torque = Some(1.0);
        solve(&mut j, (&mut a, &mut b), (q, q), Softness::RIGID, 1.0 / 240.0, false);
        assert!((j.impulse.length() - 1.0 / 240.0).abs() < 1e-7 && (b.w - a.w).length() > 9.0);
    }
}
