//! A base-20 pyramid (210 boxes, Box2D's large_pyramid settings: 60 Hz, 4 sub-steps, friction
//! 0.6, no sleep) stepped beside Box2D v3 (its C library through `boxdd-sys`) in the same
//! test: our top box must rest within 2 cm of the height where Box2D's rests, and no box may
//! creep sideways by more than 2 cm, the bounds issue 13 sets for the 5,050-box pyramid.

#[path = "../benches/support/box2d_world.rs"]
#[allow(dead_code)]
mod box2d_world;

use box2d_world::{B2Shape, B2World};
use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, World};
use manifold_lab::scene::Generator;

const BASE: u32 = 20;
const STEPS: usize = 1200;

#[test]
fn a_pyramid_neither_sags_below_box2ds_nor_creeps_sideways() {
    let boxes = Generator::Pyramid {
        base: BASE,
        half_size: 0.5,
        origin: Vec2::ZERO,
        gap: 0.0,
        prefix: "box_".into(),
        density: 1.0,
        friction: 0.6,
        restitution: 0.0,
        grid: None,
    }
    .bodies();
    let params =
        SolverParams { gravity: Vec2::new(0.0, -10.0), hz: 60.0, substeps: 4, sleep: false, ..Default::default() };
    let mut ours = World::new(params);
    let mut ground =
        BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(100.0, 1.0)).unwrap(), Vec2::new(0.0, -1.0));
    ground.material.friction = 0.6;
    ours.create_body(&ground);
    let mut theirs = B2World::new((0.0, -10.0), false);
    theirs.body(false, (0.0, -1.0), &B2Shape::Box { hx: 100.0, hy: 1.0 }, 1.0, None);
    let mut ids = Vec::new();
    for d in &boxes {
        ours.create_body(d);
        ids.push(theirs.body(true, (d.position.x, d.position.y), &B2Shape::Box { hx: 0.5, hy: 0.5 }, 1.0, None));
    }
    for _ in 0..STEPS {
        ours.step();
        theirs.step(1.0 / 60.0, 4);
    }
    let top = ours.bodies.last().unwrap().position();
    let (_, box2d_top_y) = theirs.position(*ids.last().unwrap());
    assert!((top.y - box2d_top_y).abs() < 0.02, "top box at y {} , Box2D's at {box2d_top_y}", top.y);
    for (k, d) in boxes.iter().enumerate() {
        let p = ours.bodies[k + 1].position();
        assert!((p.x - d.position.x).abs() < 0.02, "{} crept from x {} to {}", d.name, d.position.x, p.x);
    }
}
