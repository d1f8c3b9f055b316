//! Drawing the slicing lab: the clipper's walk at the shown edge (`SliceTrace::draw_step`:
//! the polygon, the line, the edges so far in their case colours, the two parts being built),
//! every edge walked so far labelled with its case, the intersections made so far, the
//! vertex numbers the step list refers to, the knife segment with its grab handles and the
//! polygon's turn handle.

use super::input::{centroid, handle};
use super::SliceLab;
use crate::app::input::HANDLE_RADIUS_PX;
use crate::app::stage::Stage;
use manifold_lab::engine::debug::{palette, DebugDraw, Layer};
use manifold_lab::engine::geometry::slice_trace::case_color;
use manifold_lab::engine::geometry::EdgeCase;

/// The case's short name, for labels on the edges.
pub fn case_name(case: EdgeCase) -> &'static str {
    match case {
        EdgeCase::InIn => "in–in",
        EdgeCase::InOut => "in–out",
        EdgeCase::OutIn => "out–in",
        EdgeCase::OutOut => "out–out",
    }
}

pub fn draw(lab: &SliceLab, app: &Stage, d: &mut dyn DebugDraw) {
    let px = app.camera.scale(&app.viewport);
    let k = lab.shown_step();
    lab.trace.draw_step(k, d);
    let (c, _) = centroid(lab);
    // Every edge up to the shown one: its case at its middle, pushed a little outwards.
    for s in lab.trace.edges().iter().take(k + 1) {
        let mid = 0.5 * (s.from + s.to);
        let out = (mid - c).normalize_or_zero() * 22.0 * px;
        d.text(Layer::Label, mid + out, case_name(s.case), case_color(s.case));
        if let Some(i) = s.intersection {
            d.point(Layer::ClipPlane, i, 11.0, palette::INTERSECTION);
        }
    }
    for (i, v) in lab.trace.input.iter().enumerate() {
        let out = (*v - c).normalize_or_zero() * 14.0 * px;
        d.text(Layer::Label, *v + out, &format!("v{i}"), palette::TEXT);
    }
    // The knife: a bold segment with round grab handles at its ends.
    let knife = lab.spec.knife;
    d.segment(Layer::RefFace, knife.from, knife.to, palette::CLIP_LINE);
    for end in [knife.from, knife.to] {
        d.circle(Layer::RefFace, end, HANDLE_RADIUS_PX * px, palette::CLIP_LINE.with_alpha(0.25), palette::CLIP_LINE);
    }
    let below = glam::Vec2::new(0.0, -20.0 * px);
    d.text(Layer::Label, knife.from + below, "from", palette::CLIP_LINE);
    d.text(Layer::Label, knife.to + below, "to", palette::CLIP_LINE);
    // The polygon's turn handle.
    let h = handle(lab, px);
    d.segment(Layer::Handle, c, h, palette::DYNAMIC.with_alpha(0.6));
    d.circle(Layer::Handle, h, HANDLE_RADIUS_PX * px, palette::DYNAMIC.with_alpha(0.2), palette::DYNAMIC);
}
