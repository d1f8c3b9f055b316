//! The hull data of article 001 ("Each hull in this implementation stores: positions, edges,
//! faces, normals"), plus what the article derives on the fly: each face's plane and each
//! edge's two faces (for the Gauss map and the manifold).

use super::accel::HullAccel;
use super::pose::Pose3;
use glam::{DVec3, Mat3, Vec3};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a hull could not be built.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum HullError {
    #[error("a 3D hull needs at least 4 points, got {count}")]
    TooFewPoints { count: usize },
    #[error("point {index} has a NaN or infinite coordinate")]
    NonFinite { index: usize },
    #[error("point {index} has a coordinate of magnitude {value}, above the limit {limit}")]
    TooLarge { index: usize, value: f32, limit: f32 },
    #[error("all points coincide (within {tolerance})")]
    Coincident { tolerance: f32 },
    #[error("all points are collinear (within {tolerance})")]
    Collinear { tolerance: f32 },
    #[error("all points are coplanar (within {tolerance}): a 3D hull needs 4 non-coplanar points")]
    Coplanar { tolerance: f32 },
    #[error("face {face} refers to vertex {vertex}, but there are {count} positions")]
    BadIndex { face: usize, vertex: usize, count: usize },
    #[error("face {face} has {count} vertices; a face needs at least 3")]
    DegenerateFace { face: usize, count: usize },
    #[error("edge {a}-{b} borders {faces} faces; a closed hull needs exactly 2")]
    NotClosed { a: usize, b: usize, faces: usize },
    #[error("Euler characteristic V - E + F = {v} - {e} + {f} is not 2")]
    Euler { v: usize, e: usize, f: usize },
    #[error("numerical failure building the hull: {0}")]
    Numerical(&'static str),
}

/// A plane `{x : n·x = d}` with unit normal `n`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plane {
    pub n: Vec3,
    pub d: f32,
}

impl Plane {
    /// The plane through `q` with unit normal `n`.
    pub fn from_point_normal(q: Vec3, n: Vec3) -> Plane {
        Plane { n, d: n.dot(q) }
    }

    /// Signed distance of `p` (positive on the side `n` points to): the article's
    /// `vec3.dot(N, P) - vec3.dot(N, Q)`.
    #[inline]
    pub fn distance(&self, p: Vec3) -> f32 {
        self.n.dot(p) - self.d
    }
}

/// A convex polyhedron. Faces are convex polygons listed counter-clockwise seen from outside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hull {
    pub(crate) positions: Vec<Vec3>,
    pub(crate) edges: Vec<[usize; 2]>,
    pub(crate) edge_faces: Vec<[usize; 2]>,
    pub(crate) faces: Vec<Vec<usize>>,
    pub(crate) normals: Vec<Vec3>,
    pub(crate) planes: Vec<Plane>,
    pub(crate) centroid: Vec3,
    /// Per edge, its Gauss-map arc `[n_f, n_g, n_g × n_f]` (faces `edge_faces[e]`), kept so the
    /// Minkowski-face test needs no cross product per edge pair.
    pub(crate) arcs: Vec<[Vec3; 3]>,
    /// Packed vertices, edge directions and adjacency for the local-frame SAT.
    pub(crate) accel: HullAccel,
}

impl Hull {
    /// A hull from the article's four arrays, kept in the article's order so that face, edge
    /// and vertex indices match its output. Each face's vertices are re-sorted counter-clockwise
    /// about its normal (the article's cube lists `[0,1,4,5]`, not a polygon order) with the
    /// first vertex kept first, since the article's face plane passes through `faces[i][0]`.
    /// Each edge's two faces are the faces containing both its vertices.
    pub fn from_raw(
        positions: Vec<Vec3>,
        faces: Vec<Vec<usize>>,
        edges: Vec<[usize; 2]>,
        normals: Vec<Vec3>,
    ) -> Result<Hull, HullError> {
        check_points(&positions)?;
        check_faces(&faces, positions.len())?;
        if normals.len() != faces.len() {
            return Err(HullError::Numerical("one normal per face is needed"));
        }
        let faces: Vec<Vec<usize>> =
            faces.iter().zip(&normals).map(|(f, n)| sort_counter_clockwise(&positions, f, *n)).collect();
        let planes = faces.iter().zip(&normals).map(|(f, n)| Plane::from_point_normal(positions[f[0]], *n)).collect();
        let mut edge_faces = Vec::with_capacity(edges.len());
        for &[a, b] in &edges {
            let with: Vec<usize> =
                (0..faces.len()).filter(|&f| faces[f].contains(&a) && faces[f].contains(&b)).collect();
            if with.len() != 2 {
                return Err(HullError::NotClosed { a, b, faces: with.len() });
            }
            edge_faces.push([with[0], with[1]]);
        }
        let centroid = vertex_average(&positions);
        let hull = Hull::assemble(positions, edges, edge_faces, faces, normals, planes, centroid);
        hull.check_euler()?;
        Ok(hull)
    }

