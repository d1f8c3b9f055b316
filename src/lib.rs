//! manifold-lab: a 2D rigid-body engine built to be looked at. The engine (`engine`) and the
//! scene format (`scene`) need no window; the app that draws them lives in the binary.
//!
//! ```
//! use glam::Vec2;
//! use manifold_lab::engine::shape::Shape;
//! use manifold_lab::engine::{BodyDef, BodyKind, World};
//!
//! let mut world = World::new(Default::default());
//! let ground = Shape::make_box(Vec2::new(10.0, 1.0)).unwrap();
//! world.create_body(&BodyDef::new(BodyKind::Static, ground, Vec2::new(0.0, -1.0)));
//! let ball = world.create_body(&BodyDef::new(BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(0.0, 3.0)));
//! for _ in 0..120 {
//!     world.step();
//! }
//! // The ball has fallen and rests on the ground.
//! assert!((world.bodies[ball].center.y - 0.5).abs() < 0.02);
//! ```

pub mod engine;
pub mod peers;
pub mod scene;
