//! Drawing the hull lab: the recorded step (`QuickHull2Trace::draw_step`: the points, the hull
//! so far, the chosen edge and its outside set, the farthest point and new cone, crosses on the
//! points dropped) plus the point numbers and a caption above the cloud.

use super::HullLab;
use crate::app::stage::Stage;
use glam::Vec2;
use manifold_lab::engine::debug::{palette, DebugDraw, Layer};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::shape::QuickHull2Step;
use manifold_lab::engine::trace::Trace;

pub fn draw(lab: &HullLab, app: &Stage, d: &mut dyn DebugDraw) {
    let px = app.camera.scale(&app.viewport);
    let k = lab.shown_step();
    let pts = &lab.spec.points;
    if Trace::steps(&lab.trace) == 0 {
        for p in pts {
            d.point(Layer::Shape, *p, 6.0, palette::TEXT);
        }
    } else {
        lab.trace.draw_step(k, d);
    }
    if !d.wants(Layer::Label) || pts.is_empty() {
        return;
    }
    let center = pts.iter().copied().sum::<Vec2>() / pts.len() as f32;
    if let Some(QuickHull2Step::Expand { farthest, distance, .. }) = lab.trace.steps.get(k) {
        let up = Vec2::new(0.0, 18.0 * px);
        d.text(
            Layer::Label,
            *farthest + up,
            &format!("farthest {distance:.3}", distance = Num(distance)),
            palette::SUPPORT_POINT,
        );
    }
    let top = pts.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let caption = match lab.error() {
        Some(e) => format!("no hull: {e}"),
        None => lab.trace.step_label(k),
    };
    d.text(Layer::Label, Vec2::new(center.x, top + 40.0 * px), &caption, palette::TEXT);
    // The points' numbers last: where labels crowd, the step's own labels keep their place.
    if pts.len() <= 60 {
        for (i, p) in pts.iter().enumerate() {
            let out = (*p - center).normalize_or_zero() * 12.0 * px;
            d.text(Layer::Label, *p + out, &format!("{i}"), palette::TEXT.with_alpha(0.75));
        }
    }
}
