//! The traced entry points of the dynamic tree: inserting a new proxy and moving one (remove,
//! then reinsert with a new fat AABB, 003 article "Update"), each recording every step into a
//! [`TreeTrace`] (cleared first). The untraced `create_proxy` and `move_proxy` run the same code
//! with the recording compiled out.

use super::tree::{DynamicTree, NULL_NODE};
use super::tree_trace::TreeTrace;
use crate::engine::math::Aabb;

impl<T: Copy> DynamicTree<T> {
    /// [`DynamicTree::create_proxy`], recorded.
    pub fn create_proxy_traced(&mut self, tight: Aabb, user_data: T, trace: &mut TreeTrace) -> u32 {
        trace.clear();
        let id = self.allocate_node();
        let fat = self.fatten(tight);
        let node = &mut self.nodes[id as usize];
        node.aabb = fat;
        node.height = 0;
        node.user_data = Some(user_data);
        self.tight[id as usize] = tight;
        self.insert_leaf_traced(id, trace);
        self.proxy_count += 1;
        id
    }

    /// Moves `proxy` to `tight` and always reinserts it (the lab's "move one"), recording the
    /// removal and the reinsertion. `false` (and nothing recorded) if `proxy` is not a proxy.
    pub fn reinsert_proxy_traced(&mut self, proxy: u32, tight: Aabb, trace: &mut TreeTrace) -> bool {
        trace.clear();
        if !self.is_proxy(proxy) || self.root == NULL_NODE {
            return false;
        }
        self.tight[proxy as usize] = tight;
        self.remove_leaf_traced(proxy, trace);
        self.nodes[proxy as usize].aabb = self.fatten(tight);
        self.insert_leaf_traced(proxy, trace);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::{Balancing, InsertionStrategy, TreeSettings};
    use super::super::tree_trace::TreeStep;
    use super::*;
    use crate::engine::rng::SplitMix64;
    use glam::Vec2;

    fn random_box(rng: &mut SplitMix64) -> Aabb {
        let c = rng.vec2(-20.0, 20.0);
        let h = Vec2::new(rng.f32(0.1, 1.5), rng.f32(0.1, 1.5));
        Aabb::new(c - h, c + h)
    }

    #[test]
    fn chosen_sibling_is_the_cheapest_candidate_and_the_tree_stays_valid() {
        use Balancing::*;
        use InsertionStrategy::*;
        for insertion in [Descent, BoundedDescent, BranchAndBound] {
            for balancing in [None, Avl, SahRotation] {
                let settings = TreeSettings { insertion, balancing, ..TreeSettings::default() };
                let mut tree: DynamicTree<usize> = DynamicTree::new(settings);
                let mut rng = SplitMix64::new(31);
                let mut trace = TreeTrace::default();
                let mut ids = Vec::new();
                for i in 0..120 {
                    let b = random_box(&mut rng);
                    let id = if i % 3 == 2 && !ids.is_empty() {
                        let id = ids[rng.below(ids.len())];
                        assert!(tree.reinsert_proxy_traced(id, b, &mut trace));
                        assert!(matches!(trace.steps[0], TreeStep::Removed { leaf, .. } if leaf == id));
                        id
                    } else {
                        let id = tree.create_proxy_traced(b, i, &mut trace);
                        ids.push(id);
                        id
                    };
                    tree.validate().unwrap_or_else(|e| panic!("{insertion:?} {balancing:?} step {i}: {e}"));
                    assert!(contains(&tree.fat_aabb(id), &b), "the fat box holds the tight one");
                    let Some((chosen, cost)) = trace.chosen() else { continue };
                    let cands: Vec<(u32, f32)> = trace.candidates().collect();
                    assert!(cands.iter().any(|c| c.0 == chosen), "{insertion:?}: the chosen one was visited");
                    let min = cands.iter().map(|c| c.1).fold(f32::MAX, f32::min);
                    if insertion != Descent {
                        // Exact (branch and bound) or the best along its path (bounded).
                        assert!(cost <= min + 1e-3 * min.abs().max(1.0), "{insertion:?} step {i}: {cost} > {min}");
                    }
                    assert!(trace.steps.iter().any(|s| matches!(s, TreeStep::NewParent { .. })));
                    assert!(trace.steps.iter().any(|s| matches!(s, TreeStep::Refit { .. })));
                }
            }
        }
    }

    fn contains(outer: &Aabb, inner: &Aabb) -> bool {
        super::super::tree::contains(outer, inner)
    }

    #[test]
    fn bad_proxy_is_refused() {
        let mut tree: DynamicTree<usize> = DynamicTree::new(TreeSettings::default());
        let mut trace = TreeTrace::default();
        assert!(!tree.reinsert_proxy_traced(7, Aabb::new(Vec2::ZERO, Vec2::ONE), &mut trace));
        let a = tree.create_proxy_traced(Aabb::new(Vec2::ZERO, Vec2::ONE), 0, &mut trace);
        assert!(trace.chosen().is_none(), "the first leaf becomes the root");
        let b = tree.create_proxy_traced(Aabb::new(Vec2::splat(3.0), Vec2::splat(4.0)), 1, &mut trace);
        assert_eq!(trace.chosen().map(|c| c.0), Some(a));
        let parent = tree.nodes()[b as usize].parent;
        assert!(!tree.reinsert_proxy_traced(parent, Aabb::new(Vec2::ZERO, Vec2::ONE), &mut trace));
    }
}
