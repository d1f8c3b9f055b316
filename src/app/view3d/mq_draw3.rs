//! The app's one `DebugDraw3` implementation. The engine's 3D primitives are recorded, then
//! drawn in two passes through the same [`OrbitCamera`]:
//! 1. solid polygons (hull faces, water) as one translucent mesh under a `Camera3D`, back to
//!    front, each shaded by how it faces a fixed light, back faces fainter;
//! 2. everything else in screen space, clipped to the view, layer by layer (edges under
//!    contacts, labels last on dark plates), with widths and dot sizes in pixels.
//!
//! [`MqDraw3::finish_ortho`] draws a picture on the unit sphere (the Gauss maps) into an inset
//! instead, orthographic and turned with the camera, the far hemisphere faint.

use super::camera::OrbitCamera;
use super::pen::{plain, set_camera_3d, Labels};
use crate::app::camera::ScreenRect;
use crate::app::render::draw::mq_color;
use glam::{Vec2, Vec3};
use macroquad::prelude as mq;
use manifold_lab::engine::debug::{Color, OnLayer};
use manifold_lab::engine::debug3::{DebugDraw3, DebugList3, DrawCmd3, Layer3, LayerSet3};

/// Records the engine's calls; [`MqDraw3::finish`] draws them.
pub struct MqDraw3 {
    pub list: DebugList3,
    /// Screen rectangles drawn over afterwards (the axes gizmo, an inset): no label goes there.
    pub keep_clear: Vec<ScreenRect>,
}

impl MqDraw3 {
    pub fn new(layers: LayerSet3) -> MqDraw3 {
        MqDraw3 { list: DebugList3::new(layers), keep_clear: Vec::new() }
    }

    /// Draws what was recorded into `vp` as seen by `cam`.
    pub fn finish(self, cam: &OrbitCamera, vp: &ScreenRect) {
        let (solid, overlay): (Vec<&DrawCmd3>, Vec<&DrawCmd3>) =
            self.list.cmds.iter().partition(|c| matches!(c, DrawCmd3::Polygon { layer, .. } if is_solid(*layer)));
        set_camera_3d(cam, vp);
        draw_solid(cam, &solid);
        draw_overlays(vp, overlay, &|p| cam.project(vp, p).map(|(s, _)| (s, 1.0)), &self.keep_clear);
    }

    /// Draws what was recorded (points on the unit sphere about the origin) into `rect`,
    /// orthographic, `scale` pixels per unit, turned as `cam` looks; behind the sphere's centre
    /// everything is faint.
    pub fn finish_ortho(self, cam: &OrbitCamera, rect: &ScreenRect, scale: f32) {
        let cmds: Vec<&DrawCmd3> = self.list.cmds.iter().collect();
        draw_overlays(
            rect,
            cmds,
            &|p| {
                let (s, depth) = cam.project_ortho(rect, p, scale);
                Some((s, if depth >= 0.0 { 1.0 } else { 0.35 }))
            },
            &self.keep_clear,
        );
    }
}

/// A projection to screen: the point and an alpha factor (faint when behind).
type Project<'a> = &'a dyn Fn(Vec3) -> Option<(Vec2, f32)>;

/// The screen-space pass, clipped to `vp`, lower layers first, labels last (off `keep_clear`).
fn draw_overlays(vp: &ScreenRect, mut cmds: Vec<&DrawCmd3>, at: Project, keep_clear: &[ScreenRect]) {
    set_screen_camera(vp);
    cmds.sort_by_key(|c| rank(c.layer()));
    let mut labels = Labels::default();
    for r in keep_clear {
        labels.keep_clear_rect(*r);
    }
    for cmd in cmds {
        draw_overlay(vp, cmd, at, &mut labels);
    }
    labels.draw(vp);
    mq::set_default_camera();
}

