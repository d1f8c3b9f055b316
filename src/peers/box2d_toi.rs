//! Box2D v3's `b2TimeOfImpact` (its C library through `boxdd-sys`, the raw FFI under the
//! `boxdd` crate; the 004 article's "Continuous collision", Box2D's local separating axis
//! method) on our inputs: the same proxies (points + radius in the body frame) and the same
//! sweeps (`b2Sweep`: the local centre, the centre of mass lerped from `c1` to `c2`, the
//! rotation nlerped from `q1` to `q2`), `maxFraction` our `t_max`. Box2D keeps its own target
//! (`max(linear slop, total radius − linear slop)`) and tolerance.

use crate::engine::collide::support::Proxy;
use crate::engine::collide::toi::{Sweep, ToiInput, ToiOutput, ToiState};
use boxdd_sys::ffi::{
    b2MakeProxy, b2Rot, b2Sweep, b2TOIInput, b2TOIOutput, b2TOIState_b2_toiStateFailed, b2TOIState_b2_toiStateHit,
    b2TOIState_b2_toiStateOverlapped, b2TOIState_b2_toiStateSeparated, b2TimeOfImpact, b2Vec2,
};
use glam::Vec2;

fn v(p: Vec2) -> b2Vec2 {
    b2Vec2 { x: p.x, y: p.y }
}

fn sweep(s: &Sweep) -> b2Sweep {
    b2Sweep {
        localCenter: v(s.local_center),
        c1: v(s.c1),
        c2: v(s.c2),
        q1: b2Rot { c: s.q1.c, s: s.q1.s },
        q2: b2Rot { c: s.q2.c, s: s.q2.s },
    }
}

/// Our proxy (points and radius) as Box2D's `b2ShapeProxy` (`b2MakeProxy`).
pub fn proxy(p: &Proxy) -> boxdd_sys::ffi::b2ShapeProxy {
    let pts: Vec<b2Vec2> = p.points().iter().map(|&q| v(q)).collect();
    // SAFETY: `pts` holds `count` valid points; the proxy is a plain copy.
    unsafe { b2MakeProxy(pts.as_ptr(), pts.len() as i32, p.radius) }
}

/// The input in Box2D's terms (target and tolerance are Box2D's own: the input must use the
/// defaults for the answers to be comparable).
pub fn input(i: &ToiInput) -> b2TOIInput {
    b2TOIInput {
        proxyA: proxy(&i.proxy_a),
        proxyB: proxy(&i.proxy_b),
        sweepA: sweep(&i.sweep_a),
        sweepB: sweep(&i.sweep_b),
        maxFraction: i.t_max,
    }
}

/// `b2TimeOfImpact` on a prepared input.
#[inline]
pub fn time_of_impact_raw(i: &b2TOIInput) -> (ToiState, f32, Vec2) {
    // SAFETY: a pure function of its plain-data input.
    decode(&unsafe { b2TimeOfImpact(i) })
}

/// Box2D's output as our state, fraction and normal.
fn decode(out: &b2TOIOutput) -> (ToiState, f32, Vec2) {
    #[allow(non_upper_case_globals)]
    let state = match out.state {
        b2TOIState_b2_toiStateHit => ToiState::Hit,
        b2TOIState_b2_toiStateSeparated => ToiState::Separated,
        b2TOIState_b2_toiStateOverlapped => ToiState::Overlapped,
        b2TOIState_b2_toiStateFailed => ToiState::IterationLimit,
        _ => ToiState::IterationLimit,
    };
    (state, out.fraction, Vec2::new(out.normal.x, out.normal.y))
}

/// `b2TimeOfImpact` on our input, as our output type (its hit point, world space; Box2D does
/// not report its iterations).
pub fn time_of_impact(i: &ToiInput) -> ToiOutput {
    // SAFETY: a pure function of its plain-data input.
    let out = unsafe { b2TimeOfImpact(&input(i)) };
    let (state, t, normal) = decode(&out);
    ToiOutput { state, t, normal, point: Vec2::new(out.point.x, out.point.y), iterations: 0 }
}
