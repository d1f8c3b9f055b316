//! Text labels over a view (2D world labels and 3D labels alike): measured, placed by
//! [`place_labels`], drawn on dark plates. An elided label leaves a small ring at its anchor
//! and its text shows in a tooltip when the pointer is near. What each frame placed is kept
//! (per thread: the drawing functions see only `&App`) for the tooltip and the screenshot
//! report.

use crate::app::camera::ScreenRect;
use crate::app::render::label_layout::{place_labels, LabelBox, Placement};
use crate::app::render::text_fit::elide_to_width;
use egui_macroquad::egui;
use glam::Vec2;
use macroquad::prelude as mq;
use serde_json::{json, Value};
use std::cell::RefCell;

/// The labels' font size, pixels.
const FONT: u16 = 17;
/// Plate padding around the text, pixels.
const PAD: Vec2 = Vec2::new(4.0, 2.0);
/// Elided labels beyond which a view draws no rings at their points.
const MAX_RINGS: usize = 150;
/// How near the pointer must come to an elided label's anchor for its tooltip, pixels.
pub const HOVER_PX: f32 = 10.0;

/// A label to draw: the point it labels (screen pixels), its preferred centre relative to that
/// point, text, colour and priority (higher is placed first).
pub struct ScreenLabel {
    pub anchor: Vec2,
    pub offset: Vec2,
    pub text: String,
    pub color: mq::Color,
    pub priority: i32,
}

/// One label as placed: its whole text, the text drawn (cut with an ellipsis where wider than
/// the view), and its rectangle, or `None` where it was elided.
#[derive(Clone, Debug)]
pub struct PlacedLabel {
    pub text: String,
    pub shown: String,
    pub anchor: Vec2,
    pub rect: Option<ScreenRect>,
}

/// The labels of one view in one frame.
#[derive(Clone, Debug)]
pub struct ViewLabels {
    pub view: ScreenRect,
    pub labels: Vec<PlacedLabel>,
}

thread_local! {
    static FRAME: RefCell<Vec<ViewLabels>> = const { RefCell::new(Vec::new()) };
}

/// What was placed since the last call (this frame's views), emptying the record.
pub fn take_frame() -> Vec<ViewLabels> {
    FRAME.with(|f| std::mem::take(&mut *f.borrow_mut()))
}

/// Places `labels` inside `view` (off `keep_clear`), draws them in screen pixels under the
/// current camera, and records the placement for this frame. A label wider than the view is
/// cut to its width with an ellipsis first (its whole text in the tooltip).
pub fn draw_labels(view: ScreenRect, labels: &[ScreenLabel], keep_clear: &[ScreenRect]) {
    let measure = |t: &str| mq::measure_text(t, None, FONT, 1.0).width;
    let shown: Vec<String> =
        labels.iter().map(|l| elide_to_width(&l.text, view.size.x - 2.0 * PAD.x, measure)).collect();
    let boxes: Vec<LabelBox> = labels
        .iter()
        .zip(&shown)
        .map(|(l, t)| LabelBox {
            offset: l.offset,
            priority: l.priority,
            ..LabelBox::new(l.anchor, Vec2::new(measure(t), f32::from(FONT)) + 2.0 * PAD)
        })
        .collect();
    let placements = place_labels(&boxes, view, keep_clear);
    // Markers and leader lines first, so no plate is drawn over by another label's marker; no
    // rings where so many labels are elided that they would only be noise (every body's name
    // in a large scene): their tooltips still show.
    let rings = placements.iter().filter(|p| **p == Placement::Elided).count() <= MAX_RINGS;
    for (l, p) in labels.iter().zip(&placements) {
        if rings || *p != Placement::Elided {
            draw_marker(l, p);
        }
    }
    let plate = mq::Color::new(0.05, 0.05, 0.07, 0.86);
    for ((l, t), p) in labels.iter().zip(&shown).zip(&placements) {
        if let Placement::Placed(r) = p {
            mq::draw_rectangle(r.min.x, r.min.y, r.size.x, r.size.y, plate);
            let d = mq::measure_text(t, None, FONT, 1.0);
            let baseline = r.min.y + 0.5 * (r.size.y - d.height) + d.offset_y;
            mq::draw_text(t, r.min.x + PAD.x, baseline, f32::from(FONT), l.color);
        }
    }
    let record = labels
        .iter()
        .zip(shown)
        .zip(&placements)
        .map(|((l, shown), p)| PlacedLabel { text: l.text.clone(), shown, anchor: l.anchor, rect: p.rect() })
        .collect();
    FRAME.with(|f| f.borrow_mut().push(ViewLabels { view, labels: record }));
}

/// An elided label's ring at its anchor; a thin leader from the anchor to a label placed away
/// from it.
fn draw_marker(l: &ScreenLabel, p: &Placement) {
    let faint = mq::Color { a: 0.6 * l.color.a, ..l.color };
    match p {
        Placement::Elided => mq::draw_circle_lines(l.anchor.x, l.anchor.y, 3.5, 1.5, l.color),
        Placement::Placed(r) => {
            let near = l.anchor.clamp(r.min, r.min + r.size);
            if near.distance(l.anchor) > 0.5 * f32::from(FONT) + l.offset.length() {
                mq::draw_line(l.anchor.x, l.anchor.y, near.x, near.y, 1.0, faint);
            }
        }
    }
}

