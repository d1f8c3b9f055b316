//! Time-of-impact presets (`scenes/toi/*.ron`): two shapes, each with a start and an end pose,
//! and the method to run, the input of the time-of-impact lab. Shapes use the scene syntax;
//! errors name the file, line and column as everywhere.
//!
//! ```ron
//! Toi(
//!     version: 1,
//!     name: "Box onto box",
//!     description: "...",
//!     method: Certified,           // LinearCast, GjkRayCast, ConservativeAdvancement, RootFinder, Certified (default)
//!     a: (shape: Box(half_extents: (1.0, 1.0)), start: (position: (0.0, 0.0))),   // no end: at rest
//!     b: (
//!         shape: Box(half_extents: (0.5, 0.5)),
//!         start: (position: (-5.0, 0.3)),
//!         end: (position: (4.0, 0.3), angle: 0.5),      // angles in radians, less than π apart
//!     ),
//!     target: 0.01,                // optional: the core distance that counts as impact
//!     tolerance: 0.001,            // optional: how close to it the iterative methods must get
//!     t_max: 0.5,                  // optional: search [0, t_max] only (default 1)
//! )
//! ```
//!
//! Each shape turns about its centre of mass from the start angle to the end angle along
//! Box2D's sweep, which blends rotations (nlerp) and so covers less than half a turn.

use super::fields;
use super::kind::FileKind;
use super::preset::PresetFile;
use super::shapes::ShapeSpec;
use crate::engine::collide::toi::{local_proxy, time_of_impact, Sweep, ToiInput, ToiMethod, ToiOutput, ToiTrace};
use crate::engine::math::Transform;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A pose of a shape's origin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToiPose {
    #[serde(deserialize_with = "fields::position")]
    pub position: Vec2,
    #[serde(default, deserialize_with = "fields::angle")]
    pub angle: f32,
}

impl ToiPose {
    pub fn transform(&self) -> Transform {
        Transform::new(self.position, self.angle)
    }
}

/// The fields of a [`ToiBody`] as written, before the sweep is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToiBodyFields {
    shape: ShapeSpec,
    start: ToiPose,
    #[serde(default)]
    end: Option<ToiPose>,
}

/// One shape and its motion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ToiBodyFields", deny_unknown_fields)]
pub struct ToiBody {
    pub shape: ShapeSpec,
    pub start: ToiPose,
    /// Where the shape is at the end of the sweep; `None` = it stays at `start`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<ToiPose>,
}

impl TryFrom<ToiBodyFields> for ToiBody {
    type Error = String;

    fn try_from(f: ToiBodyFields) -> Result<ToiBody, String> {
        let body = ToiBody { shape: f.shape, start: f.start, end: f.end };
        let turn = body.end_pose().angle - body.start.angle;
        if turn.abs() >= std::f32::consts::PI {
            return Err(format!(
                "the sweep turns by {turn} rad from `start` to `end`; it must turn by less than half a turn (π)"
            ));
        }
        Ok(body)
    }
}

impl ToiBody {
    /// A shape at rest.
    pub fn at_rest(shape: ShapeSpec, position: Vec2, angle: f32) -> ToiBody {
        ToiBody { shape, start: ToiPose { position, angle }, end: None }
    }

    pub fn end_pose(&self) -> ToiPose {
        self.end.unwrap_or(self.start)
    }

    /// The sweep about the shape's centre of mass.
    pub fn sweep(&self) -> Sweep {
        let lc = self.shape.shape().mass_data(1.0).center;
        Sweep::between(lc, &self.start.transform(), &self.end_pose().transform())
    }
}

/// A time-of-impact preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Toi", deny_unknown_fields)]
pub struct ToiSpec {
    #[serde(deserialize_with = "fields::version")]
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub method: ToiMethod,
    pub a: ToiBody,
    pub b: ToiBody,
    /// The core distance that counts as impact; `None` = Box2D's rule
    /// ([`crate::engine::collide::toi::default_target`]).
    #[serde(default, deserialize_with = "target", skip_serializing_if = "Option::is_none")]
    pub target: Option<f32>,
    /// How close to `target` the iterative methods must get; `None` = Box2D's
    /// ([`crate::engine::collide::toi::TOI_TOLERANCE`]).
    #[serde(default, deserialize_with = "tolerance", skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f32>,
    /// The end of the interval searched, in `[0, 1]`; `None` = 1, the whole sweep.
    #[serde(default, deserialize_with = "t_max", skip_serializing_if = "Option::is_none")]
    pub t_max: Option<f32>,
}

fn t_max<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
    let v = Option::<f32>::deserialize(d)?;
    match v {
        Some(x) if !(0.0..=1.0).contains(&x) => {
            Err(serde::de::Error::custom(format!("`t_max` must be between 0 and 1, got {x}")))
        }
        other => Ok(other),
    }
}

