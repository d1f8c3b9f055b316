//! The profiler's figures over a window of steps: per-phase and total step time with minimum,
//! median and maximum, and the slowest step (what "jump to slowest step" moves to).

use super::stats::{Phase, StepStats};

/// Minimum, median and maximum of a series.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    pub min: f32,
    pub median: f32,
    pub max: f32,
}

impl Spread {
    /// The spread of `values` (all zero when empty). The median of an even count is the mean
    /// of the two middle values.
    pub fn of(values: impl Iterator<Item = f32>) -> Spread {
        let mut v: Vec<f32> = values.filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return Spread::default();
        }
        v.sort_by(f32::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 { v[n / 2] } else { 0.5 * (v[n / 2 - 1] + v[n / 2]) };
        Spread { min: v[0], median, max: v[n - 1] }
    }
}

/// The profiler's summary of steps `first ..= last`.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileWindow {
    pub first: u64,
    pub last: u64,
    pub total: Spread,
    pub phases: [Spread; Phase::COUNT],
    /// The step with the longest step time, and that time (the earliest on a tie).
    pub slowest: Option<(u64, f32)>,
}

/// Summarizes the `n` steps ending at `last` of a branch whose counters start at step
/// `origin` (`stats[0]` is step `origin`). Step `origin` itself is the initial state (no
/// step ran), so it is left out.
pub fn profile_window(stats: &[StepStats], origin: u64, last: u64, n: u64) -> ProfileWindow {
    let newest = origin + stats.len().saturating_sub(1) as u64;
    let last = last.min(newest);
    let first = last.saturating_sub(n.saturating_sub(1)).max(origin + 1);
    let steps: Vec<(u64, &StepStats)> =
        if first > last { Vec::new() } else { (first..=last).map(|s| (s, &stats[(s - origin) as usize])).collect() };
    let total = Spread::of(steps.iter().map(|(_, s)| s.step_ms));
    let phases = std::array::from_fn(|k| Spread::of(steps.iter().map(|(_, s)| s.phases[k])));
    let slowest = steps.iter().fold(None, |best: Option<(u64, f32)>, &(s, st)| match best {
        Some((_, ms)) if ms >= st.step_ms => best,
        _ => Some((s, st.step_ms)),
    });
    ProfileWindow { first, last, total, phases, slowest }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(ms: &[f32]) -> Vec<StepStats> {
        ms.iter()
            .map(|&t| StepStats { step_ms: t, phases: [t * 0.5, t * 0.25, t * 0.25, 0.0, 0.0], ..Default::default() })
            .collect()
    }

    #[test]
    fn spread_of_odd_and_even_counts() {
        assert_eq!(Spread::of([3.0, 1.0, 2.0].into_iter()), Spread { min: 1.0, median: 2.0, max: 3.0 });
        assert_eq!(Spread::of([4.0, 1.0, 2.0, 3.0].into_iter()).median, 2.5);
        assert_eq!(Spread::of(std::iter::empty()), Spread::default());
    }

    #[test]
    fn the_window_skips_the_initial_state_and_finds_the_slowest_step() {
        // Steps 10..=16; step 10 is the initial state.
        let s = stats(&[99.0, 1.0, 5.0, 2.0, 5.0, 3.0, 4.0]);
        let w = profile_window(&s, 10, 16, 100);
        assert_eq!((w.first, w.last), (11, 16));
        assert_eq!(w.slowest, Some((12, 5.0)), "the earliest of two equal maxima");
        assert_eq!(w.total, Spread { min: 1.0, median: 3.5, max: 5.0 });
        assert_eq!(w.phases[0].max, 2.5);
        let w = profile_window(&s, 10, 14, 2);
        assert_eq!((w.first, w.last, w.slowest), (13, 14, Some((14, 5.0))));
        let w = profile_window(&s[..1], 10, 10, 50);
        assert_eq!(w.slowest, None);
    }
}
