//! Polygon (box or convex polygon) against circle (000 article, "AABB to Circle" generalised
//! through a change of basis into the polygon's frame, as its "OBBs and Orientation" section
//! describes). The centre-inside case pushes out through the closest face. Traced by
//! `polygon_circle_trace`.

use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use super::polygon_circle_trace::{faces_step, region_step, CircleRegion, PolygonCircleStep};
use crate::engine::math::Transform;
use crate::engine::shape::Polygon;
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec2;

/// Contact between polygon A and a circle B (radius `radius`, centre `center` in world space).
/// The normal points from the polygon to the circle.
pub fn collide_polygon_circle(poly: &Polygon, xf: &Transform, center: Vec2, radius: f32, margin: f32) -> Manifold {
    collide_polygon_circle_with(poly, xf, center, radius, margin, &mut NoTrace)
}

/// [`collide_polygon_circle`] recording its steps (the Manifold lab's trace).
pub fn collide_polygon_circle_with<R: Recorder<PolygonCircleStep>>(
    poly: &Polygon,
    xf: &Transform,
    center: Vec2,
    radius: f32,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let m = polygon_circle(poly, xf, center, radius, margin, rec);
    if R::ENABLED {
        rec.record(PolygonCircleStep::Done(m, center));
    }
    m
}

fn polygon_circle<R: Recorder<PolygonCircleStep>>(
    poly: &Polygon,
    xf: &Transform,
    center: Vec2,
    radius: f32,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    // Change of basis: the circle centre in the polygon's frame. A rounded polygon's core is
    // met by a circle of both radii (Box2D's `b2CollidePolygonAndCircle`).
    let c = xf.apply_inv(center);
    let reach = radius + poly.radius;
    // The face of maximum separation is the closest face when the centre is inside.
    let mut separation = -f32::MAX;
    let mut face = 0;
    for i in 0..poly.count {
        let s = poly.normals[i].dot(c - poly.vertices[i]);
        if s > separation {
            separation = s;
            face = i;
        }
    }
    if R::ENABLED {
        rec.record(PolygonCircleStep::Basis { xf: *xf, center, local: c });
        rec.record(faces_step(poly, xf, c, face, reach + margin));
    }
    if separation > reach + margin {
        return Manifold::EMPTY;
    }
    let v1 = poly.vertices[face];
    let v2 = poly.vertices[(face + 1) % poly.count];
    let u1 = (c - v1).dot(v2 - v1);
    let u2 = (c - v2).dot(v1 - v2);

    // (local normal, closest point on the polygon surface, signed distance centre→surface, feature)
    let (normal, on_poly, distance, feature) = if separation <= 0.0 || (u1 >= 0.0 && u2 >= 0.0) {
        // Face region, or centre inside: push out along the face normal.
        let n = poly.normals[face];
        if R::ENABLED {
            let region = if separation <= 0.0 { CircleRegion::Inside } else { CircleRegion::Face };
            rec.record(region_step(xf, [v1, v2], c, region, (u1, u2), separation, false));
        }
        (n, c - n * separation, separation, face)
    } else {
        // Vertex region: the normal runs from the closest vertex to the centre.
        let (v, index) = if u1 < 0.0 { (v1, face) } else { (v2, (face + 1) % poly.count) };
        let d = c - v;
        let dist = d.length();
        if R::ENABLED {
            let region = CircleRegion::Vertex(index, xf.apply(v));
            rec.record(region_step(xf, [v1, v2], c, region, (u1, u2), dist, dist > reach + margin));
        }
        if dist > reach + margin {
            return Manifold::EMPTY;
        }
        (d / dist, v, dist, 0x80 | index)
    };
    let mut m = Manifold::EMPTY;
    m.normal = xf.q.apply(normal);
    let on_circle = c - normal * radius;
    let on_poly = if poly.radius > 0.0 { on_poly + normal * poly.radius } else { on_poly };
    m.push(ManifoldPoint {
        point: xf.apply(0.5 * (on_poly + on_circle)),
        penetration: reach - distance,
        id: FeatureId::new(false, FeatureKind::Circle, feature, 0),
    });
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> Polygon {
        Polygon::make_box(Vec2::new(1.0, 1.0)).unwrap()
    }

    #[test]
    fn face_region() {
        let m = collide_polygon_circle(&unit_box(), &Transform::IDENTITY, Vec2::new(0.0, 1.4), 0.5, 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        assert!((m.points[0].penetration - 0.1).abs() < 1e-5);
        assert!((m.points[0].point - Vec2::new(0.0, 0.95)).length() < 1e-5);
    }

    #[test]
    fn vertex_region() {
        let c = Vec2::new(1.3, 1.4);
        let m = collide_polygon_circle(&unit_box(), &Transform::IDENTITY, c, 0.6, 0.0);
        assert_eq!(m.count, 1);
        let expected_n = (c - Vec2::ONE).normalize();
        assert!((m.normal - expected_n).length() < 1e-6);
        assert!((m.points[0].penetration - (0.6 - 0.5)).abs() < 1e-5);
        // just outside the corner's reach
        assert_eq!(collide_polygon_circle(&unit_box(), &Transform::IDENTITY, c, 0.49, 0.0).count, 0);
    }

    #[test]
    fn centre_inside_pushes_out_through_closest_face() {
        let m = collide_polygon_circle(&unit_box(), &Transform::IDENTITY, Vec2::new(0.8, 0.1), 0.25, 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec2::X).length() < 1e-6);
        // centre 0.2 inside the right face plus radius
        assert!((m.points[0].penetration - 0.45).abs() < 1e-5);
        // centre exactly at the polygon's centre: still a finite, unit normal
        let m = collide_polygon_circle(&unit_box(), &Transform::IDENTITY, Vec2::ZERO, 0.25, 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal.length() - 1.0).abs() < 1e-6);
        assert!((m.points[0].penetration - 1.25).abs() < 1e-5);
    }

    #[test]
    fn rotated_box_change_of_basis() {
        // Box rotated 45°: its corner points up the y axis at height sqrt(2).
        let xf = Transform::new(Vec2::ZERO, std::f32::consts::FRAC_PI_4);
        let m = collide_polygon_circle(&unit_box(), &xf, Vec2::new(0.0, 1.8), 0.5, 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal - Vec2::Y).length() < 1e-5);
        assert!((m.points[0].penetration - (0.5 - (1.8 - std::f32::consts::SQRT_2))).abs() < 1e-5);
    }
}
