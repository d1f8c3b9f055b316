//! Polygon–capsule manifolds: the capsule as a rounded two-gon (Box2D v3's `b2MakeCapsule`)
//! through `b2CollidePolygons`, which handles radii: SAT on the cores (`find_max_separation`),
//! the reference and incident edges, then either clipping (`clip_polygons`) or, when the cores
//! are apart and the closest features are two vertices, a single vertex–vertex point.
//!
//! Computed in A's frame shifted to A's first vertex, returned in world space, normal A → B.

use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use super::polygon::DEPTH_GUARD;
use super::segment::segment_distance;
use super::support::Proxy;
use crate::engine::math::{cross_sv, right_perp, Transform};
use crate::engine::shape::{Capsule, Polygon, MAX_POLYGON_VERTICES};
use crate::engine::LINEAR_SLOP;
use glam::Vec2;

/// Contact between polygon A and capsule B; points separated by less than `margin` are kept.
pub fn collide_polygon_capsule(a: &Polygon, xfa: &Transform, b: &Capsule, xfb: &Transform, margin: f32) -> Manifold {
    let origin = a.vertices[0];
    let mut pa = Proxy { points: [Vec2::ZERO; MAX_POLYGON_VERTICES], normals: a.normals, count: a.count, radius: 0.0 };
    for i in 0..a.count {
        pa.points[i] = a.vertices[i] - origin;
    }
    // B in A's frame: the capsule's two-gon, normals rotated from its own frame.
    let xf = xfa.inv_mul(xfb);
    let n0 = right_perp((b.center2 - b.center1).normalize());
    let mut pb = Proxy {
        points: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        count: 2,
        radius: b.radius,
    };
    pb.points[0] = xf.apply(b.center1) - origin;
    pb.points[1] = xf.apply(b.center2) - origin;
    pb.normals[0] = xf.q.apply(n0);
    pb.normals[1] = -pb.normals[0];
    let mut m = collide_rounded(&pa, &pb, margin);
    m.normal = xfa.q.apply(m.normal);
    for p in &mut m.points[..m.count] {
        p.point = xfa.apply(p.point + origin);
    }
    m
}

/// Box2D's `b2FindMaxSeparation`: the edge of `p1` whose normal separates `p2` most.
fn find_max_separation(p1: &Proxy, p2: &Proxy) -> (usize, f32) {
    let mut best = (0, -f32::MAX);
    for i in 0..p1.count {
        let (n, v1) = (p1.normals[i], p1.points[i]);
        let si = p2.points[..p2.count].iter().map(|&v2| n.dot(v2 - v1)).fold(f32::MAX, f32::min);
        if si > best.1 {
            best = (i, si);
        }
    }
    best
}

/// The edge of `p` most anti-parallel to `normal`.
fn find_incident_edge(p: &Proxy, normal: Vec2) -> usize {
    let mut best = (0, f32::MAX);
    for i in 0..p.count {
        let d = normal.dot(p.normals[i]);
        if d < best.1 {
            best = (i, d);
        }
    }
    best.0
}

