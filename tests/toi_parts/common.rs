//! Random shapes and sweeps for the time-of-impact tests, and an independent oracle: the core
//! distance sampled densely along a sweep with GJK.

#![allow(dead_code)] // shared with benches/toi.rs, which uses part of it

use glam::Vec2;
use manifold_lab::engine::collide::gjk::gjk;
use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::collide::toi::{local_proxy, Sweep, ToiInput};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::{Polygon, Shape};

/// SplitMix64, so every run tests the same cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }

    pub fn vec(&mut self, lo: f32, hi: f32) -> Vec2 {
        Vec2::new(self.f32(lo, hi), self.f32(lo, hi))
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A random shape as a proxy in its body frame, with its centre of mass: a box, a convex
/// polygon (hull of 3–8 random points), a circle or a capsule.
pub fn random_proxy(rng: &mut Rng) -> (Proxy, Vec2) {
    match rng.below(4) {
        0 => {
            let s = Shape::make_box(Vec2::new(rng.f32(0.05, 1.0), rng.f32(0.05, 1.0))).unwrap();
            (local_proxy(&s), s.mass_data(1.0).center)
        }
        1 => loop {
            let n = 3 + rng.below(6);
            let pts: Vec<Vec2> = (0..n).map(|_| rng.vec(-0.8, 0.8)).collect();
            if let Ok(p) = Polygon::hull(&pts) {
                let s = Shape::Polygon(p);
                break (local_proxy(&s), s.mass_data(1.0).center);
            }
        },
        2 => (Proxy::circle(Vec2::ZERO, rng.f32(0.05, 0.8)), Vec2::ZERO),
        _ => {
            let h = rng.f32(0.1, 0.8);
            (Proxy::capsule(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), rng.f32(0.05, 0.4)), Vec2::ZERO)
        }
    }
}

/// A random sweep: B starts a few metres from A and crosses it; each turns by up to
/// `max_turn` radians (0 = translation only).
pub fn random_input(rng: &mut Rng, max_turn: f32) -> ToiInput {
    let (pa, lca) = random_proxy(rng);
    let (pb, lcb) = random_proxy(rng);
    let a0 = Transform::new(rng.vec(-0.5, 0.5), rng.f32(-3.0, 3.0));
    let a1 = Transform::new(a0.p + rng.vec(-1.0, 1.0), a0.q.angle() + max_turn * rng.f32(-1.0, 1.0));
    let dir = Vec2::from_angle(rng.f32(0.0, std::f32::consts::TAU));
    let start = -dir * rng.f32(2.0, 5.0) + rng.vec(-1.5, 1.5);
    let b0 = Transform::new(start, rng.f32(-3.0, 3.0));
    let b1 = Transform::new(start + dir * rng.f32(2.0, 9.0), b0.q.angle() + max_turn * rng.f32(-1.0, 1.0));
    ToiInput::new(pa, Sweep::between(lca, &a0, &a1), pb, Sweep::between(lcb, &b0, &b1))
}

/// The core distance at `t` (GJK on the cores, independent of every TOI method).
pub fn core_distance_at(input: &ToiInput, t: f32) -> f32 {
    let (xa, xb) = input.transforms(t);
    let moved = |p: &Proxy, xf: &Transform| {
        let pts: Vec<Vec2> = p.points().iter().map(|&q| xf.apply(q)).collect();
        Proxy::new(&pts, 0.0)
    };
    let g = gjk(&moved(&input.proxy_a, &xa), &moved(&input.proxy_b, &xb), None);
    if g.simplex.count == 3 {
        0.0
    } else {
        g.core_distance
    }
}

/// The first sample time in `[0, t_end]` (of `n` + 1 evenly spaced) at which the core
/// distance is below `limit`, if any.
pub fn first_sample_below(input: &ToiInput, t_end: f32, n: usize, limit: f32) -> Option<f32> {
    (0..=n).map(|k| t_end * k as f32 / n as f32).find(|&t| core_distance_at(input, t) < limit)
}

/// An upper bound on how fast any point of B moves relative to A, metres per unit t.
pub fn relative_speed(input: &ToiInput) -> f32 {
    let extent = |p: &Proxy, c: Vec2| p.points().iter().map(|q| (*q - c).length()).fold(0.0, f32::max) + p.radius;
    (input.sweep_b.translation() - input.sweep_a.translation()).length()
        + input.sweep_a.max_angular_speed() * extent(&input.proxy_a, input.sweep_a.local_center)
        + input.sweep_b.max_angular_speed() * extent(&input.proxy_b, input.sweep_b.local_center)
}
