//! A heavy box resting on a light box, at mass ratios 10:1, 100:1 and 1000:1, in our engine and
//! in Box2D v3 (its C library, same settings): ours may not sink deeper than Box2D's. (At
//! 1000:1 both squeeze the light box out and the heavy one lands on the ground: a soft step
//! with a few iterations cannot hold that ratio, in either engine.)
//! Print the depths with `cargo test --test mass_ratio -- --nocapture`.

#[path = "../benches/support/box2d_world.rs"]
#[allow(dead_code)] // the test uses part of the bench support
mod box2d_world;

use box2d_world::{B2Shape, B2World};
use glam::Vec2;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::{BodyDef, BodyKind, Material, World, LINEAR_SLOP};

const STEPS: usize = 600;

/// How far the pair of stacked unit boxes sank below resting exactly on each other and the
/// ground, after `STEPS` steps: (ours, Box2D's), metres, for the top box `ratio` times denser.
fn sink(ratio: f32) -> (f32, f32) {
    let params = SolverParams { sleep: false, ..SolverParams::default() };
    let (hz, substeps) = (params.hz, params.substeps);
    let mut ours = World::new(params);
    let unit = Shape::make_box(Vec2::splat(0.5)).unwrap();
    ours.create_body(&BodyDef::new(
        BodyKind::Static,
        Shape::make_box(Vec2::new(10.0, 0.5)).unwrap(),
        Vec2::new(0.0, -0.5),
    ));
    ours.create_body(&BodyDef::new(BodyKind::Dynamic, unit, Vec2::new(0.0, 0.5)));
    let top = ours.create_body(&BodyDef {
        material: Material { density: ratio, ..Material::DEFAULT },
        ..BodyDef::new(BodyKind::Dynamic, unit, Vec2::new(0.0, 1.5))
    });

    let mut theirs = B2World::new((0.0, -10.0), false);
    theirs.body(false, (0.0, -0.5), &B2Shape::Box { hx: 10.0, hy: 0.5 }, 1.0, None);
    theirs.body(true, (0.0, 0.5), &B2Shape::Box { hx: 0.5, hy: 0.5 }, 1.0, None);
    let their_top = theirs.body(true, (0.0, 1.5), &B2Shape::Box { hx: 0.5, hy: 0.5 }, ratio, None);
    for _ in 0..STEPS {
        ours.step();
        theirs.step(1.0 / hz, substeps as i32);
    }
    let y = ours.bodies[top].center.y;
    assert!(y.is_finite());
    (1.5 - y, 1.5 - theirs.position(their_top).1)
}

#[test]
fn a_heavy_box_on_a_light_one_sinks_no_deeper_than_in_box2d() {
    for ratio in [10.0, 100.0, 1000.0] {
        let (ours, box2d) = sink(ratio);
        eprintln!("{ratio}:1  ours {ours:.5} m  Box2D v3 {box2d:.5} m");
        assert!(ours <= box2d.max(0.0) + 0.1 * LINEAR_SLOP, "{ratio}:1: ours sank {ours} m, Box2D {box2d} m");
    }
}