/// `b2CollidePolygons` on two rounded polygons in one frame.
fn collide_rounded(a: &Proxy, b: &Proxy, margin: f32) -> Manifold {
    let (mut edge_a, separation_a) = find_max_separation(a, b);
    let (mut edge_b, separation_b) = find_max_separation(b, a);
    let radius = a.radius + b.radius;
    if separation_a > margin + radius || separation_b > margin + radius {
        return Manifold::EMPTY;
    }
    let flip = separation_a < separation_b;
    if flip {
        edge_a = find_incident_edge(a, b.normals[edge_b]);
    } else {
        edge_b = find_incident_edge(b, a.normals[edge_a]);
    }
    // The cores overlap (or nearly): clip. Otherwise the edges are disjoint: clip unless the
    // closest features are two vertices with a clearly smaller separation (the slop keeps the
    // vertex–vertex normal safely normalisable).
    if separation_a <= 0.1 * LINEAR_SLOP && separation_b <= 0.1 * LINEAR_SLOP {
        // When the incident edge misses the reference edge's extent (a core's end at the
        // other's corner), Box2D reports nothing; the deepest incident vertex keeps the contact.
        let deepest = deepest_vertex_contact(a, b, if flip { edge_b } else { edge_a }, flip);
        return within_margin(clip_polygons(a, b, edge_a, edge_b, flip), margin, Some(deepest));
    }
    let (i11, i12) = (edge_a, (edge_a + 1) % a.count);
    let (i21, i22) = (edge_b, (edge_b + 1) % b.count);
    let (v11, v12, v21, v22) = (a.points[i11], a.points[i12], b.points[i21], b.points[i22]);
    let closest = segment_distance(v11, v12, v21, v22);
    let distance = closest.distance_squared.sqrt();
    let separation = distance - radius;
    if separation > margin || distance == 0.0 {
        return Manifold::EMPTY;
    }
    let normal = (closest.closest2 - closest.closest1) / distance;
    let single = |ia: usize, ib: usize| {
        let on_a = closest.closest1 + a.radius * normal;
        let on_b = closest.closest2 - b.radius * normal;
        let mut m = Manifold::EMPTY;
        m.normal = normal;
        m.push(ManifoldPoint {
            point: 0.5 * (on_a + on_b),
            penetration: -separation,
            id: FeatureId::new(false, FeatureKind::Vertex, ia, ib),
        });
        m
    };
    let clipped = clip_polygons(a, b, edge_a, edge_b, flip);
    let min_separation = clipped.points().iter().map(|p| -p.penetration).fold(f32::MAX, f32::min);
    let end = |f: f32, first: usize, second: usize| {
        if f == 0.0 {
            Some(first)
        } else if f == 1.0 {
            Some(second)
        } else {
            None
        }
    };
    let ends = (end(closest.fraction1, i11, i12), end(closest.fraction2, i21, i22));
    if let (Some(ia), Some(ib)) = ends {
        if separation + DEPTH_GUARD < min_separation {
            // Vertex–vertex: one point between the two closest vertices. (Box2D v3 keeps the
            // clipped points unless they are a tenth of a linear slop shallower; they report
            // the contact up to that much shallower than it is, so the guard here is 10 µm.)
            return single(ia, ib);
        }
    }
    // Keep the clipped points within the margin; if none is, the closest points still are.
    within_margin(clipped, margin, Some(single(i11, i21)))
}

/// One point at the incident core's deepest vertex along the normal of the reference edge
/// `e1` (A's, or B's when `flip`), midway between the rounded surfaces.
fn deepest_vertex_contact(a: &Proxy, b: &Proxy, e1: usize, flip: bool) -> Manifold {
    let (p1, p2) = if flip { (b, a) } else { (a, b) };
    let normal = p1.normals[e1];
    let j = (0..p2.count).min_by(|&i, &k| normal.dot(p2.points[i]).total_cmp(&normal.dot(p2.points[k]))).unwrap_or(0);
    let s = (p2.points[j] - p1.points[e1]).dot(normal);
    let mut m = Manifold::EMPTY;
    m.normal = if flip { -normal } else { normal };
    m.push(ManifoldPoint {
        point: p2.points[j] + 0.5 * (p1.radius - p2.radius - s) * normal,
        penetration: p1.radius + p2.radius - s,
        id: FeatureId::new(flip, FeatureKind::Vertex, e1, j),
    });
    m
}

/// Drops points separated by more than `margin`; an emptied manifold becomes `fallback`.
fn within_margin(m: Manifold, margin: f32, fallback: Option<Manifold>) -> Manifold {
    let mut kept = Manifold { count: 0, ..m };
    for p in m.points() {
        if -p.penetration <= margin {
            kept.push(*p);
        }
    }
    match fallback {
        Some(f) if kept.count == 0 => f,
        _ => kept,
    }
}

