//! GJK (Gilbert–Johnson–Keerthi) on support functions: is the origin inside the Minkowski
//! difference A − B, and if not, which point of it is closest to the origin? That point is
//! the vector between the closest points of the shapes (004 article, "OBB vs OBB": "the
//! distance from the origin to the MD is actually the distance between the two shapes").
//!
//! The simplex solver is Box2D's `b2Distance` (Erin Catto, "Computing Distance", GDC 2010):
//! `solve2`/`solve3` keep the sub-simplex nearest the origin with barycentric weights, which
//! also give the closest points on each shape. `do_simplex` is the reduction step of the
//! classic formulation (Casey Muratori's name), the search direction points from the
//! simplex towards the origin, and the loop stops when the simplex encloses the origin, the
//! origin lies on it, a support point repeats (no progress is possible on polygon cores), or
//! after [`GJK_MAX_ITERATIONS`].
//!
//! Cores only: circles and capsules are a point or a segment plus a radius ([`Proxy`]), and
//! the radii are applied at the end, so circle distances are exact.

use super::gjk_trace::{GjkStep, GjkTrace};
use super::support::{minkowski_face_normal, support, NoTrace, Proxy, Recorder, SupportPoint};
use crate::engine::math::{cross, left_perp, right_perp, Transform};
use crate::engine::shape::Shape;
use glam::Vec2;
use serde::Serialize;

/// The iteration cap. Polygon cores have at most 64 Minkowski vertices, but GJK converges in
/// a handful of steps; the cap only guards against float cycling.
pub const GJK_MAX_ITERATIONS: usize = 32;

/// Core distances below `GJK_TOLERANCE × max |w|` (relative to the simplex coordinates, which
/// set the round-off) count as touching: the normal then comes from EPA, not from two nearly
/// equal witness points.
pub const GJK_TOLERANCE: f32 = 1.0e-6;

/// A simplex vertex: a Minkowski support point and its barycentric weight in the closest point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SimplexVertex {
    pub sp: SupportPoint,
    pub bary: f32,
}

/// Up to three support points of A − B (configuration space).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Simplex {
    pub v: [SimplexVertex; 3],
    pub count: usize,
}

impl Simplex {
    pub fn vertices(&self) -> &[SimplexVertex] {
        &self.v[..self.count]
    }

    /// The sub-simplex of a segment nearest the origin (Catto's `Solve2`): the Voronoi region
    /// of `w1`, of `w2`, or the edge, with barycentric weights from the projections.
    pub fn solve2(&mut self) {
        let w1 = self.v[0].sp.w;
        let w2 = self.v[1].sp.w;
        let e12 = w2 - w1;
        let d12_2 = -w1.dot(e12);
        if d12_2 <= 0.0 {
            self.v[0].bary = 1.0;
            self.count = 1;
            return;
        }
        let d12_1 = w2.dot(e12);
        if d12_1 <= 0.0 {
            self.v[1].bary = 1.0;
            self.v[0] = self.v[1];
            self.count = 1;
            return;
        }
        let inv = 1.0 / (d12_1 + d12_2);
        self.v[0].bary = d12_1 * inv;
        self.v[1].bary = d12_2 * inv;
        self.count = 2;
    }

