//! A full contact manifold from the hull SAT, beyond article 001's single point (its follow-up
//! "calculate the contact manifold"; seed 003, "Dynamically Slicing Shapes" and OBB clipping):
//! for a face contact, the incident face (the other hull's face most anti-parallel to the
//! reference face) is clipped by Sutherland–Hodgman against the reference face's side planes;
//! the points below the reference face are kept and reduced to at most four (deepest, farthest
//! from it, then the largest triangle on each side). Edge contacts give the article's one point.

use super::hull::{Hull, Plane};
use super::sat::{ContactKind, HullContact};
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// One contact point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifoldPoint3 {
    /// On the incident face (for face contacts), or the article's edge point.
    pub position: Vec3,
    /// Signed distance below the reference face (≤ 0 when penetrating).
    pub separation: f32,
}

/// Which hull owns a face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HullSide {
    A,
    B,
}

/// Up to four contact points sharing one normal (from A to B).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContactManifold3 {
    pub normal: Vec3,
    pub points: Vec<ManifoldPoint3>,
    /// `(owner, face)` of the reference face, for face contacts.
    pub reference: Option<(HullSide, usize)>,
    /// `(owner, face)` of the incident face, for face contacts.
    pub incident: Option<(HullSide, usize)>,
}

/// The clipping steps, for drawing: side planes and the polygon after each of them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClipTrace3 {
    pub reference_polygon: Vec<Vec3>,
    pub incident_polygon: Vec<Vec3>,
    /// Side plane `k` contains reference edge `k` and faces outward.
    pub side_planes: Vec<Plane>,
    /// `clipped[k]`: the incident polygon after side planes `0..=k`.
    pub clipped: Vec<Vec<Vec3>>,
    /// The clipped points below the reference face, before reduction.
    pub below: Vec<ManifoldPoint3>,
}

/// The contact manifold for an overlapping pair (`contact` from [`super::sat::collide_with`]).
pub fn contact_manifold(a: &Hull, b: &Hull, contact: &HullContact, trace: Option<&mut ClipTrace3>) -> ContactManifold3 {
    let single = |reference, incident| ContactManifold3 {
        normal: contact.normal,
        points: vec![ManifoldPoint3 { position: contact.point, separation: contact.separation }],
        reference,
        incident,
    };
    let (ref_hull, inc_hull, ref_face, side) = match (contact.kind, contact.face_a.face, contact.face_b.face) {
        (ContactKind::FaceA, Some(f), _) => (a, b, f, HullSide::A),
        (ContactKind::FaceB, _, Some(f)) => (b, a, f, HullSide::B),
        _ => return single(None, None),
    };
    let other = if side == HullSide::A { HullSide::B } else { HullSide::A };
    let inc_face = find_incident_face(inc_hull, ref_hull.normals[ref_face]);
    let points = clip_faces(ref_hull, ref_face, inc_hull, inc_face, trace);
    if points.is_empty() {
        return single(Some((side, ref_face)), Some((other, inc_face)));
    }
    let normal = contact.normal;
    ContactManifold3 {
        normal,
        points: reduce_points(&points, normal),
        reference: Some((side, ref_face)),
        incident: Some((other, inc_face)),
    }
}

/// The face of `hull` whose normal is most anti-parallel to `n`.
pub fn find_incident_face(hull: &Hull, n: Vec3) -> usize {
    let mut best = (f32::INFINITY, 0);
    for (i, m) in hull.normals.iter().enumerate() {
        let d = m.dot(n);
        if d < best.0 {
            best = (d, i);
        }
    }
    best.1
}

/// What the clipping tells its [`Recorder`]: the two faces, the polygon after each side plane,
/// and the points kept below the reference face.
#[derive(Clone, Debug, PartialEq)]
pub enum ClipStep3 {
    Faces { reference: Vec<Vec3>, incident: Vec<Vec3> },
    SidePlane { plane: Plane, clipped: Vec<Vec3> },
    Below(Vec<ManifoldPoint3>),
}

impl Recorder<ClipStep3> for ClipTrace3 {
    const ENABLED: bool = true;
    fn record(&mut self, step: ClipStep3) {
        match step {
            ClipStep3::Faces { reference, incident } => {
                *self = ClipTrace3 { reference_polygon: reference, incident_polygon: incident, ..Default::default() }
            }
            ClipStep3::SidePlane { plane, clipped } => {
                self.side_planes.push(plane);
                self.clipped.push(clipped);
            }
            ClipStep3::Below(points) => self.below = points,
        }
    }
}

/// Clips the incident polygon against the reference face's side planes and keeps the points
/// below the reference face, recording every step into `trace` when given.
pub fn clip_faces(
    ref_hull: &Hull,
    ref_face: usize,
    inc_hull: &Hull,
    inc_face: usize,
    trace: Option<&mut ClipTrace3>,
) -> Vec<ManifoldPoint3> {
    match trace {
        Some(t) => clip_faces_recorded(ref_hull, ref_face, inc_hull, inc_face, t),
        None => clip_faces_recorded(ref_hull, ref_face, inc_hull, inc_face, &mut NoTrace),
    }
}