/// The whole texts the view does not show at `pos` (pixels): elided labels whose anchor lies
/// within `radius` of it, and labels cut with an ellipsis whose plate is under it.
pub fn hidden_texts_at(frame: &[ViewLabels], pos: Vec2, radius: f32) -> Vec<&str> {
    let hidden = |l: &PlacedLabel| match &l.rect {
        None => l.anchor.distance(pos) <= radius,
        Some(r) => l.shown != l.text && r.contains(pos),
    };
    frame
        .iter()
        .filter(|v| v.view.contains(pos))
        .flat_map(|v| &v.labels)
        .filter(|l| hidden(l))
        .map(|l| l.text.as_str())
        .collect()
}

/// Shows the labels hidden near the pointer in a tooltip (`frame`: the last frame's labels,
/// in pixels; `ppp`: egui's pixels per point).
pub fn hover_tooltip(ctx: &egui::Context, frame: &[ViewLabels], ppp: f32) {
    let Some(pointer) = ctx.input(|i| i.pointer.hover_pos()) else { return };
    if ctx.is_pointer_over_area() {
        return;
    }
    let texts = hidden_texts_at(frame, Vec2::new(pointer.x, pointer.y) * ppp, HOVER_PX);
    if texts.is_empty() {
        return;
    }
    const MAX_LINES: usize = 12;
    let id = egui::Id::new("elided labels");
    egui::show_tooltip_at_pointer(ctx, egui::LayerId::background(), id, |ui| {
        for t in texts.iter().take(MAX_LINES) {
            ui.label(*t);
        }
        if texts.len() > MAX_LINES {
            ui.label(format!("… and {} more", texts.len() - MAX_LINES));
        }
    });
}

/// The frame's labels as JSON: per view its rectangle, and per label its text, anchor,
/// rectangle (`[x, y, w, h]`, pixels) and whether it was elided.
pub fn frame_json(frame: &[ViewLabels]) -> Value {
    let rect = |r: &ScreenRect| json!([r.min.x, r.min.y, r.size.x, r.size.y]);
    let views: Vec<Value> = frame
        .iter()
        .map(|v| {
            let labels: Vec<Value> = v
                .labels
                .iter()
                .map(|l| {
                    json!({
                        "text": l.text,
                        "shown": l.shown,
                        "anchor": l.anchor.to_array(),
                        "rect": l.rect.as_ref().map(rect),
                        "elided": l.rect.is_none(),
                    })
                })
                .collect();
            json!({ "view": rect(&v.view), "labels": labels })
        })
        .collect();
    Value::Array(views)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Event, Pos2, RawInput};

    /// A frame of a bare egui with the pointer at `pos`, showing the tooltip of `frame`'s
    /// labels: every text egui drew.
    fn texts_with_pointer_at(frame: &[ViewLabels], pos: Pos2) -> Vec<String> {
        let ctx = egui::Context::default();
        ctx.style_mut(|s| s.interaction.tooltip_delay = 0.0);
        let mut texts = Vec::new();
        for k in 0..3 {
            let input = RawInput {
                screen_rect: Some(egui::Rect::from_min_size(Pos2::ZERO, egui::vec2(400.0, 300.0))),
                events: vec![Event::PointerMoved(pos)],
                time: Some(k as f64 / 60.0),
                ..Default::default()
            };
            let full = ctx.run(input, |ctx| hover_tooltip(ctx, frame, 1.0));
            texts = crate::app::ui_tests::all_texts(&full.shapes);
        }
        texts
    }

    #[test]
    fn resting_on_an_elided_label_shows_its_text() {
        let view = ScreenRect { min: Vec2::ZERO, size: Vec2::new(400.0, 300.0) };
        let hidden = PlacedLabel {
            text: "cost 26.24".into(),
            shown: "cost 26.24".into(),
            anchor: Vec2::new(100.0, 80.0),
            rect: None,
        };
        let frame = vec![ViewLabels { view, labels: vec![hidden] }];
        assert!(texts_with_pointer_at(&frame, Pos2::new(103.0, 82.0)).contains(&"cost 26.24".to_string()));
        assert!(!texts_with_pointer_at(&frame, Pos2::new(200.0, 82.0)).contains(&"cost 26.24".to_string()));
    }

    #[test]
    fn only_hidden_labels_under_the_pointer_are_offered() {
        let view = ScreenRect { min: Vec2::ZERO, size: Vec2::new(100.0, 100.0) };
        let placed = ScreenRect { min: Vec2::new(40.0, 40.0), size: Vec2::new(20.0, 10.0) };
        let label = |text: &str, x: f32, rect| PlacedLabel {
            text: text.into(),
            shown: text.into(),
            anchor: Vec2::new(x, 50.0),
            rect,
        };
        let mut cut = label("a long label", 50.0, Some(placed));
        cut.shown = "a lo...".into();
        let frame = vec![ViewLabels {
            view,
            labels: vec![label("shown", 50.0, Some(placed)), label("near", 52.0, None), label("far", 90.0, None), cut],
        }];
        assert_eq!(hidden_texts_at(&frame, Vec2::new(50.0, 45.0), HOVER_PX), vec!["near", "a long label"]);
        assert_eq!(hidden_texts_at(&frame, Vec2::new(30.0, 50.0), HOVER_PX), Vec::<&str>::new());
        assert!(hidden_texts_at(&frame, Vec2::new(150.0, 50.0), 100.0).is_empty(), "outside the view");
    }
}
