//! The distance joint (Box2D v3's `b2DistanceJoint`): keeps the anchors `length` apart, rigidly,
//! or as a spring of `hertz` and `damping_ratio` held between `min_length` and `max_length`,
//! with an optional motor along the line.

use super::base::{BodyPair, JointBase, JointContext, Prepared, Velocities};
use super::revolute::limit_terms;
use crate::engine::math::cross;
use crate::engine::solver::soft::Softness;
use crate::engine::solver::state::SolverBody;
use glam::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DistanceJoint {
    pub base: JointBase,
    /// Rest length, metres.
    pub length: f32,
    pub enable_spring: bool,
    pub hertz: f32,
    pub damping_ratio: f32,
    pub enable_limit: bool,
    pub min_length: f32,
    pub max_length: f32,
    pub enable_motor: bool,
    pub max_motor_force: f32,
    pub motor_speed: f32,
    pub impulse: f32,
    pub lower_impulse: f32,
    pub upper_impulse: f32,
    pub motor_impulse: f32,
    #[serde(skip)]
    axial_mass: f32,
    #[serde(skip)]
    softness: Softness,
}

impl DistanceJoint {
    /// A rigid rod of the anchors' current distance.
    pub fn new(base: JointBase, length: f32) -> DistanceJoint {
        DistanceJoint {
            base,
            length,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_limit: false,
            min_length: 0.0,
            max_length: f32::MAX,
            enable_motor: false,
            max_motor_force: 0.0,
            motor_speed: 0.0,
            impulse: 0.0,
            lower_impulse: 0.0,
            upper_impulse: 0.0,
            motor_impulse: 0.0,
            axial_mass: 0.0,
            softness: Softness::RIGID,
        }
    }

    /// The current anchor separation (`B's − A's`) and the arms.
    fn geometry(&self, sa: &SolverBody, sb: &SolverBody) -> (Vec2, Vec2, Vec2) {
        let (ra, rb) = self.base.arms(sa, sb);
        (self.base.separation(sa, sb, ra, rb), ra, rb)
    }

    pub(crate) fn prepare(&mut self, ctx: &JointContext) {
        let j = &self.base.prepared;
        let (ra, rb) = (j.frame_a.p, j.frame_b.p);
        let axis = (rb - ra + j.delta_center).normalize_or_zero();
        let (cra, crb) = (cross(ra, axis), cross(rb, axis));
        let k = j.m_a + j.m_b + j.i_a * cra * cra + j.i_b * crb * crb;
        self.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
        self.softness = Softness::new(self.hertz, self.damping_ratio, ctx.h);
        if !ctx.warm_starting {
            self.reset_impulses();
        }
    }

    pub(crate) fn reset_impulses(&mut self) {
        self.impulse = 0.0;
        self.lower_impulse = 0.0;
        self.upper_impulse = 0.0;
        self.motor_impulse = 0.0;
    }

    fn axial_impulse(&self) -> f32 {
        self.impulse + self.lower_impulse - self.upper_impulse + self.motor_impulse
    }

    pub(crate) fn warm_start(&self, s: &mut BodyPair) {
        let (d, ra, rb) = self.geometry(&s.a, &s.b);
        let mut v = Velocities::read(s);
        v.apply_linear(&self.base.prepared, ra, rb, self.axial_impulse() * d.normalize_or_zero());
        v.write(s);
    }

    /// Whether the joint is a spring (soft between its limits) rather than a rigid rod.
    pub fn is_soft(&self) -> bool {
        self.enable_spring && (self.min_length < self.max_length || !self.enable_limit)
    }

    pub(crate) fn solve(&mut self, s: &mut BodyPair, ctx: &JointContext, use_bias: bool) {
        let j = self.base.prepared;
        let (d, ra, rb) = self.geometry(&s.a, &s.b);
        let length = d.length();
        let axis = d.normalize_or_zero();
        let mut v = Velocities::read(s);
        let speed = |v: &Velocities| axis.dot(v.relative_at(ra, rb));
        if self.is_soft() {
            if self.hertz > 0.0 {
                let c = length - self.length;
                let s = self.softness;
                let old = self.impulse;
                let impulse = -s.mass_scale * self.axial_mass * (speed(&v) + s.bias_rate * c) - s.impulse_scale * old;
                self.impulse = old + impulse;
                v.apply_linear(&j, ra, rb, (self.impulse - old) * axis);
            }
            if self.enable_motor {
                let old = self.motor_impulse;
                let max = ctx.h * self.max_motor_force;
                self.motor_impulse =
                    (old + self.axial_mass * (ctx.linear_target(self.motor_speed) - speed(&v))).clamp(-max, max);
                v.apply_linear(&j, ra, rb, (self.motor_impulse - old) * axis);
            }
            if self.enable_limit {
                let (bias, ms, is) = limit_terms(length - self.min_length, ctx, use_bias);
                let old = self.lower_impulse;
                let impulse = -ms * self.axial_mass * (speed(&v) + bias) - is * old;
                self.lower_impulse = (old + impulse).max(0.0);
                v.apply_linear(&j, ra, rb, (self.lower_impulse - old) * axis);

                let (bias, ms, is) = limit_terms(self.max_length - length, ctx, use_bias);
                let old = self.upper_impulse;
                let impulse = -ms * self.axial_mass * (-speed(&v) + bias) - is * old;
                self.upper_impulse = (old + impulse).max(0.0);
                v.apply_linear(&j, ra, rb, -(self.upper_impulse - old) * axis);
            }
        } else {
            // Rigid rod, soft in the biased pass like every joint constraint. Its effective mass
            // is taken at the current arms, not the step's start: with an arm long beside the
            // body (an anchor 12 m from a unit box) the arms turn enough within a step that the
            // start's mass overshoots and the rod diverges.
            let c = length - self.length;
            let (bias, ms, is) = if use_bias {
                (ctx.softness.bias_rate * c, ctx.softness.mass_scale, ctx.softness.impulse_scale)
            } else {
                (0.0, 1.0, 0.0)
            };
            let impulse = -ms * current_axial_mass(&j, ra, rb, axis) * (speed(&v) + bias) - is * self.impulse;
            self.impulse += impulse;
            v.apply_linear(&j, ra, rb, impulse * axis);
        }
        v.write(s);
    }

    /// Reaction force along the current line (`axis` from A's anchor to B's), `impulse · inv_h`.
    pub fn reaction(&self, axis: Vec2, inv_h: f32) -> Vec2 {
        self.axial_impulse() * inv_h * axis
    }

    /// How far the length is from what the joint holds it to, metres (Box2D's linear
    /// separation: the rest length for a rod, the limits for a spring).
    pub fn length_error(&self, length: f32) -> f32 {
        if !self.is_soft() {
            (length - self.length).abs()
        } else if self.enable_limit && length < self.min_length {
            self.min_length - length
        } else if self.enable_limit && length > self.max_length {
            length - self.max_length
        } else {
            0.0
        }
    }
}

/// The effective mass along `axis` at the current arms `ra`, `rb`.
fn current_axial_mass(j: &Prepared, ra: Vec2, rb: Vec2, axis: Vec2) -> f32 {
    let (cra, crb) = (cross(ra, axis), cross(rb, axis));
    let k = j.m_a + j.m_b + j.i_a * cra * cra + j.i_b * crb * crb;
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}
