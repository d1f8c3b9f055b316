//! Threads for the step's parallel passes: a team of spinning workers (`team`) and the
//! block-cutting front every stage uses (`workers`). The team's size is the world's `threads`
//! setting; whatever the count, every pass computes the same bits.

pub mod team;
pub mod workers;

pub use workers::{Workers, BODY_BLOCK, CONTACT_BLOCK};
