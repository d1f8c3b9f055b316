//! Shapes as written in scene files, checked by the engine constructors so the validation
//! rules (and their messages) live in one place.

use super::limits::MAX_HULL_POINTS;
use crate::engine::shape::{Capsule, Polygon, PolygonError, Shape};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A shape as written in a scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Shape", deny_unknown_fields)]
pub enum ShapeDesc {
    /// A circle centred on the body origin.
    Circle { radius: f32 },
    /// An axis-aligned box (in the body frame) centred on the body origin; with `radius`, its
    /// corners rounded (Box2D's `b2MakeRoundedBox`: the box swept by a disk of that radius).
    Box {
        half_extents: Vec2,
        #[serde(default, skip_serializing_if = "is_zero")]
        radius: f32,
    },
    /// The points of a strictly convex polygon (either winding), at most 8; `radius` rounds it.
    Polygon {
        points: Vec<Vec2>,
        #[serde(default, skip_serializing_if = "is_zero")]
        radius: f32,
    },
    /// The convex hull of any point cloud; `radius` rounds it.
    Hull {
        points: Vec<Vec2>,
        #[serde(default, skip_serializing_if = "is_zero")]
        radius: f32,
    },
    /// A segment swept by a disk: `Capsule(center1: (x, y), center2: (x, y), radius: r)`, or
    /// `Capsule(half_length: h, radius: r)` for the segment from `(−h, 0)` to `(h, 0)`.
    Capsule {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        center1: Option<Vec2>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        center2: Option<Vec2>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        half_length: Option<f32>,
        radius: f32,
    },
}

/// Whether a rounding radius is the default (sharp), so it is not written.
fn is_zero(r: &f32) -> bool {
    *r == 0.0
}

impl ShapeDesc {
    /// The variant name, as written in files.
    pub fn kind(&self) -> &'static str {
        match self {
            ShapeDesc::Circle { .. } => "Circle",
            ShapeDesc::Box { .. } => "Box",
            ShapeDesc::Polygon { .. } => "Polygon",
            ShapeDesc::Hull { .. } => "Hull",
            ShapeDesc::Capsule { .. } => "Capsule",
        }
    }

    /// Builds the engine shape; the error is the engine's message.
    pub fn build(&self) -> Result<Shape, String> {
        let shape = match self {
            ShapeDesc::Circle { radius } => Shape::circle(*radius),
            ShapeDesc::Box { half_extents, radius } => rounded(Polygon::make_box(*half_extents), *radius),
            ShapeDesc::Polygon { points, radius } => rounded(Polygon::new(points), *radius),
            ShapeDesc::Hull { points, .. } if points.len() > MAX_HULL_POINTS => {
                Err(format!("at most {MAX_HULL_POINTS} points, got {}", points.len()))
            }
            ShapeDesc::Hull { points, radius } => rounded(Polygon::hull(points), *radius),
            ShapeDesc::Capsule { center1, center2, half_length, radius } => match (center1, center2, half_length) {
                (Some(c1), Some(c2), None) => Capsule::new(*c1, *c2, *radius),
                (None, None, Some(h)) => Capsule::horizontal(*h, *radius),
                _ => Err("give either `center1` and `center2`, or `half_length` (along the local x axis)".into()),
            }
            .map(Shape::Capsule),
        };
        shape.map_err(|e| format!("invalid `{}` shape: {e}", self.kind()))
    }

    /// The description of an engine shape: boxes as `Box`, other polygons as `Polygon`.
    pub fn from_shape(shape: &Shape) -> ShapeDesc {
        match shape {
            Shape::Circle(c) => ShapeDesc::Circle { radius: c.radius },
            Shape::Polygon(p) => match p.box_half_extents {
                Some(half_extents) => ShapeDesc::Box { half_extents, radius: p.radius },
                None => ShapeDesc::Polygon { points: p.vertices().to_vec(), radius: p.radius },
            },
            Shape::Capsule(c) => {
                let h = c.center2.x;
                if c.center1 == Vec2::new(-h, 0.0) && c.center2 == Vec2::new(h, 0.0) {
                    ShapeDesc::Capsule { center1: None, center2: None, half_length: Some(h), radius: c.radius }
                } else {
                    ShapeDesc::Capsule {
                        center1: Some(c.center1),
                        center2: Some(c.center2),
                        half_length: None,
                        radius: c.radius,
                    }
                }
            }
        }
    }
}

