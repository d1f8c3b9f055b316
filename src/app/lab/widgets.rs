//! Widgets every lab uses the same way.

use egui_macroquad::egui::{self, RichText};

/// The step slider of every traced algorithm: ◀ slider ▶ and a caption for step `k` of
/// `count`. Returns the step chosen this frame, if it changed.
pub fn step_slider(ui: &mut egui::Ui, k: usize, count: usize, caption: impl Fn(usize) -> String) -> Option<usize> {
    let last = count.saturating_sub(1);
    let mut step = k.min(last);
    ui.horizontal(|ui| {
        if ui.button("◀").on_hover_text("previous step").clicked() && step > 0 {
            step -= 1;
        }
        ui.add_enabled(count > 1, egui::Slider::new(&mut step, 0..=last).show_value(false));
        if ui.button("▶").on_hover_text("next step").clicked() && step < last {
            step += 1;
        }
    });
    if count > 0 {
        ui.label(RichText::new(caption(step)).strong());
    }
    (step != k.min(last)).then_some(step)
}
