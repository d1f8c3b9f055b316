//! The 004 article's "Continuous Linear": "if all we want to do is a linear sweep of our
//! shapes to find the first time of collision ignoring rotation, the only thing we have to do
//! is to ray-cast from the origin towards the MD using the relative velocity of the two
//! objects as the ray segment end". In this project's A − B convention the shapes touch at
//! time `t` when the origin lies on the boundary of `(A − B) + t·(dA − dB)`, that is when the
//! ray `t·(dB − dA)` from the origin enters `A − B`.
//!
//! The difference is walked as the article builds it ("you fire the ray at the edges of the
//! MD, which you build as usual"): every edge of A against B's supporting vertex most opposite
//! its normal, every edge of B against A's, each edge skipped when the ray is back-facing
//! ("you can even avoid testing edges if the ray is back-facing with respect to the edge
//! normal"). A radius rounds the difference: the ray is tested against the edges pushed out
//! by it and a circle at every vertex, so circles and capsules are exact too. The rounding is
//! the target distance, so the cast stops where the cores are `target` apart, the definition
//! every method here shares.
//!
//! Each shape is held at its start rotation. "One caveat is that A must not intersect B to
//! start with, or the test will fail": the start is checked with GJK first.

use super::trace::{ToiStep, ToiStepKind, ToiTrace};
use super::{
    core_distance, invalid_output, proxy_at, sanitized, time_of_impact, ToiInput, ToiMethod, ToiOutput, ToiState,
};
use crate::engine::collide::gjk_cache::SimplexCache;
use crate::engine::collide::support::Recorder;
use glam::Vec2;

/// The linear cast, recording into `trace` when given.
pub fn linear_cast(input: &ToiInput, trace: Option<&mut ToiTrace>) -> ToiOutput {
    time_of_impact(ToiMethod::LinearCast, input, trace)
}

/// Which feature of the (rounded) difference the ray enters through.
#[derive(Clone, Copy)]
enum Entry {
    /// An edge of A against vertex `j` of B.
    EdgeA(usize),
    /// Vertex `i` of A against an edge of B.
    EdgeB(usize),
    /// The circle around Minkowski vertex (vertex of A, vertex of B).
    Vertex(usize, usize),
}

/// The first entry of the ray `λ·r`, `λ ∈ [0, λ_max]`, into the difference rounded by `rho`.
struct Cast {
    r: Vec2,
    rho: f32,
    best: f32,
    normal: Vec2,
    entry: Option<Entry>,
}

impl Cast {
    /// The edge `s → e` with outward normal `n`, pushed out by `rho`.
    fn edge(&mut self, s: Vec2, e: Vec2, n: Vec2, entry: Entry) {
        let nr = n.dot(self.r);
        if nr >= 0.0 {
            return; // back-facing
        }
        let (s, e) = (s + self.rho * n, e + self.rho * n);
        let lambda = n.dot(s) / nr;
        if !(0.0..self.best).contains(&lambda) {
            return;
        }
        let edge = e - s;
        let len2 = edge.length_squared();
        if len2 <= 0.0 {
            return;
        }
        let u = (lambda * self.r - s).dot(edge) / len2;
        if (0.0..=1.0).contains(&u) {
            (self.best, self.normal, self.entry) = (lambda, n, Some(entry));
        }
    }

    /// The circle of radius `rho` around Minkowski vertex `v`: the smaller root of
    /// `|λ·r − v|² = rho²`, written `c / (b + √disc)` to keep precision.
    fn vertex(&mut self, v: Vec2, entry: Entry) {
        if self.rho <= 0.0 {
            return;
        }
        let b = self.r.dot(v);
        let c = v.length_squared() - self.rho * self.rho;
        let disc = b * b - self.r.length_squared() * c;
        if b <= 0.0 || disc < 0.0 {
            return;
        }
        let lambda = c / (b + disc.sqrt());
        if (0.0..self.best).contains(&lambda) {
            let n = (lambda * self.r - v) / self.rho;
            (self.best, self.normal, self.entry) = (lambda, n.normalize_or_zero(), Some(entry));
        }
    }
}

