//! Sequential-impulse solver (003 article "impulse resolution", grown up with accumulated
//! impulses, warm starting, sub-steps and a choice of position correction), with Box2D v3's
//! joints.

pub mod body_cell;
pub mod contact;
pub mod contact_push;
pub(crate) mod contact_solver;
pub mod contact_wide;
pub mod graph;
pub mod joint_colors;
pub mod joints;
pub mod lanes;
pub mod params;
pub mod recycle;
pub mod restitution;
pub mod scratch;
pub mod soft;
pub mod state;

pub use contact::{Contact, ContactPoint};
pub use joints::{Joint, JointKind, MouseJoint};
pub use params::{PositionCorrection, SolverParams};
pub use scratch::SolverScratch;
