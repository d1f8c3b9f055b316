//! The slice tool of every scene (003 article, "Dynamically Slicing Shapes"): K or the Tools
//! button turns it on; a left drag then draws the knife line and releasing it slices every
//! dynamic polygon the line fully crosses (`World::slice`). A slice is kept in the step-back
//! history like a step, so B undoes it; the selection follows the bodies to their new
//! indices (`SliceReport::new_index`).

#[cfg(test)]
mod tests;

use super::{Place, Tool, ToolContext, ToolEntry, ToolKind, ToolPointer, ToolType, ToolView, WorldChange};
use crate::app::render::draw::{mq_color, MqDraw};
use crate::app::state::Action;
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::world::slice::SliceReport;
use manifold_lab::engine::World;
use serde::{Deserialize, Serialize};

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

/// What the slice tool can be asked to do (the cut itself is the world edit `Action::Slice`,
/// which recordings keep).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SliceAction {
    /// Turn the tool on or off: while on, a left drag draws a knife line and releasing it
    /// slices.
    SetOn(bool),
    /// K: turn it on or off.
    Toggle,
    /// The knife line being dragged (drawn in the view); `None` when released.
    Draft(Option<(Vec2, Vec2)>),
}

impl ToolType for SliceTool {
    type Action = SliceAction;
    const ENTRY: ToolEntry = ToolEntry {
        name: "slice",
        description: "the slice tool: drag a knife line; every dynamic polygon it fully crosses splits in two",
    };

    fn apply(&mut self, cx: &mut ToolContext, action: SliceAction) {
        match action {
            SliceAction::SetOn(on) => self.set_on(cx, on),
            SliceAction::Toggle => self.set_on(cx, !self.on),
            SliceAction::Draft(d) => self.draft = d.filter(|(a, b)| a.is_finite() && b.is_finite()),
        }
    }
}

impl SliceTool {
    fn set_on(&mut self, cx: &mut ToolContext, on: bool) {
        if on && cx.in_lab {
            *cx.notice = Some("the slice tool works on scenes: leave the lab first".into());
            return;
        }
        self.on = on;
        self.draft = None;
        *cx.notice =
            Some(if on { "Slice tool: drag a line across bodies (K to leave)" } else { "Slice tool off" }.into());
    }

    /// Slices the world along `from → to` (`Action::Slice`), remembering the world before in
    /// the history.
    pub fn cut(&mut self, cx: &mut ToolContext, from: Vec2, to: Vec2) {
        self.draft = None;
        if cx.in_lab {
            *cx.error = Some("slicing cuts a scene's bodies: leave the lab first".into());
            return;
        }
        if !(from.is_finite() && to.is_finite()) || from == to {
            *cx.error = Some(format!("a knife line needs two different finite ends, got {from} and {to}"));
            return;
        }
        let before = cx.world.clone();
        let report = cx.world.slice(from, to);
        if report.sliced.is_empty() && report.removed.is_empty() {
            // Nothing changed: nothing to undo.
        } else {
            cx.history.push(&before);
        }
        *cx.selection = cx.selection.iter().filter_map(|&i| report.new_index(i)).collect();
        *cx.notice = Some(report.summary());
        self.last = Some(report);
    }
}

impl Tool for SliceTool {
    fn kind(&self) -> ToolKind {
        ToolKind::Slice
    }

    fn drags(&self) -> bool {
        self.on
    }

    fn stop_dragging(&mut self) {
        self.on = false;
        self.draft = None;
    }

    fn pointer(&mut self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        let from = match self.draft {
            Some((from, _)) => from,
            None if self.on && p.free && p.frame.left_pressed => {
                return Some(vec![SliceAction::Draft(Some((p.world, p.world))).into()]);
            }
            None => return None,
        };
        Some(knife_drag(from, p.world, p.frame.left_down, v.px()).0)
    }

    fn draw(&self, v: &ToolView, d: &mut MqDraw) {
        let Some((a, b)) = self.draft else { return };
        let px = v.px();
        let batch = d.batch();
        batch.line(a, b, 2.0, mq_color(palette::CLIP_LINE));
        let end = mq_color(palette::INTERSECTION);
        batch.disc(a, 4.0 * px, end);
        batch.disc(b, 4.0 * px, end);
    }

    fn panel(&self, at: Place, ui: &mut egui::Ui, _v: &ToolView, out: &mut Vec<Action>) {
        if at == Place::Tools {
            super::panel::slice(ui, self, out);
        }
    }

    fn world_changed(&mut self, how: WorldChange, _world: &World) {
        if how == WorldChange::Loaded {
            *self = SliceTool::default();
        }
    }

    fn report(&self, _v: &ToolView) -> Option<serde_json::Value> {
        Some(serde_json::json!({ "on": self.on, "dragging": self.draft.is_some() }))
    }
}

/// The knife gesture: `from` where the drag started, `world` the pointer now. Returns the
/// actions of this frame and whether the gesture ended (the button was released).
pub fn knife_drag(from: Vec2, world: Vec2, left_down: bool, px: f32) -> (Vec<Action>, bool) {
    if left_down {
        return (vec![SliceAction::Draft(Some((from, world))).into()], false);
    }
    let mut out = vec![SliceAction::Draft(None).into()];
    if (world - from).length() >= MIN_KNIFE_PX * px {
        out.push(Action::Slice { from, to: world });
    }
    (out, true)
}
