//! The constraint graph and the solver's threads in the panels: the Solver panel's `threads`
//! slider and `AVX2 lanes` checkbox, and the status bar's count of graph colours and overflow
//! constraints.

#[cfg(test)]
mod tests;

use egui_macroquad::egui;
use manifold_lab::engine::solver::lanes::avx2_detected;
use manifold_lab::engine::solver::params::MAX_THREADS;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::World;

/// Most threads the slider offers (a scene may ask for up to `MAX_THREADS`).
const SLIDER_THREADS: u32 = 16;

/// The `threads` slider of the soft step: the solver's colours cut into blocks on this many
/// threads, with the same result on any count.
pub fn threads_slider(ui: &mut egui::Ui, p: &mut SolverParams) {
    let top = SLIDER_THREADS.max(p.threads).min(MAX_THREADS);
    ui.add(egui::Slider::new(&mut p.threads, 1..=top).text("threads")).on_hover_text(
        "Threads that solve each constraint graph colour in blocks; any count gives the same result, to the bit",
    );
}

/// The `avx2` checkbox: contact rows in one AVX register or in two SSE2 halves, the same bits
/// either way (greyed out where the processor has no AVX2).
pub fn avx2_checkbox(ui: &mut egui::Ui, p: &mut SolverParams) {
    let detected = avx2_detected();
    let hover = if detected {
        "Solve each row of eight contacts in one AVX register (Box2D v3's AVX2 build) instead of two SSE2 \
         halves: faster, and the same result, to the bit"
    } else {
        "This processor has no AVX2: rows of eight contacts are solved in two SSE2 halves"
    };
    ui.add_enabled(detected, egui::Checkbox::new(&mut p.avx2, "AVX2 lanes"))
        .on_hover_text(hover)
        .on_disabled_hover_text(hover);
}

/// "N colours, M overflow" after a step of the soft step's coloured solver; nothing when the
/// last step coloured nothing (another position correction, or nothing touching or jointed).
pub fn graph_status(w: &World) -> Option<String> {
    let (colors, overflow) = (w.profile.colors, w.profile.overflow);
    (colors + overflow > 0).then(|| format!("{colors} colours, {overflow} overflow"))
}

/// The status bar's graph counts, with a separator after them.
pub fn graph_counts(ui: &mut egui::Ui, w: &World) {
    if let Some(text) = graph_status(w) {
        ui.label(text).on_hover_text(
            "Constraint graph colours used last step (no two contacts or joints of a colour share a moving \
             body), and contacts and joints left over in the overflow sets, solved one at a time. The Graph \
             colours layer draws them.",
        );
        ui.separator();
    }
}
