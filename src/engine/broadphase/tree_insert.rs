//! Insertion and removal of leaves (003 article, "Dynamic AABB Tree" → "Insert", "Remove"),
//! and the walk that corrects the hierarchy above a change.
//!
//! Insert: find a sibling by a surface-area cost, give the new leaf and the sibling a new
//! parent, then walk up "correcting all the bounding AABBs and node heights". Remove: "Remove
//! the leaf's parent and replace it with the leaf's sibling", then the same walk.

use super::tree::{perimeter, Balancing, DynamicTree, InsertionStrategy, NULL_NODE};
use super::tree_trace::{RotationKind, TreeStep};
use crate::engine::math::Aabb;
use crate::engine::trace::{NoTrace, Recorder};
use std::cmp::Ordering;

/// A branch-and-bound candidate: a node, the enlargement its ancestors already pay if the new
/// leaf goes below it, and the lower bound of any choice in its subtree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    lower_bound: f32,
    inherited: f32,
    node: u32,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    /// Reversed so `BinaryHeap` pops the smallest bound first; ties go to the lower index so
    /// the result never depends on anything but the tree.
    fn cmp(&self, other: &Self) -> Ordering {
        other.lower_bound.total_cmp(&self.lower_bound).then(other.node.cmp(&self.node))
    }
}

impl<T: Copy> DynamicTree<T> {
    /// Inserts the allocated leaf `leaf` (its fat AABB already set) into the hierarchy.
    pub(crate) fn insert_leaf(&mut self, leaf: u32) {
        self.insert_leaf_traced(leaf, &mut NoTrace);
    }

    /// [`Self::insert_leaf`], recording each step into `rec`.
    pub(crate) fn insert_leaf_traced<R: Recorder<TreeStep>>(&mut self, leaf: u32, rec: &mut R) {
        if R::ENABLED {
            rec.record(TreeStep::Inserting { leaf, aabb: self.nodes[leaf as usize].aabb });
        }
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL_NODE;
            return;
        }
        let leaf_aabb = self.nodes[leaf as usize].aabb;
        let sibling = match self.settings.insertion {
            InsertionStrategy::Descent => self.find_sibling_descent(&leaf_aabb, rec),
            InsertionStrategy::BoundedDescent => self.find_sibling_bounded(&leaf_aabb, rec),
            InsertionStrategy::BranchAndBound => self.find_sibling_branch_and_bound(&leaf_aabb, rec),
        };
        if R::ENABLED {
            let aabb = self.nodes[sibling as usize].aabb;
            let cost = self.sibling_cost(sibling, &leaf_aabb);
            rec.record(TreeStep::Chosen { node: sibling, aabb, cost });
        }