impl DebugDraw3 for MqDraw3 {
    fn wants(&self, layer: Layer3) -> bool {
        self.list.wants(layer)
    }
    fn segment(&mut self, layer: Layer3, a: Vec3, b: Vec3, color: Color) {
        self.list.segment(layer, a, b, color);
    }
    fn polygon(&mut self, layer: Layer3, points: &[Vec3], fill: Color, outline: Color) {
        self.list.polygon(layer, points, fill, outline);
    }
    fn point(&mut self, layer: Layer3, p: Vec3, size: f32, color: Color) {
        self.list.point(layer, p, size, color);
    }
    fn arrow(&mut self, layer: Layer3, from: Vec3, to: Vec3, color: Color) {
        self.list.arrow(layer, from, to, color);
    }
    fn text(&mut self, layer: Layer3, p: Vec3, text: &str, color: Color) {
        self.list.text(layer, p, text, color);
    }
}

/// Polygons drawn as surfaces in the 3D pass (the rest are overlays).
fn is_solid(layer: Layer3) -> bool {
    matches!(layer, Layer3::Shape | Layer3::Water)
}

/// Overlay order: lower first.
fn rank(layer: Layer3) -> u8 {
    match layer {
        Layer3::Aabb | Layer3::Gauss => 0,
        Layer3::Edge | Layer3::MinkowskiFace => 1,
        Layer3::Submerged | Layer3::RefFace | Layer3::IncidentFace => 2,
        Layer3::Frame | Layer3::Projection | Layer3::ClipPlane => 3,
        Layer3::Velocity => 4,
        Layer3::Joint | Layer3::JointBasis => 5,
        Layer3::SatAxis | Layer3::BestFace | Layer3::BestEdge => 6,
        Layer3::Impulse | Layer3::Friction => 7,
        Layer3::Normal | Layer3::Mtv => 8,
        Layer3::Buoyancy => 9,
        Layer3::Contact | Layer3::CenterOfMass => 10,
        _ => 11,
    }
}

/// Which labels keep their place where labels crowd: the deciding SAT axis first, then the
/// MTV and the best axes, then names and the rest.
fn label_priority(layer: Layer3) -> i32 {
    match layer {
        Layer3::SatAxis => 4,
        Layer3::Mtv | Layer3::Contact => 3,
        Layer3::BestFace | Layer3::BestEdge => 2,
        _ => 1,
    }
}

/// Line width in pixels.
fn width(layer: Layer3) -> f32 {
    match layer {
        Layer3::Aabb => 1.0,
        Layer3::Gauss => 1.2,
        Layer3::Edge => 1.4,
        Layer3::Projection => 1.5,
        Layer3::MinkowskiFace => 2.5,
        Layer3::BestFace | Layer3::Buoyancy | Layer3::Mtv | Layer3::RefFace | Layer3::IncidentFace => 3.0,
        Layer3::SatAxis | Layer3::BestEdge => 4.0,
        Layer3::Joint | Layer3::JointBasis | Layer3::Impulse => 2.5,
        _ => 2.0,
    }
}

/// The light the faces are shaded by (from above, a little to the side).
const LIGHT: Vec3 = Vec3::new(0.36, 0.86, 0.36);

fn draw_solid(cam: &OrbitCamera, polys: &[&DrawCmd3]) {
    let eye = cam.eye();
    let mut tris: Vec<(f32, [Vec3; 3], mq::Color)> = Vec::new();
    for cmd in polys {
        let DrawCmd3::Polygon { points, fill, .. } = cmd else { continue };
        if points.len() < 3 {
            continue;
        }
        let n = (points[1] - points[0]).cross(points[2] - points[0]).normalize_or_zero();
        let front = n.dot(eye - points[0]) >= 0.0;
        let light = 0.55 + 0.45 * n.dot(LIGHT).abs();
        let color = if front {
            mq::Color::new(fill.r * light, fill.g * light, fill.b * light, fill.a)
        } else {
            mq::Color::new(fill.r * 0.6, fill.g * 0.6, fill.b * 0.6, fill.a * 0.5)
        };
        for k in 1..points.len() - 1 {
            let t = [points[0], points[k], points[k + 1]];
            let depth = ((t[0] + t[1] + t[2]) / 3.0).distance(eye);
            if depth.is_finite() {
                tris.push((depth, t, color));
            }
        }
    }
    tris.sort_by(|a, b| b.0.total_cmp(&a.0));
    for chunk in tris.chunks(4000) {
        let mut mesh = mq::Mesh { vertices: Vec::with_capacity(3 * chunk.len()), indices: Vec::new(), texture: None };
        for (_, t, col) in chunk {
            for p in t {
                mesh.indices.push(mesh.vertices.len() as u16);
                mesh.vertices.push(mq::Vertex::new(p.x, p.y, p.z, 0.0, 0.0, *col));
            }
        }
        mq::draw_mesh(&mesh);
    }
}

