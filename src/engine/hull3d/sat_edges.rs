//! The edge–edge half of the local-frame SAT ([`super::sat_local`]): article 001's
//! `queryEdgeDirections` in A's frame, over the edges the support bound keeps, with Gregorius's
//! `IsMinkowskiFace` test run on four of B's arcs at once.
//!
//! The support bound (derivation in [`super::sat_local`]) reads the face–vertex distance
//! matrices the face queries filled: an edge with faces `f, g` is skipped when some vertex of
//! the other hull lies below both planes by more than `−min(best face separation, 0)` (plus a
//! slack). Without the matrices (hill-climbing supports on large hulls) two points stand in for
//! all vertices: the deepest vertex under the best face and the centroid.

use super::accel::{min_max_dot, plane, plane_distances, vertex, Chunk, PlaneChunk};
use super::gauss::classify_arc_pair;
use super::hull::Hull;
use super::lanes::{splat3, F4};
use super::sat::{EdgeQuery, FaceQuery, SatConfig, SeparatingAxis, MINKOWSKI_MARGIN};
use super::trace::{AxisKind, AxisRecord, AxisSkip, SatStep3};
use crate::engine::trace::Recorder;
use glam::{Mat3, Vec3};

/// Slack of the support bound, relative to the lever `|w|`: pairs accepted within the Minkowski
/// margin have axes up to ~1e-3 rad off their arcs.
const BOUND_SLACK: f32 = 4e-3;

/// Reused buffers of the edge query.
#[derive(Clone, Debug, Default)]
pub(crate) struct EdgeScratch {
    a_edges: Vec<usize>,
    b_edges: Vec<EdgeB>,
    /// The kept B edges' arcs four at a time: `[cx, cy, cz, dx, dy, dz]`.
    b_arcs: Vec<[F4; 6]>,
    /// `(c·u)(d·u)` of the kept B edges for one A edge's `u = b × a`.
    products: Vec<[f32; 4]>,
    /// Plane distances of the bounding points and per-face flags.
    distances: [Vec<[f32; 4]>; 2],
    flags: Vec<u8>,
}

/// One edge of B in A's frame, with its negated Gauss arc `c, d` and `d × c`.
#[derive(Clone, Copy, Debug, Default)]
struct EdgeB {
    j: usize,
    c: Vec3,
    d: Vec3,
    d_x_c: Vec3,
    b0: Vec3,
    dir: Vec3,
}

/// What the edge query reads: the hulls, B's data in A's frame, the settings.
pub(crate) struct EdgeInput<'a> {
    pub a: &'a Hull,
    pub b: &'a Hull,
    /// B's rotation into A's frame.
    pub m: Mat3,
    /// B's vertices and face planes in A's frame.
    pub b_chunks: &'a [Chunk],
    pub b_planes: &'a [PlaneChunk],
    /// B's pose in A's frame: `x ↦ m x + t`.
    pub t: Vec3,
    /// The face–vertex distance matrices of the face queries (A's faces × B's vertex chunks,
    /// B's faces × A's), when both were computed in full.
    pub rows: Option<(&'a [F4], &'a [F4])>,
    pub config: &'a SatConfig,
    pub margin: f32,
    /// A's rotation to world space (for reported axes).
    pub to_world: glam::Quat,
}

/// `queryEdgeDirections` in A's frame. `faces` are the two face queries, with supports.
pub(crate) fn query_edges<R: Recorder<SatStep3>>(
    input: &EdgeInput,
    faces: (&FaceQuery, &FaceQuery),
    s: &mut EdgeScratch,
    rec: &mut R,
) -> Result<EdgeQuery, SeparatingAxis> {
    keep_edges(input, faces, R::ENABLED, s);
    let config = input.config;
    let full = !config.minkowski_pruning || config.full_supports;
    let robust = (!R::ENABLED && full).then(|| RobustBound::new(input, faces));
    let mut best = Best {
        query: EdgeQuery { index: None, separation: f32::NEG_INFINITY, normal: Vec3::ZERO },
        error: f32::INFINITY,
    };
    let a = input.a;
    for &i in &s.a_edges {
        let edge = EdgeA::new(a, i);
        if R::ENABLED || !input.config.minkowski_pruning {
            for e in &s.b_edges {
                score_pair(input, &edge, e, &mut best, robust.as_ref(), rec)?;
            }
            continue;
        }
        // IsMinkowskiFace's first test, `(c·(b×a)) (d·(b×a)) < 0`, on four arcs at a time
        // (stored, then filtered: reading lanes inside the loop would stop the vectorizer); the
        // full test runs on the few that pass.
        let u = splat3(edge.arc[2]);
        s.products.clear();
        s.products.extend(
            s.b_arcs
                .iter()
                .map(|[cx, cy, cz, dx, dy, dz]| F4::dot3(*cx, *cy, *cz, u).mul(F4::dot3(*dx, *dy, *dz, u)).0),
        );
        for (e, &p) in s.b_edges.iter().zip(s.products.as_flattened()) {
            if p < config.minkowski_margin {
                score_pair(input, &edge, e, &mut best, robust.as_ref(), rec)?;
            }
        }
    }
    best.query.normal = input.to_world * best.query.normal;
    Ok(best.query)
}