/// Box2D's `b2ClipPolygons`: the incident edge clipped to the reference edge's extent, each
/// point moved midway between the two rounded surfaces.
fn clip_polygons(a: &Proxy, b: &Proxy, edge_a: usize, edge_b: usize, flip: bool) -> Manifold {
    let (p1, e1, p2, e2) = if flip { (b, edge_b, a, edge_a) } else { (a, edge_a, b, edge_b) };
    let (i11, i12) = (e1, (e1 + 1) % p1.count);
    let (i21, i22) = (e2, (e2 + 1) % p2.count);
    let normal = p1.normals[i11];
    let (v11, v12) = (p1.points[i11], p1.points[i12]);
    let (v21, v22) = (p2.points[i21], p2.points[i22]);
    let tangent = cross_sv(1.0, normal);
    let (lower1, upper1) = (0.0, (v12 - v11).dot(tangent));
    // The incident edge runs against the tangent (CCW winding).
    let upper2 = (v21 - v11).dot(tangent);
    let lower2 = (v22 - v11).dot(tangent);
    if upper2 < lower1 || upper1 < lower2 {
        return Manifold::EMPTY;
    }
    let span = upper2 - lower2;
    let v_lower = if lower2 < lower1 && span > f32::EPSILON { v22.lerp(v21, (lower1 - lower2) / span) } else { v22 };
    let v_upper = if upper2 > upper1 && span > f32::EPSILON { v22.lerp(v21, (upper1 - lower2) / span) } else { v21 };
    let separation_lower = (v_lower - v11).dot(normal);
    let separation_upper = (v_upper - v11).dot(normal);
    let (r1, r2) = (p1.radius, p2.radius);
    let v_lower = v_lower + 0.5 * (r1 - r2 - separation_lower) * normal;
    let v_upper = v_upper + 0.5 * (r1 - r2 - separation_upper) * normal;
    let radius = r1 + r2;
    let mut m = Manifold::EMPTY;
    m.normal = if flip { -normal } else { normal };
    let points = if flip {
        [(v_upper, separation_upper, i12, i21), (v_lower, separation_lower, i11, i22)]
    } else {
        [(v_lower, separation_lower, i11, i22), (v_upper, separation_upper, i12, i21)]
    };
    for (point, s, reference, incident) in points {
        m.push(ManifoldPoint {
            point,
            penetration: radius - s,
            id: FeatureId::new(flip, FeatureKind::Face, reference, incident),
        });
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capsule_lying_on_a_box_rests_on_two_points() {
        let ground = Polygon::make_box(Vec2::new(3.0, 0.5)).unwrap();
        let cap = Capsule::horizontal(1.0, 0.25).unwrap();
        let xb = Transform::new(Vec2::new(0.4, 0.74), 0.0);
        let m = collide_polygon_capsule(&ground, &Transform::IDENTITY, &cap, &xb, 0.0);
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.penetration - 0.01).abs() < 1e-5);
            assert!((p.point.y - 0.495).abs() < 1e-5);
        }
    }

    #[test]
    fn tilted_capsule_end_and_box_corner() {
        let b = Polygon::make_box(Vec2::splat(0.5)).unwrap();
        let cap = Capsule::horizontal(0.5, 0.2).unwrap();
        // The capsule stands on its lower end above the box's top face.
        let xb = Transform::new(Vec2::new(0.1, 0.5 + 0.5 + 0.2 - 0.03), std::f32::consts::FRAC_PI_2);
        let m = collide_polygon_capsule(&b, &Transform::IDENTITY, &cap, &xb, 0.0);
        assert!(m.count >= 1);
        assert!((m.normal - Vec2::Y).length() < 1e-5);
        assert!((m.max_penetration() - 0.03).abs() < 1e-5);
        // Beyond the box's corner, apart by a gap inside the margin: one vertex–vertex point.
        let corner = Vec2::new(0.5, 0.5);
        let dir = Vec2::new(1.0, 1.0).normalize();
        let end = corner + (0.2 + 0.01) * dir;
        let xb = Transform::new(end + 0.5 * dir, std::f32::consts::FRAC_PI_4);
        let m = collide_polygon_capsule(&b, &Transform::IDENTITY, &cap, &xb, 0.02);
        assert_eq!(m.count, 1);
        assert!((m.normal - dir).length() < 1e-4, "{:?}", m.normal);
        assert!((m.points[0].penetration + 0.01).abs() < 1e-5);
    }
}
