//! EPA, the Expanding Polytope Algorithm (002 article, "Building a Collision Engine Part 2:
//! 2D Penetration Vectors"): start from GJK's simplex around the origin, find the polytope
//! edge closest to the origin (`closest_edge`), take the support point along its normal; if it
//! lies on the edge (within tolerance) that edge is the face of the Minkowski difference
//! closest to the origin, else insert the point between the edge's ends (`expand`) and repeat,
//! up to [`EPA_MAX_ITERATIONS`].
//!
//! Conventions: configuration space is A − B (see [`super::support`]) and the polytope is kept
//! counter-clockwise (the article's winding test decides whether two vertices are swapped
//! first), so an edge's outward normal is its right perpendicular and is the contact normal
//! from A to B; the depth is the edge's distance from the origin. EPA runs on the cores
//! (polygons), then adds the radii. Degenerate starts are blown up to a triangle: one point
//! searches the axes for a second, a segment (touching, or a collinear simplex) takes the
//! support point on the side of its normal that spans the most area. A Minkowski difference
//! with no area (a circle centre on a capsule's segment) gives core depth 0.

use super::epa_trace::{EpaEdge, EpaStep, EpaTrace};
use super::gjk::{gjk_with, GjkOutput, Simplex};
use super::support::{minkowski_face_normal, support, NoTrace, Proxy, Recorder, SupportPoint};
use crate::engine::math::{cross, left_perp, right_perp, Transform};
use crate::engine::shape::Shape;
use glam::Vec2;
use serde::Serialize;

/// The article's iteration cap (it uses 32).
pub const EPA_MAX_ITERATIONS: usize = 32;
/// The tolerance test `support·n − edge distance ≤ EPA_TOLERANCE × max |w|` (relative: the
/// simplex coordinates set the round-off).
pub const EPA_TOLERANCE: f32 = 1.0e-6;
/// Most polytope vertices (the difference of two 8-gons has at most 16).
const CAPACITY: usize = 32;

/// Why EPA stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum EpaEnd {
    /// The support point lies on the closest edge: the article's tolerance test.
    Tolerance,
    /// The support point is already a polytope vertex (the face is reached exactly).
    DuplicateSupport,
    /// The polytope is full, or [`EPA_MAX_ITERATIONS`] was reached.
    MaxIterations,
    /// The Minkowski difference of the cores has no area (a point or a segment).
    Degenerate,
    /// The cores do not overlap: the depth comes from GJK's closest points and the radii.
    CoresApart,
}

/// The penetration of two overlapping shapes: moving B by `depth · normal` (or A by the
/// opposite) makes them touch.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Penetration {
    /// Overlap depth, ≥ 0.
    pub depth: f32,
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// The deepest point of A inside B, and of B inside A: `point_a − point_b = depth · normal`.
    pub point_a: Vec2,
    pub point_b: Vec2,
    pub iterations: usize,
    pub end: EpaEnd,
}

/// The expanding polytope: CCW support points of A − B, with each edge's outward normal and
/// distance cached (edge `i` runs from vertex `i` to `i + 1`), so an expansion only computes
/// the two new edges.
struct Polytope {
    w: [Vec2; CAPACITY],
    ids: [(u8, u8); CAPACITY],
    normal: [Vec2; CAPACITY],
    dist: [f32; CAPACITY],
    count: usize,
}

