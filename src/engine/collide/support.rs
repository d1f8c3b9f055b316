//! Support functions of convex shapes and of their Minkowski difference (004 article, "OBB vs
//! OBB": "a supporting vertex is simply a vertex which is most in the direction of a given
//! direction vector", the one with the greatest dot product).
//!
//! Every convex shape is reduced to a [`Proxy`]: a *core* of 1..=8 points plus a radius
//! (Box2D's shape proxy). A circle is its centre + radius, a capsule its segment + radius, a
//! polygon (boxes included) its vertices + 0. GJK and EPA run on the cores, which are
//! polygons, so they terminate exactly; radii are added afterwards, which keeps circle
//! distances exact (the signed distance to a core ⊕ disk is the core's minus the radius).
//!
//! **Configuration space convention: A − B.** A point of the Minkowski difference is
//! `w = a − b`, a point of A minus a point of B, as in the GJK/EPA literature and the 002
//! article's support `sA(d) − sB(−d)`. The outward normal of the face of A − B closest to the
//! origin is then the contact normal from A to B, and the 004 article's `B − A` pictures are
//! this one mirrored through the origin (same distances, opposite vectors).

use crate::engine::debug::{Color, DebugDraw, Layer};
use crate::engine::math::{right_perp, Transform};
use crate::engine::shape::{Shape, MAX_POLYGON_VERTICES};
use glam::Vec2;
use serde::Serialize;

/// Most core points a proxy holds.
pub const MAX_PROXY_VERTICES: usize = MAX_POLYGON_VERTICES;

/// A convex shape as a core point set (a convex polygon in CCW order, a segment or a point)
/// plus a radius. Coordinates are in whatever common frame the caller chose (usually world
/// space translated so that shape A's origin is at zero, see [`Proxy::from_shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proxy {
    pub points: [Vec2; MAX_PROXY_VERTICES],
    /// Outward unit normal of core edge `i` (from point `i` to `i + 1`); for a polygon these
    /// are the shape's own normals rotated, more precise than differences of world points.
    pub normals: [Vec2; MAX_PROXY_VERTICES],
    pub count: usize,
    pub radius: f32,
}

impl Proxy {
    /// `count` points and normals, all zero, with `radius`: for a caller that fills them.
    #[inline]
    pub fn zeroed(count: usize, radius: f32) -> Proxy {
        Proxy { points: [Vec2::ZERO; MAX_PROXY_VERTICES], normals: [Vec2::ZERO; MAX_PROXY_VERTICES], count, radius }
    }

    /// A proxy from core points (a CCW convex polygon, a segment or a point) and a radius.
    /// Repeated consecutive points are dropped (the Minkowski walk needs distinct ones),
    /// points beyond [`MAX_PROXY_VERTICES`] are ignored, and no points gives a point at zero.
    pub fn new(points: &[Vec2], radius: f32) -> Proxy {
        let mut p = [Vec2::ZERO; MAX_PROXY_VERTICES];
        let mut count = 0;
        for &q in points {
            if count == MAX_PROXY_VERTICES {
                break;
            }
            if count == 0 || p[count - 1] != q {
                p[count] = q;
                count += 1;
            }
        }
        while count > 1 && p[count - 1] == p[0] {
            count -= 1;
        }
        let mut proxy = Proxy { points: p, normals: [Vec2::ZERO; MAX_PROXY_VERTICES], count: count.max(1), radius };
        for i in 0..proxy.edge_count() {
            let e = proxy.points[(i + 1) % proxy.count] - proxy.points[i];
            proxy.normals[i] = right_perp(e).normalize_or_zero();
        }
        proxy
    }

    /// A circle: its centre is the core.
    pub fn circle(center: Vec2, radius: f32) -> Proxy {
        Proxy::new(&[center], radius)
    }

    /// A capsule: the segment `c1`–`c2` swept by a disk of `radius`.
    pub fn capsule(c1: Vec2, c2: Vec2, radius: f32) -> Proxy {
        Proxy::new(&[c1, c2], radius)
    }

