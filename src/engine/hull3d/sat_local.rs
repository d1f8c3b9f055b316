//! Article 001's SAT with the speed a world needs, after Gregorius ("The Separating Axis Test
//! between Convex Polyhedra", GDC 2013):
//!
//! * **In A's local frame.** Neither hull is moved: B's vertices and face normals are taken into
//!   A's frame once per call (a few SIMD multiply-adds per four vertices, see [`super::accel`]),
//!   A's data is used as built, and only the results go to world space.
//! * **Gauss-map pruning** ([`SatConfig::FAST`]): an edge pair is scored only if its arcs cross
//!   (`IsMinkowskiFace`), and then `a0`, `b0` are the supports, so the separation is one dot
//!   product.
//! * **A support bound** (not in the talk; derived here). For a Minkowski-face pair (i, j) the
//!   axis `n` lies on A's arc `i`, between the normals `f, g` of the edge's faces, and
//!   `s = min_B n·b − n·a0 ≤ n·(v − a0)` for every vertex `v` of B. When `f·w < 0` and `g·w < 0`
//!   (`w = v − a0`), no point of the arc gives more than `max(f·w, g·w)` (an interior maximum
//!   would be the projection `p` of `w` on the arc's plane, a positive combination of `f, g` with
//!   `p·w = |p|² ≥ 0`). `f·w` is `v`'s signed distance to face `f`'s plane, which the face query
//!   has just computed for every vertex (the face–vertex distance matrix). So edge `i` can
//!   neither separate nor beat the best face axis `s_f` if some vertex of B lies deeper than
//!   `−min(s_f, 0)` below both of its faces, and is skipped; B's edges likewise with A's
//!   vertices (`s ≤ m·(a − b0)`, `m = −n` on B's arc). This keeps a handful of edges near the
//!   contact. Only done when not recording, so the trace still lists every Minkowski pair.
//! * **Hill-climbing supports** over the vertex adjacency on hulls of more than
//!   [`HILL_CLIMB_MIN_VERTICES`] vertices (the matrix is then not computed, and the bound uses
//!   two points: the deepest vertex under the best face and the centroid).
//! * **The previous separating axis first**: [`separation_along`] re-tests one remembered axis,
//!   which the world does before the full test.
//!
//! [`SatConfig::ROBUST`] (every non-parallel edge pair, full supports) also runs in the local
//! frame, where an edge pair whose cheap upper bound (its two edge vertices and each hull's
//! inscribed ball, `sat_edges::RobustBound`) can neither separate nor win is not given its
//! supports: the same winner, at a fraction of the cost; [`SatConfig::ARTICLE`]'s quirks need the moved hulls, so it falls back to
//! [`super::sat::collide_recorded`]. Results equal [`super::sat::collide_with`] on the moved
//! hulls up to rounding, except that `HullContact::edges` may come from fewer pairs when the
//! bound skipped some (it then cannot win).

use super::accel::{
    argmin_dot, hill_climb_min, min_dot, min_max_dot, plane, push_plane_row, transform_chunks, transform_planes,
    vertex, Chunk, PlaneChunk, HILL_CLIMB_MIN_VERTICES,
};
use super::hull::{Hull, Plane};
use super::lanes::F4;
use super::lines::closest_points_between_lines;
use super::pose::Pose3;
use super::sat::{
    collide_recorded, ContactKind, EdgeOrientation, EdgeQuery, FaceQuery, HullContact, SatConfig, SeparatingAxis,
};
use super::sat_edges::{query_edges, EdgeInput, EdgeScratch};
use super::trace::{AxisKind, AxisRecord, SatStep3};
use crate::engine::trace::{NoTrace, Recorder};
use glam::{Mat3, Vec3};

/// Reused buffers, so a query allocates nothing once warm.
#[derive(Clone, Debug, Default)]
pub struct SatScratch {
    /// B's vertices in A's frame.
    b_chunks: Vec<Chunk>,
    /// B's face planes in A's frame.
    b_planes: Vec<PlaneChunk>,
    /// The face–vertex distance matrices: A's planes against B's vertices, B's against A's
    /// (one row of lanes per face).
    rows_a: Vec<F4>,
    rows_b: Vec<F4>,
    edges: EdgeScratch,
}

