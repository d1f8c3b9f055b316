//! The constraint graph and the solver's threads in the panels: the Solver panel's `threads`
//! slider, and the status bar's count of graph colours and overflow constraints.

use egui_macroquad::egui;
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
