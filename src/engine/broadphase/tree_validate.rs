//! Invariant checks and quality metrics of a dynamic tree (003 article, "Dynamic AABB Tree":
//! the invariants "All branches must have two valid children" and "Only leaves contain user
//! data", plus what the structure implies: parents enclose children, heights, parent links,
//! and the free list).

use super::tree::{contains, perimeter, DynamicTree, NULL_NODE};
use crate::engine::math::Aabb;
use serde::{Deserialize, Serialize};

/// Size and quality of a tree, for display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TreeMetrics {
    /// Live nodes (branches + leaves).
    pub node_count: usize,
    pub proxy_count: usize,
    /// Nodes in the pool, free ones included.
    pub capacity: usize,
    /// Height of the root (0 for a single leaf, −1 when empty).
    pub height: i32,
    /// Sum of the branches' perimeters over the root's: the SAH cost of the tree relative to
    /// its extent (lower is better; at least 1 when there is a branch).
    pub area_ratio: f32,
    /// The largest height difference between two siblings.
    pub max_balance: i32,
}

/// A node met by a depth-first walk, with its depth below the root (root = 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeView<T> {
    pub id: u32,
    pub aabb: Aabb,
    pub depth: u32,
    pub height: i32,
    /// Set on leaves only.
    pub user_data: Option<T>,
}

/// A proxy: its fat AABB (in the tree) and the tight AABB it was last given (the world gives
/// the shape's AABB grown by the speculative margin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafView<T> {
    pub id: u32,
    pub fat: Aabb,
    pub tight: Aabb,
    pub user_data: T,
}

/// Pre-order depth-first iterator over the live nodes.
pub struct DepthIter<'a, T> {
    tree: &'a DynamicTree<T>,
    stack: Vec<(u32, u32)>,
}

impl<T: Copy> Iterator for DepthIter<'_, T> {
    type Item = NodeView<T>;
    fn next(&mut self) -> Option<NodeView<T>> {
        let (id, depth) = self.stack.pop()?;
        let n = &self.tree.nodes[id as usize];
        if !n.is_leaf() {
            self.stack.push((n.child2, depth + 1));
            self.stack.push((n.child1, depth + 1));
        }
        Some(NodeView { id, aabb: n.aabb, depth, height: n.height, user_data: n.user_data })
    }
}

impl<T: Copy> DynamicTree<T> {
    /// Checks every invariant; `Err` names the first violation. Runs in O(capacity).
    pub fn validate(&self) -> Result<(), String> {
        let cap = self.nodes.len();
        if self.tight.len() != cap {
            return Err(format!("tight AABB array has {} entries for {cap} nodes", self.tight.len()));
        }
        let mut seen = vec![false; cap];
        let (mut live, mut leaves) = (0usize, 0usize);
        let mut stack = Vec::new();
        if self.root != NULL_NODE {
            if self.root as usize >= cap {
                return Err(format!("root {} out of range", self.root));
            }
            if self.nodes[self.root as usize].parent != NULL_NODE {
                return Err(format!("root {} has a parent", self.root));
            }
            stack.push(self.root);
        }
        while let Some(id) = stack.pop() {
            let n = &self.nodes[id as usize];
            if std::mem::replace(&mut seen[id as usize], true) {
                return Err(format!("node {id} is reachable twice"));
            }
            live += 1;
            if n.is_free() {
                return Err(format!("node {id} is in the tree but marked free"));
            }
            if n.is_leaf() {
                leaves += 1;
                if n.user_data.is_none() {
                    return Err(format!("leaf {id} has no user data"));
                }
                if n.child1 != NULL_NODE || n.child2 != NULL_NODE {
                    return Err(format!("leaf {id} has children"));
                }
                if !contains(&n.aabb, &self.tight[id as usize]) {
                    return Err(format!("leaf {id}: fat AABB does not contain the tight AABB"));
                }
                continue;
            }
            if n.user_data.is_some() {
                return Err(format!("branch {id} holds user data"));
            }
            for c in [n.child1, n.child2] {
                if c == NULL_NODE || c as usize >= cap {
                    return Err(format!("branch {id} lacks a valid child ({c})"));
                }
                if self.nodes[c as usize].parent != id {
                    return Err(format!("child {c} of {id} names {} as parent", self.nodes[c as usize].parent));
                }
                if !contains(&n.aabb, &self.nodes[c as usize].aabb) {
                    return Err(format!("branch {id} does not enclose child {c}"));
                }
            }
            let (c1, c2) = (&self.nodes[n.child1 as usize], &self.nodes[n.child2 as usize]);
            if n.height != 1 + c1.height.max(c2.height) {
                return Err(format!("branch {id} height {} != 1 + max({}, {})", n.height, c1.height, c2.height));
            }
            // A branch marked by `enlarge_proxy` may be larger until it is rebuilt.
            if !n.enlarged && n.aabb != c1.aabb.union(&c2.aabb) {
                return Err(format!("branch {id} box is not the union of its children"));
            }
            stack.push(n.child1);
            stack.push(n.child2);
        }
        if live != self.node_count || leaves != self.proxy_count {
            return Err(format!(
                "reachable {live} nodes / {leaves} leaves, counted {} / {}",
                self.node_count, self.proxy_count
            ));
        }
        // The free list: free nodes only, disjoint from the tree, no cycle, all the rest.
        let mut free = 0usize;
        let mut f = self.free_list;
        while f != NULL_NODE {
            if f as usize >= cap {
                return Err(format!("free list index {f} out of range"));
            }
            if std::mem::replace(&mut seen[f as usize], true) {
                return Err(format!("free node {f} is live or listed twice"));
            }
            if !self.nodes[f as usize].is_free() {
                return Err(format!("node {f} is on the free list but not marked free"));
            }
            free += 1;
            f = self.nodes[f as usize].parent;
        }
        if live + free != cap {
            return Err(format!("{live} live + {free} free nodes != capacity {cap} (leaked nodes)"));
        }
        Ok(())
    }

