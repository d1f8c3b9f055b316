//! Capsule–capsule and capsule–circle manifolds (Box2D v3's `b2CollideCapsules` and
//! `b2CollideCapsuleAndCircle`). Capsule–capsule follows Ericson's closest points of two
//! segments, then tries to clip one segment against the other's extent for a second point
//! (so a capsule lying on another rests on two points), falling back to the single closest
//! point when clipping would cut depth off (the clipped segment's deepest end lies beyond the
//! reference's extent, so the contact is at the reference's rounded end).
//!
//! Everything is computed in A's frame shifted to A's first centre (round-off stays small far
//! from the world origin) and returned in world space, normal from A to B. Traced by
//! `capsule_trace`.

use super::capsule_trace::CapsuleStep;
use super::manifold::{FeatureId, FeatureKind, Manifold, ManifoldPoint};
use super::polygon::DEPTH_GUARD;
use super::segment::segment_distance;
use crate::engine::math::{left_perp, Transform};
use crate::engine::shape::Capsule;
use crate::engine::trace::{NoTrace, Recorder};
use crate::engine::LINEAR_SLOP;
use glam::Vec2;

/// A manifold computed in A's shifted local frame, mapped to world space.
fn to_world(mut m: Manifold, xfa: &Transform, origin: Vec2) -> Manifold {
    m.normal = xfa.q.apply(m.normal);
    for p in &mut m.points[..m.count] {
        p.point = xfa.apply(p.point + origin);
    }
    m
}

fn capsule_id(flip: bool, a: usize, b: usize) -> FeatureId {
    FeatureId::new(flip, FeatureKind::Capsule, a, b)
}

/// Contact between capsules A and B; points separated by less than `margin` are kept.
pub fn collide_capsules(a: &Capsule, xfa: &Transform, b: &Capsule, xfb: &Transform, margin: f32) -> Manifold {
    collide_capsules_with(a, xfa, b, xfb, margin, &mut NoTrace)
}

/// [`collide_capsules`] recording its steps (the Manifold lab's trace).
pub fn collide_capsules_with<R: Recorder<CapsuleStep>>(
    a: &Capsule,
    xfa: &Transform,
    b: &Capsule,
    xfb: &Transform,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let m = capsules(a, xfa, b, xfb, margin, rec);
    if R::ENABLED {
        rec.record(CapsuleStep::Done(m, 0.5 * (xfa.p + xfb.p)));
    }
    m
}

