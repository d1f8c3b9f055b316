//! The 3D labs' orbit camera (Maya-like: orbit about a target, pan, zoom at the cursor) as pure
//! math: projection to a screen rectangle, screen rays, view-plane drags and a trackball, all
//! testable without a window. The drawing code hands the same numbers to macroquad's
//! `Camera3D`, so what is drawn and what is picked agree.

use crate::app::camera::ScreenRect;
use glam::{Mat4, Quat, Vec2, Vec3, Vec4Swizzles};
use manifold_lab::engine::hull3d::Hull;

/// Radians of orbit per pixel of drag.
pub const ORBIT_PER_PIXEL: f32 = 0.008;
/// Radians of hull rotation per pixel of Ctrl/Alt drag.
pub const TRACKBALL_PER_PIXEL: f32 = 0.01;

/// Looks at `target` from `distance` away, `yaw` about the world y axis and `pitch` above
/// the horizon (world y is up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    /// Vertical field of view, radians.
    pub fovy: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        OrbitCamera { target: Vec3::ZERO, yaw: 0.6, pitch: 0.45, distance: 6.0, fovy: 45f32.to_radians() }
    }
}

impl OrbitCamera {
    pub const MIN_DISTANCE: f32 = 0.05;
    pub const MAX_DISTANCE: f32 = 5000.0;
    pub const MAX_PITCH: f32 = 1.55;

    /// Unit vector from the target to the eye.
    pub fn back(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(cp * sy, sp, cp * cy)
    }

    pub fn eye(&self) -> Vec3 {
        self.target + self.back() * self.distance
    }

    /// The view direction (eye to target).
    pub fn forward(&self) -> Vec3 {
        -self.back()
    }

    /// Screen right, in world space.
    pub fn right(&self) -> Vec3 {
        self.forward().cross(Vec3::Y).normalize_or(Vec3::X)
    }

    /// Screen up, in world space.
    pub fn up(&self) -> Vec3 {
        self.right().cross(self.forward())
    }

    pub fn z_near(&self) -> f32 {
        self.distance * 0.01
    }

    pub fn z_far(&self) -> f32 {
        self.distance * 100.0 + 100.0
    }

    pub fn aspect(vp: &ScreenRect) -> f32 {
        vp.size.x.max(1.0) / vp.size.y.max(1.0)
    }

    /// Projection × view, as macroquad's `Camera3D` builds it.
    pub fn matrix(&self, vp: &ScreenRect) -> Mat4 {
        Mat4::perspective_rh_gl(self.fovy, Self::aspect(vp), self.z_near(), self.z_far())
            * Mat4::look_at_rh(self.eye(), self.target, Vec3::Y)
    }

    /// Screen position of a world point and its distance along the view direction; `None`
    /// behind the near plane.
    pub fn project(&self, vp: &ScreenRect, p: Vec3) -> Option<(Vec2, f32)> {
        let clip = self.matrix(vp) * p.extend(1.0);
        if clip.w < self.z_near() {
            return None;
        }
        let ndc = clip.xy() / clip.w;
        let screen = vp.min + Vec2::new(0.5 * (ndc.x + 1.0) * vp.size.x, 0.5 * (1.0 - ndc.y) * vp.size.y);
        Some((screen, clip.w))
    }

    /// The ray through a screen point: (origin on the near plane, unit direction).
    pub fn ray(&self, vp: &ScreenRect, screen: Vec2) -> (Vec3, Vec3) {
        let d = (screen - vp.min) / vp.size.max(Vec2::ONE);
        let ndc = Vec2::new(2.0 * d.x - 1.0, 1.0 - 2.0 * d.y);
        let inv = self.matrix(vp).inverse();
        let near = inv.project_point3(ndc.extend(-1.0));
        let far = inv.project_point3(ndc.extend(1.0));
        (near, (far - near).normalize_or(self.forward()))
    }

    /// World size of one pixel at the depth of the target.
    pub fn pixel_size(&self, vp: &ScreenRect) -> f32 {
        2.0 * self.distance * (0.5 * self.fovy).tan() / vp.size.y.max(1.0)
    }

    /// Where the ray through `screen` meets the plane through `through` facing the camera.
    pub fn point_on_view_plane(&self, vp: &ScreenRect, screen: Vec2, through: Vec3) -> Option<Vec3> {
        let (o, dir) = self.ray(vp, screen);
        let n = self.forward();
        let denom = dir.dot(n);
        if denom.abs() < 1e-6 {
            return None;
        }
        let t = (through - o).dot(n) / denom;
        (t > 0.0).then(|| o + dir * t)
    }