/// [`collide_posed_with`] without margin or trace, with a thread-local scratch: `None` when
/// separated.
pub fn collide_posed(a: &Hull, xa: &Pose3, b: &Hull, xb: &Pose3, config: &SatConfig) -> Option<HullContact> {
    thread_local! {
        static SCRATCH: std::cell::RefCell<SatScratch> = std::cell::RefCell::new(SatScratch::default());
    }
    SCRATCH.with(|s| collide_posed_with(a, xa, b, xb, config, 0.0, &mut s.borrow_mut(), &mut NoTrace).ok())
}

/// The hull SAT on hulls `a`, `b` in their local frames, placed by `xa`, `xb`. Axes separate
/// when their separation exceeds `margin` (0 for the article's test; a world passes its
/// speculative margin and gets contacts with a small positive separation). Normals, points and
/// recorded axes are in world space; face and edge indices are the hulls' own.
#[allow(clippy::too_many_arguments)]
pub fn collide_posed_with<R: Recorder<SatStep3>>(
    a: &Hull,
    xa: &Pose3,
    b: &Hull,
    xb: &Pose3,
    config: &SatConfig,
    margin: f32,
    scratch: &mut SatScratch,
    rec: &mut R,
) -> Result<HullContact, SeparatingAxis> {
    if config.edge_orientation == EdgeOrientation::VertexOrder || config.skip_faces_behind {
        return collide_recorded(&a.transformed(xa), &b.transformed(xb), config, rec);
    }
    let rel = xa.inv_mul(xb);
    let (m, t) = (Mat3::from_quat(rel.q), rel.p);
    let to_world = |v: Vec3| xa.q * v;
    transform_chunks(&b.accel.chunks, &m, t, &mut scratch.b_chunks);
    let mt = m.transpose();

    // Face axes of A: B's vertices (in A's frame) against each face plane of A.
    let b_big = b.positions.len() > HILL_CLIMB_MIN_VERTICES;
    let mut start = 0;
    scratch.rows_a.clear();
    let qa = query_faces(a.planes.iter().copied(), false, margin, &to_world, rec, |p| {
        if b_big {
            let (k, v) = hill_climb_min(&b.positions, &b.accel, mt * p.n, start);
            start = k;
            v + p.n.dot(t) - p.d
        } else {
            push_plane_row(&scratch.b_chunks, p, &mut scratch.rows_a)
        }
    })?;
    let qa = with_support(qa, |f| argmin_dot(&scratch.b_chunks, b.positions.len(), a.planes[f].n));

    // Face axes of B, moved into A's frame, against A's vertices.
    transform_planes(&b.accel.planes, &m, t, &mut scratch.b_planes);
    let a_big = a.positions.len() > HILL_CLIMB_MIN_VERTICES;
    let b_planes = (0..b.planes.len()).map(|j| plane(&scratch.b_planes, j));
    let mut start = 0;
    scratch.rows_b.clear();
    let qb = query_faces(b_planes, true, margin, &to_world, rec, |p| {
        if a_big {
            let (k, v) = hill_climb_min(&a.positions, &a.accel, p.n, start);
            start = k;
            v - p.d
        } else {
            push_plane_row(&a.accel.chunks, p, &mut scratch.rows_b)
        }
    })?;
    let qb = with_support(qb, |f| argmin_dot(&a.accel.chunks, a.positions.len(), plane(&scratch.b_planes, f).n));

    let input = EdgeInput {
        a,
        b,
        m,
        b_chunks: &scratch.b_chunks,
        b_planes: &scratch.b_planes,
        t,
        rows: (!a_big && !b_big).then_some((&scratch.rows_a[..], &scratch.rows_b[..])),
        config,
        margin,
        to_world: xa.q,
    };
    let qe = query_edges(&input, (&qa, &qb), &mut scratch.edges, rec)?;
    Ok(finish(a, b, xa, (qa, qb, qe), scratch, rec))
}

/// The face axes of one hull (`planes`, in A's frame) against the other hull's vertices
/// (`separation(plane)`: their least signed distance to it). The article's
/// `queryFaceDirections` without the skip.
fn query_faces<R: Recorder<SatStep3>>(
    planes: impl Iterator<Item = Plane>,
    b_side: bool,
    margin: f32,
    to_world: &impl Fn(Vec3) -> Vec3,
    rec: &mut R,
    mut separation: impl FnMut(&Plane) -> f32,
) -> Result<FaceQuery, SeparatingAxis> {
    let mut out = FaceQuery { face: None, support: None, separation: f32::NEG_INFINITY };
    for (i, plane) in planes.enumerate() {
        let s = separation(&plane);
        let kind = if b_side { AxisKind::FaceB { face: i } } else { AxisKind::FaceA { face: i } };
        let separating = s > margin;
        if R::ENABLED {
            let axis = to_world(plane.n);
            rec.record(SatStep3::Axis(AxisRecord {
                kind,
                axis,
                separation: s,
                support: None,
                skipped: None,
                separating,
            }));
        }
        if separating {
            return Err(SeparatingAxis { kind, axis: to_world(plane.n), separation: s });
        }
        if s > out.separation {
            out = FaceQuery { face: Some(i), support: None, separation: s };
        }
    }
    Ok(out)
}

