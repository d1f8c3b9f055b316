//! The ray tool of every scene (003 article, "Dynamic AABB Tree" → "Queries"): Y or the Tools
//! button turns it on; a left drag then casts a ray through the world (`World::ray_cast`,
//! recorded by `World::ray_cast_traced`). The view shows every body the ray enters with its
//! normal and fraction, the closest hit ringed, and the tree nodes the closest-hit query
//! tested: entered in white, culled in grey (as the tree lab draws them). The ray stays and is
//! cast again every frame, so it follows the world as it moves.

#[cfg(test)]
mod tests;

use crate::app::render::batch::Batch;
use crate::app::render::draw::{mq_color, MqDraw, WorldText};
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::engine::debug::{palette, Color};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::world::ray::RayTrace;

/// Rays shorter than this (pixels) are clicks: they clear the ray.
pub const MIN_RAY_PX: f32 = 4.0;

/// The tool's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RayTool {
    /// Left drags cast rays.
    pub on: bool,
    /// The ray, world space.
    pub ray: Option<(Vec2, Vec2)>,
}

impl App {
    /// The ray tool's actions (`Action::Ray`, `SetRayTool`, `ToggleRayTool`).
    pub(crate) fn apply_ray(&mut self, action: Action) {
        match action {
            Action::Ray { from, to } => self.set_ray(from, to),
            Action::SetRayTool(on) => self.set_ray_tool(on),
            Action::ToggleRayTool => self.set_ray_tool(!self.ray.on),
            Action::ClearRay => self.ray.ray = None,
            _ => {}
        }
    }

    fn set_ray_tool(&mut self, on: bool) {
        if on && self.lab.is_some() {
            self.notice = Some("the ray tool works on scenes: leave the lab first".into());
            return;
        }
        self.ray = RayTool { on, ray: None };
        if on {
            // One drag tool at a time.
            self.slice.on = false;
            self.slice.draft = None;
            self.world.sync_broadphase();
        }
        self.notice = Some(if on { "Ray tool: drag a ray (Y to leave)" } else { "Ray tool off" }.into());
    }

    fn set_ray(&mut self, from: Vec2, to: Vec2) {
        if self.lab.is_some() {
            self.error = Some("the ray tool casts into a scene: leave the lab first".into());
            return;
        }
        if !(from.is_finite() && to.is_finite()) || from == to {
            self.error = Some(format!("a ray needs two different finite ends, got {from} and {to}"));
            return;
        }
        self.ray.ray = Some((from, to));
    }

    /// The ray cast into the world now, if there is a ray.
    pub fn ray_trace(&self) -> Option<RayTrace> {
        let (from, to) = self.ray.ray.filter(|_| self.lab.is_none())?;
        Some(self.world.ray_cast_traced(from, to - from))
    }
}

/// The ray gesture: `from` where the drag started, `world` the pointer now. Returns the
/// actions of this frame and whether the gesture ended (the button was released).
pub fn ray_drag(from: Vec2, world: Vec2, left_down: bool, px: f32) -> (Vec<Action>, bool) {
    if (world - from).length() < MIN_RAY_PX * px {
        return (if left_down { vec![] } else { vec![Action::ClearRay] }, !left_down);
    }
    (vec![Action::Ray { from, to: world }], !left_down)
}

/// The visited nodes, the ray, each hit's point and normal, and the closest hit's fraction.
/// `px` is world units per pixel.
pub fn draw_ray(app: &App, d: &mut MqDraw, px: f32) {
    let Some(trace) = app.ray_trace() else { return };
    let Some((from, to)) = app.ray.ray else { return };
    let batch = d.batch();
    for &(b, entered) in &trace.visited {
        let c =
            if entered { Color::rgb(255, 255, 255).with_alpha(0.6) } else { Color::rgb(130, 130, 130).with_alpha(0.3) };
        aabb(batch, b.min, b.max, mq_color(c));
    }
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

fn aabb(batch: &mut Batch, lo: Vec2, hi: Vec2, c: macroquad::prelude::Color) {
    let pts = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    for k in 0..4 {
        batch.line(pts[k], pts[(k + 1) % 4], 1.0, c);
    }
}

fn arrow(batch: &mut Batch, a: Vec2, b: Vec2, c: macroquad::prelude::Color, px: f32) {
    batch.line(a, b, 2.0, c);
    let dir = (b - a).normalize_or_zero();
    let side = Vec2::new(-dir.y, dir.x);
    let head = 8.0 * px;
    batch.line(b, b - head * dir + 0.5 * head * side, 2.0, c);
    batch.line(b, b - head * dir - 0.5 * head * side, 2.0, c);
}
