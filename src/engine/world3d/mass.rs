//! Volume, centre of mass and inertia tensor of a convex hull, exact for polyhedra, by
//! tetrahedral decomposition: every face is fanned into triangles, each triangle makes a
//! tetrahedron with a reference point, and the tetrahedra's signed volumes, first moments and
//! covariance matrices add up to the solid's (Blow & Binstock, "How to find the inertia tensor
//! (or other mass properties) of a 3D solid body represented by a triangle mesh", 2004; the
//! same integrals as Mirtich 1996 and Eberly, "Polyhedral Mass Properties (Revisited)", 2002).
//! The covariance of the tetrahedron `(0, e₀, e₁, e₂)` is `det(E) · E C Eᵀ` with the canonical
//! `C = [[2,1,1],[1,2,1],[1,1,2]] / 120`; the inertia about the centre of mass is
//! `tr(C′)·𝟙 − C′` with `C′ = C − V c cᵀ`. Sums are in f64 about a point inside the hull, so
//! nothing cancels catastrophically.

use crate::engine::hull3d::Hull;
use glam::{DMat3, DVec3, Mat3, Vec3};
use serde::{Deserialize, Serialize};

/// Mass properties in the hull's local frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MassProperties3 {
    pub volume: f32,
    pub mass: f32,
    /// Centre of mass (the centroid of the solid).
    pub center: Vec3,
    /// Inertia tensor about `center`, in the hull's axes.
    pub inertia: Mat3,
}

/// Why mass properties could not be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MassError {
    #[error(
        "the hull is flat: its volume {volume:.3e} m³ is below {limit:.3e} (a millionth of its bounding radius cubed)"
    )]
    NoVolume { volume: f64, limit: f64 },
    #[error("density must be a finite number > 0, got {0}")]
    BadDensity(f32),
}

/// Running sums of tetrahedra `(reference, p₀, p₁, p₂)`: signed volume, first moment and
/// covariance about the reference point.
#[derive(Clone, Copy, Debug)]
pub struct TetraSums {
    pub reference: DVec3,
    pub volume: f64,
    pub moment: DVec3,
    pub covariance: DMat3,
}

impl TetraSums {
    pub fn new(reference: DVec3) -> TetraSums {
        TetraSums { reference, volume: 0.0, moment: DVec3::ZERO, covariance: DMat3::ZERO }
    }

    /// Adds the tetrahedron on triangle `p0 p1 p2` (counter-clockwise seen from outside).
    #[inline]
    pub fn add_triangle(&mut self, p0: DVec3, p1: DVec3, p2: DVec3, with_covariance: bool) {
        let (e0, e1, e2) = (p0 - self.reference, p1 - self.reference, p2 - self.reference);
        let det = e0.dot(e1.cross(e2));
        self.volume += det / 6.0;
        self.moment += (det / 24.0) * (e0 + e1 + e2);
        if with_covariance {
            let e = DMat3::from_cols(e0, e1, e2);
            let canonical = DMat3::from_cols_array(&[2.0, 1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 2.0]) / 120.0;
            self.covariance += e * canonical * e.transpose() * det;
        }
    }

    /// Adds a convex polygon (counter-clockwise seen from outside), fanned from its first point.
    pub fn add_polygon(&mut self, points: &[DVec3], with_covariance: bool) {
        for k in 1..points.len().saturating_sub(1) {
            self.add_triangle(points[0], points[k], points[k + 1], with_covariance);
        }
    }

    /// The centroid of the summed solid (the reference point if it has no volume).
    pub fn centroid(&self) -> DVec3 {
        if self.volume.abs() > 0.0 {
            self.reference + self.moment / self.volume
        } else {
            self.reference
        }
    }
}

