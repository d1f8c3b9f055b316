//! Validation hooks of the 3D world format, run while parsing so errors point at the value:
//! finite vectors, ranges, the settings, and the lists (`water`, `bodies`, `joints`), each item
//! checked as a whole right after it is read. Bodies are registered by name as they are read,
//! so a joint's `a: "name"` is resolved (or reported) where it is written.

use super::context;
use super::lists::{ItemSeed, ListVisitor};
use super::world3d::{Body3Spec, BodyRef, Joint3Spec, WaterSpec};
use crate::engine::world3d::{Body3, BodyError3, MassError, World3Params};
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

fn vec3<'de, D: Deserializer<'de>>(d: D, field: &str) -> Result<Vec3, D::Error> {
    let (x, y, z) = <(f32, f32, f32)>::deserialize(d)?;
    if x.is_finite() && y.is_finite() && z.is_finite() {
        Ok(Vec3::new(x, y, z))
    } else {
        Err(D::Error::custom(format!("`{field}` must be three finite numbers, got ({x}, {y}, {z})")))
    }
}

macro_rules! vec3_fields {
    ($($fn:ident = $field:literal;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Vec3, D::Error> {
            vec3(d, $field)
        }
    )*};
}

vec3_fields! {
    position = "position";
    euler_degrees = "euler_degrees";
    linear_velocity = "linear_velocity";
    angular_velocity = "angular_velocity";
    force = "force";
    torque = "torque";
    anchor = "anchor";
    target = "target";
}

/// `v` checked by `ok`, which says what it expected.
fn real<'de, D: Deserializer<'de>>(v: f32, field: &str, ok: bool, what: &str) -> Result<f32, D::Error> {
    if ok {
        Ok(v)
    } else {
        Err(D::Error::custom(format!("`{field}` must be {what}, got {v}")))
    }
}

macro_rules! real_fields {
    ($($fn:ident = $field:literal: $rule:ident;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
            let v = f32::deserialize(d)?;
            let (ok, what) = rule(v, Rule::$rule);
            real::<D>(v, $field, ok, what)
        }
    )*};
}

macro_rules! optional_fields {
    ($($fn:ident = $field:literal: $rule:ident;)*) => {$(
        pub(crate) fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
            match Option::<f32>::deserialize(d)? {
                Some(v) => {
                    let (ok, what) = rule(v, Rule::$rule);
                    real::<D>(v, $field, ok, what).map(Some)
                }
                None => Ok(None),
            }
        }
    )*};
}

#[derive(Clone, Copy)]
enum Rule {
    Finite,
    NonNegative,
    Positive,
}

fn rule(v: f32, r: Rule) -> (bool, &'static str) {
    match r {
        Rule::Finite => (v.is_finite(), "a finite number"),
        Rule::NonNegative => (v.is_finite() && v >= 0.0, "a finite number >= 0"),
        Rule::Positive => (v.is_finite() && v > 0.0, "a finite number > 0"),
    }
}

real_fields! {
    density = "density": Positive;
    friction = "friction": NonNegative;
    restitution = "restitution": NonNegative;
    linear_damping = "linear_damping": NonNegative;
    angular_damping = "angular_damping": NonNegative;
    gravity_scale = "gravity_scale": Finite;
    distance = "distance": Positive;
    yaw_degrees = "yaw_degrees": Finite;
    pitch_degrees = "pitch_degrees": Finite;
}

optional_fields! {
    max_torque = "max_torque": Positive;
    hertz = "hertz": NonNegative;
    damping_ratio = "damping_ratio": NonNegative;
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
    context::scoped("settings".to_string(), || {
        let params = World3Params::deserialize(d)?;
        params.validate().map_err(|msg| {
            if let Some(field) = msg.split('`').nth(1) {
                context::blame_field(field.split('.').next().unwrap_or(field));
            }
            D::Error::custom(msg)
        })?;
        Ok(params)
    })
}

/// The field a message names in backticks, to point the error at it.
fn blame(msg: &str) {
    if let Some(field) = msg.split('`').nth(1) {
        context::blame_field(field);
    }
}

#[derive(Default)]
struct WaterSeed;

impl ItemSeed for WaterSeed {
    type Item = WaterSpec;
    const LABEL: &'static str = "water";
    const EXPECTING: &'static str = "a list of water basins";

    fn check(&mut self, w: &WaterSpec) -> Result<(), String> {
        w.to_water().validate().inspect_err(|msg| blame(msg))
    }
}

#[derive(Default)]
struct BodySeed;

impl ItemSeed for BodySeed {
    type Item = Body3Spec;
    const LABEL: &'static str = "body";
    const EXPECTING: &'static str = "a list of bodies";

    fn check(&mut self, body: &Body3Spec) -> Result<(), String> {
        if !body.name.is_empty() && BODIES.with(|b| b.borrow().iter().any(|(n, _)| *n == body.name)) {
            context::blame_field("name");
            return Err(format!("the name `{}` is already taken (joints refer to bodies by name)", body.name));
        }
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

#[derive(Default)]
struct JointSeed;

impl ItemSeed for JointSeed {
    type Item = Joint3Spec;
    const LABEL: &'static str = "joint";
    const EXPECTING: &'static str = "a list of joints: Ball(...), Orientation(...) or Weld(...)";

    fn check(&mut self, joint: &Joint3Spec) -> Result<(), String> {
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
