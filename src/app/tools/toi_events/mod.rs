//! The time-of-impact events of the world's continuous collision (004 article, "Continuous")
//! under the pointer: while the "Time-of-impact events" layer is on, hovering an event's point
//! of impact rings it and shows its numbers (the bodies, the step, the fraction, the normal),
//! and a click opens it in the time-of-impact lab with the poses the world swept
//! (`Action::OpenToiEventInLab`), as the contact inspector opens a contact in the Manifold lab.
//! The events themselves are the engine's record (`engine::world::toi_events`), drawn by the
//! world on `Layer::ToiEvent`.

#[cfg(test)]
mod tests;

use super::{Tool, ToolContext, ToolEntry, ToolKind, ToolPointer, ToolType, ToolView};
use crate::app::render::draw::{mq_color, MqDraw};
use crate::app::state::Action;
use crate::app::tools::inspector::body_label;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::debug::{palette, Layer};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::world::toi_events::ToiEvent;
use serde::{Deserialize, Serialize};

/// How near the pointer must be to an event's point of impact to pick it, pixels.
pub const EVENT_PICK_PX: f32 = 8.0;

/// The event under the pointer, by its step and body (kept as the log forgets older ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToiEvents {
    pub hover: Option<(u64, usize)>,
}

/// What the tool can be asked to do: `Tool(ToiEvents(Clear))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToiEventsAction {
    /// Forget the recorded events.
    Clear,
}

impl ToolType for ToiEvents {
    type Action = ToiEventsAction;
    const ENTRY: ToolEntry = ToolEntry {
        name: "toi_events",
        description: "continuous collision's time-of-impact events: hover one for its numbers, click to open it in \
                      the time-of-impact lab",
    };

    fn apply(&mut self, cx: &mut ToolContext, action: ToiEventsAction) {
        let ToiEventsAction::Clear = action;
        cx.world.toi_events.clear();
        self.hover = None;
    }
}

/// The event under the pointer at `world`, when the layer shows them.
pub fn event_under<'a>(v: &'a ToolView, world: glam::Vec2) -> Option<&'a ToiEvent> {
    if v.in_lab || !v.layers.contains(Layer::ToiEvent) {
        return None;
    }
    let log = &v.world.toi_events;
    log.event_at(world, EVENT_PICK_PX * v.px()).and_then(|k| log.get(k))
}

fn find<'a>(v: &'a ToolView, key: Option<(u64, usize)>) -> Option<&'a ToiEvent> {
    let (step, body) = key?;
    v.world.toi_events.events().find(|e| e.step == step && e.body == body)
}

impl Tool for ToiEvents {
    fn kind(&self) -> ToolKind {
        ToolKind::ToiEvents
    }

    /// Follows the pointer; never takes it.
    fn pointer(&mut self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        self.hover = p.free.then(|| event_under(v, p.world)).flatten().map(|e| (e.step, e.body));
        None
    }

    fn click(&self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        let e = event_under(v, p.world).filter(|_| !p.frame.shift)?;
        Some(vec![Action::OpenToiEventInLab { step: e.step, body: e.body }])
    }

    fn draw(&self, v: &ToolView, d: &mut MqDraw) {
        if let Some(e) = find(v, self.hover).filter(|_| !v.in_lab) {
            d.batch().ring(e.point, 10.0 * v.px(), 2.0, mq_color(palette::SELECTED));
        }
    }

    fn window(&self, ctx: &egui::Context, v: &ToolView, _out: &mut Vec<Action>) {
        let Some(e) = find(v, self.hover).filter(|_| !v.in_lab) else { return };
        let sp = v.camera.world_to_screen(&v.viewport, e.point) / ctx.pixels_per_point();
        egui::Area::new(egui::Id::new("toi_event_tooltip"))
            .order(egui::Order::Tooltip)
            .fixed_pos(egui::pos2(sp.x + 14.0, sp.y + 14.0))
            .interactable(false)
            .fade_in(false)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(RichText::new(event_title(v, e)).strong());
                    ui.label(event_numbers(e));
                    ui.label(RichText::new("Click to open it in the time-of-impact lab.").small().weak());
                });
            });
    }

    fn report(&self, v: &ToolView) -> Option<serde_json::Value> {
        let events: Vec<_> = v
            .world
            .toi_events
            .events()
            .map(|e| serde_json::json!({ "step": e.step, "body": e.body, "other": e.other, "fraction": e.fraction }))
            .collect();
        Some(serde_json::json!({ "events": events }))
    }
}

/// "body hits other at step N".
pub fn event_title(v: &ToolView, e: &ToiEvent) -> String {
    format!("{} hits {} at step {}", body_label(v.world, e.body), body_label(v.world, e.other), e.step)
}

/// The fraction, point and normal, and whether the core was swept.
pub fn event_numbers(e: &ToiEvent) -> String {
    let core = if e.core.is_some() { " (its core)" } else { "" };
    format!(
        "t = {:.5}{core}\npoint ({:.3}, {:.3}), normal ({:.3}, {:.3})",
        Num(e.fraction),
        Num(e.point.x),
        Num(e.point.y),
        Num(e.normal.x),
        Num(e.normal.y)
    )
}