/// The summed tetrahedra of `hull`'s faces about its vertex average.
pub fn hull_sums(hull: &Hull, with_covariance: bool) -> TetraSums {
    let mut sums = TetraSums::new(hull.centroid().as_dvec3());
    let mut poly = Vec::with_capacity(16);
    for face in hull.faces() {
        poly.clear();
        poly.extend(face.iter().map(|&v| hull.positions()[v].as_dvec3()));
        sums.add_polygon(&poly, with_covariance);
    }
    sums
}

/// Volume of `hull`.
pub fn hull_volume(hull: &Hull) -> f64 {
    hull_sums(hull, false).volume
}

/// Mass floor and cap of a body, kg: a lighter or heavier hull gets this mass, its inertia
/// scaled alike (as if its density were raised or lowered), so `1 / mass` and the inverse
/// inertia stay far inside f32 whatever a body is built with (1e-30 kg/m³ or 1e30 kg/m³, a
/// hull a micrometre wide). The 3D world format's ranges never reach them.
pub const MIN_MASS: f32 = 1.0e-6;
pub const MAX_MASS: f32 = 1.0e20;
/// Inertia floor, kg·m²: every principal moment of a body is at least this (Gershgorin's bound
/// on the smallest eigenvalue, topped up on the diagonal when below it).
pub const MIN_INERTIA: f32 = 1.0e-12;

/// Mass properties of `hull` filled with `density`. Rejects a hull whose volume is below
/// 1e-6 of its bounding radius cubed: thinner than about a millionth of its size, it is flat
/// within f32 precision and its inertia is noise.
pub fn mass_properties(hull: &Hull, density: f32) -> Result<MassProperties3, MassError> {
    let (volume, center, unit) = unit_properties(hull, density)?;
    Ok(MassProperties3 {
        volume: volume as f32,
        mass: (volume * density as f64) as f32,
        center: center.as_vec3(),
        inertia: (unit * density as f64).as_mat3(),
    })
}

/// A body's mass properties: [`mass_properties`] with the mass brought into
/// [[`MIN_MASS`], [`MAX_MASS`]], the principal moments at least [`MIN_INERTIA`], and the inverse
/// inertia (inverted in f64, so a tiny tensor does not underflow f32's determinant).
pub fn body_mass_properties(hull: &Hull, density: f32) -> Result<(MassProperties3, Mat3), MassError> {
    let (volume, center, unit) = unit_properties(hull, density)?;
    let raw = volume * density as f64;
    let mass = raw.clamp(MIN_MASS as f64, MAX_MASS as f64);
    let effective_density = if mass == raw { density as f64 } else { mass / volume };
    Ok(floored(volume, mass, center, unit * effective_density))
}

/// The properties with the inertia floor ([`floor_inertia`]) and the inverse inertia.
fn floored(volume: f64, mass: f64, center: DVec3, mut inertia: DMat3) -> (MassProperties3, Mat3) {
    floor_inertia(&mut inertia);
    let props = MassProperties3 {
        volume: volume as f32,
        mass: mass as f32,
        center: center.as_vec3(),
        inertia: inertia.as_mat3(),
    };
    (props, inertia.inverse().as_mat3())
}

/// Tops up the diagonal so every principal moment is at least [`MIN_INERTIA`] (Gershgorin's
/// bound on the smallest eigenvalue).
fn floor_inertia(inertia: &mut DMat3) {
    let smallest = (0..3)
        .map(|i| {
            let row = inertia.row(i);
            2.0 * row[i] - row.abs().element_sum()
        })
        .fold(f64::INFINITY, f64::min);
    if smallest < MIN_INERTIA as f64 {
        *inertia += DMat3::from_diagonal(DVec3::splat(MIN_INERTIA as f64 - smallest));
    }
}