fn tolerance<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
    let v = Option::<f32>::deserialize(d)?;
    match v {
        Some(x) if !(x.is_finite() && x > 0.0 && x <= 10.0) => {
            Err(serde::de::Error::custom(format!("`tolerance` must be a distance above 0 and at most 10, got {x}")))
        }
        other => Ok(other),
    }
}

fn target<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
    let v = Option::<f32>::deserialize(d)?;
    match v {
        Some(x) if !(x.is_finite() && (0.0..=100.0).contains(&x)) => {
            Err(serde::de::Error::custom(format!("`target` must be a distance between 0 and 100, got {x}")))
        }
        other => Ok(other),
    }
}

impl ToiSpec {
    pub fn new(name: &str, method: ToiMethod, a: ToiBody, b: ToiBody) -> ToiSpec {
        ToiSpec {
            version: fields::FORMAT_VERSION,
            name: name.to_string(),
            description: String::new(),
            method,
            a,
            b,
            target: None,
            tolerance: None,
            t_max: None,
        }
    }

    /// The engine's input: both shapes in their body frames, their sweeps over `[0, 1]`.
    pub fn input(&self) -> ToiInput {
        let mut input = ToiInput::new(
            local_proxy(&self.a.shape.shape()),
            self.a.sweep(),
            local_proxy(&self.b.shape.shape()),
            self.b.sweep(),
        );
        if let Some(t) = self.target {
            input.target = t;
        }
        if let Some(t) = self.tolerance {
            input.tolerance = t;
        }
        if let Some(t) = self.t_max {
            input.t_max = t;
        }
        input
    }

    /// Runs the preset's method (or any other), recording into `trace` when given.
    pub fn run(&self, method: ToiMethod, trace: Option<&mut ToiTrace>) -> ToiOutput {
        time_of_impact(method, &self.input(), trace)
    }
}

impl PresetFile for ToiSpec {
    const KIND: FileKind = FileKind::Toi;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::collide::toi::ToiState;

    const TEXT: &str = r#"Toi(
    version: 1,
    name: "test",
    method: LinearCast,
    a: (shape: Box(half_extents: (1.0, 1.0)), start: (position: (0.0, 0.0))),
    b: (shape: Circle(radius: 0.5), start: (position: (-4.0, 0.0)), end: (position: (4.0, 0.0), angle: 1.0)),
)"#;

    #[test]
    fn parses_and_runs() {
        let spec = ToiSpec::parse(TEXT, "t.ron").unwrap();
        assert_eq!(spec.method, ToiMethod::LinearCast);
        let out = spec.run(spec.method, None);
        // The circle's centre reaches target = 0.5 − slop from the face at x = −1.
        assert_eq!(out.state, ToiState::Hit);
        assert!((out.t - (3.0 - 0.5 + crate::engine::LINEAR_SLOP) / 8.0).abs() < 1e-5, "{}", out.t);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let turn = TEXT.replace("angle: 1.0", "angle: 4.0");
        let e = ToiSpec::parse(&turn, "turn.ron").unwrap_err().to_string();
        assert!(e.starts_with("turn.ron:6:") && e.contains("half a turn"), "{e}");
        let bad = TEXT.replace("Circle(radius: 0.5)", "Circle(radius: -0.5)");
        let e = ToiSpec::parse(&bad, "bad.ron").unwrap_err().to_string();
        assert!(e.starts_with("bad.ron:6:") && e.contains("radius"), "{e}");
        let method = TEXT.replace("LinearCast", "Teleport");
        let e = ToiSpec::parse(&method, "m.ron").unwrap_err().to_string();
        assert!(e.starts_with("m.ron:4:") && e.contains("RootFinder"), "{e}");
        let target = TEXT.replace("method: LinearCast,", "method: LinearCast, target: -1,");
        assert!(ToiSpec::parse(&target, "x.ron").unwrap_err().to_string().contains("`target`"));
        let tolerance = TEXT.replace("method: LinearCast,", "method: LinearCast, tolerance: 0,");
        assert!(ToiSpec::parse(&tolerance, "x.ron").unwrap_err().to_string().contains("`tolerance`"));
        let both = TEXT.replace("method: LinearCast,", "method: LinearCast, target: 0.2, tolerance: 0.01,");
        let input = ToiSpec::parse(&both, "x.ron").unwrap().input();
        assert_eq!((input.target, input.tolerance), (0.2, 0.01));
        let t_max = TEXT.replace("method: LinearCast,", "method: LinearCast, t_max: 1.5,");
        assert!(ToiSpec::parse(&t_max, "x.ron").unwrap_err().to_string().contains("`t_max`"));
    }
}
