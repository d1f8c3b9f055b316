//! Sequential-impulse solver (003 article "impulse resolution", grown up with accumulated
//! impulses, warm starting, sub-steps and a choice of position correction).

pub mod contact;
pub mod mouse;
pub mod params;
pub mod soft;
pub mod state;

pub use contact::{Contact, ContactPoint};
pub use mouse::MouseJoint;
pub use params::{PositionCorrection, SolverParams};
