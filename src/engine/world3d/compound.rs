//! Multi-part 3D bodies (003 article, "Architecture": "Some physics engines can attach multiple
//! shapes to a body, which are referred to as fixtures"; Box2D v3's model in 3D: a body owns
//! hulls, each with its own material, and contacts are between hulls). The 3D twin of
//! `engine::compound`.
//!
//! A body of one hull keeps it in `Body3::hull` at the body origin with the body's material, and
//! `Body3::parts` empty: the single-hull path reads nothing new. A body of several hulls lists
//! them all in `Body3::parts`, each a [`Part3`] with its local offset and rotation and its own
//! density, friction and restitution. Each part also keeps its hull **placed in the body frame**
//! (`placed`), so collision, drawing, picking and buoyancy pose it with the body's own pose, as
//! they do a single hull.
//!
//! Mass, centre of mass and inertia tensor combine by the parallel-axis theorem: each part's
//! mass `m_k`, centroid `c_k` and tensor `I_k` (about its centroid, in its own axes) give
//! `M = Σ m_k`, `C = Σ m_k d_k / M` with `d_k = offset_k + R_k c_k`, and
//! `I = Σ [R_k I_k R_kᵀ + m_k (|d_k − C|² 𝟙 − (d_k − C)(d_k − C)ᵀ)]`.

use super::mass::{finish_body_mass, unit_properties, MassError, MassProperties3};
use crate::engine::hull3d::{Hull, Pose3};
use glam::{DMat3, DVec3, Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Most hulls a body may hold (the same cap as a 2D body's shapes). A contact stores its two
/// hull indices in a byte each (`Contact3::parts`).
pub const MAX_HULLS: usize = crate::engine::compound::MAX_PARTS;

/// One hull of a multi-part body (the article's fixture).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part3 {
    /// The hull in its own frame, as the scene wrote it.
    pub hull: Arc<Hull>,
    /// Where the hull's frame sits in the body frame.
    pub offset: Vec3,
    pub rotation: Quat,
    /// kg/m³.
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    /// `hull` placed in the body frame by `offset` and `rotation`: what collision reads.
    pub placed: Arc<Hull>,
    /// `placed`'s bounding box in the body frame.
    pub bounds: [Vec3; 2],
}

impl Part3 {
    /// A hull at `offset` turned by `rotation` in the body frame, with the default material
    /// (density 1000 kg/m³, friction 0.6, restitution 0; a body's defaults).
    pub fn new(hull: impl Into<Arc<Hull>>, offset: Vec3, rotation: Quat) -> Part3 {
        let hull = hull.into();
        let rotation =
            if rotation.is_finite() && rotation.length_squared() > 1e-12 { rotation.normalize() } else { rotation };
        let placed = Arc::new(hull.transformed(&Pose3::new(offset, rotation)));
        let bounds = local_bounds(&placed);
        Part3 { hull, offset, rotation, density: 1000.0, friction: 0.6, restitution: 0.0, placed, bounds }
    }

    /// This part with `density`, `friction` and `restitution`.
    pub fn with_material(self, density: f32, friction: f32, restitution: f32) -> Part3 {
        Part3 { density, friction, restitution, ..self }
    }

    /// The hull's frame in the body frame.
    pub fn local(&self) -> Pose3 {
        Pose3::new(self.offset, self.rotation)
    }

    /// The first field that is not a finite number in its range, if any.
    pub fn invalid_field(&self) -> Option<(&'static str, &'static str)> {
        if !self.offset.is_finite() {
            return Some(("offset", ""));
        }
        if !self.rotation.is_finite() || self.rotation.length_squared() < 1e-12 {
            return Some(("rotation", " and non-zero"));
        }
        let material = [("friction", self.friction), ("restitution", self.restitution)];
        material.into_iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0)).map(|(f, _)| (f, " and >= 0"))
    }
}

/// The bounding box of `hull`'s vertices.
pub fn local_bounds(hull: &Hull) -> [Vec3; 2] {
    hull.positions().iter().fold([Vec3::INFINITY, Vec3::NEG_INFINITY], |[lo, hi], p| [lo.min(*p), hi.max(*p)])
}

/// The union of the parts' boxes (body frame).
pub fn combined_bounds(parts: &[Part3]) -> [Vec3; 2] {
    parts.iter().fold([Vec3::INFINITY, Vec3::NEG_INFINITY], |[lo, hi], p| [lo.min(p.bounds[0]), hi.max(p.bounds[1])])
}

/// The parts' combined mass properties in the body frame, summed in f64 by the parallel-axis
/// theorem (module docs), before the body's mass floor and cap.
pub fn combined_mass_raw(parts: &[Part3]) -> Result<(f64, f64, DVec3, DMat3), MassError> {
    let mut each = Vec::with_capacity(parts.len());
    for p in parts {
        let (volume, center, unit) = unit_properties(&p.hull, p.density)?;
        let rho = p.density as f64;
        let r = DMat3::from_quat(p.rotation.as_dquat());
        let d = p.offset.as_dvec3() + r * center;
        each.push((volume, volume * rho, d, r * (unit * rho) * r.transpose()));
    }
    let volume: f64 = each.iter().map(|e| e.0).sum();
    let mass: f64 = each.iter().map(|e| e.1).sum();
    let center = each.iter().map(|e| e.2 * e.1).sum::<DVec3>() / mass;
    let mut inertia = DMat3::ZERO;
    for &(_, m, d, own) in &each {
        let r = d - center;
        let outer = DMat3::from_cols(r * r.x, r * r.y, r * r.z);
        inertia += own + (DMat3::from_diagonal(DVec3::splat(r.length_squared())) - outer) * m;
    }
    Ok((volume, mass, center, inertia))
}

