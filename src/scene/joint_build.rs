//! Turning a [`JointSpec`] into an engine joint at the bodies' starting poses: world anchors
//! and axes become local frames (or exact frames are taken as written), and a limit, motor
//! or spring is switched on by the presence of its fields.

use super::joints::{FrameSpec, JointSpec};
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
        let at = Frames { bodies, a, b, frame_a: c.frame_a, frame_b: c.frame_b };
        let mut joint = match self {
            JointSpec::Angle { anchor, target_angle, max_torque, .. } => {
                angle_joint(&at, *anchor, *target_angle, *max_torque)
            }
            JointSpec::Revolute { .. } => revolute_joint(&at, self),
            JointSpec::Prismatic { .. } => prismatic_joint(&at, self),
            JointSpec::Distance { .. } => distance_joint(&at, self),
            JointSpec::Weld {
                anchor,
                linear_hertz,
                linear_damping_ratio,
                angular_hertz,
                angular_damping_ratio,
                ..
            } => {
                let mut j = WeldJoint::new(at.point(*anchor));
                (j.linear_hertz, j.linear_damping_ratio) = (*linear_hertz, *linear_damping_ratio);
                (j.angular_hertz, j.angular_damping_ratio) = (*angular_hertz, *angular_damping_ratio);
                Joint::Weld(j)
            }
            JointSpec::Wheel { .. } => wheel_joint(&at, self),
        };
        let base = joint.base_mut();
        base.collide_connected = c.collide_connected;
        base.break_force = c.break_force;
        base.break_torque = c.break_torque;
        joint
    }
}

/// Where a joint's frames come from: the exact local frames a save wrote (both given), or a
/// world anchor (and axis, unless `frame_a` is given) at the bodies' current poses.
struct Frames<'a> {
    bodies: &'a [Body],
    a: usize,
    b: usize,
    frame_a: Option<FrameSpec>,
    frame_b: Option<FrameSpec>,
}

impl Frames<'_> {
    /// Frames at a world `anchor` (body b's origin when absent), or the exact ones.
    fn point(&self, anchor: Option<Vec2>) -> JointBase {
        let (bodies, a, b) = (self.bodies, self.a, self.b);
        match self.frame_a.zip(self.frame_b) {
            Some((fa, fb)) => JointBase {
                local_frame_a: Frame { point: fa.point, angle: fa.angle },
                local_frame_b: Frame { point: fb.point, angle: fb.angle },
                ..JointBase::at(bodies, a, b, Vec2::ZERO)
            },
            None => JointBase::at(bodies, a, b, anchor.unwrap_or(bodies[b].xf.p)),
        }
    }

    /// [`Frames::point`] with the frames' x axis along the world `axis` (or `default`).
    fn axis(&self, anchor: Option<Vec2>, axis: Option<Vec2>, default: Vec2) -> JointBase {
        let base = self.point(anchor);
        if self.frame_a.is_some() {
            base
        } else {
            base.with_axis(axis.unwrap_or(default))
        }
    }
}

/// A spring is on when its frequency is given and positive; else `(false, current)`.
fn spring(hertz: Option<f32>, current: f32) -> (bool, f32) {
    match hertz.filter(|&hz| hz > 0.0) {
        Some(hz) => (true, hz),
        None => (false, current),
    }
}

/// The article's angle joint C = θb − θa − target: without exact frames the frames lie along
/// the bodies' own axes, and the target defaults to the angle between the bodies now.
fn angle_joint(at: &Frames, anchor: Option<Vec2>, target: Option<f32>, max_torque: Option<f32>) -> Joint {
    let mut base = at.point(anchor);
    if at.frame_a.is_none() {
        base.local_frame_a.angle = 0.0;
        base.local_frame_b.angle = 0.0;
    }
    let mut j = AngleJoint::new(base);
    j.target_angle = target.unwrap_or(at.bodies[at.b].angle - at.bodies[at.a].angle);
    j.max_torque = max_torque;
    Joint::Angle(j)
}

