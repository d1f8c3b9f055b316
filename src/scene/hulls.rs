//! Hull pair files (`scenes/hulls/*.ron`): two 3D convex hulls and their poses, the input of
//! the 3D hull SAT lab.
//!
//! ```ron
//! Hulls(
//!     version: 1,
//!     name: "Cube on cube",
//!     description: "...",
//!     a: (shape: Cube(half: 1.0)),
//!     b: (shape: Tetrahedron(radius: 1.0), position: (0.3, 1.6, 0.0), rotation: (0.0, 0.4, 0.2)),
//! )
//! ```
//!
//! Shapes: `Cube(half)`, `Cuboid(half_extents: (x, y, z))`, `Tetrahedron(radius)`,
//! `Octahedron(radius)`, `Icosahedron(radius)` (circumradius), `Prism(sides, radius, height)`
//! (a regular `sides`-gon prism along the local z axis, cylinder-like for many sides),
//! `Random(count, radius, seed)` (the hull of `count` seeded points in a ball) and
//! `Points([(x, y, z), ...])` (the hull of any cloud, built by QuickHull; fewer than 4
//! non-coplanar points are rejected with the engine's message).
//!
//! `position` (default the origin) places the shape's local origin. `rotation` (default none)
//! is three Euler angles in radians, applied as `Rx(x) · Ry(y) · Rz(z)` (glam's
//! `EulerRot::XYZ`): a point is turned about z first, then y, then x, then moved by `position`.

use super::context;
use super::error::SceneError;
use super::fields;
use super::ron_file;
use crate::engine::hull3d::{shapes, Hull, Pose3};
use glam::{EulerRot, Quat, Vec3};
use serde::de::{Deserializer, Error};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Most points a `Points` or `Random` shape may have.
pub const MAX_HULL_POINTS: usize = 4096;
/// Most sides a `Prism` may have.
pub const MAX_PRISM_SIDES: u32 = 128;

/// A 3D shape as written in a hull file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "HullShape", deny_unknown_fields)]
pub enum HullShapeDesc {
    Cube { half: f32 },
    Cuboid { half_extents: Vec3 },
    Tetrahedron { radius: f32 },
    Octahedron { radius: f32 },
    Icosahedron { radius: f32 },
    Prism { sides: u32, radius: f32, height: f32 },
    Random { count: u32, radius: f32, seed: u64 },
    Points(Vec<Vec3>),
}

impl HullShapeDesc {
    /// The variant name, as written in files.
    pub fn kind(&self) -> &'static str {
        match self {
            HullShapeDesc::Cube { .. } => "Cube",
            HullShapeDesc::Cuboid { .. } => "Cuboid",
            HullShapeDesc::Tetrahedron { .. } => "Tetrahedron",
            HullShapeDesc::Octahedron { .. } => "Octahedron",
            HullShapeDesc::Icosahedron { .. } => "Icosahedron",
            HullShapeDesc::Prism { .. } => "Prism",
            HullShapeDesc::Random { .. } => "Random",
            HullShapeDesc::Points(_) => "Points",
        }
    }

    /// Builds the hull (in its local frame); the error names the shape and, for clouds, is the
    /// engine's message.
    pub fn build(&self) -> Result<Hull, String> {
        let positive = |field: &str, v: f32| {
            if v.is_finite() && v > 0.0 && v < 1.0e4 {
                Ok(v)
            } else {
                Err(format!("`{field}` must be a finite number > 0 (and < 10000), got {v}"))
            }
        };
        let hull = match self {
            HullShapeDesc::Cube { half } => Ok(shapes::cube(positive("half", *half)?)),
            HullShapeDesc::Cuboid { half_extents: h } => {
                Ok(shapes::cuboid(Vec3::new(positive("x", h.x)?, positive("y", h.y)?, positive("z", h.z)?)))
            }
            HullShapeDesc::Tetrahedron { radius } => Ok(shapes::tetrahedron(positive("radius", *radius)?)),
            HullShapeDesc::Octahedron { radius } => Ok(shapes::octahedron(positive("radius", *radius)?)),
            HullShapeDesc::Icosahedron { radius } => Ok(shapes::icosahedron(positive("radius", *radius)?)),
            HullShapeDesc::Prism { sides, radius, height } => {
                if !(3..=MAX_PRISM_SIDES).contains(sides) {
                    return Err(format!("`sides` must be 3 to {MAX_PRISM_SIDES}, got {sides}"));
                }
                let (r, h) = (positive("radius", *radius)?, positive("height", *height)?);
                Hull::from_points(&prism_points(*sides as usize, r, 0.5 * h))
            }
            HullShapeDesc::Random { count, radius, seed } => {
                if !(4..=MAX_HULL_POINTS as u32).contains(count) {
                    return Err(format!("`count` must be 4 to {MAX_HULL_POINTS}, got {count}"));
                }
                shapes::random_hull(*seed, *count as usize, positive("radius", *radius)?)
            }
            HullShapeDesc::Points(points) => {
                if points.len() > MAX_HULL_POINTS {
                    return Err(format!("at most {MAX_HULL_POINTS} points, got {}", points.len()));
                }
                Hull::from_points(points)
            }
        };
        hull.map_err(|e| format!("invalid `{}` hull: {e}", self.kind()))
    }
}

