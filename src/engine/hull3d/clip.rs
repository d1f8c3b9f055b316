//! A full contact manifold from the hull SAT, beyond article 001's single point (its follow-up
//! "calculate the contact manifold"; seed 003, "Dynamically Slicing Shapes" and OBB clipping):
//! for a face contact, the incident face (the other hull's face most anti-parallel to the
//! reference face) is clipped by Sutherland–Hodgman against the reference face's side planes;
//! the points below the reference face are kept and reduced to at most four (deepest, farthest
//! from it, then the largest triangle on each side). Edge contacts give the article's one point.
//! Every step can be recorded ([`ClipTrace3`], the `engine::trace` protocol; `None` compiles
//! the recording out) and replayed by `clip_trace`.

use super::clip_trace::{ClipStep3, ClipTrace3, ReduceStep};
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

/// The contact manifold for an overlapping pair (`contact` from [`super::sat::collide_with`]),
/// recording every step into `trace` when given (emptied first; `None` records nothing).
pub fn contact_manifold(a: &Hull, b: &Hull, contact: &HullContact, trace: Option<&mut ClipTrace3>) -> ContactManifold3 {
    match trace {
        Some(t) => {
            t.steps.clear();
            contact_manifold_recorded(a, b, contact, t)
        }
        None => contact_manifold_recorded(a, b, contact, &mut NoTrace),
    }
}

/// [`contact_manifold`] generic over its recorder (the `engine::trace` protocol): the reference
/// and incident faces, then [`clip_faces_recorded`] and [`reduce_point_indices_recorded`].
pub fn contact_manifold_recorded<R: Recorder<ClipStep3>>(
    a: &Hull,
    b: &Hull,
    contact: &HullContact,
    rec: &mut R,
) -> ContactManifold3 {
    let the_point = ManifoldPoint3 { position: contact.point, separation: contact.separation };
    let single =
        |reference, incident| ContactManifold3 { normal: contact.normal, points: vec![the_point], reference, incident };
    let (ref_hull, inc_hull, ref_face, side) = match (contact.kind, contact.face_a.face, contact.face_b.face) {
        (ContactKind::FaceA, Some(f), _) => (a, b, f, HullSide::A),
        (ContactKind::FaceB, _, Some(f)) => (b, a, f, HullSide::B),
        _ => {
            if R::ENABLED {
                rec.record(ClipStep3::EdgeContact(the_point));
            }
            return single(None, None);
        }
    };
    let other = if side == HullSide::A { HullSide::B } else { HullSide::A };
    let inc_face = find_incident_face(inc_hull, ref_hull.normals[ref_face]);
    if R::ENABLED {
        let normal = ref_hull.normals[ref_face];
        let polygon = ref_hull.face_polygon(ref_face);
        rec.record(ClipStep3::ReferenceFace { owner: side, face: ref_face, polygon, normal });
        let (polygon, dot) = (inc_hull.face_polygon(inc_face), inc_hull.normals[inc_face].dot(normal));
        rec.record(ClipStep3::IncidentFace { owner: other, face: inc_face, polygon, dot });
    }
    let points = clip_faces_recorded(ref_hull, ref_face, inc_hull, inc_face, rec);
    if points.is_empty() {
        if R::ENABLED {
            rec.record(ClipStep3::Fallback(the_point));
        }
        return single(Some((side, ref_face)), Some((other, inc_face)));
    }
    let normal = contact.normal;
    let keep = reduce_point_indices_recorded(&points, normal, rec);
    ContactManifold3 {
        normal,
        points: keep.into_iter().map(|i| points[i]).collect(),
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

/// Clips the incident polygon against the reference face's side planes and keeps the points
/// behind (or on) the reference face (article 000: "only consider points that are behind the
/// reference face").
pub fn clip_faces(ref_hull: &Hull, ref_face: usize, inc_hull: &Hull, inc_face: usize) -> Vec<ManifoldPoint3> {
    clip_faces_recorded(ref_hull, ref_face, inc_hull, inc_face, &mut NoTrace)
}

/// [`clip_faces`] generic over its recorder (the `engine::trace` protocol): records each side
/// plane with the polygon before and after it, then the points kept and rejected.
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
    for k in 0..r.len() {
        let (p, q) = (ref_hull.positions[r[k]], ref_hull.positions[r[(k + 1) % r.len()]]);
        let plane = Plane::from_point_normal(p, (q - p).cross(n).normalize_or_zero());
        clip_polygon_to_plane_into(&poly, &plane, &mut next);
        std::mem::swap(&mut poly, &mut next);
        if R::ENABLED {
            // `next` now holds the polygon before this plane.
            rec.record(ClipStep3::SidePlane { k, edge: [p, q], plane, before: next.clone(), after: poly.clone() });
        }
    }
    let reference = ref_hull.planes[ref_face];
    let below: Vec<ManifoldPoint3> = poly
        .iter()
        .map(|&p| ManifoldPoint3 { position: p, separation: reference.distance(p) })
        .filter(|m| m.separation <= 0.0)
        .collect();
    if R::ENABLED {
        let rejected = poly
            .iter()
            .map(|&p| ManifoldPoint3 { position: p, separation: reference.distance(p) })
            .filter(|m| m.separation > 0.0 || m.separation.is_nan())
            .collect();
        rec.record(ClipStep3::Classify { kept: below.clone(), rejected });
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
    reduce_point_indices_recorded(points, normal, &mut NoTrace)
}

/// [`reduce_point_indices`] generic over its recorder: each choice as a [`ReduceStep`]. Ties go
/// to the first point in polygon order (strict `>`).
pub fn reduce_point_indices_recorded<R: Recorder<ClipStep3>>(
    points: &[ManifoldPoint3],
    normal: Vec3,
    rec: &mut R,
) -> Vec<usize> {
    if points.len() <= 4 {
        let keep: Vec<usize> = (0..points.len()).collect();
        if R::ENABLED {
            rec.record(ClipStep3::Reduce(ReduceStep::Kept(keep.clone())));
        }
        return keep;
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
    let (d1, i1) = arg_max(&|p| p.position.distance_squared(p0));
    let p1 = points[i1].position;
    let area = |p: &ManifoldPoint3| (p1 - p0).cross(p.position - p0).dot(normal);
    let (a2, i2) = arg_max(&|p| area(p));
    let (a3, i3) = arg_max(&|p| -area(p));
    // A polygon order: the deepest, the positive-area point, the farthest, the negative-area one.
    let mut keep = vec![i0];
    let mut added = [false; 3];
    for (slot, (ok, i)) in [(a2 > 0.0, i2), (true, i1), (a3 > 0.0, i3)].into_iter().enumerate() {
        if ok && !keep.contains(&i) {
            keep.push(i);
            added[slot] = true;
        }
    }
    if R::ENABLED {
        rec.record(ClipStep3::Reduce(ReduceStep::Deepest { index: i0 }));
        rec.record(ClipStep3::Reduce(ReduceStep::Farthest { index: i1, distance: d1.sqrt() }));
        for (index, positive, area, kept) in [(i2, true, a2, added[0]), (i3, false, -a3, added[2])] {
            rec.record(ClipStep3::Reduce(ReduceStep::LargestTriangle { index, positive, area, kept }));
        }
        rec.record(ClipStep3::Reduce(ReduceStep::Kept(keep.clone())));
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
