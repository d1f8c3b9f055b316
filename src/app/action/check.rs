//! The numbers an action from a script or a recording carries, checked against the scene
//! file ranges (`scene::limits`, docs/scene-format.md "Limits") before it is applied: an
//! `Action` is walked through serde, and every number is judged by the name of the field or
//! variant that holds it (`position`, `angle`, `MotorSpeed` ...), so a new action is covered
//! without touching this file. Solver settings and water go through their own `validate`.

use crate::app::state::Action;
use manifold_lab::scene::input_limits::{MAX_ACTION_COUNT, MAX_ACTION_LIST};
use manifold_lab::scene::limits::{self, number};
use serde::ser::{self, Serialize};
use std::fmt;

/// Why an action is refused: the field to point at and the message.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub field: String,
    pub message: String,
}

/// `Ok` when every number of `action` is in its range.
pub fn check(action: &Action) -> Result<(), Refusal> {
    let named = |msg: String| Refusal { field: backticked(&msg), message: msg };
    match action {
        Action::SetParams(p) => return p.validate().map_err(named),
        Action::SetWater(Some(w)) => return w.validate().map_err(named),
        Action::EditBody { edit, .. } if edit.linear_velocity.length() > limits::MAX_SPEED => {
            return Err(Refusal {
                field: "linear_velocity".into(),
                message: format!(
                    "`linear_velocity` must be at most {} m/s long, got ({}, {})",
                    limits::MAX_SPEED,
                    number(edit.linear_velocity.x),
                    number(edit.linear_velocity.y)
                ),
            })
        }
        _ => {}
    }
    let mut walker = Walker { path: Vec::new(), refusal: None };
    match action.serialize(&mut walker) {
        Ok(()) => Ok(()),
        Err(Stop(msg)) => Err(walker.refusal.unwrap_or(Refusal { field: String::new(), message: msg })),
    }
}

/// The first name in backticks of an engine message ("`gravity.x` must ..." → `gravity`).
fn backticked(msg: &str) -> String {
    let field = msg.split('`').nth(1).unwrap_or("");
    field.split('.').next().unwrap_or(field).to_string()
}

/// The range of a number held by `key` (a field or variant name): the scene file's range for
/// the same quantity; anything unnamed is a coordinate.
fn range(key: &str) -> (f32, f32) {
    use limits::*;
    let sym = |m: f32| (-m, m);
    match key {
        "angle" | "lower" | "upper" | "Target" | "yaw" | "pitch" => sym(MAX_ANGLE),
        "linear_velocity" => sym(MAX_SPEED),
        "angular_velocity" => sym(MAX_ANGULAR_SPEED),
        "density" => (0.0, MAX_DENSITY),
        "friction" => (0.0, MAX_FRICTION),
        "restitution" => (0.0, MAX_RESTITUTION),
        "linear_damping" | "angular_damping" => (0.0, MAX_DAMPING),
        "gravity_scale" => sym(MAX_GRAVITY_SCALE),
        "MotorSpeed" => sym(MAX_MOTOR_SPEED),
        "MaxMotor" | "BreakForce" | "BreakTorque" | "MaxTorque" => (0.0, MAX_FORCE),
        "hertz" | "damping_ratio" => (0.0, MAX_HERTZ),
        _ => sym(MAX_COORDINATE),
    }
}

/// Stops the walk at the first refused number.
#[derive(Debug)]
struct Stop(String);

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Stop(msg.to_string())
    }
}

struct Walker {
    /// Field and variant names from the action down to the value being walked.
    path: Vec<&'static str>,
    refusal: Option<Refusal>,
}

impl Walker {
    fn key(&self) -> &'static str {
        self.path.last().copied().unwrap_or("value")
    }

    fn refuse(&mut self, message: String) -> Result<(), Stop> {
        self.refusal = Some(Refusal { field: self.key().to_string(), message: message.clone() });
        Err(Stop(message))
    }

    fn real(&mut self, v: f64) -> Result<(), Stop> {
        let (lo, hi) = range(self.key());
        let v = v as f32;
        if (lo..=hi).contains(&v) {
            return Ok(());
        }
        let what = if v.is_finite() { "" } else { "a finite number " };
        self.refuse(format!("`{}` must be {what}in [{lo}, {hi}], got {}", self.key(), number(v)))
    }

    fn count(&mut self, v: u64) -> Result<(), Stop> {
        if self.key() == "count" && v > MAX_ACTION_COUNT {
            return self.refuse(format!("`count` must be at most {MAX_ACTION_COUNT}, got {v}"));
        }
        Ok(())
    }

    fn list(&mut self, len: Option<usize>) -> Result<(), Stop> {
        match len {
            Some(n) if n > MAX_ACTION_LIST => {
                self.refuse(format!("`{}` may list at most {MAX_ACTION_LIST} items, got {n}", self.key()))
            }
            _ => Ok(()),
        }
    }

    fn enter<T: ?Sized + Serialize>(&mut self, name: &'static str, value: &T) -> Result<(), Stop> {
        self.path.push(name);
        value.serialize(&mut *self)?;
        self.path.pop();
        Ok(())
    }
}

mod serializer;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::lab::{tree::TreeAction, LabAction};
    use crate::app::tools::joints::JointParam;
    use glam::Vec2;
    use manifold_lab::engine::broadphase::TreeSettings;
    use manifold_lab::engine::solver::SolverParams;

    fn refused(a: Action) -> Refusal {
        check(&a).expect_err("refused")
    }

    #[test]
    fn numbers_in_actions_have_the_scene_ranges() {
        let pose = |x: f32, angle: f32| Action::SetPose { body: 0, position: Vec2::new(x, 1.0), angle };
        assert!(check(&pose(3.0, 0.5)).is_ok());
        let r = refused(pose(1e30, 0.0));
        assert_eq!(r.field, "position");
        assert_eq!(r.message, "`position` must be in [-100000, 100000], got 1e30");
        assert!(refused(pose(f32::NAN, 0.0)).message.contains("a finite number"));
        assert_eq!(refused(pose(0.0, 2e4)).field, "angle");
        let motor = refused(Action::SetJoint { joint: 0, param: JointParam::MotorSpeed(1e6) });
        assert_eq!((motor.field.as_str(), motor.message.contains("[-10000, 10000]")), ("MotorSpeed", true));
        assert!(check(&Action::SetJoint { joint: 0, param: JointParam::MaxMotor(1e6) }).is_ok());
        assert_eq!(refused(Action::PullTo(Vec2::new(0.0, f32::INFINITY))).field, "PullTo");
        let spawn =
            |count| Action::Lab(LabAction::Tree(TreeAction::Spawn { count, settings: TreeSettings::default() }));
        assert!(check(&spawn(300)).is_ok());
        assert_eq!(refused(spawn(10_000_000)).field, "count");
    }

    #[test]
    fn settings_go_through_validate() {
        let p = SolverParams { threads: 1_000_000, ..SolverParams::default() };
        let r = refused(Action::SetParams(p));
        assert_eq!((r.field.as_str(), r.message.as_str()), ("threads", "`threads` must be between 1 and 64"));
        let g = SolverParams { gravity: Vec2::new(f32::NAN, 0.0), ..SolverParams::default() };
        assert_eq!(refused(Action::SetParams(g)).field, "gravity");
        assert!(check(&Action::SetParams(SolverParams::default())).is_ok());
    }
}
