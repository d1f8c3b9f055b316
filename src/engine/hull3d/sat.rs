//! Hull vs hull by the separating axis theorem, after article 001: "project each vertex from
//! each hull onto the separating axis with the dot product"; face normals of A and of B, then
//! every non-parallel edge pair; the largest separation wins, giving a contact point and a
//! minimum translation vector.
//!
//! [`SatConfig::ARTICLE`] is the article's code to the letter (its worked example is reproduced
//! digit for digit in `tests/hull3d.rs`). [`SatConfig::ROBUST`] (the default) fixes three
//! things the article does that lose the exact depth: it skips faces whose plane has the whole
//! other hull behind it, it skips edge pairs up to 30° from parallel (`|N| < 0.5`), and it
//! orients an edge axis by comparing `N·b0` with `N·a0`; here the axis points away from A's
//! centre (Gregorius, GDC 2013), all non-degenerate pairs are scored, and both interval orders
//! are checked for separation. [`SatConfig::FAST`] also skips the edge pairs that do not form
//! a face of the Minkowski difference (the Gauss-map test in [`super::gauss`]).
//!
//! Tie-break: the article keeps the first of equal separations (strict `>`) within each query,
//! and between queries prefers A's faces, then B's faces, then edges (B's faces and the edges
//! only win when strictly greater). All presets follow it, except that the non-article ones,
//! among edge pairs within rounding (1e-6 of the scale) of each other, keep the pair whose
//! edges realize the separation (`N·(b0 − a0) = s`), since parallel edges tie on one axis and
//! only that pair's lines give the right contact point.

use super::gauss::classify_arc_pair;
use super::hull::{Hull, Plane};
pub use super::lines::closest_points_between_lines;
use super::trace::{AxisKind, AxisRecord, AxisSkip, SatStep3, SatTrace3};
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec3;

/// Arc pairs within this of crossing (products of unit-vector dot products) are scored too,
/// with full supports, so that degenerate Minkowski faces are not lost to rounding.
pub const MINKOWSKI_MARGIN: f32 = 1e-6;

/// [`SatConfig::GUARDED`]'s margin: a hundred times [`MINKOWSKI_MARGIN`], so pairs whose arcs
/// come within about 0.01 rad of crossing are kept and scored as well.
pub const GUARDED_MINKOWSKI_MARGIN: f32 = 1e-4;

/// How an edge–edge axis `N = ea × eb` is given its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeOrientation {
    /// The article: "flip edges that are pointing the wrong way", `if N·b0 > N·a0 { N = -N }`.
    VertexOrder,
    /// Away from A's centre: `if N·(a0 - centroid_A) < 0 { N = -N }` (Gregorius).
    AwayFromCentreA,
}

/// SAT settings; see the module docs for the three presets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatConfig {
    pub edge_orientation: EdgeOrientation,
    /// Edge pairs with `|unit(ea) × unit(eb)|` below this are skipped (the article: 0.5).
    pub parallel_tolerance: f32,
    /// Skip face axes with the other hull entirely behind the face (the article does).
    pub skip_faces_behind: bool,
    /// Only score edge pairs that form a Minkowski face (Gauss-map pruning, not in the article).
    pub minkowski_pruning: bool,
    /// How near to crossing (products of dot products) a pair of arcs may be and still be kept.
    pub minkowski_margin: f32,
    /// Score every kept pair with full supports, never with the edges standing in for them.
    pub full_supports: bool,
}

