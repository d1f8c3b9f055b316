//! Validation hooks of the 3D world format, run while parsing so errors point at the value:
//! finite vectors, ranges, the settings, and the lists (`water`, `bodies`, `joints`), each item
//! checked as a whole right after it is read. Bodies are registered by name as they are read,
//! so a joint's `a: "name"` is resolved (or reported) where it is written.

use super::context;
use super::fields::{self, Rule};
use super::limits::{self, number};
use super::lists::{ItemSeed, ListVisitor};
use super::world3d::{Body3Spec, BodyRef, Joint3Spec, WaterSpec};
use crate::engine::hull3d::Hull;
use crate::engine::world3d::{Body3, BodyError3, MassError, World3Params, MAX_HULL_VERTICES};
use crate::engine::BodyKind;
use glam::Vec3;
use serde::de::{Deserialize, Deserializer, Error};
use serde::{Serialize, Serializer};
use std::cell::RefCell;

thread_local! {
    /// The bodies read so far in this parse: name and kind.
    static BODIES: RefCell<Vec<(String, BodyKind)>> = const { RefCell::new(Vec::new()) };
}

pub(crate) fn reset_bodies() {
    BODIES.with(|b| b.borrow_mut().clear());
}

/// How a vector field is bounded: each coordinate, or its length.
#[derive(Clone, Copy)]
enum Bound {
    /// Every coordinate within `±max`.
    Each(f32),
    /// At most `max` long.
    Length(f32, &'static str),
}

/// Three finite numbers within `bound`; the message states the range.
fn vec3<'de, D: Deserializer<'de>>(d: D, field: &str, bound: Bound) -> Result<Vec3, D::Error> {
    let (x, y, z) = <(f32, f32, f32)>::deserialize(d)?;
    let v = Vec3::new(x, y, z);
    let got = || format!("({}, {}, {})", number(x), number(y), number(z));
    if !v.is_finite() {
        return Err(D::Error::custom(format!("`{field}` must be three finite numbers, got {}", got())));
    }
    match bound {
        Bound::Each(max) if v.abs().max_element() > max => {
            Err(D::Error::custom(format!("`{field}` must lie within ±{max} on each axis, got {}", got())))
        }
        Bound::Length(max, unit) if v.length() > max => {
            Err(D::Error::custom(format!("`{field}` must be at most {max} {unit} long, got {}", got())))
        }
        _ => Ok(v),
    }
}

macro_rules! vec3_fields {
    ($($fn:ident = $field:literal: $bound:expr;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Vec3, D::Error> {
            vec3(d, $field, $bound)
        }
    )*};
}

vec3_fields! {
    position = "position": Bound::Each(limits::MAX_COORDINATE);
    offset = "offset": Bound::Each(limits::MAX_COORDINATE);
    euler_degrees = "euler_degrees": Bound::Each(limits::MAX_ANGLE);
    linear_velocity = "linear_velocity": Bound::Length(limits::MAX_SPEED, "m/s");
    angular_velocity = "angular_velocity": Bound::Length(limits::MAX_ANGULAR_SPEED, "rad/s");
    force = "force": Bound::Length(limits::MAX_FORCE, "N");
    torque = "torque": Bound::Length(limits::MAX_FORCE, "N·m");
    anchor = "anchor": Bound::Each(limits::MAX_COORDINATE);
    target = "target": Bound::Each(limits::MAX_COORDINATE);
}

macro_rules! real_fields {
    ($($fn:ident = $field:literal: $rule:expr;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
            fields::real(d, $field, $rule)
        }
    )*};
}

macro_rules! optional_fields {
    ($($fn:ident = $field:literal: $rule:expr;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
            fields::opt_real(d, $field, $rule)
        }
    )*};
}

// The ranges of `limits`, as in 2D scene files.
real_fields! {
    density = "density": Rule::Range(limits::MIN_DENSITY_3D, limits::MAX_DENSITY);
    friction = "friction": Rule::Range(0.0, limits::MAX_FRICTION);
    restitution = "restitution": Rule::Range(0.0, limits::MAX_RESTITUTION);
    linear_damping = "linear_damping": Rule::Range(0.0, limits::MAX_DAMPING);
    angular_damping = "angular_damping": Rule::Range(0.0, limits::MAX_DAMPING);
    gravity_scale = "gravity_scale": Rule::Range(-limits::MAX_GRAVITY_SCALE, limits::MAX_GRAVITY_SCALE);
    distance = "distance": Rule::PositiveUpTo(limits::MAX_COORDINATE);
    yaw_degrees = "yaw_degrees": Rule::Range(-limits::MAX_ANGLE, limits::MAX_ANGLE);
    pitch_degrees = "pitch_degrees": Rule::Range(-limits::MAX_ANGLE, limits::MAX_ANGLE);
    level = "level": Rule::Range(-limits::MAX_COORDINATE, limits::MAX_COORDINATE);
    water_density = "density": Rule::PositiveUpTo(limits::MAX_DENSITY);
    linear_drag = "linear_drag": Rule::Range(0.0, limits::MAX_DAMPING);
    angular_drag = "angular_drag": Rule::Range(0.0, limits::MAX_DAMPING);
}

