//! Continuous collision: when do two moving convex shapes first come within a target distance
//! of each other (004 article, "Continuous")? Five methods, one per file:
//!
//! - [`linear_cast()`]: the article's "Continuous Linear": the relative translation as a ray
//!   from the origin against the Minkowski difference A − B (rounded by the target distance),
//!   exact for polygons and circles, blind to rotation.
//! - [`gjk_ray_cast()`]: Gino van den Bergen's GJK ray cast ("Ray Casting against General
//!   Convex Objects with Application to Continuous Collision Detection", 2004), which the
//!   article describes next: the same ray against support functions only, so capsules and
//!   any other proxy work; it agrees with the linear cast.
//! - [`conservative_advancement()`]: the article's "Continuous Angular/Linear" (Mirtich's bound,
//!   Coumans's loop): distance → advance by distance over the closing-speed bound (relative
//!   speed along the normal plus |ω|·r_max of each shape) → repeat.
//! - [`root_finder()`]: Box2D v3's `b2TimeOfImpact`: separating-axis functions (points, face A,
//!   face B) whose roots are bracketed and found by mixed bisection and false position.
//! - [`certified()`] (the default): the root finder's advances, each accepted only when
//!   conservative advancement's motion bound certifies that no earlier contact is possible;
//!   otherwise conservative advancement from the last certified time. The root finder alone
//!   can step over a contact under rotation; this cannot.
//!
//! All five read a [`ToiInput`] (two [`Proxy`]s in their body frames, two [`Sweep`]s, the
//! interval `[0, t_max]`, a target and a tolerance) and give a [`ToiOutput`]. The time of
//! impact is the first `t` at which the distance between the *cores* (polygons, circle
//! centres, capsule segments: see [`super::support`]) falls to `target`; Box2D's choice,
//! [`default_target`], keeps polygons a linear slop apart and lets rounded shapes overlap by a
//! linear slop, so the solver finds a contact at the next step either way.
//!
//! Each method takes an optional [`ToiTrace`] through the zero-cost [`Recorder`] mechanism of
//! GJK and EPA: `None` compiles the recording out.

pub mod certified;
pub mod conservative_advancement;
pub mod gjk_ray_cast;
pub mod linear_cast;
pub mod root_finder;
pub mod separation;
pub mod shrunk_core;
pub mod sweep;
pub mod trace;

pub use certified::{certified, certified_with, CERTIFY_MAX_SAMPLES};
pub use conservative_advancement::{conservative_advancement, conservative_advancement_with, CA_MAX_ITERATIONS};
pub use gjk_ray_cast::{gjk_ray_cast, gjk_ray_cast_with, RAY_CAST_MAX_ITERATIONS};
pub use linear_cast::{linear_cast, linear_cast_with};
pub use root_finder::{root_finder, root_finder_with, ROOT_FINDER_MAX_ITERATIONS};
pub use shrunk_core::shrunk_core;
pub use sweep::Sweep;
pub use trace::{ToiStep, ToiStepKind, ToiTrace};

use super::gjk_cache::{gjk_simplex_cached, SimplexCache};
use super::support::{NoTrace, Proxy, Recorder};
use crate::engine::math::Transform;
use crate::engine::shape::Shape;
use crate::engine::LINEAR_SLOP;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Box2D's root-finding tolerance on the distance, a quarter of the linear slop.
pub const TOI_TOLERANCE: f32 = 0.25 * LINEAR_SLOP;

/// Box2D's target core distance for a pair of shapes with summed radius `total_radius`:
/// `max(linear slop, total_radius − linear slop)`.
pub fn default_target(total_radius: f32) -> f32 {
    LINEAR_SLOP.max(total_radius - LINEAR_SLOP)
}

/// How a time-of-impact query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToiState {
    /// The cores came within `target` (± `tolerance`) at `t`.
    Hit,
    /// No hit in `[0, t_max]`; `t = t_max`.
    Separated,
    /// The cores already overlap at `t = 0`: time of impact cannot say more.
    Overlapped,
    /// The iteration cap was reached (or the numbers stopped being usable); `t` is the last
    /// time known to be safe (the cores at least `target − tolerance` apart up to it).
    IterationLimit,
}

/// A time-of-impact method, for callers that pick one at run time (the lab, presets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ToiMethod {
    LinearCast,
    GjkRayCast,
    ConservativeAdvancement,
    RootFinder,
    #[default]
    Certified,
}

