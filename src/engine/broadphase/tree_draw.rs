//! Drawing a dynamic tree through `DebugDraw` (003 article, "your skill grows with your debug
//! draw"): branches coloured by depth, leaves' fat AABBs, and optionally their tight AABBs.
//! Subtrees outside the view and below the requested depth are skipped, so drawing a large
//! tree costs only what is shown.

use super::tree::DynamicTree;
use crate::engine::debug::{Color, DebugDraw, Layer};
use crate::engine::math::Aabb;

/// What `DynamicTree::debug_draw` shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeDrawOptions {
    /// Shallowest level drawn (root = 0).
    pub min_depth: u32,
    /// Deepest level drawn; `None` for all.
    pub max_depth: Option<u32>,
    /// Only nodes touching this box are drawn.
    pub view: Option<Aabb>,
    /// Draw leaves' fat AABBs (on `Layer::TreeNode`).
    pub leaves: bool,
    /// Draw leaves' tight AABBs (on `Layer::Aabb`).
    pub tight: bool,
}

impl Default for TreeDrawOptions {
    fn default() -> Self {
        TreeDrawOptions { min_depth: 0, max_depth: None, view: None, leaves: true, tight: false }
    }
}

/// A colour per depth: hues stepping round the wheel, so neighbouring levels differ; pastel,
/// to read on a dark background.
pub fn depth_color(depth: u32) -> Color {
    crate::engine::debug::pastel_hue(depth as f32 * 0.137, 0.35, 0.65, 0.9)
}

/// Colour of a leaf's fat AABB.
pub const LEAF_COLOR: Color = Color::rgb(150, 150, 150);

impl<T: Copy> DynamicTree<T> {
    /// Draws the tree's nodes: branches in `depth_color(depth)`, leaves per `opts`.
    pub fn debug_draw(&self, d: &mut dyn DebugDraw, opts: &TreeDrawOptions) {
        let want_nodes = d.wants(Layer::TreeNode);
        let want_tight = opts.tight && d.wants(Layer::Aabb);
        if !want_nodes && !want_tight {
            return;
        }
        let mut stack: Vec<(u32, u32)> = self.root().map(|r| vec![(r, 0)]).unwrap_or_default();
        while let Some((id, level)) = stack.pop() {
            let n = &self.nodes[id as usize];
            if opts.view.is_some_and(|v| !v.overlaps(&n.aabb)) {
                continue;
            }
            if n.is_leaf() {
                if want_nodes && opts.leaves && level >= opts.min_depth && opts.max_depth.is_none_or(|m| level <= m) {
                    d.aabb(Layer::TreeNode, n.aabb, LEAF_COLOR);
                }
                if want_tight {
                    d.aabb(Layer::Aabb, self.tight[id as usize], LEAF_COLOR.with_alpha(0.5));
                }
                continue;
            }
            let within = opts.max_depth.is_none_or(|m| level <= m);
            if want_nodes && within && level >= opts.min_depth {
                d.aabb(Layer::TreeNode, n.aabb, depth_color(level));
            }
            if within || want_tight {
                stack.push((n.child2, level + 1));
                stack.push((n.child1, level + 1));
            }
        }
    }
}