impl Polytope {
    fn new(tri: &[SupportPoint; 3]) -> Polytope {
        let mut p = Polytope {
            w: [Vec2::ZERO; CAPACITY],
            ids: [(0, 0); CAPACITY],
            normal: [Vec2::ZERO; CAPACITY],
            dist: [0.0; CAPACITY],
            count: 3,
        };
        // The article's winding test: Σ (x2 − x1)(y2 + y1) ≥ 0 means clockwise; make it CCW.
        let (v0, v1, v2) = (tri[0].w, tri[1].w, tri[2].w);
        let e = (v1.x - v0.x) * (v1.y + v0.y) + (v2.x - v1.x) * (v2.y + v1.y) + (v0.x - v2.x) * (v0.y + v2.y);
        let order = if e >= 0.0 { [0, 2, 1] } else { [0, 1, 2] };
        for (k, &i) in order.iter().enumerate() {
            p.w[k] = tri[i].w;
            p.ids[k] = (tri[i].index_a as u8, tri[i].index_b as u8);
        }
        for i in 0..3 {
            p.update_edge(i);
        }
        p
    }

    fn update_edge(&mut self, i: usize) {
        let j = if i + 1 == self.count { 0 } else { i + 1 };
        let n = right_perp(self.w[j] - self.w[i]);
        let len = n.length();
        if len > 0.0 {
            self.normal[i] = n / len;
            self.dist[i] = self.normal[i].dot(self.w[i]);
        } else {
            // A zero-length edge can never be the closest one.
            self.normal[i] = Vec2::ZERO;
            self.dist[i] = f32::INFINITY;
        }
    }

    /// The edge closest to the origin (the article's `findClosestEdge`): index, normal, distance.
    #[inline]
    fn closest_edge(&self) -> (usize, Vec2, f32) {
        let mut best = 0;
        for i in 1..self.count {
            if self.dist[i] < self.dist[best] {
                best = i;
            }
        }
        (best, self.normal[best], self.dist[best])
    }

    fn contains(&self, sp: &SupportPoint) -> bool {
        self.ids[..self.count].iter().any(|&(ia, ib)| ia as usize == sp.index_a && ib as usize == sp.index_b)
    }

    /// Inserts `sp` between vertices `i` and `i + 1` (the article's `vertices.insert(edge.index, support)`).
    fn expand(&mut self, i: usize, sp: &SupportPoint) {
        let j = i + 1;
        for k in (j..self.count).rev() {
            self.w[k + 1] = self.w[k];
            self.ids[k + 1] = self.ids[k];
            self.normal[k + 1] = self.normal[k];
            self.dist[k + 1] = self.dist[k];
        }
        self.w[j] = sp.w;
        self.ids[j] = (sp.index_a as u8, sp.index_b as u8);
        self.count += 1;
        self.update_edge(i);
        self.update_edge(j);
    }

    fn support_point(&self, pa: &Proxy, pb: &Proxy, k: usize) -> SupportPoint {
        SupportPoint::from_indices(pa, self.ids[k].0 as usize, pb, self.ids[k].1 as usize)
    }
}

/// Turns GJK's final simplex into a triangle with area, or reports a degenerate difference
/// (with the normal to use and the core depth, 0).
fn blow_up(pa: &Proxy, pb: &Proxy, simplex: &Simplex) -> Result<[SupportPoint; 3], Vec2> {
    let v = simplex.vertices();
    let scale = v.iter().fold(f32::MIN_POSITIVE, |m, x| m.max(x.sp.w.abs().max_element()));
    let eps = 2.0 * f32::EPSILON * scale;
    let (p0, mut p1) = (v[0].sp, v.get(1).map(|x| x.sp));
    if v.len() == 3 {
        // Keep a triangle with area; a collinear one is reduced to its longest side.
        let (a, b, c) = (v[0].sp, v[1].sp, v[2].sp);
        let area2 = cross(b.w - a.w, c.w - a.w).abs();
        let longest = [(a, b), (a, c), (b, c)]
            .into_iter()
            .max_by(|x, y| x.0.w.distance_squared(x.1.w).total_cmp(&y.0.w.distance_squared(y.1.w)))
            .unwrap_or((a, b));
        if area2 > eps * longest.0.w.distance(longest.1.w) {
            return Ok([a, b, c]);
        }
        return blow_up_segment(pa, pb, longest.0, longest.1, eps);
    }
    if p1.is_none() {
        // A single point: search the axes for a second support point.
        p1 = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y]
            .into_iter()
            .map(|d| support(pa, pb, d))
            .find(|sp| sp.w.distance(p0.w) > eps);
    }
    match p1 {
        Some(p1) => blow_up_segment(pa, pb, p0, p1, eps),
        None => Err(Vec2::X), // The difference is a point: the circles' fallback normal.
    }
}