fn capsules<R: Recorder<CapsuleStep>>(
    a: &Capsule,
    xfa: &Transform,
    b: &Capsule,
    xfb: &Transform,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let origin = a.center1;
    let world = |p: Vec2| xfa.apply(p + origin);
    let xf = xfa.inv_mul(xfb);
    let p1 = Vec2::ZERO;
    let q1 = a.center2 - origin;
    let p2 = xf.apply(b.center1) - origin;
    let q2 = xf.apply(b.center2) - origin;
    let closest = segment_distance(p1, q1, p2, q2);
    let (ra, rb) = (a.radius, b.radius);
    let radius = ra + rb;
    let max_distance = radius + margin;
    let separated = closest.distance_squared > max_distance * max_distance;
    if R::ENABLED {
        let (segments, c) = ([[p1, q1].map(world), [p2, q2].map(world)], [closest.closest1, closest.closest2]);
        let distance = closest.distance_squared.sqrt();
        rec.record(CapsuleStep::Closest { segments, closest: c.map(world), distance, radius, reach: max_distance });
    }
    if separated {
        return Manifold::EMPTY;
    }
    let distance = closest.distance_squared.sqrt();
    let (d1, d2) = (q1 - p1, q2 - p2);
    let (length1, length2) = (d1.length(), d2.length());
    let (u1, u2) = (d1 / length1, d2 / length2);

    // Does segment B project outside segment A, or A outside B?
    let fp2 = (p2 - p1).dot(u1);
    let fq2 = (q2 - p1).dot(u1);
    let outside_a = (fp2 <= 0.0 && fq2 <= 0.0) || (fp2 >= length1 && fq2 >= length1);
    let fp1 = (p1 - p2).dot(u2);
    let fq1 = (q1 - p2).dot(u2);
    let outside_b = (fp1 <= 0.0 && fq1 <= 0.0) || (fp1 >= length2 && fq1 >= length2);
    if R::ENABLED {
        let segments = [[p1, q1].map(world), [p2, q2].map(world)];
        rec.record(CapsuleStep::Extents { segments, outside: [outside_a, outside_b] });
    }

    let mut m = Manifold::EMPTY;
    if !outside_a && !outside_b {
        // Reference segment by SAT on the two segment normals (each side's best sign), biased
        // towards A to avoid feature flip-flop; a reference whose clip would cut depth off
        // (the other segment's deepest end lies beyond its extent) yields to the other.
        let (normal_a, separation_a) = segment_axis(u1, p1, p2, q2);
        let (normal_b, separation_b) = segment_axis(u2, p2, p1, q1);
        let on_a = || {
            let (cp, cq) = clip_to_extent(p2, q2, fp2, fq2, length1);
            ([cp, cq], clip_manifold([cp, cq], p1, normal_a, separation_a, (ra, rb), false, margin))
        };
        let on_b = || {
            let (cp, cq) = clip_to_extent(p1, q1, fp1, fq1, length2);
            ([cp, cq], clip_manifold([cp, cq], p2, normal_b, separation_b, (rb, ra), true, margin))
        };
        let a_first = separation_a + 0.1 * LINEAR_SLOP >= separation_b;
        if R::ENABLED {
            let normals = [normal_a, normal_b].map(|n| xfa.q.apply(n));
            let (segments, separations) = ([[p1, q1].map(world), [p2, q2].map(world)], [separation_a, separation_b]);
            rec.record(CapsuleStep::Reference { segments, normals, separations, a_first });
        }
        for flip in if a_first { [false, true] } else { [true, false] } {
            let (clipped, attempt) = if flip { on_b() } else { on_a() };
            if R::ENABLED {
                let reference = if flip { [p2, q2] } else { [p1, q1] }.map(world);
                let normal = xfa.q.apply(if flip { normal_b } else { normal_a });
                let accepted = attempt.is_some();
                rec.record(CapsuleStep::Clip { flip, reference, normal, clipped: clipped.map(world), accepted });
            }
            if let Some(clipped) = attempt {
                m = clipped;
                break;
            }
        }
    }
    if m.count == 0 {
        // The single closest point.
        let (c1, c2) = (closest.closest1, closest.closest2);
        let delta = c2 - c1;
        let normal =
            if delta.length_squared() > f32::EPSILON * f32::EPSILON { delta.normalize() } else { left_perp(u1) };
        if R::ENABLED {
            rec.record(CapsuleStep::Single { closest: [c1, c2].map(world), normal: xfa.q.apply(normal) });
        }
        let i1 = usize::from(closest.fraction1 != 0.0);
        let i2 = usize::from(closest.fraction2 != 0.0);
        m = Manifold::EMPTY;
        m.normal = normal;
        let on_a = c1 + ra * normal;
        let on_b = c2 - rb * normal;
        m.push(ManifoldPoint {
            point: 0.5 * (on_a + on_b),
            penetration: radius - distance,
            id: capsule_id(false, i1, i2),
        });
    }
    to_world(m, xfa, origin)
}

/// The better signed normal of a segment (direction `u`, through `p`) against the other
/// segment `a b`: the side the other segment is most separated on, and that separation.
fn segment_axis(u: Vec2, p: Vec2, a: Vec2, b: Vec2) -> (Vec2, f32) {
    let n = left_perp(u);
    let (s1, s2) = ((a - p).dot(n), (b - p).dot(n));
    let positive = s1.min(s2);
    let negative = (-s1).min(-s2);
    if positive > negative {
        (n, positive)
    } else {
        (-n, negative)
    }
}

/// Clips segment `p q` (projections `fp`, `fq` on the reference axis) to `[0, length]`.
fn clip_to_extent(p: Vec2, q: Vec2, fp: f32, fq: f32, length: f32) -> (Vec2, Vec2) {
    let (mut cp, mut cq) = (p, q);
    if fp < 0.0 && fq > 0.0 {
        cp = p.lerp(q, (0.0 - fp) / (fq - fp));
    } else if fq < 0.0 && fp > 0.0 {
        cq = q.lerp(p, (0.0 - fq) / (fp - fq));
    }
    if fp > length && fq < length {
        cp = p.lerp(q, (fp - length) / (fp - fq));
    } else if fq > length && fp < length {
        cq = q.lerp(p, (fq - length) / (fq - fp));
    }
    (cp, cq)
}

