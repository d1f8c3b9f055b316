//! Rigid hull bodies: kind, pose (a unit quaternion), velocities, material, and mass, centre of
//! mass and inertia tensor computed exactly from the hull ([`super::mass`]). As in the 2D
//! engine, the pose places the hull's own frame (the body origin) and the solver moves the
//! centre of mass.

use super::compound::{combined_bounds, combined_mass, local_bounds, Part3, MAX_HULLS};
use super::mass::{body_mass_properties, MassError};
use crate::engine::hull3d::{shapes, Hull, Pose3};
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
    /// The hulls of a body of several (multi-part bodies, [`super::compound`]); empty for a
    /// body of one `hull`. When given, `hull` is the first part's placed hull and the body's
    /// own density, friction and restitution are not used.
    pub parts: Vec<Part3>,
}

impl BodyDef3 {
    /// A body of several hulls, each placed in the body frame with its own material (with no
    /// parts, a body of one half-metre cube; scene files refuse an empty list before this).
    pub fn compound(kind: BodyKind, parts: Vec<Part3>, position: Vec3) -> BodyDef3 {
        let first = parts.first().map_or_else(|| Arc::new(shapes::cube(0.5)), |p| p.placed.clone());
        BodyDef3 { parts, ..BodyDef3::new(kind, first, position) }
    }

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
            parts: Vec::new(),
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
    #[error("a body holds 1 to {MAX_HULLS} hulls, got {0}")]
    HullCount(usize),
    #[error("hull {part}: `{field}` must be finite{extra}")]
    InvalidPart { part: usize, field: &'static str, extra: &'static str },
    #[error("{which} has {vertices} vertices, more than the {MAX_HULL_VERTICES} a 3D world's hull may have")]
    TooManyVertices { which: String, vertices: usize },
}

/// Vertices a hull of a 3D world body may have, at most (each of its hulls). Past
/// [`crate::engine::hull3d::accel::HILL_CLIMB_MIN_VERTICES`] (also 128) the SAT finds supports
/// by hill climbing and no longer bounds the edge pairs by every vertex, and a pair costs about
/// 25 times more: 300 coincident hulls of 160 vertices took 11 s a step, of 256 vertices 27 s,
/// against 0.44 s at 128. The hull lab, which runs one pair, takes hulls of up to 4,096 points.
pub const MAX_HULL_VERTICES: usize = 128;

/// The first hull of `def` with more than [`MAX_HULL_VERTICES`] vertices.
fn check_vertices(def: &BodyDef3) -> Result<(), BodyError3> {
    let hulls: Vec<&Hull> =
        if def.parts.is_empty() { vec![&def.hull] } else { def.parts.iter().map(|p| &*p.hull).collect() };
    match hulls.iter().position(|h| h.positions().len() > MAX_HULL_VERTICES) {
        None => Ok(()),
        Some(k) => Err(BodyError3::TooManyVertices {
            which: if def.parts.is_empty() { "the hull".into() } else { format!("hull {k}") },
            vertices: hulls[k].positions().len(),
        }),
    }
}

/// A rigid body with a convex hull.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body3 {
    pub name: String,
    pub kind: BodyKind,
    /// The hull (a multi-part body's first hull, placed in the body frame; every hull of a
    /// body: [`Body3::hull_at`]).
    pub hull: Arc<Hull>,
    /// The hulls of a body of several ([`super::compound`]); empty for a body of one hull.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part3>,
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
        check_vertices(def)?;
        let (mp, inv_inertia) = if def.parts.is_empty() {
            body_mass_properties(&def.hull, def.density)?
        } else {
            checked_parts(&def.parts)?
        };
        let dynamic = def.kind == BodyKind::Dynamic;
        let pose = Pose3::new(def.position, rotation.normalize());
        let center = pose.transform_point(mp.center);
        let still = def.kind == BodyKind::Static;
        let bounds = if def.parts.is_empty() { local_bounds(&def.hull) } else { combined_bounds(&def.parts) };
        Ok(Body3 {
            name: def.name.clone(),
            kind: def.kind,
            hull: def.parts.first().map_or_else(|| def.hull.clone(), |p| p.placed.clone()),
            parts: def.parts.clone(),
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

    /// The pose at the start of the current step, where the step found its contacts: the
    /// origin recomputed from the step's starting centre of mass and rotation as the step
    /// before placed it (bit for bit after a first step; before it, the pose as created).
    pub fn start_pose(&self) -> Pose3 {
        Pose3::new(self.center0 - self.q0 * self.local_center, self.q0)
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
        posed_box(self.local_bounds, &self.pose, margin)
    }

    /// How many hulls the body holds (1 for a body of one hull).
    #[inline]
    pub fn hull_count(&self) -> usize {
        self.parts.len().max(1)
    }

    /// Hull `k` in the body frame (placed by [`Body3::pose`] like a single hull).
    #[inline]
    pub fn hull_at(&self, k: usize) -> &Hull {
        if self.parts.is_empty() {
            &self.hull
        } else {
            &self.parts[k].placed
        }
    }

    /// Every hull of the body in the body frame.
    pub fn hulls(&self) -> impl Iterator<Item = &Hull> + '_ {
        (0..self.hull_count()).map(|k| self.hull_at(k))
    }

    /// Friction and restitution of hull `k`.
    #[inline]
    pub fn material_at(&self, k: usize) -> (f32, f32) {
        match self.parts.get(k) {
            Some(p) => (p.friction, p.restitution),
            None => (self.friction, self.restitution),
        }
    }

    /// World bounding box of hull `k`, grown by `margin`.
    pub fn hull_bounds(&self, k: usize, margin: f32) -> [Vec3; 2] {
        match self.parts.get(k) {
            Some(p) => posed_box(p.bounds, &self.pose, margin),
            None => self.world_bounds(margin),
        }
    }
}

/// The world box around the local box `[lo, hi]` placed by `pose`, grown by `margin`.
pub(crate) fn posed_box([lo, hi]: [Vec3; 2], pose: &Pose3, margin: f32) -> [Vec3; 2] {
    let (c, h) = (0.5 * (lo + hi), 0.5 * (hi - lo));
    let r = Mat3::from_quat(pose.q);
    let abs = Mat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
    let (wc, wh) = (pose.transform_point(c), abs * h + Vec3::splat(margin));
    [wc - wh, wc + wh]
}

/// A multi-part body's parts checked ([`Part3::invalid_field`], at most [`MAX_HULLS`]) and
/// their combined mass properties.
fn checked_parts(parts: &[Part3]) -> Result<(super::mass::MassProperties3, Mat3), BodyError3> {
    if parts.len() > MAX_HULLS {
        return Err(BodyError3::HullCount(parts.len()));
    }
    if let Some((part, (field, extra))) = parts.iter().enumerate().find_map(|(k, p)| p.invalid_field().map(|f| (k, f)))
    {
        return Err(BodyError3::InvalidPart { part, field, extra });
    }
    Ok(combined_mass(parts)?)
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
        // More vertices than a world's SAT is bounded for: refused, one more or one fewer.
        let round = |sides| shapes::prism(sides, 1.0, 0.5);
        assert!(Body3::new(&BodyDef3::new(BodyKind::Dynamic, round(64), Vec3::ZERO)).is_ok());
        let too_many = Body3::new(&BodyDef3::new(BodyKind::Static, round(65), Vec3::ZERO));
        assert!(matches!(too_many, Err(BodyError3::TooManyVertices { vertices: 130, .. })), "{too_many:?}");
    }
}
