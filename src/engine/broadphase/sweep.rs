//! Sort and sweep along the x axis: boxes sorted by their lower x, each then tested against
//! the boxes that start inside its x interval (003 article's broadphase, before the tree).
//! [`find_pairs_traced`] records the sort and each box's sweep ([`SweepTrace`]).

use super::sweep_trace::{SweepStep, SweepTrace};
use crate::engine::math::Aabb;
use crate::engine::trace::{NoTrace, Recorder};

/// All index pairs `(i, j)`, `i < j`, whose boxes overlap and for which `accept(i, j)` holds,
/// sorted. `order` is scratch space reused across calls.
pub fn find_pairs(aabbs: &[Aabb], order: &mut Vec<u32>, accept: impl Fn(usize, usize) -> bool) -> Vec<(u32, u32)> {
    sweep(aabbs, order, accept, &mut NoTrace)
}

/// [`find_pairs`], recording the sorted order and each box's sweep into `trace` (cleared).
pub fn find_pairs_traced(
    aabbs: &[Aabb],
    accept: impl Fn(usize, usize) -> bool,
    trace: &mut SweepTrace,
) -> Vec<(u32, u32)> {
    trace.clear(aabbs);
    let mut order = Vec::new();
    sweep(aabbs, &mut order, accept, trace)
}

fn sweep<R: Recorder<SweepStep>>(
    aabbs: &[Aabb],
    order: &mut Vec<u32>,
    accept: impl Fn(usize, usize) -> bool,
    rec: &mut R,
) -> Vec<(u32, u32)> {
    order.clear();
    order.extend(0..aabbs.len() as u32);
    order.sort_unstable_by(|&i, &j| aabbs[i as usize].min.x.total_cmp(&aabbs[j as usize].min.x).then(i.cmp(&j)));
    if R::ENABLED {
        rec.record(SweepStep::Sorted { order: order.clone() });
    }
    let mut pairs = Vec::new();
    // The classic active list (boxes the sweep line crosses), kept only for the trace.
    let mut active: Vec<u32> = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let a = &aabbs[i as usize];
        if R::ENABLED {
            active.retain(|&j| aabbs[j as usize].max.x >= a.min.x);
            active.push(i);
        }
        let (mut tested, first) = (Vec::new(), pairs.len());
        for &j in &order[k + 1..] {
            let b = &aabbs[j as usize];
            if b.min.x > a.max.x {
                break;
            }
            if R::ENABLED {
                tested.push(j);
            }
            if b.min.y <= a.max.y && a.min.y <= b.max.y {
                let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                if accept(lo as usize, hi as usize) {
                    pairs.push((lo, hi));
                }
            }
        }
        if R::ENABLED {
            let pairs = pairs[first..].to_vec();
            rec.record(SweepStep::Sweep { index: i, x: a.min.x, active: active.clone(), tested, pairs });
        }
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn matches_brute_force() {
        // Deterministic pseudo-random boxes.
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let aabbs: Vec<Aabb> = (0..300)
            .map(|_| {
                let c = Vec2::new(rnd() * 50.0, rnd() * 50.0);
                let h = Vec2::new(rnd() * 2.0 + 0.1, rnd() * 2.0 + 0.1);
                Aabb::new(c - h, c + h)
            })
            .collect();
        let mut order = Vec::new();
        let pairs = find_pairs(&aabbs, &mut order, |_, _| true);
        let mut brute = Vec::new();
        for i in 0..aabbs.len() {
            for j in i + 1..aabbs.len() {
                if aabbs[i].overlaps(&aabbs[j]) {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        assert!(!brute.is_empty());
        assert_eq!(pairs, brute);
        // The traced sweep finds the same pairs and records one step per box after the sort.
        let mut t = SweepTrace::default();
        assert_eq!(find_pairs_traced(&aabbs, |_, _| true, &mut t), brute);
        assert_eq!(t.steps.len(), aabbs.len() + 1);
        let mut found: Vec<(u32, u32)> = t.pairs_until(usize::MAX);
        found.sort_unstable();
        assert_eq!(found, brute);
        let mut d = crate::engine::debug::DebugList::new(crate::engine::debug::LayerSet::ALL);
        crate::engine::trace::Trace::draw_step(&t, 40, &mut d);
        assert!(d.count(crate::engine::debug::Layer::Pair) > 0);
    }

    #[test]
    fn the_active_list_holds_the_boxes_the_sweep_line_crosses() {
        // Intervals along x: [0, 4], [1, 2], [3, 6], [5, 7] (all at the same height).
        let boxes: Vec<Aabb> = [(0.0, 4.0), (1.0, 2.0), (3.0, 6.0), (5.0, 7.0)]
            .iter()
            .map(|&(lo, hi)| Aabb::new(Vec2::new(lo, 0.0), Vec2::new(hi, 1.0)))
            .collect();
        let mut t = SweepTrace::default();
        find_pairs_traced(&boxes, |_, _| true, &mut t);
        let active: Vec<Vec<u32>> = t
            .steps
            .iter()
            .filter_map(|s| match s {
                SweepStep::Sweep { active, .. } => Some(active.clone()),
                SweepStep::Sorted { .. } => None,
            })
            .collect();
        // At x = 3 box 1 ([1, 2]) has ended; at x = 5 box 0 ([0, 4]) has.
        assert_eq!(active, [vec![0], vec![0, 1], vec![0, 2], vec![2, 3]]);
        let ends: Vec<(f32, u32, bool)> = t.endpoints();
        assert_eq!(ends.len(), 8);
        assert!(ends.windows(2).all(|w| w[0].0 <= w[1].0));
        assert_eq!(ends[0], (0.0, 0, true));
        assert_eq!(ends[7], (7.0, 3, false));
        // Step 3 sweeps box 2 at x = 3: the starts at 0, 1, 3 and the end at 2 are passed.
        assert_eq!(t.passed_endpoints(3), 4);
        assert_eq!(t.passed_endpoints(0), 0);
    }
}
