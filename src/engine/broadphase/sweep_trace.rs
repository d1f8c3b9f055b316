//! The sort-and-sweep trace: the boxes' order by lower x, then per box the active list (the
//! boxes the sweep line crosses at its lower x), the boxes starting inside its x interval
//! (tested on y) and the pairs found; drawn step by step (the sorted endpoints on an axis
//! under the boxes, the sweep line, the box, the active list, the tested boxes, the pairs so
//! far).

use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::Aabb;
use crate::engine::number::Num;
use crate::engine::trace::Trace;
use glam::Vec2;

#[derive(Clone, Debug, PartialEq)]
pub enum SweepStep {
    /// Box indices sorted by lower x (ties by index).
    Sorted { order: Vec<u32> },
    /// Box `index`, starting at `x`: the `active` list as the sweep line reaches `x` (the
    /// boxes started so far that have not ended, `index` last), the boxes `tested` (starting
    /// inside its x interval) and the pairs it found.
    Sweep { index: u32, x: f32, active: Vec<u32>, tested: Vec<u32>, pairs: Vec<(u32, u32)> },
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepTrace {
    pub aabbs: Vec<Aabb>,
    pub steps: Vec<SweepStep>,
}

crate::engine::trace::recorded_steps!(SweepTrace, SweepStep);

impl SweepTrace {
    pub fn clear(&mut self, aabbs: &[Aabb]) {
        self.aabbs.clear();
        self.aabbs.extend_from_slice(aabbs);
        self.steps.clear();
    }

    /// Every box's two endpoints along x as `(x, box, is_start)`, sorted by x; at equal x,
    /// starts before ends (touching boxes overlap) and by box index, as the sweep orders them.
    pub fn endpoints(&self) -> Vec<(f32, u32, bool)> {
        let mut out = Vec::with_capacity(2 * self.aabbs.len());
        for (i, b) in self.aabbs.iter().enumerate() {
            out.push((b.min.x, i as u32, true));
            out.push((b.max.x, i as u32, false));
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.2.cmp(&a.2)).then(a.1.cmp(&b.1)));
        out
    }

    /// How many of the sorted [`endpoints`](Self::endpoints) the sweep line has passed at step
    /// `k` (the swept box's start included; 0 at the sort).
    pub fn passed_endpoints(&self, k: usize) -> usize {
        match self.steps.get(k) {
            Some(SweepStep::Sweep { index, .. }) => {
                self.endpoints().iter().position(|e| e.1 == *index && e.2).map_or(0, |p| p + 1)
            }
            _ => 0,
        }
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
            Some(SweepStep::Sweep { index, x, active, tested, pairs }) => format!(
                "step {} of {n}: box {index} at x = {x:.2}, {} active, {} start inside it, {} pairs",
                k + 1,
                active.len(),
                tested.len(),
                pairs.len(),
                x = Num(x)
            ),
            None => "no steps".into(),
        }
    }

    /// Draws step `k` (clamped): every box (`Aabb`); the sorted endpoints as ticks on an axis
    /// under the boxes, the ones passed bright, starts up and ends down, the active boxes'
    /// intervals as bars on it; the sweep line, the box and the active list (`Sweep`); the
    /// boxes tested (`TreeNode`) and the pairs so far (`Pair`).
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        let Some(last) = self.steps.len().checked_sub(1) else { return };
        let k = k.min(last);
        if d.wants(Layer::Aabb) {
            for b in &self.aabbs {
                d.aabb(Layer::Aabb, *b, palette::AABB.with_alpha(0.35));
            }
        }
        let Some(bounds) = self.aabbs.iter().copied().reduce(|a, b| a.union(&b)) else { return };
        let (lo, hi) = (bounds.min.y, bounds.max.y);
        // The endpoint axis: a little under the lowest box, ticks a fraction of the height.
        let span = (bounds.max.x - bounds.min.x).max(hi - lo).max(1e-3);
        let (axis_y, tick) = (lo - 0.08 * span, 0.025 * span);
        let step = &self.steps[k];
        if d.wants(Layer::SweepAndPrune) {
            d.segment(
                Layer::SweepAndPrune,
                Vec2::new(bounds.min.x, axis_y),
                Vec2::new(bounds.max.x, axis_y),
                palette::TEXT,
            );
            let passed = self.passed_endpoints(k);
            for (n, (x, _, start)) in self.endpoints().into_iter().enumerate() {
                let color = if n < passed { palette::TEXT } else { palette::TEXT.with_alpha(0.3) };
                let end = if start { axis_y + tick } else { axis_y - tick };
                d.segment(Layer::SweepAndPrune, Vec2::new(x, axis_y), Vec2::new(x, end), color);
            }
        }
        if let SweepStep::Sweep { index, x, active, tested, .. } = step {
            let b = self.aabbs[*index as usize];
            if d.wants(Layer::SweepAndPrune) {
                for (n, &j) in active.iter().enumerate() {
                    let a = self.aabbs[j as usize];
                    d.aabb(Layer::SweepAndPrune, a, palette::SWEEP_ACTIVE);
                    // Each active interval as a bar under the axis, stacked.
                    let y = axis_y - 2.0 * tick - 0.6 * tick * n as f32;
                    d.segment(
                        Layer::SweepAndPrune,
                        Vec2::new(a.min.x, y),
                        Vec2::new(a.max.x, y),
                        palette::SWEEP_ACTIVE,
                    );
                }
                d.segment(Layer::SweepAndPrune, Vec2::new(*x, axis_y - tick), Vec2::new(*x, hi), palette::SELECTED);
                d.aabb(Layer::SweepAndPrune, b, palette::SELECTED);
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
