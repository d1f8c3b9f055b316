//! Pair finding. For now a sort-and-sweep over AABBs: sort by the lower x bound, then test
//! only boxes whose x intervals overlap.

pub mod sweep;

pub use sweep::find_pairs;