/// The two points of the other segment clipped to the reference segment's extent (`clipped`,
/// reference through `p` with unit normal `normal` towards the other), as contacts; `None`
/// when clipping cut the other segment's deepest end off (its deeper clipped point is
/// shallower than `separation`, the SAT separation along this normal, by more than
/// [`DEPTH_GUARD`]): the contact then is at the reference's rounded end, and this normal
/// would report it shallower than it is. (Box2D v3 accepts up to a linear slop, 5 mm, less.)
/// `radii` are the reference's and the other's; `flip` when B is the reference.
fn clip_manifold(
    clipped: [Vec2; 2],
    p: Vec2,
    normal: Vec2,
    separation: f32,
    (r_ref, r_other): (f32, f32),
    flip: bool,
    margin: f32,
) -> Option<Manifold> {
    let s = clipped.map(|c| (c - p).dot(normal));
    if s[0].min(s[1]) > separation + DEPTH_GUARD {
        return None;
    }
    let mut m = Manifold::EMPTY;
    // The normal always points from A to B.
    m.normal = if flip { -normal } else { normal };
    for (k, (c, sk)) in clipped.into_iter().zip(s).enumerate() {
        let separation = sk - r_ref - r_other;
        if separation <= margin {
            let id = if flip { capsule_id(true, k, 0) } else { capsule_id(false, 0, k) };
            m.push(ManifoldPoint { point: c + 0.5 * (r_ref - r_other - sk) * normal, penetration: -separation, id });
        }
    }
    (m.count > 0).then_some(m)
}

/// Contact between capsule A and a circle B (centre `center` in world space); the normal
/// points from the capsule to the circle.
pub fn collide_capsule_circle(a: &Capsule, xfa: &Transform, center: Vec2, radius: f32, margin: f32) -> Manifold {
    collide_capsule_circle_with(a, xfa, center, radius, margin, &mut NoTrace)
}

/// [`collide_capsule_circle`] recording its steps (the Manifold lab's trace).
pub fn collide_capsule_circle_with<R: Recorder<CapsuleStep>>(
    a: &Capsule,
    xfa: &Transform,
    center: Vec2,
    radius: f32,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let m = capsule_circle(a, xfa, center, radius, margin, rec);
    if R::ENABLED {
        rec.record(CapsuleStep::Done(m, center));
    }
    m
}

