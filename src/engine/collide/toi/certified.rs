//! Certified time of impact: Box2D's root finder ([`super::root_finder()`]) proposes each
//! advance, and the 004 article's motion bound for "Continuous Angular/Linear" (Mirtich's
//! bound: "if we know the maximum distance from the origin of the shape, and we know the
//! angular velocity, we can find an upper bound for the linear component of the angular
//! rotation", `L = θ·r`) accepts it only when no contact can come earlier. Where the bound
//! cannot certify an advance, conservative advancement (Coumans's loop, same section) takes
//! over from the last certified time, so no hit is missed under rotation.
//!
//! **The certificate.** The gap between the cores along a fixed world direction `n` (the
//! least projection of B's core minus the greatest of A's) is a lower bound on their distance,
//! and it changes at most at `|(v_B − v_A)·n| + |ω_A|·r_A + |ω_B|·r_B` per unit time (each
//! core point's speed along `n`: its centre's, plus its arc around the centre of mass). A gap
//! `g` measured at `τ` therefore keeps the cores at least `target − tolerance` apart over an
//! interval around `τ` whose reach forward and backward is `(g − target + tolerance)` over the
//! closing rate in that direction (the signed `v·n` makes one side longer). An advance from
//! `t1` to `t2` is accepted when such intervals cover `[t1, t2]`: GJK's distance at `t1`, the
//! gap along the separating axis at `t2`, and where they leave a hole, the gap at its middle
//! (along the separating axis, or by GJK where that axis is a poor one), recursively, within
//! a budget of [`CERTIFY_MAX_SAMPLES`] samples per query. Without rotation nothing needs
//! certifying: each pair's separation along a fixed axis is then linear in time, so the
//! deepest pair's is concave and the root finder's checks at the ends of an advance suffice.

use super::conservative_advancement::conservative_advancement_from;
use super::root_finder::{root_finder_checked, AdvanceCheck};
use super::separation::{SeparationFunction, SeparationType};
use super::sweep::MAX_SWEEP_ANGULAR_SPEED;
use super::trace::{ToiStep, ToiTrace};
use super::{core_distance, time_of_impact, CoreDistance, ToiInput, ToiMethod, ToiOutput};
use crate::engine::collide::gjk_cache::SimplexCache;
use crate::engine::collide::support::{Proxy, Recorder};
use glam::Vec2;

/// Gap samples per query before the certificate gives up and conservative advancement
/// continues from the last certified time.
pub const CERTIFY_MAX_SAMPLES: usize = 24;
/// A hole in the cover this short (in metres of the fastest possible approach) is accepted:
/// f32 round-off in the distances is larger.
pub const CERTIFY_SLACK: f32 = 5.0e-6;
/// Depth of the cover's stack of holes.
const STACK: usize = 16;

/// The certified method, recording into `trace` when given.
pub fn certified(input: &ToiInput, trace: Option<&mut ToiTrace>) -> ToiOutput {
    time_of_impact(ToiMethod::Certified, input, trace)
}

/// The certified method with any recorder: the root finder under `MotionBound`; on the first
/// advance the bound does not certify, conservative advancement from where it started.
pub fn certified_with<R: Recorder<ToiStep>>(input: &ToiInput, rec: &mut R) -> ToiOutput {
    let mut bound = MotionBound::new(input);
    match root_finder_checked(input, rec, &mut bound) {
        (out, None) => out,
        (out, Some(t1)) => conservative_advancement_from(input, t1, out.iterations, rec),
    }
}

/// The distance from the centre of mass to the furthest core point (the radius is not part of
/// the core, whose gap is what is bounded).
fn core_extent(p: &Proxy, local_center: Vec2) -> f32 {
    p.points().iter().map(|q| (*q - local_center).length_squared()).fold(0.0, f32::max).sqrt()
}

/// [`super::Sweep::max_angular_speed`], `2·tan(Δ/2)`, from the half-angle identity
/// `tan(Δ/2) = sin Δ / (1 + cos Δ)` on the relative rotation (no trigonometric call).
fn turn_rate(s: &super::Sweep) -> f32 {
    if s.is_translation() {
        return 0.0;
    }
    let (a, b) = (s.q1, s.q2);
    let (cos, sin) = (a.c * b.c + a.s * b.s, a.c * b.s - a.s * b.c);
    let rate = 2.0 * sin.abs() / (1.0 + cos);
    if rate.is_finite() && rate >= 0.0 {
        rate.min(MAX_SWEEP_ANGULAR_SPEED)
    } else {
        MAX_SWEEP_ANGULAR_SPEED
    }
}

/// A gap measured at one time: the cores are at least `gap` apart along the world direction
/// `n` (A to B).
#[derive(Clone, Copy, Debug)]
struct Sample {
    t: f32,
    gap: f32,
    n: Vec2,
}

/// The motion bound of one query, as an [`AdvanceCheck`] of the root finder.
pub(crate) struct MotionBound<'a> {
    input: &'a ToiInput,
    /// B's centre displacement minus A's over the sweep.
    dv: Vec2,
    /// `|ω_A|·r_A + |ω_B|·r_B`, the sweeps' largest rates of turn times the core extents.
    spin: f32,
    /// The fastest any core point approaches the other core, in any direction.
    max_rate: f32,
    /// The distance the cores must keep before the reported time: `target − tolerance`.
    floor: f32,
    target: f32,
    samples: usize,
    cache: SimplexCache,
}

