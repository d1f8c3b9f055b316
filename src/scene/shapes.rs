//! Shapes as written in scene files, checked by the engine constructors so the validation
//! rules (and their messages) live in one place.

use crate::engine::shape::{Polygon, Shape};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A shape as written in a scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Shape", deny_unknown_fields)]
pub enum ShapeDesc {
    /// A circle centred on the body origin.
    Circle { radius: f32 },
    /// An axis-aligned box (in the body frame) centred on the body origin.
    Box { half_extents: Vec2 },
    /// The points of a strictly convex polygon (either winding), at most 8.
    Polygon { points: Vec<Vec2> },
    /// The convex hull of any point cloud.
    Hull { points: Vec<Vec2> },
}

impl ShapeDesc {
    /// The variant name, as written in files.
    pub fn kind(&self) -> &'static str {
        match self {
            ShapeDesc::Circle { .. } => "Circle",
            ShapeDesc::Box { .. } => "Box",
            ShapeDesc::Polygon { .. } => "Polygon",
            ShapeDesc::Hull { .. } => "Hull",
        }
    }

    /// Builds the engine shape; the error is the engine's message.
    pub fn build(&self) -> Result<Shape, String> {
        let shape = match self {
            ShapeDesc::Circle { radius } => Shape::circle(*radius),
            ShapeDesc::Box { half_extents } => Shape::make_box(*half_extents).map_err(|e| e.to_string()),
            ShapeDesc::Polygon { points } => Polygon::new(points).map(Shape::Polygon).map_err(|e| e.to_string()),
            ShapeDesc::Hull { points } => Polygon::hull(points).map(Shape::Polygon).map_err(|e| e.to_string()),
        };
        shape.map_err(|e| format!("invalid `{}` shape: {e}", self.kind()))
    }

    /// The description of an engine shape: boxes as `Box`, other polygons as `Polygon`.
    pub fn from_shape(shape: &Shape) -> ShapeDesc {
        match shape {
            Shape::Circle(c) => ShapeDesc::Circle { radius: c.radius },
            Shape::Polygon(p) => match p.box_half_extents {
                Some(half_extents) => ShapeDesc::Box { half_extents },
                None => ShapeDesc::Polygon { points: p.vertices().to_vec() },
            },
        }
    }
}

/// A validated shape: its description (written back as given) and the engine shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ShapeDesc", into = "ShapeDesc")]
pub struct ShapeSpec {
    desc: ShapeDesc,
    shape: Shape,
}

impl ShapeSpec {
    /// Checks `desc` with the engine constructors.
    pub fn new(desc: ShapeDesc) -> Result<ShapeSpec, String> {
        let shape = desc.build()?;
        Ok(ShapeSpec { desc, shape })
    }

    /// Wraps an existing engine shape.
    pub fn from_shape(shape: &Shape) -> ShapeSpec {
        ShapeSpec { desc: ShapeDesc::from_shape(shape), shape: *shape }
    }

    pub fn desc(&self) -> &ShapeDesc {
        &self.desc
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Height of the shape's bounding box (used to stack shapes).
    pub fn height(&self) -> f32 {
        let bb = self.shape.compute_aabb(&crate::engine::math::Transform::IDENTITY);
        bb.max.y - bb.min.y
    }
}

impl TryFrom<ShapeDesc> for ShapeSpec {
    type Error = String;

    fn try_from(desc: ShapeDesc) -> Result<ShapeSpec, String> {
        ShapeSpec::new(desc)
    }
}

impl From<ShapeSpec> for ShapeDesc {
    fn from(spec: ShapeSpec) -> ShapeDesc {
        spec.desc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_messages_are_kept() {
        let err = ShapeSpec::new(ShapeDesc::Circle { radius: -1.0 }).unwrap_err();
        assert!(err.starts_with("invalid `Circle` shape: circle radius must be"), "{err}");
        let dart = vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.5), Vec2::new(1.0, 2.0)];
        let err = ShapeSpec::new(ShapeDesc::Polygon { points: dart.clone() }).unwrap_err();
        assert!(err.contains("not strictly convex: point 2"), "{err}");
        let hull = ShapeSpec::new(ShapeDesc::Hull { points: dart }).unwrap();
        assert!(matches!(hull.shape(), Shape::Polygon(p) if p.count == 3));
    }

    #[test]
    fn boxes_are_written_back_as_boxes() {
        let b = Shape::make_box(Vec2::new(0.5, 0.25)).unwrap();
        assert_eq!(ShapeDesc::from_shape(&b), ShapeDesc::Box { half_extents: Vec2::new(0.5, 0.25) });
        let tri = ShapeDesc::Polygon { points: vec![Vec2::ZERO, Vec2::X, Vec2::Y] };
        let spec = ShapeSpec::new(tri).unwrap();
        let back = ShapeSpec::new(ShapeDesc::from_shape(&spec.shape())).unwrap();
        assert_eq!(back.shape(), spec.shape());
    }
}
