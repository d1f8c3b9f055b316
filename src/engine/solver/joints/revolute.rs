//! The revolute joint (Box2D v3's `b2RevoluteJoint`): a shared point, with an optional
//! angular spring towards `target_angle`, a motor with a torque cap, and angle limits.
//! Solve order as Box2D: spring, motor, limits (speculative when inside them, soft when
//! violated), then the point constraint as a 2×2 block.

use super::base::{BodyPair, JointBase, JointContext, Velocities};
use crate::engine::math::unwind_angle;
use crate::engine::solver::soft::Softness;
use glam::{Mat2, Vec2};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RevoluteJoint {
    pub base: JointBase,
    pub enable_spring: bool,
    /// Spring stiffness, cycles per second, and damping ratio.
    pub hertz: f32,
    pub damping_ratio: f32,
    /// Angle the spring pulls towards, radians.
    pub target_angle: f32,
    pub enable_limit: bool,
    pub lower_angle: f32,
    pub upper_angle: f32,
    pub enable_motor: bool,
    pub max_motor_torque: f32,
    /// Relative angular speed the motor drives to, rad/s.
    pub motor_speed: f32,
    pub linear_impulse: Vec2,
    pub spring_impulse: f32,
    pub motor_impulse: f32,
    pub lower_impulse: f32,
    pub upper_impulse: f32,
    #[serde(skip)]
    axial_mass: f32,
    #[serde(skip)]
    spring_softness: Softness,
}

impl RevoluteJoint {
    pub fn new(base: JointBase) -> RevoluteJoint {
        RevoluteJoint {
            base,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            target_angle: 0.0,
            enable_limit: false,
            lower_angle: 0.0,
            upper_angle: 0.0,
            enable_motor: false,
            max_motor_torque: 0.0,
            motor_speed: 0.0,
            linear_impulse: Vec2::ZERO,
            spring_impulse: 0.0,
            motor_impulse: 0.0,
            lower_impulse: 0.0,
            upper_impulse: 0.0,
            axial_mass: 0.0,
            spring_softness: Softness::RIGID,
        }
    }

    pub(crate) fn prepare(&mut self, ctx: &JointContext) {
        let j = &self.base.prepared;
        let k = j.i_a + j.i_b;
        self.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
        self.spring_softness = Softness::new(self.hertz, self.damping_ratio, ctx.h);
        if !ctx.warm_starting {
            self.reset_impulses();
        }
    }

    pub(crate) fn reset_impulses(&mut self) {
        self.linear_impulse = Vec2::ZERO;
        self.spring_impulse = 0.0;
        self.motor_impulse = 0.0;
        self.lower_impulse = 0.0;
        self.upper_impulse = 0.0;
    }

    fn axial_impulse(&self) -> f32 {
        self.spring_impulse + self.motor_impulse + self.lower_impulse - self.upper_impulse
    }

    pub(crate) fn warm_start(&self, s: &mut BodyPair) {
        let (ra, rb) = self.base.arms(&s.a, &s.b);
        let j = &self.base.prepared;
        let mut v = Velocities::read(s);
        v.apply_linear(j, ra, rb, self.linear_impulse);
        v.apply_angular(j, self.axial_impulse());
        v.write(s);
    }

