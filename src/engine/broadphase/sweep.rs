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
    for (k, &i) in order.iter().enumerate() {
        let a = &aabbs[i as usize];
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
            rec.record(SweepStep::Sweep { index: i, x: a.min.x, tested, pairs: pairs[first..].to_vec() });
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
}
