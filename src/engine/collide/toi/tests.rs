//! Unit tests of the five methods on cases with closed-form answers, and degenerate inputs.

use super::*;
use crate::engine::debug::{DebugList, LayerSet};
use crate::engine::math::Rot;
use crate::engine::trace::Trace;
use std::f32::consts::FRAC_PI_4;

fn moving(shape: &Shape, from: Vec2, a0: f32, to: Vec2, a1: f32) -> (Proxy, Sweep) {
    let lc = shape.mass_data(1.0).center;
    (local_proxy(shape), Sweep::between(lc, &Transform::new(from, a0), &Transform::new(to, a1)))
}

fn input(a: &Shape, sa: (Vec2, f32, Vec2, f32), b: &Shape, sb: (Vec2, f32, Vec2, f32)) -> ToiInput {
    let (pa, swa) = moving(a, sa.0, sa.1, sa.2, sa.3);
    let (pb, swb) = moving(b, sb.0, sb.1, sb.2, sb.3);
    ToiInput::new(pa, swa, pb, swb)
}

fn all(input: &ToiInput) -> Vec<(ToiMethod, ToiOutput)> {
    ToiMethod::ALL.iter().map(|&m| (m, time_of_impact(m, input, None))).collect()
}

#[test]
fn circle_circle_closed_form() {
    let (ca, cb) = (Shape::circle(0.5).unwrap(), Shape::circle(0.25).unwrap());
    let (p0, d) = (Vec2::new(-4.0, 0.3), Vec2::new(8.0, -0.2));
    let inp = input(&ca, (Vec2::ZERO, 0.0, Vec2::ZERO, 0.0), &cb, (p0, 0.0, p0 + d, 0.0));
    // |p0 + t·d| = target, the smaller root.
    let target = inp.target;
    assert!((target - (0.75 - LINEAR_SLOP)).abs() < 1e-7);
    let (b, c) = (p0.dot(d), p0.length_squared() - target * target);
    let exact = (-b - (b * b - d.length_squared() * c).sqrt()) / d.length_squared();
    for (m, out) in all(&inp) {
        assert_eq!(out.state, ToiState::Hit, "{m:?}");
        let err = (out.t - exact).abs() * d.length();
        assert!(err < inp.tolerance, "{m:?}: t {} vs {exact} ({err} m)", out.t);
        let centre_b = p0 + out.t * d;
        assert!((out.normal - centre_b.normalize()).length() < 2e-3, "{m:?}: normal {}", out.normal);
        // The point lies between the surfaces, on the line of centres.
        assert!((out.point.length() - 0.5 * (0.5 + centre_b.length() - 0.25)).abs() < 2e-3, "{m:?}");
    }
}

#[test]
fn box_onto_a_face() {
    let big = Shape::make_box(Vec2::ONE).unwrap();
    let small = Shape::make_box(Vec2::splat(0.5)).unwrap();
    let inp =
        input(&big, (Vec2::ZERO, 0.0, Vec2::ZERO, 0.0), &small, (Vec2::new(-5.0, 0.2), 0.0, Vec2::new(5.0, 0.2), 0.0));
    // B's right face at −4.5 + 10t meets A's left face at −1 less the target.
    let exact = (3.5 - inp.target) / 10.0;
    for (m, out) in all(&inp) {
        assert_eq!(out.state, ToiState::Hit, "{m:?}");
        assert!((out.t - exact).abs() * 10.0 < 1e-4, "{m:?}: {} vs {exact}", out.t);
        assert!((out.normal - Vec2::NEG_X).length() < 1e-4, "{m:?}: {}", out.normal);
        assert!((out.point.x + 1.0 + 0.5 * inp.target).abs() < 1e-3, "{m:?}: {}", out.point);
    }
}

