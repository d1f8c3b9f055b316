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
//! `Random(count, radius, seed)` (the hull of `count` seeded points in a ball),
//! `Points([(x, y, z), ...])` (the hull of any cloud, built by QuickHull; fewer than 4
//! non-coplanar points are rejected with the engine's message) and
//! `Polyhedron(positions: [...], edges: [(i, j), ...], faces: [[i, j, k, ...], ...])`,
//! article 001's hull data as its own arrays (the face normals computed from the faces): kept
//! in their order, so the SAT names vertices, edges and faces by the article's indices
//! (QuickHull numbers them its own way).
//!
//! `position` (default the origin) places the shape's local origin. `rotation` (default none)
//! is three Euler angles in radians, applied as `Rx(x) · Ry(y) · Rz(z)` (glam's
//! `EulerRot::XYZ`): a point is turned about z first, then y, then x, then moved by `position`.
//! `orientation: (x, y, z, w)`, a unit quaternion used as written, replaces `rotation`: a pair
//! taken from a 3D world keeps its poses bit for bit that way. `part: (offset, rotation)` places
//! a hull of a body of several in its body before the pose, as the world does, and
//! `world: (margin, sat)` is the narrowphase of the world the pair came from.

use super::context;
use super::fields;
use super::kind::FileKind;
use super::limits;
use super::preset::PresetFile;
use crate::engine::hull3d::{shapes, Hull, Pose3};
use crate::engine::world3d::SatChoice;
use glam::{EulerRot, Quat, Vec3};
use serde::de::{Deserializer, Error};
use serde::{Deserialize, Serialize};

/// Most points a `Points` or `Random` shape may have.
pub const MAX_HULL_POINTS: usize = 4096;
/// Most sides a `Prism` may have.
pub const MAX_PRISM_SIDES: u32 = 128;

/// A 3D shape as written in a hull file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "HullShape", deny_unknown_fields)]
pub enum HullShapeDesc {
    Cube {
        half: f32,
    },
    Cuboid {
        half_extents: Vec3,
    },
    Tetrahedron {
        radius: f32,
    },
    Octahedron {
        radius: f32,
    },
    Icosahedron {
        radius: f32,
    },
    Prism {
        sides: u32,
        radius: f32,
        height: f32,
    },
    Random {
        count: u32,
        radius: f32,
        seed: u64,
    },
    Points(Vec<Vec3>),
    /// Article 001's `new Hull({ positions, edges, faces, normals })`, the normals computed.
    Polyhedron {
        positions: Vec<Vec3>,
        edges: Vec<(usize, usize)>,
        faces: Vec<Vec<usize>>,
    },
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
            HullShapeDesc::Polyhedron { .. } => "Polyhedron",
        }
    }

    /// Builds the hull (in its local frame); the error names the shape and, for clouds, is the
    /// engine's message.
    pub fn build(&self) -> Result<Hull, String> {
        // Sizes within [`limits::MIN_SIZE_3D`], [`limits::MAX_SIZE_3D`] (2D's smallest size).
        let positive =
            |field: &str, v: f32| limits::check_range(field, v, limits::MIN_SIZE_3D, limits::MAX_SIZE_3D).map(|()| v);
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
                check_points(points)?;
                Hull::from_points(points)
            }
            HullShapeDesc::Polyhedron { positions, edges, faces } => {
                return polyhedron(positions, edges, faces).map_err(|e| format!("invalid `Polyhedron`: {e}"));
            }
        };
        hull.map_err(|e| format!("invalid `{}` hull: {e}", self.kind()))
    }
}

/// Largest distance of a vertex in front of a face's plane, or of a face's vertex off it,
/// relative to the hull's size.
const POLYHEDRON_TOLERANCE: f32 = 1e-4;

