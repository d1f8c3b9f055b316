//! The 2D QuickHull trace: each step of one [`super::quickhull2::quickhull_2d`] run as plain
//! data (welded duplicates, the first chord between the extreme points, each edge's outside set
//! and farthest point, the points dropped inside the new triangle, the finished hull), and a
//! picture of step `k` for the hull lab's slider.

use super::hull::HullError;
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::number::Num;
use crate::engine::trace::Trace;
use glam::Vec2;

/// One step of the construction.
#[derive(Clone, Debug, PartialEq)]
pub enum QuickHull2Step {
    /// Points within the weld tolerance of an earlier point, dropped first.
    Weld { dropped: Vec<Vec2> },
    /// The chord between the extreme points along x (the 2D initial simplex): the points below
    /// it are the outside set of `a → b`, those above of `b → a`; points on it are dropped.
    Extremes { a: Vec2, b: Vec2, below: Vec<Vec2>, above: Vec<Vec2>, dropped: Vec<Vec2> },
    /// One iteration: the first edge with an outside set, that set, its farthest point (which
    /// replaces the edge by two, the new cone) and the points left inside the new triangle.
    Expand { before: Vec<Vec2>, edge: [Vec2; 2], outside: Vec<Vec2>, farthest: Vec2, distance: f32, dropped: Vec<Vec2> },
    /// Hull vertices within the weld tolerance of the line through their two neighbours,
    /// removed (`before`: the hull the expansion left, CCW from its lowest vertex).
    Collinear { before: Vec<Vec2>, dropped: Vec<Vec2> },
    /// No edge has an outside set left: the hull, CCW from its lowest vertex.
    Done { hull: Vec<Vec2> },
}

/// Every step of one construction, with its input and result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuickHull2Trace {
    pub input: Vec<Vec2>,
    pub steps: Vec<QuickHull2Step>,
    pub result: Option<Result<Vec<Vec2>, HullError>>,
}

crate::engine::trace::recorded_steps!(QuickHull2Trace, QuickHull2Step);

impl QuickHull2Trace {
    pub fn clear(&mut self, input: &[Vec2]) {
        self.input.clear();
        self.input.extend_from_slice(input);
        self.steps.clear();
        self.result = None;
    }

    /// The points dropped up to and including step `k`.
    fn dropped_until(&self, k: usize) -> Vec<Vec2> {
        let mut out = Vec::new();
        for s in self.steps.iter().take(k + 1) {
            match s {
                QuickHull2Step::Weld { dropped }
                | QuickHull2Step::Extremes { dropped, .. }
                | QuickHull2Step::Expand { dropped, .. }
                | QuickHull2Step::Collinear { dropped, .. } => out.extend_from_slice(dropped),
                QuickHull2Step::Done { .. } => {}
            }
        }
        out
    }

    /// A scale for marks, from the input's extent.
    fn reach(&self) -> f32 {
        let min = self.input.iter().copied().fold(Vec2::splat(f32::MAX), Vec2::min);
        let max = self.input.iter().copied().fold(Vec2::splat(f32::MIN), Vec2::max);
        (max - min).length().max(0.1)
    }
}

fn cross_mark(d: &mut dyn DebugDraw, p: Vec2, r: f32) {
    let c = palette::REJECTED;
    d.segment(Layer::Label, p + Vec2::new(-r, -r), p + Vec2::new(r, r), c);
    d.segment(Layer::Label, p + Vec2::new(-r, r), p + Vec2::new(r, -r), c);
}

