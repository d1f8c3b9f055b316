//! 3D world files (`scenes/world3d/*.ron`): hull bodies with the hull lab's shape syntax, poses,
//! velocities, material, joints by body name, and water. A file is a 3D world when its
//! top-level struct is `World3d(...)` ([`is_world3d_text`]); `manifold-lab run` and `check`
//! tell the two kinds apart that way.
//!
//! ```ron
//! World3d(
//!     version: 1,
//!     name: "Example",
//!     settings: (gravity: (0, -10, 0), hz: 60, substeps: 4),       // any World3Params field
//!     camera: (target: (0, 1, 0), distance: 12, yaw_degrees: 30, pitch_degrees: 25),
//!     water: [(name: "pool", level: 1, region: (min: (-4, -4), max: (4, 4)),
//!              waves: [(amplitude: 0.2, wavelength: 5, direction_degrees: 30)])],
//!     bodies: [
//!         (name: "ground", kind: Static, shape: Cuboid(half_extents: (20, 0.5, 20)), position: (0, -0.5, 0)),
//!         (name: "box", shape: Cube(half: 0.5), position: (0, 3, 0), euler_degrees: (0, 30, 10)),
//!     ],
//!     joints: [Weld(a: "ground", b: "box", anchor: (0, 2.5, 0), max_torque: 500)],
//! )
//! ```
//!
//! A body of several hulls gives `shapes: [(shape: ..., offset: (x, y, z), euler_degrees: (..),
//! density: .., friction: .., restitution: ..), ...]` instead of `shape` (`scene::parts3d`).
//!
//! Poses: `position` places the hull's own origin; `euler_degrees: (x, y, z)` turns it by
//! `Rx(x) · Ry(y) · Rz(z)` (glam's `EulerRot::XYZ`: about z first, then y, then x), in degrees.
//! Velocities are world-frame (m/s, rad/s). Joints name bodies listed above them.

use super::context;
use super::error::SceneError;
use super::fields;
use super::hulls::HullShape;
use super::kind::FileKind;
use super::locate;
use super::parts3d::{self, Part3Spec};
use super::preset::PresetFile;
use super::save::ron_options;
use super::world3d_fields as f3;
use crate::engine::world3d::{Region, Surface3, Wave, World3Params};
use crate::engine::BodyKind;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// A 3D world file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "World3d", deny_unknown_fields)]
pub struct World3dScene {
    #[serde(deserialize_with = "fields::version")]
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default, deserialize_with = "f3::settings")]
    pub settings: World3Params,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<Camera3>,
    #[serde(default, deserialize_with = "f3::water_list", skip_serializing_if = "Vec::is_empty")]
    pub water: Vec<WaterSpec>,
    #[serde(default, deserialize_with = "f3::body_list", skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<Body3Spec>,
    #[serde(default, deserialize_with = "f3::joint_list", skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<Joint3Spec>,
}

/// Where a view looks from at open: orbiting `target` at `distance`, turned by `yaw_degrees`
/// about y and raised by `pitch_degrees`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Camera3 {
    #[serde(deserialize_with = "f3::target")]
    pub target: Vec3,
    #[serde(deserialize_with = "f3::distance")]
    pub distance: f32,
    #[serde(deserialize_with = "f3::yaw_degrees")]
    pub yaw_degrees: f32,
    #[serde(deserialize_with = "f3::pitch_degrees")]
    pub pitch_degrees: f32,
}

impl Default for Camera3 {
    fn default() -> Self {
        Camera3 { target: Vec3::new(0.0, 1.0, 0.0), distance: 12.0, yaw_degrees: 30.0, pitch_degrees: 25.0 }
    }
}

/// A basin of water (see [`crate::engine::world3d::Water3`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Water", default, deny_unknown_fields)]
pub struct WaterSpec {
    pub name: String,
    #[serde(deserialize_with = "f3::level")]
    pub level: f32,
    /// kg/m³.
    #[serde(deserialize_with = "f3::water_density")]
    pub density: f32,
    /// The xz rectangle the water covers; everywhere when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<Region>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waves: Vec<Wave>,
    /// 1/s.
    #[serde(deserialize_with = "f3::linear_drag")]
    pub linear_drag: f32,
    #[serde(deserialize_with = "f3::angular_drag")]
    pub angular_drag: f32,
    /// `Analytic` (the default: level and waves) or `Simulated(columns: (nx, nz), stiffness:
    /// .., spread: .., damping: ..)`.
    #[serde(skip_serializing_if = "is_analytic")]
    pub surface: Surface3,
}

