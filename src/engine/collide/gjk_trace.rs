//! The GJK trace: every iteration of [`super::gjk::gjk_with`] as plain data (the simplex in
//! configuration space with its support indices, the closest point to the origin, the search
//! direction and the new support point), and a picture of iteration `k`.

use super::gjk::{GjkEnd, GjkOutput, SimplexVertex};
use super::support::{Inset, SupportPoint};
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::trace::{step_caption, Trace};
use glam::Vec2;
use serde::Serialize;

/// One GJK iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GjkStep {
    /// The simplex after `do_simplex` (the feature nearest the origin), in A − B.
    pub simplex: Vec<SimplexVertex>,
    /// The simplex's point closest to the origin.
    pub closest: Vec2,
    /// The search direction, from the simplex towards the origin (zero if it encloses it).
    pub direction: Vec2,
    /// The support point of A − B along `direction`, if the loop got that far.
    pub support: Option<SupportPoint>,
    /// On the last step: why GJK stopped.
    pub end: Option<GjkEnd>,
}

/// Every iteration of one GJK run, plus its result. Shape-space points (`SupportPoint::a`,
/// `b`, the result's closest points) are in world space when the trace came from
/// [`super::gjk::distance`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GjkTrace {
    pub radius_a: f32,
    pub radius_b: f32,
    pub steps: Vec<GjkStep>,
    pub result: Option<GjkOutput>,
}

crate::engine::trace::recorded_steps!(GjkTrace, GjkStep);

impl Trace for GjkTrace {
    fn steps(&self) -> usize {
        self.len()
    }

    fn step_label(&self, k: usize) -> String {
        step_caption("GJK iteration", k, self.len())
    }

    /// Draws step `k` in configuration space at its own scale (see `draw` for an inset).
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        self.draw(k, d, Vec2::ZERO, 1.0);
    }
}

impl GjkTrace {
    pub fn new() -> GjkTrace {
        GjkTrace::default()
    }

    /// Empties the trace for a new run.
    pub fn clear(&mut self, radius_a: f32, radius_b: f32) {
        self.radius_a = radius_a;
        self.radius_b = radius_b;
        self.steps.clear();
        self.result = None;
    }

    /// Adds `offset` to every shape-space point, the result's too (configuration space does
    /// not move).
    pub fn shift(&mut self, offset: Vec2) {
        for step in &mut self.steps {
            for v in &mut step.simplex {
                v.sp.a += offset;
                v.sp.b += offset;
            }
            if let Some(sp) = &mut step.support {
                sp.a += offset;
                sp.b += offset;
            }
        }
        if let Some(r) = &mut self.result {
            r.point_a += offset;
            r.point_b += offset;
            r.simplex.shift(offset);
        }
    }

    /// Draws iteration `k` (clamped to the last) with the configuration-space origin at
    /// `origin` and `scale` world units per configuration unit: the simplex, its closest point,
    /// the search direction and the new support point on `Layer::Simplex`. From the last step
    /// on, the result: the separation vector in the inset and, in world space (unscaled), the
    /// closest points (`Layer::Contact`) and the normal between them (`Layer::Normal`).
    pub fn draw(&self, k: usize, d: &mut dyn DebugDraw, origin: Vec2, scale: f32) {
        let Some(last) = self.steps.len().checked_sub(1) else { return };
        let step = &self.steps[k.min(last)];
        let view = Inset { origin, scale };
        if d.wants(Layer::Simplex) {
            d.point(Layer::Simplex, origin, 6.0, palette::CONFIG_ORIGIN);
            let pts = view.map_all(step.simplex.iter().map(|v| v.sp.w));
            match pts.len() {
                2 => d.segment(Layer::Simplex, pts[0], pts[1], palette::SIMPLEX),
                3 => d.polygon(Layer::Simplex, &pts, palette::SIMPLEX.with_alpha(0.2), palette::SIMPLEX),
                _ => {}
            }
            for p in &pts {
                d.point(Layer::Simplex, *p, 6.0, palette::SIMPLEX);
            }
            let c = view.map(step.closest);
            d.point(Layer::Simplex, c, 5.0, palette::SEARCH_DIRECTION);
            let extent = step.simplex.iter().fold(step.closest.length(), |m, v| m.max(v.sp.w.length()));
            if let Some(dir) = step.direction.try_normalize() {
                let len = step.closest.length().max(0.3 * extent) * scale;
                d.arrow(Layer::Simplex, c, c + dir * len, palette::SEARCH_DIRECTION);
            }
            if let Some(sp) = &step.support {
                let p = view.map(sp.w);
                d.segment(Layer::Simplex, c, p, palette::SUPPORT_POINT.with_alpha(0.5));
                d.point(Layer::Simplex, p, 8.0, palette::SUPPORT_POINT);
            }
            let label = match step.end {
                Some(end) => format!("GJK {}/{}: {:?}", k.min(last) + 1, last + 1, end),
                None => format!("GJK {}/{}", k.min(last) + 1, last + 1),
            };
            d.text(Layer::Simplex, origin + Vec2::new(0.0, -0.15 * extent.max(1.0) * scale), &label, palette::TEXT);
        }
        if k >= last {
            if let Some(r) = &self.result {
                draw_result(r, d, view);
            }
        }
    }
}

fn draw_result(r: &GjkOutput, d: &mut dyn DebugDraw, view: Inset) {
    if r.overlap {
        return;
    }
    if d.wants(Layer::Normal) {
        // In A − B the closest point of the rounded difference is point_a − point_b.
        d.arrow(Layer::Normal, view.origin, view.map(r.point_a - r.point_b), palette::NORMAL);
        d.arrow(Layer::Normal, r.point_a, r.point_b, palette::NORMAL);
    }
    if d.wants(Layer::Contact) {
        d.point(Layer::Contact, r.point_a, 6.0, palette::CONTACT_NEW);
        d.point(Layer::Contact, r.point_b, 6.0, palette::CONTACT_NEW);
    }
}
