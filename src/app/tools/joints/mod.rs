//! Live edits of one joint's parameters, as data: the Joint panel and scripts send
//! `Action::SetJoint { joint, param }` with one `JointParam`, and `apply` checks the value
//! against the joint's kind before changing anything (a bad value or a field the kind does not
//! have is an error, and the joint stays as it was).

#[cfg(test)]
mod edit_tests;
pub mod panel;
pub mod state;
#[cfg(test)]
mod ui_tests;

use manifold_lab::engine::solver::Joint;
use serde::{Deserialize, Serialize};

/// Largest magnitude accepted for any joint parameter.
const MAX_VALUE: f32 = 1.0e6;

/// One joint parameter and its new value. Angles are radians, lengths metres.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JointParam {
    /// Whether the two bodies still collide with each other.
    CollideConnected(bool),
    /// Reaction force (N) past which the joint breaks; `None` never breaks.
    BreakForce(Option<f32>),
    /// Reaction torque (N·m) past which the joint breaks; `None` never breaks.
    BreakTorque(Option<f32>),
    /// Revolute, prismatic, wheel: the limit on or off (distance: the length range).
    EnableLimit(bool),
    /// Revolute: angles; prismatic and wheel: translations along the axis.
    Limits {
        lower: f32,
        upper: f32,
    },
    EnableMotor(bool),
    /// rad/s (revolute, wheel) or m/s (prismatic, distance).
    MotorSpeed(f32),
    /// N·m (revolute, wheel) or N (prismatic, distance); at least 0.
    MaxMotor(f32),
    EnableSpring(bool),
    /// The spring's stiffness and damping ratio (weld: the linear part; 0 Hz is rigid).
    Spring {
        hertz: f32,
        damping_ratio: f32,
    },
    /// Weld only: the angular part.
    AngularSpring {
        hertz: f32,
        damping_ratio: f32,
    },
    /// Angle and revolute: the relative angle the joint (or its spring) holds; prismatic: the
    /// spring's rest translation.
    Target(f32),
    /// Angle joint: the largest torque it applies, `None` for no cap.
    MaxTorque(Option<f32>),
    /// Distance: the rest length.
    Length(f32),
    /// Distance: the range the spring is held in.
    LengthRange {
        min: f32,
        max: f32,
    },
}

fn finite(v: f32, what: &str) -> Result<f32, String> {
    if v.is_finite() && v.abs() <= MAX_VALUE {
        Ok(v)
    } else {
        Err(format!("{what} must be a finite number within ±{MAX_VALUE}, got {v}"))
    }
}

fn non_negative(v: f32, what: &str) -> Result<f32, String> {
    let v = finite(v, what)?;
    if v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("{what} must not be negative, got {v}"))
    }
}

fn positive(v: Option<f32>, what: &str) -> Result<Option<f32>, String> {
    match v {
        None => Ok(None),
        Some(x) if finite(x, what)? > 0.0 => Ok(Some(x)),
        Some(x) => Err(format!("{what} must be positive, got {x}")),
    }
}

fn ordered(lower: f32, upper: f32, what: &str) -> Result<(f32, f32), String> {
    let (lo, hi) = (finite(lower, what)?, finite(upper, what)?);
    if lo <= hi {
        Ok((lo, hi))
    } else {
        Err(format!("{what}: lower ({lo}) must not exceed upper ({hi})"))
    }
}

fn no_such(joint: &Joint, what: &str) -> String {
    format!("a {} joint has no {what}", joint.kind().label().to_lowercase())
}

/// Sets `param` on `joint`; on error the joint is unchanged. Turning a limit or motor off
/// forgets its accumulated impulse (as Box2D's `EnableLimit` / `EnableMotor` do).
pub fn apply(joint: &mut Joint, param: &JointParam) -> Result<(), String> {
    use JointParam as P;
    match param {
        P::CollideConnected(on) => joint.base_mut().collide_connected = *on,
        P::BreakForce(f) => joint.base_mut().break_force = positive(*f, "break force")?,
        P::BreakTorque(t) => joint.base_mut().break_torque = positive(*t, "break torque")?,
        P::EnableLimit(on) => enable_limit(joint, *on)?,
        P::Limits { lower, upper } => set_limits(joint, *lower, *upper)?,
        P::EnableMotor(on) => enable_motor(joint, *on)?,
        P::MotorSpeed(_) | P::MaxMotor(_) => set_motor(joint, param)?,
        P::EnableSpring(_) | P::Spring { .. } | P::AngularSpring { .. } => set_spring(joint, param)?,
        P::Target(t) => {
            let t = finite(*t, "target")?;
            match joint {
                Joint::Angle(j) => j.target_angle = t,
                Joint::Revolute(j) => j.target_angle = t,
                Joint::Prismatic(j) => j.target_translation = t,
                _ => return Err(no_such(joint, "target")),
            }
        }
        P::MaxTorque(t) => {
            let t = positive(*t, "max torque")?;
            match joint {
                Joint::Angle(j) => j.max_torque = t,
                _ => return Err(no_such(joint, "torque cap (use MaxMotor for a motor)")),
            }
        }
        P::Length(l) => {
            let l = positive(Some(*l), "length")?.unwrap_or_default();
            match joint {
                Joint::Distance(j) => j.length = l,
                _ => return Err(no_such(joint, "length")),
            }
        }
        P::LengthRange { min, max } => {
            let (lo, hi) = ordered(*min, *max, "length range")?;
            if lo < 0.0 || hi <= 0.0 {
                return Err(format!("length range: min must not be negative and max must be positive, got {lo}..{hi}"));
            }
            match joint {
                Joint::Distance(j) => (j.min_length, j.max_length) = (lo, hi),
                _ => return Err(no_such(joint, "length range")),
            }
        }
    }
    Ok(())
}