/// [`clip_faces`] generic over its recorder (the `engine::trace` protocol).
pub fn clip_faces_recorded<R: Recorder<ClipStep3>>(
    ref_hull: &Hull,
    ref_face: usize,
    inc_hull: &Hull,
    inc_face: usize,
    rec: &mut R,
) -> Vec<ManifoldPoint3> {
    let n = ref_hull.normals[ref_face];
    let r = &ref_hull.faces[ref_face];
    let mut poly: Vec<Vec3> = inc_hull.faces[inc_face].iter().map(|&v| inc_hull.positions[v]).collect();
    let mut next = Vec::with_capacity(poly.len() + r.len());
    if R::ENABLED {
        rec.record(ClipStep3::Faces { reference: ref_hull.face_polygon(ref_face), incident: poly.clone() });
    }
    for k in 0..r.len() {
        let (p, q) = (ref_hull.positions[r[k]], ref_hull.positions[r[(k + 1) % r.len()]]);
        let plane = Plane::from_point_normal(p, (q - p).cross(n).normalize_or_zero());
        clip_polygon_to_plane_into(&poly, &plane, &mut next);
        std::mem::swap(&mut poly, &mut next);
        if R::ENABLED {
            rec.record(ClipStep3::SidePlane { plane, clipped: poly.clone() });
        }
    }
    let reference = ref_hull.planes[ref_face];
    let below: Vec<ManifoldPoint3> = poly
        .iter()
        .map(|&p| ManifoldPoint3 { position: p, separation: reference.distance(p) })
        .filter(|m| m.separation <= 0.0)
        .collect();
    if R::ENABLED {
        rec.record(ClipStep3::Below(below.clone()));
    }
    below
}

/// Sutherland–Hodgman against one plane: keeps the part of the polygon with
/// `plane.distance(p) <= 0`, inserting the crossing points.
pub fn clip_polygon_to_plane(poly: &[Vec3], plane: &Plane) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    clip_polygon_to_plane_into(poly, plane, &mut out);
    out
}

/// [`clip_polygon_to_plane`] into a reused buffer (cleared first).
pub fn clip_polygon_to_plane_into(poly: &[Vec3], plane: &Plane, out: &mut Vec<Vec3>) {
    out.clear();
    for k in 0..poly.len() {
        let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
        let (dp, dq) = (plane.distance(p), plane.distance(q));
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
}

/// At most four of `points`: the deepest, the farthest from it, then the points making the
/// largest triangle with those two on either side (signed area about `normal`).
pub fn reduce_points(points: &[ManifoldPoint3], normal: Vec3) -> Vec<ManifoldPoint3> {
    reduce_point_indices(points, normal).into_iter().map(|i| points[i]).collect()
}

/// The indices [`reduce_points`] keeps, in polygon order (all of them when there are ≤ 4).
pub fn reduce_point_indices(points: &[ManifoldPoint3], normal: Vec3) -> Vec<usize> {
    if points.len() <= 4 {
        return (0..points.len()).collect();
    }
    let arg_max = |f: &dyn Fn(&ManifoldPoint3) -> f32| {
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, p) in points.iter().enumerate() {
            let v = f(p);
            if v > best.0 {
                best = (v, i);
            }
        }
        best
    };
    let (_, i0) = arg_max(&|p| -p.separation);
    let p0 = points[i0].position;
    let (_, i1) = arg_max(&|p| p.position.distance_squared(p0));
    let p1 = points[i1].position;
    let area = |p: &ManifoldPoint3| (p1 - p0).cross(p.position - p0).dot(normal);
    let (a2, i2) = arg_max(&|p| area(p));
    let (a3, i3) = arg_max(&|p| -area(p));
    // A polygon order: the deepest, the positive-area point, the farthest, the negative-area one.
    let mut keep = vec![i0];
    for (ok, i) in [(a2 > 0.0, i2), (true, i1), (a3 > 0.0, i3)] {
        if ok && !keep.contains(&i) {
            keep.push(i);
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_clipped_by_half_plane() {
        let sq = [
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(-1.0, 1.0, 0.0),
        ];
        let out = clip_polygon_to_plane(&sq, &Plane { n: Vec3::X, d: 0.5 });
        assert_eq!(out.len(), 4);
        assert!(out.iter().all(|p| p.x <= 0.5 + 1e-6));
        assert!(out.contains(&Vec3::new(0.5, -1.0, 0.0)) && out.contains(&Vec3::new(0.5, 1.0, 0.0)));
    }

    #[test]
    fn reduction_keeps_the_deepest_and_the_extremes() {
        let pts: Vec<ManifoldPoint3> = (0..8)
            .map(|k| {
                let t = std::f32::consts::TAU * k as f32 / 8.0;
                ManifoldPoint3 { position: Vec3::new(t.cos(), t.sin(), 0.0), separation: -0.1 - 0.01 * k as f32 }
            })
            .collect();
        let r = reduce_points(&pts, Vec3::Z);
        assert_eq!(r.len(), 4);
        assert_eq!(r[0], pts[7]);
        assert!(r.contains(&pts[3]), "the point opposite the deepest is the farthest");
    }
}