/// A distance joint between two world anchors (or the exact frames); its rest length defaults
/// to their distance now, a limit is on when either end is given.
fn distance_joint(at: &Frames, spec: &JointSpec) -> Joint {
    let JointSpec::Distance {
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
    } = spec
    else {
        unreachable!("distance_joint takes a distance joint's spec");
    };
    let (bodies, a, b) = (at.bodies, at.a, at.b);
    let base = match (at.frame_a.zip(at.frame_b), anchor_a, anchor_b) {
        (Some(_), _, _) => at.point(None),
        (None, Some(pa), Some(pb)) => JointBase::with_anchors(bodies, a, b, *pa, *pb),
        _ => JointBase::at(bodies, a, b, bodies[b].xf.p),
    };
    let (pa, pb) = base.world_anchors(bodies);
    let mut j = DistanceJoint::new(base, length.unwrap_or_else(|| pa.distance(pb)).max(0.005));
    if min_length.is_some() || max_length.is_some() {
        j.enable_limit = true;
        j.min_length = min_length.unwrap_or(0.0);
        j.max_length = max_length.unwrap_or(f32::MAX);
    }
    (j.enable_spring, j.hertz) = spring(*hertz, j.hertz);
    j.damping_ratio = *damping_ratio;
    if let Some(f) = max_motor_force {
        (j.enable_motor, j.max_motor_force) = (true, *f);
    }
    j.motor_speed = *motor_speed;
    Joint::Distance(j)
}

/// A revolute joint at a world anchor: a limit when both ends are given, a motor when its
/// maximum torque is, a spring when its frequency is positive.
fn revolute_joint(at: &Frames, spec: &JointSpec) -> Joint {
    let JointSpec::Revolute {
        anchor,
        lower,
        upper,
        motor_speed,
        max_motor_torque,
        hertz,
        damping_ratio,
        target_angle,
        ..
    } = spec
    else {
        unreachable!("revolute_joint takes a revolute joint's spec");
    };
    let mut j = RevoluteJoint::new(at.point(*anchor));
    if let Some((lo, hi)) = lower.zip(*upper) {
        (j.enable_limit, j.lower_angle, j.upper_angle) = (true, lo, hi);
    }
    if let Some(t) = max_motor_torque {
        (j.enable_motor, j.max_motor_torque) = (true, *t);
    }
    (j.enable_spring, j.hertz) = spring(*hertz, j.hertz);
    (j.motor_speed, j.damping_ratio, j.target_angle) = (*motor_speed, *damping_ratio, *target_angle);
    Joint::Revolute(j)
}

/// A prismatic joint along a world axis (x by default): a limit when both ends are given, a
/// motor when its maximum force is, a spring when its frequency is positive.
fn prismatic_joint(at: &Frames, spec: &JointSpec) -> Joint {
    let JointSpec::Prismatic {
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
    } = spec
    else {
        unreachable!("prismatic_joint takes a prismatic joint's spec");
    };
    let mut j = PrismaticJoint::new(at.axis(*anchor, *axis, Vec2::X));
    if let Some((lo, hi)) = lower.zip(*upper) {
        (j.enable_limit, j.lower_translation, j.upper_translation) = (true, lo, hi);
    }
    if let Some(f) = max_motor_force {
        (j.enable_motor, j.max_motor_force) = (true, *f);
    }
    (j.enable_spring, j.hertz) = spring(*hertz, j.hertz);
    (j.motor_speed, j.damping_ratio) = (*motor_speed, *damping_ratio);
    j.target_translation = *target_translation;
    Joint::Prismatic(j)
}

/// A wheel joint: a suspension spring along a world axis (y by default), a limit when both
/// ends are given, a motor when its maximum torque is.
fn wheel_joint(at: &Frames, spec: &JointSpec) -> Joint {
    let JointSpec::Wheel { anchor, axis, hertz, damping_ratio, lower, upper, motor_speed, max_motor_torque, .. } = spec
    else {
        unreachable!("wheel_joint takes a wheel joint's spec");
    };
    let mut j = WheelJoint::new(at.axis(*anchor, *axis, Vec2::Y));
    (j.enable_spring, j.hertz, j.damping_ratio) = (*hertz > 0.0, *hertz, *damping_ratio);
    if let Some((lo, hi)) = lower.zip(*upper) {
        (j.enable_limit, j.lower_translation, j.upper_translation) = (true, lo, hi);
    }
    if let Some(t) = max_motor_torque {
        (j.enable_motor, j.max_motor_torque) = (true, *t);
    }
    j.motor_speed = *motor_speed;
    Joint::Wheel(j)
}
