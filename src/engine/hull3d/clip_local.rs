//! The contact manifold of [`super::clip`] for posed hulls, as a world needs it: computed in the
//! reference hull's frame (only the incident face is moved), reduced to at most four points
//! (the deepest, the farthest from it, the largest triangle on each side), each point tagged
//! with a **feature id** naming the features it comes from, so a solver can match points across
//! steps and warm start them (Box2D's `b2ContactID`; Gregorius, "Robust Contact Creation for
//! Physics Simulations", GDC 2015).
//!
//! Ids: a face contact's base id names the reference side and face and the incident face; an
//! incident vertex adds its index; a point made by clipping the incident edge `p q` against side
//! plane `k` adds `k` and the ids of `p` and `q`. An edge contact's id names both edges. Points
//! sit midway between the two surfaces; `separation` is negative when penetrating.

use super::clip::{reduce_point_indices, ManifoldPoint3};
use super::hull::{Hull, Plane};
use super::lines::closest_points_between_lines;
use super::pose::Pose3;
use super::sat::{ContactKind, HullContact};
use super::HullSide;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Most points a manifold keeps.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// One contact point with its feature id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FeaturePoint {
    /// World position, midway between the two hulls' surfaces.
    pub position: Vec3,
    /// Signed distance between the surfaces along the normal (negative = penetration).
    pub separation: f32,
    pub id: u64,
}

/// Up to four points sharing one normal (world, from A to B).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FeatureManifold {
    pub normal: Vec3,
    pub points: Vec<FeaturePoint>,
    /// `(owner, face)` of the reference and incident faces (face contacts).
    pub reference: Option<(HullSide, usize)>,
    pub incident: Option<(HullSide, usize)>,
}