    /// The shape at pose `xf`, expressed in world space translated by `−offset` (pass
    /// `Vec2::ZERO` for plain world space; GJK passes shape A's position so that distant
    /// shapes keep their precision). Vertex `i` of the proxy is vertex `i` of the polygon.
    #[inline]
    pub fn from_shape(shape: &Shape, xf: &Transform, offset: Vec2) -> Proxy {
        match shape {
            Shape::Circle(c) => Proxy::circle(xf.p - offset, c.radius),
            Shape::Polygon(poly) => {
                let mut points = [Vec2::ZERO; MAX_PROXY_VERTICES];
                let mut normals = [Vec2::ZERO; MAX_PROXY_VERTICES];
                let p = xf.p - offset;
                for i in 0..poly.count {
                    points[i] = xf.q.apply(poly.vertices[i]) + p;
                    normals[i] = xf.q.apply(poly.normals[i]);
                }
                Proxy { points, normals, count: poly.count, radius: poly.radius }
            }
            Shape::Capsule(c) => c.proxy(xf, offset),
        }
    }

    /// [`Proxy::from_shape`] with a polygon's normals left zero (GJK's iterations read only
    /// the points); [`Proxy::fill_normal`] then rotates just the ones a caller reads. Circles
    /// and capsules come whole.
    #[inline]
    pub fn core_from_shape(shape: &Shape, xf: &Transform, offset: Vec2) -> Proxy {
        let Shape::Polygon(poly) = shape else { return Proxy::from_shape(shape, xf, offset) };
        let mut proxy = Proxy::zeroed(poly.count, poly.radius);
        let p = xf.p - offset;
        for (q, &v) in proxy.points.iter_mut().zip(&poly.vertices[..poly.count]) {
            *q = xf.q.apply(v) + p;
        }
        debug_assert_eq!(proxy.points, Proxy::from_shape(shape, xf, offset).points);
        proxy
    }

    /// Sets normal `i` of a proxy made by [`Proxy::core_from_shape`] to what
    /// [`Proxy::from_shape`] gives it (a no-op but for polygons, whose normals it skipped).
    #[inline]
    pub fn fill_normal(&mut self, shape: &Shape, xf: &Transform, i: usize) {
        if let Shape::Polygon(poly) = shape {
            self.normals[i] = xf.q.apply(poly.normals[i]);
        }
    }

    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }

    /// Index of the core point furthest along `d` (the first one on ties).
    #[inline]
    pub fn support_index(&self, d: Vec2) -> usize {
        let mut best = 0;
        let mut best_dot = self.points[0].dot(d);
        for i in 1..self.count {
            let v = self.points[i].dot(d);
            if v > best_dot {
                best = i;
                best_dot = v;
            }
        }
        best
    }

    /// The core point furthest along `d`.
    #[inline]
    pub fn support_point(&self, d: Vec2) -> Vec2 {
        self.points[self.support_index(d)]
    }

    /// The point of the rounded shape (core ⊕ disk of `radius`) furthest along `d`.
    pub fn support_surface(&self, d: Vec2) -> Vec2 {
        self.support_point(d) + self.radius * d.normalize_or_zero()
    }

    /// Number of core edges: `count` for a polygon, 2 for a segment (one per side), 0 for a point.
    pub fn edge_count(&self) -> usize {
        if self.count >= 2 {
            self.count
        } else {
            0
        }
    }

    /// Core edge `i` runs from point `i` to point `i + 1`; its outward unit normal (right
    /// perpendicular, the core being CCW).
    #[inline]
    pub fn edge_normal(&self, i: usize) -> Vec2 {
        self.normals[i]
    }
}

pub use crate::engine::shape::Capsule;

impl Capsule {
    /// The capsule at pose `xf`, in world space translated by `−offset`.
    pub fn proxy(&self, xf: &Transform, offset: Vec2) -> Proxy {
        Proxy::capsule(xf.apply(self.center1) - offset, xf.apply(self.center2) - offset, self.radius)
    }
}

/// A point of the Minkowski difference A − B: `w = a − b`, with the core support points `a`,
/// `b` and their vertex indices on each shape (the 004 article's "supporting vertices").
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SupportPoint {
    pub w: Vec2,
    pub a: Vec2,
    pub b: Vec2,
    pub index_a: usize,
    pub index_b: usize,
}

impl SupportPoint {
    /// The Minkowski point made of vertex `ia` of A and vertex `ib` of B.
    #[inline]
    pub fn from_indices(pa: &Proxy, ia: usize, pb: &Proxy, ib: usize) -> SupportPoint {
        let a = pa.points[ia];
        let b = pb.points[ib];
        SupportPoint { w: a - b, a, b, index_a: ia, index_b: ib }
    }

