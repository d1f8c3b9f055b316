//! The slice tool of every scene (003 article, "Dynamically Slicing Shapes"): K or the Tools
//! button turns it on; a left drag then draws the knife line and releasing it slices every
//! dynamic polygon the line fully crosses (`World::slice`). A slice is kept in the step-back
//! history like a step, so B undoes it; the selection follows the bodies to their new
//! indices (`SliceReport::new_index`).

#[cfg(test)]
mod tests;

use crate::app::render::batch::Batch;
use crate::app::render::draw::mq_color;
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::world::slice::SliceReport;

/// Knife lines shorter than this (pixels) are clicks, not cuts.
pub const MIN_KNIFE_PX: f32 = 4.0;

/// The tool's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SliceTool {
    /// Left drags draw knife lines.
    pub on: bool,
    /// The line being dragged, world space.
    pub draft: Option<(Vec2, Vec2)>,
    /// What the last slice did.
    pub last: Option<SliceReport>,
}

impl App {
    /// The slice tool's actions (see `Action::Slice` and its neighbours).
    pub(crate) fn apply_slice(&mut self, action: Action) {
        match action {
            Action::Slice { from, to } => self.slice_world(from, to),
            Action::SetSliceTool(on) => self.set_slice_tool(on),
            Action::ToggleSliceTool => self.set_slice_tool(!self.slice.on),
            Action::SliceDraft(d) => self.slice.draft = d.filter(|(a, b)| a.is_finite() && b.is_finite()),
            _ => {}
        }
    }

    fn set_slice_tool(&mut self, on: bool) {
        if on && self.lab.is_some() {
            self.notice = Some("the slice tool works on scenes: leave the lab first".into());
            return;
        }
        self.slice.on = on;
        self.slice.draft = None;
        if on {
            // One drag tool at a time.
            self.ray = Default::default();
        }
        self.notice =
            Some(if on { "Slice tool: drag a line across bodies (K to leave)" } else { "Slice tool off" }.into());
    }

    /// Slices the world along `from → to`, remembering the world before in the history.
    fn slice_world(&mut self, from: Vec2, to: Vec2) {
        self.slice.draft = None;
        if self.lab.is_some() {
            self.error = Some("slicing cuts a scene's bodies: leave the lab first".into());
            return;
        }
        if !(from.is_finite() && to.is_finite()) || from == to {
            self.error = Some(format!("a knife line needs two different finite ends, got {from} and {to}"));
            return;
        }
        let before = self.world.clone();
        let report = self.world.slice(from, to);
        if report.sliced.is_empty() && report.removed.is_empty() {
            // Nothing changed: nothing to undo.
        } else {
            self.history.push(&before);
        }
        self.selection = self.selection.iter().filter_map(|&i| report.new_index(i)).collect();
        self.notice = Some(report.summary());
        self.slice.last = Some(report);
    }
}

/// The knife gesture: `from` where the drag started, `world` the pointer now. Returns the
/// actions of this frame and whether the gesture ended (the button was released).
pub fn knife_drag(from: Vec2, world: Vec2, left_down: bool, px: f32) -> (Vec<Action>, bool) {
    if left_down {
        return (vec![Action::SliceDraft(Some((from, world)))], false);
    }
    let mut out = vec![Action::SliceDraft(None)];
    if (world - from).length() >= MIN_KNIFE_PX * px {
        out.push(Action::Slice { from, to: world });
    }
    (out, true)
}

/// The knife line being dragged, over everything in the view.
pub fn draw_knife(app: &App, batch: &mut Batch, px: f32) {
    let Some((a, b)) = app.slice.draft else { return };
    let line = mq_color(palette::CLIP_LINE);
    batch.line(a, b, 2.0, line);
    let end = mq_color(palette::INTERSECTION);
    batch.disc(a, 4.0 * px, end);
    batch.disc(b, 4.0 * px, end);
}
