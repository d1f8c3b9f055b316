//! A small 3D rigid-body world of convex hulls, built on the hull SAT of seed article 001 and
//! the solver of article 003, with the pieces article 003's later posts describe: the
//! orientation joint and polyhedral buoyancy on a moving water surface.
//!
//! * [`Body3`]: static, kinematic or dynamic hull bodies; mass, centre of mass and inertia
//!   tensor exact from the hull by tetrahedral decomposition ([`mass`]); quaternion
//!   orientation; semi-implicit Euler with the implicit gyroscopic term ([`integrate`]).
//! * Contacts ([`pairs`], [`narrow`], [`contact`]): sort-and-sweep pairs, at most
//!   [`pairs::PAIRS_PER_BODY`] kept per body, the remembered separating axis
//!   first, the local-frame SAT, ≤ 4 clipped points (one for edge contacts) with feature ids for
//!   warm starting, sequential impulses with two friction directions and Box2D v3's soft step
//!   with the push-out capped per body ([`push`]).
//! * Bodies of several hulls ([`compound`]): a chair of cuboids, a dumbbell; each hull with its
//!   offset, rotation and material, the mass combined by the parallel-axis theorem, contacts
//!   per hull pair.
//! * Joints ([`joint`]): article 003's orientation joint (3×3 block, optional max torque) and a
//!   ball-and-socket joint; each reports its error per axis.
//! * Water ([`water`], [`buoyancy`]): flat or waved basins; the submerged part of each hull cut
//!   by the local surface plane, buoyancy at its centroid, linear and angular drag. Or a
//!   simulated surface ([`height_field`]): a grid of spring columns that the bodies push by
//!   the volume they displace and ride on the plane fitted under them ([`displace`]).
//! * The user's drag: a damped spring on a grabbed point ([`mouse`]).
//! * Pictures leave through [`crate::engine::debug3::DebugDraw3`] ([`draw`]).
//!
//! ```
//! use glam::Vec3;
//! use manifold_lab::engine::hull3d::shapes;
//! use manifold_lab::engine::world3d::{BodyDef3, World3, World3Params};
//! use manifold_lab::engine::BodyKind;
//!
//! let mut world = World3::new(World3Params::default());
//! let ground = shapes::cuboid(Vec3::new(10.0, 0.5, 10.0));
//! world.create_body(&BodyDef3::new(BodyKind::Static, ground, Vec3::new(0.0, -0.5, 0.0))).unwrap();
//! let cube = world.create_body(&BodyDef3::new(BodyKind::Dynamic, shapes::cube(0.5), Vec3::new(0.0, 2.0, 0.0))).unwrap();
//! for _ in 0..120 {
//!     world.step();
//! }
//! assert!((world.bodies[cube].center.y - 0.5).abs() < 0.02);
//! ```

pub mod body;
pub mod buoyancy;
pub mod compound;
pub mod contact;
pub mod contact_rows;
pub mod displace;
pub mod draw;
pub mod height_field;
pub mod integrate;
pub mod joint;
pub mod joint_ball;
pub mod joint_orientation;
pub mod mass;
pub mod mouse;
pub mod narrow;
pub mod pairs;
pub mod params;
pub mod push;
#[cfg(test)]
mod surface_tests;
pub mod water;
pub mod world;
pub mod world_water;

pub use body::{Body3, BodyDef3, BodyError3, MAX_HULL_VERTICES};
pub use buoyancy::{submerged_part, BuoyancyRecord, Submerged};
pub use compound::{Part3, MAX_HULLS};
pub use contact::{Contact3, ContactPoint3, SatDecision};
pub use draw::DrawOptions3;
pub use height_field::{HeightField3, Simulated3};
pub use joint::{Joint3, JointError3, JointKind3};
pub use mass::{mass_properties, MassError, MassProperties3};
pub use mouse::MouseSpring3;
pub use params::{Gyroscopic, SatChoice, World3Params};
pub use water::{Region, Surface3, Water3, Wave};
pub use world::{JointError, StepProfile3, World3};
