//! All-pairs pair finding: the O(n²) baseline the article measured against ("my simulation
//! would grind to a halt and bottleneck with an N^2 broadphase at just over 100 dynamic
//! bodies"). Kept as a reference for tests and benchmarks.

use crate::engine::math::Aabb;

/// All index pairs `(i, j)`, `i < j`, whose boxes overlap and for which `accept(i, j)` holds,
/// in sorted order.
pub fn find_pairs_brute_force(aabbs: &[Aabb], accept: impl Fn(usize, usize) -> bool) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for (i, a) in aabbs.iter().enumerate() {
        for (j, b) in aabbs.iter().enumerate().skip(i + 1) {
            if a.overlaps(b) && accept(i, j) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}
