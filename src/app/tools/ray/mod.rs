//! The ray tool of every scene (003 article, "Dynamic AABB Tree" → "Queries"): Y or the Tools
//! button turns it on; a left drag then casts a ray through the world (`World::ray_cast`,
//! recorded by `World::ray_cast_traced`). The view shows every body the ray enters with its
//! normal and fraction, the closest hit ringed, and the tree nodes the closest-hit query
//! tested: entered in white, culled in grey (as the tree lab draws them). The ray stays and is
//! cast again every frame, so it follows the world as it moves.

#[cfg(test)]
mod tests;

use super::{Place, Tool, ToolContext, ToolEntry, ToolKind, ToolPointer, ToolType, ToolView};
use crate::app::render::batch::Batch;
use crate::app::render::draw::{mq_color, MqDraw, WorldText};
use crate::app::state::Action;
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::debug::{palette, Color};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::world::ray::RayTrace;
use serde::{Deserialize, Serialize};

/// Rays shorter than this (pixels) are clicks: they clear the ray.
pub const MIN_RAY_PX: f32 = 4.0;

/// The tool's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RayTool {
    /// Left drags cast rays.
    pub on: bool,
    /// The ray, world space.
    pub ray: Option<(Vec2, Vec2)>,
    /// Where the drag under way started.
    drag_from: Option<Vec2>,
}

/// What the ray tool can be asked to do: `Tool(Ray(Cast(from: (0, 0), to: (4, 1))))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RayAction {
    /// Turn the tool on or off: while on, a left drag in the view casts a ray.
    SetOn(bool),
    /// Y: turn it on or off.
    Toggle,
    /// Cast a ray into the world; it stays, cast again every frame, until cleared.
    Cast { from: Vec2, to: Vec2 },
    /// Remove the ray.
    Clear,
}

impl ToolType for RayTool {
    type Action = RayAction;
    const ENTRY: ToolEntry = ToolEntry {
        name: "ray",
        description: "the ray tool: drag a ray through the world; its hits, normals and the tree nodes it visits",
    };

    fn apply(&mut self, cx: &mut ToolContext, action: RayAction) {
        match action {
            RayAction::Cast { from, to } => self.cast(cx, from, to),
            RayAction::SetOn(on) => self.set_on(cx, on),
            RayAction::Toggle => self.set_on(cx, !self.on),
            RayAction::Clear => self.ray = None,
        }
    }
}

impl RayTool {
    fn set_on(&mut self, cx: &mut ToolContext, on: bool) {
        if on && cx.in_lab {
            *cx.notice = Some("the ray tool works on scenes: leave the lab first".into());
            return;
        }
        *self = RayTool { on, ..Default::default() };
        if on {
            cx.world.sync_broadphase();
        }
        *cx.notice = Some(if on { "Ray tool: drag a ray (Y to leave)" } else { "Ray tool off" }.into());
    }

    fn cast(&mut self, cx: &mut ToolContext, from: Vec2, to: Vec2) {
        if cx.in_lab {
            *cx.error = Some("the ray tool casts into a scene: leave the lab first".into());
            return;
        }
        if !(from.is_finite() && to.is_finite()) || from == to {
            *cx.error = Some(format!("a ray needs two different finite ends, got {from} and {to}"));
            return;
        }
        self.ray = Some((from, to));
    }

    /// The ray cast into the world now, if there is a ray.
    pub fn trace(&self, v: &ToolView) -> Option<RayTrace> {
        let (from, to) = self.ray.filter(|_| !v.in_lab)?;
        Some(v.world.ray_cast_traced(from, to - from))
    }
}

impl Tool for RayTool {
    fn kind(&self) -> ToolKind {
        ToolKind::Ray
    }

    fn drags(&self) -> bool {
        self.on
    }

    fn stop_dragging(&mut self) {
        *self = RayTool::default();
    }

    fn pointer(&mut self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        let from = match self.drag_from {
            Some(from) => from,
            None if self.on && p.free && p.frame.left_pressed => {
                self.drag_from = Some(p.world);
                return Some(vec![]);
            }
            None => return None,
        };
        let (actions, done) = ray_drag(from, p.world, p.frame.left_down, v.px());
        if done {
            self.drag_from = None;
        }
        Some(actions)
    }