/// The one step protocol: the hull lab walks the construction with the common slider.
impl Trace for QuickHull2Trace {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        let n = self.steps.len();
        let Some(s) = self.steps.get(k) else { return "no steps".into() };
        let head = format!("step {} of {n}: ", k + 1);
        head + &match s {
            QuickHull2Step::Weld { dropped } => format!("{} duplicate points welded", dropped.len()),
            QuickHull2Step::Extremes { below, above, .. } => {
                format!("chord between the x extremes, {} points below, {} above", below.len(), above.len())
            }
            QuickHull2Step::Expand { outside, distance, dropped, .. } => format!(
                "edge with {} outside, farthest {distance:.3} out, {} dropped inside",
                outside.len(),
                dropped.len(),
                distance = Num(distance)
            ),
            QuickHull2Step::Collinear { dropped, .. } => match dropped.len() {
                1 => "1 vertex within the tolerance of its neighbours' line removed".into(),
                n => format!("{n} vertices within the tolerance of their neighbours' line removed"),
            },
            QuickHull2Step::Done { hull } => format!("hull done, {} vertices", hull.len()),
        }
    }

    /// Draws step `k` (clamped to the last): every input point (`Layer::Shape`), the hull so far
    /// (`Layer::Polytope`), the chosen edge and its outside set (`Layer::RefFace`), the
    /// farthest point and the new cone (`Layer::Simplex`), the points dropped so far crossed out
    /// and a caption (`Layer::Label`).
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        let Some(last) = self.steps.len().checked_sub(1) else { return };
        let k = k.min(last);
        let r = 0.012 * self.reach();
        if d.wants(Layer::Shape) {
            for p in &self.input {
                d.point(Layer::Shape, *p, 6.0, palette::TEXT.with_alpha(0.7));
            }
        }
        let hull_color = palette::POLYTOPE;
        match &self.steps[k] {
            QuickHull2Step::Extremes { a, b, below, above, .. } => {
                if d.wants(Layer::Polytope) {
                    d.segment(Layer::Polytope, *a, *b, hull_color);
                    d.point(Layer::Polytope, *a, 10.0, hull_color);
                    d.point(Layer::Polytope, *b, 10.0, hull_color);
                }
                if d.wants(Layer::RefFace) {
                    for p in below {
                        d.point(Layer::RefFace, *p, 8.0, palette::SHAPE_A);
                    }
                    for p in above {
                        d.point(Layer::RefFace, *p, 8.0, palette::SHAPE_B);
                    }
                }
            }
            QuickHull2Step::Expand { before, edge, outside, farthest, .. } => {
                if d.wants(Layer::Polytope) && before.len() >= 3 {
                    d.polygon(Layer::Polytope, before, hull_color.with_alpha(0.12), hull_color);
                } else if d.wants(Layer::Polytope) {
                    d.segment(Layer::Polytope, before[0], before[before.len() - 1], hull_color);
                }
                if d.wants(Layer::RefFace) {
                    d.segment(Layer::RefFace, edge[0], edge[1], palette::CLOSEST_EDGE);
                    for p in outside {
                        d.point(Layer::RefFace, *p, 8.0, palette::SHAPE_B);
                    }
                }
                if d.wants(Layer::Simplex) {
                    // The new cone: the two edges replacing the chosen one (unfilled, so the
                    // chosen edge keeps its colour).
                    d.segment(Layer::Simplex, edge[0], *farthest, palette::KEPT);
                    d.segment(Layer::Simplex, *farthest, edge[1], palette::KEPT);
                    d.point(Layer::Simplex, *farthest, 12.0, palette::SUPPORT_POINT);
                }
            }
            QuickHull2Step::Collinear { before, .. } if d.wants(Layer::Polytope) => {
                d.polygon(Layer::Polytope, before, hull_color.with_alpha(0.12), hull_color);
            }
            QuickHull2Step::Done { hull } if d.wants(Layer::Polytope) => {
                d.polygon(Layer::Polytope, hull, hull_color.with_alpha(0.25), hull_color);
                for p in hull {
                    d.point(Layer::Polytope, *p, 9.0, hull_color);
                }
            }
            _ => {}
        }
        if d.wants(Layer::Label) {
            for p in self.dropped_until(k) {
                cross_mark(d, p, r);
            }
        }
    }
}
