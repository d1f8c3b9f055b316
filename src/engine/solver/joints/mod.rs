//! Joints, one per file, after Box2D v3 (`revolute_joint.c`, `prismatic_joint.c`, ...) and the
//! 003 article's angle joint. Every joint is a soft constraint in Box2D v3's form: in the
//! biased pass its position error is corrected as a stiff damped spring (the joint softness,
//! `SolverParams::joint_hertz` and `joint_damping_ratio`), in the relax pass it is rigid and
//! adds no energy; springs and motors act in both passes. Impulses are accumulated per
//! sub-step and warm started, and the solves run inside the same sub-step loop as the
//! contacts, on copies of their two bodies' solver states (`BodyPair`): with the soft step,
//! colour by colour before each colour's contacts (the graph colours joints too, as Box2D v3
//! does, `solver::joint_colors`), else all before the contacts.
//!
//! A joint's reaction force and torque are its impulses times the sub-step rate (`inv_h`),
//! and its error is what Box2D's `b2Joint_GetLinearSeparation` / `GetAngularSeparation`
//! measure: metres off the constraint and radians beyond it.
//!
//! When a joint breaks or is removed, the joints of its structure are released for a while
//! (`release`): their impulses are forgotten and their errors close overdamped, so the break
//! does not spring the structure back.

pub mod angle;
pub mod base;
pub mod distance;
pub mod draw;
pub mod mouse;
pub mod prismatic;
pub mod release;
pub mod revolute;
pub mod weld;
pub mod wheel;

pub use angle::AngleJoint;
pub(crate) use base::BodyPair;
pub use base::{Frame, JointBase, JointContext};
pub use distance::DistanceJoint;
pub use mouse::MouseJoint;
pub use prismatic::PrismaticJoint;
pub use revolute::RevoluteJoint;
pub use weld::WeldJoint;
pub use wheel::WheelJoint;

use crate::engine::body::Body;
use crate::engine::math::{left_perp, unwind_angle};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Which kind a joint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JointKind {
    Angle,
    Revolute,
    Prismatic,
    Distance,
    Weld,
    Wheel,
}

impl JointKind {
    pub const ALL: [JointKind; 6] = [
        JointKind::Angle,
        JointKind::Revolute,
        JointKind::Prismatic,
        JointKind::Distance,
        JointKind::Weld,
        JointKind::Wheel,
    ];

    pub fn label(self) -> &'static str {
        match self {
            JointKind::Angle => "Angle",
            JointKind::Revolute => "Revolute",
            JointKind::Prismatic => "Prismatic",
            JointKind::Distance => "Distance",
            JointKind::Weld => "Weld",
            JointKind::Wheel => "Wheel",
        }
    }
}

/// A joint between two bodies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Joint {
    Angle(AngleJoint),
    Revolute(RevoluteJoint),
    Prismatic(PrismaticJoint),
    Distance(DistanceJoint),
    Weld(WeldJoint),
    Wheel(WheelJoint),
}

/// Dispatches `$body` on every joint kind with `$j` bound to the inner joint.
macro_rules! each_joint {
    ($joint:expr, $j:ident => $body:expr) => {
        match $joint {
            Joint::Angle($j) => $body,
            Joint::Revolute($j) => $body,
            Joint::Prismatic($j) => $body,
            Joint::Distance($j) => $body,
            Joint::Weld($j) => $body,
            Joint::Wheel($j) => $body,
        }
    };
}

/// Reaction of a joint on body B (A receives the opposite), `impulse · inv_h`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Reaction {
    /// Newtons, world frame.
    pub force: Vec2,
    /// Newton-metres.
    pub torque: f32,
}

impl Joint {
    pub fn kind(&self) -> JointKind {
        match self {
            Joint::Angle(_) => JointKind::Angle,
            Joint::Revolute(_) => JointKind::Revolute,
            Joint::Prismatic(_) => JointKind::Prismatic,
            Joint::Distance(_) => JointKind::Distance,
            Joint::Weld(_) => JointKind::Weld,
            Joint::Wheel(_) => JointKind::Wheel,
        }
    }

    pub fn base(&self) -> &JointBase {
        each_joint!(self, j => &j.base)
    }

    pub fn base_mut(&mut self) -> &mut JointBase {
        each_joint!(self, j => &mut j.base)
    }

    /// The two bodies (A, B).
    pub fn bodies(&self) -> (usize, usize) {
        let b = self.base();
        (b.body_a, b.body_b)
    }

    /// Computes masses, frames and effective masses for this step.
    pub(crate) fn prepare(&mut self, bodies: &[Body], ctx: &JointContext) {
        self.base_mut().prepare(bodies);
        let ctx = &ctx.for_joint(self.base());
        each_joint!(self, j => j.prepare(ctx))
    }

