//! The part of a body that continuous collision keeps out of what it already touches. A body
//! that touches an obstacle at the start of its sweep has its time of impact at 0, which
//! cannot move it back; Box2D v3 then sweeps a small circle about the centre of mass
//! (`B2_CORE_FRACTION` of the smallest extent), so only the centre is kept from passing. A
//! spinning rod touching a wall at one end then swings its far end through the wall, and is
//! pushed out on either side. Here the core is the shape itself shrunk by the same margin:
//! a polygon eroded by `(1 − fraction)` of its smallest extent (its edges moved inward, the
//! polygon clipped by the moved edge lines, Sutherland–Hodgman), a capsule or circle with its
//! radius scaled. A rod's core is then a rod of nearly its full length.

use crate::engine::collide::support::Proxy;
use crate::engine::math::right_perp;
use crate::engine::shape::Shape;
use glam::Vec2;

/// Vertices a clipped polygon may hold on the way (one more per clip at most).
const CLIP_MAX: usize = 24;

/// The core of `shape` (in its body frame) that keeps `fraction` of its smallest extent
/// `min_extent` (the distance from the centre of mass to the nearest face) from every face.
/// Falls back to Box2D's circle about `local_center` where the erosion degenerates.
pub fn shrunk_core(shape: &Shape, local_center: Vec2, min_extent: f32, fraction: f32) -> Proxy {
    let circle = Proxy::circle(local_center, fraction * min_extent);
    match shape {
        Shape::Circle(c) => Proxy::circle(Vec2::ZERO, fraction * c.radius),
        Shape::Capsule(c) => Proxy::capsule(c.center1, c.center2, fraction * c.radius),
        Shape::Polygon(p) if p.radius > 0.0 => {
            // Eroding a rounded polygon takes its radius first, then its core.
            let depth = (1.0 - fraction) * min_extent;
            if depth <= p.radius {
                Proxy::new(p.vertices(), p.radius - depth)
            } else {
                erode(p.vertices(), depth - p.radius).unwrap_or(circle)
            }
        }
        Shape::Polygon(p) => erode(p.vertices(), (1.0 - fraction) * min_extent).unwrap_or(circle),
    }
}

/// The CCW convex polygon `points` with every edge moved inward by `depth`; `None` when less
/// than a triangle remains or a number is not finite.
pub fn erode(points: &[Vec2], depth: f32) -> Option<Proxy> {
    let n = points.len();
    if n < 3 || !depth.is_finite() || depth < 0.0 {
        return None;
    }
    let mut poly = [Vec2::ZERO; CLIP_MAX];
    let mut len = n.min(CLIP_MAX);
    poly[..len].copy_from_slice(&points[..len]);
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let normal = right_perp(b - a).normalize_or_zero();
        if normal == Vec2::ZERO {
            continue;
        }
        len = clip_to_half_plane(&mut poly, len, normal, normal.dot(a) - depth);
        if len < 3 {
            return None;
        }
    }
    let out = &poly[..len];
    (len <= crate::engine::collide::support::MAX_PROXY_VERTICES && out.iter().all(|p| p.is_finite()))
        .then(|| Proxy::new(out, 0.0))
}

/// Sutherland–Hodgman: keeps the part of the convex polygon `poly[..len]` where
/// `normal · x ≤ offset`; returns the new length.
fn clip_to_half_plane(poly: &mut [Vec2; CLIP_MAX], len: usize, normal: Vec2, offset: f32) -> usize {
    let mut out = [Vec2::ZERO; CLIP_MAX];
    let mut count = 0;
    for i in 0..len {
        let (p, q) = (poly[i], poly[(i + 1) % len]);
        let (dp, dq) = (normal.dot(p) - offset, normal.dot(q) - offset);
        if dp <= 0.0 && count < CLIP_MAX {
            out[count] = p;
            count += 1;
        }
        if (dp < 0.0) != (dq < 0.0) && dp != dq && count < CLIP_MAX {
            out[count] = p + (q - p) * (dp / (dp - dq));
            count += 1;
        }
    }
    *poly = out;
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rod_keeps_its_length() {
        let rod = Shape::make_box(Vec2::new(0.5, 0.025)).unwrap();
        let core = shrunk_core(&rod, Vec2::ZERO, 0.025, 0.25);
        let max = core.points().iter().fold(Vec2::ZERO, |m, p| m.max(p.abs()));
        assert!((max.x - (0.5 - 0.75 * 0.025)).abs() < 1e-6 && (max.y - 0.25 * 0.025).abs() < 1e-6, "{max}");
        assert_eq!(core.count, 4);
    }

    #[test]
    fn degenerate_erosion_falls_back_to_the_circle() {
        // A smallest extent larger than the shape's erodes it away: the circle stays.
        let small = Shape::make_box(Vec2::new(0.1, 0.1)).unwrap();
        let core = shrunk_core(&small, Vec2::new(0.01, 0.0), 0.2, 0.25);
        assert_eq!((core.count, core.points[0], core.radius), (1, Vec2::new(0.01, 0.0), 0.05));
        assert!(erode(&[Vec2::ZERO, Vec2::X, Vec2::Y], f32::NAN).is_none());
        assert!(erode(&[Vec2::ZERO, Vec2::X, Vec2::Y], 1.0).is_none());
    }
}
