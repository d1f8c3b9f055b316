//! Rigid hull bodies: kind, pose (a unit quaternion), velocities, material, and mass, centre of
//! mass and inertia tensor computed exactly from the hull ([`super::mass`]). As in the 2D
//! engine, the pose places the hull's own frame (the body origin) and the solver moves the
//! centre of mass.

use super::mass::{body_mass_properties, MassError};
use crate::engine::hull3d::{Hull, Pose3};
use crate::engine::BodyKind;
use glam::{Mat3, Quat, Vec3};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Everything needed to create a body.
#[derive(Clone, Debug)]
pub struct BodyDef3 {
    pub name: String,
    pub kind: BodyKind,
    /// The hull in the body frame (shared between bodies of the same shape).
    pub hull: Arc<Hull>,
    /// Position of the body origin (the hull's frame), not of the centre of mass.
    pub position: Vec3,
    pub rotation: Quat,
    /// Velocity of the centre of mass, m/s.
    pub linear_velocity: Vec3,
    /// World-frame angular velocity, rad/s.
    pub angular_velocity: Vec3,
    /// kg/m³ (water is 1000).
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    /// Implicit damping rates, 1/s.
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    /// A constant world-frame force at the centre of mass (N) and torque (N·m), applied every
    /// step: how a scene drives a body.
    pub force: Vec3,
    pub torque: Vec3,
}

impl BodyDef3 {
    pub fn new(kind: BodyKind, hull: impl Into<Arc<Hull>>, position: Vec3) -> BodyDef3 {
        BodyDef3 {
            name: String::new(),
            kind,
            hull: hull.into(),
            position,
            rotation: Quat::IDENTITY,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            density: 1000.0,
            friction: 0.6,
            restitution: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
        }
    }
}

/// Why a body could not be created.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BodyError3 {
    #[error("{0}")]
    Mass(#[from] MassError),
    #[error("`{field}` must be finite{extra}")]
    Invalid { field: &'static str, extra: &'static str },
}

/// A rigid body with a convex hull.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body3 {
    pub name: String,
    pub kind: BodyKind,
    pub hull: Arc<Hull>,
    /// The body origin (the hull's frame) in the world.
    pub pose: Pose3,
    /// Centre of mass in the body frame and in the world.
    pub local_center: Vec3,
    pub center: Vec3,
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    pub force: Vec3,
    pub torque: Vec3,
    /// The hull's volume (m³) and mass (kg; computed for every kind, used by dynamic bodies).
    pub volume: f32,
    pub mass: f32,
    /// `1 / mass` for dynamic bodies, 0 otherwise.
    pub inv_mass: f32,
    /// Inertia tensor about the centre of mass, in body axes, and its inverse (0 unless dynamic).
    pub inertia_local: Mat3,
    pub inv_inertia_local: Mat3,
    /// The hull's bounding box in the body frame.
    pub local_bounds: [Vec3; 2],
    /// Centre of mass and rotation at the start of the current step.
    pub(crate) center0: Vec3,
    pub(crate) q0: Quat,
}