    /// Whether both support vertices are the same (the same Minkowski vertex).
    #[inline]
    pub fn same_vertex(&self, o: &SupportPoint) -> bool {
        self.index_a == o.index_a && self.index_b == o.index_b
    }
}

/// The outward normal of the edge of A − B running from Minkowski vertex `(ia, ib)` to
/// `(ja, jb)`, when that edge is a face of one shape minus a vertex of the other (004
/// article's feature pairs): A's face normal, or B's negated. `None` for any other pair.
#[inline]
pub fn minkowski_face_normal(
    pa: &Proxy,
    pb: &Proxy,
    (ia, ib): (usize, usize),
    (ja, jb): (usize, usize),
) -> Option<Vec2> {
    if ib == jb && pa.count >= 2 && ja == (ia + 1) % pa.count {
        Some(pa.normals[ia])
    } else if ia == ja && pb.count >= 2 && jb == (ib + 1) % pb.count {
        Some(-pb.normals[ib])
    } else {
        None
    }
}

/// The support function of A − B (GJK; 002 article): `sA(d) − sB(−d)`, on the cores.
#[inline]
pub fn support(pa: &Proxy, pb: &Proxy, d: Vec2) -> SupportPoint {
    SupportPoint::from_indices(pa, pa.support_index(d), pb, pb.support_index(-d))
}

pub use crate::engine::trace::{NoTrace, Recorder};

/// Where a configuration-space picture goes: config point `w` is drawn at `origin + scale·w`,
/// so the app can place the Minkowski difference, simplices and polytopes in an inset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inset {
    pub origin: Vec2,
    pub scale: f32,
}

impl Inset {
    #[inline]
    pub fn map(&self, w: Vec2) -> Vec2 {
        self.origin + self.scale * w
    }

    /// Maps every point (for polygons).
    pub fn map_all(&self, ws: impl IntoIterator<Item = Vec2>) -> Vec<Vec2> {
        ws.into_iter().map(|w| self.map(w)).collect()
    }
}

/// A proxy at `xf`: a polygon, a circle (one point) or a capsule (two points), with its
/// rounded outline when it has a radius.
pub fn draw_proxy(d: &mut dyn DebugDraw, layer: Layer, p: &Proxy, xf: &Transform, fill: Color, outline: Color) {
    let pts: Vec<Vec2> = p.points().iter().map(|&q| xf.apply(q)).collect();
    let r = p.radius;
    if pts.len() >= 3 {
        d.polygon(layer, &pts, fill, outline);
    } else if pts.len() == 2 {
        d.segment(layer, pts[0], pts[1], outline);
    }
    if r > 0.0 {
        for &q in &pts {
            d.circle(layer, q, r, if pts.len() == 1 { fill } else { fill.with_alpha(0.0) }, outline);
        }
        if pts.len() >= 2 {
            for i in 0..pts.len() {
                let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
                let n = xf.q.apply(p.normals[i]) * r;
                d.segment(layer, a + n, b + n, outline);
            }
        }
    } else if pts.len() == 1 {
        d.point(layer, pts[0], 4.0, outline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_of_box_and_minkowski_difference() {
        let s = Shape::make_box(Vec2::new(1.0, 0.5)).unwrap();
        let pa = Proxy::from_shape(&s, &Transform::IDENTITY, Vec2::ZERO);
        let pb = Proxy::from_shape(&s, &Transform::new(Vec2::new(3.0, 0.0), 0.0), Vec2::ZERO);
        assert_eq!(pa.support_point(Vec2::new(1.0, 1.0)), Vec2::new(1.0, 0.5));
        let sp = support(&pa, &pb, Vec2::X);
        // Furthest along +x of A − B: A's right side minus B's left side.
        assert!((sp.w.x - (1.0 - 2.0)).abs() < 1e-6);
        assert_eq!(sp.w, sp.a - sp.b);
        let c = Proxy::circle(Vec2::new(1.0, 2.0), 0.5);
        assert!((c.support_surface(Vec2::new(0.0, 3.0)) - Vec2::new(1.0, 2.5)).length() < 1e-6);
        let cap = Proxy::capsule(Vec2::ZERO, Vec2::X, 0.1);
        assert_eq!(cap.edge_count(), 2);
        assert!((cap.edge_normal(0) - Vec2::NEG_Y).length() < 1e-6);
        assert!((cap.edge_normal(1) - Vec2::Y).length() < 1e-6);
    }
}
