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
    core_distance, done_step, invalid_output, sanitized, time_of_impact, ToiInput, ToiMethod, ToiOutput, ToiState,
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
    if !input.is_valid() {
        return invalid_output();
    }
    let (t_max, target, tolerance) = input.limits();
    let (proxy_a, proxy_b) = (&input.proxy_a, &input.proxy_b);
    let (sweep_a, sweep_b) = (&input.sweep_a, &input.sweep_b);
    let (ra, rb) = (proxy_a.radius, proxy_b.radius);
    let mut cache = SimplexCache::default();
    let mut t1 = 0.0f32;
    let mut previous_t1 = 0.0f32;
    let mut distance_iterations = 0;
    let hit = |c: &super::CoreDistance, t: f32, state: ToiState, iterations: usize| ToiOutput {
        state,
        t,
        normal: c.normal,
        point: c.surface_points(ra, rb).2,
        iterations,
    };

    let out = loop {
        let (xa, xb) = input.transforms(t1);
        let c = core_distance(input, &xa, &xb, &mut cache);
        distance_iterations += 1;
        if R::ENABLED {
            let (pa, pb, _) = c.surface_points(ra, rb);
            rec.record(ToiStep {
                kind: ToiStepKind::Distance,
                t: t1,
                xf_a: xa,
                xf_b: xb,
                point_a: pa,
                point_b: pb,
                distance: c.distance - ra - rb,
                axis: c.normal,
                bound: c.distance,
                advance: t1 - previous_t1,
            });
        }
        previous_t1 = t1;
        if c.overlap || !c.distance.is_finite() {
            break ToiOutput {
                state: ToiState::Overlapped,
                t: 0.0,
                normal: Vec2::ZERO,
                point: Vec2::ZERO,
                iterations: distance_iterations,
            };
        }
        if c.distance <= target + tolerance {
            break hit(&c, t1, ToiState::Hit, distance_iterations);
        }

        let f = SeparationFunction::new(&cache, proxy_a, sweep_a, proxy_b, sweep_b, t1);
        let mut done = None;
        let mut t2 = t_max;
        for _ in 0..MAX_POLYGON_VERTICES {
            let (mut s2, ia, ib) = f.find_min_separation(t2);
            if s2 > target + tolerance {
                let none = Vec2::ZERO;
                done = Some(ToiOutput {
                    state: ToiState::Separated,
                    t: t_max,
                    normal: none,
                    point: none,
                    iterations: distance_iterations,
                });
                break;
            }
            if s2 > target - tolerance {
                t1 = t2;
                break;
            }
            let mut s1 = f.evaluate(ia, ib, t1);
            if R::ENABLED {
                let (pa, pb, axis) = f.witness(ia, ib, t2);
                rec.record(ToiStep {
                    kind: ToiStepKind::PushBack,
                    t: t2,
                    xf_a: sweep_a.transform(t2),
                    xf_b: sweep_b.transform(t2),
                    point_a: pa + ra * axis,
                    point_b: pb - rb * axis,
                    distance: s2 - ra - rb,
                    axis,
                    bound: s1,
                    advance: 0.0,
                });
            }
            if s1 < target - tolerance || !s1.is_finite() {
                done = Some(ToiOutput {
                    state: ToiState::IterationLimit,
                    t: t1,
                    normal: Vec2::ZERO,
                    point: Vec2::ZERO,
                    iterations: distance_iterations,
                });
                break;
            }
            if s1 <= target + tolerance {
                done = Some(hit(&c, t1, ToiState::Hit, distance_iterations));
                break;
            }
            // The root of s(t) = target in [a1, a2].
            let (mut a1, mut a2) = (t1, t2);
            for k in 0..ROOT_MAX_ITERATIONS {
                let t = if k & 1 == 1 { a1 + (target - s1) * (a2 - a1) / (s2 - s1) } else { 0.5 * (a1 + a2) };
                let s = f.evaluate(ia, ib, t);
                if (s - target).abs() < tolerance {
                    t2 = t;
                    break;
                }
                if s > target {
                    (a1, s1) = (t, s);
                } else {
                    (a2, s2) = (t, s);
                }
            }
        }
        if let Some(out) = done {
            break out;
        }
        if distance_iterations == ROOT_FINDER_MAX_ITERATIONS {
            break hit(&c, t1, ToiState::IterationLimit, distance_iterations);
        }
    };
    let out = sanitized(out, t_max);
    if R::ENABLED {
        rec.record(done_step(input, &out, 0.0));
    }
    out
}