impl ToiMethod {
    pub const ALL: [ToiMethod; 5] = [
        ToiMethod::LinearCast,
        ToiMethod::GjkRayCast,
        ToiMethod::ConservativeAdvancement,
        ToiMethod::RootFinder,
        ToiMethod::Certified,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ToiMethod::LinearCast => "Linear cast (Minkowski difference)",
            ToiMethod::GjkRayCast => "GJK ray cast (van den Bergen)",
            ToiMethod::ConservativeAdvancement => "Conservative advancement (angular + linear)",
            ToiMethod::RootFinder => "Separating-axis root finder (Box2D)",
            ToiMethod::Certified => "Certified root finder (motion bound)",
        }
    }

    /// Whether the method follows rotation (the casts hold each shape at its start rotation).
    pub fn handles_rotation(self) -> bool {
        matches!(self, ToiMethod::ConservativeAdvancement | ToiMethod::RootFinder | ToiMethod::Certified)
    }
}

/// Two shapes and their motions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ToiInput {
    /// The shapes in their body frames.
    pub proxy_a: Proxy,
    pub proxy_b: Proxy,
    pub sweep_a: Sweep,
    pub sweep_b: Sweep,
    /// The sweeps are examined over `[0, t_max]`, `t_max ∈ [0, 1]`.
    pub t_max: f32,
    /// Core distance that counts as impact (see [`default_target`]).
    pub target: f32,
    /// How close to `target` the iterative methods must get.
    pub tolerance: f32,
}

/// The result of a time-of-impact query.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ToiOutput {
    pub state: ToiState,
    /// Time of impact for `Hit`, `t_max` for `Separated`, 0 for `Overlapped`, the last safe
    /// time for `IterationLimit`.
    pub t: f32,
    /// Unit normal from A to B at `t` (zero when unknown: overlapped, separated).
    pub normal: Vec2,
    /// The contact point at `t`: midway between the two surfaces (Box2D's averaged point).
    pub point: Vec2,
    /// Main-loop iterations (distance queries, ray advances).
    pub iterations: usize,
}

impl ToiOutput {
    /// Whether the shapes reach the target distance within the interval (`Hit` at any `t`).
    pub fn is_hit(&self) -> bool {
        self.state == ToiState::Hit
    }
}

/// The proxy of `shape` in its body frame.
pub fn local_proxy(shape: &Shape) -> Proxy {
    Proxy::from_shape(shape, &Transform::IDENTITY, Vec2::ZERO)
}

impl ToiInput {
    /// Two proxies (in their body frames) and sweeps over `[0, 1]`, with Box2D's target and
    /// tolerance.
    pub fn new(proxy_a: Proxy, sweep_a: Sweep, proxy_b: Proxy, sweep_b: Sweep) -> ToiInput {
        let target = default_target(proxy_a.radius + proxy_b.radius);
        ToiInput { proxy_a, proxy_b, sweep_a, sweep_b, t_max: 1.0, target, tolerance: TOI_TOLERANCE }
    }

    /// [`ToiInput::new`] for two engine shapes.
    pub fn from_shapes(a: &Shape, sweep_a: Sweep, b: &Shape, sweep_b: Sweep) -> ToiInput {
        ToiInput::new(local_proxy(a), sweep_a, local_proxy(b), sweep_b)
    }

    /// Both shapes' transforms at `t`.
    pub fn transforms(&self, t: f32) -> (Transform, Transform) {
        (self.sweep_a.transform(t), self.sweep_b.transform(t))
    }

    /// Whether every number is finite and the counts are valid.
    pub fn is_valid(&self) -> bool {
        let proxy_ok = |p: &Proxy| {
            (1..=p.points.len()).contains(&p.count)
                && p.points().iter().all(|q| q.is_finite())
                && p.radius.is_finite()
                && p.radius >= 0.0
        };
        proxy_ok(&self.proxy_a)
            && proxy_ok(&self.proxy_b)
            && self.sweep_a.is_finite()
            && self.sweep_b.is_finite()
            && self.t_max.is_finite()
            && self.target.is_finite()
            && self.tolerance.is_finite()
    }

    /// `(t_max, target, tolerance)` made usable: `t_max` clamped to `[0, 1]`, a positive
    /// tolerance (Box2D's when unusable), and a target above the tolerance (the iterative
    /// methods stop within `tolerance` of it and need a positive distance to find a normal).
    pub(crate) fn limits(&self) -> (f32, f32, f32) {
        let tolerance = if self.tolerance > 0.0 { self.tolerance } else { TOI_TOLERANCE };
        (self.t_max.clamp(0.0, 1.0), self.target.max(1.5 * tolerance), tolerance)
    }

    /// The relative translation of the ray casts: B's centre displacement minus A's (each
    /// shape held at its start rotation).
    pub(crate) fn relative_translation(&self) -> Vec2 {
        self.sweep_b.translation() - self.sweep_a.translation()
    }
}

/// Runs `method` on `input`, recording into `trace` when given (it is cleared first and keeps
/// the input and result, so it can redraw any step).
pub fn time_of_impact(method: ToiMethod, input: &ToiInput, trace: Option<&mut ToiTrace>) -> ToiOutput {
    match trace {
        Some(t) => {
            t.clear(method, input);
            let out = run_with(method, input, t);
            t.result = Some(out);
            out
        }
        None => run_with(method, input, &mut NoTrace),
    }
}

