//! The app's one `DebugDraw` implementation: engine primitives become macroquad shapes, with
//! line widths given in pixels (converted through the current world-per-pixel scale) and text
//! queued for a screen-space pass so it stays upright and legible.

use crate::app::render::batch::Batch;
use crate::app::render::materials::Materials;
use glam::Vec2;
use macroquad::prelude as mq;
use manifold_lab::engine::debug::{Color, DebugDraw, Layer, LayerSet};
use manifold_lab::engine::math::Aabb;

pub fn mq_color(c: Color) -> mq::Color {
    mq::Color::new(c.r, c.g, c.b, c.a)
}

/// A label at a world point, drawn after the world pass (`view::draw_texts`).
pub struct WorldText {
    pub at: Vec2,
    pub text: String,
    pub color: Color,
    /// Higher is placed first where labels crowd (`label_layout`).
    pub priority: i32,
}

/// Which labels keep their place where labels crowd: what the view is about (contacts, the
/// simplex and polytope, names) before the numbers of many nodes.
pub fn text_priority(layer: Layer) -> i32 {
    match layer {
        Layer::Contact | Layer::Simplex | Layer::Polytope | Layer::Motion | Layer::Handle | Layer::SweepAndPrune => 3,
        Layer::Label | Layer::SatAxis | Layer::ClipPlane => 2,
        Layer::TreeNode => 0,
        _ => 1,
    }
}

/// Draws world-space primitives under a world camera, into one batched mesh (`Batch`); call
/// `flush` before drawing anything else over them.
pub struct MqDraw {
    pub layers: LayerSet,
    /// World units per pixel.
    pub px: f32,
    /// Text to draw after the world pass, at world positions.
    pub texts: Vec<WorldText>,
    /// Multiplies every line width (the selection highlight draws at 2×).
    pub width_scale: f32,
    batch: Batch,
}

impl MqDraw {
    /// Draws with `materials.blended` when given (see `materials`).
    pub fn new(layers: LayerSet, px: f32, materials: Option<&Materials>) -> MqDraw {
        let batch = Batch::new(px, materials.map(|m| m.blended.clone()));
        MqDraw { layers, px, texts: Vec::new(), width_scale: 1.0, batch }
    }

    /// The mesh being built, for drawing beside the `DebugDraw` calls.
    pub fn batch(&mut self) -> &mut Batch {
        &mut self.batch
    }

    /// Draws what is queued.
    pub fn flush(&mut self) {
        self.batch.flush();
    }

    /// Discs smaller than this radius (pixels) get no feathered rim: on a few pixels it is
    /// three times the triangles for no visible gain.
    const RIM_MIN_PX: f32 = 4.0;

    /// Line width in pixels per layer.
    fn width(&self, layer: Layer) -> f32 {
        self.width_scale
            * match layer {
                Layer::Shape => 1.5,
                Layer::Aabb | Layer::TreeNode | Layer::Angle => 1.0,
                Layer::Normal | Layer::Friction => 1.5,
                Layer::Impulse | Layer::RefFace | Layer::IncidentFace => 2.5,
                // Thin enough that small bodies show through their joints.
                Layer::Joint => 1.5,
                // The motion arrows: forces heavier than velocities.
                Layer::Velocity | Layer::AngularVelocity => 2.0,
                Layer::Gravity
                | Layer::ContactForce
                | Layer::JointForce
                | Layer::BuoyancyForce
                | Layer::AppliedForce => 2.5,
                _ => 1.5,
            }
    }
}

impl Drop for MqDraw {
    fn drop(&mut self) {
        self.batch.flush();
    }
}

impl DebugDraw for MqDraw {
    fn wants(&self, layer: Layer) -> bool {
        self.layers.contains(layer)
    }

    fn segment(&mut self, layer: Layer, a: Vec2, b: Vec2, color: Color) {
        let w = self.width(layer);
        self.batch.line(a, b, w, mq_color(color));
    }

    fn polygon(&mut self, layer: Layer, points: &[Vec2], fill: Color, outline: Color) {
        self.batch.fill_convex(points, mq_color(fill));
        let w = self.width(layer);
        self.batch.outline(points, w, mq_color(outline));
    }

    fn circle(&mut self, layer: Layer, center: Vec2, radius: f32, fill: Color, outline: Color) {
        // The outline covers the fill's edge, so only a disc without an outline needs a
        // feathered rim; a tiny one without an outline is a dot.
        if outline.a <= 0.0 && radius < Batch::TINY_DISC_PX * self.px {
            self.batch.dot(center, radius, mq_color(fill));
        } else if outline.a > 0.0 || radius < Self::RIM_MIN_PX * self.px {
            self.batch.disc_fill(center, radius, mq_color(fill));
        } else {
            self.batch.disc(center, radius, mq_color(fill));
        }
        let w = self.width(layer);
        self.batch.ring(center, radius, w, mq_color(outline));
    }

    fn point(&mut self, _layer: Layer, p: Vec2, size: f32, color: Color) {
        let r = 0.5 * size * self.px;
        if size < 2.0 * Self::RIM_MIN_PX {
            self.batch.disc_fill(p, r, mq_color(color));
        } else {
            self.batch.disc(p, r, mq_color(color));
        }
    }

    fn arrow(&mut self, layer: Layer, from: Vec2, to: Vec2, color: Color) {
        let c = mq_color(color);
        let w = self.width(layer);
        self.batch.line(from, to, w, c);
        let d = to - from;
        let len = d.length();
        if len.is_nan() || len <= 0.0 {
            return;
        }
        let head = (9.0 * self.px).min(0.4 * len);
        let dir = d / len;
        let side = Vec2::new(-dir.y, dir.x);
        self.batch.line(to, to - head * dir + 0.5 * head * side, w, c);
        self.batch.line(to, to - head * dir - 0.5 * head * side, w, c);
    }

    fn aabb(&mut self, layer: Layer, aabb: Aabb, color: Color) {
        let (lo, hi) = (aabb.min, aabb.max);
        let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
        let w = self.width(layer);
        self.batch.outline(&corners, w, mq_color(color));
    }

    fn text(&mut self, layer: Layer, p: Vec2, text: &str, color: Color) {
        self.texts.push(WorldText { at: p, text: text.to_string(), color, priority: text_priority(layer) });
    }
}
