//! The prismatic joint (Box2D v3's `b2PrismaticJoint`): B slides along frame A's x axis
//! without turning relative to A. Optional spring towards `target_translation`, motor with
//! a force cap, translation limits; the perpendicular and angular rows are solved as one
//! 2×2 block.

use super::base::{BodyPair, JointBase, JointContext, Velocities};
use super::revolute::solve22;
use crate::engine::math::{cross, left_perp};
use crate::engine::solver::soft::Softness;
use crate::engine::solver::state::SolverBody;
use glam::{Mat2, Vec2};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrismaticJoint {
    pub base: JointBase,
    pub enable_spring: bool,
    pub hertz: f32,
    pub damping_ratio: f32,
    /// Translation the spring pulls towards, metres along the axis.
    pub target_translation: f32,
    pub enable_limit: bool,
    pub lower_translation: f32,
    pub upper_translation: f32,
    pub enable_motor: bool,
    pub max_motor_force: f32,
    /// Relative speed along the axis the motor drives to, m/s.
    pub motor_speed: f32,
    /// Perpendicular and angular impulses of the block row.
    pub impulse: Vec2,
    pub spring_impulse: f32,
    pub motor_impulse: f32,
    pub lower_impulse: f32,
    pub upper_impulse: f32,
    #[serde(skip)]
    spring_softness: Softness,
}

/// The axis geometry of a slider at the current sub-step (shared with the wheel joint):
/// separation `d`, axis and its perpendicular, and the lever scalars of each.
pub(crate) struct AxisFrame {
    pub d: Vec2,
    pub axis: Vec2,
    pub perp: Vec2,
    pub a1: f32,
    pub a2: f32,
    pub s1: f32,
    pub s2: f32,
}

impl AxisFrame {
    pub fn new(base: &JointBase, sa: &SolverBody, sb: &SolverBody) -> AxisFrame {
        let (ra, rb) = base.arms(sa, sb);
        let d = base.separation(sa, sb, ra, rb);
        let axis = sa.dq.apply(base.prepared.frame_a.q.x_axis());
        let perp = left_perp(axis);
        AxisFrame {
            d,
            axis,
            perp,
            a1: cross(d + ra, axis),
            a2: cross(rb, axis),
            s1: cross(d + ra, perp),
            s2: cross(rb, perp),
        }
    }

    /// Relative velocity along the axis.
    #[inline]
    pub fn axial_speed(&self, v: &Velocities) -> f32 {
        self.axis.dot(v.vb - v.va) + self.a2 * v.wb - self.a1 * v.wa
    }

    /// Applies `impulse` along the axis (−A, +B).
    #[inline]
    pub fn apply_axial(&self, v: &mut Velocities, j: &super::base::Prepared, impulse: f32) {
        let p = impulse * self.axis;
        v.va -= j.m_a * p;
        v.wa -= j.i_a * impulse * self.a1;
        v.vb += j.m_b * p;
        v.wb += j.i_b * impulse * self.a2;
    }

    /// Effective mass along the axis.
    pub fn axial_mass(&self, j: &super::base::Prepared) -> f32 {
        let k = j.m_a + j.m_b + j.i_a * self.a1 * self.a1 + j.i_b * self.a2 * self.a2;
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    }
}

impl PrismaticJoint {
    pub fn new(base: JointBase) -> PrismaticJoint {
        PrismaticJoint {
            base,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            target_translation: 0.0,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            max_motor_force: 0.0,
            motor_speed: 0.0,
            impulse: Vec2::ZERO,
            spring_impulse: 0.0,
            motor_impulse: 0.0,
            lower_impulse: 0.0,
            upper_impulse: 0.0,
            spring_softness: Softness::RIGID,
        }
    }

    pub(crate) fn prepare(&mut self, ctx: &JointContext) {
        self.spring_softness = Softness::new(self.hertz, self.damping_ratio, ctx.h);
        if !ctx.warm_starting {
            self.reset_impulses();
        }
    }

    pub(crate) fn reset_impulses(&mut self) {
        self.impulse = Vec2::ZERO;
        self.spring_impulse = 0.0;
        self.motor_impulse = 0.0;
        self.lower_impulse = 0.0;
        self.upper_impulse = 0.0;
    }

    fn axial_impulse(&self) -> f32 {
        self.spring_impulse + self.motor_impulse + self.lower_impulse - self.upper_impulse
    }

    pub(crate) fn warm_start(&self, s: &mut BodyPair) {
        let f = AxisFrame::new(&self.base, &s.a, &s.b);
        let j = &self.base.prepared;
        let axial = self.axial_impulse();
        let (perp, angle) = (self.impulse.x, self.impulse.y);
        let p = axial * f.axis + perp * f.perp;
        let la = axial * f.a1 + perp * f.s1 + angle;
        let lb = axial * f.a2 + perp * f.s2 + angle;
        let mut v = Velocities::read(s);
        v.apply(j, p, la, lb);
        v.write(s);
    }

