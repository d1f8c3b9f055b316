//! The status bar's frame rate: the frames actually drawn in the last second, counted from
//! their timestamps. The inverse of one frame's time (macroquad's `get_fps`) is not a rate of
//! frames drawn: one quick frame among slow ones reads as a high rate, and it says nothing of
//! the frames that were not drawn.

use std::collections::VecDeque;

/// Timestamps (seconds) of the frames drawn within the last second.
#[derive(Clone, Debug, Default)]
pub struct FrameRate {
    stamps: VecDeque<f64>,
}

impl FrameRate {
    /// The span counted, seconds.
    pub const WINDOW: f64 = 1.0;

    /// Records a frame drawn at `t` (seconds, never decreasing) and forgets the frames that
    /// left the window.
    pub fn frame_drawn(&mut self, t: f64) {
        self.stamps.push_back(t);
        self.forget_before(t);
    }

    /// The frames drawn in the second up to `now`: timestamps in `(now − 1 s, now]`.
    pub fn per_second(&self, now: f64) -> usize {
        self.stamps.iter().filter(|&&t| t > now - Self::WINDOW && t <= now).count()
    }

    fn forget_before(&mut self, now: f64) {
        while self.stamps.front().is_some_and(|&t| t <= now - Self::WINDOW) {
            self.stamps.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames drawn at `times`, the rate read at `now`.
    fn rate(times: &[f64], now: f64) -> usize {
        let mut r = FrameRate::default();
        for &t in times {
            r.frame_drawn(t);
        }
        r.per_second(now)
    }

    #[test]
    fn counts_the_frames_drawn_in_the_last_second() {
        // 9.7 frames a second for five seconds: frame k at k / 9.7 s. The second up to frame 48
        // holds frames 39 to 48 (39 / 9.7 = 4.0206 > 48 / 9.7 - 1 = 3.9485 > 38 / 9.7).
        let times: Vec<f64> = (0..49).map(|k| k as f64 / 9.7).collect();
        assert_eq!(rate(&times, times[48]), 10);
        // Then one quick frame, 1/31 s after the last: one frame's inverse time would read 31;
        // the second up to it holds frames 39 to 48 and itself.
        let mut quick = times.clone();
        quick.push(times[48] + 1.0 / 31.0);
        assert_eq!(rate(&quick, quick[49]), 11);
        // Read between frames, the count is of the frames already drawn.
        assert_eq!(rate(&times, times[48] + 0.05), 10);
        assert_eq!(rate(&times, times[48] + 0.08), 9, "frame 39 at 4.0206 s has left the second");
    }

    #[test]
    fn the_window_is_half_open_and_forgets_old_frames() {
        assert_eq!(rate(&[], 5.0), 0);
        assert_eq!(rate(&[1.0, 2.0, 2.5, 3.0], 3.0), 2, "2.0 is a second before 3.0: outside");
        assert_eq!(rate(&[1.0, 2.0, 2.5, 3.0], 3.4), 2);
        assert_eq!(rate(&[1.0, 2.0, 2.5, 3.0], 3.6), 1);
        assert_eq!(rate(&[1.0, 2.0, 2.5, 3.0], 10.0), 0, "no frames drawn: zero, not the last frame's rate");
        let mut r = FrameRate::default();
        for k in 0..10_000 {
            r.frame_drawn(k as f64 / 60.0);
        }
        assert_eq!(r.stamps.len(), 60, "only the last second is kept");
        assert_eq!(r.per_second(9_999.0 / 60.0), 60);
    }
}
