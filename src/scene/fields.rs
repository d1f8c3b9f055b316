//! Field-level validation run while deserializing, so RON reports the position of the
//! offending value itself. Each function is a `#[serde(deserialize_with = ...)]` hook.

use super::context;
use super::format::Camera;
use super::limits;
use super::shapes::ShapeSpec;
use super::water::WaterSpec;
use crate::engine::shape::Shape;
use crate::engine::solver::SolverParams;
use crate::engine::spawn::Spawner;
use glam::Vec2;
use serde::de::{Deserialize, Deserializer, Error};

/// The only scene format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The range a number must lie in (`limits` has the bounds); NaN is in none.
#[derive(Clone, Copy)]
pub(crate) enum Rule {
    /// Within `[lo, hi]`.
    Range(f32, f32),
    /// Within `(0, hi]`.
    PositiveUpTo(f32),
}

pub(crate) fn real<'de, D: Deserializer<'de>>(d: D, field: &str, rule: Rule) -> Result<f32, D::Error> {
    let v = f32::deserialize(d)?;
    let (ok, range) = match rule {
        Rule::Range(lo, hi) => ((lo..=hi).contains(&v), format!("[{lo}, {hi}]")),
        Rule::PositiveUpTo(hi) => (v > 0.0 && v <= hi, format!("(0, {hi}]")),
    };
    if ok {
        Ok(v)
    } else {
        let what = if v.is_finite() { "" } else { "a finite number " };
        Err(D::Error::custom(format!("`{field}` must be {what}in {range}, got {}", limits::number(v))))
    }
}

/// Two finite numbers, each within ±[`limits::MAX_COORDINATE`].
fn vec2<'de, D: Deserializer<'de>>(d: D, field: &str) -> Result<Vec2, D::Error> {
    let (x, y) = <(f32, f32)>::deserialize(d)?;
    if !(x.is_finite() && y.is_finite()) {
        return Err(D::Error::custom(format!("`{field}` must be two finite numbers, got ({x}, {y})")));
    }
    let v = Vec2::new(x, y);
    limits::check_point(field, v).map_err(D::Error::custom)?;
    Ok(v)
}

