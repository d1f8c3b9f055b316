//! Gino van den Bergen's GJK ray cast ("Ray Casting against General Convex Objects with
//! Application to Continuous Collision Detection", 2004, Algorithm 1), the generalisation the
//! 004 article points to: "you provide a function which can return the closest distance
//! between two shapes and the normal at that point ... the algorithm intersects the velocity
//! ray against the returned normal ... the red point becomes the new estimate".
//!
//! The ray `λ·r` (`r = dB − dA`, see [`super::linear_cast()`]) is cast against `C = A − B`
//! rounded by the target distance, using only support points of C. GJK keeps a simplex of
//! points `p ∈ C` and the vector `v` from its nearest point to the current ray point `x`;
//! when the support plane of C along `v` (pushed out by the rounding) separates `x`, the ray
//! advances to that plane ("intersects the velocity ray against the returned normal") and
//! the plane's normal becomes the hit normal; otherwise the support point refines the simplex.
//! Every advance stays before the true hit, so the estimate is conservative. It terminates
//! when `x` is within `target + tolerance` of the cores' difference.
//!
//! Like the linear cast it holds each shape at its start rotation, and agrees with it.

use super::trace::{ToiStep, ToiStepKind, ToiTrace};
use super::{
    core_distance, done_step, invalid_output, proxy_at, sanitized, time_of_impact, ToiInput, ToiMethod, ToiOutput,
    ToiState,
};
use crate::engine::collide::gjk::{Simplex, SimplexVertex};
use crate::engine::collide::gjk_cache::SimplexCache;
use crate::engine::collide::support::{support, Recorder};
use glam::Vec2;

/// Iteration cap of the ray cast (support-point queries).
pub const RAY_CAST_MAX_ITERATIONS: usize = 64;

/// The GJK ray cast, recording into `trace` when given.
pub fn gjk_ray_cast(input: &ToiInput, trace: Option<&mut ToiTrace>) -> ToiOutput {
    time_of_impact(ToiMethod::GjkRayCast, input, trace)
}

/// The GJK ray cast with any recorder.
pub fn gjk_ray_cast_with<R: Recorder<ToiStep>>(input: &ToiInput, rec: &mut R) -> ToiOutput {
    if !input.is_valid() {
        return invalid_output();
    }
    let (t_max, _, tol) = input.limits();
    let rho = input.target.max(0.0);
    let base = input.sweep_a.c1;
    let (xa, xb) = (input.sweep_a.relative_to(base).transform(0.0), input.sweep_b.relative_to(base).transform(0.0));
    let (pa, pb) = (proxy_at(&input.proxy_a, &xa), proxy_at(&input.proxy_b, &xb));
    let (da, db) = (input.sweep_a.translation(), input.sweep_b.translation());
    let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
    let r = input.relative_translation();

    let mut lambda = 0.0f32;
    let mut x = Vec2::ZERO;
    let mut plane_normal = Vec2::ZERO;
    let mut s = Simplex::default();
    let mut v = x - (pa.points[0] - pb.points[0]);
    let mut iterations = 0;
    // (state, whether the loop converged onto the rounded difference)
    let state = loop {
        let vlen = v.length();
        if !vlen.is_finite() || !lambda.is_finite() {
            break ToiState::IterationLimit;
        }
        if vlen - rho <= tol {
            break ToiState::Hit;
        }
        if iterations == RAY_CAST_MAX_ITERATIONS {
            break ToiState::IterationLimit;
        }
        iterations += 1;
        let sp = support(&pa, &pb, v);
        let w = x - sp.w;
        // The support plane of C ⊕ disk(rho) along v separates x when v·w > rho·|v|.
        let vw = v.dot(w) - rho * vlen;
        let mut advance = 0.0;
        let (lambda0, v0) = (lambda, v);
        let duplicate = s.vertices().iter().any(|u| u.sp.same_vertex(&sp));
        if vw > 0.0 {
            let vr = v.dot(r);
            if vr >= 0.0 {
                break ToiState::Separated;
            }
            let next = lambda - vw / vr;
            if next > t_max {
                break ToiState::Separated;
            }
            advance = next - lambda;
            lambda = next;
            x = lambda * r;
            plane_normal = v;
        } else if duplicate {
            // GJK has converged for this x but the plane does not separate it: round-off.
            break if vlen - rho <= 2.0 * tol { ToiState::Hit } else { ToiState::IterationLimit };
        }
        if R::ENABLED {
            let n = v0.normalize_or_zero();
            let (a, b) = if s.count == 0 { (pa.points[0], pb.points[0]) } else { s.witness_points() };
            rec.record(ToiStep {
                kind: ToiStepKind::Distance,
                t: lambda0,
                xf_a: input.sweep_a.transform(lambda0),
                xf_b: input.sweep_b.transform(lambda0),
                point_a: a + lambda0 * da + ra * n + base,
                point_b: b + lambda0 * db - rb * n + base,
                distance: v0.length() - ra - rb,
                axis: n,
                bound: -n.dot(r),
                advance,
            });
        }
        if !duplicate {
            let first = s.count == 0;
            s.v[s.count] = SimplexVertex { sp, bary: if first { 1.0 } else { 0.0 } };
            s.count += 1;
        }
        for u in &mut s.v[..s.count] {
            u.sp.w = x - (u.sp.a - u.sp.b);
        }
        s.do_simplex();
        v = s.closest_point();
    };

    let mut out = match state {
        ToiState::Separated => ToiOutput { state, t: t_max, normal: Vec2::ZERO, point: Vec2::ZERO, iterations },
        _ if lambda == 0.0 => {
            // At the start: GJK tells overlapping cores from cores within the target.
            let c = core_distance(input, &xa, &xb, &mut SimplexCache::default());
            let st = if c.overlap { ToiState::Overlapped } else { state };
            ToiOutput { state: st, t: 0.0, normal: c.normal, point: c.surface_points(ra, rb).2 + base, iterations }
        }
        _ => {
            let normal = if v.length_squared() > 0.0 { v.normalize() } else { plane_normal.normalize_or_zero() };
            let (a, b) = s.witness_points();
            let (pa_s, pb_s) = (a + lambda * da + ra * normal, b + lambda * db - rb * normal);
            ToiOutput { state, t: lambda, normal, point: 0.5 * (pa_s + pb_s) + base, iterations }
        }
    };
    out = sanitized(out, t_max);
    if R::ENABLED {
        rec.record(done_step(input, &out, -out.normal.dot(r)));
    }
    out
}
