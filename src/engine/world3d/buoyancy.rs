//! Polyhedral buoyancy (article 003, "Buoyancy, Rigid Bodies and Water Surface"; Catto,
//! "Exact Buoyancy for Polyhedra", Game Programming Gems 6): the hull is cut by the local water
//! plane; every face is clipped to its part below the plane, and tetrahedra from a reference
//! point **on the plane** to those polygons give the submerged volume and its centroid exactly
//! (the cap on the plane adds tetrahedra of zero volume, so it is not needed for the sums). The
//! buoyant force `−ρ V g` acts at that centroid (the centre of buoyancy); drag opposes the
//! velocity relative to the water (the waves' orbital velocity at the centre of buoyancy) and
//! the spin, in proportion to the submerged fraction.

use super::body::Body3;
use super::displace::riding_plane;
use super::height_field::HeightField3;
use super::mass::TetraSums;
use super::water::Water3;
use crate::engine::hull3d::{Hull, Plane, Pose3};
use glam::{DVec3, Vec3};
use serde::{Deserialize, Serialize};

/// The part of a hull below a plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Submerged {
    /// m³ (0 when the hull is entirely above the plane).
    pub volume: f32,
    /// Centre of the submerged volume (the centre of buoyancy), world.
    pub centroid: Vec3,
    /// The cut of the hull by the plane (the waterline polygon), world, counter-clockwise about
    /// the plane normal; empty unless the plane crosses the hull.
    pub waterline: Vec<Vec3>,
}

/// The part of `hull`, placed by `pose`, below `plane` (`plane.distance(p) < 0`).
pub fn submerged_part(hull: &Hull, pose: &Pose3, plane: &Plane) -> Submerged {
    // The plane in the hull's frame: (Rᵀ n)·x = d − n·p.
    let n = (pose.q.inverse() * plane.n).as_dvec3();
    let d = plane.d as f64 - plane.n.dot(pose.p) as f64;
    let pts: Vec<DVec3> = hull.positions().iter().map(|p| p.as_dvec3()).collect();
    let dist: Vec<f64> = pts.iter().map(|p| n.dot(*p) - d).collect();
    if dist.iter().all(|&s| s >= 0.0) {
        return Submerged { centroid: pose.transform_point(hull.centroid()), ..Submerged::default() };
    }
    let c = hull.centroid().as_dvec3();
    let reference = c - n * (n.dot(c) - d);
    let mut sums = TetraSums::new(reference);
    let mut poly = Vec::with_capacity(16);
    for face in hull.faces() {
        poly.clear();
        for k in 0..face.len() {
            let (i, j) = (face[k], face[(k + 1) % face.len()]);
            if dist[i] <= 0.0 {
                poly.push(pts[i]);
            }
            if (dist[i] < 0.0 && dist[j] > 0.0) || (dist[i] > 0.0 && dist[j] < 0.0) {
                poly.push(pts[i] + (pts[j] - pts[i]) * (dist[i] / (dist[i] - dist[j])));
            }
        }
        sums.add_polygon(&poly, false);
    }
    let volume = sums.volume.max(0.0);
    let centroid = if volume > 0.0 { sums.centroid() } else { reference };
    Submerged {
        volume: volume as f32,
        centroid: pose.transform_point(centroid.as_vec3()),
        waterline: waterline(hull, &pts, &dist, n).into_iter().map(|p| pose.transform_point(p.as_vec3())).collect(),
    }
}

/// The part of a body of several hulls below `plane`: the sum of its hulls' submerged parts
/// (their volumes add; the centre of buoyancy is their volume-weighted centroid, so the one
/// force `−ρ V g` there has the torque of the hulls' forces at their own centroids), the
/// waterline of each hull the plane crosses, one after another.
pub fn submerged_parts(body: &Body3, pose: &Pose3, plane: &Plane) -> Submerged {
    let parts: Vec<Submerged> = body.hulls().map(|h| submerged_part(h, pose, plane)).collect();
    let volume: f32 = parts.iter().map(|s| s.volume).sum();
    let centroid = if volume > 0.0 {
        parts.iter().map(|s| s.centroid * s.volume).sum::<Vec3>() / volume
    } else {
        pose.transform_point(body.local_center)
    };
    Submerged { volume, centroid, waterline: parts.into_iter().flat_map(|s| s.waterline).collect() }
}