fn is_analytic(s: &Surface3) -> bool {
    *s == Surface3::Analytic
}

impl Default for WaterSpec {
    fn default() -> Self {
        WaterSpec {
            name: String::new(),
            level: 0.0,
            density: 1000.0,
            region: None,
            waves: Vec::new(),
            linear_drag: 1.0,
            angular_drag: 1.0,
            surface: Surface3::Analytic,
        }
    }
}

/// One body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Body", deny_unknown_fields)]
pub struct Body3Spec {
    #[serde(default, deserialize_with = "f3::body_name", skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, deserialize_with = "f3::kind")]
    pub kind: BodyKind,
    /// The body's one hull, at its origin; or `shapes` (not both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<HullShape>,
    /// Several hulls, each with its offset, rotation and material (`scene::parts3d`).
    #[serde(default, deserialize_with = "parts3d::parts", skip_serializing_if = "Option::is_none")]
    pub shapes: Option<Vec<Part3Spec>>,
    /// The body origin in the world (the hull's origin; what `shapes`' offsets are measured from).
    #[serde(default, deserialize_with = "f3::position")]
    pub position: Vec3,
    /// `Rx(x) · Ry(y) · Rz(z)`, degrees.
    #[serde(default, deserialize_with = "f3::euler_degrees")]
    pub euler_degrees: Vec3,
    #[serde(default, deserialize_with = "f3::linear_velocity")]
    pub linear_velocity: Vec3,
    /// rad/s, world axes.
    #[serde(default, deserialize_with = "f3::angular_velocity")]
    pub angular_velocity: Vec3,
    /// kg/m³.
    #[serde(default = "f3::default_density", deserialize_with = "f3::density")]
    pub density: f32,
    #[serde(default = "f3::default_friction", deserialize_with = "f3::friction")]
    pub friction: f32,
    #[serde(default, deserialize_with = "f3::restitution")]
    pub restitution: f32,
    #[serde(default, deserialize_with = "f3::linear_damping")]
    pub linear_damping: f32,
    #[serde(default, deserialize_with = "f3::angular_damping")]
    pub angular_damping: f32,
    #[serde(default = "f3::default_gravity_scale", deserialize_with = "f3::gravity_scale")]
    pub gravity_scale: f32,
    /// A constant world force at the centre of mass (N) and torque (N·m): a drive.
    #[serde(default, deserialize_with = "f3::force")]
    pub force: Vec3,
    #[serde(default, deserialize_with = "f3::torque")]
    pub torque: Vec3,
}

/// A body named in a joint (written as its name; resolved against the bodies above).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyRef {
    pub name: String,
    pub index: usize,
}

