//! Field-level validation run while deserializing, so RON reports the position of the
//! offending value itself. Each function is a `#[serde(deserialize_with = ...)]` hook.

use super::context;
use super::format::Camera;
use super::shapes::ShapeSpec;
use super::water::WaterSpec;
use crate::engine::shape::Shape;
use crate::engine::solver::SolverParams;
use glam::Vec2;
use serde::de::{Deserialize, Deserializer, Error};

/// The only scene format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Copy)]
enum Rule {
    Finite,
    NonNegative,
    Positive,
}

fn real<'de, D: Deserializer<'de>>(d: D, field: &str, rule: Rule) -> Result<f32, D::Error> {
    let v = f32::deserialize(d)?;
    let (ok, what) = match rule {
        Rule::Finite => (v.is_finite(), "a finite number"),
        Rule::NonNegative => (v.is_finite() && v >= 0.0, "a finite number >= 0"),
        Rule::Positive => (v.is_finite() && v > 0.0, "a finite number > 0"),
    };
    if ok {
        Ok(v)
    } else {
        Err(D::Error::custom(format!("`{field}` must be {what}, got {v}")))
    }
}

fn vec2<'de, D: Deserializer<'de>>(d: D, field: &str) -> Result<Vec2, D::Error> {
    let (x, y) = <(f32, f32)>::deserialize(d)?;
    if x.is_finite() && y.is_finite() {
        Ok(Vec2::new(x, y))
    } else {
        Err(D::Error::custom(format!("`{field}` must be two finite numbers, got ({x}, {y})")))
    }
}

fn at_least_one<'de, D: Deserializer<'de>>(d: D, field: &str) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v >= 1 {
        Ok(v)
    } else {
        Err(D::Error::custom(format!("`{field}` must be at least 1, got {v}")))
    }
}

macro_rules! real_fields {
    ($($fn:ident = $field:literal: $rule:ident;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
            real(d, $field, Rule::$rule)
        }
    )*};
}

macro_rules! vec2_fields {
    ($($fn:ident = $field:literal;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
            vec2(d, $field)
        }
    )*};
}

macro_rules! count_fields {
    ($($fn:ident = $field:literal;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
            at_least_one(d, $field)
        }
    )*};
}

/// An optional real: `None` when absent, else checked like [`real`].
fn opt_real<'de, D: Deserializer<'de>>(d: D, field: &str, rule: Rule) -> Result<Option<f32>, D::Error> {
    match Option::<f32>::deserialize(d)? {
        None => Ok(None),
        Some(v) => real(serde::de::value::F32Deserializer::<D::Error>::new(v), field, rule).map(Some),
    }
}

macro_rules! opt_real_fields {
    ($($fn:ident = $field:literal: $rule:ident;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
            opt_real(d, $field, Rule::$rule)
        }
    )*};
}

// Joint fields (an absent limit, motor or spring is off).
opt_real_fields! {
    lower = "lower": Finite;
    upper = "upper": Finite;
    length = "length": Finite;
    min_length = "min_length": Finite;
    max_length = "max_length": Finite;
    max_motor_torque = "max_motor_torque": NonNegative;
    max_motor_force = "max_motor_force": NonNegative;
    max_torque = "max_torque": NonNegative;
    opt_hertz = "hertz": NonNegative;
    opt_target_angle = "target_angle": Finite;
    break_force = "break_force": Positive;
    break_torque = "break_torque": Positive;
}

/// An optional world point.
pub(crate) fn opt_point<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec2>, D::Error> {
    match Option::<(f32, f32)>::deserialize(d)? {
        Some((x, y)) if !(x.is_finite() && y.is_finite()) => {
            Err(D::Error::custom(format!("a point must be two finite numbers, got ({x}, {y})")))
        }
        other => Ok(other.map(|(x, y)| Vec2::new(x, y))),
    }
}

/// A direction: finite and not zero.
pub(crate) fn direction<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
    let v = vec2(d, "direction")?;
    if v.length_squared() < 1e-12 {
        return Err(D::Error::custom(format!("`direction` must be a direction, not ({}, {})", v.x, v.y)));
    }
    Ok(v)
}

/// An optional direction: finite and not zero.
pub(crate) fn opt_axis<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec2>, D::Error> {
    let axis = opt_point(d)?;
    if let Some(a) = axis.filter(|a| a.length_squared() < 1e-12) {
        return Err(D::Error::custom(format!("`axis` must be a direction, not ({}, {})", a.x, a.y)));
    }
    Ok(axis)
}