/// The linear cast with any recorder.
pub fn linear_cast_with<R: Recorder<ToiStep>>(input: &ToiInput, rec: &mut R) -> ToiOutput {
    if !input.is_valid() {
        return invalid_output();
    }
    let (t_max, _, _) = input.limits();
    let rho = input.target.max(0.0);
    // Work relative to A's starting centre, both shapes at their start rotation.
    let base = input.sweep_a.c1;
    let (xa, xb) = (input.sweep_a.relative_to(base).transform(0.0), input.sweep_b.relative_to(base).transform(0.0));
    let (pa, pb) = (proxy_at(&input.proxy_a, &xa), proxy_at(&input.proxy_b, &xb));
    let (da, db) = (input.sweep_a.translation(), input.sweep_b.translation());
    let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
    let start = core_distance(input, &xa, &xb, &mut SimplexCache::default());
    let (sa, sb, _) = start.surface_points(ra, rb);
    let step = |kind, t: f32, pa: Vec2, pb: Vec2, dist: f32, axis: Vec2, bound: f32, advance: f32| ToiStep {
        kind,
        t,
        xf_a: input.sweep_a.transform(t),
        xf_b: input.sweep_b.transform(t),
        point_a: pa + base,
        point_b: pb + base,
        distance: dist - ra - rb,
        axis,
        bound,
        advance,
    };
    let r = input.relative_translation();
    if R::ENABLED {
        rec.record(step(ToiStepKind::Distance, 0.0, sa, sb, start.distance, start.normal, -start.normal.dot(r), 0.0));
    }
    let done = |rec: &mut R, out: ToiOutput, pa: Vec2, pb: Vec2, dist: f32| {
        let out = sanitized(ToiOutput { point: out.point + base, ..out }, t_max);
        if R::ENABLED {
            rec.record(step(ToiStepKind::Done(out.state), out.t, pa, pb, dist, out.normal, -out.normal.dot(r), out.t));
        }
        out
    };
    if start.overlap || start.distance <= rho {
        let state = if start.overlap { ToiState::Overlapped } else { ToiState::Hit };
        let out = ToiOutput { state, t: 0.0, normal: start.normal, point: 0.5 * (sa + sb), iterations: 1 };
        return done(rec, out, sa, sb, start.distance);
    }

    let mut cast = Cast { r, rho, best: f32::INFINITY, normal: Vec2::ZERO, entry: None };
    for i in 0..pa.edge_count() {
        let n = pa.normals[i];
        let j = pb.support_index(-n);
        let i2 = (i + 1) % pa.count;
        let (s, e) = (pa.points[i] - pb.points[j], pa.points[i2] - pb.points[j]);
        cast.edge(s, e, n, Entry::EdgeA(j));
        cast.vertex(s, Entry::Vertex(i, j));
        cast.vertex(e, Entry::Vertex(i2, j));
    }
    for k in 0..pb.edge_count() {
        let n = -pb.normals[k];
        let i = pa.support_index(n);
        let k2 = (k + 1) % pb.count;
        let (s, e) = (pa.points[i] - pb.points[k], pa.points[i] - pb.points[k2]);
        cast.edge(s, e, n, Entry::EdgeB(i));
        cast.vertex(s, Entry::Vertex(i, k));
        cast.vertex(e, Entry::Vertex(i, k2));
    }
    if pa.edge_count() == 0 && pb.edge_count() == 0 {
        cast.vertex(pa.points[0] - pb.points[0], Entry::Vertex(0, 0));
    }
    let (lambda, n) = (cast.best, cast.normal);
    let Some(entry) = cast.entry.filter(|_| lambda <= t_max) else {
        let out =
            ToiOutput { state: ToiState::Separated, t: t_max, normal: Vec2::ZERO, point: Vec2::ZERO, iterations: 1 };
        return done(rec, out, sa, sb, start.distance);
    };
    // The cores' closest points at λ: `target` apart along n.
    let (a_at, b_at) = (|i: usize| pa.points[i] + lambda * da, |j: usize| pb.points[j] + lambda * db);
    let (core_a, core_b) = match entry {
        Entry::EdgeA(j) => (b_at(j) - rho * n, b_at(j)),
        Entry::EdgeB(i) => (a_at(i), a_at(i) + rho * n),
        Entry::Vertex(i, j) => (a_at(i), b_at(j)),
    };
    let (pa_s, pb_s) = (core_a + ra * n, core_b - rb * n);
    let out = ToiOutput { state: ToiState::Hit, t: lambda, normal: n, point: 0.5 * (pa_s + pb_s), iterations: 1 };
    done(rec, out, pa_s, pb_s, rho)
}
