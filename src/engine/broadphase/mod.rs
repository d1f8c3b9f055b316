//! Pair finding (003 article, "Dynamic AABB Tree"): a dynamic AABB tree of fat AABBs with a
//! move buffer and persistent pairs (`pair_finder`), plus the sort-and-sweep and all-pairs
//! searches it replaced, kept for comparison.
//!
//! The tree is split by algorithm: `tree` (node pool, free list, proxies), `tree_insert`
//! (sibling choice, insert/remove, hierarchy walk), `tree_rotate` (AVL / SAH rotations),
//! `tree_query` (AABB and ray queries), `tree_rebuild` (binned SAH / median rebuilds),
//! `tree_validate` (invariants, metrics, iteration), `tree_draw` and `tree_trace` (insertion,
//! removal and reinsertion recorded step by step).

pub mod brute;
pub mod pair_finder;
pub mod sweep;
pub mod sweep_trace;
pub mod tree;
pub mod tree_draw;
pub mod tree_insert;
pub mod tree_query;
pub mod tree_rebuild;
pub mod tree_rotate;
pub mod tree_shape_cast;
pub mod tree_trace;
pub mod tree_traced;
pub mod tree_validate;

pub use brute::find_pairs_brute_force;
pub use pair_finder::{
    body_aabb, new_pair_room, trace_sort_and_sweep, Broadphase, BroadphaseStats, PairFinding, MAX_NEW_PAIRS, MAX_PAIRS,
    MAX_QUERY_VISITS, NEW_PAIRS_PER_QUERY,
};
pub use sweep::{find_pairs, find_pairs_traced};
pub use sweep_trace::{SweepStep, SweepTrace};
pub use tree::{Balancing, DynamicTree, InsertionStrategy, TreeNode, TreeSettings, NULL_NODE};
pub use tree_draw::{depth_color, TreeDrawOptions};
pub use tree_query::{ray_may_cross, QueryStats};
pub use tree_rebuild::RebuildMethod;
pub use tree_trace::{RotationKind, TreeStep, TreeTrace};
pub use tree_validate::{LeafView, NodeView, TreeMetrics};

pub use crate::engine::shape::ray::{CastOutput, RayCastInput};
