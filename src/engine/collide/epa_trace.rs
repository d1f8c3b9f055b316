//! The EPA trace: every expansion of [`super::epa::epa_with`] as plain data (the polytope, the
//! closest edge with its normal and distance, the new support point and whether the tolerance
//! test ended the search), and a picture of expansion `k`.

use super::epa::{EpaEnd, Penetration};
use super::support::{Inset, SupportPoint};
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::number::Num;
use crate::engine::trace::{step_caption, Trace};
use glam::Vec2;
use serde::Serialize;

/// The polytope edge closest to the origin (the article's `Edge`): it runs from vertex `index`
/// to vertex `index + 1`, with outward unit `normal` and `distance` from the origin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EpaEdge {
    pub index: usize,
    pub normal: Vec2,
    pub distance: f32,
}

/// One EPA iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpaStep {
    /// The polytope (CCW, configuration space A − B) before this iteration's expansion.
    pub polytope: Vec<SupportPoint>,
    pub closest_edge: EpaEdge,
    /// The support point of A − B along the closest edge's normal, and its distance along it.
    pub support: SupportPoint,
    pub support_distance: f32,
    /// The article's test `|support distance − edge distance| ≤ ε` ended the search here.
    pub terminated_by_tolerance: bool,
    /// On the last step: why EPA stopped.
    pub end: Option<EpaEnd>,
}

/// Every expansion of one EPA run, plus its result. Shape-space points are in world space
/// when the trace came from [`super::epa::penetration`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EpaTrace {
    /// How many points GJK's simplex had (fewer than 3 means EPA blew it up to a triangle).
    pub gjk_simplex_count: usize,
    pub steps: Vec<EpaStep>,
    pub result: Option<Penetration>,
}

crate::engine::trace::recorded_steps!(EpaTrace, EpaStep);

impl Trace for EpaTrace {
    fn steps(&self) -> usize {
        self.len()
    }

    fn step_label(&self, k: usize) -> String {
        step_caption("EPA expansion", k, self.len())
    }

    /// Draws step `k` in configuration space at its own scale (see `draw` for an inset).
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        self.draw(k, d, Vec2::ZERO, 1.0);
    }
}

impl EpaTrace {
    pub fn new() -> EpaTrace {
        EpaTrace::default()
    }

    pub fn clear(&mut self, gjk_simplex_count: usize) {
        self.gjk_simplex_count = gjk_simplex_count;
        self.steps.clear();
        self.result = None;
    }

    /// Adds `offset` to every shape-space point, the result's too (configuration space does
    /// not move).
    pub fn shift(&mut self, offset: Vec2) {
        for step in &mut self.steps {
            for sp in step.polytope.iter_mut().chain(std::iter::once(&mut step.support)) {
                sp.a += offset;
                sp.b += offset;
            }
        }
        if let Some(r) = &mut self.result {
            r.point_a += offset;
            r.point_b += offset;
        }
    }

    /// Draws expansion `k` (clamped to the last) with the configuration-space origin at
    /// `origin`, `scale` world units per configuration unit, on `Layer::Polytope`: the
    /// polytope, its closest edge with the normal from the origin's projection, and the support
    /// point along it. From the last step on (or if EPA needed no iteration), the result: the
    /// penetration vector in the inset and, in world space (unscaled), the deepest points
    /// (`Layer::Contact`) and the arrow from B's to A's (`Layer::Normal`, along the normal).
    pub fn draw(&self, k: usize, d: &mut dyn DebugDraw, origin: Vec2, scale: f32) {
        let view = Inset { origin, scale };
        let last = self.steps.len().checked_sub(1);
        if let (Some(last), true) = (last, d.wants(Layer::Polytope)) {
            let step = &self.steps[k.min(last)];
            let pts = view.map_all(step.polytope.iter().map(|sp| sp.w));
            d.polygon(Layer::Polytope, &pts, palette::POLYTOPE.with_alpha(0.15), palette::POLYTOPE);
            for p in &pts {
                d.point(Layer::Polytope, *p, 5.0, palette::POLYTOPE);
            }
            d.point(Layer::Polytope, origin, 6.0, palette::CONFIG_ORIGIN);
            let e = step.closest_edge;
            let (i, j) = (e.index, (e.index + 1) % pts.len().max(1));
            d.segment(Layer::Polytope, pts[i], pts[j], palette::CLOSEST_EDGE);
            let foot = view.map(e.normal * e.distance);
            let extent = step.polytope.iter().fold(0.0f32, |m, sp| m.max(sp.w.length()));
            d.segment(Layer::Polytope, origin, foot, palette::CLOSEST_EDGE.with_alpha(0.5));
            d.arrow(Layer::Polytope, foot, foot + e.normal * (0.3 * extent * scale), palette::CLOSEST_EDGE);
            let s = view.map(step.support.w);
            d.point(Layer::Polytope, s, 8.0, palette::SUPPORT_POINT);
            let label = format!(
                "EPA {}/{}: edge {} at {:.4}, support at {:.4}{}",
                k.min(last) + 1,
                last + 1,
                e.index,
                Num(e.distance),
                Num(step.support_distance),
                step.end.map(|end| format!(": {end:?}")).unwrap_or_default()
            );
            d.text(Layer::Polytope, origin + Vec2::new(0.0, -0.15 * extent.max(1.0) * scale), &label, palette::TEXT);
        }
        if k >= last.unwrap_or(0) {
            if let Some(r) = &self.result {
                draw_result(r, d, view);
            }
        }
    }
}

fn draw_result(r: &Penetration, d: &mut dyn DebugDraw, view: Inset) {
    if d.wants(Layer::Normal) {
        // In A − B the face point closest to the origin is point_a − point_b = depth · normal.
        d.arrow(Layer::Normal, view.origin, view.map(r.depth * r.normal), palette::PENETRATION);
        d.arrow(Layer::Normal, r.point_b, r.point_a, palette::PENETRATION);
    }
    if d.wants(Layer::Contact) {
        d.point(Layer::Contact, r.point_a, 6.0, palette::CONTACT_NEW);
        d.point(Layer::Contact, r.point_b, 6.0, palette::CONTACT_NEW);
    }
}
