//! The ball-and-socket joint: an anchor fixed in each body must coincide,
//! `C = (c_b + r_b) − (c_a + r_a) = 0`, three rows `J = [−𝟙, [r_a]×, 𝟙, −[r_b]×]` solved as one
//! block through `K = (m_a⁻¹ + m_b⁻¹) 𝟙 − [r_a]× I_a⁻¹ [r_a]× − [r_b]× I_b⁻¹ [r_b]×` (Catto,
//! "Modeling and Solving Constraints", GDC 2009), soft as the other joints. With the orientation
//! joint it makes a weld.

use super::integrate::{skew, SolverBody3};
use crate::engine::solver::soft::Softness;
use glam::{Mat3, Vec3};
use serde::{Deserialize, Serialize};

/// The ball joint's data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallJoint {
    /// The anchor in each body's frame (relative to the body origin).
    pub local_anchor_a: Vec3,
    pub local_anchor_b: Vec3,
    /// Accumulated linear impulse (applied `+` to B, `−` to A).
    pub impulse: Vec3,
    /// Arms from the centres of mass at the start of the step, and the anchors' offset then.
    #[serde(skip)]
    pub(crate) arms: [Vec3; 2],
    #[serde(skip)]
    pub(crate) base_error: Vec3,
}

/// Re-applies the accumulated impulse.
pub fn warm_start(j: &BallJoint, sa: &mut SolverBody3, sb: &mut SolverBody3) {
    let [ra, rb] = j.arms;
    sa.apply(ra, -j.impulse);
    sb.apply(rb, j.impulse);
}

/// The effective mass matrix for arms `ra`, `rb`.
fn mass_matrix(sa: &SolverBody3, sb: &SolverBody3, ra: Vec3, rb: Vec3) -> Mat3 {
    let (xa, xb) = (skew(ra), skew(rb));
    Mat3::from_diagonal(Vec3::splat(sa.inv_mass + sb.inv_mass)) - xa * sa.inv_i * xa - xb * sb.inv_i * xb
}

/// One block solve. Arms follow the bodies' rotation since the start of the step.
pub fn solve(j: &mut BallJoint, (sa, sb): (&mut SolverBody3, &mut SolverBody3), softness: Softness, use_bias: bool) {
    let (ra, rb) = (sa.dq * j.arms[0], sb.dq * j.arms[1]);
    // In f64: an anchor far from a light body (1e5 m from a 0.005 m hull) makes `K` so
    // ill-conditioned that f32's inverse returns impulses of 1e20.
    let k = mass_matrix(sa, sb, ra, rb).as_dmat3();
    let det = k.determinant();
    if !(det.is_finite() && det.abs() > 1e-12) {
        return;
    }
    let cdot = sb.v + sb.w.cross(rb) - sa.v - sa.w.cross(ra);
    let (bias, mass_scale, impulse_scale) = if use_bias {
        let c = j.base_error + (sb.dp + rb - j.arms[1]) - (sa.dp + ra - j.arms[0]);
        (softness.bias_rate * c, softness.mass_scale, softness.impulse_scale)
    } else {
        (Vec3::ZERO, 1.0, 0.0)
    };
    let solved = (k.inverse() * (cdot + bias).as_dvec3()).as_vec3();
    let lambda = -mass_scale * solved - impulse_scale * j.impulse;
    j.impulse += lambda;
    sa.v -= sa.inv_mass * lambda;
    sa.w -= sa.inv_i * ra.cross(lambda);
    sb.v += sb.inv_mass * lambda;
    sb.w += sb.inv_i * rb.cross(lambda);
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn one_rigid_solve_matches_the_anchor_velocities() {
        let body = |v: Vec3, w: Vec3| SolverBody3 {
            v,
            w,
            inv_mass: 0.5,
            inv_i: Mat3::from_diagonal(Vec3::new(1.0, 0.7, 1.3)),
            dp: Vec3::ZERO,
            dq: Quat::IDENTITY,
        };
        let mut j = BallJoint {
            local_anchor_a: Vec3::ZERO,
            local_anchor_b: Vec3::ZERO,
            impulse: Vec3::ZERO,
            arms: [Vec3::new(0.5, 0.2, 0.0), Vec3::new(-0.4, 0.1, 0.3)],
            base_error: Vec3::ZERO,
        };
        let (mut a, mut b) = (body(Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0)), body(Vec3::ZERO, Vec3::X));
        solve(&mut j, (&mut a, &mut b), Softness::RIGID, false);
        let (va, vb) = (a.v + a.w.cross(j.arms[0]), b.v + b.w.cross(j.arms[1]));
        assert!((va - vb).length() < 1e-5, "{va} {vb}");
    }
}
