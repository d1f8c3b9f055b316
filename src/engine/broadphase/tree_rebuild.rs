//! Full top-down rebuilds of a dynamic tree: the alternative to incremental balancing, as
//! Box2D v3's `b2DynamicTree_Rebuild` does for its moving proxies (003 article, "Dynamic AABB
//! Tree" → "Balancing the Tree": a tree performs best "so long as the tree is balanced", and
//! "how you balance the tree matters"). Leaves (proxy ids) are kept; every branch is rebuilt.

use super::tree::{perimeter, DynamicTree, NULL_NODE};
use crate::engine::math::Aabb;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How a rebuild splits a set of leaves into two children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RebuildMethod {
    /// Binned surface area heuristic (Wald, "On fast construction of SAH-based bounding
    /// volume hierarchies"): centroids go into `SAH_BINS` bins along the longer axis and the
    /// plane minimising `n_left·perimeter(left) + n_right·perimeter(right)` wins.
    #[default]
    BinnedSah,
    /// Split at the median centroid along the longer axis (a perfectly height-balanced tree).
    MedianSplit,
}

/// Bins per binned-SAH split.
pub const SAH_BINS: usize = 16;

/// How one build splits each set: [`RebuildMethod`]'s two ways, or the partial rebuild's mix.
#[derive(Clone, Copy, Debug)]
enum Split {
    Sah,
    Median,
    /// Binned SAH for sets larger than this, the median below (where the bins' fixed cost
    /// outweighs what they find: measured on falling rain, a partial rebuild by SAH alone cost
    /// as much as the reinsertions it replaced).
    SahAbove(usize),
}

/// Sets of at most this many leaves are split at the median in a partial rebuild.
const PARTIAL_SAH_MIN: usize = 32;

/// A leaf as the build sees it: copied into one contiguous array so the partitions stream
/// through memory instead of chasing node indices (Box2D v3 keeps `leafBoxes` for the same
/// reason).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BuildLeaf {
    center: Vec2,
    aabb: Aabb,
    id: u32,
}

impl<T: Copy> DynamicTree<T> {
    /// Rebuilds every branch from the current leaves with `method`. Proxy ids, fat and tight
    /// AABBs are unchanged.
    pub fn rebuild(&mut self, method: RebuildMethod) {
        let mut leaves = Vec::with_capacity(self.proxy_count);
        for id in 0..self.nodes.len() as u32 {
            let n = &mut self.nodes[id as usize];
            if n.is_leaf() {
                n.enlarged = false;
                leaves.push(BuildLeaf { center: n.aabb.center(), aabb: n.aabb, id });
            } else if !n.is_free() {
                self.free_node(id);
            }
        }
        self.build(
            leaves,
            match method {
                RebuildMethod::BinnedSah => Split::Sah,
                RebuildMethod::MedianSplit => Split::Median,
            },
        );
    }

    /// Rebuilds (binned SAH for sets of more than `PARTIAL_SAH_MIN`, median splits below) only
    /// the branches [`DynamicTree::enlarge_proxy`] marked, as
    /// Box2D v3's partial `b2DynamicTree_Rebuild` does each step: every unmarked branch below
    /// them is kept whole and placed as if it were a leaf. Nothing to do when no proxy was
    /// enlarged since the last rebuild. (A marked branch below an unmarked one, which a proxy
    /// inserted beside it since can make, is kept too: like every branch it encloses its
    /// children, only more loosely.)
    pub fn rebuild_enlarged(&mut self) {
        if self.root == NULL_NODE || !self.nodes[self.root as usize].enlarged {
            return;
        }
        let mut items = std::mem::take(&mut self.rebuild_items);
        items.clear();
        let mut stack = vec![self.root];
        while let Some(id) = stack.pop() {
            let n = &mut self.nodes[id as usize];
            if n.is_leaf() || !n.enlarged {
                n.enlarged = false;
                items.push(BuildLeaf { center: n.aabb.center(), aabb: n.aabb, id });
            } else {
                stack.extend([n.child1, n.child2]);
                self.free_node(id);
            }
        }
        self.build(items, Split::SahAbove(PARTIAL_SAH_MIN));
        // Subtrees kept whole step after step can stack up: past twice a balanced tree's
        // height (plus slack), everything is rebuilt.
        let balanced = usize::BITS - self.proxy_count.leading_zeros();
        if self.nodes[self.root as usize].height > 2 * balanced as i32 + 4 {
            self.rebuild(RebuildMethod::BinnedSah);
        }
    }