/// Fills `s` with the edges of A and B that survive the support bound (all of them when
/// recording or without Gauss-map pruning, where the bound does not hold). The bound's slack
/// grows with the Minkowski margin ([`slack`]), so the guarded mode skips fewer edges.
fn keep_edges(input: &EdgeInput, (qa, qb): (&FaceQuery, &FaceQuery), recording: bool, s: &mut EdgeScratch) {
    let (a, b) = (input.a, input.b);
    s.a_edges.clear();
    s.b_edges.clear();
    s.b_arcs.clear();
    let config = input.config;
    let bound = match (config.minkowski_pruning && !recording, qa.support, qb.support) {
        (true, Some(sb), Some(sa)) => Some((qa.separation.max(qb.separation).min(0.0), sb, sa)),
        _ => None,
    };
    if let (Some((limit, _, _)), Some((rows_a, rows_b))) = (bound, input.rows) {
        // Every vertex of the other hull bounds the edge: keep it if none lies below both of
        // its faces by more than the limit.
        let threshold = limit - slack(input);
        let kept = |rows: &[F4], stride: usize, [f, g]: [usize; 2]| {
            let (rf, rg) = (&rows[f * stride..][..stride], &rows[g * stride..][..stride]);
            rf.iter().zip(rg).fold(F4::INFINITY, |m, (x, y)| m.min(x.max(*y))).min_element() >= threshold
        };
        let (sa, sb) = (input.b_chunks.len(), a.accel.chunks.len());
        s.a_edges.extend((0..a.edges.len()).filter(|&i| kept(rows_a, sa, a.edge_faces[i])));
        for j in 0..b.edges.len() {
            if kept(rows_b, sb, b.edge_faces[j]) {
                s.b_edges.push(edge_b(input, j));
            }
        }
    } else if let Some((limit, sb, sa)) = bound {
        // Points of B for A's edges (in A's frame), of A for B's edges (in B's frame).
        let b_centroid = input.m * b.centroid + input.t;
        let to_b = |p: Vec3| input.m.transpose() * (p - input.t);
        let threshold = limit - slack(input);
        face_flags(&a.accel.planes, [vertex(input.b_chunks, sb), b_centroid], threshold, s);
        let flags = &s.flags;
        s.a_edges.extend((0..a.edges.len()).filter(|&i| {
            let [f, g] = a.edge_faces[i];
            flags[f] | flags[g] == 3
        }));
        face_flags(&b.accel.planes, [to_b(a.positions[sa]), to_b(a.centroid)], threshold, s);
        for j in 0..b.edges.len() {
            let [f, g] = b.edge_faces[j];
            if s.flags[f] | s.flags[g] == 3 {
                s.b_edges.push(edge_b(input, j));
            }
        }
    } else {
        s.a_edges.extend(0..a.edges.len());
        s.b_edges.extend((0..b.edges.len()).map(|j| edge_b(input, j)));
    }
    if let Some(&last) = s.b_edges.last() {
        for four in s.b_edges.chunks(4) {
            let e = |k: usize| four.get(k).copied().unwrap_or(last);
            let (e0, e1, e2, e3) = (e(0), e(1), e(2), e(3));
            let lanes = |f: fn(&EdgeB) -> f32| F4([f(&e0), f(&e1), f(&e2), f(&e3)]);
            s.b_arcs.push([
                lanes(|e| e.c.x),
                lanes(|e| e.c.y),
                lanes(|e| e.c.z),
                lanes(|e| e.d.x),
                lanes(|e| e.d.y),
                lanes(|e| e.d.z),
            ]);
        }
    }
}

