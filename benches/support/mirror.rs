//! The same scene in three engines: a manifold-lab world copied body for body into Box2D v3 (C,
//! `boxdd-sys`) and rapier2d, for the world benchmarks that are built from our scene files and
//! generators (`benches/world_compare.rs`).
//!
//! Each body keeps its kind (static or dynamic), origin, angle and material (density, friction,
//! restitution); circles stay circles and polygons (boxes included) become each engine's convex
//! polygon from the same local vertices. Box2D runs with its own solver defaults; rapier with
//! the parameters `large_pyramid` matches to ours (`rapier_params`).

use super::box2d_world::{B2Shape, B2World};
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyKind, World};
use rapier2d::prelude::{ColliderBuilder, IntegrationParameters, PhysicsWorld, RigidBodyBuilder, Vector};

/// Box2D's shape for one of ours (capsules are not used by the benchmark scenes).
fn b2_shape(shape: &Shape) -> B2Shape {
    match shape {
        Shape::Circle(c) => B2Shape::Circle { radius: c.radius },
        Shape::Polygon(p) => B2Shape::Polygon { points: p.vertices().iter().map(|v| (v.x, v.y)).collect() },
        Shape::Capsule(_) => panic!("the benchmark scenes have no capsules"),
    }
}

/// `world`'s bodies in a single-threaded Box2D v3 world with its own defaults.
pub fn box2d_from(world: &World, sleep: bool) -> B2World {
    let g = world.params.gravity;
    let mut b2 = B2World::new((g.x, g.y), sleep);
    for b in &world.bodies {
        assert!(b.kind != BodyKind::Kinematic, "the benchmark scenes have no kinematic bodies");
        let m = &b.material;
        b2.body_posed(
            b.kind == BodyKind::Dynamic,
            (b.xf.p.x, b.xf.p.y),
            b.angle,
            &b2_shape(&b.shape),
            (m.density, m.friction, m.restitution),
        );
    }
    b2
}

/// Rapier settings matched to `params` (see `benches/large_pyramid.rs` for what maps to what),
/// with rapier's own defaults for its algorithms (contact recycling, friction in the relax pass):
/// the ones `compare` uses, without rapier's substepped CCD (the bench scenes have no fast
/// bodies).
pub fn rapier_params(params: &SolverParams) -> IntegrationParameters {
    IntegrationParameters { max_ccd_substeps: 0, ..manifold_lab::peers::rapier::rapier_params(params) }
}

/// `world`'s bodies in rapier2d (friction and restitution combined by rapier's own rule, the
/// average, where ours and Box2D's take the geometric mean and the maximum).
pub fn rapier_from(world: &World, sleep: bool) -> PhysicsWorld {
    let g = world.params.gravity;
    let mut r = PhysicsWorld {
        gravity: Vector::new(g.x, g.y),
        integration_parameters: rapier_params(&world.params),
        ..PhysicsWorld::default()
    };
    for b in &world.bodies {
        let body = match b.kind {
            BodyKind::Dynamic => RigidBodyBuilder::dynamic().can_sleep(sleep),
            _ => RigidBodyBuilder::fixed(),
        }
        .translation(Vector::new(b.xf.p.x, b.xf.p.y))
        .rotation(b.angle);
        let collider = match &b.shape {
            Shape::Circle(c) => ColliderBuilder::ball(c.radius),
            Shape::Polygon(p) => {
                let pts: Vec<_> = p.vertices().iter().map(|v| Vector::new(v.x, v.y)).collect();
                ColliderBuilder::convex_polyline(pts).expect("a convex polygon")
            }
            Shape::Capsule(_) => panic!("the benchmark scenes have no capsules"),
        };
        let m = &b.material;
        r.insert(body, collider.density(m.density).friction(m.friction).restitution(m.restitution));
    }
    r
}
