//! The world grid with metre labels, spaced so lines stay 40+ pixels apart at any zoom.

use super::batch::Batch;
use super::camera::{ScreenRect, ViewCamera};
use glam::Vec2;
use macroquad::prelude as mq;

/// Grid spacing in world units: a 1-2-5 step giving at least `min_px` pixels between lines.
pub fn grid_spacing(world_per_px: f32, min_px: f32) -> f32 {
    let raw = world_per_px * min_px;
    let base = 10f32.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if base * m >= raw {
            return base * m;
        }
    }
    base * 10.0
}

/// Formats a grid coordinate without float noise.
pub fn label(v: f32, spacing: f32) -> String {
    let decimals = if spacing >= 1.0 { 0 } else { (-spacing.log10().floor()) as usize };
    format!("{:.*}", decimals, v)
}

/// Queues the grid lines (world units) into `batch`.
pub fn draw_grid_lines(cam: &ViewCamera, vp: &ScreenRect, batch: &mut Batch) {
    let px = cam.scale(vp);
    let spacing = grid_spacing(px, 48.0);
    let view = cam.visible(vp);
    let minor = mq::Color::new(1.0, 1.0, 1.0, 0.05);
    let major = mq::Color::new(1.0, 1.0, 1.0, 0.11);
    let axis = mq::Color::new(1.0, 1.0, 1.0, 0.28);
    let x0 = (view.min.x / spacing).floor() as i64;
    let x1 = (view.max.x / spacing).ceil() as i64;
    let y0 = (view.min.y / spacing).floor() as i64;
    let y1 = (view.max.y / spacing).ceil() as i64;
    if (x1 - x0) > 400 || (y1 - y0) > 400 {
        return;
    }
    for i in x0..=x1 {
        let x = i as f32 * spacing;
        let c = if i == 0 {
            axis
        } else if i % 5 == 0 {
            major
        } else {
            minor
        };
        batch.line(Vec2::new(x, view.min.y), Vec2::new(x, view.max.y), 1.0, c);
    }
    for j in y0..=y1 {
        let y = j as f32 * spacing;
        let c = if j == 0 {
            axis
        } else if j % 5 == 0 {
            major
        } else {
            minor
        };
        batch.line(Vec2::new(view.min.x, y), Vec2::new(view.max.x, y), 1.0, c);
    }
}

/// Draws the metre labels of the major lines along the viewport's left and bottom edges, in
/// screen space.
pub fn draw_grid_labels(cam: &ViewCamera, vp: &ScreenRect, font_size: f32) {
    let px = cam.scale(vp);
    let spacing = grid_spacing(px, 48.0);
    let view = cam.visible(vp);
    let color = mq::Color::new(1.0, 1.0, 1.0, 0.45);
    let step = spacing * 5.0;
    let x0 = (view.min.x / step).ceil() as i64;
    let x1 = (view.max.x / step).floor() as i64;
    let bottom = vp.min.y + vp.size.y - 6.0;
    for i in x0..=x1.min(x0 + 100) {
        let x = i as f32 * step;
        let s = cam.world_to_screen(vp, Vec2::new(x, 0.0));
        mq::draw_text(format!("{} m", label(x, step)), s.x + 3.0, bottom, font_size, color);
    }
    let y0 = (view.min.y / step).ceil() as i64;
    let y1 = (view.max.y / step).floor() as i64;
    for j in y0..=y1.min(y0 + 100) {
        let y = j as f32 * step;
        let s = cam.world_to_screen(vp, Vec2::new(0.0, y));
        mq::draw_text(format!("{} m", label(y, step)), vp.min.x + 4.0, s.y - 3.0, font_size, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_is_one_two_five() {
        assert_eq!(grid_spacing(0.01, 48.0), 0.5);
        assert_eq!(grid_spacing(0.03, 48.0), 2.0);
        assert_eq!(grid_spacing(1.0, 48.0), 50.0);
        assert_eq!(label(2.5, 0.5), "2.5");
        assert_eq!(label(10.0, 5.0), "10");
    }
}
