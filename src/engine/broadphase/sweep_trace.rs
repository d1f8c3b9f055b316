//! The sort-and-sweep trace: the boxes' order by lower x, then per box the boxes starting
//! inside its x interval (tested on y) and the pairs found; drawn step by step (the sweep
//! line, the box, the tested boxes, the pairs so far).

use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::Aabb;
use crate::engine::trace::{Recorder, Trace};
use glam::Vec2;

#[derive(Clone, Debug, PartialEq)]
pub enum SweepStep {
    /// Box indices sorted by lower x (ties by index).
    Sorted { order: Vec<u32> },
    /// Box `index`, starting at `x`: the boxes `tested` (starting inside its x interval) and
    /// the pairs it found.
    Sweep { index: u32, x: f32, tested: Vec<u32>, pairs: Vec<(u32, u32)> },
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepTrace {
    pub aabbs: Vec<Aabb>,
    pub steps: Vec<SweepStep>,
}

impl Recorder<SweepStep> for SweepTrace {
    const ENABLED: bool = true;
    fn record(&mut self, step: SweepStep) {
        self.steps.push(step);
    }
}

impl SweepTrace {
    pub fn clear(&mut self, aabbs: &[Aabb]) {
        self.aabbs.clear();
        self.aabbs.extend_from_slice(aabbs);
        self.steps.clear();
    }

    /// The pairs found up to and including step `k`.
    pub fn pairs_until(&self, k: usize) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for s in self.steps.iter().take(k.saturating_add(1)) {
            if let SweepStep::Sweep { pairs, .. } = s {
                out.extend_from_slice(pairs);
            }
        }
        out
    }
}

impl Trace for SweepTrace {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        let n = self.steps.len();
        match self.steps.get(k) {
            Some(SweepStep::Sorted { order }) => format!("step 1 of {n}: {} boxes sorted by lower x", order.len()),
            Some(SweepStep::Sweep { index, x, tested, pairs }) => format!(
                "step {} of {n}: box {index} at x = {x:.2}, {} start inside it, {} pairs",
                k + 1,
                tested.len(),
                pairs.len()
            ),
            None => "no steps".into(),
        }
    }

    /// Draws step `k` (clamped): every box (`Aabb`), the sweep line at the box's lower x and
    /// the box (`Sweep`), the boxes tested (`TreeNode`) and the pairs so far (`Pair`).
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        let Some(last) = self.steps.len().checked_sub(1) else { return };
        let k = k.min(last);
        if d.wants(Layer::Aabb) {
            for b in &self.aabbs {
                d.aabb(Layer::Aabb, *b, palette::AABB.with_alpha(0.35));
            }
        }
        let (lo, hi) = self.aabbs.iter().fold((f32::MAX, f32::MIN), |(l, h), b| (l.min(b.min.y), h.max(b.max.y)));
        if let SweepStep::Sweep { index, x, tested, .. } = &self.steps[k] {
            let b = self.aabbs[*index as usize];
            if d.wants(Layer::Sweep) {
                d.segment(Layer::Sweep, Vec2::new(*x, lo), Vec2::new(*x, hi), palette::SELECTED);
                d.aabb(Layer::Sweep, b, palette::SELECTED);
            }
            if d.wants(Layer::TreeNode) {
                for j in tested {
                    d.aabb(Layer::TreeNode, self.aabbs[*j as usize], palette::SHAPE_B);
                }
            }
        }
        if d.wants(Layer::Pair) {
            for (i, j) in self.pairs_until(k) {
                let (a, b) = (self.aabbs[i as usize].center(), self.aabbs[j as usize].center());
                d.segment(Layer::Pair, a, b, palette::KEPT);
            }
        }
    }
}