/// A hull from article 001's arrays, in their order, checked: sizes, edges listed once, each
/// in exactly two faces, Euler's formula (so every face side is an edge), planar faces and
/// every vertex behind every face. The normals are computed from the faces (outward, away
/// from the vertices' average): the article prints its own, but they are off its faces'
/// planes by up to 1 % of the tetrahedron's size (its vertex 3 lies 0.0125 in front of
/// face 3's plane), and the SAT's face axes are exact from the faces.
fn polyhedron(positions: &[Vec3], edges: &[(usize, usize)], faces: &[Vec<usize>]) -> Result<Hull, String> {
    let count = positions.len();
    if count > MAX_HULL_POINTS || faces.len() > 2 * MAX_HULL_POINTS {
        return Err(format!("at most {MAX_HULL_POINTS} positions, got {count}"));
    }
    check_points(positions)?;
    if let Some(&(a, b)) = edges.iter().find(|&&(a, b)| a >= count || b >= count || a == b) {
        return Err(format!("edge ({a}, {b}) needs two different vertices below {count}"));
    }
    if let Some(i) = faces.iter().position(|f| f.len() < 3 || f.iter().any(|&v| v >= count)) {
        return Err(format!("face {i} needs 3 or more vertices below {count}"));
    }
    let center = positions.iter().copied().sum::<Vec3>() / count.max(1) as f32;
    let mut normals = Vec::with_capacity(faces.len());
    for (i, f) in faces.iter().enumerate() {
        normals.push(outward_normal(positions, f, center).ok_or_else(|| format!("face {i} has no area"))?);
    }
    let edges = edges.iter().map(|&(a, b)| [a, b]).collect();
    let hull = Hull::from_raw(positions.to_vec(), faces.to_vec(), edges, normals).map_err(|e| e.to_string())?;
    let tolerance = POLYHEDRON_TOLERANCE * positions.iter().fold(1.0f32, |m, p| m.max(p.abs().max_element()));
    hull.validate(tolerance).map_err(|e| e.to_string())?;
    let unordered = |a: usize, b: usize| (a.min(b), a.max(b));
    let listed: std::collections::BTreeSet<_> = hull.edges().iter().map(|&[a, b]| unordered(a, b)).collect();
    if listed.len() != hull.edges().len() {
        return Err("`edges` lists an edge twice".into());
    }
    for (i, (face, plane)) in hull.faces().iter().zip(hull.planes()).enumerate() {
        if let Some(&v) = face.iter().find(|&&v| plane.distance(positions[v]).abs() > tolerance) {
            return Err(format!("face {i} is not flat: vertex {v} is off its plane"));
        }
    }
    Ok(hull)
}

/// The unit normal of the face through `face`'s vertices (listed in any order), pointing away
/// from `center`: the largest cross product of two spokes from the face's own centre.
fn outward_normal(positions: &[Vec3], face: &[usize], center: Vec3) -> Option<Vec3> {
    let c = face.iter().map(|&v| positions[v]).sum::<Vec3>() / face.len() as f32;
    let mut best = Vec3::ZERO;
    for (k, &i) in face.iter().enumerate() {
        for &j in &face[k + 1..] {
            let n = (positions[i] - c).cross(positions[j] - c);
            if n.length_squared() > best.length_squared() {
                best = if n.dot(c - center) < 0.0 { -n } else { n };
            }
        }
    }
    best.try_normalize()
}

