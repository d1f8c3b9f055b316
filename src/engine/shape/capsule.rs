//! Capsules: a segment `center1`–`center2` swept by a disk (Box2D v3's `b2Capsule`), with
//! Box2D's mass (`b2ComputeCapsuleMass`), bounding box, point test (`b2PointInCapsule`) and
//! ray cast (`b2RayCastCapsule`).

use super::ray::{ray_cast_circle, CastOutput, RayCastInput};
use super::{hull::MAX_COORDINATE, MassData, MIN_EXTENT};
use crate::engine::math::{Aabb, Transform};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A capsule in its body's frame: the segment `center1`–`center2` swept by a disk of `radius`.
/// Both the radius and the segment length are at least [`MIN_EXTENT`] (a zero-length capsule
/// is a circle; the manifolds need a segment direction).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capsule {
    pub center1: Vec2,
    pub center2: Vec2,
    pub radius: f32,
}

impl Capsule {
    /// A validated capsule; the message names what is wrong.
    pub fn new(center1: Vec2, center2: Vec2, radius: f32) -> Result<Capsule, String> {
        let finite = |p: Vec2| p.is_finite() && p.abs().max_element() < MAX_COORDINATE;
        if !finite(center1) || !finite(center2) {
            return Err(format!(
                "capsule centres must be finite and within 1e5, got ({}, {}) and ({}, {})",
                center1.x, center1.y, center2.x, center2.y
            ));
        }
        if !(MIN_EXTENT..MAX_COORDINATE).contains(&radius) {
            return Err(format!("capsule radius must be finite and between {MIN_EXTENT} and 1e5, got {radius}"));
        }
        let length = (center2 - center1).length();
        if length < MIN_EXTENT {
            return Err(format!(
                "capsule segment length must be at least {MIN_EXTENT}, got {length} (centres ({}, {}) and ({}, {})); \
                 use a Circle for a round body",
                center1.x, center1.y, center2.x, center2.y
            ));
        }
        Ok(Capsule { center1, center2, radius })
    }

