//! Warm-started GJK (Box2D's `b2SimplexCache`): a time-of-impact loop calls GJK many times on
//! slowly moving shapes, and starting from the support indices of the last simplex usually
//! ends in one or two iterations.

use super::gjk::{finish, gjk_iterate, start_simplex, GjkEnd, GjkOutput, Simplex, SimplexVertex};
use super::gjk_trace::GjkStep;
use super::support::{NoTrace, Proxy, Recorder, SupportPoint};
use serde::Serialize;

/// The support indices of a simplex, kept between GJK calls on the same pair of shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SimplexCache {
    /// 0 = empty.
    pub count: usize,
    pub index_a: [usize; 3],
    pub index_b: [usize; 3],
}

impl SimplexCache {
    /// The indices of `s`'s vertices.
    pub fn from_simplex(s: &Simplex) -> SimplexCache {
        let mut c = SimplexCache { count: s.count, ..Default::default() };
        for (i, v) in s.vertices().iter().enumerate() {
            c.index_a[i] = v.sp.index_a;
            c.index_b[i] = v.sp.index_b;
        }
        c
    }

    /// The cached vertices rebuilt from the proxies' current points (Box2D's
    /// `b2MakeSimplexFromCache`); indices beyond the proxies' counts (a cache from other
    /// shapes) are dropped. Empty when nothing is cached.
    pub fn simplex(&self, pa: &Proxy, pb: &Proxy) -> Simplex {
        let mut s = Simplex::default();
        for i in 0..self.count.min(3) {
            let (ia, ib) = (self.index_a[i], self.index_b[i]);
            if ia < pa.count && ib < pb.count {
                s.v[s.count] = SimplexVertex { sp: SupportPoint::from_indices(pa, ia, pb, ib), bary: 1.0 };
                s.count += 1;
            }
        }
        s
    }
}

/// GJK warm-started from `cache`, which receives the final simplex. An empty cache runs
/// exactly [`super::gjk::gjk_with`].
#[inline]
pub fn gjk_cached_with<R: Recorder<GjkStep>>(
    pa: &Proxy,
    pb: &Proxy,
    cache: &mut SimplexCache,
    rec: &mut R,
) -> GjkOutput {
    let mut s = cache.simplex(pa, pb);
    if s.count == 0 {
        s = start_simplex(pa, pb);
    }
    let (s, iterations, end) = gjk_iterate(pa, pb, s, rec);
    *cache = SimplexCache::from_simplex(&s);
    finish(pa, pb, s, iterations, end)
}

/// The bare GJK loop warm-started from `cache` (which receives the final simplex), without
/// the closest points, radii and normal of [`GjkOutput`]: for callers that read the simplex
/// themselves (time of impact, as Box2D's `b2ShapeDistance`, which an empty cache starts
/// from vertex 0 of each shape, as here). Only the proxies' points are used.
#[inline]
pub fn gjk_simplex_cached(pa: &Proxy, pb: &Proxy, cache: &mut SimplexCache) -> (Simplex, GjkEnd) {
    let mut s = cache.simplex(pa, pb);
    if s.count == 0 {
        s.count = 1;
        s.v[0] = SimplexVertex { sp: SupportPoint::from_indices(pa, 0, pb, 0), bary: 1.0 };
    }
    let (s, _, end) = gjk_iterate(pa, pb, s, &mut NoTrace);
    *cache = SimplexCache::from_simplex(&s);
    (s, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::collide::gjk::gjk;
    use glam::Vec2;

    #[test]
    fn warm_start_gives_the_same_distance_in_fewer_iterations() {
        let square = [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)];
        let pa = Proxy::new(&square, 0.0);
        let mut cache = SimplexCache::default();
        let mut cold_iterations = 0;
        let mut warm_iterations = 0;
        for k in 0..20 {
            let shift = Vec2::new(3.0 + 0.01 * k as f32, 0.3);
            let pts: Vec<Vec2> = square.iter().map(|&p| 0.5 * p + shift).collect();
            let pb = Proxy::new(&pts, 0.0);
            let cold = gjk(&pa, &pb, None);
            let warm = gjk_cached_with(&pa, &pb, &mut cache, &mut NoTrace);
            assert!(
                (cold.distance - warm.distance).abs() < 1e-6 && (cold.distance - (1.5 + 0.01 * k as f32)).abs() < 1e-5
            );
            cold_iterations += cold.iterations;
            warm_iterations += warm.iterations;
            let (s, _) = gjk_simplex_cached(&pa, &pb, &mut SimplexCache::default());
            let (a, b) = s.witness_points();
            assert!((a.distance(b) - cold.distance).abs() < 1e-5);
        }
        assert!(warm_iterations < cold_iterations, "{warm_iterations} vs {cold_iterations}");
    }
}
