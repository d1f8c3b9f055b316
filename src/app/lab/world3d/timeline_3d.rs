//! The 3D lab on the shared timeline: its `TimelineAction`s resolved by the same `Scrub` as
//! the 2D scene's and applied to the lab's world, the same panel (with Record, `record_3d`;
//! without export and the profiler, which belong to 2D scenes), and the compared branch's
//! hulls drawn as ghost outlines where they are not where the shown ones are.

use super::World3dLab;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::{Action, RunMode};
use crate::app::timeline::panel::{show_view, View};
use crate::app::timeline::{Resolved, TimelineAction};
use egui_macroquad::egui;
use glam::Vec3;
use manifold_lab::engine::debug::Color;
use manifold_lab::engine::debug3::{DebugDraw3, Layer3};
use manifold_lab::engine::world3d::World3;

/// The ghost outline colour (the 2D ghost's).
const GHOST: Color = Color::rgb(190, 150, 255);

impl World3dLab {
    /// A timeline action: seeks, branch and compare pickers and the determinism check.
    pub(super) fn apply_timeline(&mut self, app: &mut Stage, a: TimelineAction) {
        let from = self.timeline.line.current();
        match self.timeline.resolve(a, crate::app::timeline::profiler::PROFILE_STEPS) {
            Resolved::Seek { branch, step, swap } => {
                app.mode = RunMode::Paused;
                if !self.seek(branch, step) {
                    app.notice = Some(format!("step {step} is not kept"));
                } else if swap {
                    self.timeline.swap_compare(from);
                }
            }
            Resolved::Compared => {}
            Resolved::Check => app.notice = self.timeline.check_determinism().or(app.notice.take()),
            Resolved::Notice(n) => app.notice = Some(n),
            Resolved::Error(e) => app.error = Some(e),
            Resolved::Other(TimelineAction::Record(on)) => self.set_recording(app, on),
            Resolved::Other(TimelineAction::SaveRecording(path)) => self.save_recording(app, &path),
            Resolved::Other(_) => app.notice = Some("the profiler is for 2D scenes".into()),
        }
    }

    /// Shows `step` of `branch`: the kept states are dropped and a drag in progress let go
    /// (as in 2D); false when the step is not kept.
    pub(super) fn seek(&mut self, branch: usize, step: u64) -> bool {
        match self.timeline.seek(branch, step, &self.world) {
            Some(w) => {
                self.world = w;
                self.world.mouse = None;
                self.history.clear();
                self.selected = self.selected.filter(|&i| i < self.world.bodies.len());
                true
            }
            None => false,
        }
    }

    /// Tells the timeline the world was edited (at a past step: a branch, with a notice).
    pub(super) fn edited(&mut self, app: &mut Stage) {
        if let Some(n) = self.timeline.edited(&self.world) {
            app.notice = Some(n);
        }
    }
}

/// The timeline bar for the lab's world.
pub fn panel(lab: &World3dLab, ctx: &egui::Context, out: &mut Vec<Action>, st: &mut UiState) -> Option<egui::Rect> {
    let view = View {
        scrub: &lab.timeline,
        diff: lab.timeline.diff(&lab.world),
        can_back: lab.can_step_back(),
        recording: Some(lab.recorder.is_some()),
        profiler: None,
        export: false,
        peers: None,
    };
    show_view(ctx, &view, out, st)
}

/// The compared branch's moving hulls that are not where the shown ones are, as outlines (on
/// the hull faces' layer, so they show whenever the hulls do).
pub fn draw_ghost(lab: &World3dLab, d: &mut dyn DebugDraw3) {
    let Some(g) = lab.timeline.ghost() else { return };
    if !d.wants(Layer3::Shape) {
        return;
    }
    for (i, b) in g.bodies.iter().enumerate().filter(|(_, b)| b.is_dynamic()) {
        if lab.world.bodies.get(i).is_some_and(|s| s.pose.p == b.pose.p && s.pose.q == b.pose.q) {
            continue;
        }
        for e in 0..b.hull.edges().len() {
            let [p, q]: [Vec3; 2] = b.hull.edge_segment(e).map(|p| b.pose.transform_point(p));
            d.segment(Layer3::Shape, p, q, GHOST);
        }
    }
}

/// The timeline's part of the lab's report: branch, cursor, newest step, branches, the
/// compared branch and how many ghost hulls are drawn, and the diff's first bodies.
pub fn state_json(lab: &World3dLab) -> serde_json::Value {
    let t = &lab.timeline;
    let diff: Vec<_> = t.diff(&lab.world).into_iter().take(3).collect();
    serde_json::json!({
        "branch": t.line.current(),
        "branches": t.line.branches().len(),
        "cursor": t.line.cursor(),
        "first": t.line.current_branch().first_reachable(),
        "newest": t.line.current_branch().newest(),
        "compare": t.compare,
        "ghost_hulls": t.ghost().map_or(0, |g| ghost_hulls(&lab.world, g)),
        "diff": diff,
        "can_step_back": lab.can_step_back(),
        "recording": lab.recorder.is_some(),
    })
}

/// How many of the ghost's moving hulls are drawn (not where the shown ones are).
pub fn ghost_hulls(shown: &World3, ghost: &World3) -> usize {
    ghost
        .bodies
        .iter()
        .enumerate()
        .filter(|(i, b)| {
            b.is_dynamic() && !shown.bodies.get(*i).is_some_and(|s| s.pose.p == b.pose.p && s.pose.q == b.pose.q)
        })
        .count()
}