        // A new parent for the leaf and its sibling, in the sibling's place.
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate_node();
        let sibling_node = self.nodes[sibling as usize];
        let p = &mut self.nodes[new_parent as usize];
        p.parent = old_parent;
        p.user_data = None;
        p.aabb = leaf_aabb.union(&sibling_node.aabb);
        p.height = sibling_node.height + 1;
        p.child1 = sibling;
        p.child2 = leaf;
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL_NODE {
            self.root = new_parent;
        } else {
            self.replace_child(old_parent, sibling, new_parent);
        }
        if R::ENABLED {
            let aabb = self.nodes[new_parent as usize].aabb;
            rec.record(TreeStep::NewParent { node: new_parent, sibling, leaf, aabb });
        }
        self.sync_hierarchy_traced(new_parent, true, rec);
    }

    /// The insertion cost of `leaf` as a sibling of `node`: the new parent's perimeter plus the
    /// enlargement of every ancestor of `node`.
    pub(crate) fn sibling_cost(&self, node: u32, leaf: &Aabb) -> f32 {
        let mut cost = perimeter(&self.nodes[node as usize].aabb.union(leaf));
        let mut at = self.nodes[node as usize].parent;
        while at != NULL_NODE {
            let b = self.nodes[at as usize].aabb;
            cost += perimeter(&b.union(leaf)) - perimeter(&b);
            at = self.nodes[at as usize].parent;
        }
        cost
    }

    /// Detaches `leaf` from the hierarchy (the node itself stays allocated).
    pub(crate) fn remove_leaf(&mut self, leaf: u32) {
        self.remove_leaf_traced(leaf, &mut NoTrace);
    }

    /// [`Self::remove_leaf`], recording each step into `rec`.
    pub(crate) fn remove_leaf_traced<R: Recorder<TreeStep>>(&mut self, leaf: u32, rec: &mut R) {
        if leaf == self.root {
            self.root = NULL_NODE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand_parent = self.nodes[parent as usize].parent;
        let p = &self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        if R::ENABLED {
            rec.record(TreeStep::Removed { leaf, aabb: self.nodes[leaf as usize].aabb, parent, sibling });
        }
        self.nodes[sibling as usize].parent = grand_parent;
        self.free_node(parent);
        if grand_parent == NULL_NODE {
            self.root = sibling;
        } else {
            self.replace_child(grand_parent, parent, sibling);
            self.sync_hierarchy_traced(grand_parent, false, rec);
        }
        self.nodes[leaf as usize].parent = NULL_NODE;
    }

    /// Points the child slot of `parent` that held `old` at `new`.
    pub(crate) fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            debug_assert_eq!(p.child2, old, "node {old} is not a child of {parent}");
            p.child2 = new;
        }
    }

    /// The hierarchy correction walk (article: "A traversal up the tree, correcting all the
    /// bounding AABBs and node heights"), balancing each node on the way as configured: AVL
    /// balancing "at the beginning of the hierarchy synchronization loop" (after insertions
    /// and removals, as Box2D v2), SAH rotations after the node is refitted and only when
    /// `sah_rotate` (after insertions: Box2D v3 does not rotate on removal, and measuring
    /// showed no quality gain from it for a sixth more update time).
    pub(crate) fn sync_hierarchy_traced<R: Recorder<TreeStep>>(&mut self, start: u32, sah_rotate: bool, rec: &mut R) {
        let mut index = start;
        while index != NULL_NODE {
            if self.settings.balancing == Balancing::Avl {
                let promoted = self.balance(index);
                if R::ENABLED && promoted != index {
                    rec.record(TreeStep::Rotation { kind: RotationKind::Avl, at: index, a: promoted, b: index });
                }
                index = promoted;
            }
            self.refit_node(index);
            if R::ENABLED {
                let n = &self.nodes[index as usize];
                rec.record(TreeStep::Refit { node: index, aabb: n.aabb, height: n.height });
            }
            if sah_rotate && self.settings.balancing == Balancing::SahRotation {
                let swapped = self.rotate_nodes(index);
                if let (true, Some((a, b))) = (R::ENABLED, swapped) {
                    rec.record(TreeStep::Rotation { kind: RotationKind::Sah, at: index, a, b });
                }
            }
            index = self.nodes[index as usize].parent;
        }
    }

    /// Recomputes a branch's box and height from its children.
    #[inline]
    pub(crate) fn refit_node(&mut self, index: u32) {
        let n = self.nodes[index as usize];
        let (c1, c2) = (&self.nodes[n.child1 as usize], &self.nodes[n.child2 as usize]);
        let aabb = c1.aabb.union(&c2.aabb);
        let height = 1 + c1.height.max(c2.height);
        let node = &mut self.nodes[index as usize];
        node.aabb = aabb;
        node.height = height;
    }

    /// Box2D v2.4's descent: at each branch compare the cost of pairing with the branch itself
    /// (`2·perimeter(branch ∪ leaf)`) against descending into either child (the child's
    /// enlargement plus the enlargement inherited by every node on the way).
    fn find_sibling_descent<R: Recorder<TreeStep>>(&self, leaf: &Aabb, rec: &mut R) -> u32 {
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let node = &self.nodes[index as usize];
            let area = perimeter(&node.aabb);
            let combined = perimeter(&node.aabb.union(leaf));
            let cost = 2.0 * combined;
            let inheritance = 2.0 * (combined - area);
            let descend_cost = |child: u32| {
                let c = &self.nodes[child as usize];
                let enlarged = perimeter(&c.aabb.union(leaf));
                if c.is_leaf() {
                    enlarged + inheritance
                } else {
                    enlarged - perimeter(&c.aabb) + inheritance
                }
            };
            let (cost1, cost2) = (descend_cost(node.child1), descend_cost(node.child2));
            if R::ENABLED {
                rec.record(TreeStep::Candidate {
                    node: index,
                    aabb: node.aabb,
                    cost: self.sibling_cost(index, leaf),
                    lower_bound: None,
                });
            }
            if cost < cost1 && cost < cost2 {
                break;
            }
            index = if cost1 < cost2 { node.child1 } else { node.child2 };
        }
        if R::ENABLED {
            let aabb = self.nodes[index as usize].aabb;
            rec.record(TreeStep::Candidate {
                node: index,
                aabb,
                cost: self.sibling_cost(index, leaf),
                lower_bound: None,
            });
        }
        index
    }

    /// Box2D v3's `b2FindBestSibling`: a single greedy path on which every node is a candidate
    /// sibling of cost `perimeter(node ∪ leaf) + inherited`, stopping when neither child's lower
    /// bound can beat the best; ties of the bound fall back to centroid distance.
    fn find_sibling_bounded<R: Recorder<TreeStep>>(&self, leaf: &Aabb, rec: &mut R) -> u32 {
        let center = leaf.center();
        let area_leaf = perimeter(leaf);
        let root_box = self.nodes[self.root as usize].aabb;
        let mut area_base = perimeter(&root_box);
        let mut direct = perimeter(&root_box.union(leaf));
        let mut inherited = 0.0f32;
        let (mut best, mut best_cost) = (self.root, direct);
        let mut index = self.root;
        if R::ENABLED && self.nodes[index as usize].is_leaf() {
            rec.record(TreeStep::Candidate { node: index, aabb: root_box, cost: direct, lower_bound: None });
        }
        while !self.nodes[index as usize].is_leaf() {
            let node = self.nodes[index as usize];
            let cost = direct + inherited;
            if R::ENABLED {
                rec.record(TreeStep::Candidate { node: index, aabb: node.aabb, cost, lower_bound: None });
            }
            if cost < best_cost {
                best = index;
                best_cost = cost;
            }
            inherited += direct - area_base;
            // Per child: (is leaf, box, direct cost, own area, lower bound of descending).
            let mut look = |child: u32| {
                let c = &self.nodes[child as usize];
                let direct_c = perimeter(&c.aabb.union(leaf));
                if c.is_leaf() {
                    if R::ENABLED {
                        let cost = direct_c + inherited;
                        rec.record(TreeStep::Candidate { node: child, aabb: c.aabb, cost, lower_bound: None });
                    }
                    if direct_c + inherited < best_cost {
                        best = child;
                        best_cost = direct_c + inherited;
                    }
                    (true, c.aabb, direct_c, 0.0, f32::MAX)
                } else {
                    let area = perimeter(&c.aabb);
                    (false, c.aabb, direct_c, area, inherited + direct_c + (area_leaf - area).min(0.0))
                }
            };
            let (leaf1, box1, direct1, area1, mut lower1) = look(node.child1);
            let (leaf2, box2, direct2, area2, mut lower2) = look(node.child2);
            if (leaf1 && leaf2) || (best_cost <= lower1 && best_cost <= lower2) {
                break;
            }
            if lower1 == lower2 && !leaf1 {
                // Both children contain the leaf: no area preference, go to the nearer one.
                lower1 = (box1.center() - center).length_squared();
                lower2 = (box2.center() - center).length_squared();
            }
            if lower1 < lower2 && !leaf1 {
                (index, area_base, direct) = (node.child1, area1, direct1);
            } else {
                (index, area_base, direct) = (node.child2, area2, direct2);
            }
        }
        best
    }

    /// The sibling of least total cost, found by branch and bound over a priority queue. The
    /// cost of sibling `X` is `perimeter(X ∪ L)` (the new parent) plus the enlargement of all
    /// of `X`'s ancestors; any node below `X` costs at least `perimeter(L)` plus the
    /// enlargement of `X` and its ancestors, which bounds the search.
    fn find_sibling_branch_and_bound<R: Recorder<TreeStep>>(&mut self, leaf: &Aabb, rec: &mut R) -> u32 {
        let area_leaf = perimeter(leaf);
        let mut heap = std::mem::take(&mut self.heap);
        heap.clear();
        heap.push(Candidate { lower_bound: area_leaf, inherited: 0.0, node: self.root });
        let (mut best, mut best_cost) = (self.root, f32::MAX);
        while let Some(c) = heap.pop() {
            if c.lower_bound >= best_cost {
                break;
            }
            let node = &self.nodes[c.node as usize];
            let direct = perimeter(&node.aabb.union(leaf));
            let cost = direct + c.inherited;
            if R::ENABLED {
                let lower_bound = (!node.is_leaf()).then(|| area_leaf + c.inherited + direct - perimeter(&node.aabb));
                rec.record(TreeStep::Candidate { node: c.node, aabb: node.aabb, cost, lower_bound });
            }
            if cost < best_cost || (cost == best_cost && c.node < best) {
                best = c.node;
                best_cost = cost;
            }
            if !node.is_leaf() {
                let inherited = c.inherited + direct - perimeter(&node.aabb);
                let lower_bound = area_leaf + inherited;
                if lower_bound < best_cost {
                    heap.push(Candidate { lower_bound, inherited, node: node.child1 });
                    heap.push(Candidate { lower_bound, inherited, node: node.child2 });
                }
            }
        }
        self.heap = heap;
        best
    }
}