/// The crossing points of the hull's edges with the plane, ordered around their mean.
fn waterline(hull: &Hull, pts: &[DVec3], dist: &[f64], n: DVec3) -> Vec<DVec3> {
    let mut cut: Vec<DVec3> = Vec::new();
    for &[i, j] in hull.edges() {
        if (dist[i] < 0.0 && dist[j] > 0.0) || (dist[i] > 0.0 && dist[j] < 0.0) {
            cut.push(pts[i] + (pts[j] - pts[i]) * (dist[i] / (dist[i] - dist[j])));
        }
    }
    for (p, &s) in pts.iter().zip(dist) {
        if s == 0.0 {
            cut.push(*p);
        }
    }
    if cut.len() < 3 {
        return Vec::new();
    }
    let mean = cut.iter().copied().sum::<DVec3>() / cut.len() as f64;
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    cut.sort_by(|a, b| {
        let (pa, pb) = (*a - mean, *b - mean);
        pa.dot(v).atan2(pa.dot(u)).total_cmp(&pb.dot(v).atan2(pb.dot(u)))
    });
    cut.dedup_by(|a, b| a.distance_squared(*b) < 1e-18);
    cut
}

/// One body's buoyancy in one basin, for drawing and reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuoyancyRecord {
    pub body: usize,
    pub water: usize,
    /// The local water plane used.
    pub plane: Plane,
    pub submerged: Submerged,
    /// `−ρ V g`, applied at `submerged.centroid`.
    pub buoyant_force: Vec3,
    /// Linear drag (at the centre of mass) and angular drag.
    pub drag_force: Vec3,
    pub drag_torque: Vec3,
}

impl BuoyancyRecord {
    /// Total force and torque about the body's centre of mass `center`.
    pub fn force_and_torque(&self, center: Vec3) -> (Vec3, Vec3) {
        let torque = (self.submerged.centroid - center).cross(self.buoyant_force) + self.drag_torque;
        (self.buoyant_force + self.drag_force, torque)
    }
}

/// Buoyancy and drag on `body` at pose `pose` (centre of mass `center`), moving with `v`, `w`,
/// in `water` at time `t`; `None` when it is out of the basin or above the surface. A
/// simulated surface (`field`) gives the plane fitted under the body
/// ([`super::displace::riding_plane`]) and the columns' vertical velocity as the water's.
#[allow(clippy::too_many_arguments)]
pub fn buoyancy(
    body: &Body3,
    index: usize,
    pose: &Pose3,
    center: Vec3,
    (v, w): (Vec3, Vec3),
    (water, field, water_index): (&Water3, Option<&HeightField3>, usize),
    t: f64,
    gravity: Vec3,
) -> Option<BuoyancyRecord> {
    if !water.covers(center) {
        return None;
    }
    let plane = match field {
        Some(f) => riding_plane(f, body, pose),
        None => water.local_plane(center, t, gravity.length()),
    };
    let submerged = if body.parts.is_empty() {
        submerged_part(&body.hull, pose, &plane)
    } else {
        submerged_parts(body, pose, &plane)
    };
    if submerged.volume <= 0.0 {
        return None;
    }
    let fraction = (submerged.volume / body.volume).min(1.0);
    let buoyant_force = -water.density * submerged.volume * gravity;
    let c = submerged.centroid;
    let flow = match field {
        Some(f) => Vec3::Y * f.velocity_at(c.x, c.z),
        None => water.velocity(c, t, gravity.length()),
    };
    let drag_force = -water.linear_drag * fraction * body.mass * (v - flow);
    let r = glam::Mat3::from_quat(pose.q);
    let inertia = r * body.inertia_local * r.transpose();
    let drag_torque = -water.angular_drag * fraction * (inertia * w);
    Some(BuoyancyRecord { body: index, water: water_index, plane, submerged, buoyant_force, drag_force, drag_torque })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;
    use glam::Quat;

    #[test]
    fn a_hull_above_or_below_the_plane() {
        let cube = shapes::cube(0.5);
        let above = submerged_part(&cube, &Pose3::from_translation(Vec3::Y * 3.0), &Plane { n: Vec3::Y, d: 0.0 });
        assert_eq!(above.volume, 0.0);
        let below = submerged_part(&cube, &Pose3::from_translation(Vec3::Y * -3.0), &Plane { n: Vec3::Y, d: 0.0 });
        assert!((below.volume - 1.0).abs() < 1e-6 && (below.centroid - Vec3::Y * -3.0).length() < 1e-5);
        assert!(below.waterline.is_empty());
    }

    #[test]
    fn a_tilted_plane_cuts_a_hull_through_its_centre_in_half() {
        let hull = shapes::icosahedron(1.0);
        let pose = Pose3::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_x(0.4));
        let n = Vec3::new(0.3, 1.0, -0.2).normalize();
        let s = submerged_part(&hull, &pose, &Plane::from_point_normal(pose.p, n));
        let full = super::super::mass::hull_volume(&hull) as f32;
        assert!((s.volume - 0.5 * full).abs() < 1e-5 * full, "{} of {full}", s.volume);
        assert!(n.dot(s.centroid - pose.p) < -0.1, "the centre of buoyancy is below the plane");
        assert!(s.waterline.len() >= 5 && s.waterline.iter().all(|p| n.dot(*p - pose.p).abs() < 1e-5));
    }
}
