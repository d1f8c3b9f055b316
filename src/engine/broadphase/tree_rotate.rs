//! Tree rotations applied during the hierarchy walk (003 article, "Dynamic AABB Tree" →
//! "Balancing the Tree").
//!
//! - `balance`: AVL balancing on height, as the article does it ("if one is higher than the
//!   other by a height of two or more a rotation should be performed … the child with a
//!   larger height ought to be promoted"), written after Box2D v2's `b2DynamicTree::Balance`.
//! - `rotate_nodes`: the surface-area alternative the article had only heard rumours of
//!   ("balanced in terms of surface area and not tree height"), after Box2D v3's
//!   `b2RotateNodes`: swap a child with a grandchild when that shrinks the perimeter sum.

use super::tree::{perimeter, DynamicTree, NULL_NODE};

impl<T: Copy> DynamicTree<T> {
    /// AVL-balances node `a` and returns the index of the node now in its place.
    ///
    /// With `a`'s children `y` and `x`, where `x` is at least two levels higher, `x` is
    /// promoted into `a`'s place: `x` keeps its higher child `h` and adopts `a`, while `a`
    /// takes `x`'s lower child in the slot `x` left. Boxes and heights of `a` and `x` are
    /// recomputed.
    pub(crate) fn balance(&mut self, a: u32) -> u32 {
        let node_a = self.nodes[a as usize];
        if node_a.is_leaf() || node_a.height < 2 {
            return a;
        }
        let (b, c) = (node_a.child1, node_a.child2);
        let balance = self.nodes[c as usize].height - self.nodes[b as usize].height;
        let (x, y, x_is_child1) = if balance > 1 {
            (c, b, false)
        } else if balance < -1 {
            (b, c, true)
        } else {
            return a;
        };
        let node_x = self.nodes[x as usize];
        let (f, g) = (node_x.child1, node_x.child2);
        let (high, low) = if self.nodes[f as usize].height > self.nodes[g as usize].height { (f, g) } else { (g, f) };

        // x takes a's place under a's parent.
        let parent = node_a.parent;
        self.nodes[x as usize].parent = parent;
        if parent == NULL_NODE {
            self.root = x;
        } else {
            self.replace_child(parent, a, x);
        }
        // x adopts a and keeps its higher child; a takes x's lower child where x was.
        self.nodes[x as usize].child1 = a;
        self.nodes[x as usize].child2 = high;
        self.nodes[a as usize].parent = x;
        if x_is_child1 {
            self.nodes[a as usize].child1 = low;
        } else {
            self.nodes[a as usize].child2 = low;
        }
        self.nodes[low as usize].parent = a;

        let (ny, nl, nh) = (self.nodes[y as usize], self.nodes[low as usize], self.nodes[high as usize]);
        let a_box = ny.aabb.union(&nl.aabb);
        let a_height = 1 + ny.height.max(nl.height);
        self.nodes[a as usize].aabb = a_box;
        self.nodes[a as usize].height = a_height;
        self.nodes[x as usize].aabb = a_box.union(&nh.aabb);
        self.nodes[x as usize].height = 1 + a_height.max(nh.height);
        self.rotations += 1;
        x
    }

    /// SAH rotation at node `a` (Box2D v3 `b2RotateNodes`): among the swaps of a child `x`
    /// with a grandchild `z` under the other child `y`, pick the one that most reduces the
    /// perimeter of `y` (which becomes `x ∪ w`, `w` being `z`'s sibling); `a`'s own box is
    /// unchanged by any of them. Without a strict improvement, a swap that costs nothing
    /// (`x ∪ w` no larger than `y`) is still made when it lowers `a`'s height: boxes that
    /// lie inside one another, as a pile of coincident bodies, give every swap a gain of
    /// zero, and without this tie-break each insertion lengthens one chain (2,000 coincident
    /// boxes: height 2,000 and 60 µs per insertion). Returns the swapped child and grandchild.
    pub(crate) fn rotate_nodes(&mut self, a: u32) -> Option<(u32, u32)> {
        let node_a = self.nodes[a as usize];
        if node_a.height < 2 {
            return None;
        }
        // (gain, x, y, z): gain = perimeter(y) − perimeter(x ∪ w).
        let mut best: Option<(f32, u32, u32, u32)> = None;
        // A free swap that lowers a's height: (a's new height, x, y, z).
        let mut lower: Option<(i32, u32, u32, u32)> = None;
        let height = |n: u32| self.nodes[n as usize].height;
        for (x, y) in [(node_a.child1, node_a.child2), (node_a.child2, node_a.child1)] {
            let ny = self.nodes[y as usize];
            if ny.is_leaf() {
                continue;
            }
            let area_y = perimeter(&ny.aabb);
            let x_box = self.nodes[x as usize].aabb;
            for (z, w) in [(ny.child1, ny.child2), (ny.child2, ny.child1)] {
                let gain = area_y - perimeter(&x_box.union(&self.nodes[w as usize].aabb));
                if gain > 0.0 && best.is_none_or(|(g, ..)| gain > g) {
                    best = Some((gain, x, y, z));
                } else if gain == 0.0 {
                    let new_height = 1 + height(z).max(1 + height(x).max(height(w)));
                    if new_height < node_a.height && lower.is_none_or(|(h, ..)| new_height < h) {
                        lower = Some((new_height, x, y, z));
                    }
                }
            }
        }
        let (x, y, z) = match (best, lower) {
            (Some((_, x, y, z)), _) | (None, Some((_, x, y, z))) => (x, y, z),
            (None, None) => return None,
        };
        // Swap x (child of a) and z (child of y).
        self.replace_child(a, x, z);
        self.replace_child(y, z, x);
        self.nodes[x as usize].parent = y;
        self.nodes[z as usize].parent = a;
        self.refit_node(y);
        self.refit_node(a);
        self.rotations += 1;
        Some((x, z))
    }
}