/// The points of [`shapes::prism`] (which panics on bad input; the file format checks first).
fn prism_points(sides: usize, radius: f32, half_height: f32) -> Vec<Vec3> {
    let mut pts = Vec::with_capacity(2 * sides);
    for z in [-half_height, half_height] {
        for k in 0..sides {
            let t = std::f32::consts::TAU * k as f32 / sides as f32;
            pts.push(Vec3::new(radius * t.cos(), radius * t.sin(), z));
        }
    }
    pts
}

/// A validated shape: its description (written back as given) and its hull. Two shapes are
/// equal when their descriptions are (the hull is derived from it).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "HullShapeDesc", into = "HullShapeDesc")]
pub struct HullShape {
    desc: HullShapeDesc,
    hull: Hull,
}

impl HullShape {
    pub fn desc(&self) -> &HullShapeDesc {
        &self.desc
    }

    /// The hull in its local frame.
    pub fn hull(&self) -> &Hull {
        &self.hull
    }
}

impl PartialEq for HullShape {
    fn eq(&self, other: &Self) -> bool {
        self.desc == other.desc
    }
}

impl TryFrom<HullShapeDesc> for HullShape {
    type Error = String;
    fn try_from(desc: HullShapeDesc) -> Result<Self, String> {
        let hull = desc.build()?;
        Ok(HullShape { desc, hull })
    }
}

impl From<HullShape> for HullShapeDesc {
    fn from(s: HullShape) -> Self {
        s.desc
    }
}

fn finite_vec3<'de, D: Deserializer<'de>>(d: D, field: &str) -> Result<Vec3, D::Error> {
    let (x, y, z) = <(f32, f32, f32)>::deserialize(d)?;
    if x.is_finite() && y.is_finite() && z.is_finite() {
        Ok(Vec3::new(x, y, z))
    } else {
        Err(D::Error::custom(format!("`{field}` must be three finite numbers, got ({x}, {y}, {z})")))
    }
}

fn position<'de, D: Deserializer<'de>>(d: D) -> Result<Vec3, D::Error> {
    finite_vec3(d, "position")
}

fn rotation<'de, D: Deserializer<'de>>(d: D) -> Result<Vec3, D::Error> {
    finite_vec3(d, "rotation")
}

/// One hull of the pair, placed in the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HullPlacement {
    pub shape: HullShape,
    #[serde(default, deserialize_with = "position")]
    pub position: Vec3,
    /// Euler angles in radians, `Rx(x) · Ry(y) · Rz(z)`.
    #[serde(default, deserialize_with = "rotation")]
    pub rotation: Vec3,
}

impl HullPlacement {
    pub fn new(shape: HullShape, pose: Pose3) -> HullPlacement {
        let (x, y, z) = pose.q.to_euler(EulerRot::XYZ);
        HullPlacement { shape, position: pose.p, rotation: Vec3::new(x, y, z) }
    }

