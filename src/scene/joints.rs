//! Joints as written in scene files: `joints: [Revolute(a: "link1", b: "link2", anchor: (x, y),
//! lower: -0.5, upper: 0.5, motor_speed: 2.0, max_motor_torque: 50.0), ...]`.
//!
//! Bodies are referenced by name (or by index in the built world). Anchors and axes are in
//! world coordinates at the bodies' starting poses; saves write each joint's exact local frames
//! (`frame_a`, `frame_b`) instead, so a saved world reads back identically. A limit is on when
//! both ends are given, a motor when its maximum force or torque is, a spring when its `hertz`
//! is positive.

use super::fields;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A body named in a scene, or its index in the built world.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BodyRef {
    Name(String),
    Index(usize),
}

impl std::fmt::Display for BodyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyRef::Name(n) => write!(f, "{n:?}"),
            BodyRef::Index(i) => write!(f, "#{i}"),
        }
    }
}

/// A joint frame in a body's local coordinates: anchor point and the angle of its x axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameSpec {
    #[serde(deserialize_with = "fields::point")]
    pub point: Vec2,
    #[serde(default, deserialize_with = "fields::angle")]
    pub angle: f32,
}

/// What every joint kind accepts: the bodies, exact frames (as saves write them), contact
/// filtering and break thresholds.
#[derive(Clone, Debug, PartialEq)]
pub struct Common {
    pub a: BodyRef,
    pub b: BodyRef,
    pub frame_a: Option<FrameSpec>,
    pub frame_b: Option<FrameSpec>,
    pub collide_connected: bool,
    pub break_force: Option<f32>,
    pub break_torque: Option<f32>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Declares the joint enum: each variant has the common fields then its own, all with the
/// same `serde` attributes a hand-written struct would carry.
macro_rules! joint_specs {
    ($($(#[$vdoc:meta])* $variant:ident { $($(#[$fattr:meta])* $field:ident : $ty:ty,)* })*) => {
        /// A joint in a scene file.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(rename = "Joint", deny_unknown_fields)]
        pub enum JointSpec {
            $($(#[$vdoc])* $variant {
                a: BodyRef,
                b: BodyRef,
                #[serde(default, skip_serializing_if = "Option::is_none")]
                frame_a: Option<FrameSpec>,
                #[serde(default, skip_serializing_if = "Option::is_none")]
                frame_b: Option<FrameSpec>,
                #[serde(default, skip_serializing_if = "is_false")]
                collide_connected: bool,
                #[serde(default, deserialize_with = "fields::break_force", skip_serializing_if = "Option::is_none")]
                break_force: Option<f32>,
                #[serde(default, deserialize_with = "fields::break_torque", skip_serializing_if = "Option::is_none")]
                break_torque: Option<f32>,
                $($(#[$fattr])* $field: $ty,)*
            },)*
        }

        impl JointSpec {
            /// The fields every kind shares.
            pub fn common(&self) -> Common {
                match self {
                    $(JointSpec::$variant { a, b, frame_a, frame_b, collide_connected, break_force, break_torque, .. } => Common {
                        a: a.clone(),
                        b: b.clone(),
                        frame_a: *frame_a,
                        frame_b: *frame_b,
                        collide_connected: *collide_connected,
                        break_force: *break_force,
                        break_torque: *break_torque,
                    },)*
                }
            }

            /// The variant name, as written in files.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(JointSpec::$variant { .. } => stringify!($variant),)*
                }
            }
        }
    };
}

joint_specs! {
    /// The 003 article's angle joint: holds `θb − θa = target_angle` (the starting relative
    /// angle when not given), positions free.
    Angle {
        #[serde(default, deserialize_with = "fields::opt_point", skip_serializing_if = "Option::is_none")]
        anchor: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::opt_target_angle", skip_serializing_if = "Option::is_none")]
        target_angle: Option<f32>,
        #[serde(default, deserialize_with = "fields::max_torque", skip_serializing_if = "Option::is_none")]
        max_torque: Option<f32>,
    }
    /// A hinge with optional angle limits, motor and spring.
    Revolute {
        #[serde(default, deserialize_with = "fields::opt_point", skip_serializing_if = "Option::is_none")]
        anchor: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::lower", skip_serializing_if = "Option::is_none")]
        lower: Option<f32>,
        #[serde(default, deserialize_with = "fields::upper", skip_serializing_if = "Option::is_none")]
        upper: Option<f32>,
        #[serde(default, deserialize_with = "fields::motor_speed", skip_serializing_if = "is_zero")]
        motor_speed: f32,
        #[serde(default, deserialize_with = "fields::max_motor_torque", skip_serializing_if = "Option::is_none")]
        max_motor_torque: Option<f32>,
        #[serde(default, deserialize_with = "fields::opt_hertz", skip_serializing_if = "Option::is_none")]
        hertz: Option<f32>,
        #[serde(default, deserialize_with = "fields::damping_ratio", skip_serializing_if = "is_zero")]
        damping_ratio: f32,
        #[serde(default, deserialize_with = "fields::target_angle", skip_serializing_if = "is_zero")]
        target_angle: f32,
    }
    /// A slider along `axis` (world direction) with optional limits, motor and spring.
    Prismatic {
        #[serde(default, deserialize_with = "fields::opt_point", skip_serializing_if = "Option::is_none")]
        anchor: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::opt_axis", skip_serializing_if = "Option::is_none")]
        axis: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::lower", skip_serializing_if = "Option::is_none")]
        lower: Option<f32>,
        #[serde(default, deserialize_with = "fields::upper", skip_serializing_if = "Option::is_none")]
        upper: Option<f32>,
        #[serde(default, deserialize_with = "fields::motor_speed", skip_serializing_if = "is_zero")]
        motor_speed: f32,
        #[serde(default, deserialize_with = "fields::max_motor_force", skip_serializing_if = "Option::is_none")]
        max_motor_force: Option<f32>,
        #[serde(default, deserialize_with = "fields::opt_hertz", skip_serializing_if = "Option::is_none")]
        hertz: Option<f32>,
        #[serde(default, deserialize_with = "fields::damping_ratio", skip_serializing_if = "is_zero")]
        damping_ratio: f32,
        #[serde(default, deserialize_with = "fields::target_translation", skip_serializing_if = "is_zero")]
        target_translation: f32,
    }
    /// A rod between `anchor_a` and `anchor_b`, or a spring held between `min_length` and
    /// `max_length`.
    Distance {
        #[serde(default, deserialize_with = "fields::opt_point", skip_serializing_if = "Option::is_none")]
        anchor_a: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::opt_point", skip_serializing_if = "Option::is_none")]
        anchor_b: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::length", skip_serializing_if = "Option::is_none")]
        length: Option<f32>,
        #[serde(default, deserialize_with = "fields::min_length", skip_serializing_if = "Option::is_none")]
        min_length: Option<f32>,
        #[serde(default, deserialize_with = "fields::max_length", skip_serializing_if = "Option::is_none")]
        max_length: Option<f32>,
        #[serde(default, deserialize_with = "fields::opt_hertz", skip_serializing_if = "Option::is_none")]
        hertz: Option<f32>,
        #[serde(default, deserialize_with = "fields::damping_ratio", skip_serializing_if = "is_zero")]
        damping_ratio: f32,
        #[serde(default, deserialize_with = "fields::motor_speed", skip_serializing_if = "is_zero")]
        motor_speed: f32,
        #[serde(default, deserialize_with = "fields::max_motor_force", skip_serializing_if = "Option::is_none")]
        max_motor_force: Option<f32>,
    }
    /// Glues B to A; rigid, or soft with the given stiffnesses.
    Weld {
        #[serde(default, deserialize_with = "fields::opt_point", skip_serializing_if = "Option::is_none")]
        anchor: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::linear_hertz", skip_serializing_if = "is_zero")]
        linear_hertz: f32,
        #[serde(default, deserialize_with = "fields::linear_damping_ratio", skip_serializing_if = "is_zero")]
        linear_damping_ratio: f32,
        #[serde(default, deserialize_with = "fields::angular_hertz", skip_serializing_if = "is_zero")]
        angular_hertz: f32,
        #[serde(default, deserialize_with = "fields::angular_damping_ratio", skip_serializing_if = "is_zero")]
        angular_damping_ratio: f32,
    }
    /// A wheel on a suspension along `axis` (default up), with a motor.
    Wheel {
        #[serde(default, deserialize_with = "fields::opt_point", skip_serializing_if = "Option::is_none")]
        anchor: Option<Vec2>,
        #[serde(default, deserialize_with = "fields::opt_axis", skip_serializing_if = "Option::is_none")]
        axis: Option<Vec2>,
        #[serde(default = "wheel_hertz", deserialize_with = "fields::hertz", skip_serializing_if = "is_wheel_hertz")]
        hertz: f32,
        #[serde(default = "wheel_damping", deserialize_with = "fields::damping_ratio", skip_serializing_if = "is_wheel_damping")]
        damping_ratio: f32,
        #[serde(default, deserialize_with = "fields::lower", skip_serializing_if = "Option::is_none")]
        lower: Option<f32>,
        #[serde(default, deserialize_with = "fields::upper", skip_serializing_if = "Option::is_none")]
        upper: Option<f32>,
        #[serde(default, deserialize_with = "fields::motor_speed", skip_serializing_if = "is_zero")]
        motor_speed: f32,
        #[serde(default, deserialize_with = "fields::max_motor_torque", skip_serializing_if = "Option::is_none")]
        max_motor_torque: Option<f32>,
    }
}

fn is_zero(x: &f32) -> bool {
    x.to_bits() == 0
}

fn wheel_hertz() -> f32 {
    1.0
}

fn wheel_damping() -> f32 {
    0.7
}

fn is_wheel_hertz(x: &f32) -> bool {
    x.to_bits() == wheel_hertz().to_bits()
}

fn is_wheel_damping(x: &f32) -> bool {
    x.to_bits() == wheel_damping().to_bits()
}

/// Both ends of a limit, or neither.
fn limit(lower: Option<f32>, upper: Option<f32>) -> Result<Option<(f32, f32)>, (&'static str, String)> {
    match (lower, upper) {
        (None, None) => Ok(None),
        (Some(lo), Some(hi)) if lo <= hi => Ok(Some((lo, hi))),
        (Some(lo), Some(hi)) => Err(("lower", format!("`lower` ({lo}) must not exceed `upper` ({hi})"))),
        (Some(_), None) => Err(("lower", "a limit needs both `lower` and `upper`".into())),
        (None, Some(_)) => Err(("upper", "a limit needs both `lower` and `upper`".into())),
    }
}

impl JointSpec {
    /// Checks between fields (single fields are checked while parsing); the error names the
    /// field to blame.
    pub(crate) fn check_fields(&self) -> Result<(), (&'static str, String)> {
        let c = self.common();
        let has_frames = c.frame_a.is_some() && c.frame_b.is_some();
        if c.frame_a.is_some() != c.frame_b.is_some() {
            let given = if c.frame_a.is_some() { "frame_a" } else { "frame_b" };
            return Err((given, "give both `frame_a` and `frame_b`, or neither".into()));
        }
        // Missing fields blame no field: the error points at the joint itself.
        let need_anchor = |anchor: &Option<Vec2>| {
            if anchor.is_none() && !has_frames {
                Err(("", format!("a {} joint needs an `anchor` (world point)", self.kind())))
            } else {
                Ok(())
            }
        };
        match self {
            JointSpec::Angle { .. } => {}
            JointSpec::Revolute { anchor, lower, upper, .. } => {
                need_anchor(anchor)?;
                limit(*lower, *upper)?;
            }
            JointSpec::Prismatic { anchor, lower, upper, .. } | JointSpec::Wheel { anchor, lower, upper, .. } => {
                need_anchor(anchor)?;
                limit(*lower, *upper)?;
            }
            JointSpec::Weld { anchor, .. } => need_anchor(anchor)?,
            JointSpec::Distance { anchor_a, anchor_b, length, min_length, max_length, .. } => {
                if !has_frames && (anchor_a.is_none() || anchor_b.is_none()) {
                    return Err(("", "a Distance joint needs `anchor_a` and `anchor_b` (world points)".into()));
                }
                if let Some(l) = length.filter(|&l| l <= 0.0) {
                    return Err(("length", format!("`length` must be positive, got {l}")));
                }
                if let Some(l) = min_length.filter(|&l| l < 0.0) {
                    return Err(("min_length", format!("`min_length` must not be negative, got {l}")));
                }
                if let Some(l) = max_length.filter(|&l| l <= 0.0) {
                    return Err(("max_length", format!("`max_length` must be positive, got {l}")));
                }
                if let (Some(lo), Some(hi)) = (min_length, max_length) {
                    if lo > hi {
                        return Err(("min_length", format!("`min_length` ({lo}) must not exceed `max_length` ({hi})")));
                    }
                }
            }
        }
        Ok(())
    }
}
