//! Box2D v3's time of impact (`b2TimeOfImpact`, "CCD via the local separating axis method.
//! This seeks progression by computing the largest time at which separation is maintained"),
//! step for step:
//!
//! 1. GJK at `t1` (warm-started from the last simplex). Cores overlapping: give up
//!    (`Overlapped`). Within `target + tolerance`: a hit at `t1`.
//! 2. A separating-axis function from the simplex ([`super::separation`]).
//! 3. Push back, at most once per polygon vertex: find the deepest pair at `t2` (first
//!    `t_max`). Still beyond `target + tolerance`: the shapes stay apart (`Separated`).
//!    Within tolerance of the target: `t1 = t2`, back to 1. Otherwise the pair's separation is
//!    above the target at `t1` and below at `t2`: its root is bracketed, found by alternating
//!    bisection ("to guarantee progress") and false position ("to improve convergence"), at
//!    most 50 times, and becomes the new `t2`.
//! 4. After 20 distance queries, stop with the last safe `t1` (`IterationLimit`, Box2D's
//!    "failed"), as also when a pair starts closer than the target.
//!
//! The target is `max(linear slop, total radius − linear slop)` and the tolerance a quarter of
//! the linear slop unless the input says otherwise.

use super::separation::SeparationFunction;
use super::trace::{ToiStep, ToiStepKind, ToiTrace};
use super::{
    core_distance, done_step, invalid_output, sanitized, time_of_impact, CoreDistance, ToiInput, ToiMethod, ToiOutput,
    ToiState,
};
use crate::engine::collide::gjk_cache::SimplexCache;
use crate::engine::collide::support::Recorder;
use crate::engine::shape::MAX_POLYGON_VERTICES;
use glam::Vec2;

/// Distance queries before giving up (Box2D's `k_maxIterations`).
pub const ROOT_FINDER_MAX_ITERATIONS: usize = 20;
/// Root-finding iterations per push back.
pub const ROOT_MAX_ITERATIONS: usize = 50;

/// The root finder, recording into `trace` when given.
pub fn root_finder(input: &ToiInput, trace: Option<&mut ToiTrace>) -> ToiOutput {
    time_of_impact(ToiMethod::RootFinder, input, trace)
}

/// The root finder with any recorder.
pub fn root_finder_with<R: Recorder<ToiStep>>(input: &ToiInput, rec: &mut R) -> ToiOutput {
    root_finder_checked(input, rec, &mut Unchecked).0
}

/// What a caller asks of each advance the root finder proposes: from `t1`, where GJK measured
/// `c1`, to `t2` along the separating-axis function `f` (`t2 = t_max` for "separated").
/// Rejecting stops the root finder at `t1`, the last accepted time.
pub(crate) trait AdvanceCheck {
    fn accept(&mut self, t1: f32, c1: &CoreDistance, f: &SeparationFunction, t2: f32) -> bool;
}

/// Box2D's behaviour: every proposed advance is taken.
pub(crate) struct Unchecked;

impl AdvanceCheck for Unchecked {
    #[inline(always)]
    fn accept(&mut self, _: f32, _: &CoreDistance, _: &SeparationFunction, _: f32) -> bool {
        true
    }
}

/// How the push-back of one separating-axis function ended.
enum PushBack {
    /// The deepest pair stays beyond the target up to `t_max`.
    Separated,
    /// The deepest pair reaches the target at this time.
    Advance(f32),
    /// A pair starts closer than the target (Box2D's "failed").
    Failed,
    /// A pair is within tolerance of the target at `t1`.
    HitAtStart,
    /// Every push back found a new pair: no advance this time.
    Stuck,
}

