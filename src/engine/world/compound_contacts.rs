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
use crate::engine::math::Aabb;
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

/// Every shape's box of the bodies met by the pass, computed once a step: the shapes of a
/// compound meet many bodies (a tumbler's four walls meet its 2,000 boxes every step), and
/// each pair used to compute both shapes' boxes for every shape pair it tested.
struct ShapeBoxes {
    /// Per body, where its boxes start in `boxes` (`u32::MAX`: not computed yet).
    first: Vec<u32>,
    boxes: Vec<Aabb>,
}

impl ShapeBoxes {
    fn new(bodies: usize) -> ShapeBoxes {
        ShapeBoxes { first: vec![u32::MAX; bodies], boxes: Vec::new() }
    }

    /// Computes body `i`'s shape boxes if they are not yet.
    fn fill(&mut self, b: &Body, i: usize) {
        if self.first[i] == u32::MAX {
            self.first[i] = self.boxes.len() as u32;
            self.boxes.extend(b.shapes().map(|(shape, xf)| shape.compute_aabb(&xf)));
        }
    }

    /// Body `i`'s shape boxes (after [`ShapeBoxes::fill`]).
    fn of(&self, b: &Body, i: usize) -> &[Aabb] {
        let first = self.first[i] as usize;
        &self.boxes[first..first + b.shape_count()]
    }
}

/// Whether shapes `sa` of `ba` and `sb` of `bb` pass each other's filters and their boxes
/// (`boxes`, the first grown by the speculative `distance`) overlap.
fn shapes_may_touch(ba: &Body, sa: usize, bb: &Body, sb: usize, boxes: (&Aabb, &Aabb), distance: f32) -> bool {
    let ((ca, ma), (cb, mb)) = (ba.filter_at(sa), bb.filter_at(sb));
    Part::should_collide(ca, ma, cb, mb) && boxes.0.expanded(distance).overlaps(boxes.1)
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
    let mut shape_boxes = ShapeBoxes::new(pc.bodies.len());
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
        shape_boxes.fill(ba, iu);
        shape_boxes.fill(bb, ju);
        let (boxes_a, boxes_b) = (shape_boxes.of(ba, iu), shape_boxes.of(bb, ju));
        for (sa, sb) in shape_pairs(ba, bb) {
            let key = Contact::key_of(iu, ju, sa, sb);
            let boxes = (&boxes_a[sa], &boxes_b[sb]);
            if !shapes_may_touch(ba, sa, bb, sb, boxes, distance)
                || contacts.binary_search_by_key(&key, Contact::key).is_ok()
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