fn capsule_circle<R: Recorder<CapsuleStep>>(
    a: &Capsule,
    xfa: &Transform,
    center: Vec2,
    radius: f32,
    margin: f32,
    rec: &mut R,
) -> Manifold {
    let origin = a.center1;
    let world = |p: Vec2| xfa.apply(p + origin);
    let pb = xfa.apply_inv(center) - origin;
    let (p1, p2) = (Vec2::ZERO, a.center2 - origin);
    let e = p2 - p1;
    // The closest point of the segment: an end, or the projection inside.
    let s1 = (pb - p1).dot(e);
    let s2 = (p2 - pb).dot(e);
    let (pa, feature) = if s1 < 0.0 {
        (p1, 0)
    } else if s2 < 0.0 {
        (p2, 1)
    } else {
        (p1 + (s1 / e.dot(e)) * e, 2)
    };
    let (normal, distance) = if feature == 2 {
        // Beside the segment: the normal is the segment's own (exact in direction, where the
        // difference of two nearby points would lose digits when the centre is near the
        // segment); the distance is the centre's height above the segment's line.
        let n = left_perp(e.normalize());
        let h = n.dot(pb - p1);
        if h >= 0.0 {
            (n, h)
        } else {
            (-n, -h)
        }
    } else {
        // Beyond an end: from the end centre (a coincident centre pushes out sideways).
        let delta = pb - pa;
        let d = delta.length();
        (if d > f32::EPSILON { delta / d } else { left_perp(e.normalize()) }, d)
    };
    let separation = distance - a.radius - radius;
    if R::ENABLED {
        let (segment, closest) = ([p1, p2].map(world), world(pa));
        rec.record(CapsuleStep::SegmentPoint { segment, closest, center, feature });
        let radius = a.radius + radius;
        rec.record(CapsuleStep::Distance { from: closest, normal: xfa.q.apply(normal), distance, radius, margin });
    }
    if separation > margin {
        return Manifold::EMPTY;
    }
    let mut m = Manifold::EMPTY;
    m.normal = normal;
    let on_a = pa + a.radius * normal;
    let on_b = pb - radius * normal;
    m.push(ManifoldPoint { point: 0.5 * (on_a + on_b), penetration: -separation, id: capsule_id(false, feature, 0) });
    to_world(m, xfa, origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(h: f32, r: f32) -> Capsule {
        Capsule::horizontal(h, r).unwrap()
    }

    #[test]
    fn parallel_capsules_rest_on_two_points() {
        let m = collide_capsules(
            &cap(1.0, 0.25),
            &Transform::IDENTITY,
            &cap(0.5, 0.25),
            &Transform::new(Vec2::new(0.2, 0.45), 0.0),
            0.0,
        );
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.penetration - 0.05).abs() < 1e-5);
            assert!((p.point.y - 0.225).abs() < 1e-5);
        }
        let xs: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
        assert!(xs.iter().any(|x| (x + 0.3).abs() < 1e-5) && xs.iter().any(|x| (x - 0.7).abs() < 1e-5), "{xs:?}");
    }

    #[test]
    fn crossed_and_end_to_end_capsules_touch_at_one_point() {
        // B stands upright above A's middle: the closest point is B's lower end.
        let xb = Transform::new(Vec2::new(0.0, 1.4), std::f32::consts::FRAC_PI_2);
        let m = collide_capsules(&cap(1.0, 0.25), &Transform::IDENTITY, &cap(1.0, 0.25), &xb, 0.0);
        assert!(m.count >= 1);
        assert!((m.normal - Vec2::Y).length() < 1e-5);
        assert!((m.max_penetration() - 0.1).abs() < 1e-5);
        // End to end along x: the normal joins the two end centres.
        let xb = Transform::new(Vec2::new(1.6, 0.1), 0.0);
        let m = collide_capsules(&cap(1.0, 0.25), &Transform::IDENTITY, &cap(0.2, 0.25), &xb, 0.0);
        assert_eq!(m.count, 1);
        let n = Vec2::new(0.4, 0.1).normalize();
        assert!((m.normal - n).length() < 1e-5);
        assert!((m.points[0].penetration - (0.5 - Vec2::new(0.4, 0.1).length())).abs() < 1e-5);
        // Coincident segments still give a finite unit normal.
        let m = collide_capsules(&cap(1.0, 0.25), &Transform::IDENTITY, &cap(1.0, 0.25), &Transform::IDENTITY, 0.0);
        assert!(m.count >= 1 && (m.normal.length() - 1.0).abs() < 1e-5);
        assert!(m.points().iter().all(|p| p.point.is_finite() && p.penetration.is_finite()));
    }

    #[test]
    fn capsule_and_circle() {
        let xa = Transform::new(Vec2::new(1.0, 0.0), 0.3);
        let m = collide_capsule_circle(&cap(1.0, 0.25), &xa, xa.apply(Vec2::new(0.4, 0.6)), 0.5, 0.0);
        assert_eq!(m.count, 1);
        assert!((m.normal - xa.q.apply(Vec2::Y)).length() < 1e-5);
        assert!((m.points[0].penetration - 0.15).abs() < 1e-5);
        // Beyond the end: the normal leaves the end centre.
        let m = collide_capsule_circle(&cap(1.0, 0.25), &Transform::IDENTITY, Vec2::new(1.5, 0.0), 0.3, 0.0);
        assert!((m.normal - Vec2::X).length() < 1e-6 && (m.points[0].penetration - 0.05).abs() < 1e-5);
        assert_eq!(
            collide_capsule_circle(&cap(1.0, 0.25), &Transform::IDENTITY, Vec2::new(0.0, 2.0), 0.3, 0.0).count,
            0
        );
        // Centre on the segment.
        let m = collide_capsule_circle(&cap(1.0, 0.25), &Transform::IDENTITY, Vec2::new(0.3, 0.0), 0.3, 0.0);
        assert!((m.normal.length() - 1.0).abs() < 1e-6 && (m.points[0].penetration - 0.55).abs() < 1e-5);
    }
}