    /// Adds `yaw` and `pitch` radians (pitch clamped short of the poles).
    pub fn orbit(&mut self, yaw: f32, pitch: f32) {
        if yaw.is_finite() && pitch.is_finite() {
            self.yaw = (self.yaw + yaw).rem_euclid(std::f32::consts::TAU);
            self.pitch = (self.pitch + pitch).clamp(-Self::MAX_PITCH, Self::MAX_PITCH);
        }
    }

    /// Pans by a drag of `delta` pixels: the point under the cursor at the target's depth
    /// follows the cursor.
    pub fn pan_pixels(&mut self, vp: &ScreenRect, delta: Vec2) {
        let s = self.pixel_size(vp);
        self.target -= (self.right() * delta.x - self.up() * delta.y) * s;
    }

    /// Zooms by `factor` (> 1 zooms in) about the point under `screen` on the target's view
    /// plane, which stays under the cursor.
    pub fn zoom_at(&mut self, vp: &ScreenRect, screen: Vec2, factor: f32) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let new_distance = (self.distance / factor).clamp(Self::MIN_DISTANCE, Self::MAX_DISTANCE);
        let k = new_distance / self.distance;
        if let Some(p) = self.point_on_view_plane(vp, screen, self.target) {
            // Scaling the camera about `p` keeps `p` (and the ray through it) in place.
            self.target = p + (self.target - p) * k;
        }
        self.distance = new_distance;
    }

    /// Centres the view on a sphere and backs off until it fits the viewport.
    pub fn frame(&mut self, vp: &ScreenRect, center: Vec3, radius: f32) {
        if !(center.is_finite() && radius.is_finite()) {
            return;
        }
        let half_v = 0.5 * self.fovy;
        let half_h = (half_v.tan() * Self::aspect(vp)).atan();
        let half = half_v.min(half_h);
        self.target = center;
        self.distance = (radius.max(0.05) / half.sin() * 1.1).clamp(Self::MIN_DISTANCE, Self::MAX_DISTANCE);
    }

    /// The rotation a Ctrl/Alt drag of `delta` pixels applies (a trackball: horizontal drags
    /// turn about screen up, vertical drags about screen right).
    pub fn trackball(&self, delta: Vec2) -> Quat {
        let k = TRACKBALL_PER_PIXEL;
        (Quat::from_axis_angle(self.up(), delta.x * k) * Quat::from_axis_angle(self.right(), delta.y * k)).normalize()
    }

    /// Orthographic projection of a point for the Gauss-map inset (same orientation, `scale`
    /// pixels per unit, centred in `rect`); the second value is positive towards the viewer.
    pub fn project_ortho(&self, rect: &ScreenRect, p: Vec3, scale: f32) -> (Vec2, f32) {
        let s = Vec2::new(p.dot(self.right()), -p.dot(self.up())) * scale;
        (rect.center() + s, p.dot(self.back()))
    }
}