    fn draw(&self, v: &ToolView, d: &mut MqDraw) {
        draw_ray(self, v, d);
    }

    fn panel(&self, at: Place, ui: &mut egui::Ui, v: &ToolView, out: &mut Vec<Action>) {
        if at == Place::Tools {
            super::panel::ray(ui, self, v, out);
        }
    }

    fn report(&self, _v: &ToolView) -> Option<serde_json::Value> {
        Some(serde_json::json!({ "on": self.on, "ray": self.ray.map(|(a, b)| [a.to_array(), b.to_array()]) }))
    }
}

/// The ray gesture: `from` where the drag started, `world` the pointer now. Returns the
/// actions of this frame and whether the gesture ended (the button was released).
pub fn ray_drag(from: Vec2, world: Vec2, left_down: bool, px: f32) -> (Vec<Action>, bool) {
    if (world - from).length() < MIN_RAY_PX * px {
        return (if left_down { vec![] } else { vec![RayAction::Clear.into()] }, !left_down);
    }
    (vec![RayAction::Cast { from, to: world }.into()], !left_down)
}

/// The visited nodes, the ray, each hit's point and normal, and the closest hit's fraction.
fn draw_ray(tool: &RayTool, v: &ToolView, d: &mut MqDraw) {
    let Some(trace) = tool.trace(v) else { return };
    let Some((from, to)) = tool.ray else { return };
    let px = v.px();
    let batch = d.batch();
    draw_visited(batch, &trace.visited);
    let end = trace.closest.map_or(to, |h| h.point);
    batch.line(from, to, 1.0, mq_color(palette::JOINT.with_alpha(0.45)));
    batch.line(from, end, 2.5, mq_color(palette::JOINT));
    batch.disc(from, 4.0 * px, mq_color(palette::JOINT));
    let normal_len = 40.0 * px;
    for h in &trace.hits {
        batch.disc(h.point, 4.0 * px, mq_color(palette::INTERSECTION));
        if h.normal != Vec2::ZERO {
            arrow(batch, h.point, h.point + normal_len * h.normal, mq_color(palette::NORMAL), px);
        }
    }
    if let Some(h) = trace.closest {
        batch.ring(h.point, 9.0 * px, 2.0, mq_color(palette::SELECTED));
    }
    // The closest hit is labelled; the Tools panel lists every hit's numbers (labels on all
    // of them would bury a ray through a pyramid).
    if let Some(h) = trace.closest {
        let label = format!("t={:.4}  n=({:.3}, {:.3})", Num(h.fraction), Num(h.normal.x), Num(h.normal.y));
        let at = h.point + 22.0 * px * h.normal.normalize_or(Vec2::Y);
        d.texts.push(WorldText { at, text: label, color: palette::TEXT, priority: 4 });
    }
}

/// The tree nodes a query tested: entered in white, culled in grey (as the tree lab draws them).
pub(crate) fn draw_visited(batch: &mut Batch, visited: &[(Aabb, bool)]) {
    for &(b, entered) in visited {
        let c =
            if entered { Color::rgb(255, 255, 255).with_alpha(0.6) } else { Color::rgb(130, 130, 130).with_alpha(0.3) };
        aabb(batch, b.min, b.max, mq_color(c));
    }
}

fn aabb(batch: &mut Batch, lo: Vec2, hi: Vec2, c: macroquad::prelude::Color) {
    let pts = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    for k in 0..4 {
        batch.line(pts[k], pts[(k + 1) % 4], 1.0, c);
    }
}

pub(crate) fn arrow(batch: &mut Batch, a: Vec2, b: Vec2, c: macroquad::prelude::Color, px: f32) {
    batch.line(a, b, 2.0, c);
    let dir = (b - a).normalize_or_zero();
    let side = Vec2::new(-dir.y, dir.x);
    let head = 8.0 * px;
    batch.line(b, b - head * dir + 0.5 * head * side, 2.0, c);
    batch.line(b, b - head * dir - 0.5 * head * side, 2.0, c);
}
