//! Sort and sweep along the x axis.

use crate::engine::math::Aabb;

/// All index pairs `(i, j)`, `i < j`, whose boxes overlap and for which `accept(i, j)` holds,
/// sorted. `order` is scratch space reused across calls.
pub fn find_pairs(aabbs: &[Aabb], order: &mut Vec<u32>, accept: impl Fn(usize, usize) -> bool) -> Vec<(u32, u32)> {
    order.clear();
    order.extend(0..aabbs.len() as u32);
    order.sort_unstable_by(|&i, &j| aabbs[i as usize].min.x.total_cmp(&aabbs[j as usize].min.x).then(i.cmp(&j)));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let a = &aabbs[i as usize];
        for &j in &order[k + 1..] {
            let b = &aabbs[j as usize];
            if b.min.x > a.max.x {
                break;
            }
            if b.min.y <= a.max.y && a.min.y <= b.max.y {
                let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                if accept(lo as usize, hi as usize) {
                    pairs.push((lo, hi));
                }
            }
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
    }
}
