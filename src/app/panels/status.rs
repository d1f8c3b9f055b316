//! The status bar: run state, step, counts, timings and fps, then the scene's path, the
//! tool hints and the last notice or error (wrapped, or elided with the whole text on hover).

use crate::app::state::{App, RunMode};
use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::number::Num;

/// Steps slower than this are flagged in the status bar: the scene cannot run live.
const SLOW_STEP_MS: f32 = 100.0;

/// The status bar: counts, timings, fps, then the scene or lab file, a notice and an error.
/// Items too many for one row go on to the next, each whole; a text wider than the bar is cut
/// with an ellipsis and shown whole on hover.
pub(super) fn status_bar(ui: &mut egui::Ui, app: &App, fps: usize) {
    ui.horizontal_wrapped(|ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        let w = &app.world;
        let mode = match app.mode {
            RunMode::Running => RichText::new("▶ running").color(Color32::from_rgb(120, 220, 120)),
            RunMode::Paused => RichText::new("⏸ paused").color(Color32::from_rgb(250, 200, 80)),
        };
        ui.label(mode);
        if let Some(r) = &app.timeline.recorder {
            ui.label(RichText::new("⏺ REC").color(Color32::from_rgb(235, 60, 60)))
                .on_hover_text(format!("recording (Record pressed at step {})", r.since));
        }
        ui.separator();
        // The tree and 3D labs do not use the 2D world: its counts would only read as zeros.
        if app.shows_world() {
            ui.label(format!("step {}", w.step_count));
            ui.separator();
            ui.label(format!("{} bodies", w.bodies.len()));
            ui.separator();
            let points: usize = w.contacts.iter().map(|c| c.manifold.count).sum();
            ui.label(format!("{} contacts ({} points)", w.contacts.len(), points));
            if w.params.recycle_contacts {
                ui.label(format!("{} recycled", w.profile.manifolds_recycled)).on_hover_text(format!(
                    "Contacts whose manifold was kept from earlier poses at the last step (Box2D v3's contact \
                     recycling); {} computed, {} reused unchanged",
                    w.profile.manifolds, w.profile.manifolds_reused
                ));
            }
            ui.separator();
            crate::app::tools::solver_graph::graph_counts(ui, w);
            if w.broadphase.stats.deferred > 0 {
                use manifold_lab::engine::broadphase::{MAX_NEW_PAIRS, MAX_PAIRS};
                ui.label(RichText::new("⚠ pair limit reached").color(Color32::from_rgb(255, 170, 60))).on_hover_text(
                    format!(
                        "Bodies overlap in piles: {} pair queries were put off to the next steps (a step adds \
                         at most {MAX_NEW_PAIRS} pairs, the broadphase keeps at most {MAX_PAIRS}).",
                        w.broadphase.stats.deferred
                    ),
                );
                ui.separator();
            }
            if w.profile.capped > 0 {
                use manifold_lab::engine::solver::graph::{CAPPED_ABOVE, SOLVED_PER_BODY};
                ui.label(
                    RichText::new(format!("⚠ {} pile contacts unsolved", w.profile.capped))
                        .color(Color32::from_rgb(255, 170, 60)),
                )
                .on_hover_text(format!(
                    "Bodies overlap in a pile: with over {CAPPED_ABOVE} contacts in the step, a body solves at \
                     most {SOLVED_PER_BODY} contacts with other moving bodies, so each step stays bounded."
                ));
                ui.separator();
            }
            if app.lab.is_none() {
                crate::app::tools::sleep::world_counts(ui, w);
            }
            let step_ms = app.median_step_ms();
            if step_ms > SLOW_STEP_MS {
                // One step per frame at most: the window stays responsive, the scene runs slowly.
                ui.label(
                    RichText::new(format!("⚠ step {step_ms:.0} ms", step_ms = Num(step_ms)))
                        .color(Color32::from_rgb(255, 170, 60)),
                )
                .on_hover_text(format!(
                    "Each step takes {step_ms:.0} ms, so this scene runs at {:.1} steps a second instead \
                         of {:.0}: pause (Space) to inspect it, or run it headless with `run`.",
                    Num(1000.0 / step_ms),
                    Num(w.params.hz),
                    step_ms = Num(step_ms)
                ));
            } else {
                ui.label(format!("step {step_ms:.2} ms", step_ms = Num(step_ms)));
            }
            ui.separator();
        }
        ui.label(format!("{fps} fps"));
        status_texts(ui, app);
    });
}

/// The status bar's texts: the scene or lab file, a notice and the first line of an error,
/// each cut with an ellipsis where wider than the bar (whole on hover).
pub(super) fn status_texts(ui: &mut egui::Ui, app: &App) {
    let shown = match &app.lab {
        Some(lab) => {
            let name = lab.kind().entry().name;
            Some(lab.file().map_or_else(|| format!("{name} lab"), |p| format!("{name} lab · {}", p.display())))
        }
        None => app.scene_path.as_ref().map(|p| p.display().to_string()),
    };
    if let Some(text) = shown {
        ui.separator();
        ui.add(egui::Label::new(RichText::new(text).weak()).truncate());
    }
    if let Some(n) = &app.notice {
        ui.separator();
        ui.add(egui::Label::new(RichText::new(n).color(Color32::from_rgb(150, 200, 255))).truncate());
    }
    if let Some(e) = &app.error {
        ui.separator();
        // One line, cut with an ellipsis at the bar's edge; the whole message on hover and
        // in the error window.
        let first = e.lines().next().unwrap_or_default();
        ui.add(egui::Label::new(RichText::new(first).color(Color32::from_rgb(255, 110, 110))).truncate())
            .on_hover_text(e);
    }
}