impl<'a> MotionBound<'a> {
    pub fn new(input: &'a ToiInput) -> MotionBound<'a> {
        let (_, target, tolerance) = input.limits();
        let (sa, sb) = (&input.sweep_a, &input.sweep_b);
        let spin = turn_rate(sa) * core_extent(&input.proxy_a, sa.local_center)
            + turn_rate(sb) * core_extent(&input.proxy_b, sb.local_center);
        let dv = sb.translation() - sa.translation();
        MotionBound {
            input,
            dv,
            spin,
            max_rate: dv.length() + spin,
            floor: target - tolerance,
            target,
            samples: 0,
            cache: SimplexCache::default(),
        }
    }

    /// How long after `s.t` the gap cannot have fallen below the floor.
    fn reach_forward(&self, s: &Sample) -> f32 {
        let rate = self.spin - self.dv.dot(s.n);
        if rate > 0.0 {
            (s.gap - self.floor) / rate
        } else {
            f32::INFINITY
        }
    }

    /// How long before `s.t` the gap cannot have been below the floor.
    fn reach_back(&self, s: &Sample) -> f32 {
        let rate = self.spin + self.dv.dot(s.n);
        if rate > 0.0 {
            (s.gap - self.floor) / rate
        } else {
            f32::INFINITY
        }
    }

    /// The gap at `t` along `f`'s axis (both supports, so it bounds the distance whatever the
    /// axis), or GJK's distance where that is below `enough`; `None` below the floor.
    fn sample(&mut self, f: &SeparationFunction, t: f32, enough: f32) -> Option<Sample> {
        let input = self.input;
        let (xa, xb) = input.transforms(t);
        let n = match f.kind {
            SeparationType::Points => f.axis,
            SeparationType::FaceA => xa.q.apply(f.axis),
            SeparationType::FaceB => -xb.q.apply(f.axis),
        };
        let ia = input.proxy_a.support_index(xa.q.apply_inv(n));
        let ib = input.proxy_b.support_index(xb.q.apply_inv(-n));
        let gap = (xb.apply(input.proxy_b.points[ib]) - xa.apply(input.proxy_a.points[ia])).dot(n);
        if gap >= enough && gap.is_finite() {
            return Some(Sample { t, gap, n });
        }
        let c = core_distance(input, &xa, &xb, &mut self.cache);
        let best = if c.overlap { gap } else { c.distance.max(gap) };
        let n = if c.overlap || gap >= c.distance { n } else { c.normal };
        (best >= self.floor && best.is_finite()).then_some(Sample { t, gap: best, n })
    }

    /// Whether samples cover `[a.t, b.t]` (see the module docs), within the budget.
    fn cover(&mut self, f: &SeparationFunction, a: Sample, b: Sample) -> bool {
        if a.t + self.reach_forward(&a) >= b.t - self.reach_back(&b) {
            return true; // the common case: the two ends cover the advance
        }
        let mut stack = [(a, b); STACK];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (lo, hi) = stack[len];
            let (l, r) = (lo.t + self.reach_forward(&lo), hi.t - self.reach_back(&hi));
            if l >= r || (r - l) * self.max_rate <= CERTIFY_SLACK {
                continue;
            }
            if self.samples >= CERTIFY_MAX_SAMPLES || len + 2 > STACK {
                return false;
            }
            self.samples += 1;
            let Some(m) = self.sample(f, 0.5 * (l + r), self.target) else { return false };
            stack[len] = (m, hi);
            stack[len + 1] = (lo, m);
            len += 2;
        }
        true
    }
}

impl AdvanceCheck for MotionBound<'_> {
    fn accept(&mut self, t1: f32, c1: &CoreDistance, f: &SeparationFunction, t2: f32) -> bool {
        if self.spin == 0.0 {
            // Translations: along the fixed axis each pair's separation is linear in t, so the
            // deepest pair's (their minimum) is concave and no lower inside `[t1, t2]` than at
            // its ends, which the root finder checked. Box2D's root finder is exact here.
            return true;
        }
        let a = Sample { t: t1, gap: c1.distance, n: c1.normal };
        if a.n == Vec2::ZERO || a.gap < self.floor {
            return false;
        }
        // The end sample is not counted: the root finder measured there already (the deepest
        // pair's separation there is within the tolerance of the target or above it).
        match self.sample(f, t2, self.floor) {
            Some(b) => self.cover(f, a, b),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::math::Transform;

    #[test]
    fn turn_rate_is_the_sweeps_largest_rate_of_turn() {
        for turn in [0.0f32, 0.1, 0.785, 1.5, 2.5, -2.5, 3.1] {
            let s = super::super::Sweep::between(
                Vec2::ZERO,
                &Transform::new(Vec2::ZERO, 0.7),
                &Transform::new(Vec2::ONE, 0.7 + turn),
            );
            let (fast, reference) = (turn_rate(&s), s.max_angular_speed());
            assert!((fast - reference).abs() <= 1e-4 * reference.max(1.0), "{turn}: {fast} vs {reference}");
        }
    }
}
