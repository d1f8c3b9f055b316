//! Finding contacts: for each candidate pair ([`super::pairs`]) the remembered separating axis
//! first ("the previous frame's separating axis as first candidate", Gregorius GDC 2013) and
//! otherwise the local-frame hull SAT with the speculative margin, its manifold with feature
//! ids, and the previous contact's impulses carried over by id.
//!
//! The SAT's winner is exact; for contacts the world prefers faces (Gregorius, "Robust Contact
//! Creation for Physics Simulations", GDC 2015): in a resting stack an edge pair ties with the
//! face axis and rounding would otherwise turn four face points into one edge point. An edge
//! axis wins only if it beats the best face by [`EDGE_PREFERENCE`] plus 2 % of the depth, and B's
//! face beats A's only by a tenth of that (so the reference face does not flip between steps).

use super::body::Body3;
use super::contact::{mix_material, mix_part_material, Contact3, SatDecision};
use super::params::World3Params;
use crate::engine::hull3d::sat_local::collide_posed_with;
use crate::engine::hull3d::{
    contact_manifold_posed, separation_along, AxisKind, ContactKind, FeatureManifold, Hull, HullContact, Pose3,
    SatConfig, SatScratch,
};
use crate::engine::trace::NoTrace;
use crate::engine::LINEAR_SLOP;
use serde::{Deserialize, Serialize};

/// How much shallower an edge axis must be than the best face axis to make an edge contact.
pub const EDGE_PREFERENCE: f32 = 0.5 * LINEAR_SLOP;

/// The SAT result `hit` with faces preferred (module docs).
pub fn prefer_faces(hit: &HullContact, (a, xa): (&Hull, &Pose3), (b, xb): (&Hull, &Pose3)) -> HullContact {
    let (fa, fb) = (hit.face_a, hit.face_b);
    let margin = |s: f32, abs: f32| abs + 0.02 * s.abs();
    let use_b = fb.separation > fa.separation + margin(fa.separation, 0.1 * EDGE_PREFERENCE);
    let face = if use_b { fb } else { fa };
    let edge_wins =
        hit.kind == ContactKind::Edges && hit.separation > face.separation + margin(face.separation, EDGE_PREFERENCE);
    let (Some(f), Some(s)) = (face.face, face.support) else { return *hit };
    if edge_wins || (hit.kind == ContactKind::FaceA && !use_b) || (hit.kind == ContactKind::FaceB && use_b) {
        return *hit;
    }
    let (kind, normal, point) = if use_b {
        (ContactKind::FaceB, -(xb.q * b.normals()[f]), xa.transform_point(a.positions()[s]))
    } else {
        (ContactKind::FaceA, xa.q * a.normals()[f], xb.transform_point(b.positions()[s]))
    };
    let separation = face.separation;
    HullContact { kind, separation, normal, mtv: -separation * normal, point, ..*hit }
}

/// Per pair, the axis that separated it at its last SAT, tested first next time. Part of the
/// world state (a world and its clone step alike).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SatCache {
    /// Sorted by pair.
    pub axes: Vec<((usize, usize), AxisKind)>,
}

/// What the narrowphase did this step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NarrowStats {
    pub pairs: usize,
    /// Pairs rejected by their remembered axis alone.
    pub cache_hits: usize,
    pub sat_calls: usize,
}

/// The contacts of this step, from the candidate pairs, the previous contacts (sorted by pair,
/// for warm starting) and the separating-axis cache (updated). A pair with a body of several
/// hulls is collided hull pair by hull pair (`collide_compound`).
pub fn collide_pairs(
    bodies: &[Body3],
    pairs: &[(usize, usize)],
    old: &[Contact3],
    cache: &mut SatCache,
    params: &World3Params,
    scratch: &mut SatScratch,
) -> (Vec<Contact3>, NarrowStats) {
    let margin = params.speculative_margin;
    let config = params.sat.config();
    let mut stats = NarrowStats { pairs: pairs.len(), ..NarrowStats::default() };
    let mut contacts = Vec::with_capacity(old.len() + 8);
    let mut next_cache = Vec::with_capacity(cache.axes.len());
    let (mut k, mut m) = (0, 0);
    for &(i, j) in pairs {
        while k < old.len() && (old[k].a, old[k].b) < (i, j) {
            k += 1;
        }
        let (ba, bb) = (&bodies[i], &bodies[j]);
        if !(ba.parts.is_empty() && bb.parts.is_empty()) {
            let ctx = HullPairContext { margin, config: &config, scratch: &mut *scratch };
            collide_compound((i, j), bodies, &old[k..], ctx, &mut contacts, &mut stats);
            continue;
        }
        while m < cache.axes.len() && cache.axes[m].0 < (i, j) {
            m += 1;
        }
        let prev = old.get(k).filter(|c| (c.a, c.b) == (i, j));
        let remembered = cache.axes.get(m).filter(|e| e.0 == (i, j)).map(|e| e.1);
        if let Some(axis) = remembered.filter(|_| params.sat_cache) {
            if separation_along(&ba.hull, &ba.pose, &bb.hull, &bb.pose, axis).is_some_and(|s| s > margin) {
                stats.cache_hits += 1;
                next_cache.push(((i, j), axis));
                continue;
            }
        }
        stats.sat_calls += 1;
        let ctx = HullPairContext { margin, config: &config, scratch: &mut *scratch };
        match collide_hulls((&ba.hull, &ba.pose), (&bb.hull, &bb.pose), ctx) {
            HullPair::Separated(axis) => next_cache.push(((i, j), axis)),
            HullPair::Touching(sat, manifold) => {
                contacts.push(Contact3::new((i, j), &manifold, sat, mix_material(ba, bb), prev));
            }
            HullPair::NoPoints => {}
        }
    }
    cache.axes = next_cache;
    (contacts, stats)
}