#[test]
fn pure_rotation_hits_at_the_known_angle() {
    // A plank spinning about its centre; a round post whose centre is at (1, 1). The plank's
    // top face, 0.05 above its axis, is `target` from the post's centre when
    // √2·cos(θ + π/4) = 0.05 + target.
    let plank = Shape::make_box(Vec2::new(2.0, 0.05)).unwrap();
    let post = Shape::circle(0.1).unwrap();
    let turn = 1.2f32;
    let inp = input(&post, (Vec2::ONE, 0.0, Vec2::ONE, 0.0), &plank, (Vec2::ZERO, 0.0, Vec2::ZERO, turn));
    let theta = ((0.05 + inp.target) / std::f32::consts::SQRT_2).acos() - FRAC_PI_4;
    // Nlerp reaches angle θ at t = tan θ / (sin Δ + tan θ (1 − cos Δ)).
    let exact = theta.tan() / (turn.sin() + theta.tan() * (1.0 - turn.cos()));
    for m in [ToiMethod::ConservativeAdvancement, ToiMethod::RootFinder, ToiMethod::Certified] {
        let out = time_of_impact(m, &inp, None);
        assert_eq!(out.state, ToiState::Hit, "{m:?}");
        let angle = inp.sweep_b.transform(out.t).q.angle();
        // Within the distance tolerance: 1.41 m from the pivot, an angle of tolerance / 1.41.
        assert!((angle - theta).abs() < inp.tolerance / 1.4, "{m:?}: angle {angle} vs {theta}");
        assert!(out.t <= exact + 1e-6 || (angle - theta).abs() < 1e-4, "{m:?}: {} vs {exact}", out.t);
    }
    // The casts hold the plank at its start angle: its top face stays 0.95 below the post.
    for m in [ToiMethod::LinearCast, ToiMethod::GjkRayCast] {
        assert_eq!(time_of_impact(m, &inp, None).state, ToiState::Separated, "{m:?}");
    }
}

#[test]
fn degenerate_inputs_give_defined_answers() {
    let b = Shape::make_box(Vec2::splat(0.5)).unwrap();
    let still = (Vec2::new(3.0, 0.0), 0.0, Vec2::new(3.0, 0.0), 0.0);
    let here = (Vec2::ZERO, 0.0, Vec2::ZERO, 0.0);
    let cases = [
        // No motion at all, apart: separated.
        (input(&b, here, &b, still), Some(ToiState::Separated)),
        // Coincident: overlapped at 0.
        (input(&b, here, &b, here), Some(ToiState::Overlapped)),
        // Huge coordinates and motion.
        (input(&b, (Vec2::splat(1e30), 0.0, Vec2::splat(-1e30), 3.0), &b, here), None),
        (
            input(
                &b,
                (Vec2::new(1e7, 0.0), 0.0, Vec2::new(1e7 - 10.0, 0.0), 0.0),
                &b,
                (Vec2::new(1e7 - 5.0, 0.0), 0.0, Vec2::new(1e7 - 5.0, 0.0), 0.0),
            ),
            None,
        ),
    ];
    for (inp, want) in cases {
        for (m, out) in all(&inp) {
            assert!(out.t.is_finite() && out.normal.is_finite() && out.point.is_finite(), "{m:?}: {out:?}");
            assert!((0.0..=1.0).contains(&out.t), "{m:?}: {out:?}");
            if let Some(w) = want {
                assert_eq!(out.state, w, "{m:?}");
            }
        }
    }
    // NaN in the input: nothing is known to be safe.
    let mut inp = input(&b, here, &b, still);
    inp.sweep_b.c2.x = f32::NAN;
    for (m, out) in all(&inp) {
        assert_eq!((out.state, out.t), (ToiState::IterationLimit, 0.0), "{m:?}");
    }
    inp = input(&b, here, &b, still);
    inp.sweep_a.q2 = Rot { c: f32::INFINITY, s: 0.0 };
    assert!(all(&inp).iter().all(|(_, o)| o.t == 0.0 && o.state == ToiState::IterationLimit));
}

#[test]
fn traces_match_the_untraced_runs_and_draw_every_step() {
    let plank = Shape::make_box(Vec2::new(2.0, 0.05)).unwrap();
    let post = Shape::make_box(Vec2::splat(0.1)).unwrap();
    let inp = input(
        &post,
        (Vec2::new(1.0, 1.2), 0.0, Vec2::new(1.0, 1.2), 0.0),
        &plank,
        (Vec2::new(-1.0, 0.0), 0.0, Vec2::new(0.0, 0.0), 1.5),
    );
    for m in ToiMethod::ALL {
        let mut trace = ToiTrace::new();
        let traced = time_of_impact(m, &inp, Some(&mut trace));
        assert_eq!(traced, time_of_impact(m, &inp, None), "{m:?}");
        assert_eq!(trace.result, Some(traced));
        assert!(trace.len() >= 2, "{m:?}: {}", trace.len());
        assert!(matches!(trace.steps.last().unwrap().kind, ToiStepKind::Done(s) if s == traced.state));
        for k in 0..trace.len() {
            let mut list = DebugList::new(LayerSet::ALL);
            trace.draw_step(k, &mut list);
            assert!(list.count(crate::engine::debug::Layer::Motion) >= 6, "{m:?} step {k}");
            assert!(list.count(crate::engine::debug::Layer::Contact) >= 2);
        }
        let s = &trace.steps[0];
        assert!(s.t == 0.0 && s.xf_b.p.is_finite());
    }
}
