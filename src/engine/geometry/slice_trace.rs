//! The Sutherland–Hodgman trace: every edge of one [`super::split_polygon`] run as plain
//! data (its case, the intersection, the two parts as built so far), and a picture of edge
//! `k`, for the slicing lab's step slider (003 article, "Dynamically Slicing Shapes").

use super::sutherland_hodgman::{EdgeCase, Split};
use super::Line;
use crate::engine::debug::{palette, Color, DebugDraw, Layer};
use crate::engine::math::left_perp;
use crate::engine::trace::Trace;
use glam::Vec2;
use serde::Serialize;

/// One edge of the walk.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SliceStep {
    /// Edge `edge` runs from vertex `edge` to `edge + 1`.
    pub edge: usize,
    pub from: Vec2,
    pub to: Vec2,
    /// Signed distances of its ends from the line (negative behind).
    pub d_from: f32,
    pub d_to: f32,
    pub case: EdgeCase,
    /// Where it crosses the line, if its ends are strictly on opposite sides.
    pub intersection: Option<Vec2>,
    /// Both output polygons after this edge (before dropping parts of fewer than 3 points).
    pub behind: Vec<Vec2>,
    pub front: Vec<Vec2>,
}

/// Every edge of one split, with its input and result.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SliceTrace {
    pub input: Vec<Vec2>,
    pub line: Option<Line>,
    pub steps: Vec<SliceStep>,
    pub result: Option<Split>,
}

crate::engine::trace::recorded_steps!(SliceTrace, SliceStep);

/// The colour of an edge case (in = behind the line).
pub fn case_color(case: EdgeCase) -> Color {
    match case {
        EdgeCase::InIn => palette::SLICE_BEHIND,
        EdgeCase::InOut => palette::CASE_IN_OUT,
        EdgeCase::OutIn => palette::CASE_OUT_IN,
        EdgeCase::OutOut => palette::SLICE_FRONT,
    }
}

impl SliceTrace {
    pub fn new() -> SliceTrace {
        SliceTrace::default()
    }

    /// Empties the trace for a new split of `input` by `line`.
    pub fn clear(&mut self, input: &[Vec2], line: Line) {
        self.input.clear();
        self.input.extend_from_slice(input);
        self.line = Some(line);
        self.steps.clear();
        self.result = None;
    }

    /// The recorded edges, one step each (the step slider counts them through `Trace::steps`).
    pub fn edges(&self) -> &[SliceStep] {
        &self.steps
    }