/// How far below the limit a bound must be to skip an edge: axes of pairs accepted within the
/// Minkowski margin are up to ~1e-3 rad off their arcs (times the lever `|w|`, at most the
/// distance between the centres plus both radii), planes pass through the outermost vertex of
/// nearly flat faces (`flatness`), and rounding.
fn slack(input: &EdgeInput) -> f32 {
    let (a, b) = (input.a, input.b);
    let lever = (input.m * b.centroid + input.t).distance(a.centroid) + a.accel.radius + b.accel.radius;
    let scale = a.centroid.length() + b.centroid.length() + lever;
    // A wider Minkowski margin keeps axes further off their arcs: the angle grows as its root.
    let off_arc = BOUND_SLACK * (input.config.minkowski_margin / MINKOWSKI_MARGIN).sqrt();
    off_arc * lever + a.accel.flatness.max(b.accel.flatness) + 1e-6 * scale
}

/// `s.flags[f]`: bit `k` set when point `k` is not below face `f` by more than `-threshold`.
fn face_flags(planes: &[PlaneChunk], points: [Vec3; 2], threshold: f32, s: &mut EdgeScratch) {
    for (d, p) in s.distances.iter_mut().zip(points) {
        plane_distances(planes, p, d);
    }
    let (d0, d1) = (s.distances[0].as_flattened(), s.distances[1].as_flattened());
    s.flags.clear();
    s.flags.extend(d0.iter().zip(d1).map(|(x, y)| (*x >= threshold) as u8 | ((*y >= threshold) as u8) << 1));
}

/// B's edge `j` in A's frame.
fn edge_b(input: &EdgeInput, j: usize) -> EdgeB {
    let b = input.b;
    let [f, g] = b.edge_faces[j];
    let (nf, ng) = (plane(input.b_planes, f).n, plane(input.b_planes, g).n);
    let b0 = vertex(input.b_chunks, b.edges[j][0]);
    EdgeB { j, c: -nf, d: -ng, d_x_c: ng.cross(nf), b0, dir: input.m * b.accel.edge_dirs[j] }
}

/// One edge of A: its index, first vertex, direction, Gauss arc and outward lever.
struct EdgeA {
    i: usize,
    a0: Vec3,
    dir: Vec3,
    arc: [Vec3; 3],
    outward: Vec3,
}

impl EdgeA {
    fn new(a: &Hull, i: usize) -> EdgeA {
        let a0 = a.positions[a.edges[i][0]];
        EdgeA { i, a0, dir: a.accel.edge_dirs[i], arc: a.arcs[i], outward: a0 - a.centroid }
    }
}

/// The best pair so far and its gap error (for the tie-break).
struct Best {
    query: EdgeQuery,
    error: f32,
}

/// A cheap upper bound on an edge pair's separation, for the robust mode (every edge pair,
/// full supports) when it is not recording. Along the pair's axis `n` (pointing away from A's
/// centre), A reaches at least as far as its edge's vertex `a0` and as the ball of its inradius
/// about its centroid, and B reaches at least as low as `b0` and its own ball, so
/// `min_B n·b − max_A n·a ≤ min(n·b0, n·c_B − r_B) − max(n·a0, n·c_A + r_A)`, and likewise the
/// reversed order. A pair whose bound cannot beat the best edge pair so far, nor the best face
/// (edges win only when strictly greater), nor separate, is not given its supports: the winner
/// is the exhaustive one, and only `HullContact::edges` may come from fewer pairs when a face
/// wins (as with the fast mode's bound).
struct RobustBound {
    centre_a: Vec3,
    centre_b: Vec3,
    radius_a: f32,
    radius_b: f32,
    /// The best face separation: an edge pair must exceed it to win.
    face_limit: f32,
    /// Rounding of the bound against the scored separation, and the faces' flatness.
    slack: f32,
}

impl RobustBound {
    fn new(input: &EdgeInput, (qa, qb): (&FaceQuery, &FaceQuery)) -> RobustBound {
        let (a, b) = (input.a, input.b);
        let inradius = |h: &Hull| h.planes.iter().map(|p| -p.distance(h.centroid)).fold(f32::INFINITY, f32::min);
        let flatness = a.accel.flatness + b.accel.flatness;
        let centre_b = input.m * b.centroid + input.t;
        let scale = a.centroid.abs().max_element() + centre_b.abs().max_element() + a.accel.radius + b.accel.radius;
        RobustBound {
            centre_a: a.centroid,
            centre_b,
            radius_a: (inradius(a) - flatness).max(0.0),
            radius_b: (inradius(b) - flatness).max(0.0),
            face_limit: qa.separation.max(qb.separation),
            slack: 1e-5 * (1.0 + scale),
        }
    }

