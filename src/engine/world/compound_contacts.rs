//! The narrowphase of multi-part bodies (`engine::compound`; Box2D v3: contacts are between
//! shapes): a pair of bodies of which one has several shapes has a contact per shape pair that
//! touches, keyed `(a, b, sa, sb)`, each with its own manifold (computed at the shapes' world
//! transforms, body transform times shape transform), feature ids, materials and warm start.
//!
//! The broadphase keeps one proxy per body, whose box holds all its shapes; the shapes of a
//! candidate body pair are then paired here by their own boxes (a mid-phase), their filters
//! checked, and no shape pair of one body is ever considered (a body never pairs with itself).
//! Existing shape-pair contacts are updated, recycled or dropped with the others
//! (`world::contacts`); this pass, run only when some body is a compound, adds the new ones in
//! pair order, so the result does not depend on the number of threads.

use super::contacts::PairContext;
use crate::engine::body::Body;
use crate::engine::broadphase::pair_finder::Broadphase;
use crate::engine::collide::{collide_with, Manifold};
use crate::engine::compound::Part;
use crate::engine::solver::recycle::ManifoldOrigin;
use crate::engine::solver::{Contact, SolverParams};

/// The manifold of shape `sa` of body `ba` against shape `sb` of body `bb`.
pub(crate) fn collide_shapes(
    ba: &Body,
    sa: usize,
    bb: &Body,
    sb: usize,
    distance: f32,
    params: &SolverParams,
) -> Manifold {
    let (s1, x1) = ba.shape_at(sa);
    let (s2, x2) = bb.shape_at(sb);
    collide_with(s1, &x1, s2, &x2, distance, params.reference_face)
}

/// Whether shapes `sa` of `ba` and `sb` of `bb` pass each other's filters and their boxes
/// (grown by the speculative `distance`) overlap.
fn shapes_may_touch(ba: &Body, sa: usize, bb: &Body, sb: usize, distance: f32) -> bool {
    let ((ca, ma), (cb, mb)) = (ba.filter_at(sa), bb.filter_at(sb));
    if !Part::should_collide(ca, ma, cb, mb) {
        return false;
    }
    let ((s1, x1), (s2, x2)) = (ba.shape_at(sa), bb.shape_at(sb));
    s1.compute_aabb(&x1).expanded(distance).overlaps(&s2.compute_aabb(&x2))
}

/// Which body pairs the pass looks at: candidate pairs with a compound, wanted (tight boxes
/// overlap, no joint filters them) and not both asleep.
pub(crate) struct CompoundPairs<'a> {
    pub broadphase: &'a Broadphase,
    /// Sorted pairs a joint keeps from colliding.
    pub filter: &'a [(u32, u32)],
    pub active: &'a [bool],
}

/// Appends to `added` the contacts of the compound pairs' touching shape pairs that have no
/// contact in `contacts` (sorted by key); returns how many manifolds it computed.
pub(crate) fn add_new_shape_pairs(
    pc: &PairContext,
    pairs: &CompoundPairs,
    contacts: &[Contact],
    added: &mut Vec<Contact>,
) -> usize {
    let mut computed = 0;
    for &(i, j) in pairs.broadphase.pairs() {
        let (iu, ju) = (i as usize, j as usize);
        let compound = pc.pair_bodies[iu].compound || pc.pair_bodies[ju].compound;
        if !compound || !pairs.broadphase.may_touch(i, j) || pairs.filter.binary_search(&(i, j)).is_ok() {
            continue;
        }
        if !pairs.active[iu] && !pairs.active[ju] {
            continue;
        }
        let (ba, bb) = (&pc.bodies[iu], &pc.bodies[ju]);
        let (distance, friction, restitution) = pc.pair(iu, ju);
        for (sa, sb) in shape_pairs(ba, bb) {
            let key = Contact::key_of(iu, ju, sa, sb);
            if !shapes_may_touch(ba, sa, bb, sb, distance) || contacts.binary_search_by_key(&key, Contact::key).is_ok()
            {
                continue;
            }
            computed += 1;
            let manifold = collide_shapes(ba, sa, bb, sb, distance, pc.params);
            if manifold.count == 0 {
                continue;
            }
            let mut c = Contact::new(iu, ju, manifold, friction, restitution, None);
            c.shape_pair = key.2;
            (c.friction, c.restitution) = pc.shape_materials(&c, (friction, restitution));
            c.margin = distance;
            c.origin = Some(ManifoldOrigin::new(pc.step, ba, bb, manifold, distance));
            added.push(c);
        }
    }
    computed
}

/// Every pair of a shape of `a` with a shape of `b`, in key order.
fn shape_pairs(a: &Body, b: &Body) -> impl Iterator<Item = (usize, usize)> {
    let nb = b.shape_count();
    (0..a.shape_count()).flat_map(move |sa| (0..nb).map(move |sb| (sa, sb)))
}