/// Every point within ±[`limits::MAX_SIZE_3D`] of the shape's origin on each axis.
fn check_points(points: &[Vec3]) -> Result<(), String> {
    let max = limits::MAX_SIZE_3D;
    match points.iter().position(|p| !p.is_finite() || p.abs().max_element() > max) {
        None => Ok(()),
        Some(k) => {
            let p = points[k];
            let n = limits::number;
            Err(format!("point {k} must lie within ±{max} m on each axis, got ({}, {}, {})", n(p.x), n(p.y), n(p.z)))
        }
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

fn unit_quat<'de, D: Deserializer<'de>>(d: D, field: &str) -> Result<Quat, D::Error> {
    let (x, y, z, w) = <(f32, f32, f32, f32)>::deserialize(d)?;
    let q = Quat::from_xyzw(x, y, z, w);
    if q.is_finite() && (q.length() - 1.0).abs() <= UNIT_TOLERANCE {
        Ok(q)
    } else {
        Err(D::Error::custom(format!("`{field}` must be a unit quaternion (x, y, z, w), got ({x}, {y}, {z}, {w})")))
    }
}

fn orientation<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Quat>, D::Error> {
    unit_quat(d, "orientation").map(Some)
}

/// How far from 1 a written quaternion's length may be (it is used as written, not
/// normalized, so a pose taken from a world reads back bit for bit).
pub const UNIT_TOLERANCE: f32 = 1e-4;

/// Where a hull sits in its body, for one hull of a body of several (a 3D world's `shapes`):
/// the hull is moved by it before the pose, as the world places it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartPlace {
    #[serde(deserialize_with = "offset")]
    pub offset: Vec3,
    /// A unit quaternion `(x, y, z, w)`, used as written.
    #[serde(deserialize_with = "part_rotation")]
    pub rotation: Quat,
}

fn offset<'de, D: Deserializer<'de>>(d: D) -> Result<Vec3, D::Error> {
    finite_vec3(d, "offset")
}

fn part_rotation<'de, D: Deserializer<'de>>(d: D) -> Result<Quat, D::Error> {
    unit_quat(d, "rotation")
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
    /// The rotation as a unit quaternion `(x, y, z, w)`, used as written instead of `rotation`:
    /// a pose taken from a 3D world (Euler angles do not give its bits back).
    #[serde(default, deserialize_with = "orientation", skip_serializing_if = "Option::is_none")]
    pub orientation: Option<Quat>,
    /// For one hull of a body of several: where it sits in its body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<PartPlace>,
}

impl HullPlacement {
    pub fn new(shape: HullShape, pose: Pose3) -> HullPlacement {
        let (x, y, z) = pose.q.to_euler(EulerRot::XYZ);
        HullPlacement { shape, position: pose.p, rotation: Vec3::new(x, y, z), orientation: None, part: None }
    }

    /// `shape` at exactly `pose` (its quaternion written as is), moved first by `part`.
    pub fn exact(shape: HullShape, pose: Pose3, part: Option<PartPlace>) -> HullPlacement {
        HullPlacement { orientation: Some(pose.q), part, ..HullPlacement::new(shape, pose) }
    }

    pub fn pose(&self) -> Pose3 {
        let r = self.rotation;
        let q = self.orientation.unwrap_or_else(|| Quat::from_euler(EulerRot::XYZ, r.x, r.y, r.z));
        Pose3::new(self.position, q)
    }

    /// The hull in its own frame: the shape's, moved by `part` when it has one.
    pub fn local_hull(&self) -> Hull {
        match self.part {
            Some(p) => self.shape.hull().transformed(&Pose3::new(p.offset, p.rotation)),
            None => self.shape.hull().clone(),
        }
    }
}

/// How the 3D world a pair was taken from finds contacts: its speculative margin and SAT. The
/// hull lab runs that narrowphase on the pair beside its own traced SAT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldNarrowphase {
    pub margin: f32,
    pub sat: SatChoice,
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
    /// Set when the pair was taken from a 3D world: its narrowphase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world: Option<WorldNarrowphase>,
}

impl HullsSpec {
    pub fn new(name: &str, a: HullPlacement, b: HullPlacement) -> HullsSpec {
        HullsSpec {
            version: fields::FORMAT_VERSION,
            name: name.to_string(),
            description: String::new(),
            a,
            b,
            world: None,
        }
    }

    /// Both hulls moved to their poses.
    pub fn world_hulls(&self) -> [Hull; 2] {
        [self.a.local_hull().transformed(&self.a.pose()), self.b.local_hull().transformed(&self.b.pose())]
    }
}

impl PresetFile for HullsSpec {
    const KIND: FileKind = FileKind::Hulls;
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
    fn parses_and_places() {
        let s = HullsSpec::parse(TEXT, "t.ron").unwrap();
        assert_eq!(s.a.shape.hull().faces().len(), 6);
        assert_eq!(s.b.shape.hull().positions().len(), 4);
        let p = HullPlacement::new(s.b.shape.clone(), s.b.pose());
        assert!((p.rotation - s.b.rotation).length() < 1e-5);
    }

    #[test]
    fn errors_name_file_line_column_and_the_engine_message() {
        let flat = TEXT.replace("(0, 0, 1)]", "(1, 1, 0)]");
        let e = HullsSpec::parse(&flat, "flat.ron").unwrap_err().to_string();
        assert!(e.starts_with("flat.ron:5:"), "{e}");
        assert!(e.contains("b: invalid `Points` hull: all points are coplanar"), "{e}");
        let bad = TEXT.replace("half: 1.0", "half: -1.0");
        let e = HullsSpec::parse(&bad, "bad.ron").unwrap_err().to_string();
        assert!(e.starts_with("bad.ron:4:") && e.contains("`half`"), "{e}");
        let nan = TEXT.replace("(0.5, 1.2, 0)", "(0.5, NaN, 0)");
        let e = HullsSpec::parse(&nan, "nan.ron").unwrap_err().to_string();
        assert!(e.starts_with("nan.ron:5:") && e.contains("position"), "{e}");
        let prism = TEXT.replace("Cube(half: 1.0)", "Prism(sides: 2, radius: 1, height: 1)");
        assert!(HullsSpec::parse(&prism, "p.ron").unwrap_err().to_string().contains("`sides`"));
    }

