//! From a parsed 3D world file to a [`World3`], and back to RON text.

use super::fields::FORMAT_VERSION;
use super::world3d::{Body3Spec, Joint3Spec, WaterSpec, World3dScene};
use crate::engine::world3d::{BodyDef3, Joint3, Water3, World3, World3Params};
use glam::{EulerRot, Quat};
use std::sync::Arc;

impl WaterSpec {
    /// The engine's basin.
    pub fn to_water(&self) -> Water3 {
        Water3 {
            name: self.name.clone(),
            level: self.level,
            density: self.density,
            region: self.region,
            waves: self.waves.clone(),
            linear_drag: self.linear_drag,
            angular_drag: self.angular_drag,
            surface: self.surface,
        }
    }
}

impl Body3Spec {
    /// `Rx(x) · Ry(y) · Rz(z)` from `euler_degrees`.
    pub fn rotation(&self) -> Quat {
        euler(self.euler_degrees)
    }

    /// The engine definition. A body with neither `shape` nor `shapes` (refused while parsing)
    /// gets a half-metre cube.
    pub fn to_def(&self) -> BodyDef3 {
        let parts: Vec<_> = self.shapes.iter().flatten().map(|p| p.to_part()).collect();
        let hull = match (&self.shape, parts.first()) {
            (_, Some(first)) => first.placed.clone(),
            (Some(shape), None) => Arc::new(shape.hull().clone()),
            (None, None) => Arc::new(crate::engine::hull3d::shapes::cube(0.5)),
        };
        BodyDef3 {
            name: self.name.clone(),
            kind: self.kind,
            hull,
            parts,
            position: self.position,
            rotation: self.rotation(),
            linear_velocity: self.linear_velocity,
            angular_velocity: self.angular_velocity,
            density: self.density,
            friction: self.friction,
            restitution: self.restitution,
            linear_damping: self.linear_damping,
            angular_damping: self.angular_damping,
            gravity_scale: self.gravity_scale,
            force: self.force,
            torque: self.torque,
        }
    }
}

/// Euler angles in degrees, `Rx(x) · Ry(y) · Rz(z)`.
pub(crate) fn euler(d: glam::Vec3) -> Quat {
    Quat::from_euler(EulerRot::XYZ, d.x.to_radians(), d.y.to_radians(), d.z.to_radians())
}

impl World3dScene {
    /// An empty 3D world with default settings.
    pub fn new(name: &str) -> World3dScene {
        World3dScene {
            version: FORMAT_VERSION,
            name: name.to_string(),
            description: String::new(),
            settings: World3Params::default(),
            camera: None,
            water: Vec::new(),
            bodies: Vec::new(),
            joints: Vec::new(),
        }
    }

    /// The world this file describes. Files are checked while parsing, so this fails only for a
    /// scene built in code with bad values; the message names the body or joint.
    pub fn build_world(&self) -> Result<World3, String> {
        self.settings.validate()?;
        let mut world = World3::new(self.settings.clone());
        for (k, w) in self.water.iter().enumerate() {
            let water = w.to_water();
            water.validate().map_err(|e| format!("water {k}: {e}"))?;
            world.add_water(water);
        }
        for (k, b) in self.bodies.iter().enumerate() {
            world.create_body(&b.to_def()).map_err(|e| format!("body {k} {:?}: {e}", b.name))?;
        }
        for (k, j) in self.joints.iter().enumerate() {
            let (a, b) = j.bodies();
            let (name, hertz, damping_ratio, collide_connected) = j.options();
            let label = if name.is_empty() { format!("joint {k}") } else { name.to_string() };
            let bodies = &world.bodies;
            let made = match j {
                Joint3Spec::Ball { anchor, .. } => vec![(label, Joint3::ball(bodies, a.index, b.index, *anchor))],
                Joint3Spec::Orientation { basis_euler_degrees, max_torque, .. } => {
                    let basis = euler(*basis_euler_degrees);
                    vec![(label, Joint3::orientation(bodies, a.index, b.index, basis, *max_torque))]
                }
                Joint3Spec::Weld { anchor, basis_euler_degrees, max_torque, .. } => {
                    let basis = euler(*basis_euler_degrees);
                    vec![
                        (format!("{label}.ball"), Joint3::ball(bodies, a.index, b.index, *anchor)),
                        (
                            format!("{label}.orientation"),
                            Joint3::orientation(bodies, a.index, b.index, basis, *max_torque),
                        ),
                    ]
                }
            };
            for (name, mut joint) in made {
                (joint.name, joint.hertz, joint.damping_ratio, joint.collide_connected) =
                    (name, hertz, damping_ratio, collide_connected);
                world.add_joint(joint).map_err(|e| format!("joint {k}: {e}"))?;
            }
        }
        Ok(world)
    }
}
