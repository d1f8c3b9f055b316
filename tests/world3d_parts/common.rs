//! Shared helpers for the 3D world tests.

use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::{shapes, Hull};
use manifold_lab::engine::world3d::{BodyDef3, World3, World3Params};
use manifold_lab::engine::BodyKind;

/// A world with a static ground slab whose top face is at y = 0.
pub fn world_with_ground(params: World3Params) -> World3 {
    let mut w = World3::new(params);
    let ground = shapes::cuboid(Vec3::new(20.0, 0.5, 20.0));
    w.create_body(&BodyDef3::new(BodyKind::Static, ground, Vec3::new(0.0, -0.5, 0.0))).unwrap();
    w
}

/// Adds a dynamic body.
pub fn add(w: &mut World3, hull: Hull, position: Vec3, rotation: Quat, density: f32) -> usize {
    let mut def = BodyDef3::new(BodyKind::Dynamic, hull, position);
    def.rotation = rotation;
    def.density = density;
    w.create_body(&def).unwrap()
}

/// Whether every body's state is finite.
pub fn all_finite(w: &World3) -> bool {
    w.bodies.iter().all(|b| {
        b.center.is_finite() && b.pose.q.is_finite() && b.linear_velocity.is_finite() && b.angular_velocity.is_finite()
    })
}

pub fn zero_gravity() -> World3Params {
    World3Params { gravity: Vec3::ZERO, ..World3Params::default() }
}

pub fn cube() -> Hull {
    shapes::cube(0.5)
}
