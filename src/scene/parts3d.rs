//! A 3D body's `shapes: [...]` (multi-part bodies, `engine::world3d::compound`; 003 article's
//! fixtures), the 3D twin of `scene::parts`: each entry a hull shape with an optional local
//! `offset` and `euler_degrees` and its own `density`, `friction` and `restitution`. A body gives
//! either `shape:` (one hull at its origin) or `shapes:`, never both; an empty list and more
//! than [`MAX_HULLS`] entries are errors at the list.

use super::hulls::HullShape;
use super::world3d_build::euler;
use super::world3d_fields as f3;
use crate::engine::world3d::Part3;
pub use crate::engine::world3d::MAX_HULLS;
use glam::Vec3;
use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize};
use std::sync::Arc;

/// One entry of a 3D body's `shapes: [...]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Part", deny_unknown_fields)]
pub struct Part3Spec {
    pub shape: HullShape,
    /// Where the hull's frame sits in the body frame.
    #[serde(default, deserialize_with = "f3::offset", skip_serializing_if = "is_zero")]
    pub offset: Vec3,
    /// `Rx(x) · Ry(y) · Rz(z)` in the body frame, degrees (as a body's `euler_degrees`).
    #[serde(default, deserialize_with = "f3::euler_degrees", skip_serializing_if = "is_zero")]
    pub euler_degrees: Vec3,
    /// kg/m³.
    #[serde(default = "f3::default_density", deserialize_with = "f3::density")]
    pub density: f32,
    #[serde(default = "f3::default_friction", deserialize_with = "f3::friction")]
    pub friction: f32,
    #[serde(default, deserialize_with = "f3::restitution")]
    pub restitution: f32,
}

fn is_zero(v: &Vec3) -> bool {
    *v == Vec3::ZERO
}

impl Part3Spec {
    /// The engine part.
    pub fn to_part(&self) -> Part3 {
        Part3::new(Arc::new(self.shape.hull().clone()), self.offset, euler(self.euler_degrees)).with_material(
            self.density,
            self.friction,
            self.restitution,
        )
    }
}

/// `shapes: [...]`: at least one entry, at most [`MAX_HULLS`].
pub(crate) fn parts<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Part3Spec>>, D::Error> {
    let parts = Vec::<Part3Spec>::deserialize(d)?;
    if parts.is_empty() {
        return Err(D::Error::custom("`shapes` must list at least one shape (or give the body one `shape`)"));
    }
    if parts.len() > MAX_HULLS {
        return Err(D::Error::custom(format!(
            "`shapes` lists {} shapes; a body holds at most {MAX_HULLS}",
            parts.len()
        )));
    }
    Ok(Some(parts))
}
