//! Slicing presets (`scenes/slice/*.ron`): one convex polygon at a pose and a knife segment,
//! the input of the slicing lab (003 article, "Dynamically Slicing Shapes"). Shapes use the
//! scene syntax; errors name the file, line and column as everywhere.
//!
//! ```ron
//! Slice(
//!     version: 1,
//!     name: "Square",
//!     description: "...",
//!     shape: Box(half_extents: (1.0, 1.0)),     // Box, Polygon or Hull: the clipper cuts polygons
//!     position: (0.0, 0.0),                      // optional, the shape's origin
//!     angle: 0.3,                                // optional, radians
//!     knife: (from: (-2.0, -0.4), to: (2.0, 0.6)),
//! )
//! ```

use super::fields;
use super::kind::FileKind;
use super::preset::PresetFile;
use super::shapes::ShapeSpec;
use crate::engine::geometry::{split_polygon, Line, SliceTrace};
use crate::engine::math::Transform;
use crate::engine::shape::hull::MAX_COORDINATE;
use crate::engine::shape::{Polygon, Shape};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The knife's two ends, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnifeFields {
    from: (f32, f32),
    to: (f32, f32),
}

/// The knife: a segment whose line cuts the polygon.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "KnifeFields", deny_unknown_fields)]
pub struct Knife {
    pub from: Vec2,
    pub to: Vec2,
}

impl TryFrom<KnifeFields> for Knife {
    type Error = String;

    fn try_from(f: KnifeFields) -> Result<Knife, String> {
        let (from, to) = (Vec2::from(f.from), Vec2::from(f.to));
        let inside = |p: Vec2| p.is_finite() && p.abs().max_element() < MAX_COORDINATE;
        if !(inside(from) && inside(to)) {
            return Err(format!("`knife` ends must be finite and below 1e5 in size, got {from} and {to}"));
        }
        if from == to {
            return Err(format!("`knife` needs two different ends, got {from} twice"));
        }
        Ok(Knife { from, to })
    }
}

impl Knife {
    /// The line through the ends, its normal to the right of `from → to` (points left of the
    /// knife are behind it).
    pub fn line(&self) -> Option<Line> {
        Line::through(self.from, self.to)
    }
}

/// The fields of a [`SliceSpec`] as written, before the shape is checked to be a polygon.
#[derive(Deserialize)]
#[serde(rename = "Slice", deny_unknown_fields)]
struct SliceFields {
    #[serde(deserialize_with = "fields::version")]
    version: u32,
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    shape: ShapeSpec,
    #[serde(default, deserialize_with = "fields::position")]
    position: Vec2,
    #[serde(default, deserialize_with = "fields::angle")]
    angle: f32,
    knife: Knife,
}

/// A slicing preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Slice", try_from = "SliceFields", deny_unknown_fields)]
pub struct SliceSpec {
    pub version: u32,
    pub name: String,
    pub description: String,
    pub shape: ShapeSpec,
    pub position: Vec2,
    pub angle: f32,
    pub knife: Knife,
}

impl TryFrom<SliceFields> for SliceSpec {
    type Error = String;

    fn try_from(f: SliceFields) -> Result<SliceSpec, String> {
        if !matches!(f.shape.shape(), Shape::Polygon(_)) {
            return Err(format!(
                "the slicing lab cuts polygons (`Box`, `Polygon`, `Hull`), got a `{}`",
                f.shape.desc().kind()
            ));
        }
        Ok(SliceSpec {
            version: f.version,
            name: f.name,
            description: f.description,
            shape: f.shape,
            position: f.position,
            angle: f.angle,
            knife: f.knife,
        })
    }
}

impl SliceSpec {
    /// The polygon (checked on loading; `None` only for a spec built in code with another
    /// shape).
    pub fn polygon(&self) -> Option<Polygon> {
        match self.shape.shape() {
            Shape::Polygon(p) => Some(p),
            _ => None,
        }
    }

    pub fn transform(&self) -> Transform {
        Transform::new(self.position, self.angle)
    }

    /// The polygon's vertices in world space, counter-clockwise.
    pub fn world_vertices(&self) -> Vec<Vec2> {
        self.polygon().map(|p| p.world_vertices(&self.transform()).collect()).unwrap_or_default()
    }

    /// The Sutherland–Hodgman walk of cutting the polygon by the knife's line.
    pub fn trace(&self) -> SliceTrace {
        let mut trace = SliceTrace::new();
        if let Some(line) = self.knife.line() {
            split_polygon(&self.world_vertices(), &line, Some(&mut trace));
        }
        trace
    }
}

impl PresetFile for SliceSpec {
    const KIND: FileKind = FileKind::Slice;
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"Slice(
    version: 1,
    name: "test",
    shape: Box(half_extents: (1.0, 1.0)),
    position: (2.0, 0.0),
    knife: (from: (0.0, 0.5), to: (4.0, 0.5)),
)"#;

    #[test]
    fn parses_and_traces() {
        let spec = SliceSpec::parse(TEXT, "t.ron").unwrap();
        assert_eq!(spec.angle, 0.0);
        let trace = spec.trace();
        assert_eq!(trace.len(), 4, "one step per edge");
        let split = trace.result.clone().expect("the walk finished");
        let area = |p: &[Vec2]| crate::engine::geometry::area_centroid(p).0;
        // The line y = 0.5 cuts the 2×2 square at a quarter of its height from the top.
        assert!((area(&split.behind) - 1.0).abs() < 1e-5, "{:?}", split.behind);
        assert!((area(&split.front) - 3.0).abs() < 1e-5, "{:?}", split.front);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let circle = TEXT.replace("Box(half_extents: (1.0, 1.0))", "Circle(radius: 1.0)");
        let e = SliceSpec::parse(&circle, "c.ron").unwrap_err().to_string();
        assert!(e.starts_with("c.ron:") && e.contains("cuts polygons"), "{e}");
        let bad = TEXT.replace("(1.0, 1.0)", "(-1.0, 1.0)");
        let e = SliceSpec::parse(&bad, "b.ron").unwrap_err().to_string();
        assert!(e.starts_with("b.ron:4:") && e.contains("Box"), "{e}");
        let point = TEXT.replace("to: (4.0, 0.5)", "to: (0.0, 0.5)");
        let e = SliceSpec::parse(&point, "p.ron").unwrap_err().to_string();
        assert!(e.starts_with("p.ron:6:") && e.contains("two different ends"), "{e}");
        let field = TEXT.replace("position:", "place:");
        let e = SliceSpec::parse(&field, "f.ron").unwrap_err().to_string();
        assert!(e.starts_with("f.ron:5:") && e.contains("place"), "{e}");
    }
}
