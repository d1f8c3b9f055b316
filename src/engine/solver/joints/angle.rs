//! The angle (orientation) joint of the 003 article ("Orientation Constraint Derivation"):
//! it holds the relative angle of two bodies and leaves their positions free. In 2D the
//! article's three constraint rows collapse to one:
//!
//! `C = θ_b − θ_a − target`, `Ċ = ω_b − ω_a`, `J = [0 −1 0 1]`,
//! and the constraint mass `J M⁻¹ Jᵀ = I_a⁻¹ + I_b⁻¹` (the article's tensor is a scalar here),
//! so `λ = −(J V + bias) / (I_a⁻¹ + I_b⁻¹)`.
//!
//! Solved as a Box2D v3 soft constraint (bias and mass scale from the joint softness in the
//! biased pass, rigid in the relax pass), warm started, and optionally capped: with
//! `max_torque` the accumulated impulse is clamped to `±max_torque · h`, so the joint slips
//! when asked for more.

use super::base::{BodyPair, JointBase, JointContext, Velocities};
use crate::engine::math::unwind_angle;
use crate::engine::solver::state::SolverBody;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngleJoint {
    pub base: JointBase,
    /// Relative angle to hold, radians (frame B relative to frame A).
    pub target_angle: f32,
    /// Largest torque the joint applies, N·m; `None` for no limit.
    pub max_torque: Option<f32>,
    /// Accumulated angular impulse (per sub-step, warm started).
    pub impulse: f32,
    #[serde(skip)]
    axial_mass: f32,
}

impl AngleJoint {
    pub fn new(base: JointBase) -> AngleJoint {
        AngleJoint { base, target_angle: 0.0, max_torque: None, impulse: 0.0, axial_mass: 0.0 }
    }

    pub(crate) fn prepare(&mut self, ctx: &JointContext) {
        let j = &self.base.prepared;
        let k = j.i_a + j.i_b;
        self.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
        if !ctx.warm_starting {
            self.reset_impulses();
        }
    }

    pub(crate) fn reset_impulses(&mut self) {
        self.impulse = 0.0;
    }

    pub(crate) fn warm_start(&self, s: &mut BodyPair) {
        let mut v = Velocities::read(s);
        v.apply_angular(&self.base.prepared, self.impulse);
        v.write(s);
    }

    /// The article's λ for one row, softened in the biased pass.
    pub(crate) fn solve(&mut self, s: &mut BodyPair, ctx: &JointContext, use_bias: bool) {
        let mut v = Velocities::read(s);
        let (bias, mass_scale, impulse_scale) = if use_bias {
            let c = self.current_error(&s.a, &s.b);
            (ctx.softness.bias_rate * c, ctx.softness.mass_scale, ctx.softness.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let cdot = v.wb - v.wa;
        let impulse = -mass_scale * self.axial_mass * (cdot + bias) - impulse_scale * self.impulse;
        let old = self.impulse;
        self.impulse += impulse;
        if let Some(max) = self.max_torque {
            let max_impulse = ctx.h * max;
            self.impulse = self.impulse.clamp(-max_impulse, max_impulse);
        }
        v.apply_angular(&self.base.prepared, self.impulse - old);
        v.write(s);
    }

    /// `C = θ_b − θ_a − target`, unwound to `(−π, π]`, from the rotations so far this step.
    fn current_error(&self, sa: &SolverBody, sb: &SolverBody) -> f32 {
        unwind_angle(self.base.relative_rotation(sa, sb).angle() - self.target_angle)
    }

    /// Reaction torque magnitude from the accumulated impulse.
    pub fn reaction_torque(&self, inv_h: f32) -> f32 {
        self.impulse * inv_h
    }

    /// The relative angle of the frames at the given poses, minus the target.
    pub fn angle_error(&self, bodies: &[crate::engine::Body]) -> f32 {
        let (fa, fb) = self.base.world_frames(bodies);
        unwind_angle(fa.q.inv_mul(fb.q).angle() - self.target_angle)
    }
}
