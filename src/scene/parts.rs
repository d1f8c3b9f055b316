//! A body's `shapes: [...]` (multi-part bodies, `engine::compound`; 003 article's fixtures):
//! each entry a shape with an optional local `offset` and `angle`, its own `density`,
//! `friction`, `restitution` and collision filter (`category_bits`, `mask_bits`).
//! A body gives either `shape:` (one shape at its origin) or `shapes:`, never both; an empty
//! list and more than [`MAX_PARTS`] entries are errors at the list.

use super::fields;
use super::format::{default_density, default_friction, is_one, is_zero};
use super::shapes::ShapeSpec;
use crate::engine::body::{DEFAULT_CATEGORY, DEFAULT_MASK};
use crate::engine::compound::Part;
pub use crate::engine::compound::MAX_PARTS;
use crate::engine::Material;
use glam::Vec2;
use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize};

/// One entry of `shapes: [...]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Part", deny_unknown_fields)]
pub struct PartSpec {
    pub shape: ShapeSpec,
    /// Where the shape's frame sits in the body frame.
    #[serde(default, deserialize_with = "fields::offset", skip_serializing_if = "is_zero_vec")]
    pub offset: Vec2,
    #[serde(default, deserialize_with = "fields::angle", skip_serializing_if = "is_zero")]
    pub angle: f32,
    #[serde(default = "default_density", deserialize_with = "fields::density", skip_serializing_if = "is_one")]
    pub density: f32,
    #[serde(default = "default_friction", deserialize_with = "fields::friction", skip_serializing_if = "is_friction")]
    pub friction: f32,
    #[serde(default, deserialize_with = "fields::restitution", skip_serializing_if = "is_zero")]
    pub restitution: f32,
    #[serde(default = "default_category", skip_serializing_if = "is_default_category")]
    pub category_bits: u32,
    #[serde(default = "default_mask", skip_serializing_if = "is_default_mask")]
    pub mask_bits: u32,
}

fn is_zero_vec(v: &Vec2) -> bool {
    is_zero(&v.x) && is_zero(&v.y)
}

fn is_friction(x: &f32) -> bool {
    x.to_bits() == default_friction().to_bits()
}

fn default_category() -> u32 {
    DEFAULT_CATEGORY
}

fn default_mask() -> u32 {
    DEFAULT_MASK
}

fn is_default_category(x: &u32) -> bool {
    *x == DEFAULT_CATEGORY
}

fn is_default_mask(x: &u32) -> bool {
    *x == DEFAULT_MASK
}

impl PartSpec {
    /// The engine part.
    pub fn to_part(&self) -> Part {
        Part {
            shape: self.shape.shape(),
            offset: self.offset,
            angle: self.angle,
            material: Material { density: self.density, friction: self.friction, restitution: self.restitution },
            category_bits: self.category_bits,
            mask_bits: self.mask_bits,
        }
    }

    /// The entry written for an engine part.
    pub fn from_part(part: &Part) -> PartSpec {
        PartSpec {
            shape: ShapeSpec::from_shape(&part.shape),
            offset: part.offset,
            angle: part.angle,
            density: part.material.density,
            friction: part.material.friction,
            restitution: part.material.restitution,
            category_bits: part.category_bits,
            mask_bits: part.mask_bits,
        }
    }
}

/// `shapes: [...]`: at least one entry, at most [`MAX_PARTS`].
pub(crate) fn parts<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<PartSpec>>, D::Error> {
    let parts = Vec::<PartSpec>::deserialize(d)?;
    if parts.is_empty() {
        return Err(D::Error::custom("`shapes` must list at least one shape (or give the body one `shape`)"));
    }
    if parts.len() > MAX_PARTS {
        return Err(D::Error::custom(format!(
            "`shapes` lists {} shapes; a body holds at most {MAX_PARTS}",
            parts.len()
        )));
    }
    Ok(Some(parts))
}