    /// The sub-simplex of a triangle nearest the origin (Catto's `Solve3`): vertex, edge or
    /// interior regions tested with the signed areas of the origin against each edge.
    pub fn solve3(&mut self) {
        let (w1, w2, w3) = (self.v[0].sp.w, self.v[1].sp.w, self.v[2].sp.w);
        let e12 = w2 - w1;
        let (d12_1, d12_2) = (w2.dot(e12), -w1.dot(e12));
        let e13 = w3 - w1;
        let (d13_1, d13_2) = (w3.dot(e13), -w1.dot(e13));
        let e23 = w3 - w2;
        let (d23_1, d23_2) = (w3.dot(e23), -w2.dot(e23));
        let n123 = cross(e12, e13);
        let d123_1 = n123 * cross(w2, w3);
        let d123_2 = n123 * cross(w3, w1);
        let d123_3 = n123 * cross(w1, w2);

        if d12_2 <= 0.0 && d13_2 <= 0.0 {
            self.set1(0);
        } else if d12_1 > 0.0 && d12_2 > 0.0 && d123_3 <= 0.0 {
            self.set2(0, 1, d12_1, d12_2);
        } else if d13_1 > 0.0 && d13_2 > 0.0 && d123_2 <= 0.0 {
            self.set2(0, 2, d13_1, d13_2);
        } else if d12_1 <= 0.0 && d23_2 <= 0.0 {
            self.set1(1);
        } else if d13_1 <= 0.0 && d23_1 <= 0.0 {
            self.set1(2);
        } else if d23_1 > 0.0 && d23_2 > 0.0 && d123_1 <= 0.0 {
            self.set2(1, 2, d23_1, d23_2);
        } else {
            let sum = d123_1 + d123_2 + d123_3;
            if sum > 0.0 && sum.is_finite() {
                let inv = 1.0 / sum;
                self.v[0].bary = d123_1 * inv;
                self.v[1].bary = d123_2 * inv;
                self.v[2].bary = d123_3 * inv;
                self.count = 3;
            } else {
                // Collinear (zero-area) triangle that no region claimed: keep its longest edge.
                let len = |(i, j): (usize, usize)| self.v[i].sp.w.distance_squared(self.v[j].sp.w);
                let (i, j) =
                    [(0, 1), (0, 2), (1, 2)].into_iter().max_by(|&x, &y| len(x).total_cmp(&len(y))).unwrap_or((0, 1));
                self.v = [self.v[i], self.v[j], self.v[j]];
                self.count = 2;
                self.solve2();
            }
        }
    }

    fn set1(&mut self, i: usize) {
        self.v[0] = self.v[i];
        self.v[0].bary = 1.0;
        self.count = 1;
    }

    fn set2(&mut self, i: usize, j: usize, di: f32, dj: f32) {
        let inv = 1.0 / (di + dj);
        let (vi, vj) = (self.v[i], self.v[j]);
        self.v[0] = SimplexVertex { bary: di * inv, ..vi };
        self.v[1] = SimplexVertex { bary: dj * inv, ..vj };
        self.count = 2;
    }

    /// Reduces the simplex to the feature nearest the origin (`solve2` / `solve3`).
    #[inline]
    pub fn do_simplex(&mut self) {
        match self.count {
            2 => self.solve2(),
            3 => self.solve3(),
            _ => {}
        }
    }

    /// The point of the simplex closest to the origin (zero when it encloses the origin).
    pub fn closest_point(&self) -> Vec2 {
        match self.count {
            1 => self.v[0].sp.w,
            2 => self.v[0].bary * self.v[0].sp.w + self.v[1].bary * self.v[1].sp.w,
            _ => Vec2::ZERO,
        }
    }

    /// From the simplex towards the origin: `−w` for a point, the edge normal facing the
    /// origin for a segment (its length is the edge's, so a point on the line still has one).
    pub fn search_direction(&self) -> Vec2 {
        match self.count {
            1 => -self.v[0].sp.w,
            2 => {
                let e12 = self.v[1].sp.w - self.v[0].sp.w;
                if cross(e12, -self.v[0].sp.w) > 0.0 {
                    left_perp(e12)
                } else {
                    right_perp(e12)
                }
            }
            _ => Vec2::ZERO,
        }
    }

    /// The closest points on the cores of A and B, from the barycentric weights.
    pub fn witness_points(&self) -> (Vec2, Vec2) {
        let mut a = Vec2::ZERO;
        let mut b = Vec2::ZERO;
        for v in self.vertices() {
            a += v.bary * v.sp.a;
            b += v.bary * v.sp.b;
        }
        if self.count == 3 {
            b = a;
        }
        (a, b)
    }

    fn contains_vertex(ids: &[(usize, usize)], sp: &SupportPoint) -> bool {
        ids.iter().any(|&(ia, ib)| ia == sp.index_a && ib == sp.index_b)
    }

    /// Adds `offset` to the shape-space points (moves the simplex to another frame).
    pub fn shift(&mut self, offset: Vec2) {
        for v in &mut self.v {
            v.sp.a += offset;
            v.sp.b += offset;
        }
    }
}

/// Why GJK stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GjkEnd {
    /// The simplex is a triangle around the origin: the cores overlap.
    ContainsOrigin,
    /// The origin lies on the simplex (zero search direction): the cores touch or overlap.
    OriginOnSimplex,
    /// The new support point was already in the simplex: the closest feature is found.
    DuplicateSupport,
    /// [`GJK_MAX_ITERATIONS`] reached.
    MaxIterations,
}