impl SatConfig {
    /// Article 001's code, quirks included.
    pub const ARTICLE: SatConfig = SatConfig {
        edge_orientation: EdgeOrientation::VertexOrder,
        parallel_tolerance: 0.5,
        skip_faces_behind: true,
        minkowski_pruning: false,
        minkowski_margin: MINKOWSKI_MARGIN,
        full_supports: true,
    };
    /// The article's algorithm with exact depth: every axis scored, axes oriented away from A.
    pub const ROBUST: SatConfig = SatConfig {
        edge_orientation: EdgeOrientation::AwayFromCentreA,
        parallel_tolerance: 1.0e-5,
        skip_faces_behind: false,
        minkowski_pruning: false,
        minkowski_margin: MINKOWSKI_MARGIN,
        full_supports: true,
    };
    /// [`SatConfig::ROBUST`] with Gauss-map pruning of the edge pairs.
    pub const FAST: SatConfig = SatConfig { minkowski_pruning: true, full_supports: false, ..SatConfig::ROBUST };
    /// The 3D world's robust mode: [`SatConfig::ROBUST`]'s full supports on the edge pairs that
    /// form a Minkowski face or come within [`GUARDED_MINKOWSKI_MARGIN`] of one. The SAT's
    /// answer is on a face or a Minkowski-face pair, so this scores every pair that can hold it
    /// with a wide guard band against rounding in the Gauss-map test (and, in the local frame,
    /// the support bound's slack widened to match), and trusts no shortcut for the separation
    /// itself; it costs a small multiple of the fast mode instead of edges × edges.
    pub const GUARDED: SatConfig = SatConfig {
        minkowski_pruning: true,
        minkowski_margin: GUARDED_MINKOWSKI_MARGIN,
        full_supports: true,
        ..SatConfig::ROBUST
    };
}

impl Default for SatConfig {
    fn default() -> Self {
        SatConfig::ROBUST
    }
}

/// The article's `getSupports` output `[minI, min, maxI, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Supports {
    pub min_index: usize,
    pub min: f32,
    pub max_index: usize,
    pub max: f32,
}

/// The vertices of `hull` with the least and greatest `N·p − N·Q` (article, `getSupports`).
#[inline]
pub fn get_supports(hull: &Hull, q: Vec3, n: Vec3) -> Supports {
    get_supports_plane(hull, &Plane::from_point_normal(q, n))
}

/// [`get_supports`] against a plane: signed distances of the extreme vertices.
#[inline]
pub fn get_supports_plane(hull: &Hull, plane: &Plane) -> Supports {
    let mut s = Supports { min_index: usize::MAX, min: f32::INFINITY, max_index: usize::MAX, max: f32::NEG_INFINITY };
    for (i, p) in hull.positions.iter().enumerate() {
        let d = plane.distance(*p);
        if d < s.min {
            s.min_index = i;
            s.min = d;
        }
        if d > s.max {
            s.max_index = i;
            s.max = d;
        }
    }
    s
}

/// The best face axis of one hull (the article's `qA` / `qB`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceQuery {
    /// `None` when every face was skipped (the article's `-1`).
    pub face: Option<usize>,
    /// The other hull's deepest vertex below that face.
    pub support: Option<usize>,
    pub separation: f32,
}

/// The best edge–edge axis (the article's `qE`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeQuery {
    /// `[edge of A, edge of B]`, `None` when no pair was scored.
    pub index: Option<[usize; 2]>,
    pub separation: f32,
    pub normal: Vec3,
}

/// An axis along which the hulls do not overlap: the SAT's early out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeparatingAxis {
    pub kind: AxisKind,
    pub axis: Vec3,
    pub separation: f32,
}

/// `query_face_directions(A, B)`: B's vertices against each face plane of `a` (article).
/// `Err` at the first face with all of B in front of it. `b_side` marks the call with the hulls
/// swapped (B's faces, A's vertices), which only changes how axes are labelled.
pub fn query_face_directions<R: Recorder<SatStep3>>(
    a: &Hull,
    b: &Hull,
    b_side: bool,
    config: &SatConfig,
    rec: &mut R,
) -> Result<FaceQuery, SeparatingAxis> {
    let mut out = FaceQuery { face: None, support: None, separation: f32::NEG_INFINITY };
    for (i, plane) in a.planes.iter().enumerate() {
        let s = get_supports_plane(b, plane);
        let kind = if b_side { AxisKind::FaceB { face: i } } else { AxisKind::FaceA { face: i } };
        let separating = s.min > 0.0 && s.max > 0.0;
        let behind = config.skip_faces_behind && s.min < 0.0 && s.max < 0.0;
        if R::ENABLED {
            let skipped = (behind && !separating).then_some(AxisSkip::Behind);
            let support = Some(s.min_index);
            rec.record(SatStep3::Axis(AxisRecord {
                kind,
                axis: plane.n,
                separation: s.min,
                support,
                skipped,
                separating,
            }));
        }
        if separating {
            return Err(SeparatingAxis { kind, axis: plane.n, separation: s.min });
        }
        if behind {
            continue;
        }
        if s.min > out.separation {
            out = FaceQuery { face: Some(i), support: Some(s.min_index), separation: s.min };
        }
    }
    Ok(out)
}