    /// A hull from convex polygons listed counter-clockwise seen from outside. Normals come from
    /// Newell's method, planes pass through each face's outermost vertex, and edges are numbered
    /// in order of first appearance walking the faces.
    pub fn from_polygons(positions: Vec<Vec3>, faces: Vec<Vec<usize>>) -> Result<Hull, HullError> {
        check_points(&positions)?;
        check_faces(&faces, positions.len())?;
        let mut normals = Vec::with_capacity(faces.len());
        let mut planes = Vec::with_capacity(faces.len());
        for f in &faces {
            let (n, _) = newell_plane(&positions, f);
            if !n.is_finite() || n == Vec3::ZERO {
                return Err(HullError::Numerical("a face has no area"));
            }
            normals.push(n);
            planes.push(supporting_plane(&positions, f, n));
        }
        let (edges, edge_faces) = edges_of_polygons(&faces)?;
        let centroid = vertex_average(&positions);
        let hull = Hull::assemble(positions, edges, edge_faces, faces, normals, planes, centroid);
        hull.check_euler()?;
        Ok(hull)
    }

    /// Puts the parts together and derives the Gauss-map arcs.
    pub(crate) fn assemble(
        positions: Vec<Vec3>,
        edges: Vec<[usize; 2]>,
        edge_faces: Vec<[usize; 2]>,
        faces: Vec<Vec<usize>>,
        normals: Vec<Vec3>,
        planes: Vec<Plane>,
        centroid: Vec3,
    ) -> Hull {
        let arcs = edge_faces.iter().map(|&[f, g]| [normals[f], normals[g], normals[g].cross(normals[f])]).collect();
        let accel = HullAccel::new(&positions, &edges, &faces, &planes, centroid);
        Hull { positions, edges, edge_faces, faces, normals, planes, centroid, arcs, accel }
    }

    /// The hull of a point cloud by QuickHull with default options (see [`super::quickhull()`]).
    pub fn from_points(points: &[Vec3]) -> Result<Hull, HullError> {
        Hull::from_points_with(points, &super::quickhull::HullOptions::default())
    }

    /// [`Hull::from_points`] with a chosen plane tolerance.
    pub fn from_points_with(points: &[Vec3], options: &super::quickhull::HullOptions) -> Result<Hull, HullError> {
        super::quickhull::quickhull(points, options)
    }

    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Unique edges as vertex index pairs.
    pub fn edges(&self) -> &[[usize; 2]] {
        &self.edges
    }

    /// The two faces each edge borders.
    pub fn edge_faces(&self) -> &[[usize; 2]] {
        &self.edge_faces
    }

    /// Faces as vertex index lists, counter-clockwise seen from outside.
    pub fn faces(&self) -> &[Vec<usize>] {
        &self.faces
    }

    /// Outward unit face normals.
    pub fn normals(&self) -> &[Vec3] {
        &self.normals
    }

    pub fn planes(&self) -> &[Plane] {
        &self.planes
    }

    /// The average of the vertices: a point strictly inside the hull.
    pub fn centroid(&self) -> Vec3 {
        self.centroid
    }

    /// Face `i` as points, for drawing.
    pub fn face_polygon(&self, i: usize) -> Vec<Vec3> {
        self.faces[i].iter().map(|&v| self.positions[v]).collect()
    }

