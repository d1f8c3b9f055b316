//! The 3D peer (issue 37): the same hull worlds in manifold-lab's `World3` and in rapier3d, for
//! `benches/peer3d.rs` and `tests/peer3d.rs` (included by path in both). Three scenes: a stack
//! of 10 unit cubes, a tetrahedral pyramid of unit cubes (base 20: layers of 210, 190, … 1
//! cubes, 1,540 in all, each layer shifted by a third of a cube so every cube rests over the
//! one below it), and 500 random hulls tumbling in a box. Each body keeps its hull's vertices
//! (rapier builds its own convex hull of them), pose, velocities, density and friction; rapier
//! runs one thread with the soft-step settings matched to ours (`rapier_params`), sleep off.

#![allow(dead_code)]

use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::{shapes, Hull};
use manifold_lab::engine::rng::SplitMix64;
use manifold_lab::engine::world3d::{BodyDef3, World3, World3Params};
use manifold_lab::engine::BodyKind;
use rapier3d::prelude::{
    ColliderBuilder, IntegrationParameters, PhysicsWorld, Pose, RigidBodyBuilder, Rotation, SpringCoefficients, Vector,
};
use std::sync::Arc;

/// The static ground: a 100 m square slab whose top is y = 0.
fn ground(w: &mut World3) {
    let slab = shapes::cuboid(Vec3::new(50.0, 0.5, 50.0));
    w.create_body(&BodyDef3::new(BodyKind::Static, slab, Vec3::new(0.0, -0.5, 0.0))).unwrap();
}

/// A vertical stack of `n` unit cubes on the ground (the top one's centre at `n − 0.5`).
pub fn stack(n: usize) -> World3 {
    let mut w = World3::new(World3Params::default());
    ground(&mut w);
    let cube = Arc::new(shapes::cube(0.5));
    for i in 0..n {
        w.create_body(&BodyDef3::new(BodyKind::Dynamic, cube.clone(), Vec3::new(0.0, 0.5 + i as f32, 0.0))).unwrap();
    }
    w
}

/// A tetrahedral pyramid of unit cubes with `base` cubes along a side of its bottom layer:
/// layer `l` holds the triangle `i + j < base − l`, shifted by `l / 3` in x and z.
pub fn pyramid(base: usize) -> World3 {
    let mut w = World3::new(World3Params::default());
    ground(&mut w);
    let cube = Arc::new(shapes::cube(0.5));
    for l in 0..base {
        let (n, shift) = (base - l, l as f32 / 3.0);
        for i in 0..n {
            for j in 0..n - i {
                let p = Vec3::new(i as f32 + shift, 0.5 + l as f32, j as f32 + shift);
                w.create_body(&BodyDef3::new(BodyKind::Dynamic, cube.clone(), p)).unwrap();
            }
        }
    }
    w
}

/// `n` random hulls (8–16 cloud points, radius 0.25–0.5) in a walled box, placed on a grid
/// above its floor with random orientations and spins, falling and tumbling.
pub fn tumbling_hulls(n: usize, seed: u64) -> World3 {
    let mut w = World3::new(World3Params::default());
    ground(&mut w);
    let (half, height) = (5.0f32, 6.0f32);
    for (c, h) in [(Vec3::X, Vec3::new(0.25, height, half)), (Vec3::Z, Vec3::new(half, height, 0.25))] {
        for s in [-1.0, 1.0] {
            let wall = shapes::cuboid(h);
            w.create_body(&BodyDef3::new(BodyKind::Static, wall, c * s * (half + 0.25) + Vec3::Y * height)).unwrap();
        }
    }
    let mut rng = SplitMix64(seed);
    let per_row = 9;
    for k in 0..n {
        let hull = loop {
            let points = 8 + (rng.next_u64() % 9) as usize;
            if let Ok(h) = Hull::from_points(&shapes::random_cloud(rng.next_u64(), points, rng.f32(0.25, 0.5))) {
                break h;
            }
        };
        let (x, z, y) = (k % per_row, (k / per_row) % per_row, k / (per_row * per_row));
        let p = Vec3::new(x as f32 - 4.0, 1.0 + 1.1 * y as f32, z as f32 - 4.0);
        let mut def = BodyDef3::new(BodyKind::Dynamic, hull, p);
        def.rotation = Quat::from_axis_angle(rng.unit_vector(), rng.f32(0.0, std::f32::consts::TAU));
        def.angular_velocity = rng.unit_vector() * rng.f32(0.0, 4.0);
        w.create_body(&def).unwrap();
    }
    w
}

/// Rapier settings matched to ours: the step, `substeps` solver iterations of `iterations` PGS
/// iterations and `relax_iterations` stabilization iterations (rapier's soft step is Box2D v3's
/// too), the contact softness, push-out cap, speculative margin and speed cap; no CCD.
pub fn rapier_params(p: &World3Params) -> IntegrationParameters {
    let contact = SpringCoefficients::new(p.contact_hertz, p.contact_damping_ratio);
    IntegrationParameters {
        dt: 1.0 / p.hz,
        num_solver_iterations: p.substeps as usize,
        num_internal_pgs_iterations: p.iterations as usize,
        num_internal_stabilization_iterations: p.relax_iterations as usize,
        contact_softness: contact,
        static_contact_softness: contact,
        warmstart_coefficient: if p.warm_starting { 1.0 } else { 0.0 },
        length_unit: 1.0,
        normalized_max_corrective_velocity: p.max_push_velocity,
        normalized_prediction_distance: p.speculative_margin,
        normalized_max_linear_velocity: p.max_linear_speed,
        max_ccd_substeps: 0,
        ..IntegrationParameters::default()
    }
}

fn v(p: Vec3) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

/// `world`'s bodies in a rapier3d world (one thread, sleep off). Friction is combined by
/// rapier's rule (the average) where ours takes the geometric mean: equal here, as every body
/// has the same friction.
pub fn rapier_from(world: &World3) -> PhysicsWorld {
    let mut r = PhysicsWorld {
        gravity: v(world.params.gravity),
        integration_parameters: rapier_params(&world.params),
        ..PhysicsWorld::default()
    };
    for b in &world.bodies {
        let q = b.pose.q;
        let pose = Pose::from_parts(v(b.pose.p), Rotation::from_xyzw(q.x, q.y, q.z, q.w));
        let body = match b.kind {
            BodyKind::Dynamic => RigidBodyBuilder::dynamic().can_sleep(false),
            _ => RigidBodyBuilder::fixed(),
        }
        .pose(pose)
        .linvel(v(b.linear_velocity))
        .angvel(v(b.angular_velocity));
        let points: Vec<Vector> = b.hull.positions().iter().map(|&p| v(p)).collect();
        let collider = ColliderBuilder::convex_hull(&points).expect("a convex hull");
        r.insert(body, collider.density(b.density).friction(b.friction).restitution(b.restitution));
    }
    r
}

/// The dynamic bodies' centres of mass in rapier, in insertion order.
pub fn rapier_centres(r: &PhysicsWorld) -> Vec<Vec3> {
    let mut out: Vec<(u32, Vec3)> = r
        .bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(h, b)| {
            let c = b.center_of_mass();
            (h.into_raw_parts().0, Vec3::new(c.x, c.y, c.z))
        })
        .collect();
    out.sort_by_key(|e| e.0);
    out.into_iter().map(|e| e.1).collect()
}

/// The dynamic bodies' centres of mass in ours, in creation order.
pub fn our_centres(w: &World3) -> Vec<Vec3> {
    w.bodies.iter().filter(|b| b.is_dynamic()).map(|b| b.center).collect()
}