/// A velocity: finite, at most [`limits::MAX_SPEED`] long.
pub(crate) fn linear_velocity<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
    let (x, y) = <(f32, f32)>::deserialize(d)?;
    let v = Vec2::new(x, y);
    if v.is_finite() && v.length() <= limits::MAX_SPEED {
        Ok(v)
    } else {
        Err(D::Error::custom(format!(
            "`linear_velocity` must be at most {} m/s long, got ({x}, {y})",
            limits::MAX_SPEED
        )))
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
    ($($fn:ident = $field:literal: $rule:expr;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
            real(d, $field, $rule)
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
pub(crate) fn opt_real<'de, D: Deserializer<'de>>(d: D, field: &str, rule: Rule) -> Result<Option<f32>, D::Error> {
    match Option::<f32>::deserialize(d)? {
        None => Ok(None),
        Some(v) => real(serde::de::value::F32Deserializer::<D::Error>::new(v), field, rule).map(Some),
    }
}

macro_rules! opt_real_fields {
    ($($fn:ident = $field:literal: $rule:expr;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
            opt_real(d, $field, $rule)
        }
    )*};
}

// Joint fields (an absent limit, motor or spring is off).
opt_real_fields! {
    lower = "lower": Rule::Range(-limits::MAX_ANGLE, limits::MAX_ANGLE);
    upper = "upper": Rule::Range(-limits::MAX_ANGLE, limits::MAX_ANGLE);
    length = "length": Rule::Range(-limits::MAX_COORDINATE, limits::MAX_COORDINATE);
    min_length = "min_length": Rule::Range(-limits::MAX_COORDINATE, limits::MAX_COORDINATE);
    max_length = "max_length": Rule::Range(-limits::MAX_COORDINATE, limits::MAX_COORDINATE);
    max_motor_torque = "max_motor_torque": Rule::Range(0.0, limits::MAX_FORCE);
    max_motor_force = "max_motor_force": Rule::Range(0.0, limits::MAX_FORCE);
    max_torque = "max_torque": Rule::Range(0.0, limits::MAX_FORCE);
    opt_hertz = "hertz": Rule::Range(0.0, limits::MAX_HERTZ);
    opt_target_angle = "target_angle": Rule::Range(-limits::MAX_ANGLE, limits::MAX_ANGLE);
    break_force = "break_force": Rule::PositiveUpTo(limits::MAX_FORCE);
    break_torque = "break_torque": Rule::PositiveUpTo(limits::MAX_FORCE);
}

/// An optional world point.
pub(crate) fn opt_point<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec2>, D::Error> {
    match Option::<(f32, f32)>::deserialize(d)? {
        Some((x, y)) if !(x.is_finite() && y.is_finite()) => {
            Err(D::Error::custom(format!("a point must be two finite numbers, got ({x}, {y})")))
        }
        Some((x, y)) => {
            limits::check_point("point", Vec2::new(x, y)).map(|_| Some(Vec2::new(x, y))).map_err(D::Error::custom)
        }
        None => Ok(None),
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
    margin = "margin": Rule::Range(0.0, 1.0);
    motor_speed = "motor_speed": Rule::Range(-limits::MAX_MOTOR_SPEED, limits::MAX_MOTOR_SPEED);
    target_angle = "target_angle": Rule::Range(-limits::MAX_ANGLE, limits::MAX_ANGLE);
    target_translation = "target_translation": Rule::Range(-limits::MAX_COORDINATE, limits::MAX_COORDINATE);
    hertz = "hertz": Rule::Range(0.0, limits::MAX_HERTZ);
    damping_ratio = "damping_ratio": Rule::Range(0.0, limits::MAX_HERTZ);
    linear_hertz = "linear_hertz": Rule::Range(0.0, limits::MAX_HERTZ);
    linear_damping_ratio = "linear_damping_ratio": Rule::Range(0.0, limits::MAX_HERTZ);
    angular_hertz = "angular_hertz": Rule::Range(0.0, limits::MAX_HERTZ);
    angular_damping_ratio = "angular_damping_ratio": Rule::Range(0.0, limits::MAX_HERTZ);
    angle = "angle": Rule::Range(-limits::MAX_ANGLE, limits::MAX_ANGLE);
    angular_velocity = "angular_velocity": Rule::Range(-limits::MAX_ANGULAR_SPEED, limits::MAX_ANGULAR_SPEED);
    density = "density": Rule::Range(0.0, limits::MAX_DENSITY);
    generator_density = "density": Rule::PositiveUpTo(limits::MAX_DENSITY);
    friction = "friction": Rule::Range(0.0, limits::MAX_FRICTION);
    restitution = "restitution": Rule::Range(0.0, limits::MAX_RESTITUTION);
    linear_damping = "linear_damping": Rule::Range(0.0, limits::MAX_DAMPING);
    angular_damping = "angular_damping": Rule::Range(0.0, limits::MAX_DAMPING);
    gravity_scale = "gravity_scale": Rule::Range(-limits::MAX_GRAVITY_SCALE, limits::MAX_GRAVITY_SCALE);
    gap = "gap": Rule::Range(0.0, limits::MAX_COORDINATE);
    jitter = "jitter": Rule::Range(0.0, limits::MAX_COORDINATE);
    angle_jitter = "angle_jitter": Rule::Range(0.0, limits::MAX_ANGLE);
    height = "height": Rule::PositiveUpTo(limits::MAX_COORDINATE);
    friction_torque = "friction_torque": Rule::Range(0.0, limits::MAX_FORCE);
    radius = "radius": Rule::PositiveUpTo(limits::MAX_COORDINATE);
    pitch = "spacing": Rule::PositiveUpTo(limits::MAX_COORDINATE);
    scale = "scale": Rule::PositiveUpTo(1.0e3);
}

vec2_fields! {
    point = "point";
    position = "position";
    origin = "origin";
    spacing = "spacing";
    center = "center";
    offset = "offset";
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
        Some((x, y)) => {
            limits::check_point("center", Vec2::new(x, y)).map(|_| Some(Vec2::new(x, y))).map_err(D::Error::custom)
        }
        None => Ok(None),
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
    validated_settings(d, SolverParams::validate)
}

/// `settings` of any world: read, then checked by the engine's `validate`, whose message
/// names the field in backticks ("`hz` must be ...", "`gravity.x` ..."), which is blamed.
pub(crate) fn validated_settings<'de, D: Deserializer<'de>, P: Deserialize<'de>>(
    d: D,
    validate: impl FnOnce(&P) -> Result<(), String>,
) -> Result<P, D::Error> {
    context::scoped("settings".to_string(), || {
        let params = P::deserialize(d)?;
        validate(&params).map_err(|msg| {
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

/// A check's message as a deserialize error, located at the field it names in backquotes.
fn blamed<E: serde::de::Error>(msg: String) -> E {
    if let Some(field) = msg.split('`').nth(1) {
        context::blame_field(field);
    }
    E::custom(msg)
}

/// `spawner`: the scene's step rule, checked with [`Spawner::check`], its most bodies counted
/// against the scene's limit, in its own error context.
pub(crate) fn spawner<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Spawner>, D::Error> {
    context::scoped("spawner".to_string(), || {
        let spec = Option::<Spawner>::deserialize(d)?;
        if let Some(spec) = &spec {
            spec.check().map_err(blamed::<D::Error>)?;
            if context::count_bodies(spec.max_bodies()) > limits::MAX_BODIES as u64 {
                return Err(D::Error::custom(format!(
                    "with the {} bodies this rule keeps at most, the scene has more than the limit of {} bodies",
                    spec.max_bodies(),
                    limits::MAX_BODIES
                )));
            }
        }
        Ok(spec)
    })
}

/// `water`: [`WaterSpec`] checked with [`WaterSpec::check`], in its own error context.
pub(crate) fn water<'de, D: Deserializer<'de>>(d: D) -> Result<Option<WaterSpec>, D::Error> {
    context::scoped("water".to_string(), || {
        let spec = Option::<WaterSpec>::deserialize(d)?;
        if let Some(spec) = &spec {
            spec.check().map_err(blamed::<D::Error>)?;
        }
        Ok(spec)
    })
}
