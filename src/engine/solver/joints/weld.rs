//! The weld joint (Box2D v3's `b2WeldJoint`): glues B to A, the angular row then the point
//! as a 2×2 block. Rigid (joint softness in the biased pass only) when a hertz is 0, or a
//! spring of that stiffness in every pass.

use super::base::{BodyPair, JointBase, JointContext, Velocities};
use super::revolute::{point_mass_matrix, solve22};
use crate::engine::solver::soft::Softness;
use glam::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeldJoint {
    pub base: JointBase,
    /// Linear stiffness, cycles per second (0 = rigid), and damping ratio.
    pub linear_hertz: f32,
    pub linear_damping_ratio: f32,
    /// Angular stiffness, cycles per second (0 = rigid), and damping ratio.
    pub angular_hertz: f32,
    pub angular_damping_ratio: f32,
    pub linear_impulse: Vec2,
    pub angular_impulse: f32,
    #[serde(skip)]
    axial_mass: f32,
    #[serde(skip)]
    linear_spring: Softness,
    #[serde(skip)]
    angular_spring: Softness,
}

impl WeldJoint {
    /// A rigid weld.
    pub fn new(base: JointBase) -> WeldJoint {
        WeldJoint {
            base,
            linear_hertz: 0.0,
            linear_damping_ratio: 0.0,
            angular_hertz: 0.0,
            angular_damping_ratio: 0.0,
            linear_impulse: Vec2::ZERO,
            angular_impulse: 0.0,
            axial_mass: 0.0,
            linear_spring: Softness::RIGID,
            angular_spring: Softness::RIGID,
        }
    }

    pub(crate) fn prepare(&mut self, ctx: &JointContext) {
        let j = &self.base.prepared;
        let k = j.i_a + j.i_b;
        self.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
        let spring =
            |hertz: f32, zeta: f32| if hertz == 0.0 { ctx.softness } else { Softness::new(hertz, zeta, ctx.h) };
        self.linear_spring = spring(self.linear_hertz, self.linear_damping_ratio);
        self.angular_spring = spring(self.angular_hertz, self.angular_damping_ratio);
        if !ctx.warm_starting {
            self.reset_impulses();
        }
    }

    pub(crate) fn reset_impulses(&mut self) {
        self.linear_impulse = Vec2::ZERO;
        self.angular_impulse = 0.0;
    }

    pub(crate) fn warm_start(&self, s: &mut BodyPair) {
        let (ra, rb) = self.base.arms(&s.a, &s.b);
        let mut v = Velocities::read(s);
        v.apply_linear(&self.base.prepared, ra, rb, self.linear_impulse);
        v.apply_angular(&self.base.prepared, self.angular_impulse);
        v.write(s);
    }

    pub(crate) fn solve(&mut self, s: &mut BodyPair, _ctx: &JointContext, use_bias: bool) {
        let j = self.base.prepared;
        let mut v = Velocities::read(s);

        // Angular row.
        let (bias, ms, is) = if use_bias || self.angular_hertz > 0.0 {
            let c = self.base.relative_rotation(&s.a, &s.b).angle();
            let s = self.angular_spring;
            (s.bias_rate * c, s.mass_scale, s.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let impulse = -ms * self.axial_mass * (v.wb - v.wa + bias) - is * self.angular_impulse;
        self.angular_impulse += impulse;
        v.apply_angular(&j, impulse);

        // Point rows.
        let (ra, rb) = self.base.arms(&s.a, &s.b);
        let (bias, ms, is) = if use_bias || self.linear_hertz > 0.0 {
            let c = self.base.separation(&s.a, &s.b, ra, rb);
            let s = self.linear_spring;
            (s.bias_rate * c, s.mass_scale, s.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let x = solve22(point_mass_matrix(&j, ra, rb), v.relative_at(ra, rb) + bias);
        let impulse = -ms * x - is * self.linear_impulse;
        self.linear_impulse += impulse;
        v.apply_linear(&j, ra, rb, impulse);
        v.write(s);
    }

    pub fn reaction(&self, inv_h: f32) -> (Vec2, f32) {
        (self.linear_impulse * inv_h, self.angular_impulse * inv_h)
    }
}
