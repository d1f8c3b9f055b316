//! The physics engine: no window, no drawing library. Pictures leave through `debug::DebugDraw`.

pub mod body;
pub mod broadphase;
pub mod collide;
pub mod compound;
pub mod debug;
pub mod debug3;
pub mod determinism;
pub mod geometry;
pub mod hull3d;
pub mod island;
pub mod material;
pub mod math;
pub mod number;
pub mod parallel;
pub(crate) mod prefetch;
pub mod reach;
pub mod rng;
pub mod shape;
pub mod solver;
pub mod spawn;
pub mod timeline;
pub mod trace;
pub mod water;
pub mod world;
pub mod world3d;

pub use body::{Body, BodyDef, BodyKind};
pub use material::Material;
pub use world::World;

/// The solver's notion of "touching" (metres); collision tolerances are derived from it.
pub const LINEAR_SLOP: f32 = 0.005;
