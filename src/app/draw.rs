//! The app's one `DebugDraw` implementation: engine primitives become macroquad shapes, with
//! line widths given in pixels (converted through the current world-per-pixel scale) and text
//! queued for a screen-space pass so it stays upright and legible.

use glam::Vec2;
use macroquad::prelude as mq;
use manifold_lab::engine::debug::{Color, DebugDraw, Layer, LayerSet};
use manifold_lab::engine::math::Aabb;

pub fn mq_color(c: Color) -> mq::Color {
    mq::Color::new(c.r, c.g, c.b, c.a)
}

/// Draws world-space primitives under a world camera.
pub struct MqDraw {
    pub layers: LayerSet,
    /// World units per pixel.
    pub px: f32,
    /// Text to draw after the world pass, at world positions.
    pub texts: Vec<(Vec2, String, Color)>,
    /// Multiplies every line width (the selection highlight draws at 2×).
    pub width_scale: f32,
}

impl MqDraw {
    pub fn new(layers: LayerSet, px: f32) -> MqDraw {
        MqDraw { layers, px, texts: Vec::new(), width_scale: 1.0 }
    }

    /// Line width in pixels per layer.
    fn width(layer: Layer) -> f32 {
        match layer {
            Layer::Shape => 1.5,
            Layer::Aabb | Layer::TreeNode | Layer::Angle => 1.0,
            Layer::Normal | Layer::Friction => 1.5,
            Layer::Impulse | Layer::Joint | Layer::RefFace | Layer::IncidentFace => 2.5,
            _ => 1.5,
        }
    }

    fn line(&self, a: Vec2, b: Vec2, w_px: f32, c: mq::Color) {
        mq::draw_line(a.x, a.y, b.x, b.y, w_px * self.width_scale * self.px, c);
    }
}

impl DebugDraw for MqDraw {
    fn wants(&self, layer: Layer) -> bool {
        self.layers.contains(layer)
    }

    fn segment(&mut self, layer: Layer, a: Vec2, b: Vec2, color: Color) {
        self.line(a, b, Self::width(layer), mq_color(color));
    }

    fn polygon(&mut self, layer: Layer, points: &[Vec2], fill: Color, outline: Color) {
        if points.len() < 2 {
            return;
        }
        if fill.a > 0.0 && points.len() >= 3 {
            let f = mq_color(fill);
            for i in 1..points.len() - 1 {
                mq::draw_triangle(points[0], points[i], points[i + 1], f);
            }
        }
        let o = mq_color(outline);
        let w = Self::width(layer);
        for i in 0..points.len() {
            self.line(points[i], points[(i + 1) % points.len()], w, o);
        }
    }

    fn circle(&mut self, layer: Layer, center: Vec2, radius: f32, fill: Color, outline: Color) {
        let screen_r = radius / self.px;
        let sides = (screen_r * 0.5).clamp(12.0, 72.0) as u8;
        if fill.a > 0.0 {
            mq::draw_poly(center.x, center.y, sides, radius, 0.0, mq_color(fill));
        }
        mq::draw_poly_lines(
            center.x,
            center.y,
            sides,
            radius,
            0.0,
            Self::width(layer) * self.width_scale * self.px,
            mq_color(outline),
        );
    }

    fn point(&mut self, _layer: Layer, p: Vec2, size: f32, color: Color) {
        mq::draw_circle(p.x, p.y, 0.5 * size * self.px, mq_color(color));
    }

    fn arrow(&mut self, layer: Layer, from: Vec2, to: Vec2, color: Color) {
        let c = mq_color(color);
        let w = Self::width(layer);
        self.line(from, to, w, c);
        let d = to - from;
        let len = d.length();
        if len <= 0.0 {
            return;
        }
        let head = (9.0 * self.px).min(0.4 * len);
        let dir = d / len;
        let side = Vec2::new(-dir.y, dir.x);
        self.line(to, to - head * dir + 0.5 * head * side, w, c);
        self.line(to, to - head * dir - 0.5 * head * side, w, c);
    }

    fn aabb(&mut self, layer: Layer, aabb: Aabb, color: Color) {
        let s = aabb.max - aabb.min;
        mq::draw_rectangle_lines(aabb.min.x, aabb.min.y, s.x, s.y, Self::width(layer) * self.px, mq_color(color));
    }

    fn text(&mut self, _layer: Layer, p: Vec2, text: &str, color: Color) {
        self.texts.push((p, text.to_string(), color));
    }
}