/// [`apply`]'s motor parameters: its speed and its torque or force cap.
fn set_motor(joint: &mut Joint, param: &JointParam) -> Result<(), String> {
    use JointParam as P;
    match param {
        P::MotorSpeed(s) => {
            let s = finite(*s, "motor speed")?;
            match joint {
                Joint::Revolute(j) => j.motor_speed = s,
                Joint::Prismatic(j) => j.motor_speed = s,
                Joint::Distance(j) => j.motor_speed = s,
                Joint::Wheel(j) => j.motor_speed = s,
                _ => return Err(no_such(joint, "motor")),
            }
        }
        P::MaxMotor(m) => {
            let m = non_negative(*m, "max motor torque or force")?;
            match joint {
                Joint::Revolute(j) => j.max_motor_torque = m,
                Joint::Prismatic(j) => j.max_motor_force = m,
                Joint::Distance(j) => j.max_motor_force = m,
                Joint::Wheel(j) => j.max_motor_torque = m,
                _ => return Err(no_such(joint, "motor")),
            }
        }
        _ => {} // `apply` sends only the motor parameters here.
    }
    Ok(())
}

/// [`apply`]'s spring parameters: the switch, and the stiffness and damping of each spring.
fn set_spring(joint: &mut Joint, param: &JointParam) -> Result<(), String> {
    use JointParam as P;
    match param {
        P::EnableSpring(on) => match joint {
            Joint::Revolute(j) => j.enable_spring = *on,
            Joint::Prismatic(j) => j.enable_spring = *on,
            Joint::Distance(j) => j.enable_spring = *on,
            Joint::Wheel(j) => j.enable_spring = *on,
            _ => return Err(no_such(joint, "spring switch")),
        },
        P::Spring { hertz, damping_ratio } => {
            let (h, z) = (non_negative(*hertz, "spring hertz")?, non_negative(*damping_ratio, "damping ratio")?);
            match joint {
                Joint::Revolute(j) => (j.hertz, j.damping_ratio) = (h, z),
                Joint::Prismatic(j) => (j.hertz, j.damping_ratio) = (h, z),
                Joint::Distance(j) => (j.hertz, j.damping_ratio) = (h, z),
                Joint::Wheel(j) => (j.hertz, j.damping_ratio) = (h, z),
                Joint::Weld(j) => (j.linear_hertz, j.linear_damping_ratio) = (h, z),
                Joint::Angle(_) => return Err(no_such(joint, "spring")),
            }
        }
        P::AngularSpring { hertz, damping_ratio } => {
            let (h, z) = (non_negative(*hertz, "spring hertz")?, non_negative(*damping_ratio, "damping ratio")?);
            match joint {
                Joint::Weld(j) => (j.angular_hertz, j.angular_damping_ratio) = (h, z),
                _ => return Err(no_such(joint, "angular spring")),
            }
        }
        _ => {} // `apply` sends only the spring parameters here.
    }
    Ok(())
}

fn enable_limit(joint: &mut Joint, on: bool) -> Result<(), String> {
    let forget = |on: bool, lo: &mut f32, hi: &mut f32| {
        if !on {
            (*lo, *hi) = (0.0, 0.0);
        }
    };
    match joint {
        Joint::Revolute(j) => {
            j.enable_limit = on;
            forget(on, &mut j.lower_impulse, &mut j.upper_impulse);
        }
        Joint::Prismatic(j) => {
            j.enable_limit = on;
            forget(on, &mut j.lower_impulse, &mut j.upper_impulse);
        }
        Joint::Distance(j) => {
            j.enable_limit = on;
            forget(on, &mut j.lower_impulse, &mut j.upper_impulse);
        }
        Joint::Wheel(j) => {
            j.enable_limit = on;
            forget(on, &mut j.lower_impulse, &mut j.upper_impulse);
        }
        _ => return Err(no_such(joint, "limit")),
    }
    Ok(())
}