    pub(crate) fn solve(&mut self, s: &mut BodyPair, ctx: &JointContext, use_bias: bool) {
        let j = self.base.prepared;
        let mut v = Velocities::read(s);
        let fixed_rotation = j.i_a + j.i_b == 0.0;
        // The joint angle (an arctangent) only for the rows that read it, as Box2D does.
        let spring = self.enable_spring && self.hertz > 0.0 && !fixed_rotation;
        let limit = self.enable_limit && !fixed_rotation;
        let angle = if spring || limit { self.base.relative_rotation(&s.a, &s.b).angle() } else { 0.0 };

        if spring {
            // A real spring: applied in the relax pass too.
            let c = unwind_angle(angle - self.target_angle);
            let s = self.spring_softness;
            let cdot = v.wb - v.wa;
            let impulse =
                -s.mass_scale * self.axial_mass * (cdot + s.bias_rate * c) - s.impulse_scale * self.spring_impulse;
            self.spring_impulse += impulse;
            v.apply_angular(&j, impulse);
        }
        if self.enable_motor && !fixed_rotation {
            let cdot = v.wb - v.wa - ctx.angular_target(self.motor_speed);
            let old = self.motor_impulse;
            let max = ctx.h * self.max_motor_torque;
            self.motor_impulse = (old - self.axial_mass * cdot).clamp(-max, max);
            v.apply_angular(&j, self.motor_impulse - old);
        }
        if limit {
            // Lower limit, then upper with signs flipped so both impulses stay positive.
            let c = angle - self.lower_angle;
            let (bias, ms, is) = limit_terms(c, ctx, use_bias);
            let old = self.lower_impulse;
            let impulse = -ms * self.axial_mass * (v.wb - v.wa + bias) - is * old;
            self.lower_impulse = (old + impulse).max(0.0);
            v.apply_angular(&j, self.lower_impulse - old);

            let c = self.upper_angle - angle;
            let (bias, ms, is) = limit_terms(c, ctx, use_bias);
            let old = self.upper_impulse;
            let impulse = -ms * self.axial_mass * (v.wa - v.wb + bias) - is * old;
            self.upper_impulse = (old + impulse).max(0.0);
            v.apply_angular(&j, -(self.upper_impulse - old));
        }

        // Point constraint: K = [mA+mB + iA rA.y² + iB rB.y², ...], solved as a 2×2 block.
        let (ra, rb) = self.base.arms(&s.a, &s.b);
        let cdot = v.relative_at(ra, rb);
        let (bias, mass_scale, impulse_scale) = if use_bias {
            let separation = self.base.separation(&s.a, &s.b, ra, rb);
            (ctx.softness.bias_rate * separation, ctx.softness.mass_scale, ctx.softness.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let k = point_mass_matrix(&j, ra, rb);
        let x = solve22(k, cdot + bias);
        let impulse = -mass_scale * x - impulse_scale * self.linear_impulse;
        self.linear_impulse += impulse;
        v.apply_linear(&j, ra, rb, impulse);
        v.write(s);
    }

    /// Reaction force (the point constraint) and torque (spring, motor, limits), `impulse · inv_h`.
    pub fn reaction(&self, inv_h: f32) -> (Vec2, f32) {
        (self.linear_impulse * inv_h, self.axial_impulse() * inv_h)
    }

    /// How far the joint angle is outside its limits, radians (0 without limits).
    pub fn limit_error(&self, angle: f32) -> f32 {
        if !self.enable_limit {
            0.0
        } else if angle < self.lower_angle {
            self.lower_angle - angle
        } else if angle > self.upper_angle {
            angle - self.upper_angle
        } else {
            0.0
        }
    }
}

/// Box2D's limit rows: speculative (close the gap this sub-step) while inside the limit,
/// soft when violated in the biased pass, rigid in the relax pass.
#[inline]
pub(crate) fn limit_terms(c: f32, ctx: &JointContext, use_bias: bool) -> (f32, f32, f32) {
    if c > 0.0 {
        (c * ctx.inv_h, 1.0, 0.0)
    } else if use_bias {
        (ctx.softness.bias_rate * c, ctx.softness.mass_scale, ctx.softness.impulse_scale)
    } else {
        (0.0, 1.0, 0.0)
    }
}

/// The point constraint's effective mass matrix `J M⁻¹ Jᵀ` for arms `ra`, `rb`.
#[inline]
pub(crate) fn point_mass_matrix(j: &super::base::Prepared, ra: Vec2, rb: Vec2) -> Mat2 {
    let (ma, mb, ia, ib) = (j.m_a, j.m_b, j.i_a, j.i_b);
    let kxy = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    Mat2::from_cols(
        Vec2::new(ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib, kxy),
        Vec2::new(kxy, ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib),
    )
}

/// `K⁻¹ b` by Cramer's rule (Box2D's `b2Solve22`); zero for a singular `K`.
#[inline]
pub(crate) fn solve22(k: Mat2, b: Vec2) -> Vec2 {
    let (a11, a12, a21, a22) = (k.x_axis.x, k.y_axis.x, k.x_axis.y, k.y_axis.y);
    let det = a11 * a22 - a12 * a21;
    if det == 0.0 {
        return Vec2::ZERO;
    }
    let inv = 1.0 / det;
    Vec2::new(inv * (a22 * b.x - a12 * b.y), inv * (a11 * b.y - a21 * b.x))
}