real_fields! {
    motor_speed = "motor_speed": Finite;
    target_angle = "target_angle": Finite;
    target_translation = "target_translation": Finite;
    hertz = "hertz": NonNegative;
    damping_ratio = "damping_ratio": NonNegative;
    linear_hertz = "linear_hertz": NonNegative;
    linear_damping_ratio = "linear_damping_ratio": NonNegative;
    angular_hertz = "angular_hertz": NonNegative;
    angular_damping_ratio = "angular_damping_ratio": NonNegative;
    angle = "angle": Finite;
    angular_velocity = "angular_velocity": Finite;
    density = "density": NonNegative;
    generator_density = "density": Positive;
    friction = "friction": NonNegative;
    restitution = "restitution": NonNegative;
    linear_damping = "linear_damping": NonNegative;
    angular_damping = "angular_damping": NonNegative;
    gravity_scale = "gravity_scale": Finite;
    gap = "gap": NonNegative;
    jitter = "jitter": NonNegative;
    angle_jitter = "angle_jitter": NonNegative;
    height = "height": Positive;
    friction_torque = "friction_torque": NonNegative;
    radius = "radius": Positive;
    pitch = "spacing": Positive;
    scale = "scale": Positive;
}

vec2_fields! {
    point = "point";
    position = "position";
    linear_velocity = "linear_velocity";
    origin = "origin";
    spacing = "spacing";
    center = "center";
}

count_fields! {
    size = "size";
    base = "base";
    count = "count";
    columns = "columns";
    rows = "rows";
}

/// An optional `center` (a body's centre of mass override).
pub(crate) fn center_of_mass<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec2>, D::Error> {
    let v = Option::<(f32, f32)>::deserialize(d)?;
    match v {
        Some((x, y)) if !(x.is_finite() && y.is_finite()) => {
            Err(D::Error::custom(format!("`center` must be two finite numbers, got ({x}, {y})")))
        }
        other => Ok(other.map(|(x, y)| Vec2::new(x, y))),
    }
}

/// `version`: must be [`FORMAT_VERSION`].
pub(crate) fn version<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v == FORMAT_VERSION {
        Ok(v)
    } else {
        Err(D::Error::custom(format!("unsupported scene `version` {v}, this build reads version {FORMAT_VERSION}")))
    }
}

/// A body's `name`; also labels the error context.
pub(crate) fn name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let name = String::deserialize(d)?;
    context::set_name(&name);
    Ok(name)
}

/// A box's `half_size`, checked by the engine's box constructor.
pub(crate) fn half_size<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    let h = f32::deserialize(d)?;
    Shape::make_box(Vec2::splat(h)).map_err(|e| D::Error::custom(format!("`half_size`: {e}")))?;
    Ok(h)
}

/// A non-empty list of shapes.
pub(crate) fn shapes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ShapeSpec>, D::Error> {
    let shapes = Vec::<ShapeSpec>::deserialize(d)?;
    if shapes.is_empty() {
        return Err(D::Error::custom("`shapes` must list at least one shape"));
    }
    Ok(shapes)
}

/// `settings`: [`SolverParams`] checked with [`SolverParams::validate`].
pub(crate) fn settings<'de, D: Deserializer<'de>>(d: D) -> Result<SolverParams, D::Error> {
    context::scoped("settings".to_string(), || {
        let params = SolverParams::deserialize(d)?;
        params.validate().map_err(|msg| {
            // The engine names the field in backticks: "`hz` must be ...", "`gravity.x` ...".
            if let Some(field) = msg.split('`').nth(1) {
                context::blame_field(field.split('.').next().unwrap_or(field));
            }
            D::Error::custom(msg)
        })?;
        Ok(params)
    })
}

/// `camera`, with its own error context.
pub(crate) fn camera<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Camera>, D::Error> {
    context::scoped("camera".to_string(), || Option::<Camera>::deserialize(d))
}

/// `water`: [`WaterSpec`] checked with [`WaterSpec::check`], in its own error context.
pub(crate) fn water<'de, D: Deserializer<'de>>(d: D) -> Result<Option<WaterSpec>, D::Error> {
    context::scoped("water".to_string(), || {
        let spec = Option::<WaterSpec>::deserialize(d)?;
        if let Some(spec) = &spec {
            spec.check().map_err(|msg| {
                if let Some(field) = msg.split('`').nth(1) {
                    context::blame_field(field);
                }
                D::Error::custom(msg)
            })?;
        }
        Ok(spec)
    })
}