    #[test]
    fn a_quaternion_and_a_part_place_read_back_bit_for_bit() {
        let s = HullsSpec::parse(TEXT, "t.ron").unwrap();
        let q = Quat::from_xyzw(0.1, -0.2, 0.3, 0.9).normalize();
        let part = PartPlace { offset: Vec3::new(0.25, -1.0 / 3.0, 0.1), rotation: Quat::from_rotation_y(0.7) };
        let pose = Pose3::new(Vec3::new(1.0 / 3.0, 2.0, -0.7), q);
        let mut exact = HullsSpec::new("x", HullPlacement::exact(s.a.shape.clone(), pose, Some(part)), s.b.clone());
        exact.world = Some(WorldNarrowphase { margin: 0.02, sat: SatChoice::Fast });
        let back = HullsSpec::parse(&exact.to_ron_string().unwrap(), "x.ron").unwrap();
        assert_eq!(back, exact);
        let p = back.a.pose();
        assert_eq!((p.p.to_array(), p.q.to_array()), (pose.p.to_array(), q.to_array()));
        assert_eq!(back.a.local_hull(), s.a.shape.hull().transformed(&Pose3::new(part.offset, part.rotation)));
        // Euler angles would not give these bits back.
        let euler = HullPlacement::new(s.a.shape.clone(), pose).pose().q;
        assert_ne!(euler.to_array(), q.to_array());
        let bad = TEXT.replace("a: (shape: Cube(half: 1.0))", "a: (shape: Cube(half: 1.0), orientation: (0, 0, 0, 2))");
        let e = HullsSpec::parse(&bad, "q.ron").unwrap_err().to_string();
        assert!(e.starts_with("q.ron:4:") && e.contains("`orientation` must be a unit quaternion"), "{e}");
    }

    /// A unit cube as the article writes hulls: four arrays, edges and faces in its order.
    const CUBE: &str = r#"Hulls(
    version: 1,
    a: (shape: Polyhedron(
        positions: [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)],
        edges: [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)],
        faces: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [1, 2, 5, 6], [2, 3, 6, 7], [3, 0, 7, 4]],
    )),
    b: (shape: Cube(half: 1.0)),
)"#;

    #[test]
    fn a_polyhedron_keeps_the_articles_numbering() {
        let s = HullsSpec::parse(CUBE, "cube.ron").unwrap();
        let h = s.a.shape.hull();
        assert_eq!(h.edges()[2], [2, 3]);
        assert_eq!(h.edges()[8], [0, 4]);
        assert_eq!(h.normals()[3], Vec3::X);
        assert_eq!(h.faces()[2], [0, 1, 5, 4], "sorted counter-clockwise seen from outside");
        let back = HullsSpec::parse(&s.to_ron_string().unwrap(), "back.ron").unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn a_bad_polyhedron_is_a_located_error() {
        for (from, to, says) in [
            ("(1, 1, 1), (0, 1, 1)]", "(0.5, 0.5, 0.5), (0, 1, 1)]", "not convex"),
            ("(1, 1, 1), (0, 1, 1)]", "(1, 1, 1.2), (0, 1, 1)]", "face 1 is not flat"),
            ("(3, 7)]", "(3, 9)]", "edge (3, 9)"),
            ("[3, 0, 7, 4]]", "[3, 0, 7, 8]]", "face 5 needs"),
            ("[3, 0, 7, 4]]", "[3, 3, 3]]", "face 5 has no area"),
            ("(2, 6), (3, 7)]", "(2, 6), (2, 6)]", "twice"),
            ("(2, 6), (3, 7)]", "(2, 6), (0, 2)]", "edge 0-2 borders 1 faces"),
        ] {
            assert!(CUBE.contains(from), "{from}");
            let e = HullsSpec::parse(&CUBE.replacen(from, to, 1), "bad.ron").unwrap_err().to_string();
            assert!(
                e.starts_with("bad.ron:") && e.contains("a: invalid `Polyhedron`") && e.contains(says),
                "{says}: {e}"
            );
        }
    }
}