    /// Edge `i` as a segment, for drawing.
    pub fn edge_segment(&self, i: usize) -> [Vec3; 2] {
        let [a, b] = self.edges[i];
        [self.positions[a], self.positions[b]]
    }

    /// Largest signed distance of `p` to any face plane (≤ 0 inside).
    pub fn max_plane_distance(&self, p: Vec3) -> f32 {
        self.planes.iter().map(|pl| pl.distance(p)).fold(f32::NEG_INFINITY, f32::max)
    }

    /// Whether `p` is inside or within `tolerance` of the hull.
    pub fn contains_point(&self, p: Vec3, tolerance: f32) -> bool {
        self.max_plane_distance(p) <= tolerance
    }

    /// The largest distance of a vertex from the centroid.
    pub fn radius(&self) -> f32 {
        self.accel.radius
    }

    /// This hull moved by `pose` (positions, normals, planes, centroid; same topology).
    pub fn transformed(&self, pose: &Pose3) -> Hull {
        let mut out = self.clone();
        out.set_transformed(self, pose);
        out
    }

    /// Overwrites this hull's geometry with `src` moved by `pose`, without allocating. `self`
    /// must have `src`'s topology (be a clone or an earlier `transformed` of it).
    pub fn set_transformed(&mut self, src: &Hull, pose: &Pose3) {
        assert_eq!(self.positions.len(), src.positions.len(), "set_transformed needs the same topology");
        assert_eq!(self.normals.len(), src.normals.len(), "set_transformed needs the same topology");
        for (o, v) in self.positions.iter_mut().zip(&src.positions) {
            *o = pose.transform_point(*v);
        }
        for ((n, pl), (sn, spl)) in
            self.normals.iter_mut().zip(&mut self.planes).zip(src.normals.iter().zip(&src.planes))
        {
            *n = pose.transform_vector(*sn);
            let pn = pose.transform_vector(spl.n);
            *pl = Plane { n: pn, d: spl.d + pn.dot(pose.p) };
        }
        self.centroid = pose.transform_point(src.centroid);
        for (o, arc) in self.arcs.iter_mut().zip(&src.arcs) {
            *o = arc.map(|v| pose.transform_vector(v));
        }
        self.accel.set_transformed(&src.accel, &Mat3::from_quat(pose.q), pose.p);
    }

    /// Checks the structure: indices, each edge in exactly its two faces, Euler's formula, unit
    /// normals, and every vertex behind every face plane by at most `tolerance`.
    pub fn validate(&self, tolerance: f32) -> Result<(), HullError> {
        check_faces(&self.faces, self.positions.len())?;
        self.check_euler()?;
        for (&[a, b], &[f, g]) in self.edges.iter().zip(&self.edge_faces) {
            for face in [f, g] {
                if !self.faces[face].contains(&a) || !self.faces[face].contains(&b) {
                    return Err(HullError::NotClosed { a, b, faces: 1 });
                }
            }
        }
        for n in &self.normals {
            if (n.length() - 1.0).abs() > 1e-4 {
                return Err(HullError::Numerical("a face normal is not unit length"));
            }
        }
        for v in &self.positions {
            if self.max_plane_distance(*v) > tolerance {
                return Err(HullError::Numerical("the hull is not convex within the tolerance"));
            }
        }
        Ok(())
    }

    fn check_euler(&self) -> Result<(), HullError> {
        let (v, e, f) = (self.positions.len(), self.edges.len(), self.faces.len());
        if v + f != e + 2 {
            return Err(HullError::Euler { v, e, f });
        }
        Ok(())
    }
}

/// Coordinates above this magnitude are rejected: f32 hull tolerances stop making sense there.
pub const MAX_COORDINATE: f32 = 1.0e6;

pub(crate) fn check_points(points: &[Vec3]) -> Result<(), HullError> {
    if points.len() < 4 {
        return Err(HullError::TooFewPoints { count: points.len() });
    }
    for (index, p) in points.iter().enumerate() {
        if !p.is_finite() {
            return Err(HullError::NonFinite { index });
        }
        let value = p.abs().max_element();
        if value > MAX_COORDINATE {
            return Err(HullError::TooLarge { index, value, limit: MAX_COORDINATE });
        }
    }
    Ok(())
}