/// What one hull pair's narrowphase needs besides the hulls.
pub struct HullPairContext<'a> {
    pub margin: f32,
    pub config: &'a SatConfig,
    pub scratch: &'a mut SatScratch,
}

/// One hull pair's outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum HullPair {
    /// Separated by more than the margin along this axis.
    Separated(AxisKind),
    /// The SAT's decision and the clipped manifold.
    Touching(SatDecision, FeatureManifold),
    /// Within the margin, but clipping kept no point.
    NoPoints,
}

/// The local-frame SAT with faces preferred, then the manifold, for hulls `a` and `b` posed.
#[inline]
pub fn collide_hulls((a, xa): (&Hull, &Pose3), (b, xb): (&Hull, &Pose3), ctx: HullPairContext) -> HullPair {
    let result = collide_posed_with(a, xa, b, xb, ctx.config, ctx.margin, ctx.scratch, &mut NoTrace);
    let hit = match result {
        Ok(hit) => prefer_faces(&hit, (a, xa), (b, xb)),
        Err(separating) => return HullPair::Separated(separating.kind),
    };
    let manifold = contact_manifold_posed(a, xa, b, xb, &hit, ctx.margin);
    if manifold.points.is_empty() {
        return HullPair::NoPoints;
    }
    let kind = match hit.kind {
        ContactKind::FaceA => AxisKind::FaceA { face: hit.face_a.face.unwrap_or(0) },
        ContactKind::FaceB => AxisKind::FaceB { face: hit.face_b.face.unwrap_or(0) },
        ContactKind::Edges => {
            let [edge_a, edge_b] = hit.edges.index.unwrap_or([0, 0]);
            AxisKind::Edges { edge_a, edge_b }
        }
    };
    HullPair::Touching(SatDecision { kind, separation: hit.separation }, manifold)
}

/// The contacts of bodies `i < j` when either holds several hulls: every hull pair whose boxes
/// (grown by half the margin each, as in pair finding) overlap, with its own material and
/// contact, warm started from the previous step's contact of the same hull pair (`old` starts
/// at this body pair's old contacts). These pairs skip the separating-axis cache.
fn collide_compound(
    (i, j): (usize, usize),
    bodies: &[Body3],
    old: &[Contact3],
    ctx: HullPairContext,
    contacts: &mut Vec<Contact3>,
    stats: &mut NarrowStats,
) {
    let (ba, bb) = (&bodies[i], &bodies[j]);
    let old = &old[..old.iter().take_while(|c| (c.a, c.b) == (i, j)).count()];
    let half = 0.5 * ctx.margin;
    for ka in 0..ba.hull_count() {
        let [lo_a, hi_a] = ba.hull_bounds(ka, half);
        for kb in 0..bb.hull_count() {
            let [lo_b, hi_b] = bb.hull_bounds(kb, half);
            if !(lo_a.cmple(hi_b).all() && lo_b.cmple(hi_a).all()) {
                continue;
            }
            stats.sat_calls += 1;
            let pair_ctx = HullPairContext { margin: ctx.margin, config: ctx.config, scratch: &mut *ctx.scratch };
            let (a, b) = ((ba.hull_at(ka), &ba.pose), (bb.hull_at(kb), &bb.pose));
            if let HullPair::Touching(sat, manifold) = collide_hulls(a, b, pair_ctx) {
                let parts = [ka as u8, kb as u8];
                let prev = old.iter().find(|c| c.parts == parts);
                let mut c = Contact3::new((i, j), &manifold, sat, mix_part_material(ba, ka, bb, kb), prev);
                c.parts = parts;
                contacts.push(c);
            }
        }
    }
}