/// `query_edge_directions(A, B)`: the axis `N = ea × eb` of every non-parallel edge pair
/// (article), both hulls projected on it; `s = min_B − max_A`. `Err` at the first separating
/// pair.
pub fn query_edge_directions<R: Recorder<SatStep3>>(
    a: &Hull,
    b: &Hull,
    config: &SatConfig,
    rec: &mut R,
) -> Result<EdgeQuery, SeparatingAxis> {
    let mut out = EdgeQuery { index: None, separation: f32::NEG_INFINITY, normal: Vec3::ZERO };
    let mut best_gap_error = f32::INFINITY;
    let article = config.edge_orientation == EdgeOrientation::VertexOrder;
    for (i, &[ia0, ia1]) in a.edges.iter().enumerate() {
        let (a0, a1) = (a.positions[ia0], a.positions[ia1]);
        let tv0 = (a0 - a1).normalize();
        let [na, ma, ma_x_na] = a.arcs[i];
        for (j, &[ib0, ib1]) in b.edges.iter().enumerate() {
            let kind = AxisKind::Edges { edge_a: i, edge_b: j };
            // With pruning, a strict Minkowski face lets the edges stand in for the supports.
            let mut edges_support = false;
            if config.minkowski_pruning {
                // B's arc negated: c = −n, d = −m, d × c = m × n.
                let [nb, mb, mb_x_nb] = b.arcs[j];
                match classify_arc_pair(na, ma, ma_x_na, -nb, -mb, mb_x_nb, config.minkowski_margin) {
                    Some(strict) => edges_support = strict && !config.full_supports,
                    None => {
                        if R::ENABLED {
                            rec.record(SatStep3::Axis(skipped(kind, Vec3::ZERO, AxisSkip::NotMinkowskiFace)));
                        }
                        continue;
                    }
                }
            }
            let b0 = b.positions[ib0];
            let tv1 = (b0 - b.positions[ib1]).normalize();
            let mut n = tv0.cross(tv1);
            let len = n.length();
            if len.is_nan() || len < config.parallel_tolerance {
                if R::ENABLED {
                    rec.record(SatStep3::Axis(skipped(kind, Vec3::ZERO, AxisSkip::Parallel)));
                }
                continue;
            }
            n /= len;
            // "flip edges that are pointing the wrong way"
            let flip = if article { n.dot(b0) > n.dot(a0) } else { n.dot(a0 - a.centroid) < 0.0 };
            if flip {
                n = -n;
            }
            // `gap`: a separating axis (from A towards B) and the gap along it, if any.
            let (s, gap) = if edges_support {
                // On a Minkowski face a0 supports A along n and b0 supports B along -n.
                let s = n.dot(b0 - a0);
                (s, (s > 0.0).then_some((n, s)))
            } else {
                let sa = get_supports(a, a0, n);
                let sb = get_supports(b, a0, n);
                let s = sb.min - sa.max;
                // The article only checks `minA >= maxB` (B entirely behind A along n).
                let behind = if article { sa.min >= sb.max } else { sa.min > sb.max };
                let gap = if !article && s > 0.0 { Some((n, s)) } else { behind.then_some((-n, sa.min - sb.max)) };
                (s, gap)
            };
            if R::ENABLED {
                let (axis, separation) = gap.unwrap_or((n, s));
                let separating = gap.is_some();
                rec.record(SatStep3::Axis(AxisRecord {
                    kind,
                    axis,
                    separation,
                    support: None,
                    skipped: None,
                    separating,
                }));
            }
            if let Some((axis, separation)) = gap {
                return Err(SeparatingAxis { kind, axis, separation });
            }
            // The article keeps the first of equal separations. Parallel edges often tie (a
            // cube has four edges per direction); otherwise prefer the pair that realizes the
            // separation (a0 supports A, b0 supports B), whose lines give the right point.
            let better = if article {
                s > out.separation
            } else {
                let gap_error = (n.dot(b0 - a0) - s).abs();
                let tie = 1e-6 * (1.0 + a0.abs().max_element());
                s > out.separation + tie || (s > out.separation - tie && gap_error < best_gap_error)
            };
            if better {
                best_gap_error = (n.dot(b0 - a0) - s).abs();
                out = EdgeQuery { index: Some([i, j]), separation: s, normal: n };
            }
        }
    }
    Ok(out)
}