    /// Cheap check after a local change: parent links and enclosure from `id` up to the root.
    pub(crate) fn validate_path(&self, id: u32) -> bool {
        let mut i = id;
        let mut steps = 0;
        while i != NULL_NODE {
            let n = &self.nodes[i as usize];
            if n.is_free() || steps > self.nodes.len() {
                return false;
            }
            if n.parent == NULL_NODE {
                return i == self.root;
            }
            let p = &self.nodes[n.parent as usize];
            if (p.child1 != i && p.child2 != i) || !contains(&p.aabb, &n.aabb) || p.height <= n.height {
                return false;
            }
            i = n.parent;
            steps += 1;
        }
        true
    }

    /// Height of the root; −1 when empty.
    pub fn height(&self) -> i32 {
        self.root().map_or(-1, |r| self.nodes[r as usize].height)
    }

    /// Sum of the branches' perimeters divided by the root's perimeter (0 without branches).
    /// Box2D v2's `GetAreaRatio` also adds the leaves, a constant that hides structure.
    pub fn area_ratio(&self) -> f32 {
        let Some(root) = self.root() else { return 0.0 };
        let root_area = perimeter(&self.nodes[root as usize].aabb);
        let total: f32 = self.nodes.iter().filter(|n| n.height > 0).map(|n| perimeter(&n.aabb)).sum();
        if root_area > 0.0 {
            total / root_area
        } else {
            0.0
        }
    }

    /// The largest height difference between siblings (0 or 1 for an AVL-balanced tree).
    pub fn max_balance(&self) -> i32 {
        self.nodes
            .iter()
            .filter(|n| n.height > 1)
            .map(|n| (self.nodes[n.child1 as usize].height - self.nodes[n.child2 as usize].height).abs())
            .max()
            .unwrap_or(0)
    }

    pub fn metrics(&self) -> TreeMetrics {
        TreeMetrics {
            node_count: self.node_count,
            proxy_count: self.proxy_count,
            capacity: self.nodes.len(),
            height: self.height(),
            area_ratio: self.area_ratio(),
            max_balance: self.max_balance(),
        }
    }

    /// Every live node with its depth, parents before children (for drawing the tree
    /// coloured by depth).
    pub fn iter_depth(&self) -> DepthIter<'_, T> {
        DepthIter { tree: self, stack: self.root().map(|r| vec![(r, 0)]).unwrap_or_default() }
    }

    /// Every proxy with its fat and tight AABBs, in id order.
    pub fn leaves(&self) -> impl Iterator<Item = LeafView<T>> + '_ {
        self.nodes.iter().enumerate().filter(|(_, n)| n.is_leaf()).map(|(i, n)| LeafView {
            id: i as u32,
            fat: n.aabb,
            tight: self.tight[i],
            user_data: n.user_data.expect("leaf holds user data"),
        })
    }
}
