//! Writing a live joint back as a [`JointSpec`]: its exact local frames (so the rebuilt joint
//! is identical bit for bit) and every setting that differs from the default.

use super::joints::{BodyRef, FrameSpec, JointSpec};
use crate::engine::solver::joints::Frame;
use crate::engine::solver::Joint;
use crate::engine::World;
use std::collections::HashMap;

fn frame(f: &Frame) -> Option<FrameSpec> {
    Some(FrameSpec { point: f.point, angle: f.angle })
}

fn on(enabled: bool, value: f32) -> Option<f32> {
    enabled.then_some(value)
}

impl JointSpec {
    /// The spec of `joint` between bodies referred to as `a` and `b`.
    pub fn from_joint(joint: &Joint, a: BodyRef, b: BodyRef) -> JointSpec {
        let base = joint.base();
        let (frame_a, frame_b) = (frame(&base.local_frame_a), frame(&base.local_frame_b));
        let (collide_connected, break_force, break_torque) =
            (base.collide_connected, base.break_force, base.break_torque);
        // Every kind carries the common fields, then its own.
        macro_rules! spec {
            ($kind:ident { $($field:ident: $value:expr),* $(,)? }) => {
                JointSpec::$kind {
                    a,
                    b,
                    frame_a,
                    frame_b,
                    collide_connected,
                    break_force,
                    break_torque,
                    $($field: $value),*
                }
            };
        }
        match joint {
            Joint::Angle(j) => {
                spec!(Angle { anchor: None, target_angle: Some(j.target_angle), max_torque: j.max_torque })
            }
            Joint::Revolute(j) => spec!(Revolute {
                anchor: None,
                lower: on(j.enable_limit, j.lower_angle),
                upper: on(j.enable_limit, j.upper_angle),
                motor_speed: j.motor_speed,
                max_motor_torque: on(j.enable_motor, j.max_motor_torque),
                hertz: on(j.enable_spring, j.hertz),
                damping_ratio: j.damping_ratio,
                target_angle: j.target_angle,
            }),
            Joint::Prismatic(j) => spec!(Prismatic {
                anchor: None,
                axis: None,
                lower: on(j.enable_limit, j.lower_translation),
                upper: on(j.enable_limit, j.upper_translation),
                motor_speed: j.motor_speed,
                max_motor_force: on(j.enable_motor, j.max_motor_force),
                hertz: on(j.enable_spring, j.hertz),
                damping_ratio: j.damping_ratio,
                target_translation: j.target_translation,
            }),
            Joint::Distance(j) => spec!(Distance {
                anchor_a: None,
                anchor_b: None,
                length: Some(j.length),
                min_length: on(j.enable_limit, j.min_length),
                max_length: on(j.enable_limit && j.max_length < f32::MAX, j.max_length),
                hertz: on(j.enable_spring, j.hertz),
                damping_ratio: j.damping_ratio,
                motor_speed: j.motor_speed,
                max_motor_force: on(j.enable_motor, j.max_motor_force),
            }),
            Joint::Weld(j) => spec!(Weld {
                anchor: None,
                linear_hertz: j.linear_hertz,
                linear_damping_ratio: j.linear_damping_ratio,
                angular_hertz: j.angular_hertz,
                angular_damping_ratio: j.angular_damping_ratio,
            }),
            Joint::Wheel(j) => spec!(Wheel {
                anchor: None,
                axis: None,
                hertz: if j.enable_spring { j.hertz } else { 0.0 },
                damping_ratio: j.damping_ratio,
                lower: on(j.enable_limit, j.lower_translation),
                upper: on(j.enable_limit, j.upper_translation),
                motor_speed: j.motor_speed,
                max_motor_torque: on(j.enable_motor, j.max_motor_torque),
            }),
        }
    }
}

/// Every joint of `world` as a spec, referring to bodies by name where the name is unique
/// and by index otherwise.
pub(crate) fn joints_of(world: &World) -> Vec<JointSpec> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for b in &world.bodies {
        *count.entry(b.name.as_str()).or_default() += 1;
    }
    let body_ref = |i: usize| {
        let name = world.bodies[i].name.as_str();
        if !name.is_empty() && count.get(name) == Some(&1) {
            BodyRef::Name(name.to_string())
        } else {
            BodyRef::Index(i)
        }
    };
    world
        .joints()
        .iter()
        .map(|j| {
            let (a, b) = j.bodies();
            JointSpec::from_joint(j, body_ref(a), body_ref(b))
        })
        .collect()
}