/// A camera in screen pixels (y down) clipped to `vp`, so overlays stay inside the view.
fn set_screen_camera(vp: &ScreenRect) {
    let sh = mq::screen_height();
    mq::set_camera(&mq::Camera2D {
        target: vp.center(),
        zoom: Vec2::new(2.0 / vp.size.x.max(1.0), 2.0 / vp.size.y.max(1.0)),
        viewport: Some((vp.min.x as i32, (sh - (vp.min.y + vp.size.y)) as i32, vp.size.x as i32, vp.size.y as i32)),
        ..Default::default()
    });
}

fn draw_overlay(vp: &ScreenRect, cmd: &DrawCmd3, project: Project, labels: &mut Labels) {
    let at = |p: Vec3| project(p).map(|(s, _)| s);
    // Faint when any end is behind.
    let tint = |color: &Color, points: &[Vec3]| {
        let fade = points.iter().map(|&p| project(p).map_or(1.0, |(_, f)| f)).fold(1.0, f32::min);
        mq_color(color.with_alpha(color.a * fade))
    };
    match cmd {
        DrawCmd3::Segment { layer, a, b, color } => {
            if let (Some(p), Some(q)) = (at(*a), at(*b)) {
                mq::draw_line(p.x, p.y, q.x, q.y, width(*layer), tint(color, &[*a, *b]));
            }
        }
        DrawCmd3::Arrow { layer, from, to, color } => {
            if let (Some(p), Some(q)) = (at(*from), at(*to)) {
                arrow(p, q, width(*layer), tint(color, &[*from, *to]));
            }
        }
        DrawCmd3::Point { layer, p, size, color } => {
            if let Some(s) = at(*p) {
                let r = 0.6 * size.clamp(1.0, 30.0);
                if *layer == Layer3::Contact {
                    labels.keep_clear(s, r + 1.5);
                }
                let c = tint(color, &[*p]);
                mq::draw_circle(s.x, s.y, r + 1.5, mq::Color::new(0.0, 0.0, 0.0, 0.85 * c.a));
                mq::draw_circle(s.x, s.y, r, c);
            }
        }
        DrawCmd3::Polygon { layer, points, fill, outline } => {
            let pts: Option<Vec<Vec2>> = points.iter().map(|&p| at(p)).collect();
            let Some(pts) = pts.filter(|p| p.len() >= 3) else { return };
            if fill.a > 0.0 {
                for k in 1..pts.len() - 1 {
                    mq::draw_triangle(pts[0], pts[k], pts[k + 1], tint(fill, points));
                }
            }
            let outline = tint(outline, points);
            for k in 0..pts.len() {
                let (p, q) = (pts[k], pts[(k + 1) % pts.len()]);
                mq::draw_line(p.x, p.y, q.x, q.y, width(*layer), outline);
            }
        }
        DrawCmd3::Text { layer, p, text, color } => {
            if let Some(s) = at(*p).filter(|s| vp.contains(*s)) {
                labels.add(s, Vec2::new(0.0, -14.0), &plain(text), tint(color, &[*p]), label_priority(*layer));
            }
        }
    }
}

/// A shaft and a head in proportion (short arrows get small heads; a dot-sized one is skipped).
fn arrow(p: Vec2, q: Vec2, width: f32, color: mq::Color) {
    let len = (q - p).length();
    if len < 2.0 {
        return;
    }
    let d = (q - p) / len;
    let head = (0.35 * len).clamp(4.0, 11.0);
    let base = q - d * head;
    mq::draw_line(p.x, p.y, base.x, base.y, width, color);
    let side = Vec2::new(-d.y, d.x) * (0.5 * head);
    mq::draw_triangle(q, base + side, base - side, color);
}
