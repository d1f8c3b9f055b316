//! The 2D view: a centre and a visible height in world units, mapped onto the screen
//! rectangle left free by the panels. Pure math, so it is testable without a window.

use glam::Vec2;
use manifold_lab::engine::math::Aabb;

/// A screen rectangle in pixels (origin top-left, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenRect {
    pub min: Vec2,
    pub size: Vec2,
}

impl ScreenRect {
    pub fn center(&self) -> Vec2 {
        self.min + 0.5 * self.size
    }

    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.y >= self.min.y && p.x <= self.min.x + self.size.x && p.y <= self.min.y + self.size.y
    }
}

/// World view: `center` is shown at the middle of the viewport, `height` world units fit
/// its height. World y points up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewCamera {
    pub center: Vec2,
    pub height: f32,
}

impl Default for ViewCamera {
    fn default() -> Self {
        ViewCamera { center: Vec2::new(0.0, 8.0), height: 25.0 }
    }
}

impl ViewCamera {
    pub const MIN_HEIGHT: f32 = 0.05;
    pub const MAX_HEIGHT: f32 = 20_000.0;

    /// World units per pixel.
    pub fn scale(&self, viewport: &ScreenRect) -> f32 {
        self.height / viewport.size.y.max(1.0)
    }

    pub fn screen_to_world(&self, viewport: &ScreenRect, p: Vec2) -> Vec2 {
        let s = self.scale(viewport);
        let d = p - viewport.center();
        self.center + Vec2::new(d.x * s, -d.y * s)
    }

    pub fn world_to_screen(&self, viewport: &ScreenRect, w: Vec2) -> Vec2 {
        let s = self.scale(viewport);
        let d = w - self.center;
        viewport.center() + Vec2::new(d.x / s, -d.y / s)
    }

    /// The world box visible in the viewport.
    pub fn visible(&self, viewport: &ScreenRect) -> Aabb {
        let s = self.scale(viewport);
        let half = 0.5 * viewport.size * s;
        Aabb::new(self.center - half, self.center + half)
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the world point under `screen_point` fixed.
    pub fn zoom_at(&mut self, viewport: &ScreenRect, screen_point: Vec2, factor: f32) {
        let before = self.screen_to_world(viewport, screen_point);
        self.height = (self.height / factor).clamp(Self::MIN_HEIGHT, Self::MAX_HEIGHT);
        let after = self.screen_to_world(viewport, screen_point);
        self.center += before - after;
    }

    /// Moves the view by a drag of `delta` pixels (the world follows the mouse).
    pub fn pan_pixels(&mut self, viewport: &ScreenRect, delta: Vec2) {
        let s = self.scale(viewport);
        self.center -= Vec2::new(delta.x * s, -delta.y * s);
    }

    /// Fits `bounds` with a margin.
    pub fn frame(&mut self, viewport: &ScreenRect, bounds: Aabb) {
        if !bounds.is_valid() {
            return;
        }
        let aspect = viewport.size.x / viewport.size.y.max(1.0);
        let size = bounds.max - bounds.min;
        let height = size.y.max(size.x / aspect.max(0.01)) * 1.15;
        self.center = bounds.center();
        self.height = height.clamp(Self::MIN_HEIGHT, Self::MAX_HEIGHT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vp() -> ScreenRect {
        ScreenRect { min: Vec2::new(300.0, 0.0), size: Vec2::new(800.0, 600.0) }
    }

    #[test]
    fn round_trip_and_y_up() {
        let cam = ViewCamera { center: Vec2::new(2.0, 3.0), height: 30.0 };
        let p = Vec2::new(420.0, 100.0);
        let w = cam.screen_to_world(&vp(), p);
        assert!((cam.world_to_screen(&vp(), w) - p).length() < 1e-3);
        // higher on screen = larger world y
        assert!(
            cam.screen_to_world(&vp(), Vec2::new(700.0, 10.0)).y
                > cam.screen_to_world(&vp(), Vec2::new(700.0, 500.0)).y
        );
        assert!((cam.screen_to_world(&vp(), vp().center()) - cam.center).length() < 1e-5);
    }

    #[test]
    fn zoom_keeps_point_under_cursor() {
        let mut cam = ViewCamera::default();
        let cursor = Vec2::new(900.0, 150.0);
        let before = cam.screen_to_world(&vp(), cursor);
        cam.zoom_at(&vp(), cursor, 1.7);
        let after = cam.screen_to_world(&vp(), cursor);
        assert!((before - after).length() < 1e-3);
        assert!((cam.height - 25.0 / 1.7).abs() < 1e-4);
    }

    #[test]
    fn frame_fits_bounds() {
        let mut cam = ViewCamera::default();
        let b = Aabb::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 10.0));
        cam.frame(&vp(), b);
        let v = cam.visible(&vp());
        assert!(v.min.x <= -50.0 && v.max.x >= 50.0 && v.min.y <= 0.0 && v.max.y >= 10.0);
    }
}