    /// Whether the pair with axis `n` (oriented away from A) can be left unscored: it can
    /// neither separate by `margin` nor reach `best` (the best edge pair's separation less its
    /// tie band) or the best face.
    #[inline(always)]
    fn cannot_matter(&self, n: Vec3, a0: Vec3, b0: Vec3, best: f32, margin: f32) -> bool {
        let (na, nb) = (n.dot(a0), n.dot(b0));
        let (ca, cb) = (n.dot(self.centre_a), n.dot(self.centre_b));
        let forward = nb.min(cb - self.radius_b) - na.max(ca + self.radius_a);
        let reversed = na.min(ca - self.radius_a) - nb.max(cb + self.radius_b);
        let limit = best.max(self.face_limit).min(margin);
        forward + self.slack < limit && reversed + self.slack < margin
    }
}

/// Scores one edge pair as the world-space FAST SAT does; `Err` if its axis separates.
#[inline(always)]
fn score_pair<R: Recorder<SatStep3>>(
    input: &EdgeInput,
    ea: &EdgeA,
    e: &EdgeB,
    best: &mut Best,
    bound: Option<&RobustBound>,
    rec: &mut R,
) -> Result<(), SeparatingAxis> {
    let kind = AxisKind::Edges { edge_a: ea.i, edge_b: e.j };
    let mut edges_support = false;
    if input.config.minkowski_pruning {
        let [na, ma, ma_x_na] = ea.arc;
        match classify_arc_pair(na, ma, ma_x_na, e.c, e.d, e.d_x_c, input.config.minkowski_margin) {
            Some(strict) => edges_support = strict && !input.config.full_supports,
            None => {
                if R::ENABLED {
                    rec.record(SatStep3::Axis(skipped(kind, AxisSkip::NotMinkowskiFace)));
                }
                return Ok(());
            }
        }
    }
    let mut n = ea.dir.cross(e.dir);
    let len = n.length();
    if len.is_nan() || len < input.config.parallel_tolerance {
        if R::ENABLED {
            rec.record(SatStep3::Axis(skipped(kind, AxisSkip::Parallel)));
        }
        return Ok(());
    }
    n /= len;
    if n.dot(ea.outward) < 0.0 {
        n = -n;
    }
    let margin = input.margin;
    let tie = 1e-6 * (1.0 + ea.a0.abs().max_element());
    if bound.is_some_and(|b| b.cannot_matter(n, ea.a0, e.b0, best.query.separation - tie, margin)) {
        return Ok(());
    }
    let (sep, gap) = if edges_support {
        // On a Minkowski face a0 supports A along n and b0 supports B along −n.
        let sep = n.dot(e.b0 - ea.a0);
        (sep, (sep > margin).then_some((n, sep)))
    } else {
        let (amin, amax) = min_max_dot(&input.a.accel.chunks, n);
        let (bmin, bmax) = min_max_dot(input.b_chunks, n);
        let sep = bmin - amax;
        let gap = if sep > margin { Some((n, sep)) } else { (amin - bmax > margin).then_some((-n, amin - bmax)) };
        (sep, gap)
    };
    if R::ENABLED {
        let (axis, separation) = gap.unwrap_or((n, sep));
        let axis = input.to_world * axis;
        rec.record(SatStep3::Axis(AxisRecord {
            kind,
            axis,
            separation,
            support: None,
            skipped: None,
            separating: gap.is_some(),
        }));
    }
    if let Some((axis, separation)) = gap {
        return Err(SeparatingAxis { kind, axis: input.to_world * axis, separation });
    }
    // The world-space SAT's tie-break: parallel edges tie, keep the pair that realizes the
    // separation.
    let gap_error = (n.dot(e.b0 - ea.a0) - sep).abs();
    let q = &best.query;
    if sep > q.separation + tie || (sep > q.separation - tie && gap_error < best.error) {
        best.error = gap_error;
        best.query = EdgeQuery { index: Some([ea.i, e.j]), separation: sep, normal: n };
    }
    Ok(())
}

fn skipped(kind: AxisKind, why: AxisSkip) -> AxisRecord {
    AxisRecord { kind, axis: Vec3::ZERO, separation: f32::NAN, support: None, skipped: Some(why), separating: false }
}
