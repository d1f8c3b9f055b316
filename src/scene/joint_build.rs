//! Turning a [`JointSpec`] into an engine joint at the bodies' starting poses: world anchors
//! and axes become local frames (or exact frames are taken as written), and a limit, motor
//! or spring is switched on by the presence of its fields.

use super::joints::JointSpec;
use crate::engine::body::Body;
use crate::engine::solver::joints::{
    AngleJoint, DistanceJoint, Frame, JointBase, PrismaticJoint, RevoluteJoint, WeldJoint, WheelJoint,
};
use crate::engine::solver::Joint;
use glam::Vec2;

impl JointSpec {
    /// The engine joint between bodies `a` and `b` at their current poses.
    pub fn to_joint(&self, bodies: &[Body], a: usize, b: usize) -> Joint {
        let c = self.common();
        let point_base = |anchor: Option<Vec2>| match (c.frame_a, c.frame_b) {
            (Some(fa), Some(fb)) => JointBase {
                local_frame_a: Frame { point: fa.point, angle: fa.angle },
                local_frame_b: Frame { point: fb.point, angle: fb.angle },
                ..JointBase::at(bodies, a, b, Vec2::ZERO)
            },
            _ => JointBase::at(bodies, a, b, anchor.unwrap_or(bodies[b].xf.p)),
        };
        let axis_base = |anchor: Option<Vec2>, axis: Option<Vec2>, default: Vec2| {
            let base = point_base(anchor);
            if c.frame_a.is_some() {
                base
            } else {
                base.with_axis(axis.unwrap_or(default))
            }
        };
        let mut joint = match self {
            JointSpec::Angle { anchor, target_angle, max_torque, .. } => {
                let mut base = point_base(*anchor);
                if c.frame_a.is_none() {
                    // The article's C = θb − θa − target: frames along the bodies' own axes.
                    base.local_frame_a.angle = 0.0;
                    base.local_frame_b.angle = 0.0;
                }
                let mut j = AngleJoint::new(base);
                j.target_angle = target_angle.unwrap_or(bodies[b].angle - bodies[a].angle);
                j.max_torque = *max_torque;
                Joint::Angle(j)
            }
            JointSpec::Revolute {
                anchor,
                lower,
                upper,
                motor_speed,
                max_motor_torque,
                hertz,
                damping_ratio,
                target_angle,
                ..
            } => {
                let mut j = RevoluteJoint::new(point_base(*anchor));
                if let (Some(lo), Some(hi)) = (lower, upper) {
                    (j.enable_limit, j.lower_angle, j.upper_angle) = (true, *lo, *hi);
                }
                if let Some(t) = max_motor_torque {
                    (j.enable_motor, j.max_motor_torque) = (true, *t);
                }
                j.motor_speed = *motor_speed;
                if let Some(hz) = hertz.filter(|&hz| hz > 0.0) {
                    (j.enable_spring, j.hertz) = (true, hz);
                }
                j.damping_ratio = *damping_ratio;
                j.target_angle = *target_angle;
                Joint::Revolute(j)
            }
            JointSpec::Prismatic {
                anchor,
                axis,
                lower,
                upper,
                motor_speed,
                max_motor_force,
                hertz,
                damping_ratio,
                target_translation,
                ..
            } => {
                let mut j = PrismaticJoint::new(axis_base(*anchor, *axis, Vec2::X));
                if let (Some(lo), Some(hi)) = (lower, upper) {
                    (j.enable_limit, j.lower_translation, j.upper_translation) = (true, *lo, *hi);
                }
                if let Some(f) = max_motor_force {
                    (j.enable_motor, j.max_motor_force) = (true, *f);
                }
                j.motor_speed = *motor_speed;
                if let Some(hz) = hertz.filter(|&hz| hz > 0.0) {
                    (j.enable_spring, j.hertz) = (true, hz);
                }
                j.damping_ratio = *damping_ratio;
                j.target_translation = *target_translation;
                Joint::Prismatic(j)
            }
            JointSpec::Distance {
                anchor_a,
                anchor_b,
                length,
                min_length,
                max_length,
                hertz,
                damping_ratio,
                motor_speed,
                max_motor_force,
                ..
            } => {
                let base = match (c.frame_a, c.frame_b, anchor_a, anchor_b) {
                    (Some(_), Some(_), _, _) => point_base(None),
                    (_, _, Some(pa), Some(pb)) => JointBase::with_anchors(bodies, a, b, *pa, *pb),
                    _ => JointBase::at(bodies, a, b, bodies[b].xf.p),
                };
                let (pa, pb) = base.world_anchors(bodies);
                let mut j = DistanceJoint::new(base, length.unwrap_or_else(|| pa.distance(pb)).max(0.005));
                if min_length.is_some() || max_length.is_some() {
                    j.enable_limit = true;
                    j.min_length = min_length.unwrap_or(0.0);
                    j.max_length = max_length.unwrap_or(f32::MAX);
                }
                if let Some(hz) = hertz.filter(|&hz| hz > 0.0) {
                    (j.enable_spring, j.hertz) = (true, hz);
                }
                j.damping_ratio = *damping_ratio;
                if let Some(f) = max_motor_force {
                    (j.enable_motor, j.max_motor_force) = (true, *f);
                }
                j.motor_speed = *motor_speed;
                Joint::Distance(j)
            }
            JointSpec::Weld {
                anchor,
                linear_hertz,
                linear_damping_ratio,
                angular_hertz,
                angular_damping_ratio,
                ..
            } => {
                let mut j = WeldJoint::new(point_base(*anchor));
                (j.linear_hertz, j.linear_damping_ratio) = (*linear_hertz, *linear_damping_ratio);
                (j.angular_hertz, j.angular_damping_ratio) = (*angular_hertz, *angular_damping_ratio);
                Joint::Weld(j)
            }
            JointSpec::Wheel {
                anchor,
                axis,
                hertz,
                damping_ratio,
                lower,
                upper,
                motor_speed,
                max_motor_torque,
                ..
            } => {
                let mut j = WheelJoint::new(axis_base(*anchor, *axis, Vec2::Y));
                (j.enable_spring, j.hertz, j.damping_ratio) = (*hertz > 0.0, *hertz, *damping_ratio);
                if let (Some(lo), Some(hi)) = (lower, upper) {
                    (j.enable_limit, j.lower_translation, j.upper_translation) = (true, *lo, *hi);
                }
                if let Some(t) = max_motor_torque {
                    (j.enable_motor, j.max_motor_torque) = (true, *t);
                }
                j.motor_speed = *motor_speed;
                Joint::Wheel(j)
            }
        };
        let base = joint.base_mut();
        base.collide_connected = c.collide_connected;
        base.break_force = c.break_force;
        base.break_torque = c.break_torque;
        joint
    }
}