    /// Draws edge `k` (clamped to the last): the input polygon (`Layer::Shape`, faint), the
    /// line with an arrow to its front side (`Layer::ClipPlane`), the edges walked so far in
    /// their case colours and edge `k` bold with its ends marked in (behind, blue) or out
    /// (front, orange) (`Layer::IncidentFace`), the intersection (`Layer::ClipPlane`), the two
    /// parts being built, behind in blue and in front in orange (`Layer::Shape`, filled once
    /// the walk is done) and a label with the case (`Layer::Label`).
    pub fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        let (Some(line), Some(last)) = (self.line, self.steps.len().checked_sub(1)) else { return };
        let k = k.min(last);
        let step = &self.steps[k];
        let min = self.input.iter().copied().fold(Vec2::splat(f32::MAX), Vec2::min);
        let max = self.input.iter().copied().fold(Vec2::splat(f32::MIN), Vec2::max);
        let (center, reach) = (0.5 * (min + max), 0.75 * (max - min).length().max(0.1));
        if d.wants(Layer::Shape) {
            let faint = palette::DYNAMIC.with_alpha(0.5);
            d.polygon(Layer::Shape, &self.input, faint.with_alpha(0.08), faint);
        }
        if d.wants(Layer::ClipPlane) {
            // The foot of the centre on the line, then along it both ways.
            let foot = center - line.distance_to_line(center) * line.n;
            let along = left_perp(line.n) * reach * 1.5;
            d.segment(Layer::ClipPlane, foot - along, foot + along, palette::CLIP_LINE);
            d.arrow(Layer::ClipPlane, foot, foot + 0.25 * reach * line.n, palette::SLICE_FRONT);
            if let Some(i) = step.intersection {
                d.point(Layer::ClipPlane, i, 9.0, palette::INTERSECTION);
            }
        }
        if d.wants(Layer::IncidentFace) {
            for s in &self.steps[..k] {
                d.segment(Layer::IncidentFace, s.from, s.to, case_color(s.case).with_alpha(0.45));
            }
            d.arrow(Layer::IncidentFace, step.from, step.to, case_color(step.case));
            for (p, dist) in [(step.from, step.d_from), (step.to, step.d_to)] {
                let color = if dist <= 0.0 { palette::SLICE_BEHIND } else { palette::SLICE_FRONT };
                d.point(Layer::IncidentFace, p, 7.0, color);
            }
        }
        if d.wants(Layer::Shape) {
            let done = k == last;
            for (pts, color) in [(&step.behind, palette::SLICE_BEHIND), (&step.front, palette::SLICE_FRONT)] {
                if done && pts.len() >= 3 {
                    d.polygon(Layer::Shape, pts, color.with_alpha(0.3), color);
                } else {
                    for w in pts.windows(2) {
                        d.segment(Layer::Shape, w[0], w[1], color);
                    }
                }
                for p in pts.iter() {
                    d.point(Layer::Shape, *p, 5.0, color);
                }
            }
        }
        if d.wants(Layer::Label) {
            let label = format!("edge {}/{}: {}", k + 1, last + 1, step.case.label());
            d.text(Layer::Label, Vec2::new(center.x, max.y + 0.15 * reach), &label, palette::TEXT);
        }
    }
}

/// The one step protocol: the slicing lab walks the clipper with the same slider as every
/// other trace.
impl Trace for SliceTrace {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        match self.steps.get(k) {
            Some(s) => {
                let next = (s.edge + 1) % self.input.len().max(1);
                format!("edge {} of {} (v{}–v{}): {}", k + 1, self.steps.len(), s.edge, next, s.case.label())
            }
            None => "no edges".into(),
        }
    }

    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        SliceTrace::draw_step(self, k, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::debug::{DebugList, DrawCmd, LayerSet};
    use crate::engine::geometry::split_polygon;

    #[test]
    fn draw_step_shows_the_edge_the_intersection_and_the_finished_parts() {
        let sq = [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)];
        let mut trace = SliceTrace::new();
        split_polygon(&sq, &Line { n: Vec2::Y, c: 0.0 }, Some(&mut trace));
        let mut d = DebugList::new(LayerSet::ALL);
        trace.draw_step(1, &mut d);
        let intersection = d
            .cmds
            .iter()
            .any(|c| matches!(c, DrawCmd::Point { layer: Layer::ClipPlane, p, .. } if *p == Vec2::new(1.0, 0.0)));
        assert!(intersection, "edge 1 (in–out) crosses at (1, 0)");
        let edge = d.cmds.iter().any(
            |c| matches!(c, DrawCmd::Arrow { layer: Layer::IncidentFace, color, .. } if *color == palette::CASE_IN_OUT),
        );
        assert!(edge);
        let filled =
            |d: &DebugList| d.cmds.iter().filter(|c| matches!(c, DrawCmd::Polygon { layer: Layer::Shape, .. })).count();
        assert_eq!(filled(&d), 1, "only the input is filled before the walk ends");
        let mut end = DebugList::new(LayerSet::ALL);
        trace.draw_step(99, &mut end);
        assert_eq!(filled(&end), 3, "the input and both parts");
        assert_eq!(Trace::steps(&trace), 4);
        assert_eq!(trace.step_label(1), "edge 2 of 4 (v1–v2): in–out: push i");
        let mut none = DebugList::new(LayerSet(0));
        trace.draw_step(0, &mut none);
        assert!(none.cmds.is_empty());
        SliceTrace::new().draw_step(0, &mut end);
    }
}