    pub fn pose(&self) -> Pose3 {
        let r = self.rotation;
        Pose3::new(self.position, Quat::from_euler(EulerRot::XYZ, r.x, r.y, r.z))
    }
}

fn placement_a<'de, D: Deserializer<'de>>(d: D) -> Result<HullPlacement, D::Error> {
    context::scoped("a".to_string(), || HullPlacement::deserialize(d))
}

fn placement_b<'de, D: Deserializer<'de>>(d: D) -> Result<HullPlacement, D::Error> {
    context::scoped("b".to_string(), || HullPlacement::deserialize(d))
}

/// Two hulls for the 3D SAT lab.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Hulls", deny_unknown_fields)]
pub struct HullsSpec {
    #[serde(deserialize_with = "fields::version")]
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(deserialize_with = "placement_a")]
    pub a: HullPlacement,
    #[serde(deserialize_with = "placement_b")]
    pub b: HullPlacement,
}

impl HullsSpec {
    pub fn new(name: &str, a: HullPlacement, b: HullPlacement) -> HullsSpec {
        HullsSpec { version: fields::FORMAT_VERSION, name: name.to_string(), description: String::new(), a, b }
    }

    /// Both hulls moved to their poses.
    pub fn world_hulls(&self) -> [Hull; 2] {
        [self.a.shape.hull().transformed(&self.a.pose()), self.b.shape.hull().transformed(&self.b.pose())]
    }

    pub fn to_ron_string(&self) -> Result<String, SceneError> {
        ron_file::to_ron_string(self, "Hulls")
    }
}

/// Parses hull pair text; `file_name` only labels errors.
pub fn parse_hulls(text: &str, file_name: &str) -> Result<HullsSpec, SceneError> {
    ron_file::parse_ron(text, file_name)
}

/// Reads the hull pair file at `path`.
pub fn load_hulls(path: &Path) -> Result<HullsSpec, SceneError> {
    parse_hulls(&ron_file::read_text(path)?, &path.display().to_string())
}

/// Writes `spec` to `path`.
pub fn save_hulls(spec: &HullsSpec, path: &Path) -> Result<(), SceneError> {
    ron_file::write_text(spec.to_ron_string(), path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"Hulls(
    version: 1,
    name: "test",
    a: (shape: Cube(half: 1.0)),
    b: (shape: Points([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]), position: (0.5, 1.2, 0), rotation: (0.1, 0.2, 0.3)),
)"#;

    #[test]
    fn parses_and_round_trips() {
        let s = parse_hulls(TEXT, "t.ron").unwrap();
        assert_eq!(s.a.shape.hull().faces().len(), 6);
        assert_eq!(s.b.shape.hull().positions().len(), 4);
        let back = parse_hulls(&s.to_ron_string().unwrap(), "back.ron").unwrap();
        assert_eq!(back, s);
        let p = HullPlacement::new(s.b.shape.clone(), s.b.pose());
        assert!((p.rotation - s.b.rotation).length() < 1e-5);
    }

    #[test]
    fn errors_name_file_line_column_and_the_engine_message() {
        let flat = TEXT.replace("(0, 0, 1)]", "(1, 1, 0)]");
        let e = parse_hulls(&flat, "flat.ron").unwrap_err().to_string();
        assert!(e.starts_with("flat.ron:5:"), "{e}");
        assert!(e.contains("b: invalid `Points` hull: all points are coplanar"), "{e}");
        let bad = TEXT.replace("half: 1.0", "half: -1.0");
        let e = parse_hulls(&bad, "bad.ron").unwrap_err().to_string();
        assert!(e.starts_with("bad.ron:4:") && e.contains("`half`"), "{e}");
        let nan = TEXT.replace("(0.5, 1.2, 0)", "(0.5, NaN, 0)");
        let e = parse_hulls(&nan, "nan.ron").unwrap_err().to_string();
        assert!(e.starts_with("nan.ron:5:") && e.contains("position"), "{e}");
        let prism = TEXT.replace("Cube(half: 1.0)", "Prism(sides: 2, radius: 1, height: 1)");
        assert!(parse_hulls(&prism, "p.ron").unwrap_err().to_string().contains("`sides`"));
    }
}
