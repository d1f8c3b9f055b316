//! Every pair kind's trace behind one type: SAT + clipping for two polygons (with the 000
//! article's AABB construction first when both are axis-aligned boxes), the rounded-polygon
//! path for a polygon and a capsule, and the closest-point traces for circles and capsules.
//! The lab steps any of them with the same slider.

use manifold_lab::engine::collide::aabb::{axis_aligned_box, collide_aabbs_with, AabbStep, AabbTrace};
use manifold_lab::engine::collide::capsule::{collide_capsule_circle_with, collide_capsules_with};
use manifold_lab::engine::collide::capsule_trace::CapsuleTrace;
use manifold_lab::engine::collide::circle::collide_circles_with;
use manifold_lab::engine::collide::circle_trace::CircleTrace;
use manifold_lab::engine::collide::clip_trace::{ClipTrace, CLIP_STAGES};
use manifold_lab::engine::collide::pair_trace::PairStep;
use manifold_lab::engine::collide::polygon::{collide_polygons_traced, ReferenceFaceRule};
use manifold_lab::engine::collide::polygon_circle::collide_polygon_circle_with;
use manifold_lab::engine::collide::polygon_circle_trace::PolygonCircleTrace;
use manifold_lab::engine::collide::rounded::collide_polygon_capsule_with;
use manifold_lab::engine::collide::Manifold;
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::{Polygon, Shape};
use manifold_lab::engine::trace::{step_caption, Trace};
use manifold_lab::engine::World;

/// The trace of one pair, whatever its shapes.
pub enum PairTrace {
    /// Two polygons: SAT + clipping.
    Polygons(ClipTrace),
    /// Two axis-aligned boxes: the article's construction, then SAT + clipping.
    Boxes(AabbTrace, ClipTrace),
    /// A polygon and a capsule (the capsule a rounded two-gon); `swapped` when the polygon
    /// is B (the trace names the polygon A, as the pair dispatch calls it).
    PolygonCapsule {
        trace: ClipTrace,
        swapped: bool,
    },
    PolygonCircle(PolygonCircleTrace),
    Circles(CircleTrace),
    /// Capsule–capsule or capsule–circle.
    Capsules(CapsuleTrace),
}

/// The trace of bodies `a` and `b` with the world's speculative margin and the polygons'
/// reference-face `rule`; normals drawn `scale` metres long.
pub fn trace_bodies(world: &World, a: usize, b: usize, rule: ReferenceFaceRule, scale: f32) -> Option<PairTrace> {
    let (ba, bb) = (world.bodies.get(a)?, world.bodies.get(b)?);
    let (xa, xb, margin) = (&ba.xf, &bb.xf, world.params.speculative_margin);
    let flipped = |mut t: PolygonCircleTrace| {
        t.flip_result();
        t
    };
    Some(match (&ba.shape, &bb.shape) {
        (Shape::Polygon(pa), Shape::Polygon(pb)) => {
            let mut t = ClipTrace::default();
            collide_polygons_traced(pa, xa, pb, xb, margin, rule, Some(&mut t));
            // The article's AABB construction knows no radii: rounded boxes go without it.
            let sharp = pa.radius == 0.0 && pb.radius == 0.0;
            match article_boxes(pa, xa, pb, xb, scale).filter(|_| sharp) {
                Some(aabb) => PairTrace::Boxes(aabb, t),
                None => PairTrace::Polygons(t),
            }
        }
        (Shape::Polygon(p), Shape::Circle(c)) => {
            let mut t = PolygonCircleTrace::new(scale);
            collide_polygon_circle_with(p, xa, xb.p, c.radius, margin, &mut t);
            PairTrace::PolygonCircle(t)
        }
        (Shape::Circle(c), Shape::Polygon(p)) => {
            let mut t = PolygonCircleTrace::new(scale);
            collide_polygon_circle_with(p, xb, xa.p, c.radius, margin, &mut t);
            PairTrace::PolygonCircle(flipped(t))
        }
        (Shape::Circle(ca), Shape::Circle(cb)) => {
            let mut t = CircleTrace::new(scale);
            collide_circles_with(xa.p, ca.radius, xb.p, cb.radius, margin, &mut t);
            PairTrace::Circles(t)
        }
        (Shape::Capsule(ca), Shape::Capsule(cb)) => {
            let mut t = CapsuleTrace::new(scale);
            collide_capsules_with(ca, xa, cb, xb, margin, &mut t);
            PairTrace::Capsules(t)
        }
        (Shape::Capsule(ca), Shape::Circle(c)) | (Shape::Circle(c), Shape::Capsule(ca)) => {
            let swapped = matches!(ba.shape, Shape::Circle(_));
            let (xc, center) = if swapped { (xb, xa.p) } else { (xa, xb.p) };
            let mut t = CapsuleTrace::new(scale);
            collide_capsule_circle_with(ca, xc, center, c.radius, margin, &mut t);
            if swapped {
                t.flip_result();
            }
            PairTrace::Capsules(t)
        }
        (Shape::Polygon(p), Shape::Capsule(c)) | (Shape::Capsule(c), Shape::Polygon(p)) => {
            let swapped = matches!(ba.shape, Shape::Capsule(_));
            let ((xp, xc), mut trace) = (if swapped { (xb, xa) } else { (xa, xb) }, ClipTrace::default());
            collide_polygon_capsule_with(p, xp, c, xc, margin, &mut trace);
            if swapped {
                trace.result = trace.result.flipped();
            }
            PairTrace::PolygonCapsule { trace, swapped }
        }
    })
}