optional_fields! {
    max_torque = "max_torque": Rule::PositiveUpTo(limits::MAX_FORCE);
    hertz = "hertz": Rule::Range(0.0, limits::MAX_HERTZ);
    damping_ratio = "damping_ratio": Rule::Range(0.0, limits::MAX_HERTZ);
}

pub(crate) fn default_density() -> f32 {
    1000.0
}

pub(crate) fn default_friction() -> f32 {
    0.6
}

pub(crate) fn default_gravity_scale() -> f32 {
    1.0
}

/// A body's `name`; also names the error context.
pub(crate) fn body_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let name = String::deserialize(d)?;
    context::set_name(&name);
    Ok(name)
}

pub(crate) fn kind<'de, D: Deserializer<'de>>(d: D) -> Result<BodyKind, D::Error> {
    BodyKind::deserialize(d)
}

/// `settings`: [`World3Params`] checked with [`World3Params::validate`].
pub(crate) fn settings<'de, D: Deserializer<'de>>(d: D) -> Result<World3Params, D::Error> {
    super::fields::validated_settings(d, World3Params::validate)
}

/// The field a message names in backticks, to point the error at it.
fn blame(msg: &str) {
    if let Some(field) = msg.split('`').nth(1) {
        context::blame_field(field);
    }
}

#[derive(Default)]
struct WaterSeed {
    count: usize,
}

impl ItemSeed for WaterSeed {
    type Item = WaterSpec;
    const LABEL: &'static str = "water";
    const EXPECTING: &'static str = "a list of water basins";

    fn check(&mut self, w: &WaterSpec) -> Result<(), String> {
        self.count += 1;
        if self.count > limits::MAX_WATER_3D {
            return Err(format!("more than {} water basins", limits::MAX_WATER_3D));
        }
        water_ranges(w).and_then(|()| w.to_water().validate()).inspect_err(|msg| blame(msg))
    }
}

/// The region's corners and the waves within the ranges of `limits`.
fn water_ranges(w: &WaterSpec) -> Result<(), String> {
    use limits::{check_range, MAX_ANGLE, MAX_COORDINATE, MAX_SPEED, MAX_WAVES_3D, MIN_SIZE_3D};
    if let Some(r) = w.region {
        for c in [r.min, r.max] {
            limits::check_point("region", c)?;
        }
    }
    if w.waves.len() > MAX_WAVES_3D {
        return Err(format!("`waves` holds at most {MAX_WAVES_3D} waves, got {}", w.waves.len()));
    }
    for wave in &w.waves {
        check_range("amplitude", wave.amplitude, 0.0, MAX_COORDINATE)?;
        check_range("wavelength", wave.wavelength, MIN_SIZE_3D, MAX_COORDINATE)?;
        check_range("direction_degrees", wave.direction_degrees, -MAX_ANGLE, MAX_ANGLE)?;
        check_range("phase_degrees", wave.phase_degrees, -MAX_ANGLE, MAX_ANGLE)?;
        if let Some(c) = wave.speed {
            check_range("speed", c, MIN_SIZE_3D, MAX_SPEED)?;
        }
    }
    Ok(())
}

#[derive(Default)]
struct BodySeed {
    count: usize,
}

impl ItemSeed for BodySeed {
    type Item = Body3Spec;
    const LABEL: &'static str = "body";
    const EXPECTING: &'static str = "a list of bodies";

    fn check(&mut self, body: &Body3Spec) -> Result<(), String> {
        self.count += 1;
        if self.count > limits::MAX_BODIES_3D {
            return Err(format!("more than {} bodies in a 3D world", limits::MAX_BODIES_3D));
        }
        if !body.name.is_empty() && BODIES.with(|b| b.borrow().iter().any(|(n, _)| *n == body.name)) {
            context::blame_field("name");
            return Err(format!("the name `{}` is already taken (joints refer to bodies by name)", body.name));
        }
        check_shapes(body)?;
        Body3::new(&body.to_def()).map_err(|e| {
            let msg = e.to_string();
            blame(&msg);
            if matches!(e, BodyError3::Mass(MassError::NoVolume { .. })) {
                context::blame_field("shape");
            }
            msg
        })?;
        BODIES.with(|b| b.borrow_mut().push((body.name.clone(), body.kind)));
        Ok(())
    }
}