    /// A capsule along the local x axis, centred on the origin: the segment runs from
    /// `(−half_length, 0)` to `(half_length, 0)`.
    pub fn horizontal(half_length: f32, radius: f32) -> Result<Capsule, String> {
        Capsule::new(Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0), radius)
    }

    /// Length of the core segment.
    pub fn length(&self) -> f32 {
        (self.center2 - self.center1).length()
    }

    /// Box2D's `b2ComputeCapsuleMass`: a box of `2r × length` plus two half disks, each
    /// shifted to its end with the parallel-axis theorem (semicircle centroid `4r / 3π`).
    pub fn mass_data(&self, density: f32) -> MassData {
        let (r, length) = (self.radius, self.length());
        let circle_area = std::f32::consts::PI * r * r;
        let box_area = 2.0 * r * length;
        let circle_mass = density * circle_area;
        let box_mass = density * box_area;
        let lc = 4.0 * r / (3.0 * std::f32::consts::PI);
        let h = 0.5 * length;
        let circle_inertia = circle_mass * (0.5 * r * r + h * h + 2.0 * h * lc);
        let box_inertia = box_mass * (4.0 * r * r + length * length) / 12.0;
        MassData {
            mass: circle_mass + box_mass,
            center: 0.5 * (self.center1 + self.center2),
            inertia: circle_inertia + box_inertia,
            area: circle_area + box_area,
        }
    }

    /// The segment's end points in world space.
    pub fn world_centers(&self, xf: &Transform) -> (Vec2, Vec2) {
        (xf.apply(self.center1), xf.apply(self.center2))
    }

    pub fn compute_aabb(&self, xf: &Transform) -> Aabb {
        let (p1, p2) = self.world_centers(xf);
        let r = Vec2::splat(self.radius);
        Aabb::new(p1.min(p2) - r, p1.max(p2) + r)
    }

    /// Box2D's `b2PointInCapsule`: within `radius` of the closest point of the segment.
    pub fn test_point(&self, local: Vec2) -> bool {
        let d = self.center2 - self.center1;
        let t = ((local - self.center1).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        let c = self.center1 + t * d;
        local.distance_squared(c) <= self.radius * self.radius
    }

    /// Box2D's `b2RayCastCapsule`, in world space: the ray against the two side lines of the
    /// infinite capsule, falling back to the end circles when it passes beyond the segment.
    pub fn ray_cast(&self, xf: &Transform, input: &RayCastInput) -> Option<CastOutput> {
        let (v1, v2) = self.world_centers(xf);
        let radius = self.radius;
        let e = v2 - v1;
        let capsule_length = e.length();
        let a = e / capsule_length;
        let q = input.origin - v1;
        let qa = q.dot(a);
        let qp = q - qa * a;
        if qp.length_squared() < radius * radius {
            // The ray starts within the infinite capsule.
            if qa < 0.0 {
                return ray_cast_circle(v1, radius, input);
            }
            if qa > capsule_length {
                return ray_cast_circle(v2, radius, input);
            }
            return Some(CastOutput { point: input.origin, normal: Vec2::ZERO, fraction: 0.0 });
        }
        let ray_length = input.translation.length();
        if ray_length == 0.0 || !ray_length.is_finite() {
            return None;
        }
        let u = input.translation / ray_length;
        let mut n = Vec2::new(a.y, -a.x);
        // Cramer's rule on [a −u].
        let den = -a.x * u.y + u.x * a.y;
        if den.abs() < f32::EPSILON {
            return None; // parallel and outside the infinite capsule
        }
        let b1 = q - radius * n;
        let b2 = q + radius * n;
        let inv_den = 1.0 / den;
        let s21 = (a.x * b1.y - b1.x * a.y) * inv_den;
        let s22 = (a.x * b2.y - b2.x * a.y) * inv_den;
        let (s2, b) = if s21 < s22 {
            (s21, b1)
        } else {
            n = -n;
            (s22, b2)
        };
        if s2 < 0.0 || input.max_fraction * ray_length < s2 {
            return None;
        }
        let s1 = (-b.x * u.y + u.x * b.y) * inv_den;
        if s1 < 0.0 {
            ray_cast_circle(v1, radius, input)
        } else if capsule_length < s1 {
            ray_cast_circle(v2, radius, input)
        } else {
            let point = v1 + (s1 / capsule_length) * e + radius * n;
            Some(CastOutput { point, normal: n, fraction: s2 / ray_length })
        }
    }

    /// A convex outline (both end caps as half circles of `segments` pieces), for drawing.
    pub fn outline(&self, xf: &Transform, segments: usize) -> Vec<Vec2> {
        let (p1, p2) = self.world_centers(xf);
        let axis = (p2 - p1).normalize_or_zero();
        let base = axis.y.atan2(axis.x);
        let segments = segments.max(2);
        let mut out = Vec::with_capacity(2 * segments + 2);
        for (center, start) in [(p2, base - std::f32::consts::FRAC_PI_2), (p1, base + std::f32::consts::FRAC_PI_2)] {
            for k in 0..=segments {
                let t = start + std::f32::consts::PI * k as f32 / segments as f32;
                out.push(center + self.radius * Vec2::from_angle(t));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_capsules_are_rejected() {
        assert!(Capsule::new(Vec2::ZERO, Vec2::X, 0.2).is_ok());
        let e = Capsule::new(Vec2::ZERO, Vec2::ZERO, 0.2).unwrap_err();
        assert!(e.contains("segment length") && e.contains("Circle"), "{e}");
        assert!(Capsule::new(Vec2::ZERO, Vec2::X, 0.0).unwrap_err().contains("radius"));
        assert!(Capsule::new(Vec2::ZERO, Vec2::X, f32::NAN).is_err());
        assert!(Capsule::new(Vec2::new(f32::NAN, 0.0), Vec2::X, 0.2).is_err());
        assert!(Capsule::horizontal(-0.001, 0.2).is_err());
    }

    #[test]
    fn mass_matches_area_and_inertia_limits() {
        // A capsule of tiny radius is a thin rod: I = m L² / 12.
        let rod = Capsule::horizontal(1.0, 0.006).unwrap().mass_data(1.0);
        assert!((rod.inertia - rod.mass * 4.0 / 12.0).abs() < 0.02 * rod.inertia);
        // Area is a 2r × L box plus a disk; the centre is the midpoint.
        let c = Capsule::new(Vec2::new(1.0, 2.0), Vec2::new(3.0, 2.0), 0.5).unwrap();
        let m = c.mass_data(2.0);
        assert!((m.area - (2.0 * 0.5 * 2.0 + std::f32::consts::PI * 0.25)).abs() < 1e-5);
        assert!((m.mass - 2.0 * m.area).abs() < 1e-4);
        assert_eq!(m.center, Vec2::new(2.0, 2.0));
    }

    #[test]
    fn points_aabb_and_rays() {
        let c = Capsule::horizontal(1.0, 0.5).unwrap();
        let xf = Transform::new(Vec2::new(2.0, 0.0), std::f32::consts::FRAC_PI_2);
        let bb = c.compute_aabb(&xf);
        assert!((bb.min - Vec2::new(1.5, -1.5)).length() < 1e-5 && (bb.max - Vec2::new(2.5, 1.5)).length() < 1e-5);
        assert!(c.test_point(Vec2::new(1.4, 0.0)) && !c.test_point(Vec2::new(1.4, 0.4)));
        // A ray from the left hits the side at x = 1.5 (the capsule stands upright at x = 2).
        let hit = c.ray_cast(&xf, &RayCastInput::new(Vec2::new(-2.0, 0.3), Vec2::new(10.0, 0.0))).unwrap();
        assert!((hit.point - Vec2::new(1.5, 0.3)).length() < 1e-5 && (hit.normal - Vec2::NEG_X).length() < 1e-5);
        // Over the top it meets the end cap.
        let hit = c.ray_cast(&xf, &RayCastInput::new(Vec2::new(2.0, 5.0), Vec2::new(0.0, -10.0))).unwrap();
        assert!((hit.point - Vec2::new(2.0, 1.5)).length() < 1e-5);
        assert!(c.ray_cast(&xf, &RayCastInput::new(Vec2::new(-2.0, 3.0), Vec2::new(10.0, 0.0))).is_none());
    }
}