fn check_faces(faces: &[Vec<usize>], count: usize) -> Result<(), HullError> {
    for (face, f) in faces.iter().enumerate() {
        if f.len() < 3 {
            return Err(HullError::DegenerateFace { face, count: f.len() });
        }
        if let Some(&vertex) = f.iter().find(|&&v| v >= count) {
            return Err(HullError::BadIndex { face, vertex, count });
        }
    }
    Ok(())
}

pub(crate) fn vertex_average(points: &[Vec3]) -> Vec3 {
    let s: DVec3 = points.iter().map(|p| p.as_dvec3()).sum();
    (s / points.len().max(1) as f64).as_vec3()
}

/// Newell's method: the unit normal of a (nearly) planar polygon and its vertex average.
pub(crate) fn newell_plane(positions: &[Vec3], face: &[usize]) -> (Vec3, Vec3) {
    let mut n = DVec3::ZERO;
    let mut c = DVec3::ZERO;
    for (k, &i) in face.iter().enumerate() {
        let p = positions[i].as_dvec3();
        let q = positions[face[(k + 1) % face.len()]].as_dvec3();
        n += DVec3::new((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y));
        c += p;
    }
    let len = n.length();
    let n = if len > 0.0 { n / len } else { DVec3::ZERO };
    (n.as_vec3(), (c / face.len() as f64).as_vec3())
}

/// The plane with normal `n` through the face's outermost vertex, so that no vertex of a
/// nearly planar face is in front of it: SAT depths measured against it are exact overlaps of
/// the projections on `n` (valid MTVs), not off by the face's flatness tolerance.
pub(crate) fn supporting_plane(positions: &[Vec3], face: &[usize], n: Vec3) -> Plane {
    let d = face.iter().map(|&v| n.dot(positions[v])).fold(f32::NEG_INFINITY, f32::max);
    Plane { n, d }
}

/// Unique edges and, for each, its two faces.
pub(crate) type EdgeLists = (Vec<[usize; 2]>, Vec<[usize; 2]>);

/// Unique edges of closed polygons (in order of first appearance) and each edge's two faces.
pub(crate) fn edges_of_polygons(faces: &[Vec<usize>]) -> Result<EdgeLists, HullError> {
    let mut index = std::collections::HashMap::new();
    let mut edges = Vec::new();
    let mut owners: Vec<Vec<usize>> = Vec::new();
    for (fi, f) in faces.iter().enumerate() {
        for k in 0..f.len() {
            let (a, b) = (f[k], f[(k + 1) % f.len()]);
            let key = (a.min(b), a.max(b));
            let e = *index.entry(key).or_insert_with(|| {
                edges.push([a, b]);
                owners.push(Vec::new());
                edges.len() - 1
            });
            owners[e].push(fi);
        }
    }
    let mut edge_faces = Vec::with_capacity(edges.len());
    for (e, o) in owners.iter().enumerate() {
        if o.len() != 2 {
            return Err(HullError::NotClosed { a: edges[e][0], b: edges[e][1], faces: o.len() });
        }
        edge_faces.push([o[0], o[1]]);
    }
    Ok((edges, edge_faces))
}

/// `face` re-ordered counter-clockwise about `n`, starting at `face[0]`.
fn sort_counter_clockwise(positions: &[Vec3], face: &[usize], n: Vec3) -> Vec<usize> {
    let c = face.iter().map(|&i| positions[i].as_dvec3()).sum::<DVec3>() / face.len() as f64;
    let n = n.as_dvec3();
    let u = (positions[face[0]].as_dvec3() - c).normalize_or_zero();
    let w = n.cross(u);
    let angle = |i: usize| {
        let d = positions[i].as_dvec3() - c;
        let a = d.dot(w).atan2(d.dot(u));
        if a < -1e-12 {
            a + std::f64::consts::TAU
        } else {
            a.max(0.0)
        }
    };
    let mut rest: Vec<(f64, usize)> = face[1..].iter().map(|&i| (angle(i), i)).collect();
    rest.sort_by(|x, y| x.0.total_cmp(&y.0));
    std::iter::once(face[0]).chain(rest.into_iter().map(|(_, i)| i)).collect()
}