/// The nearest `t >= 0` at which the ray `o + t·dir` enters (or already is inside) `hull`.
pub fn ray_hull(o: Vec3, dir: Vec3, hull: &Hull) -> Option<f32> {
    let (mut t0, mut t1) = (0.0f32, f32::INFINITY);
    for plane in hull.planes() {
        let dist = plane.distance(o);
        let denom = plane.n.dot(dir);
        if denom.abs() < 1e-9 {
            if dist > 0.0 {
                return None;
            }
            continue;
        }
        let t = -dist / denom;
        if denom < 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return None;
        }
    }
    Some(t0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use manifold_lab::engine::hull3d::{shapes, Pose3};

    fn vp() -> ScreenRect {
        ScreenRect { min: Vec2::new(290.0, 0.0), size: Vec2::new(740.0, 690.0) }
    }

    fn cam() -> OrbitCamera {
        OrbitCamera { target: Vec3::new(0.5, 0.2, -0.3), yaw: 0.9, pitch: 0.4, distance: 7.0, ..Default::default() }
    }

    #[test]
    fn projection_round_trips_through_the_screen_ray() {
        let (c, vp) = (cam(), vp());
        let (s, depth) = c.project(&vp, c.target).unwrap();
        assert!((s - vp.center()).length() < 1e-3, "the target is at the centre: {s}");
        assert!((depth - c.distance).abs() < 1e-3);
        for p in [Vec3::new(1.0, 2.0, 0.5), Vec3::new(-1.5, 0.0, 1.0), Vec3::new(0.3, -0.8, -1.2)] {
            let (s, _) = c.project(&vp, p).unwrap();
            let (o, dir) = c.ray(&vp, s);
            let off = (p - o) - dir * (p - o).dot(dir);
            assert!(off.length() < 1e-3, "{p} is on the ray through its projection (off by {off})");
            let q = c.point_on_view_plane(&vp, s, p).unwrap();
            assert!((q - p).length() < 1e-3);
        }
        // Screen up is world up when level; a point behind the eye does not project.
        let (above, _) = c.project(&vp, c.target + Vec3::Y).unwrap();
        assert!(above.y < vp.center().y);
        assert!(c.project(&vp, c.eye() + c.back()).is_none());
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let vp = vp();
        let mut c = cam();
        let cursor = Vec2::new(420.0, 150.0);
        let before = c.point_on_view_plane(&vp, cursor, c.target).unwrap();
        c.zoom_at(&vp, cursor, 1.6);
        assert!((c.distance - 7.0 / 1.6).abs() < 1e-4);
        let (s, _) = c.project(&vp, before).unwrap();
        assert!((s - cursor).length() < 0.05, "{s} vs {cursor}");
        c.zoom_at(&vp, cursor, 0.5);
        let (s, _) = c.project(&vp, before).unwrap();
        assert!((s - cursor).length() < 0.05, "zooming out too: {s}");
    }

    #[test]
    fn view_plane_drag_moves_the_grabbed_point_under_the_cursor() {
        let (c, vp) = (cam(), vp());
        let hull = shapes::cube(0.5).transformed(&Pose3::from_translation(Vec3::new(0.2, 0.1, 0.0)));
        let (press, _) = c.project(&vp, Vec3::new(0.2, 0.1, 0.0)).unwrap();
        let (o, dir) = c.ray(&vp, press);
        let t = ray_hull(o, dir, &hull).expect("the cursor is over the cube");
        let grab = o + dir * t;
        let offset = Vec3::new(0.2, 0.1, 0.0) - grab;
        let to = press + Vec2::new(120.0, -45.0);
        let new_grab = c.point_on_view_plane(&vp, to, grab).unwrap();
        let moved = hull.transformed(&Pose3::from_translation(new_grab + offset - Vec3::new(0.2, 0.1, 0.0)));
        let (s, _) = c.project(&vp, new_grab).unwrap();
        assert!((s - to).length() < 0.05, "the grabbed point follows the cursor");
        assert!((new_grab - grab).dot(c.forward()).abs() < 1e-4, "and stays at its depth");
        let (o, dir) = c.ray(&vp, to);
        assert!(ray_hull(o, dir, &moved).is_some(), "the moved hull is under the cursor");
    }

    #[test]
    fn pan_orbit_frame_and_trackball() {
        let vp = vp();
        let mut c = cam();
        let p = c.target + c.right() * 0.7;
        let (s0, _) = c.project(&vp, p).unwrap();
        c.pan_pixels(&vp, Vec2::new(30.0, -12.0));
        let (s1, _) = c.project(&vp, p).unwrap();
        assert!((s1 - s0 - Vec2::new(30.0, -12.0)).length() < 0.05, "panning moves the scene with the cursor");
        c.orbit(0.0, 10.0);
        assert_eq!(c.pitch, OrbitCamera::MAX_PITCH);
        c.frame(&vp, Vec3::new(3.0, 0.0, 0.0), 2.0);
        for d in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z] {
            let (s, _) = c.project(&vp, Vec3::new(3.0, 0.0, 0.0) + d * 2.0).unwrap();
            assert!(vp.contains(s), "framed sphere point {d} on screen at {s}");
        }
        let q = c.trackball(Vec2::new(50.0, 0.0));
        assert!((q * c.up() - c.up()).length() < 1e-5, "horizontal drags turn about screen up");
        assert!(ray_hull(Vec3::new(5.0, 5.0, 5.0), Vec3::X, &shapes::cube(1.0)).is_none());
        assert_eq!(ray_hull(Vec3::ZERO, Vec3::X, &shapes::cube(1.0)), Some(0.0), "inside: t = 0");
    }
}