/// The result of GJK between two (rounded) shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GjkOutput {
    /// The shapes touch or overlap (distance within tolerance of zero, or the cores overlap).
    pub overlap: bool,
    /// Distance between the rounded shapes; 0 when they overlap.
    pub distance: f32,
    /// Closest point on A, and on B. When overlapping: the core witness points moved out by the
    /// radii along `normal` if the cores are apart, else the (equal) core points.
    pub point_a: Vec2,
    pub point_b: Vec2,
    /// Unit normal from A to B (`(point_b − point_a) / distance` when separated); zero when the
    /// cores touch or overlap — run EPA ([`super::epa`]) for a penetration normal then.
    pub normal: Vec2,
    /// Distance between the cores (the polygon, the circle centre, the capsule segment).
    pub core_distance: f32,
    /// The final simplex (configuration space A − B, shape points in the caller's frame).
    pub simplex: Simplex,
    pub iterations: usize,
    pub end: GjkEnd,
}

/// GJK between two proxies in a common frame. With `Some(trace)` every iteration is recorded
/// (the trace is cleared first); `None` runs the untraced monomorphisation.
#[inline]
pub fn gjk(pa: &Proxy, pb: &Proxy, trace: Option<&mut GjkTrace>) -> GjkOutput {
    match trace {
        Some(t) => {
            t.clear(pa.radius, pb.radius);
            let out = gjk_with(pa, pb, t);
            t.result = Some(out);
            out
        }
        None => gjk_with(pa, pb, &mut NoTrace),
    }
}

/// The GJK loop, generic over the recorder (see [`Recorder`]): `gjk_with(.., &mut NoTrace)`
/// is exactly the untraced path that `gjk(.., None)` runs.
#[inline]
pub fn gjk_with<R: Recorder<GjkStep>>(pa: &Proxy, pb: &Proxy, rec: &mut R) -> GjkOutput {
    let (s, iterations, end) = gjk_iterate(pa, pb, start_simplex(pa, pb), rec);
    finish(pa, pb, s, iterations, end)
}

/// GJK's first simplex: a support point towards the origin from `a0 − b0`, rather than
/// `a0 − b0` itself, which may lie inside the difference (EPA then starts from boundary points
/// only, which keeps its polytope convex).
#[inline(always)]
pub(crate) fn start_simplex(pa: &Proxy, pb: &Proxy) -> Simplex {
    let d0 = pb.points[0] - pa.points[0];
    let mut s = Simplex { count: 1, ..Default::default() };
    s.v[0] = SimplexVertex { sp: support(pa, pb, if d0 == Vec2::ZERO { Vec2::X } else { d0 }), bary: 1.0 };
    s
}

/// The GJK iterations from simplex `s`: the final simplex, the support queries made and why
/// it stopped.
#[inline(always)]
pub(crate) fn gjk_iterate<R: Recorder<GjkStep>>(
    pa: &Proxy,
    pb: &Proxy,
    mut s: Simplex,
    rec: &mut R,
) -> (Simplex, usize, GjkEnd) {
    let mut iterations = 0;
    let end = loop {
        // Remember the vertices before reduction: a support point equal to any of them means
        // no progress (Box2D's duplicate check, which also prevents cycling).
        let mut saved = [(usize::MAX, usize::MAX); 3];
        for (dst, v) in saved.iter_mut().zip(s.vertices()) {
            *dst = (v.sp.index_a, v.sp.index_b);
        }
        let saved_count = s.count;
        s.do_simplex();
        if s.count == 3 {
            record(rec, &s, Vec2::ZERO, None, Some(GjkEnd::ContainsOrigin));
            break GjkEnd::ContainsOrigin;
        }
        let d = s.search_direction();
        if d.length_squared() < f32::EPSILON * f32::EPSILON {
            record(rec, &s, d, None, Some(GjkEnd::OriginOnSimplex));
            break GjkEnd::OriginOnSimplex;
        }
        if iterations == GJK_MAX_ITERATIONS {
            record(rec, &s, d, None, Some(GjkEnd::MaxIterations));
            break GjkEnd::MaxIterations;
        }
        let sp = support(pa, pb, d);
        iterations += 1;
        if Simplex::contains_vertex(&saved[..saved_count], &sp) {
            record(rec, &s, d, Some(sp), Some(GjkEnd::DuplicateSupport));
            break GjkEnd::DuplicateSupport;
        }
        record(rec, &s, d, Some(sp), None);
        s.v[s.count] = SimplexVertex { sp, bary: 0.0 };
        s.count += 1;
    };
    (s, iterations, end)
}

