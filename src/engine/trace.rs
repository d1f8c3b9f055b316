//! One protocol for every algorithm trace. Recording: the algorithms are generic over a
//! [`Recorder`] of their step type and guard every recording with `if R::ENABLED`, so with
//! [`NoTrace`] (what a `None` trace selects) the recording code is compiled out and the untraced
//! path pays nothing. Replaying: a recorded trace is a [`Trace`], a sequence of steps that
//! `draw_step` draws one at a time through [`DebugDraw`] ([`Trace3`] and [`DebugDraw3`] in 3D),
//! so every lab walks every algorithm with the same step slider.

use super::debug::DebugDraw;
use super::debug3::DebugDraw3;

/// Receives the steps of an algorithm as plain data.
pub trait Recorder<S> {
    const ENABLED: bool;
    fn record(&mut self, step: S);
}

/// The recorder of the untraced path: records nothing, compiled away.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl<S> Recorder<S> for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn record(&mut self, _step: S) {}
}

/// The [`Recorder`] of a trace type that keeps its steps in a `steps: Vec<Step>` field, and
/// its `len` and `is_empty`: `recorded_steps!(GjkTrace, GjkStep);`.
macro_rules! recorded_steps {
    ($trace:ty, $step:ty) => {
        impl $crate::engine::trace::Recorder<$step> for $trace {
            const ENABLED: bool = true;
            fn record(&mut self, step: $step) {
                self.steps.push(step);
            }
        }

        impl $trace {
            /// How many steps were recorded.
            pub fn len(&self) -> usize {
                self.steps.len()
            }

            pub fn is_empty(&self) -> bool {
                self.steps.is_empty()
            }
        }
    };
}
pub(crate) use recorded_steps;

/// "`what` k+1 of n" for step `k` (clamped to the last) of `n`: "GJK iteration 2 of 4".
pub fn step_caption(what: &str, k: usize, n: usize) -> String {
    format!("{what} {} of {n}", k.min(n.saturating_sub(1)) + 1)
}

/// A recorded run of an algorithm, replayed step by step.
pub trait Trace {
    /// How many steps the slider walks (0 for an empty trace).
    fn steps(&self) -> usize;
    /// A short caption of step `k` ("GJK iteration 2 of 4").
    fn step_label(&self, k: usize) -> String;
    /// Draws step `k` (clamped to the last) through `d`.
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw);
}

/// The same protocol for a 3D algorithm, drawn through [`DebugDraw3`].
pub trait Trace3 {
    /// How many steps the slider walks (0 for an empty trace).
    fn steps(&self) -> usize;
    /// A short caption of step `k`.
    fn step_label(&self, k: usize) -> String;
    /// Draws step `k` (clamped to the last) through `d`.
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw3);
}