/// One joint. `anchor` is a world point at load; an orientation joint holds the bodies'
/// relative orientation at load, its basis `(u, v, w)` the world axes turned by
/// `basis_euler_degrees` (as bodies' `euler_degrees`). Every joint also takes `hertz` and
/// `damping_ratio` (the world's `joint_hertz` / `joint_damping_ratio` when absent) and
/// `collide_connected` (default false).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Joint", deny_unknown_fields)]
pub enum Joint3Spec {
    /// Ball-and-socket.
    Ball {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        name: String,
        a: BodyRef,
        b: BodyRef,
        #[serde(deserialize_with = "f3::anchor")]
        anchor: Vec3,
        #[serde(default, deserialize_with = "f3::hertz", skip_serializing_if = "Option::is_none")]
        hertz: Option<f32>,
        #[serde(default, deserialize_with = "f3::damping_ratio", skip_serializing_if = "Option::is_none")]
        damping_ratio: Option<f32>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        collide_connected: bool,
    },
    /// Article 003's orientation joint.
    Orientation {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        name: String,
        a: BodyRef,
        b: BodyRef,
        #[serde(default, deserialize_with = "f3::euler_degrees")]
        basis_euler_degrees: Vec3,
        /// N·m; unlimited when absent.
        #[serde(default, deserialize_with = "f3::max_torque", skip_serializing_if = "Option::is_none")]
        max_torque: Option<f32>,
        #[serde(default, deserialize_with = "f3::hertz", skip_serializing_if = "Option::is_none")]
        hertz: Option<f32>,
        #[serde(default, deserialize_with = "f3::damping_ratio", skip_serializing_if = "Option::is_none")]
        damping_ratio: Option<f32>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        collide_connected: bool,
    },
    /// A ball joint plus an orientation joint on the same pair.
    Weld {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        name: String,
        a: BodyRef,
        b: BodyRef,
        #[serde(deserialize_with = "f3::anchor")]
        anchor: Vec3,
        #[serde(default, deserialize_with = "f3::euler_degrees")]
        basis_euler_degrees: Vec3,
        #[serde(default, deserialize_with = "f3::max_torque", skip_serializing_if = "Option::is_none")]
        max_torque: Option<f32>,
        #[serde(default, deserialize_with = "f3::hertz", skip_serializing_if = "Option::is_none")]
        hertz: Option<f32>,
        #[serde(default, deserialize_with = "f3::damping_ratio", skip_serializing_if = "Option::is_none")]
        damping_ratio: Option<f32>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        collide_connected: bool,
    },
}

impl Joint3Spec {
    pub fn kind(&self) -> &'static str {
        match self {
            Joint3Spec::Ball { .. } => "Ball",
            Joint3Spec::Orientation { .. } => "Orientation",
            Joint3Spec::Weld { .. } => "Weld",
        }
    }

    /// The two bodies.
    pub fn bodies(&self) -> (&BodyRef, &BodyRef) {
        match self {
            Joint3Spec::Ball { a, b, .. } | Joint3Spec::Orientation { a, b, .. } | Joint3Spec::Weld { a, b, .. } => {
                (a, b)
            }
        }
    }

    /// `(name, hertz, damping_ratio, collide_connected)`.
    pub fn options(&self) -> (&str, Option<f32>, Option<f32>, bool) {
        match self {
            Joint3Spec::Ball { name, hertz, damping_ratio, collide_connected, .. }
            | Joint3Spec::Orientation { name, hertz, damping_ratio, collide_connected, .. }
            | Joint3Spec::Weld { name, hertz, damping_ratio, collide_connected, .. } => {
                (name, *hertz, *damping_ratio, *collide_connected)
            }
        }
    }
}

/// Whether `text` holds a 3D world: its first token (after comments) is `World3d`.
pub fn is_world3d_text(text: &str) -> bool {
    leading_name(text).is_some_and(|(name, _, _)| name == "World3d")
}

/// The name of the top-level struct of RON `text` (`Scene`, `Pair`, `World3d` ...) when it is
/// followed by `(`, with its line and column (1-based). Comments and a byte-order mark before
/// it are skipped; an unnamed `(...)` gives an empty name.
pub fn leading_name(text: &str) -> Option<(&str, usize, usize)> {
    let start = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rest = start;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    if !after.trim_start().starts_with('(') {
        return None;
    }
    let before = &start[..start.len() - rest.len()];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some((name, line, column))
}

impl PresetFile for World3dScene {
    const KIND: FileKind = FileKind::World3d;

    /// Parses 3D world text; an error names file, line and column, at the field being read
    /// when a body's value is the problem.
    fn parse(text: &str, file_name: &str) -> Result<World3dScene, SceneError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        context::reset();
        f3::reset_bodies();
        let result = ron_options().from_str::<World3dScene>(text);
        let ctx = context::take_error();
        let blamed = context::take_field();
        f3::reset_bodies();
        result.map_err(|mut e| {
            let at = blamed.and_then(|field| locate::field_before(text, e.position.line, e.position.col, &field));
            if let Some((line, col)) = at {
                e.position = ron::error::Position { line, col };
            }
            SceneError::from_ron(file_name, e, ctx)
        })
    }
}
