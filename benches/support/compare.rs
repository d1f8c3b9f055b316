//! The timed comparison the benchmark summaries share: two routines that each run `pairs`
//! cases, measured in alternation (seven ~40 ms rounds each, the best round kept) so that load
//! from other processes hits both alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// ns per case of `f` and of `g`.
pub fn compare(pairs: usize, mut f: impl FnMut() -> f32, mut g: impl FnMut() -> f32) -> (f64, f64) {
    let round = |h: &mut dyn FnMut() -> f32| {
        let start = Instant::now();
        let mut batches = 0u64;
        while start.elapsed() < Duration::from_millis(40) {
            for _ in 0..4 {
                black_box(h());
            }
            batches += 4;
        }
        start.elapsed().as_nanos() as f64 / (batches as f64 * pairs as f64)
    };
    let (mut best_f, mut best_g) = (f64::MAX, f64::MAX);
    for _ in 0..7 {
        best_f = best_f.min(round(&mut f));
        best_g = best_g.min(round(&mut g));
    }
    (best_f, best_g)
}