fn set_limits(joint: &mut Joint, lower: f32, upper: f32) -> Result<(), String> {
    let (lo, hi) = ordered(lower, upper, "limits")?;
    match joint {
        Joint::Revolute(j) => (j.lower_angle, j.upper_angle) = (lo, hi),
        Joint::Prismatic(j) => (j.lower_translation, j.upper_translation) = (lo, hi),
        Joint::Wheel(j) => (j.lower_translation, j.upper_translation) = (lo, hi),
        _ => return Err(no_such(joint, "limits (distance joints: LengthRange)")),
    }
    Ok(())
}

fn enable_motor(joint: &mut Joint, on: bool) -> Result<(), String> {
    let impulse = match joint {
        Joint::Revolute(j) => {
            j.enable_motor = on;
            &mut j.motor_impulse
        }
        Joint::Prismatic(j) => {
            j.enable_motor = on;
            &mut j.motor_impulse
        }
        Joint::Distance(j) => {
            j.enable_motor = on;
            &mut j.motor_impulse
        }
        Joint::Wheel(j) => {
            j.enable_motor = on;
            &mut j.motor_impulse
        }
        _ => return Err(no_such(joint, "motor")),
    };
    if !on {
        *impulse = 0.0;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;
    use manifold_lab::engine::shape::Shape;
    use manifold_lab::engine::solver::joints::{AngleJoint, JointBase, RevoluteJoint, WeldJoint};
    use manifold_lab::engine::{BodyDef, BodyKind, World};

    fn two_bodies() -> World {
        let mut w = World::new(Default::default());
        let shape = Shape::make_box(Vec2::splat(0.5)).unwrap();
        w.create_body(&BodyDef::new(BodyKind::Static, shape, Vec2::ZERO));
        w.create_body(&BodyDef::new(BodyKind::Dynamic, shape, Vec2::new(1.0, 0.0)));
        w
    }

    #[test]
    fn revolute_parameters_change_and_bad_values_leave_it_alone() {
        let w = two_bodies();
        let mut j = Joint::Revolute(RevoluteJoint::new(JointBase::at(&w.bodies, 0, 1, Vec2::new(0.5, 0.0))));
        apply(&mut j, &JointParam::EnableMotor(true)).unwrap();
        apply(&mut j, &JointParam::MotorSpeed(2.5)).unwrap();
        apply(&mut j, &JointParam::MaxMotor(40.0)).unwrap();
        apply(&mut j, &JointParam::Limits { lower: -0.5, upper: 0.25 }).unwrap();
        apply(&mut j, &JointParam::BreakForce(Some(100.0))).unwrap();
        let before = j.clone();
        for bad in [
            JointParam::Limits { lower: 1.0, upper: 0.0 },
            JointParam::MotorSpeed(f32::NAN),
            JointParam::MaxMotor(-1.0),
            JointParam::BreakForce(Some(0.0)),
            JointParam::Spring { hertz: f32::INFINITY, damping_ratio: 0.5 },
            JointParam::Length(1.0),
            JointParam::AngularSpring { hertz: 1.0, damping_ratio: 0.5 },
        ] {
            assert!(apply(&mut j, &bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(j, before, "a refused edit changed the joint");
        let Joint::Revolute(r) = &j else { unreachable!() };
        assert!(r.enable_motor && r.motor_speed == 2.5 && r.max_motor_torque == 40.0);
        assert_eq!((r.lower_angle, r.upper_angle), (-0.5, 0.25));
        assert_eq!(r.base.break_force, Some(100.0));
    }

    #[test]
    fn each_kind_takes_only_its_own_fields() {
        let w = two_bodies();
        let base = JointBase::at(&w.bodies, 0, 1, Vec2::new(0.5, 0.0));
        let mut angle = Joint::Angle(AngleJoint::new(base.clone()));
        assert!(apply(&mut angle, &JointParam::MaxTorque(Some(5.0))).is_ok());
        assert!(apply(&mut angle, &JointParam::Target(0.3)).is_ok());
        assert!(apply(&mut angle, &JointParam::EnableMotor(true)).is_err());
        let mut weld = Joint::Weld(WeldJoint::new(base));
        apply(&mut weld, &JointParam::AngularSpring { hertz: 3.0, damping_ratio: 0.2 }).unwrap();
        apply(&mut weld, &JointParam::Spring { hertz: 2.0, damping_ratio: 0.1 }).unwrap();
        let Joint::Weld(wj) = &weld else { unreachable!() };
        assert_eq!((wj.linear_hertz, wj.angular_hertz), (2.0, 3.0));
        assert!(apply(&mut weld, &JointParam::EnableLimit(true)).is_err());
    }
}
