//! The dynamic tree's insertion trace (003 article, "Dynamic AABB Tree" → "Insert", "Remove",
//! "Update", "Balancing"): each step of one traced insertion, removal or reinsertion as plain
//! data (the candidate siblings visited with their surface-area cost, the chosen sibling, the
//! new parent, each refit on the way up, each rotation with the nodes it swapped), and a
//! picture of step `k` for the tree lab's slider.

use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::Aabb;
use crate::engine::number::Num;
use crate::engine::trace::Trace;
use glam::Vec2;

/// Which balancing moved nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RotationKind {
    /// AVL: `promoted` took the place of `demoted`, its parent.
    Avl,
    /// SAH rotation: a child and a grandchild of the node swapped places.
    Sah,
}

/// One step of a traced tree operation.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeStep {
    /// The leaf `leaf` (box `aabb`) is detached: its parent `parent` is freed and `sibling`
    /// takes the parent's place.
    Removed { leaf: u32, aabb: Aabb, parent: u32, sibling: u32 },
    /// The leaf `leaf` with box `aabb` is to be inserted.
    Inserting { leaf: u32, aabb: Aabb },
    /// A candidate sibling: `cost` = perimeter(node ∪ leaf) plus the enlargement of its
    /// ancestors; `lower_bound` bounds any node below it (branch and bound; `None` otherwise).
    Candidate { node: u32, aabb: Aabb, cost: f32, lower_bound: Option<f32> },
    /// The sibling chosen and its cost.
    Chosen { node: u32, aabb: Aabb, cost: f32 },
    /// The new parent of the leaf and its sibling, with their union box.
    NewParent { node: u32, sibling: u32, leaf: u32, aabb: Aabb },
    /// A branch refitted on the walk up: its new box and height.
    Refit { node: u32, aabb: Aabb, height: i32 },
    /// A rotation: `a` and `b` swapped places (AVL: `a` promoted over `b`; SAH: `a`, a child
    /// of `at`, swapped with `b`, a grandchild).
    Rotation { kind: RotationKind, at: u32, a: u32, b: u32 },
}

/// Every step of one traced operation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TreeTrace {
    pub steps: Vec<TreeStep>,
}

crate::engine::trace::recorded_steps!(TreeTrace, TreeStep);

impl TreeTrace {
    pub fn clear(&mut self) {
        self.steps.clear();
    }

    /// The candidates recorded, in visiting order.
    pub fn candidates(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.steps.iter().filter_map(|s| match s {
            TreeStep::Candidate { node, cost, .. } => Some((*node, *cost)),
            _ => None,
        })
    }

    /// The chosen sibling and its cost, if the operation inserted into a non-empty tree.
    pub fn chosen(&self) -> Option<(u32, f32)> {
        self.steps.iter().find_map(|s| match s {
            TreeStep::Chosen { node, cost, .. } => Some((*node, *cost)),
            _ => None,
        })
    }
}

/// The one step protocol: the tree lab walks an insertion with the common slider.
impl Trace for TreeTrace {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        let n = self.steps.len();
        let Some(s) = self.steps.get(k) else { return "no steps".into() };
        format!("step {} of {n}: ", k + 1)
            + &match s {
                TreeStep::Removed { leaf, parent, sibling, .. } => {
                    format!("remove leaf {leaf}: parent {parent} freed, sibling {sibling} moves up")
                }
                TreeStep::Inserting { leaf, .. } => format!("insert leaf {leaf}"),
                TreeStep::Candidate { node, cost, lower_bound, .. } => match lower_bound {
                    Some(b) => {
                        format!("candidate {node}: cost {cost:.2}, children bound {b:.2}", cost = Num(cost), b = Num(b))
                    }
                    None => format!("candidate {node}: cost {cost:.2}", cost = Num(cost)),
                },
                TreeStep::Chosen { node, cost, .. } => {
                    format!("sibling {node} chosen, cost {cost:.2}", cost = Num(cost))
                }
                TreeStep::NewParent { node, sibling, leaf, .. } => {
                    format!("new parent {node} of sibling {sibling} and leaf {leaf}")
                }
                TreeStep::Refit { node, height, .. } => format!("refit {node}, height {height}"),
                TreeStep::Rotation { kind: RotationKind::Avl, a, b, .. } => {
                    format!("AVL rotation: {a} promoted over {b}")
                }
                TreeStep::Rotation { kind: RotationKind::Sah, at, a, b } => {
                    format!("SAH rotation at {at}: {a} and {b} swap")
                }
            }
    }

    /// Draws step `k` (clamped): the leaf's box (`Shape`), every candidate visited so far with
    /// its cost beside it (`TreeNode`, the cheapest so far in gold), and the step's own node
    /// bold (`RefFace`) with a caption (`Label`).
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        let Some(last) = self.steps.len().checked_sub(1) else { return };
        let k = k.min(last);
        let mut best: Option<(f32, Aabb)> = None;
        for s in &self.steps[..=k] {
            match s {
                TreeStep::Inserting { aabb, .. } | TreeStep::Removed { aabb, .. } if d.wants(Layer::Shape) => {
                    d.aabb(Layer::Shape, *aabb, palette::SELECTED);
                }
                TreeStep::Candidate { aabb, cost, .. } => {
                    if best.is_none_or(|(c, _)| *cost < c) {
                        best = Some((*cost, *aabb));
                    }
                    if d.wants(Layer::TreeNode) {
                        d.aabb(Layer::TreeNode, *aabb, palette::POLYTOPE.with_alpha(0.7));
                        let at = Vec2::new(aabb.max.x, aabb.max.y);
                        d.text(Layer::TreeNode, at, &format!("{cost:.1}", cost = Num(cost)), palette::TEXT);
                    }
                }
                _ => {}
            }
        }
        if let (Some((_, b)), true) = (best, d.wants(Layer::TreeNode)) {
            d.aabb(Layer::TreeNode, b, palette::CLOSEST_EDGE);
        }
        let own = match &self.steps[k] {
            TreeStep::Candidate { aabb, .. }
            | TreeStep::Chosen { aabb, .. }
            | TreeStep::NewParent { aabb, .. }
            | TreeStep::Refit { aabb, .. }
            | TreeStep::Removed { aabb, .. }
            | TreeStep::Inserting { aabb, .. } => Some(*aabb),
            TreeStep::Rotation { .. } => None,
        };
        if let (Some(b), true) = (own, d.wants(Layer::RefFace)) {
            d.aabb(Layer::RefFace, b, palette::SUPPORT_POINT);
        }
        if let (Some(b), true) = (own, d.wants(Layer::Label)) {
            d.text(Layer::Label, Vec2::new(b.min.x, b.max.y), &self.step_label(k), palette::TEXT);
        }
    }
}
