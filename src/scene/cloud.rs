//! Point-cloud presets (`scenes/hull/*.ron`), the input of the hull lab: a list of 2D points to
//! build the convex hull of with QuickHull. Degenerate clouds (collinear, duplicated) load fine,
//! since showing how the construction handles them is the point; a point that is not a finite
//! number within the scene limits, or too many points, is an error at its file:line:column.
//!
//! ```ron
//! Cloud(
//!     version: 1,
//!     name: "Square and inside",
//!     description: "...",
//!     points: [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.5, 0.5)],
//! )
//! ```

use super::fields;
use super::kind::FileKind;
use super::limits;
use super::preset::PresetFile;
use glam::Vec2;
use serde::de::{Deserializer, Error};
use serde::{Deserialize, Serialize};

/// Most points a cloud may hold (the lab stays interactive and its trace small).
pub const MAX_CLOUD_POINTS: usize = 2000;

/// A point-cloud preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Cloud", deny_unknown_fields)]
pub struct CloudSpec {
    #[serde(deserialize_with = "fields::version")]
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(deserialize_with = "points")]
    pub points: Vec<Vec2>,
}

fn points<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec2>, D::Error> {
    let raw = Vec::<(f32, f32)>::deserialize(d)?;
    if raw.len() > MAX_CLOUD_POINTS {
        return Err(D::Error::custom(format!("at most {MAX_CLOUD_POINTS} `points`, got {}", raw.len())));
    }
    let mut out = Vec::with_capacity(raw.len());
    for (k, (x, y)) in raw.into_iter().enumerate() {
        let p = Vec2::new(x, y);
        if !p.is_finite() {
            return Err(D::Error::custom(format!("point {k} must be two finite numbers, got ({x}, {y})")));
        }
        limits::check_point(&format!("point {k}"), p).map_err(D::Error::custom)?;
        out.push(p);
    }
    Ok(out)
}

impl PresetFile for CloudSpec {
    const KIND: FileKind = FileKind::Cloud;
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str =
        "Cloud(\n    version: 1,\n    name: \"t\",\n    points: [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)],\n)";

    #[test]
    fn parses_the_points() {
        let spec = CloudSpec::parse(TEXT, "t.ron").unwrap();
        assert_eq!(spec.points.len(), 3);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = CloudSpec::parse(&TEXT.replace("(1.0, 0.0)", "(1e9, 0.0)"), "b.ron").unwrap_err().to_string();
        assert!(e.starts_with("b.ron:4:") && e.contains("point 1"), "{e}");
        let e = CloudSpec::parse(&TEXT.replace("version: 1", "version: 7"), "v.ron").unwrap_err().to_string();
        assert!(e.starts_with("v.ron:2:"), "{e}");
        let e = CloudSpec::parse(&TEXT.replace("points:", "pts:"), "f.ron").unwrap_err().to_string();
        assert!(e.starts_with("f.ron:4:") && e.contains("pts"), "{e}");
        let e = CloudSpec::parse(&TEXT.replace("(0.0, 1.0)", "(0.0, 1.0, 2.0)"), "x.ron").unwrap_err().to_string();
        assert!(e.starts_with("x.ron:4:"), "{e}");
    }
}
