//! Conservative advancement with rotation: the 004 article's "Continuous Angular/Linear"
//! (Brian Mirtich's bound on how fast two rotating convex bodies can close a gap, Erwin
//! Coumans's loop). At the current time the closest points give the distance `d` and the
//! normal `n`; no point of either shape can approach the other along `n` faster than
//!
//! `bound = (vA − vB)·n + |ωA|·r_maxA + |ωB|·r_maxB`
//!
//! (the relative linear speed along the normal, plus "the length of the arc travelled by" the
//! point furthest from each centre, "L = θ·r"), so the shapes stay at least `target` apart
//! for another `(d − target) / bound`. Advance by that, measure again, and stop when the
//! distance is within `tolerance` of the target (a hit), when the bound says the shapes do
//! not approach or the advance passes `t_max` (separated), or at the iteration cap ("in
//! production code you would most likely limit the number of allowed iterations"). Every
//! advance is safe, so the answer never tunnels: at worst it stops early.
//!
//! `ω` is the sweep's largest rate of turn ([`super::Sweep::max_angular_speed`]): Box2D's
//! sweeps blend rotations by nlerp, which turns fastest mid-sweep.

use super::trace::{ToiStep, ToiStepKind, ToiTrace};
use super::{
    core_distance, done_step, invalid_output, sanitized, time_of_impact, ToiInput, ToiMethod, ToiOutput, ToiState,
};
use crate::engine::collide::gjk_cache::SimplexCache;
use crate::engine::collide::support::{Proxy, Recorder};
use glam::Vec2;

/// Iteration cap (distance queries).
pub const CA_MAX_ITERATIONS: usize = 64;

/// Conservative advancement, recording into `trace` when given.
pub fn conservative_advancement(input: &ToiInput, trace: Option<&mut ToiTrace>) -> ToiOutput {
    time_of_impact(ToiMethod::ConservativeAdvancement, input, trace)
}

/// The distance from the rotation centre to the furthest point of the rounded shape.
pub fn max_extent(p: &Proxy, local_center: Vec2) -> f32 {
    p.points().iter().map(|q| (*q - local_center).length()).fold(0.0, f32::max) + p.radius
}

/// Conservative advancement with any recorder.
pub fn conservative_advancement_with<R: Recorder<ToiStep>>(input: &ToiInput, rec: &mut R) -> ToiOutput {
    conservative_advancement_from(input, 0.0, 0, rec)
}

/// Conservative advancement started at `t_start`, a time up to which the shapes are known to
/// stay `target` apart, having already spent `spent` distance queries (the certified method's
/// fallback, [`super::certified()`]).
pub fn conservative_advancement_from<R: Recorder<ToiStep>>(
    input: &ToiInput,
    t_start: f32,
    spent: usize,
    rec: &mut R,
) -> ToiOutput {
    if !input.is_valid() {
        return invalid_output();
    }
    let (t_max, target, tol) = input.limits();
    let base = input.sweep_a.c1;
    let rel = ToiInput { sweep_a: input.sweep_a.relative_to(base), sweep_b: input.sweep_b.relative_to(base), ..*input };
    let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
    let spin = rel.sweep_a.max_angular_speed() * max_extent(&input.proxy_a, input.sweep_a.local_center)
        + rel.sweep_b.max_angular_speed() * max_extent(&input.proxy_b, input.sweep_b.local_center);
    let dv = rel.sweep_a.translation() - rel.sweep_b.translation();
    let mut cache = SimplexCache::default();
    let mut t = if t_start.is_finite() { t_start.clamp(0.0, t_max) } else { 0.0 };
    let mut iterations = spent;
    let (state, c) = loop {
        let (xa, xb) = rel.transforms(t);
        let c = core_distance(&rel, &xa, &xb, &mut cache);
        iterations += 1;
        if c.overlap {
            break (ToiState::Overlapped, c);
        }
        if !c.distance.is_finite() {
            break (ToiState::IterationLimit, c);
        }
        if c.distance <= target + tol {
            break (ToiState::Hit, c);
        }
        let bound = dv.dot(c.normal) + spin;
        let (advance, state) = if bound <= 0.0 {
            (t_max - t, Some(ToiState::Separated))
        } else {
            let dt = (c.distance - target) / bound;
            if t + dt >= t_max {
                (t_max - t, Some(ToiState::Separated))
            } else if iterations - spent >= CA_MAX_ITERATIONS {
                (0.0, Some(ToiState::IterationLimit))
            } else {
                (dt, None)
            }
        };
        if R::ENABLED {
            let (pa, pb, _) = c.surface_points(ra, rb);
            rec.record(ToiStep {
                kind: ToiStepKind::Distance,
                t,
                xf_a: input.sweep_a.transform(t),
                xf_b: input.sweep_b.transform(t),
                point_a: pa + base,
                point_b: pb + base,
                distance: c.distance - ra - rb,
                axis: c.normal,
                bound,
                advance,
            });
        }
        if let Some(state) = state {
            break (state, c);
        }
        t += advance;
    };
    let mid = c.surface_points(ra, rb).2;
    let out = match state {
        ToiState::Hit | ToiState::IterationLimit => {
            ToiOutput { state, t, normal: c.normal, point: mid + base, iterations }
        }
        ToiState::Overlapped => ToiOutput { state, t, normal: Vec2::ZERO, point: mid + base, iterations },
        ToiState::Separated => ToiOutput { state, t: t_max, normal: Vec2::ZERO, point: Vec2::ZERO, iterations },
    };
    let out = sanitized(out, t_max);
    if R::ENABLED {
        rec.record(done_step(input, &out, dv.dot(c.normal) + spin));
    }
    out
}
