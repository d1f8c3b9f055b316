//! The wheel joint (Box2D v3's `b2WheelJoint`): B's anchor stays on a line along frame A's x
//! axis (the suspension) and B turns freely about it; a spring along the line (on by
//! default: 1 Hz, damping 0.7), a motor that turns B with a torque cap, optional travel
//! limits.

use super::base::{BodyPair, JointBase, JointContext, Velocities};
use super::prismatic::AxisFrame;
use super::revolute::limit_terms;
use crate::engine::math::left_perp;
use crate::engine::solver::soft::Softness;
use crate::engine::solver::state::SolverBody;
use glam::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WheelJoint {
    pub base: JointBase,
    pub enable_spring: bool,
    pub hertz: f32,
    pub damping_ratio: f32,
    pub enable_limit: bool,
    pub lower_translation: f32,
    pub upper_translation: f32,
    pub enable_motor: bool,
    pub max_motor_torque: f32,
    /// Angular speed of B relative to A the motor drives to, rad/s.
    pub motor_speed: f32,
    pub perp_impulse: f32,
    pub spring_impulse: f32,
    pub motor_impulse: f32,
    pub lower_impulse: f32,
    pub upper_impulse: f32,
    #[serde(skip)]
    perp_mass: f32,
    #[serde(skip)]
    axial_mass: f32,
    #[serde(skip)]
    motor_mass: f32,
    #[serde(skip)]
    spring_softness: Softness,
}

impl WheelJoint {
    pub fn new(base: JointBase) -> WheelJoint {
        WheelJoint {
            base,
            enable_spring: true,
            hertz: 1.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            max_motor_torque: 0.0,
            motor_speed: 0.0,
            perp_impulse: 0.0,
            spring_impulse: 0.0,
            motor_impulse: 0.0,
            lower_impulse: 0.0,
            upper_impulse: 0.0,
            perp_mass: 0.0,
            axial_mass: 0.0,
            motor_mass: 0.0,
            spring_softness: Softness::RIGID,
        }
    }

    pub(crate) fn prepare(&mut self, ctx: &JointContext) {
        let j = self.base.prepared;
        // Masses at the start of the step (Box2D keeps them for the whole step).
        let identity = SolverBody::at_rest();
        let f = AxisFrame::new(&self.base, &identity, &identity);
        let kp = j.m_a + j.m_b + j.i_a * f.s1 * f.s1 + j.i_b * f.s2 * f.s2;
        self.perp_mass = if kp > 0.0 { 1.0 / kp } else { 0.0 };
        self.axial_mass = f.axial_mass(&j);
        let km = j.i_a + j.i_b;
        self.motor_mass = if km > 0.0 { 1.0 / km } else { 0.0 };
        self.spring_softness = Softness::new(self.hertz, self.damping_ratio, ctx.h);
        if !ctx.warm_starting {
            self.reset_impulses();
        }
    }

    pub(crate) fn reset_impulses(&mut self) {
        self.perp_impulse = 0.0;
        self.spring_impulse = 0.0;
        self.motor_impulse = 0.0;
        self.lower_impulse = 0.0;
        self.upper_impulse = 0.0;
    }

    fn axial_impulse(&self) -> f32 {
        self.spring_impulse + self.lower_impulse - self.upper_impulse
    }

    pub(crate) fn warm_start(&self, s: &mut BodyPair) {
        let f = AxisFrame::new(&self.base, &s.a, &s.b);
        let j = &self.base.prepared;
        let axial = self.axial_impulse();
        let p = axial * f.axis + self.perp_impulse * f.perp;
        let la = axial * f.a1 + self.perp_impulse * f.s1 + self.motor_impulse;
        let lb = axial * f.a2 + self.perp_impulse * f.s2 + self.motor_impulse;
        let mut v = Velocities::read(s);
        v.apply(j, p, la, lb);
        v.write(s);
    }

    pub(crate) fn solve(&mut self, s: &mut BodyPair, ctx: &JointContext, use_bias: bool) {
        let j = self.base.prepared;
        let f = AxisFrame::new(&self.base, &s.a, &s.b);
        let mut v = Velocities::read(s);
        let translation = f.axis.dot(f.d);
        let fixed_rotation = j.i_a + j.i_b == 0.0;

        if self.enable_motor && !fixed_rotation {
            let cdot = v.wb - v.wa - ctx.angular_target(self.motor_speed);
            let old = self.motor_impulse;
            let max = ctx.h * self.max_motor_torque;
            self.motor_impulse = (old - self.motor_mass * cdot).clamp(-max, max);
            v.apply_angular(&j, self.motor_impulse - old);
        }
        if self.enable_spring && self.hertz > 0.0 {
            // A real spring, applied in the relax pass too.
            let s = self.spring_softness;
            let cdot = f.axial_speed(&v);
            let impulse = -s.mass_scale * self.axial_mass * (cdot + s.bias_rate * translation)
                - s.impulse_scale * self.spring_impulse;
            self.spring_impulse += impulse;
            f.apply_axial(&mut v, &j, impulse);
        }
        if self.enable_limit {
            let (bias, ms, is) = limit_terms(translation - self.lower_translation, ctx, use_bias);
            let old = self.lower_impulse;
            let impulse = -ms * self.axial_mass * (f.axial_speed(&v) + bias) - is * old;
            self.lower_impulse = (old + impulse).max(0.0);
            f.apply_axial(&mut v, &j, self.lower_impulse - old);

            let (bias, ms, is) = limit_terms(self.upper_translation - translation, ctx, use_bias);
            let old = self.upper_impulse;
            let impulse = -ms * self.axial_mass * (-f.axial_speed(&v) + bias) - is * old;
            self.upper_impulse = (old + impulse).max(0.0);
            f.apply_axial(&mut v, &j, -(self.upper_impulse - old));
        }

        // Point to line: B's anchor stays on A's axis.
        let (bias, ms, is) = if use_bias {
            (ctx.softness.bias_rate * f.perp.dot(f.d), ctx.softness.mass_scale, ctx.softness.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let cdot = f.perp.dot(v.vb - v.va) + f.s2 * v.wb - f.s1 * v.wa;
        let impulse = -ms * self.perp_mass * (cdot + bias) - is * self.perp_impulse;
        self.perp_impulse += impulse;
        let p = impulse * f.perp;
        v.va -= j.m_a * p;
        v.wa -= j.i_a * impulse * f.s1;
        v.vb += j.m_b * p;
        v.wb += j.i_b * impulse * f.s2;
        v.write(s);
    }

    /// Reaction force (suspension and perpendicular, world) and motor torque, `impulse · inv_h`.
    pub fn reaction(&self, axis: Vec2, inv_h: f32) -> (Vec2, f32) {
        ((self.axial_impulse() * axis + self.perp_impulse * left_perp(axis)) * inv_h, self.motor_impulse * inv_h)
    }
}
