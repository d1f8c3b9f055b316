//! The timeline's track: the branch's reachable steps along its width and the cursor's handle
//! on it. A click anywhere on the track seeks to the step there, as dragging the handle does.

use egui_macroquad::egui::{self, Sense, Stroke};

/// Height of the track's clickable area, points.
const HEIGHT: f32 = 18.0;
/// Radius of the handle, points; the first and last steps sit this far in from the ends.
const HANDLE: f32 = 7.0;

/// The step under screen x (points) on a track over `rect` showing `first..=newest`.
pub fn step_at(rect: egui::Rect, x: f32, first: u64, newest: u64) -> u64 {
    let span = (rect.width() - 2.0 * HANDLE).max(1.0);
    let f = ((x - rect.min.x - HANDLE) / span).clamp(0.0, 1.0) as f64;
    first + (f * newest.saturating_sub(first) as f64).round() as u64
}

/// Where step `s` sits on the track (points).
fn x_of(rect: egui::Rect, s: u64, first: u64, newest: u64) -> f32 {
    let f = if newest > first { (s.saturating_sub(first)) as f32 / (newest - first) as f32 } else { 0.0 };
    rect.min.x + HANDLE + f.clamp(0.0, 1.0) * (rect.width() - 2.0 * HANDLE).max(0.0)
}

/// Shows the track `width` points wide; returns its response and the step a click or a drag
/// on it asked for, if that is not the cursor's.
pub fn track(ui: &mut egui::Ui, width: f32, first: u64, newest: u64, cursor: u64) -> (egui::Response, Option<u64>) {
    let enabled = newest > first;
    let sense = if enabled { Sense::click_and_drag() } else { Sense::hover() };
    let (rect, resp) = ui.allocate_exact_size(egui::vec2(width, HEIGHT), sense);
    let pressed = resp.is_pointer_button_down_on() || resp.clicked() || resp.drag_stopped();
    let asked = resp
        .interact_pointer_pos()
        .filter(|_| enabled && pressed)
        .map(|p| step_at(rect, p.x, first, newest))
        .filter(|&s| s != cursor);
    if ui.is_rect_visible(rect) {
        let v = ui.style().interact(&resp);
        let visuals = ui.visuals();
        let rail = egui::Rect::from_center_size(rect.center(), egui::vec2(rect.width(), 6.0));
        let painter = ui.painter();
        painter.rect_filled(rail, 3.0, visuals.widgets.inactive.bg_fill);
        let x = x_of(rect, asked.unwrap_or(cursor), first, newest);
        let done = egui::Rect::from_min_max(rail.min, egui::pos2(x, rail.max.y));
        painter.rect_filled(done, 3.0, visuals.selection.bg_fill);
        let fill = if enabled { v.bg_fill } else { visuals.widgets.noninteractive.bg_fill };
        painter.circle(egui::pos2(x, rect.center().y), HANDLE, fill, Stroke::new(1.0, v.fg_stroke.color));
    }
    (resp, asked)
}