/// One `shape` or a list of `shapes` (not both, not neither), each hull thick enough.
fn check_shapes(body: &Body3Spec) -> Result<(), String> {
    let hulls: Vec<&Hull> = match (&body.shape, &body.shapes) {
        (Some(_), Some(_)) => {
            context::blame_field("shapes");
            return Err("a body has either one `shape` or a list of `shapes`, not both".into());
        }
        (None, None) => return Err("missing field `shape` (or `shapes: [...]`)".into()),
        (Some(shape), None) => vec![shape.hull()],
        (None, Some(parts)) => parts.iter().map(|p| p.shape.hull()).collect(),
    };
    for (k, hull) in hulls.into_iter().enumerate() {
        let which = if body.shape.is_some() { "the hull".to_string() } else { format!("shape {k}'s hull") };
        let vertices = hull.positions().len();
        if vertices > MAX_HULL_VERTICES {
            context::blame_field(if body.shape.is_some() { "shape" } else { "shapes" });
            return Err(format!(
                "{which} has {vertices} vertices, more than the {MAX_HULL_VERTICES} a 3D world's hull may have (a `Prism` has twice its sides)"
            ));
        }
        let thickness = thinnest_width(hull);
        if !(limits::MIN_SIZE_3D..).contains(&thickness) {
            context::blame_field(if body.shape.is_some() { "shape" } else { "shapes" });
            return Err(format!(
                "{which} is {} m thick across a face, thinner than the {} m minimum",
                number(thickness),
                limits::MIN_SIZE_3D
            ));
        }
    }
    Ok(())
}

/// The hull's smallest width across one of its faces: how far its farthest vertex lies behind
/// the face's plane (a convex hull's width along each face normal).
fn thinnest_width(hull: &Hull) -> f32 {
    hull.planes()
        .iter()
        .map(|plane| hull.positions().iter().map(|&p| -plane.distance(p)).fold(0.0, f32::max))
        .fold(f32::INFINITY, f32::min)
}

#[derive(Default)]
struct JointSeed {
    count: usize,
}

impl ItemSeed for JointSeed {
    type Item = Joint3Spec;
    const LABEL: &'static str = "joint";
    const EXPECTING: &'static str = "a list of joints: Ball(...), Orientation(...) or Weld(...)";

    fn check(&mut self, joint: &Joint3Spec) -> Result<(), String> {
        self.count += 1;
        if self.count > limits::MAX_JOINTS_3D {
            return Err(format!("more than {} joints in a 3D world", limits::MAX_JOINTS_3D));
        }
        let (a, b) = joint.bodies();
        if a.index == b.index {
            context::blame_field("b");
            return Err(format!("a joint needs two different bodies, `{}` is both", a.name));
        }
        let kinds = BODIES.with(|list| (list.borrow()[a.index].1, list.borrow()[b.index].1));
        if kinds.0 != BodyKind::Dynamic && kinds.1 != BodyKind::Dynamic {
            context::blame_field("b");
            return Err(format!(
                "`{}` and `{}` are both non-dynamic: the joint could not move anything",
                a.name, b.name
            ));
        }
        Ok(())
    }
}

pub(crate) fn water_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<WaterSpec>, D::Error> {
    d.deserialize_seq(ListVisitor::<WaterSeed>::default())
}

pub(crate) fn body_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Body3Spec>, D::Error> {
    d.deserialize_seq(ListVisitor::<BodySeed>::default())
}

pub(crate) fn joint_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Joint3Spec>, D::Error> {
    d.deserialize_seq(ListVisitor::<JointSeed>::default())
}

impl<'de> Deserialize<'de> for BodyRef {
    /// A body name, resolved against the bodies read so far.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BodyRef, D::Error> {
        let name = String::deserialize(d)?;
        let (index, known) = BODIES.with(|b| {
            let list = b.borrow();
            let names: Vec<String> =
                list.iter().filter(|(n, _)| !n.is_empty()).map(|(n, _)| format!("`{n}`")).collect();
            (list.iter().position(|(n, _)| *n == name), names)
        });
        match index {
            Some(index) => Ok(BodyRef { name, index }),
            None if known.is_empty() => {
                Err(D::Error::custom(format!("unknown body `{name}`: list `bodies` before `joints`")))
            }
            None => Err(D::Error::custom(format!("unknown body `{name}`, expected one of {}", known.join(", ")))),
        }
    }
}

impl Serialize for BodyRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}