/// A polygon rounded by `radius` (validated by [`Polygon::rounded`]), as a shape.
fn rounded(polygon: Result<Polygon, PolygonError>, radius: f32) -> Result<Shape, String> {
    polygon.and_then(|p| p.rounded(radius)).map(Shape::Polygon).map_err(|e| e.to_string())
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
        let err = ShapeSpec::new(ShapeDesc::Polygon { points: dart.clone(), radius: 0.0 }).unwrap_err();
        assert!(err.contains("not strictly convex: point 2"), "{err}");
        let hull = ShapeSpec::new(ShapeDesc::Hull { points: dart, radius: 0.0 }).unwrap();
        assert!(matches!(hull.shape(), Shape::Polygon(p) if p.count == 3));
    }

    #[test]
    fn capsules_in_either_form() {
        let c =
            ShapeSpec::new(ShapeDesc::Capsule { center1: None, center2: None, half_length: Some(0.5), radius: 0.2 })
                .unwrap();
        assert_eq!(c.shape(), Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.2).unwrap());
        assert_eq!(ShapeDesc::from_shape(&c.shape()), *c.desc());
        let tilted = Shape::capsule(Vec2::ZERO, Vec2::new(0.0, 1.0), 0.1).unwrap();
        assert!(matches!(ShapeDesc::from_shape(&tilted), ShapeDesc::Capsule { center1: Some(_), .. }));
        let both = ShapeDesc::Capsule { center1: Some(Vec2::ZERO), center2: None, half_length: Some(1.0), radius: 0.1 };
        assert!(ShapeSpec::new(both).unwrap_err().contains("either `center1` and `center2`"));
        let point =
            ShapeDesc::Capsule { center1: Some(Vec2::X), center2: Some(Vec2::X), half_length: None, radius: 0.1 };
        assert!(ShapeSpec::new(point).unwrap_err().contains("invalid `Capsule` shape: capsule segment length"));
    }

    #[test]
    fn boxes_are_written_back_as_boxes() {
        let b = Shape::make_box(Vec2::new(0.5, 0.25)).unwrap();
        assert_eq!(ShapeDesc::from_shape(&b), ShapeDesc::Box { half_extents: Vec2::new(0.5, 0.25), radius: 0.0 });
        let rounded = Shape::Polygon(Polygon::make_rounded_box(Vec2::new(0.4, 20.0), 0.2).unwrap());
        let desc = ShapeDesc::from_shape(&rounded);
        assert_eq!(desc, ShapeDesc::Box { half_extents: Vec2::new(0.4, 20.0), radius: 0.2 });
        assert_eq!(ShapeSpec::new(desc).unwrap().shape(), rounded);
        for bad in [-0.1, f32::NAN, f32::INFINITY, 2e4] {
            let err = ShapeSpec::new(ShapeDesc::Box { half_extents: Vec2::ONE, radius: bad }).unwrap_err();
            assert!(err.contains("polygon radius must be finite"), "{err}");
        }
        let tri = ShapeDesc::Polygon { points: vec![Vec2::ZERO, Vec2::X, Vec2::Y], radius: 0.0 };
        let spec = ShapeSpec::new(tri).unwrap();
        let back = ShapeSpec::new(ShapeDesc::from_shape(&spec.shape())).unwrap();
        assert_eq!(back.shape(), spec.shape());
    }
}
