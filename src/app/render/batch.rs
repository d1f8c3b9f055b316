//! One growing triangle mesh per view, handed to macroquad in a few large draw calls. Lines,
//! outlines and discs are anti-aliased by feathering (a one-pixel band whose alpha falls to
//! zero, as egui and Dear ImGui do) instead of multisampling, which costs several times the
//! fill rate on a software renderer. Coordinates are world units; `px` is the size of a pixel
//! in them.

use glam::Vec2;
use macroquad::models::Vertex;
use macroquad::prelude as mq;

/// Vertices per draw call (u16 indices; within the window's draw-call capacity).
pub const CHUNK_VERTICES: usize = 16_000;
/// Indices per draw call.
pub const CHUNK_INDICES: usize = 24_000;
const _: () = assert!(CHUNK_VERTICES <= u16::MAX as usize + 1);

/// Triangles waiting to be drawn, in submission order.
pub struct Batch {
    verts: Vec<Vertex>,
    idx: Vec<u16>,
    /// World units per pixel.
    pub px: f32,
    /// Drawn with this material (an untextured one, `materials`), else macroquad's default.
    material: Option<mq::Material>,
}

/// Alpha of a color as a byte-array color with alpha scaled by `k`.
fn rgba(c: mq::Color, k: f32) -> [u8; 4] {
    let b = |x: f32| (x.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
    [b(c.r), b(c.g), b(c.b), b(c.a * k)]
}

impl Batch {
    pub fn new(px: f32, material: Option<mq::Material>) -> Batch {
        Batch { verts: Vec::with_capacity(4096), idx: Vec::with_capacity(6144), px, material }
    }

    /// Room for `v` vertices and `i` indices in the current chunk, flushing first if needed.
    fn reserve(&mut self, v: usize, i: usize) -> u16 {
        if self.verts.len() + v > CHUNK_VERTICES || self.idx.len() + i > CHUNK_INDICES {
            self.flush();
        }
        self.verts.len() as u16
    }

    fn vertex(&mut self, p: Vec2, color: [u8; 4]) {
        self.verts.push(Vertex { position: p.extend(0.0), uv: Vec2::ZERO, color, normal: glam::Vec4::ZERO });
    }

    /// Sends everything queued to macroquad (keeps the order of earlier direct draws).
    pub fn flush(&mut self) {
        if self.idx.is_empty() {
            self.verts.clear();
            return;
        }
        if let Some(m) = &self.material {
            mq::gl_use_material(m);
        }
        let gl = unsafe { mq::get_internal_gl() }.quad_gl;
        gl.texture(None);
        gl.draw_mode(mq::DrawMode::Triangles);
        gl.geometry(&self.verts, &self.idx);
        mq::gl_use_default_material();
        self.verts.clear();
        self.idx.clear();
    }

    /// A filled convex polygon (a fan), without anti-aliasing (outline it to smooth the edge).
    pub fn fill_convex(&mut self, pts: &[Vec2], color: mq::Color) {
        if pts.len() < 3 || color.a <= 0.0 {
            return;
        }
        let base = self.reserve(pts.len(), 3 * (pts.len() - 2));
        let c = rgba(color, 1.0);
        for &p in pts {
            self.vertex(p, c);
        }
        for i in 1..pts.len() as u16 - 1 {
            self.idx.extend_from_slice(&[base, base + i, base + i + 1]);
        }
    }

    /// The cross-section of an anti-aliased line `width_px` wide: offsets from its centre line
    /// (world units) and alpha factors, feathered to zero one pixel out. Lines up to 2 px are a
    /// "tent" (three offsets: two bands), wider ones keep a solid core (four offsets: three
    /// bands); triangles are what a software renderer pays for.
    fn profile(&self, width_px: f32) -> ([(f32, f32); 4], usize) {
        let px = self.px;
        if width_px <= 2.0 {
            let h = 0.5 * width_px.max(0.0) + 0.5;
            let peak = (width_px / h).min(1.0);
            ([(h * px, 0.0), (0.0, peak), (-h * px, 0.0), (0.0, 0.0)], 3)
        } else {
            let core = 0.5 * (width_px - 1.0) * px;
            ([(core + px, 0.0), (core, 1.0), (-core, 1.0), (-core - px, 0.0)], 4)
        }
    }

    /// An anti-aliased segment `width_px` pixels wide.
    pub fn line(&mut self, a: Vec2, b: Vec2, width_px: f32, color: mq::Color) {
        let d = b - a;
        let len = d.length();
        if len.is_nan() || len <= 0.0 || color.a <= 0.0 {
            return;
        }
        let dir = d / len;
        let n = Vec2::new(-dir.y, dir.x);
        // Ends feathered too: extend by half a pixel each way.
        let (a, b) = (a - 0.5 * self.px * dir, b + 0.5 * self.px * dir);
        let (prof, k) = self.profile(width_px);
        let base = self.reserve(2 * k, 6 * (k - 1));
        for &(r, alpha) in &prof[..k] {
            let c = rgba(color, alpha);
            self.vertex(a + n * r, c);
            self.vertex(b + n * r, c);
        }
        for s in 0..k as u16 - 1 {
            let (p, q) = (base + 2 * s, base + 2 * s + 2);
            self.idx.extend_from_slice(&[p, p + 1, q + 1, p, q + 1, q]);
        }
    }

    /// The anti-aliased outline of a closed polygon, `width_px` wide, with mitred corners
    /// (convex polygons; sharp corners are clamped).
    pub fn outline(&mut self, pts: &[Vec2], width_px: f32, color: mq::Color) {
        let n = pts.len();
        if n < 2 || color.a <= 0.0 {
            return;
        }
        if n == 2 {
            return self.line(pts[0], pts[1], width_px, color);
        }
        // Per corner: the mitre direction (outward, scaled so offsets keep the edges parallel).
        let normal = |i: usize| {
            let d = pts[(i + 1) % n] - pts[i];
            Vec2::new(d.y, -d.x).normalize_or_zero()
        };
        // Orientation: outward normals point away from the centroid.
        let centroid = pts.iter().copied().sum::<Vec2>() / n as f32;
        let sign = if normal(0).dot(pts[0] - centroid) >= 0.0 { 1.0 } else { -1.0 };
        let (prof, k) = self.profile(width_px);
        let base = self.reserve(k * n, 6 * (k - 1) * n);
        for (i, &p) in pts.iter().enumerate() {
            let (n0, n1) = (sign * normal((i + n - 1) % n), sign * normal(i));
            let m = (n0 + n1).normalize_or(n1);
            let miter = m / m.dot(n1).max(0.25);
            for &(r, alpha) in &prof[..k] {
                self.vertex(p + miter * r, rgba(color, alpha));
            }
        }
        let k = k as u16;
        for i in 0..n as u16 {
            let (p, q) = (base + k * i, base + k * ((i + 1) % n as u16));
            for s in 0..k - 1 {
                self.idx.extend_from_slice(&[p + s, q + s, q + s + 1, p + s, q + s + 1, p + s + 1]);
            }
        }
    }

    /// Points on a circle, enough for it to look round at its size on screen, into `out`;
    /// returns how many.
    fn circle_points(&self, center: Vec2, radius: f32, out: &mut [Vec2; 64]) -> usize {
        let sides = (radius / self.px).clamp(6.0, 64.0) as usize;
        for (i, p) in out[..sides].iter_mut().enumerate() {
            let a = i as f32 / sides as f32 * std::f32::consts::TAU;
            *p = center + radius * Vec2::new(a.cos(), a.sin());
        }
        sides
    }

    /// A disc under `TINY_DISC_PX` in radius as a square of the same area, two triangles where
    /// a hexagon takes four: at that size the rasterizer draws both as the same few pixels, and
    /// a scene of thousands of small circles seen whole pays per triangle.
    pub fn dot(&mut self, center: Vec2, radius: f32, color: mq::Color) {
        if radius.is_nan() || radius <= 0.0 || color.a <= 0.0 {
            return;
        }
        let h = 0.5 * std::f32::consts::PI.sqrt() * radius;
        let square = [
            center + Vec2::new(-h, -h),
            center + Vec2::new(h, -h),
            center + Vec2::new(h, h),
            center + Vec2::new(-h, h),
        ];
        self.fill_convex(&square, color);
    }

    /// Radius (pixels) under which `dot` draws a disc as a square.
    pub const TINY_DISC_PX: f32 = 2.5;

    /// A filled disc without a feathered rim, for a disc that an outline will cover.
    pub fn disc_fill(&mut self, center: Vec2, radius: f32, color: mq::Color) {
        if radius.is_nan() || radius <= 0.0 || color.a <= 0.0 {
            return;
        }
        let mut pts = [Vec2::ZERO; 64];
        let n = self.circle_points(center, radius, &mut pts);
        self.fill_convex(&pts[..n], color);
    }

    /// A filled disc with an anti-aliased rim.
    pub fn disc(&mut self, center: Vec2, radius: f32, color: mq::Color) {
        if radius.is_nan() || radius <= 0.0 || color.a <= 0.0 {
            return;
        }
        let mut pts = [Vec2::ZERO; 64];
        let n = self.circle_points(center, radius, &mut pts);
        let base = self.reserve(1 + 2 * n, 9 * n);
        let (solid, clear) = (rgba(color, 1.0), rgba(color, 0.0));
        self.vertex(center, solid);
        let inner = (radius - 0.5 * self.px).max(0.0);
        let outer = radius + 0.5 * self.px;
        for p in &pts[..n] {
            let u = (*p - center) / radius;
            self.vertex(center + u * inner, solid);
            self.vertex(center + u * outer, clear);
        }
        for i in 0..n as u16 {
            let j = (i + 1) % n as u16;
            let (ii, io, ji, jo) = (base + 1 + 2 * i, base + 2 + 2 * i, base + 1 + 2 * j, base + 2 + 2 * j);
            self.idx.extend_from_slice(&[base, ii, ji, ii, io, jo, ii, jo, ji]);
        }
    }

    /// A circle's anti-aliased outline.
    pub fn ring(&mut self, center: Vec2, radius: f32, width_px: f32, color: mq::Color) {
        if radius.is_nan() || radius <= 0.0 || color.a <= 0.0 {
            return;
        }
        let mut pts = [Vec2::ZERO; 64];
        let n = self.circle_points(center, radius, &mut pts);
        self.outline(&pts[..n], width_px, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colored(b: &Batch) -> usize {
        b.verts.iter().filter(|v| v.color[3] > 0).count()
    }

    #[test]
    fn outline_vertices_offset_by_the_line_width_both_ways() {
        let mut b = Batch::new(0.1, None);
        let square = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];
        b.outline(&square, 3.0, mq::WHITE);
        assert_eq!(b.verts.len(), 16);
        assert_eq!(b.idx.len(), 4 * 18);
        // The corner (1, 1): outer feather at core + 1 px along the diagonal mitre.
        let corner = &b.verts[8..12];
        let (core, edge) = (0.1, 0.2);
        let expect_outer = Vec2::ONE + Vec2::ONE * edge;
        assert!((corner[0].position.truncate() - expect_outer).length() < 1e-5, "{:?}", corner[0].position);
        assert!((corner[1].position.truncate() - (Vec2::ONE + Vec2::ONE * core)).length() < 1e-5);
        assert_eq!(corner[0].color[3], 0, "the outer band fades out");
        assert_eq!(corner[1].color[3], 255);
        // Every index refers to a vertex of this batch.
        assert!(b.idx.iter().all(|&i| (i as usize) < b.verts.len()));
    }

    #[test]
    fn degenerate_input_adds_nothing() {
        let mut b = Batch::new(0.01, None);
        b.line(Vec2::ONE, Vec2::ONE, 2.0, mq::WHITE);
        b.line(Vec2::ZERO, Vec2::new(f32::NAN, 0.0), 2.0, mq::WHITE);
        b.disc(Vec2::ZERO, 0.0, mq::WHITE);
        b.fill_convex(&[Vec2::ZERO, Vec2::X], mq::WHITE);
        b.line(Vec2::ZERO, Vec2::X, 1.0, mq::Color::new(1.0, 1.0, 1.0, 0.0));
        b.ring(Vec2::ZERO, 1.0, 1.0, mq::Color::new(1.0, 1.0, 1.0, 0.0));
        b.dot(Vec2::ZERO, f32::NAN, mq::WHITE);
        assert!(b.verts.is_empty() && b.idx.is_empty());
    }

    #[test]
    fn thin_lines_are_a_tent_with_the_same_coverage() {
        let mut b = Batch::new(1.0, None);
        b.line(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.5, mq::WHITE);
        // Two bands (6 vertices), the centre line at alpha 0.5 / 0.75 and the edges 0.75 px out
        // at zero: the tent's area, 0.75 × 2/3, is the line's width.
        assert_eq!((b.verts.len(), b.idx.len()), (6, 12));
        assert_eq!(colored(&b), 2);
        assert!(b.verts.iter().all(|v| v.color[3] == 0 || v.color[3] == 170));
        let max_y = b.verts.iter().map(|v| v.position.y.abs()).fold(0.0, f32::max);
        assert!((max_y - 0.75).abs() < 1e-6);
        // Wide lines keep a solid core: three bands.
        let mut wide = Batch::new(1.0, None);
        wide.line(Vec2::ZERO, Vec2::new(10.0, 0.0), 3.0, mq::WHITE);
        assert_eq!((wide.verts.len(), wide.idx.len()), (8, 18));
    }

    #[test]
    fn a_dot_is_two_triangles_covering_the_disc_area() {
        let mut b = Batch::new(1.0, None);
        b.dot(Vec2::new(3.0, 4.0), 2.0, mq::WHITE);
        assert_eq!((b.verts.len(), b.idx.len()), (4, 6));
        let p: Vec<Vec2> = b.verts.iter().map(|v| v.position.truncate()).collect();
        let area = (p[1].x - p[0].x) * (p[2].y - p[1].y);
        assert!((area - std::f32::consts::PI * 4.0).abs() < 1e-4, "{area}");
        let centre = p.iter().copied().sum::<Vec2>() / 4.0;
        assert!((centre - Vec2::new(3.0, 4.0)).length() < 1e-5);
        // A disc drawn with `disc_fill` at the same size takes twice the triangles.
        let mut hexagon = Batch::new(1.0, None);
        hexagon.disc_fill(Vec2::ZERO, 2.0, mq::WHITE);
        assert_eq!(hexagon.idx.len(), 12);
    }
}