fn blow_up_segment(
    pa: &Proxy,
    pb: &Proxy,
    p0: SupportPoint,
    p1: SupportPoint,
    eps: f32,
) -> Result<[SupportPoint; 3], Vec2> {
    let e = p1.w - p0.w;
    let len = e.length();
    let n = left_perp(e);
    let s1 = support(pa, pb, n);
    let s2 = support(pa, pb, -n);
    let (h1, h2) = (cross(e, s1.w - p0.w) / len, -cross(e, s2.w - p0.w) / len);
    let (best, h) = if h1 >= h2 { (s1, h1) } else { (s2, h2) };
    if h > eps {
        Ok([p0, p1, best])
    } else {
        Err(right_perp(e) / len)
    }
}

/// EPA from GJK's simplex on two proxies (the simplex must come from `gjk` on the same
/// proxies). With `Some(trace)` every expansion is recorded (the trace is cleared first).
#[inline]
pub fn epa(pa: &Proxy, pb: &Proxy, simplex: &Simplex, trace: Option<&mut EpaTrace>) -> Penetration {
    match trace {
        Some(t) => {
            t.clear(simplex.count);
            let out = epa_with(pa, pb, simplex, t);
            t.result = Some(out);
            out
        }
        None => epa_with(pa, pb, simplex, &mut NoTrace),
    }
}