#[inline(always)]
fn record<R: Recorder<GjkStep>>(rec: &mut R, s: &Simplex, d: Vec2, sp: Option<SupportPoint>, end: Option<GjkEnd>) {
    if R::ENABLED {
        rec.record(GjkStep {
            simplex: s.vertices().to_vec(),
            closest: s.closest_point(),
            direction: d,
            support: sp,
            end,
        });
    }
}

/// Closest points from the barycentric weights, then the radii (Box2D's `useRadii`).
#[inline]
pub(crate) fn finish(pa: &Proxy, pb: &Proxy, s: Simplex, iterations: usize, end: GjkEnd) -> GjkOutput {
    let (ca, cb) = s.witness_points();
    let scale = s.vertices().iter().fold(f32::MIN_POSITIVE, |m, v| m.max(v.sp.w.abs().max_element()));
    let tol = GJK_TOLERANCE * scale;
    let core_distance = if s.count == 3 { 0.0 } else { ca.distance(cb) };
    let radius = pa.radius + pb.radius;
    let overlap = s.count == 3 || core_distance - radius <= tol;
    let mut normal = if core_distance > tol { (cb - ca) / core_distance } else { Vec2::ZERO };
    if s.count == 2 && normal != Vec2::ZERO {
        // The closest feature is a face of one shape: its own normal is more precise than the
        // direction between two nearby witness points.
        let (v0, v1) = ((s.v[0].sp.index_a, s.v[0].sp.index_b), (s.v[1].sp.index_a, s.v[1].sp.index_b));
        // (The simplex's order is arbitrary; a capsule's segment is a face both ways.)
        for (x, y) in [(v0, v1), (v1, v0)] {
            match minkowski_face_normal(pa, pb, x, y) {
                Some(n) if n.dot(normal) > 0.99 => {
                    normal = n;
                    break;
                }
                _ => {}
            }
        }
    }
    let (point_a, point_b) = (ca + pa.radius * normal, cb - pb.radius * normal);
    let distance = if overlap { 0.0 } else { core_distance - radius };
    GjkOutput { overlap, distance, point_a, point_b, normal, core_distance, simplex: s, iterations, end }
}

/// GJK between two shapes at their poses (world space in, world space out). The proxies are
/// built relative to A's position, which keeps precision for shapes far from the origin.
pub fn distance(a: &Shape, xfa: &Transform, b: &Shape, xfb: &Transform, mut trace: Option<&mut GjkTrace>) -> GjkOutput {
    let mut out = match trace.as_deref_mut() {
        Some(t) => gjk(&Proxy::from_shape(a, xfa, xfa.p), &Proxy::from_shape(b, xfb, xfa.p), Some(t)),
        None => gjk_lazy_normals(a, xfa, b, xfb),
    };
    out.point_a += xfa.p;
    out.point_b += xfa.p;
    out.simplex.shift(xfa.p);
    if let Some(t) = trace {
        t.shift(xfa.p);
    }
    out
}

/// `gjk(.., None)` on the shapes' proxies relative to A's position, the polygons' normals
/// rotated only where [`finish`] reads them (the face normal of a two-point simplex, at its
/// vertices' indices) rather than all of them up front: the same output, bit for bit.
#[inline]
fn gjk_lazy_normals(a: &Shape, xfa: &Transform, b: &Shape, xfb: &Transform) -> GjkOutput {
    let mut pa = Proxy::core_from_shape(a, xfa, xfa.p);
    let mut pb = Proxy::core_from_shape(b, xfb, xfa.p);
    let (s, iterations, end) = gjk_iterate(&pa, &pb, start_simplex(&pa, &pb), &mut NoTrace);
    if s.count == 2 {
        for v in s.vertices() {
            pa.fill_normal(a, xfa, v.sp.index_a);
            pb.fill_normal(b, xfb, v.sp.index_b);
        }
    }
    finish(&pa, &pb, s, iterations, end)
}