impl Body3 {
    /// A body from `def`; rejects non-finite input, a non-positive density and hulls with no
    /// volume. Mass and inertia are floored and capped ([`body_mass_properties`]).
    pub fn new(def: &BodyDef3) -> Result<Body3, BodyError3> {
        let vectors = [
            ("position", def.position),
            ("linear_velocity", def.linear_velocity),
            ("angular_velocity", def.angular_velocity),
            ("force", def.force),
            ("torque", def.torque),
        ];
        for (field, v) in vectors {
            if !v.is_finite() {
                return Err(BodyError3::Invalid { field, extra: "" });
            }
        }
        let scalars = [
            ("friction", def.friction),
            ("restitution", def.restitution),
            ("linear_damping", def.linear_damping),
            ("angular_damping", def.angular_damping),
        ];
        for (field, v) in scalars {
            if !(v.is_finite() && v >= 0.0) {
                return Err(BodyError3::Invalid { field, extra: " and >= 0" });
            }
        }
        if !def.gravity_scale.is_finite() {
            return Err(BodyError3::Invalid { field: "gravity_scale", extra: "" });
        }
        let rotation = def.rotation;
        if !rotation.is_finite() || rotation.length_squared() < 1e-12 {
            return Err(BodyError3::Invalid { field: "rotation", extra: " and non-zero" });
        }
        let (mp, inv_inertia) = body_mass_properties(&def.hull, def.density)?;
        let dynamic = def.kind == BodyKind::Dynamic;
        let pose = Pose3::new(def.position, rotation.normalize());
        let center = pose.transform_point(mp.center);
        let still = def.kind == BodyKind::Static;
        let points = def.hull.positions();
        let bounds = points.iter().fold([Vec3::INFINITY, Vec3::NEG_INFINITY], |[lo, hi], p| [lo.min(*p), hi.max(*p)]);
        Ok(Body3 {
            name: def.name.clone(),
            kind: def.kind,
            hull: def.hull.clone(),
            pose,
            local_center: mp.center,
            center,
            linear_velocity: if still { Vec3::ZERO } else { def.linear_velocity },
            angular_velocity: if still { Vec3::ZERO } else { def.angular_velocity },
            density: def.density,
            friction: def.friction,
            restitution: def.restitution,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            force: def.force,
            torque: def.torque,
            volume: mp.volume,
            mass: mp.mass,
            inv_mass: if dynamic { 1.0 / mp.mass } else { 0.0 },
            inertia_local: mp.inertia,
            inv_inertia_local: if dynamic { inv_inertia } else { Mat3::ZERO },
            local_bounds: bounds,
            center0: center,
            q0: pose.q,
        })
    }

    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }

    pub fn rotation(&self) -> Quat {
        self.pose.q
    }

    /// Places the body origin at `position` with `rotation`.
    pub fn set_pose(&mut self, position: Vec3, rotation: Quat) {
        self.pose = Pose3::new(position, rotation.normalize());
        self.center = self.pose.transform_point(self.local_center);
        self.center0 = self.center;
        self.q0 = self.pose.q;
    }

    /// Recomputes the origin from the centre of mass and rotation.
    pub(crate) fn sync_pose(&mut self) {
        self.pose.p = self.center - self.pose.q * self.local_center;
    }

    /// Inverse inertia tensor in world axes, `R I⁻¹ Rᵀ`.
    pub fn inv_inertia_world(&self) -> Mat3 {
        let r = Mat3::from_quat(self.pose.q);
        r * self.inv_inertia_local * r.transpose()
    }

    /// Inertia tensor in world axes, `R I Rᵀ`.
    pub fn inertia_world(&self) -> Mat3 {
        let r = Mat3::from_quat(self.pose.q);
        r * self.inertia_local * r.transpose()
    }

    /// Angular momentum about the centre of mass, `I ω` (world axes).
    pub fn angular_momentum(&self) -> Vec3 {
        self.inertia_world() * self.angular_velocity
    }

    pub fn kinetic_energy(&self) -> f32 {
        if !self.is_dynamic() {
            return 0.0;
        }
        0.5 * self.mass * self.linear_velocity.length_squared()
            + 0.5 * self.angular_velocity.dot(self.inertia_world() * self.angular_velocity)
    }

    /// Velocity of the world point `p` attached to the body.
    pub fn velocity_at(&self, p: Vec3) -> Vec3 {
        self.linear_velocity + self.angular_velocity.cross(p - self.center)
    }

    /// World bounding box, grown by `margin`.
    pub fn world_bounds(&self, margin: f32) -> [Vec3; 2] {
        let [lo, hi] = self.local_bounds;
        let (c, h) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        let r = Mat3::from_quat(self.pose.q);
        let abs = Mat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
        let (wc, wh) = (self.pose.transform_point(c), abs * h + Vec3::splat(margin));
        [wc - wh, wc + wh]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;

    #[test]
    fn a_cube_gets_its_mass_and_world_tensor() {
        let mut def = BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::new(1.0, 2.0, 3.0));
        def.rotation = Quat::from_rotation_z(0.7);
        let b = Body3::new(&def).unwrap();
        assert!((b.mass - 1000.0).abs() < 1e-2 && (b.center - def.position).length() < 1e-6);
        // A cube's tensor is isotropic, so turning it changes nothing.
        let i = b.inertia_world();
        assert!((i.x_axis.x - 1000.0 / 6.0).abs() < 1e-2 && i.x_axis.y.abs() < 1e-3);
        let [lo, hi] = b.world_bounds(0.0);
        let half = 0.5 * (0.7f32.cos() + 0.7f32.sin());
        assert!((hi.x - lo.x - 2.0 * half).abs() < 1e-5 && (hi.z - lo.z - 1.0).abs() < 1e-5);
    }

    #[test]
    fn bad_definitions_are_rejected() {
        let mut def = BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::ZERO);
        def.linear_velocity.x = f32::NAN;
        assert!(matches!(Body3::new(&def), Err(BodyError3::Invalid { field: "linear_velocity", .. })));
        let mut def = BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::ZERO);
        def.density = -1.0;
        assert!(matches!(Body3::new(&def), Err(BodyError3::Mass(MassError::BadDensity(_)))));
        let flat = shapes::cuboid(Vec3::new(1e3, 1e3, 1e-4));
        assert!(Body3::new(&BodyDef3::new(BodyKind::Dynamic, flat, Vec3::ZERO)).is_err());
    }
}