fn skipped(kind: AxisKind, axis: Vec3, why: AxisSkip) -> AxisRecord {
    AxisRecord { kind, axis, separation: f32::NAN, support: None, skipped: Some(why), separating: false }
}

/// Which axis won (the article's `info.type`: 0, 1, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactKind {
    FaceA = 0,
    FaceB = 1,
    Edges = 2,
}

/// The article's `collide` output, plus the three queries and a unified normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullContact {
    pub kind: ContactKind,
    /// The winner's separation (≤ 0; minus the penetration depth).
    pub separation: f32,
    /// Unit contact normal from A to B: A's face normal, minus B's, or the edge axis.
    pub normal: Vec3,
    /// The article's minimum translation vector, `−separation · normal`: moving **B** by it
    /// (or A by its opposite) separates the hulls.
    pub mtv: Vec3,
    /// The article's contact point: B's support vertex (face of A), A's (face of B), or the
    /// point of A's edge line closest to B's edge line (edges).
    pub point: Vec3,
    pub face_a: FaceQuery,
    pub face_b: FaceQuery,
    pub edges: EdgeQuery,
}

/// [`collide_with`] with [`SatConfig::ROBUST`] and no trace: `None` when separated.
pub fn collide(a: &Hull, b: &Hull) -> Option<HullContact> {
    collide_with(a, b, &SatConfig::ROBUST, None).ok()
}

/// The article's `collide(out, A, B)`: face queries A→B and B→A, then edge queries; the largest
/// separation wins with the article's tie-break (strict `>` in the order face A, face B, edges:
/// ties go to A's faces, then B's). `Err` carries the first separating axis found.
pub fn collide_with(
    a: &Hull,
    b: &Hull,
    config: &SatConfig,
    trace: Option<&mut SatTrace3>,
) -> Result<HullContact, SeparatingAxis> {
    match trace {
        Some(t) => {
            t.clear();
            collide_recorded(a, b, config, t)
        }
        None => collide_recorded(a, b, config, &mut NoTrace),
    }
}

/// [`collide_with`] generic over the recorder.
pub fn collide_recorded<R: Recorder<SatStep3>>(
    a: &Hull,
    b: &Hull,
    config: &SatConfig,
    rec: &mut R,
) -> Result<HullContact, SeparatingAxis> {
    let qa = query_face_directions(a, b, false, config, rec)?;
    let qb = query_face_directions(b, a, true, config, rec)?;
    let qe = query_edge_directions(a, b, config, rec)?;
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
            let (f, s) = (qa.face.unwrap_or(0), qa.support.unwrap_or(0));
            (a.normals[f], b.positions[s], AxisKind::FaceA { face: f })
        }
        ContactKind::FaceB => {
            let (f, s) = (qb.face.unwrap_or(0), qb.support.unwrap_or(0));
            (-b.normals[f], a.positions[s], AxisKind::FaceB { face: f })
        }
        ContactKind::Edges => {
            let [i, j] = qe.index.unwrap_or([0, 0]);
            let [a0, a1] = a.edge_segment(i);
            let [b0, b1] = b.edge_segment(j);
            // The article leaves a stale value when the lines are parallel; use A's edge middle.
            let point = closest_points_between_lines(a0, a1, b0, b1, 1e-6).map_or(a0.lerp(a1, 0.5), |(_, _, pa, _)| pa);
            (qe.normal, point, AxisKind::Edges { edge_a: i, edge_b: j })
        }
    };
    if R::ENABLED {
        rec.record(SatStep3::Winner(axis));
    }
    Ok(HullContact { kind, separation, normal, mtv: normal * -separation, point, face_a: qa, face_b: qb, edges: qe })
}