/// A 64-bit mix (SplitMix64's finalizer) for combining feature ids.
#[inline]
pub fn mix_id(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_add(a << 6).wrapping_add(a >> 2);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const TAG_FACE: u64 = 0xFACE;
const TAG_EDGE: u64 = 0xED6E;
const TAG_CLIP: u64 = 0xC11F;
const TAG_SUPPORT: u64 = 0x5A99;

/// The manifold of posed hulls `a`, `b` for the SAT result `contact`; points farther apart than
/// `margin` are dropped (speculative contacts keep points up to `margin`).
pub fn contact_manifold_posed(
    a: &Hull,
    xa: &Pose3,
    b: &Hull,
    xb: &Pose3,
    contact: &HullContact,
    margin: f32,
) -> FeatureManifold {
    let normal = contact.normal;
    let (ref_hull, ref_pose, inc_hull, inc_pose, ref_face, side) =
        match (contact.kind, contact.face_a.face, contact.face_b.face) {
            (ContactKind::FaceA, Some(f), _) => (a, xa, b, xb, f, HullSide::A),
            (ContactKind::FaceB, _, Some(f)) => (b, xb, a, xa, f, HullSide::B),
            _ => return edge_manifold(a, xa, b, xb, contact),
        };
    let other = if side == HullSide::A { HullSide::B } else { HullSide::A };
    let rel = ref_pose.inv_mul(inc_pose);
    let n = ref_hull.normals[ref_face];
    // The incident face: the most anti-parallel to the reference normal (in the incident frame).
    let n_inc = rel.q.inverse() * n;
    let inc_face = (0..inc_hull.normals.len())
        .min_by(|&i, &j| inc_hull.normals[i].dot(n_inc).total_cmp(&inc_hull.normals[j].dot(n_inc)))
        .unwrap_or(0);
    let base = mix_id(mix_id(TAG_FACE, (side as u64) << 32 | ref_face as u64), inc_face as u64);
    let mut poly: Vec<(Vec3, u64)> = inc_hull.faces[inc_face]
        .iter()
        .map(|&v| (rel.transform_point(inc_hull.positions[v]), mix_id(base, v as u64)))
        .collect();
    let mut next = Vec::with_capacity(poly.len() + 8);
    let r = &ref_hull.faces[ref_face];
    for k in 0..r.len() {
        let (p, q) = (ref_hull.positions[r[k]], ref_hull.positions[r[(k + 1) % r.len()]]);
        let plane = Plane::from_point_normal(p, (q - p).cross(n).normalize_or_zero());
        clip_with_ids(&poly, &plane, mix_id(base ^ TAG_CLIP, k as u64), &mut next);
        std::mem::swap(&mut poly, &mut next);
    }
    let reference = ref_hull.planes[ref_face];
    let below: Vec<(ManifoldPoint3, u64)> = poly
        .iter()
        .map(|&(p, id)| (ManifoldPoint3 { position: p, separation: reference.distance(p) }, id))
        .filter(|(m, _)| m.separation <= margin)
        .collect();
    let mut out = FeatureManifold {
        normal,
        points: Vec::with_capacity(MAX_MANIFOLD_POINTS),
        reference: Some((side, ref_face)),
        incident: Some((other, inc_face)),
    };
    if below.is_empty() {
        // Rounding left nothing: the SAT's own point (a support vertex) stands in.
        let id = mix_id(base ^ TAG_SUPPORT, 0);
        out.points.push(FeaturePoint { position: contact.point, separation: contact.separation, id });
        return out;
    }
    let plain: Vec<ManifoldPoint3> = below.iter().map(|(m, _)| *m).collect();
    for i in reduce_point_indices(&plain, n) {
        let (m, id) = below[i];
        let mid = m.position - n * (0.5 * m.separation);
        out.points.push(FeaturePoint { position: ref_pose.transform_point(mid), separation: m.separation, id });
    }
    out
}

/// Sutherland–Hodgman against one plane, keeping ids: a crossing point's id mixes the plane's
/// `tag` with the ids of the edge's two ends (in either order).
fn clip_with_ids(poly: &[(Vec3, u64)], plane: &Plane, tag: u64, out: &mut Vec<(Vec3, u64)>) {
    out.clear();
    for k in 0..poly.len() {
        let ((p, ip), (q, iq)) = (poly[k], poly[(k + 1) % poly.len()]);
        let (dp, dq) = (plane.distance(p), plane.distance(q));
        if dp <= 0.0 {
            out.push((p, ip));
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            let id = mix_id(mix_id(tag, ip.min(iq)), ip.max(iq));
            out.push((p + (q - p) * (dp / (dp - dq)), id));
        }
    }
}

/// One point midway between the closest points of the two edges' lines.
fn edge_manifold(a: &Hull, xa: &Pose3, b: &Hull, xb: &Pose3, contact: &HullContact) -> FeatureManifold {
    let [i, j] = contact.edges.index.unwrap_or([0, 0]);
    let [a0, a1] = a.edge_segment(i.min(a.edges.len().saturating_sub(1)));
    let [b0, b1] = b.edge_segment(j.min(b.edges.len().saturating_sub(1)));
    let (a0, a1, b0, b1) =
        (xa.transform_point(a0), xa.transform_point(a1), xb.transform_point(b0), xb.transform_point(b1));
    let position =
        closest_points_between_lines(a0, a1, b0, b1, 1e-6).map_or(contact.point, |(_, _, pa, pb)| 0.5 * (pa + pb));
    let id = mix_id(TAG_EDGE, (i as u64) << 32 | j as u64);
    FeatureManifold {
        normal: contact.normal,
        points: vec![FeaturePoint { position, separation: contact.separation, id }],
        reference: None,
        incident: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::sat_local::collide_posed;
    use crate::engine::hull3d::{shapes, SatConfig};
    use glam::Quat;

    #[test]
    fn box_on_box_gives_four_points_with_stable_ids() {
        let ground = shapes::cuboid(Vec3::new(5.0, 0.5, 5.0));
        let cube = shapes::cube(0.5);
        let xg = Pose3::from_translation(Vec3::new(0.0, -0.5, 0.0));
        let manifold = |y: f32, turn: f32| {
            let xc = Pose3::new(Vec3::new(0.3, y, -0.2), Quat::from_rotation_y(turn));
            let c = collide_posed(&ground, &xg, &cube, &xc, &SatConfig::FAST).unwrap();
            contact_manifold_posed(&ground, &xg, &cube, &xc, &c, 0.0)
        };
        let m = manifold(0.49, 0.3);
        assert_eq!(m.points.len(), 4);
        assert!((m.normal - Vec3::Y).length() < 1e-5);
        for p in &m.points {
            assert!((p.separation + 0.01).abs() < 1e-5 && (p.position.y + 0.005).abs() < 1e-5, "{p:?}");
        }
        // A little lower and turned a hair: the same features, the same ids.
        let m2 = manifold(0.485, 0.301);
        let ids = |m: &FeatureManifold| {
            let mut v: Vec<u64> = m.points.iter().map(|p| p.id).collect();
            v.sort();
            v
        };
        assert_eq!(ids(&m), ids(&m2));
        assert_eq!(ids(&m).windows(2).filter(|w| w[0] == w[1]).count(), 0, "ids are distinct");
    }

    #[test]
    fn a_clipped_face_gives_at_most_four_points() {
        // A 12-gon prism lying on a box face: its 12-sided cap is clipped to the box's face.
        let base = shapes::cuboid(Vec3::new(0.4, 0.4, 0.4));
        let prism = shapes::prism(12, 0.5, 0.3);
        let xp = Pose3::new(Vec3::new(0.1, 0.0, 0.68), Quat::IDENTITY);
        let c = collide_posed(&base, &Pose3::IDENTITY, &prism, &xp, &SatConfig::FAST).unwrap();
        let m = contact_manifold_posed(&base, &Pose3::IDENTITY, &prism, &xp, &c, 0.0);
        assert_eq!(m.points.len(), MAX_MANIFOLD_POINTS);
        assert!(m.points.iter().all(|p| p.position.x.abs() <= 0.4 + 1e-5 && p.position.y.abs() <= 0.4 + 1e-5));
    }
}