/// The article's AABB construction, when both polygons are axis-aligned boxes.
fn article_boxes(pa: &Polygon, xa: &Transform, pb: &Polygon, xb: &Transform, scale: f32) -> Option<AabbTrace> {
    let aabb = |p: &Polygon, xf| axis_aligned_box(&p.world_vertices(xf).collect::<Vec<_>>());
    let (a, b) = (aabb(pa, xa)?, aabb(pb, xb)?);
    let mut t = AabbTrace::new(scale);
    collide_aabbs_with(&a, &b, &mut t);
    Some(t)
}

impl PairTrace {
    /// The SAT + clipping trace inside, if the pair has one.
    pub fn clip(&self) -> Option<&ClipTrace> {
        match self {
            PairTrace::Polygons(t) | PairTrace::Boxes(_, t) | PairTrace::PolygonCapsule { trace: t, .. } => Some(t),
            _ => None,
        }
    }

    /// The manifold the traced function returned, A → B.
    pub fn result(&self) -> Manifold {
        let r = match self {
            PairTrace::PolygonCircle(t) => t.result(),
            PairTrace::Circles(t) => t.result(),
            PairTrace::Capsules(t) => t.result(),
            _ => None,
        };
        r.or_else(|| self.clip().map(|t| t.result)).unwrap_or(Manifold::EMPTY)
    }

    /// The article's steps before SAT (two axis-aligned boxes), or none.
    fn article_steps(&self) -> usize {
        match self {
            PairTrace::Boxes(a, _) => a.steps(),
            _ => 0,
        }
    }

    /// Each step's title and numbers, for the closest-point traces and the article's
    /// construction (the clip trace has its own table).
    pub fn summaries(&self) -> Vec<(String, String)> {
        fn rows<S: PairStep>(steps: &[S]) -> Vec<(String, String)> {
            steps.iter().map(|s| (s.title().to_string(), s.summary())).collect()
        }
        match self {
            PairTrace::PolygonCircle(t) => rows(&t.steps),
            PairTrace::Circles(t) => rows(&t.steps),
            PairTrace::Capsules(t) => rows(&t.steps),
            PairTrace::Boxes(a, _) => rows(&a.steps),
            _ => Vec::new(),
        }
    }

    /// Draws step `k` (clamped to the last) with normals `scale` long; `axis` adds a SAT
    /// axis's projections.
    pub fn draw(&self, k: usize, d: &mut dyn DebugDraw, scale: f32, axis: Option<usize>) {
        let k = k.min(self.steps().saturating_sub(1));
        match self {
            PairTrace::PolygonCircle(t) => t.draw_step(k, d),
            PairTrace::Circles(t) => t.draw_step(k, d),
            PairTrace::Capsules(t) => t.draw_step(k, d),
            PairTrace::Boxes(a, _) if k < a.steps() => a.draw_step(k, d),
            _ => {
                let Some(t) = self.clip() else { return };
                let stage = k - self.article_steps();
                t.draw(stage, d, scale);
                if let Some(i) = axis {
                    t.draw_projection(i, d);
                }
                // The article's contact area beside SAT's answer.
                if let (PairTrace::Boxes(a, _), true) = (self, stage + 1 == CLIP_STAGES.len()) {
                    for s in a.steps.iter().filter(|s| matches!(s, AabbStep::Area(_) | AabbStep::Normal { .. })) {
                        s.draw(d, scale, true);
                    }
                }
            }
        }
    }
}

impl Trace for PairTrace {
    fn steps(&self) -> usize {
        match self {
            PairTrace::PolygonCircle(t) => t.steps(),
            PairTrace::Circles(t) => t.steps(),
            PairTrace::Capsules(t) => t.steps(),
            _ => self.article_steps() + self.clip().map_or(0, |t| t.steps()),
        }
    }

    fn step_label(&self, k: usize) -> String {
        let k = k.min(self.steps().saturating_sub(1));
        match self {
            PairTrace::PolygonCircle(t) => t.step_label(k),
            PairTrace::Circles(t) => t.step_label(k),
            PairTrace::Capsules(t) => t.step_label(k),
            PairTrace::Boxes(a, _) if k < a.steps() => a.step_label(k),
            // After the article's steps, SAT + clipping's stages counted on from them.
            PairTrace::Boxes(a, t) => {
                format!("{} · SAT {}", step_caption("Step", k, self.steps()), t.step_label(k - a.steps()))
            }
            _ => self.clip().map(|t| t.step_label(k - self.article_steps())).unwrap_or_default(),
        }
    }

    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        let scale = self.clip().map_or(0.3, |t| t.axis_scale());
        self.draw(k, d, scale, None);
    }
}