/// Fills in the support vertex of the best face (found once, for the winner only).
fn with_support(q: FaceQuery, support: impl FnOnce(usize) -> usize) -> FaceQuery {
    FaceQuery { support: q.face.map(support), ..q }
}

/// The article's choice among the three queries, then the normal and point in world space.
fn finish<R: Recorder<SatStep3>>(
    a: &Hull,
    b: &Hull,
    xa: &Pose3,
    (qa, qb, qe): (FaceQuery, FaceQuery, EdgeQuery),
    s: &SatScratch,
    rec: &mut R,
) -> HullContact {
    let mut kind = ContactKind::FaceA;
    let mut separation = qa.separation;
    if qb.separation > separation {
        kind = ContactKind::FaceB;
        separation = qb.separation;
    }
    if qe.separation > separation {
        kind = ContactKind::Edges;
        separation = qe.separation;
    }
    let (normal, point, axis) = match kind {
        ContactKind::FaceA => {
            let (f, sup) = (qa.face.unwrap_or(0), qa.support.unwrap_or(0));
            (xa.q * a.normals[f], vertex(&s.b_chunks, sup), AxisKind::FaceA { face: f })
        }
        ContactKind::FaceB => {
            let (f, sup) = (qb.face.unwrap_or(0), qb.support.unwrap_or(0));
            (-(xa.q * plane(&s.b_planes, f).n), a.positions[sup], AxisKind::FaceB { face: f })
        }
        ContactKind::Edges => {
            let [i, j] = qe.index.unwrap_or([0, 0]);
            let [a0, a1] = a.edge_segment(i);
            let [j0, j1] = b.edges[j];
            let (b0, b1) = (vertex(&s.b_chunks, j0), vertex(&s.b_chunks, j1));
            let point = closest_points_between_lines(a0, a1, b0, b1, 1e-6).map_or(a0.lerp(a1, 0.5), |(_, _, p, _)| p);
            (qe.normal, point, AxisKind::Edges { edge_a: i, edge_b: j })
        }
    };
    if R::ENABLED {
        rec.record(SatStep3::Winner(axis));
    }
    let point = xa.transform_point(point);
    HullContact { kind, separation, normal, mtv: normal * -separation, point, face_a: qa, face_b: qb, edges: qe }
}

/// The separation of the posed hulls along one axis named by `kind` (positive: the axis
/// separates them), as the SAT would score it with full supports; `None` for an index out of
/// range or a parallel edge pair. A world tests last step's separating axis with it first.
pub fn separation_along(a: &Hull, xa: &Pose3, b: &Hull, xb: &Pose3, kind: AxisKind) -> Option<f32> {
    let rel = xa.inv_mul(xb);
    let (m, t) = (Mat3::from_quat(rel.q), rel.p);
    let mt = m.transpose();
    match kind {
        AxisKind::FaceA { face } => {
            let p = a.planes.get(face)?;
            Some(min_dot(&b.accel.chunks, mt * p.n) + p.n.dot(t) - p.d)
        }
        AxisKind::FaceB { face } => {
            let p = b.planes.get(face)?;
            let n = m * p.n;
            Some(min_dot(&a.accel.chunks, n) - (p.d + n.dot(t)))
        }
        AxisKind::Edges { edge_a, edge_b } => {
            let (ea, eb) = (*a.accel.edge_dirs.get(edge_a)?, m * *b.accel.edge_dirs.get(edge_b)?);
            let mut n = ea.cross(eb);
            let len = n.length();
            if len.is_nan() || len < 1e-5 {
                return None;
            }
            n /= len;
            if n.dot(a.positions[a.edges[edge_a][0]] - a.centroid) < 0.0 {
                n = -n;
            }
            let (amin, amax) = min_max_dot(&a.accel.chunks, n);
            let (bmin, bmax) = min_max_dot(&b.accel.chunks, mt * n);
            let nt = n.dot(t);
            Some((bmin + nt - amax).max(amin - (bmax + nt)))
        }
    }
}