/// [`time_of_impact`] with any recorder.
pub fn run_with<R: Recorder<ToiStep>>(method: ToiMethod, input: &ToiInput, rec: &mut R) -> ToiOutput {
    match method {
        ToiMethod::LinearCast => linear_cast_with(input, rec),
        ToiMethod::GjkRayCast => gjk_ray_cast_with(input, rec),
        ToiMethod::ConservativeAdvancement => conservative_advancement_with(input, rec),
        ToiMethod::RootFinder => root_finder_with(input, rec),
        ToiMethod::Certified => certified_with(input, rec),
    }
}

/// The answer for an input with non-finite numbers: nothing is known to be safe.
pub(crate) fn invalid_output() -> ToiOutput {
    ToiOutput { state: ToiState::IterationLimit, t: 0.0, normal: Vec2::ZERO, point: Vec2::ZERO, iterations: 0 }
}

/// Makes sure an output carries no NaN: a non-finite time becomes an `IterationLimit` at 0,
/// a non-finite normal or point becomes zero.
pub(crate) fn sanitized(mut out: ToiOutput, t_max: f32) -> ToiOutput {
    if !out.t.is_finite() {
        out = ToiOutput { state: ToiState::IterationLimit, t: 0.0, ..out };
    }
    out.t = out.t.clamp(0.0, t_max);
    if !out.normal.is_finite() {
        out.normal = Vec2::ZERO;
    }
    if !out.point.is_finite() {
        out.point = Vec2::ZERO;
    }
    out
}

/// The trace's last step: the answer, with the closest points and distance at its time and
/// the method's last `bound`.
pub(crate) fn done_step(input: &ToiInput, out: &ToiOutput, bound: f32) -> ToiStep {
    let (xa, xb) = input.transforms(out.t);
    let c = core_distance(input, &xa, &xb, &mut SimplexCache::default());
    let (ra, rb) = (input.proxy_a.radius, input.proxy_b.radius);
    let (pa, pb, _) = c.surface_points(ra, rb);
    ToiStep {
        kind: ToiStepKind::Done(out.state),
        t: out.t,
        xf_a: xa,
        xf_b: xb,
        point_a: pa,
        point_b: pb,
        distance: c.distance - ra - rb,
        axis: if out.normal != Vec2::ZERO { out.normal } else { c.normal },
        bound,
        advance: 0.0,
    }
}

/// A proxy moved by `xf` (points and edge normals).
#[inline]
pub(crate) fn proxy_at(p: &Proxy, xf: &Transform) -> Proxy {
    let mut out = *p;
    for i in 0..p.count {
        out.points[i] = xf.apply(p.points[i]);
        out.normals[i] = xf.q.apply(p.normals[i]);
    }
    out
}

/// The two cores at one time, in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CoreDistance {
    /// Distance between the cores; 0 when they overlap.
    pub distance: f32,
    /// Unit normal from A to B; zero when the cores touch or overlap.
    pub normal: Vec2,
    /// Closest points of the cores.
    pub point_a: Vec2,
    pub point_b: Vec2,
    /// The cores overlap (or touch within GJK's tolerance).
    pub overlap: bool,
}

impl CoreDistance {
    /// The closest points moved out to the rounded surfaces, and their midpoint.
    pub fn surface_points(&self, ra: f32, rb: f32) -> (Vec2, Vec2, Vec2) {
        let (pa, pb) = (self.point_a + ra * self.normal, self.point_b - rb * self.normal);
        (pa, pb, 0.5 * (pa + pb))
    }
}

/// GJK between the cores at transforms `xa`, `xb`, run in A's frame as Box2D's
/// `b2ShapeDistance` does (only B's points are moved), warm-started from `cache`. The normal
/// is the last search direction, as Box2D's.
#[inline]
pub(crate) fn core_distance(
    input: &ToiInput,
    xa: &Transform,
    xb: &Transform,
    cache: &mut SimplexCache,
) -> CoreDistance {
    let rel = xa.inv_mul(xb);
    let mut pb = input.proxy_b;
    for q in &mut pb.points[..pb.count] {
        *q = rel.apply(*q);
    }
    let (s, _) = gjk_simplex_cached(&input.proxy_a, &pb, cache);
    let (ca, cb) = s.witness_points();
    let d = s.search_direction();
    let distance = ca.distance(cb);
    let overlap = s.count == 3 || d.length_squared() < f32::EPSILON * f32::EPSILON || distance == 0.0;
    CoreDistance {
        distance: if overlap { 0.0 } else { distance },
        normal: if overlap { Vec2::ZERO } else { xa.q.apply(d.normalize_or_zero()) },
        point_a: xa.apply(ca),
        point_b: xa.apply(cb),
        overlap,
    }
}

#[cfg(test)]
mod tests;