    /// Forgets the accumulated impulses (nothing is warm started at the next step).
    pub(crate) fn reset_impulses(&mut self) {
        each_joint!(self, j => j.reset_impulses())
    }

    /// Re-applies the accumulated impulses (each sub-step), on copies of the two bodies'
    /// states (`joint_colors::for_each_joint` loads and stores them).
    pub(crate) fn warm_start(&self, pair: &mut BodyPair) {
        each_joint!(self, j => j.warm_start(pair))
    }

    /// One pass over the joint's rows; `use_bias` is false in the relax pass.
    pub(crate) fn solve(&mut self, pair: &mut BodyPair, ctx: &JointContext, use_bias: bool) {
        let ctx = &ctx.for_joint(self.base());
        each_joint!(self, j => j.solve(pair, ctx, use_bias))
    }

    /// World axis of a slider joint (frame A's x axis at the bodies' poses).
    fn axis(&self, bodies: &[Body]) -> Vec2 {
        self.base().world_frames(bodies).0.q.x_axis()
    }

    /// The reaction force and torque the joint applied over the last sub-step.
    pub fn reaction(&self, bodies: &[Body], inv_h: f32) -> Reaction {
        let (force, torque) = match self {
            Joint::Angle(j) => (Vec2::ZERO, j.reaction_torque(inv_h)),
            Joint::Revolute(j) => j.reaction(inv_h),
            Joint::Prismatic(j) => j.reaction(self.axis(bodies), inv_h),
            Joint::Distance(j) => {
                let (pa, pb) = j.base.world_anchors(bodies);
                (j.reaction((pb - pa).normalize_or_zero(), inv_h), 0.0)
            }
            Joint::Weld(j) => j.reaction(inv_h),
            Joint::Wheel(j) => j.reaction(self.axis(bodies), inv_h),
        };
        Reaction { force, torque }
    }

    /// How far the anchors are off the constraint at the bodies' poses, metres (Box2D's
    /// linear separation; 0 for what a joint leaves free or holds with a spring).
    pub fn linear_error(&self, bodies: &[Body]) -> f32 {
        let (fa, fb) = self.base().world_frames(bodies);
        let d = fb.p - fa.p;
        let slider = |axis: Vec2, limit: Option<(f32, f32)>| {
            let perp = left_perp(axis).dot(d).abs();
            let t = axis.dot(d);
            let beyond = limit.map_or(0.0, |(lo, hi)| (lo - t).max(t - hi).max(0.0));
            (perp * perp + beyond * beyond).sqrt()
        };
        match self {
            Joint::Angle(_) => 0.0,
            Joint::Revolute(_) => d.length(),
            Joint::Prismatic(j) => {
                slider(fa.q.x_axis(), j.enable_limit.then_some((j.lower_translation, j.upper_translation)))
            }
            Joint::Distance(j) => j.length_error(d.length()),
            Joint::Weld(j) => {
                if j.linear_hertz == 0.0 {
                    d.length()
                } else {
                    0.0
                }
            }
            Joint::Wheel(j) => {
                slider(fa.q.x_axis(), j.enable_limit.then_some((j.lower_translation, j.upper_translation)))
            }
        }
    }

    /// How far the relative angle is off the constraint, radians (absolute value).
    pub fn angular_error(&self, bodies: &[Body]) -> f32 {
        let (fa, fb) = self.base().world_frames(bodies);
        let angle = unwind_angle(fa.q.inv_mul(fb.q).angle());
        match self {
            Joint::Angle(j) => j.angle_error(bodies).abs(),
            Joint::Revolute(j) => j.limit_error(angle),
            Joint::Prismatic(_) => angle.abs(),
            Joint::Weld(j) if j.angular_hertz == 0.0 => angle.abs(),
            Joint::Distance(_) | Joint::Weld(_) | Joint::Wheel(_) => 0.0,
        }
    }

    /// The relative angle of the frames (B's relative to A's), radians.
    pub fn joint_angle(&self, bodies: &[Body]) -> f32 {
        let (fa, fb) = self.base().world_frames(bodies);
        fa.q.inv_mul(fb.q).angle()
    }

    /// Whether the last reaction exceeds the joint's break force or torque.
    pub fn exceeds_break_threshold(&self, bodies: &[Body], inv_h: f32) -> bool {
        let base = self.base();
        if base.break_force.is_none() && base.break_torque.is_none() {
            return false;
        }
        let r = self.reaction(bodies, inv_h);
        base.break_force.is_some_and(|f| r.force.length() > f) || base.break_torque.is_some_and(|t| r.torque.abs() > t)
    }
}