/// The EPA loop, generic over the recorder: `epa_with(.., &mut NoTrace)` is the untraced path.
#[inline]
pub fn epa_with<R: Recorder<EpaStep>>(pa: &Proxy, pb: &Proxy, simplex: &Simplex, rec: &mut R) -> Penetration {
    let radius = pa.radius + pb.radius;
    let tri = match blow_up(pa, pb, simplex) {
        Ok(tri) => tri,
        Err(normal) => {
            let (ca, cb) = simplex.witness_points();
            return Penetration {
                depth: radius,
                normal,
                point_a: ca + pa.radius * normal,
                point_b: cb - pb.radius * normal,
                iterations: 0,
                end: EpaEnd::Degenerate,
            };
        }
    };
    let mut poly = Polytope::new(&tri);
    let scale = tri.iter().fold(f32::MIN_POSITIVE, |m, x| m.max(x.w.abs().max_element()));
    let tol = EPA_TOLERANCE * scale;
    let mut iterations = 0;
    let (edge, normal, dist, end) = loop {
        let (i, n, dist) = poly.closest_edge();
        let sp = support(pa, pb, n);
        let d = sp.w.dot(n);
        iterations += 1;
        let end = if d - dist <= tol {
            Some(EpaEnd::Tolerance)
        } else if poly.contains(&sp) {
            Some(EpaEnd::DuplicateSupport)
        } else if poly.count == CAPACITY || iterations == EPA_MAX_ITERATIONS {
            Some(EpaEnd::MaxIterations)
        } else {
            None
        };
        if R::ENABLED {
            rec.record(EpaStep {
                polytope: (0..poly.count).map(|k| poly.support_point(pa, pb, k)).collect(),
                closest_edge: EpaEdge { index: i, normal: n, distance: dist },
                support: sp,
                support_distance: d,
                terminated_by_tolerance: end == Some(EpaEnd::Tolerance),
                end,
            });
        }
        if let Some(end) = end {
            break (i, n, dist, end);
        }
        poly.expand(i, &sp);
    };
    // Witness points: where the origin projects onto the closest edge, interpolated on A and B.
    let j = if edge + 1 == poly.count { 0 } else { edge + 1 };
    // A face of one shape: its own normal is more precise than the polytope edge's.
    let ids = |k: usize| (poly.ids[k].0 as usize, poly.ids[k].1 as usize);
    let (normal, dist) = match minkowski_face_normal(pa, pb, ids(edge), ids(j)) {
        Some(n) if n.dot(normal) > 0.99 => (n, 0.5 * (n.dot(poly.w[edge]) + n.dot(poly.w[j]))),
        _ => (normal, dist),
    };
    let (s0, s1) = (poly.support_point(pa, pb, edge), poly.support_point(pa, pb, j));
    let e = s1.w - s0.w;
    let t = if e.length_squared() > 0.0 {
        ((dist * normal - s0.w).dot(e) / e.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let ca = s0.a.lerp(s1.a, t);
    let cb = s0.b.lerp(s1.b, t);
    Penetration {
        depth: dist.max(0.0) + radius,
        normal,
        point_a: ca + pa.radius * normal,
        point_b: cb - pb.radius * normal,
        iterations,
        end,
    }
}

/// The penetration after a GJK run that found overlap: from GJK's closest points when only
/// the rounded parts overlap (cores apart), else EPA on GJK's simplex.
pub fn penetration_from_gjk(pa: &Proxy, pb: &Proxy, g: &GjkOutput, trace: Option<&mut EpaTrace>) -> Penetration {
    if g.normal != Vec2::ZERO {
        let out = Penetration {
            depth: (pa.radius + pb.radius - g.core_distance).max(0.0),
            normal: g.normal,
            point_a: g.point_a,
            point_b: g.point_b,
            iterations: 0,
            end: EpaEnd::CoresApart,
        };
        if let Some(t) = trace {
            t.clear(g.simplex.count);
            t.result = Some(out);
        }
        return out;
    }
    epa(pa, pb, &g.simplex, trace)
}

/// GJK then EPA between two shapes at their poses (world space): `None` when they are apart.
pub fn penetration(
    a: &Shape,
    xfa: &Transform,
    b: &Shape,
    xfb: &Transform,
    mut trace: Option<&mut EpaTrace>,
) -> Option<Penetration> {
    let pa = Proxy::from_shape(a, xfa, xfa.p);
    let pb = Proxy::from_shape(b, xfb, xfa.p);
    let g = gjk_with(&pa, &pb, &mut NoTrace);
    if !g.overlap {
        return None;
    }
    let mut out = penetration_from_gjk(&pa, &pb, &g, trace.as_deref_mut());
    out.point_a += xfa.p;
    out.point_b += xfa.p;
    if let Some(t) = trace {
        t.shift(xfa.p);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_until_the_face_closest_to_the_origin() {
        let a = Shape::make_box(Vec2::new(2.0, 1.0)).unwrap();
        let b = Shape::make_box(Vec2::new(0.5, 0.5)).unwrap();
        let xb = Transform::new(Vec2::new(1.0, 1.3), 0.4);
        let mut t = EpaTrace::new();
        let p = penetration(&a, &Transform::IDENTITY, &b, &xb, Some(&mut t)).unwrap();
        assert_eq!(Some(p), penetration(&a, &Transform::IDENTITY, &b, &xb, None));
        // B's lowest corner is 1.3 − (0.5 cos 0.4 + 0.5 sin 0.4) above A's centre, A's top is at 1.
        let corner = 1.3 - 0.5 * (0.4f32.cos() + 0.4f32.sin());
        assert!((p.depth - (1.0 - corner)).abs() < 1e-5 && (p.normal - Vec2::Y).length() < 1e-5, "{p:?}");
        assert!(t.steps.windows(2).all(|w| w[1].polytope.len() == w[0].polytope.len() + 1));
        assert!(t.steps.last().is_some_and(|s| s.end.is_some()));
        assert_eq!(t.result, Some(p));
    }
}
