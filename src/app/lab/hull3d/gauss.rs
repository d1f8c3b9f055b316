//! The Gauss-map inset of the 3D hull lab: a dark plate with the unit sphere, on which the
//! engine's picture of both Gauss maps (`SatView3::draw_gauss`) is drawn orthographic, turned
//! with the main camera.

use super::Hull3dLab;
use crate::app::camera::ScreenRect;
use crate::app::render::text_fit::elide_to_width;
use crate::app::view3d::MqDraw3;
use glam::Vec2;
use macroquad::prelude as mq;

/// The inset's place: a square in the bottom-right corner of the lab's viewport.
pub fn inset_rect(free: &ScreenRect) -> ScreenRect {
    let side = (0.36 * free.size.x.min(free.size.y)).clamp(120.0, 300.0).floor();
    let min = free.min + free.size - Vec2::splat(side + 10.0);
    ScreenRect { min, size: Vec2::splat(side) }
}

pub fn draw_inset(lab: &Hull3dLab, rect: &ScreenRect) {
    let plate = mq::Color::new(0.035, 0.04, 0.05, 0.94);
    mq::draw_rectangle(rect.min.x, rect.min.y, rect.size.x, rect.size.y, plate);
    mq::draw_rectangle_lines(rect.min.x, rect.min.y, rect.size.x, rect.size.y, 1.5, mq::Color::new(1.0, 1.0, 1.0, 0.3));
    let scale = 0.40 * rect.size.x;
    let center = rect.center();
    mq::draw_circle(center.x, center.y, scale, mq::Color::new(0.12, 0.13, 0.17, 1.0));
    mq::draw_circle_lines(center.x, center.y, scale, 1.0, mq::Color::new(1.0, 1.0, 1.0, 0.25));
    let mut d = MqDraw3::new(lab.layers);
    lab.view.draw_gauss(&mut d);
    d.finish_ortho(&lab.camera, rect, scale);
    let title = format!("Gauss maps: A, -B  ({} crossings)", lab.view.crossings.len());
    // Cut to the inset's width (the whole title in the Gauss maps section of the panel).
    let title = elide_to_width(&title, rect.size.x - 16.0, |t| mq::measure_text(t, None, 16, 1.0).width);
    mq::draw_text(&title, rect.min.x + 8.0, rect.min.y + 18.0, 16.0, mq::Color::new(0.9, 0.9, 0.95, 0.95));
}