/// Whether two shapes touch or overlap (GJK's boolean answer).
pub fn overlap(a: &Shape, xfa: &Transform, b: &Shape, xfb: &Transform) -> bool {
    distance(a, xfa, b, xfb, None).overlap
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(w: Vec2) -> SimplexVertex {
        SimplexVertex { sp: SupportPoint { w, a: w, b: Vec2::ZERO, index_a: 0, index_b: 0 }, bary: 0.0 }
    }

    #[test]
    fn solve2_and_solve3_keep_the_feature_nearest_the_origin() {
        let mut s =
            Simplex { v: [vertex(Vec2::new(-1.0, 1.0)), vertex(Vec2::new(1.0, 1.0)), vertex(Vec2::ZERO)], count: 2 };
        s.do_simplex();
        assert_eq!(s.count, 2);
        assert!((s.closest_point() - Vec2::Y).length() < 1e-6);
        assert!((s.search_direction().normalize() + Vec2::Y).length() < 1e-6);
        // A triangle around the origin keeps all three points; one beside it keeps an edge.
        s = Simplex { v: [vertex(Vec2::new(-1.0, -1.0)), vertex(Vec2::new(1.0, -1.0)), vertex(Vec2::Y)], count: 3 };
        s.do_simplex();
        assert_eq!(s.count, 3);
        s = Simplex {
            v: [vertex(Vec2::new(2.0, -1.0)), vertex(Vec2::new(2.0, 1.0)), vertex(Vec2::new(4.0, 0.0))],
            count: 3,
        };
        s.do_simplex();
        assert_eq!(s.count, 2);
        assert!((s.closest_point() - Vec2::new(2.0, 0.0)).length() < 1e-6);
    }

    /// The untraced distance rotates the polygons' normals lazily; the traced one builds whole
    /// proxies. Both give the same output, bit for bit, on random polygons (rounded ones too),
    /// capsules and circles, apart and overlapping.
    #[test]
    fn lazy_normals_give_the_whole_proxies_output() {
        let mut rng = crate::engine::rng::SplitMix64(7);
        let shape = |rng: &mut crate::engine::rng::SplitMix64| match rng.f32(0.0, 4.0) as usize {
            0 => Shape::circle(rng.f32(0.1, 1.0)).unwrap(),
            3 => {
                let half = Vec2::new(rng.f32(0.2, 1.0), rng.f32(0.2, 1.0));
                Shape::Polygon(crate::engine::shape::Polygon::make_rounded_box(half, rng.f32(0.01, 0.3)).unwrap())
            }
            1 => Shape::capsule(Vec2::new(-rng.f32(0.1, 1.0), 0.0), Vec2::new(rng.f32(0.1, 1.0), 0.0), 0.3).unwrap(),
            _ => {
                let n = 3 + rng.f32(0.0, 5.99) as usize;
                let pts: Vec<Vec2> = (0..n)
                    .map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / n as f32) * rng.f32(0.5, 1.5))
                    .collect();
                Shape::Polygon(crate::engine::shape::Polygon::hull(&pts).unwrap())
            }
        };
        let mut faces = 0;
        for _ in 0..500 {
            let (a, b) = (shape(&mut rng), shape(&mut rng));
            let xa = Transform::new(Vec2::new(rng.f32(-50.0, 50.0), rng.f32(-5.0, 5.0)), rng.f32(-3.1, 3.1));
            let xb =
                Transform::new(xa.p + Vec2::from_angle(rng.f32(-3.1, 3.1)) * rng.f32(0.5, 4.0), rng.f32(-3.1, 3.1));
            let mut t = GjkTrace::new();
            let whole = distance(&a, &xa, &b, &xb, Some(&mut t));
            let lazy = distance(&a, &xa, &b, &xb, None);
            assert_eq!(format!("{whole:?}"), format!("{lazy:?}"));
            faces += usize::from(lazy.simplex.count == 2 && !lazy.overlap);
        }
        assert!(faces > 100, "the face-normal path ran ({faces} times)");
    }

    #[test]
    fn traced_distance_equals_untraced() {
        let b = Shape::make_box(Vec2::ONE).unwrap();
        let (xa, xb) = (Transform::new(Vec2::new(10.0, 0.0), 0.3), Transform::new(Vec2::new(14.0, 1.0), -0.2));
        let mut t = GjkTrace::new();
        let traced = distance(&b, &xa, &b, &xb, Some(&mut t));
        assert_eq!(traced, distance(&b, &xa, &b, &xb, None));
        assert_eq!(t.result, Some(traced));
        assert!(t.steps.last().and_then(|s| s.end).is_some());
    }
}