    /// Builds the branches over `leaves` (leaves or whole subtrees) top-down with `method`,
    /// root first, then refits them children first.
    fn build(&mut self, mut leaves: Vec<BuildLeaf>, method: Split) {
        self.root = NULL_NODE;
        // (parent, child slot 1 or 2, leaves range)
        let mut work = vec![(NULL_NODE, 1u8, 0usize, leaves.len())];
        let mut branches = Vec::with_capacity(leaves.len());
        while let Some((parent, slot, start, end)) = work.pop() {
            if start == end {
                continue;
            }
            let id = if end - start == 1 {
                leaves[start].id
            } else {
                let id = self.allocate_node();
                self.nodes[id as usize].height = 1;
                let range = &mut leaves[start..end];
                let sah = match method {
                    Split::Sah => true,
                    Split::Median => false,
                    Split::SahAbove(n) => range.len() > n,
                };
                let split = start + if sah { partition_sah(range) } else { partition_median(range) };
                branches.push(id);
                work.push((id, 2, split, end));
                work.push((id, 1, start, split));
                id
            };
            self.nodes[id as usize].parent = parent;
            match (parent, slot) {
                (NULL_NODE, _) => self.root = id,
                (p, 1) => self.nodes[p as usize].child1 = id,
                (p, _) => self.nodes[p as usize].child2 = id,
            }
        }
        // Branches were created parents first: refit them children first.
        for &id in branches.iter().rev() {
            self.refit_node(id);
        }
        self.rebuild_items = leaves;
    }
}

/// Bounds of the leaves' centroids and the index of their longer axis.
fn centroid_axis(leaves: &[BuildLeaf]) -> (Aabb, usize) {
    let c0 = leaves[0].center;
    let bounds = leaves.iter().fold(Aabb::new(c0, c0), |b, l| Aabb::new(b.min.min(l.center), b.max.max(l.center)));
    let d = bounds.max - bounds.min;
    (bounds, if d.x >= d.y { 0 } else { 1 })
}

/// Orders `leaves` so the first half has the smaller centroids on the longer axis; returns
/// the split (the middle).
fn partition_median(leaves: &mut [BuildLeaf]) -> usize {
    let (_, axis) = centroid_axis(leaves);
    let mid = leaves.len() / 2;
    leaves.select_nth_unstable_by(mid, |a, b| a.center[axis].total_cmp(&b.center[axis]).then(a.id.cmp(&b.id)));
    mid
}

/// Binned SAH partition of `leaves` in place; returns the size of the left part.
fn partition_sah(leaves: &mut [BuildLeaf]) -> usize {
    let (bounds, axis) = centroid_axis(leaves);
    let extent = bounds.max[axis] - bounds.min[axis];
    if extent <= 0.0 {
        return leaves.len() / 2;
    }
    let scale = SAH_BINS as f32 / extent;
    let bin_of = |l: &BuildLeaf| (((l.center[axis] - bounds.min[axis]) * scale) as usize).min(SAH_BINS - 1);
    let empty = Aabb::new(Vec2::splat(f32::MAX), Vec2::splat(-f32::MAX));
    let mut bins = [(empty, 0usize); SAH_BINS];
    for l in leaves.iter() {
        let b = &mut bins[bin_of(l)];
        b.0 = b.0.union(&l.aabb);
        b.1 += 1;
    }
    // Sweep from the right for the right-hand boxes, then from the left for the costs.
    let mut right = [(empty, 0usize); SAH_BINS];
    let mut acc = (empty, 0);
    for i in (1..SAH_BINS).rev() {
        acc = (acc.0.union(&bins[i].0), acc.1 + bins[i].1);
        right[i] = acc;
    }
    let (mut best_plane, mut best_cost) = (0, f32::MAX);
    let mut left = (empty, 0);
    for plane in 1..SAH_BINS {
        left = (left.0.union(&bins[plane - 1].0), left.1 + bins[plane - 1].1);
        let r = right[plane];
        if left.1 == 0 || r.1 == 0 {
            continue;
        }
        let cost = left.1 as f32 * perimeter(&left.0) + r.1 as f32 * perimeter(&r.0);
        if cost < best_cost {
            best_cost = cost;
            best_plane = plane;
        }
    }
    if best_plane == 0 {
        return partition_median(leaves);
    }
    // Partition: bins below the plane to the left.
    let mut i = 0;
    for j in 0..leaves.len() {
        if bin_of(&leaves[j]) < best_plane {
            leaves.swap(i, j);
            i += 1;
        }
    }
    i
}
