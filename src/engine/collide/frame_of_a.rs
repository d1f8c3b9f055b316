//! The frame Box2D v3's `b2CollidePolygons` works in: A's body frame shifted to A's first
//! vertex. B's points and normals are moved there once per call, so the SAT's loops and the
//! clipping read no transform, and the points stay small (near the origin) whatever the
//! world position, which keeps their rounding small too. Shared by the sharp polygon
//! manifold (`polygon`) and the rounded ones (`rounded`); the trace maps back to world space.

use super::clip_trace::{ClipEvent, SatAxis, ShapeId};
use super::manifold::Manifold;
use super::support::Proxy;
use crate::engine::math::Transform;
use crate::engine::shape::Polygon;
use crate::engine::trace::Recorder;
use glam::Vec2;

/// A's frame shifted to `origin`, where the proxies live: maps their points and directions
/// to world space (for the trace and the finished manifold).
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub xf: Transform,
    pub origin: Vec2,
}

impl Frame {
    /// The frame of polygon `a` at `xfa`, shifted to its first vertex.
    pub fn of(a: &Polygon, xfa: &Transform) -> Frame {
        Frame { xf: *xfa, origin: a.vertices[0] }
    }

    pub fn point(&self, p: Vec2) -> Vec2 {
        self.xf.apply(p + self.origin)
    }

    pub fn dir(&self, n: Vec2) -> Vec2 {
        self.xf.q.apply(n)
    }

    /// A manifold computed in this frame, in world space.
    pub fn manifold_to_world(&self, mut m: Manifold) -> Manifold {
        m.normal = self.dir(m.normal);
        for p in &mut m.points[..m.count] {
            p.point = self.point(p.point);
        }
        m
    }
}

/// Polygon `a` as a proxy in its own frame shifted to its first vertex.
pub(super) fn own_proxy(a: &Polygon) -> Proxy {
    let mut proxy = Proxy { normals: a.normals, ..Proxy::zeroed(a.count, a.radius) };
    for i in 0..a.count {
        proxy.points[i] = a.vertices[i] - a.vertices[0];
    }
    proxy
}

/// Polygon `b` at `xfb` as a proxy in `frame` (points moved, normals rotated).
pub(super) fn proxy_in(frame: &Frame, b: &Polygon, xfb: &Transform) -> Proxy {
    let xf = frame.xf.inv_mul(xfb);
    let mut proxy = Proxy::zeroed(b.count, b.radius);
    for i in 0..b.count {
        proxy.points[i] = xf.apply(b.vertices[i]) - frame.origin;
        proxy.normals[i] = xf.q.apply(b.normals[i]);
    }
    proxy
}

/// Box2D's `b2FindMaxSeparation`: the edge of `p1` whose normal separates `p2` most.
pub(super) fn find_max_separation(p1: &Proxy, p2: &Proxy) -> (usize, f32) {
    let mut best = (0, -f32::MAX);
    for i in 0..p1.count {
        let (n, v1) = (p1.normals[i], p1.points[i]);
        // A plain comparison, not `f32::min` (whose NaN handling costs in this inner loop).
        let mut si = f32::MAX;
        for &v2 in &p2.points[..p2.count] {
            let s = n.dot(v2 - v1);
            if s < si {
                si = s;
            }
        }
        if si > best.1 {
            best = (i, si);
        }
    }
    best
}

/// The edge of `p` most anti-parallel to `normal` (000 article: "the face most facing the
/// normal, the most negative dot product").
pub(super) fn find_incident_edge(p: &Proxy, normal: Vec2) -> usize {
    let mut best = (0, f32::MAX);
    for i in 0..p.count {
        let d = normal.dot(p.normals[i]);
        if d < best.1 {
            best = (i, d);
        }
    }
    best.0
}

/// Records every axis of `p1` (shape `owner`, axes numbered from `first`) against `p2` with
/// its deepest vertex, the best one, and whether it separates beyond `reach`.
pub(super) fn record_axes<R: Recorder<ClipEvent>>(
    p1: &Proxy,
    p2: &Proxy,
    owner: ShapeId,
    first: usize,
    (best, reach): ((usize, f32), f32),
    frame: &Frame,
    rec: &mut R,
) {
    for i in 0..p1.count {
        let (n, v1) = (p1.normals[i], p1.points[i]);
        let s = |j: usize| n.dot(p2.points[j] - v1);
        let deepest = (0..p2.count).min_by(|&j, &k| s(j).total_cmp(&s(k))).unwrap_or(0);
        rec.record(ClipEvent::Axis(SatAxis {
            owner,
            edge: i,
            normal: frame.dir(n),
            face: [frame.point(v1), frame.point(p1.points[(i + 1) % p1.count])],
            separation: s(deepest),
            deepest_vertex: deepest,
            deepest_point: frame.point(p2.points[deepest]),
        }));
    }
    rec.record(ClipEvent::Best { owner, axis: first + best.0 });
    if best.1 > reach {
        rec.record(ClipEvent::Separating(first + best.0));
    }
}

#[cfg(test)]
mod tests {
    use super::{find_incident_edge, own_proxy, proxy_in, Frame};
    use crate::engine::math::Transform;
    use crate::engine::shape::Polygon;
    use glam::Vec2;

    #[test]
    fn incident_edge_faces_the_normal() {
        let b = Polygon::make_box(Vec2::ONE).unwrap();
        // Reference normal +y: the incident edge is the bottom face (normal -y, index 0).
        assert_eq!(find_incident_edge(&own_proxy(&b), Vec2::Y), 0);
        // B turned 90° CCW in A's frame: its local face 3 (normal -x) now faces -y.
        let frame = Frame::of(&b, &Transform::IDENTITY);
        let turned = proxy_in(&frame, &b, &Transform::new(Vec2::ZERO, std::f32::consts::FRAC_PI_2));
        assert_eq!(find_incident_edge(&turned, Vec2::Y), 3);
    }
}