    pub(crate) fn solve(&mut self, s: &mut BodyPair, ctx: &JointContext, use_bias: bool) {
        let j = self.base.prepared;
        let f = AxisFrame::new(&self.base, &s.a, &s.b);
        let rel = self.base.relative_rotation(&s.a, &s.b);
        let mut v = Velocities::read(s);
        let translation = f.axis.dot(f.d);
        let axial_mass = f.axial_mass(&j);

        if self.enable_spring && self.hertz > 0.0 {
            let c = translation - self.target_translation;
            let s = self.spring_softness;
            let cdot = f.axial_speed(&v);
            let impulse = -s.mass_scale * axial_mass * (cdot + s.bias_rate * c) - s.impulse_scale * self.spring_impulse;
            self.spring_impulse += impulse;
            f.apply_axial(&mut v, &j, impulse);
        }
        if self.enable_motor {
            let cdot = f.axial_speed(&v);
            let old = self.motor_impulse;
            let max = ctx.h * self.max_motor_force;
            self.motor_impulse = (old + axial_mass * (ctx.linear_target(self.motor_speed) - cdot)).clamp(-max, max);
            f.apply_axial(&mut v, &j, self.motor_impulse - old);
        }
        if self.enable_limit {
            // Only near the limit (a quarter of the range, as Box2D), speculative inside it.
            let speculative = 0.25 * (self.upper_translation - self.lower_translation);
            let c = translation - self.lower_translation;
            if c < speculative {
                let (bias, ms, is) = slider_limit_terms(c, ctx, use_bias);
                let old = self.lower_impulse;
                let impulse = -axial_mass * ms * (f.axial_speed(&v) + bias) - is * old;
                self.lower_impulse = (old + impulse).max(0.0);
                f.apply_axial(&mut v, &j, self.lower_impulse - old);
            } else {
                self.lower_impulse = 0.0;
            }
            let c = self.upper_translation - translation;
            if c < speculative {
                let (bias, ms, is) = slider_limit_terms(c, ctx, use_bias);
                let old = self.upper_impulse;
                let impulse = -axial_mass * ms * (-f.axial_speed(&v) + bias) - is * old;
                self.upper_impulse = (old + impulse).max(0.0);
                f.apply_axial(&mut v, &j, -(self.upper_impulse - old));
            } else {
                self.upper_impulse = 0.0;
            }
        }

        // Perpendicular and angular rows as one block.
        let cdot = Vec2::new(f.perp.dot(v.vb - v.va) + f.s2 * v.wb - f.s1 * v.wa, v.wb - v.wa);
        let (bias, mass_scale, impulse_scale) = if use_bias {
            let c = Vec2::new(f.perp.dot(f.d), rel.angle());
            (ctx.softness.bias_rate * c, ctx.softness.mass_scale, ctx.softness.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let k11 = j.m_a + j.m_b + j.i_a * f.s1 * f.s1 + j.i_b * f.s2 * f.s2;
        let k12 = j.i_a * f.s1 + j.i_b * f.s2;
        let k22 = if j.i_a + j.i_b == 0.0 { 1.0 } else { j.i_a + j.i_b };
        let x = solve22(Mat2::from_cols(Vec2::new(k11, k12), Vec2::new(k12, k22)), cdot + bias);
        let impulse = -mass_scale * x - impulse_scale * self.impulse;
        self.impulse += impulse;
        let p = impulse.x * f.perp;
        v.apply(&j, p, impulse.x * f.s1 + impulse.y, impulse.x * f.s2 + impulse.y);
        v.write(s);
    }

    /// Reaction force along and across the axis (world), and torque, `impulse · inv_h`.
    pub fn reaction(&self, axis: Vec2, inv_h: f32) -> (Vec2, f32) {
        let force = (self.axial_impulse() * axis + self.impulse.x * left_perp(axis)) * inv_h;
        (force, self.impulse.y * inv_h)
    }
}

/// Box2D's slider limit rows: speculative inside the limit (the gap capped at a metre),
/// soft when violated in the biased pass, rigid in the relax pass.
#[inline]
pub(crate) fn slider_limit_terms(c: f32, ctx: &JointContext, use_bias: bool) -> (f32, f32, f32) {
    if c > 0.0 {
        (c.min(1.0) * ctx.inv_h, 1.0, 0.0)
    } else if use_bias {
        (ctx.softness.bias_rate * c, ctx.softness.mass_scale, ctx.softness.impulse_scale)
    } else {
        (0.0, 1.0, 0.0)
    }
}