/// A body's mass properties from summed ones (a multi-part body's, `super::compound`): the
/// mass brought into [[`MIN_MASS`], [`MAX_MASS`]] with the inertia scaled alike, the inertia
/// floor, and the inverse inertia, as [`body_mass_properties`] does for one hull.
pub fn finish_body_mass(volume: f64, raw: f64, center: DVec3, raw_inertia: DMat3) -> (MassProperties3, Mat3) {
    let mass = raw.clamp(MIN_MASS as f64, MAX_MASS as f64);
    let inertia = if mass == raw { raw_inertia } else { raw_inertia * (mass / raw) };
    floored(volume, mass, center, inertia)
}

/// Volume, centre of mass and the inertia tensor per unit density, in f64.
pub(crate) fn unit_properties(hull: &Hull, density: f32) -> Result<(f64, DVec3, DMat3), MassError> {
    if !(density.is_finite() && density > 0.0) {
        return Err(MassError::BadDensity(density));
    }
    let sums = hull_sums(hull, true);
    let r = hull.radius() as f64;
    let limit = 1e-6 * r * r * r;
    if sums.volume.is_nan() || sums.volume <= limit || !sums.volume.is_finite() {
        return Err(MassError::NoVolume { volume: sums.volume, limit });
    }
    let c = sums.moment / sums.volume;
    // Covariance about the centre of mass: C − V c cᵀ (the reference is the origin of `c`).
    let outer = DMat3::from_cols(c * c.x, c * c.y, c * c.z);
    let cov = sums.covariance - outer * sums.volume;
    let trace = cov.x_axis.x + cov.y_axis.y + cov.z_axis.z;
    Ok((sums.volume, sums.reference + c, DMat3::from_diagonal(DVec3::splat(trace)) - cov))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::{shapes, Pose3};
    use glam::Quat;

    #[test]
    fn box_has_the_textbook_inertia() {
        let h = Vec3::new(0.5, 1.0, 1.5);
        let m = mass_properties(&shapes::cuboid(h), 2.0).unwrap();
        let (a, b, c) = (2.0 * h.x, 2.0 * h.y, 2.0 * h.z);
        let mass = 2.0 * a * b * c;
        assert!((m.volume - a * b * c).abs() < 1e-5 && (m.mass - mass).abs() < 1e-4);
        assert!(m.center.length() < 1e-6);
        let want = Vec3::new(b * b + c * c, a * a + c * c, a * a + b * b) * mass / 12.0;
        let got = Vec3::new(m.inertia.x_axis.x, m.inertia.y_axis.y, m.inertia.z_axis.z);
        assert!((got - want).abs().max_element() < 1e-4, "{got} {want}");
        assert!(m.inertia.x_axis.y.abs() < 1e-5 && m.inertia.x_axis.z.abs() < 1e-5);
    }

    #[test]
    fn moved_hull_moves_its_centre_and_turns_its_tensor() {
        let hull = shapes::random_hull(5, 30, 1.0).unwrap();
        let pose =
            Pose3::new(Vec3::new(3.0, -1.0, 2.0), Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 0.8));
        let (m0, m1) = (mass_properties(&hull, 1.0).unwrap(), mass_properties(&hull.transformed(&pose), 1.0).unwrap());
        assert!((m0.volume - m1.volume).abs() < 1e-5);
        assert!((pose.transform_point(m0.center) - m1.center).length() < 1e-5);
        let r = Mat3::from_quat(pose.q);
        let turned = r * m0.inertia * r.transpose();
        assert!((turned - m1.inertia).to_cols_array().iter().all(|d| d.abs() < 1e-5));
    }

    #[test]
    fn flat_or_bad_input_is_rejected() {
        assert!(matches!(mass_properties(&shapes::cube(1.0), 0.0), Err(MassError::BadDensity(_))));
        assert!(matches!(mass_properties(&shapes::cube(1.0), f32::NAN), Err(MassError::BadDensity(_))));
        // A slab thinner than f32 can tell apart from flat.
        let thin = shapes::cuboid(Vec3::new(1.0e3, 1.0e3, 1.0e-4));
        assert!(matches!(mass_properties(&thin, 1.0), Err(MassError::NoVolume { .. })));
    }
}
