//! A shape cast through the dynamic tree (Box2D v3's `b2DynamicTree_ShapeCast`; the 003
//! article's "Queries" with the 004 article's "Continuous Linear" as the leaf test): the
//! ray cast's walk, with the ray thickened into the shape's box. A node is skipped when it
//! misses the box swept over the translation so far, or when it lies wholly on one side of the
//! ray through the box's centre once widened by the box's half extents (van den Bergen's
//! separating axis, `|v·(p1 − c)| > |v|·(h + e)`). The callback clips the cast like the ray
//! cast's, and nearer children are visited first.

use super::tree::DynamicTree;
use super::tree_query::{NodeStack, QueryStats};
use crate::engine::math::Aabb;
use glam::Vec2;

/// A box moved along `translation` over `[0, max_fraction]`: the cast shape's bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxCast {
    pub aabb: Aabb,
    pub translation: Vec2,
    pub max_fraction: f32,
}

impl BoxCast {
    /// The box swept up to `fraction`.
    pub fn swept(&self, fraction: f32) -> Aabb {
        let t = fraction * self.translation;
        Aabb::new(self.aabb.min.min(self.aabb.min + t), self.aabb.max.max(self.aabb.max + t))
    }
}

impl<T: Copy> DynamicTree<T> {
    /// Casts `input`'s box through the tree, reporting every node tested to
    /// `visit(node, may_hit)`. For each leaf the box may reach, `callback(max_fraction, proxy,
    /// user_data)` returns `0` to stop, a fraction in `(0, max_fraction]` to clip the cast
    /// there (closest-hit search), anything else to go on.
    pub fn box_cast_visiting(
        &self,
        input: &BoxCast,
        mut visit: impl FnMut(u32, bool),
        mut callback: impl FnMut(f32, u32, T) -> f32,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        let p1 = input.aabb.center();
        let extension = input.aabb.extents();
        let r = input.translation.normalize_or_zero();
        let v = Vec2::new(-r.y, r.x);
        let abs_v = v.abs();
        let mut max_fraction = input.max_fraction;
        let mut total = input.swept(max_fraction);
        let mut stack = NodeStack::new(self.root);
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id as usize];
            stats.nodes_visited += 1;
            let (c, h) = (node.aabb.center(), node.aabb.extents() + extension);
            let hit = node.aabb.overlaps(&total) && v.dot(p1 - c).abs() <= abs_v.dot(h);
            visit(id, hit);
            if !hit {
                continue;
            }
            if let Some(user) = node.user_data {
                stats.leaves_hit += 1;
                let value = callback(max_fraction, id, user);
                if value == 0.0 {
                    break;
                }
                if 0.0 < value && value <= max_fraction {
                    max_fraction = value;
                    total = input.swept(max_fraction);
                }
            } else {
                // Nearer child first (pushed last), as the ray cast does.
                let (c1, c2) = (node.child1, node.child2);
                let d1 = self.nodes[c1 as usize].aabb.center().distance_squared(p1);
                let d2 = self.nodes[c2 as usize].aabb.center().distance_squared(p1);
                let (far, near) = if d1 < d2 { (c2, c1) } else { (c1, c2) };
                stack.push(far);
                stack.push(near);
            }
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::broadphase::tree::TreeSettings;

    /// A row of unit boxes along x: the box cast along x visits them in the tree and the
    /// callback sees exactly those whose fat boxes the swept box reaches and that straddle
    /// the cast's line widened by the box.
    #[test]
    fn the_cast_reaches_the_boxes_on_its_path_and_no_other() {
        let mut tree: DynamicTree<u32> = DynamicTree::new(TreeSettings::default());
        for i in 0..10 {
            let x = 3.0 * i as f32;
            tree.create_proxy(Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)), i);
            tree.create_proxy(Aabb::new(Vec2::new(x, 5.0), Vec2::new(x + 1.0, 6.0)), 100 + i);
        }
        let input = BoxCast {
            aabb: Aabb::new(Vec2::new(-2.0, 0.25), Vec2::new(-1.5, 0.75)),
            translation: Vec2::new(20.0, 0.0),
            max_fraction: 1.0,
        };
        let mut seen = Vec::new();
        let stats = tree.box_cast_visiting(
            &input,
            |_, _| {},
            |_, _, u| {
                seen.push(u);
                -1.0
            },
        );
        seen.sort_unstable();
        // Fat boxes may reach a little further than the boxes; the upper row is never reached.
        assert!(seen.iter().all(|&u| u < 100), "{seen:?}");
        assert!((0..7).all(|i| seen.contains(&i)), "{seen:?}");
        assert!((stats.nodes_visited as usize) < tree.node_count(), "the upper row's subtree is culled");
        // Clipping at the first hit keeps the nodes beyond it out.
        let mut first = Vec::new();
        tree.box_cast_visiting(
            &input,
            |_, _| {},
            |_, _, u| {
                first.push(u);
                if u == 0 {
                    0.1
                } else {
                    -1.0
                }
            },
        );
        let at = first.iter().position(|&u| u == 0).expect("the first box is reached");
        assert!(first[at + 1..].is_empty(), "nothing beyond the clip is reported: {first:?}");
    }
}
