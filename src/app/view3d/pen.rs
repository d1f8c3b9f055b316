//! Screen-space helpers for the 3D views: a `Camera3D` clipped to a viewport, labels on dark
//! plates kept apart, and an axes gizmo. Every projection goes through [`OrbitCamera`], so what
//! is drawn is what is picked.

use super::camera::OrbitCamera;
use crate::app::camera::ScreenRect;
use crate::app::render::draw::mq_color;
use crate::app::render::labels::{draw_labels, ScreenLabel};
use glam::{Vec2, Vec3};
use macroquad::prelude as mq;
use manifold_lab::engine::debug::Color;

/// `color` with alpha `alpha`, as macroquad's colour.
pub fn c(color: Color, alpha: f32) -> mq::Color {
    mq_color(color.with_alpha(alpha))
}

pub const BG: Color = Color { r: 0.04, g: 0.045, b: 0.06, a: 1.0 };

/// Labels at screen points, drawn last on dark plates through the one placement pass
/// (`labels::draw_labels`): moved nearby or elided (with a tooltip) where they crowd.
#[derive(Default)]
pub struct Labels {
    items: Vec<ScreenLabel>,
    /// Screen rectangles no label may cover, such as contact points.
    keep_clear: Vec<ScreenRect>,
}

impl Labels {
    /// A label for the point `at`, centred `offset` from it when there is room.
    pub fn add(&mut self, at: Vec2, offset: Vec2, text: &str, color: mq::Color, priority: i32) {
        self.items.push(ScreenLabel { anchor: at, offset, text: plain(text), color, priority });
    }

    /// Keeps labels off the screen rectangle `r`.
    pub fn keep_clear_rect(&mut self, r: ScreenRect) {
        self.keep_clear.push(r);
    }

    /// Keeps labels off a dot of radius `r` at `at`.
    pub fn keep_clear(&mut self, at: Vec2, r: f32) {
        self.keep_clear.push(ScreenRect { min: at - Vec2::splat(r), size: Vec2::splat(2.0 * r) });
    }

    /// Places and draws the labels inside `view` (screen pixels under the current camera).
    pub fn draw(&self, view: &ScreenRect) {
        draw_labels(*view, &self.items, &self.keep_clear);
    }
}

/// `text` in the characters macroquad's built-in font has (ASCII): minus and dashes, times,
/// arrows, degrees and superscripts spelled out.
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '−' | '–' | '—' => out.push('-'),
            '×' => out.push('x'),
            '→' => out.push_str("->"),
            '°' => out.push_str(" deg"),
            '²' => out.push_str("^2"),
            '³' => out.push_str("^3"),
            'ω' => out.push('w'),
            c if c.is_ascii() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

pub fn set_camera_3d(cam: &OrbitCamera, vp: &ScreenRect) {
    let sh = mq::screen_height();
    mq::set_camera(&mq::Camera3D {
        position: cam.eye(),
        target: cam.target,
        up: Vec3::Y,
        fovy: cam.fovy,
        aspect: Some(OrbitCamera::aspect(vp)),
        z_near: cam.z_near(),
        z_far: cam.z_far(),
        viewport: Some((vp.min.x as i32, (sh - (vp.min.y + vp.size.y)) as i32, vp.size.x as i32, vp.size.y as i32)),
        ..Default::default()
    });
}

/// The axes gizmo's centre and the radius of its plate.
fn gizmo_at(vp: &ScreenRect) -> (Vec2, f32) {
    (Vec2::new(vp.min.x + 48.0, vp.min.y + vp.size.y - 48.0), 42.0)
}

/// The square the axes gizmo covers (labels keep off it).
pub fn gizmo_rect(vp: &ScreenRect) -> ScreenRect {
    let (o, r) = gizmo_at(vp);
    ScreenRect { min: o - Vec2::splat(r), size: Vec2::splat(2.0 * r) }
}

/// X, Y, Z arrows in the viewport's bottom-left corner, turned with the camera.
pub fn draw_gizmo(cam: &OrbitCamera, vp: &ScreenRect) {
    let (o, plate) = gizmo_at(vp);
    let axes = [
        (Vec3::X, "x", Color::rgb(240, 80, 80)),
        (Vec3::Y, "y", Color::rgb(110, 230, 110)),
        (Vec3::Z, "z", Color::rgb(100, 150, 255)),
    ];
    mq::draw_circle(o.x, o.y, plate, c(BG, 0.6));
    for (d, name, col) in axes {
        let e = o + Vec2::new(d.dot(cam.right()), -d.dot(cam.up())) * 30.0;
        mq::draw_line(o.x, o.y, e.x, e.y, 2.5, c(col, 1.0));
        let t = o + (e - o) * 1.25;
        mq::draw_text(name, t.x - 4.0, t.y + 5.0, 18.0, c(col, 1.0));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_is_spelled_in_ascii() {
        assert_eq!(super::plain("V 0.5 m³ × 2 → −1°"), "V 0.5 m^3 x 2 -> -1 deg");
        assert_eq!(super::plain("in–in, out—out"), "in-in, out-out");
    }
}