/// A multi-part body's mass properties and inverse inertia: [`combined_mass_raw`] with the mass
/// floor and cap and the inertia floor of a single hull's ([`super::mass::body_mass_properties`]).
pub fn combined_mass(parts: &[Part3]) -> Result<(MassProperties3, Mat3), MassError> {
    let (volume, mass, center, inertia) = combined_mass_raw(parts)?;
    Ok(finish_body_mass(volume, mass, center, inertia))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;

    fn cuboid(h: Vec3, offset: Vec3, density: f32) -> Part3 {
        Part3::new(shapes::cuboid(h), offset, Quat::IDENTITY).with_material(density, 0.6, 0.0)
    }

    /// Two cuboids by hand, density 1: A = 2×1×1 (half (1, 0.5, 0.5)) at the origin, m = 2;
    /// B = 1×1×1 at (2, 0, 0), m = 1. M = 3, C = (2/3, 0, 0). Own tensors m(b² + c²)/12 etc.:
    /// A = diag(1/3, 5/6, 5/6), B = diag(1/6, 1/6, 1/6). Offsets from C: A (−2/3, 0, 0),
    /// B (4/3, 0, 0), so I_xx gains nothing and I_yy = I_zz gain 2·4/9 + 1·16/9 = 8/3:
    /// I = diag(1/3 + 1/6, 5/6 + 1/6 + 8/3, same) = diag(1/2, 11/3, 11/3).
    #[test]
    fn two_cuboids_combine_by_the_parallel_axis_theorem() {
        let parts = [cuboid(Vec3::new(1.0, 0.5, 0.5), Vec3::ZERO, 1.0), cuboid(Vec3::splat(0.5), Vec3::X * 2.0, 1.0)];
        let (mp, inv) = combined_mass(&parts).unwrap();
        assert!((mp.mass - 3.0).abs() < 1e-6 && (mp.volume - 3.0).abs() < 1e-6);
        assert!((mp.center - Vec3::new(2.0 / 3.0, 0.0, 0.0)).length() < 1e-6, "{}", mp.center);
        let want = Mat3::from_diagonal(Vec3::new(0.5, 11.0 / 3.0, 11.0 / 3.0));
        let diff = (mp.inertia - want).to_cols_array();
        assert!(diff.iter().all(|d| d.abs() < 1e-5), "{:?}", mp.inertia);
        assert!(((inv * mp.inertia) - Mat3::IDENTITY).to_cols_array().iter().all(|d| d.abs() < 1e-5));
    }

    /// Off-diagonal terms: B at (1, 1, 0) instead gives −m d_x d_y products about C.
    /// M = 3, C = (1/3, 1/3, 0); A's offset (−1/3, −1/3, 0), B's (2/3, 2/3, 0):
    /// I_xy = −(2·1/9 + 1·4/9) = −2/3; I_zz = 5/12·2 + 1/6 + 2·2/9 + 1·8/9 = 1 + 4/3 = 7/3.
    #[test]
    fn a_diagonal_offset_gives_the_product_of_inertia() {
        let parts = [
            cuboid(Vec3::new(1.0, 0.5, 0.5), Vec3::ZERO, 1.0),
            cuboid(Vec3::splat(0.5), Vec3::new(1.0, 1.0, 0.0), 1.0),
        ];
        let (mp, _) = combined_mass(&parts).unwrap();
        assert!((mp.inertia.x_axis.y + 2.0 / 3.0).abs() < 1e-5, "{:?}", mp.inertia);
        assert!((mp.inertia.z_axis.z - 7.0 / 3.0).abs() < 1e-5, "{:?}", mp.inertia);
        assert!(mp.inertia.x_axis.z.abs() < 1e-6);
    }

    /// A turned part: a 2×1×1 cuboid turned 90° about z has its long side along y, its tensor
    /// `R I Rᵀ`, and its placed hull and box follow.
    #[test]
    fn a_turned_part_turns_its_tensor_and_box() {
        let q = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let p = Part3::new(shapes::cuboid(Vec3::new(1.0, 0.5, 0.5)), Vec3::new(0.0, 3.0, 0.0), q)
            .with_material(1.0, 0.6, 0.0);
        let (mp, _) = combined_mass(std::slice::from_ref(&p)).unwrap();
        let want = Vec3::new(10.0 / 12.0, 4.0 / 12.0, 10.0 / 12.0);
        let got = Vec3::new(mp.inertia.x_axis.x, mp.inertia.y_axis.y, mp.inertia.z_axis.z);
        assert!((got - want).abs().max_element() < 1e-5, "{got}");
        assert!((mp.center - Vec3::new(0.0, 3.0, 0.0)).length() < 1e-6);
        let [lo, hi] = p.bounds;
        assert!((lo - Vec3::new(-0.5, 2.0, -0.5)).length() < 1e-5 && (hi - Vec3::new(0.5, 4.0, 0.5)).length() < 1e-5);
    }

    /// One part at the origin has the hull's own mass properties.
    #[test]
    fn one_part_at_the_origin_is_the_hull() {
        let hull = shapes::random_hull(3, 20, 1.0).unwrap();
        let p = Part3::new(hull.clone(), Vec3::ZERO, Quat::IDENTITY).with_material(700.0, 0.6, 0.0);
        let (mp, _) = combined_mass(&[p]).unwrap();
        let own = super::super::mass::mass_properties(&hull, 700.0).unwrap();
        assert!((mp.mass - own.mass).abs() < 1e-3 * own.mass && (mp.center - own.center).length() < 1e-5);
        let diff = (mp.inertia - own.inertia).to_cols_array();
        assert!(diff.iter().all(|d| d.abs() < 1e-4 * own.mass), "{:?} {:?}", mp.inertia, own.inertia);
    }
}