/// The root finder, asking `check` about each advance. Returns the output and, when an
/// advance was rejected, the time it started from (every earlier advance was accepted).
pub(crate) fn root_finder_checked<R: Recorder<ToiStep>, C: AdvanceCheck>(
    input: &ToiInput,
    rec: &mut R,
    check: &mut C,
) -> (ToiOutput, Option<f32>) {
    if !input.is_valid() {
        return (invalid_output(), None);
    }
    let (t_max, target, tolerance) = input.limits();
    let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
    let mut cache = SimplexCache::default();
    let (mut t1, mut previous_t1, mut iterations) = (0.0f32, 0.0f32, 0);
    let stop = |state: ToiState, t: f32, iterations: usize| ToiOutput {
        state,
        t,
        normal: Vec2::ZERO,
        point: Vec2::ZERO,
        iterations,
    };
    let hit = |c: &CoreDistance, t: f32, state: ToiState, iterations: usize| ToiOutput {
        state,
        t,
        normal: c.normal,
        point: c.surface_points(ra, rb).2,
        iterations,
    };
    let mut rejected = None;
    let out = loop {
        let (xa, xb) = input.transforms(t1);
        let c = core_distance(input, &xa, &xb, &mut cache);
        iterations += 1;
        if R::ENABLED {
            record_distance(rec, input, &c, t1, t1 - previous_t1);
        }
        previous_t1 = t1;
        if c.overlap || !c.distance.is_finite() {
            break stop(ToiState::Overlapped, 0.0, iterations);
        }
        if c.distance <= target + tolerance {
            break hit(&c, t1, ToiState::Hit, iterations);
        }
        let f = SeparationFunction::new(&cache, &input.proxy_a, &input.sweep_a, &input.proxy_b, &input.sweep_b, t1);
        let (proposed, separated) = match push_back(&f, t1, t_max, target, tolerance, rec, (ra, rb)) {
            PushBack::Separated => (t_max, true),
            PushBack::Advance(t2) => (t2, false),
            PushBack::Failed => break stop(ToiState::IterationLimit, t1, iterations),
            PushBack::HitAtStart => break hit(&c, t1, ToiState::Hit, iterations),
            PushBack::Stuck => (t1, false),
        };
        if proposed > t1 && !check.accept(t1, &c, &f, proposed) {
            rejected = Some(t1);
            break hit(&c, t1, ToiState::IterationLimit, iterations);
        }
        if separated {
            break stop(ToiState::Separated, t_max, iterations);
        }
        t1 = proposed;
        if iterations == ROOT_FINDER_MAX_ITERATIONS {
            break hit(&c, t1, ToiState::IterationLimit, iterations);
        }
    };
    let out = sanitized(out, t_max);
    if R::ENABLED && rejected.is_none() {
        rec.record(done_step(input, &out, 0.0));
    }
    (out, rejected)
}

/// Records one distance query of the main loop.
fn record_distance<R: Recorder<ToiStep>>(rec: &mut R, input: &ToiInput, c: &CoreDistance, t: f32, advance: f32) {
    let (xa, xb) = input.transforms(t);
    let (pa, pb, _) = c.surface_points(input.proxy_a.radius, input.proxy_b.radius);
    rec.record(ToiStep {
        kind: ToiStepKind::Distance,
        t,
        xf_a: xa,
        xf_b: xb,
        point_a: pa,
        point_b: pb,
        distance: c.distance - input.proxy_a.radius - input.proxy_b.radius,
        axis: c.normal,
        bound: c.distance,
        advance,
    });
}

/// Box2D's push back: the deepest pair of `f` at `t2` (first `t_max`), its root bracketed in
/// `[t1, t2]` and found, at most once per polygon vertex.
fn push_back<R: Recorder<ToiStep>>(
    f: &SeparationFunction,
    t1: f32,
    t_max: f32,
    target: f32,
    tolerance: f32,
    rec: &mut R,
    (ra, rb): (f32, f32),
) -> PushBack {
    let mut t2 = t_max;
    for _ in 0..MAX_POLYGON_VERTICES {
        let (s2, ia, ib) = f.find_min_separation(t2);
        if s2 > target + tolerance {
            return PushBack::Separated;
        }
        if s2 > target - tolerance {
            return PushBack::Advance(t2);
        }
        let s1 = f.evaluate(ia, ib, t1);
        if R::ENABLED {
            let (pa, pb, axis) = f.witness(ia, ib, t2);
            rec.record(ToiStep {
                kind: ToiStepKind::PushBack,
                t: t2,
                xf_a: f.sweep_a.transform(t2),
                xf_b: f.sweep_b.transform(t2),
                point_a: pa + ra * axis,
                point_b: pb - rb * axis,
                distance: s2 - ra - rb,
                axis,
                bound: s1,
                advance: 0.0,
            });
        }
        if s1 < target - tolerance || !s1.is_finite() {
            return PushBack::Failed;
        }
        if s1 <= target + tolerance {
            return PushBack::HitAtStart;
        }
        if let Some(t) = find_root(f, (ia, ib), (t1, s1), (t2, s2), target, tolerance) {
            t2 = t;
        }
    }
    PushBack::Stuck
}

/// The root of `s(t) = target` for the pair `(ia, ib)` in `[a1, a2]` (`s(a1) > target >
/// s(a2)`), by alternating bisection ("to guarantee progress") and false position ("to improve
/// convergence"); `None` when it does not converge.
fn find_root(
    f: &SeparationFunction,
    (ia, ib): (usize, usize),
    (mut a1, mut s1): (f32, f32),
    (mut a2, mut s2): (f32, f32),
    target: f32,
    tolerance: f32,
) -> Option<f32> {
    for k in 0..ROOT_MAX_ITERATIONS {
        let t = if k & 1 == 1 { a1 + (target - s1) * (a2 - a1) / (s2 - s1) } else { 0.5 * (a1 + a2) };
        let s = f.evaluate(ia, ib, t);
        if (s - target).abs() < tolerance {
            return Some(t);
        }
        if s > target {
            (a1, s1) = (t, s);
        } else {
            (a2, s2) = (t, s);
        }
    }
    None
}
