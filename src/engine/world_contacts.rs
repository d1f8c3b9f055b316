//! The narrowphase half of `World::step`: the contact list brought up to date with the
//! broadphase's pairs, in place.
//!
//! Contacts are persistent, as Box2D v3's: a contact lives from the step its shapes first come
//! within the speculative margin to the step they part, and is updated where it sits in
//! `World::contacts` (sorted by body pair). Each step:
//!
//! 1. The pairs (sorted) are merge-joined with the contacts (sorted the same way). A contact
//!    whose pair went away, is filtered out (joint filter, collision filter, tight AABBs apart)
//!    or whose new manifold is empty is marked dead (`manifold.count = 0`); one whose pair is
//!    still there gets its new manifold, impulses carried over by feature id
//!    (`Contact::new`); a contact between two sleeping bodies is left as it is. A pair with no
//!    contact yet whose shapes touch gives a new contact, kept aside.
//! 2. Dead contacts are squeezed out (`retain`, in place) and the new ones merged in from the
//!    back, so the list stays sorted and the memory is reused: a step allocates nothing once
//!    the vectors have grown.
//!
//! **Recycling** (`world_recycle`, Box2D v3's contact recycling, on by default through
//! `SolverParams::recycle_contacts`): a contact whose bodies moved and turned little since its
//! manifold was computed keeps that manifold, with separations updated from the motion, and
//! `collide` is not called. It is decided first, from saved state only.
//!
//! **Skipping unchanged pairs.** The manifold is a pure function of the two shapes, their
//! transforms and the speculative distance (the margin plus the pair's reach, recorded in
//! `Contact::margin`) (`collide::collide` allocates nothing and reads nothing else), so
//! when neither body has moved or changed shape since the previous narrowphase, the stored
//! manifold is exactly what `collide` would return and the call is skipped. "Unchanged" is
//! decided per body, bit for bit: its transform against the one the previous narrowphase saw,
//! and, once it has stayed put for a step, its shape against a copy taken then
//! ([`NarrowphaseCache`]). Because a skip returns the same bits as the call, skipping never
//! changes the simulation: a world restored from a snapshot (which starts with an empty cache
//! and so recomputes everything) steps to the same states as the original. A recycled
//! manifold is not what `collide` returns, so a contact recycled at the last narrowphase is
//! never skipped.

use super::body::Body;
use super::collide::{collide, Manifold};
use super::math::Transform;
use super::shape::Shape;
use super::solver::contact::{mix_friction, mix_restitution};
use super::solver::Contact;
use super::world::{is_active, World};
use super::world_ccd::pair_reach;
use super::world_recycle::{recycle as recycle_manifold, ManifoldOrigin};
use std::time::Instant;

/// What the previous narrowphase saw of each body, to tell which bodies are unchanged since
/// (see the module docs). Derived data: not saved, empty in a snapshot, and an empty cache
/// only means nothing is skipped for one step.
#[derive(Clone, Debug, Default)]
pub struct NarrowphaseCache {
    /// Per body: its transform at the previous narrowphase.
    xf: Vec<Transform>,
    /// Per body: its shape, copied at the narrowphase after which it had stopped moving
    /// (`None` while it moves, so moving bodies cost one comparison of their transform).
    shape: Vec<Option<Shape>>,
    /// Per body: unchanged since the previous narrowphase (this step's answer).
    still: Vec<bool>,
    /// The speculative margin the stored manifolds were computed with.
    margin: f32,
    /// Set by edits that renumber bodies: nothing may be skipped at the next narrowphase.
    invalid: bool,
    /// New contacts of this step, sorted (scratch).
    added: Vec<Contact>,
    /// Contacts whose manifold was reused this step (the profile's count).
    pub skipped: usize,
    /// Manifolds computed this step.
    pub computed: usize,
    /// Contacts whose manifold was recycled this step (`world_recycle`).
    pub recycled: usize,
}

/// Whether two transforms are the same bits (so `collide` would see the same input).
#[inline]
fn same_bits(a: &Transform, b: &Transform) -> bool {
    a.p.x.to_bits() == b.p.x.to_bits()
        && a.p.y.to_bits() == b.p.y.to_bits()
        && a.q.c.to_bits() == b.q.c.to_bits()
        && a.q.s.to_bits() == b.q.s.to_bits()
}

impl NarrowphaseCache {
    /// Forgets every body: the next narrowphase recomputes every manifold. For edits that
    /// renumber bodies (removal), after which index `i` no longer names the body it named.
    pub fn invalidate(&mut self) {
        self.invalid = true;
    }

    /// Decides which bodies are unchanged since the previous call and records what this one
    /// sees. Bodies appended since keep the others' records; a margin change or an
    /// invalidation starts over.
    fn observe(&mut self, bodies: &[Body], margin: f32) {
        let n = bodies.len();
        if self.invalid || self.xf.len() > n || self.margin.to_bits() != margin.to_bits() {
            self.xf.clear();
            self.shape.clear();
            self.invalid = false;
            self.margin = margin;
        }
        let known = self.xf.len();
        self.still.clear();
        self.still.resize(n, false);
        for (i, b) in bodies.iter().enumerate().take(known) {
            if !same_bits(&self.xf[i], &b.xf) {
                self.xf[i] = b.xf;
                if self.shape[i].is_some() {
                    self.shape[i] = None;
                }
                continue;
            }
            match &self.shape[i] {
                Some(s) if *s == b.shape => self.still[i] = true,
                // It stopped moving (or its shape changed): remember the shape; the manifolds
                // stored for it may be from another pose or shape, so none is reused yet.
                _ => self.shape[i] = Some(b.shape),
            }
        }
        for b in &bodies[known..] {
            self.xf.push(b.xf);
            self.shape.push(None);
        }
    }
}

impl World {
    /// Broadphase and narrowphase: updates the broadphase pairs (tree proxies, move buffer,
    /// persistent pairs: `broadphase::pair_finder`), then brings the contacts up to date with
    /// the pairs whose tight AABBs overlap, in place (see the module docs). Pairs and contacts
    /// are sorted by `(a, b)`, so the result never depends on tree layout or hash order.
    pub(crate) fn update_contacts(&mut self) {
        let t0 = Instant::now();
        let margin = self.params.speculative_margin;
        self.broadphase.update_pairs(&self.bodies, margin);
        let t1 = Instant::now();
        self.profile.broadphase_ms = (t1 - t0).as_secs_f32() * 1000.0;
        self.profile.pairs = self.broadphase.pairs().len();

        // `refresh_contacts` runs this outside a step, so the filter may not be built yet:
        // taking an empty one here would keep it empty, and jointed bodies would collide.
        if self.joint_filter.is_none() {
            self.rebuild_joint_filter();
        }
        let filter = self.joint_filter.take().unwrap_or_default();
        let mut cache = std::mem::take(&mut self.narrowphase);
        cache.observe(&self.bodies, margin);
        cache.added.clear();
        cache.skipped = 0;
        cache.computed = 0;
        cache.recycled = 0;
        let recycle = self.params.recycle_contacts;
        let step = self.step_count;
        let mut dead = 0;
        let (mut k, mut f) = (0, 0);
        let contacts = &mut self.contacts;
        for &(i, j) in self.broadphase.pairs() {
            let (iu, ju) = (i as usize, j as usize);
            // Contacts before this pair lost their pair.
            while k < contacts.len() && (contacts[k].a, contacts[k].b) < (iu, ju) {
                contacts[k].manifold.count = 0;
                dead += 1;
                k += 1;
            }
            let existing = (k < contacts.len() && contacts[k].a == iu && contacts[k].b == ju).then_some(k);
            if existing.is_some() {
                k += 1;
            }
            let wanted = self.broadphase.may_touch(i, j)
                && {
                    while f < filter.len() && filter[f] < (i, j) {
                        f += 1;
                    }
                    filter.get(f) != Some(&(i, j))
                }
                && self.bodies[iu].should_collide(&self.bodies[ju]);
            let (ba, bb) = (&self.bodies[iu], &self.bodies[ju]);
            if wanted && !is_active(ba) && !is_active(bb) {
                // Both asleep (or asleep and static): the contact is kept as it was.
                continue;
            }
            // Bodies moving faster than the margin per step look ahead by their reach.
            let distance = margin + pair_reach(ba, self.broadphase.reach(iu), bb, self.broadphase.reach(ju));
            let friction = self
                .params
                .friction_override
                .unwrap_or_else(|| mix_friction(ba.material.friction, bb.material.friction));
            let restitution = self
                .params
                .restitution_override
                .unwrap_or_else(|| mix_restitution(ba.material.restitution, bb.material.restitution));
            // Recycling first (`world_recycle`): its decision reads only saved state, so a
            // restored world recycles the same contacts. Then the bit-exact skip, which gives
            // what `collide` would, so whether the cache is warm never matters.
            if wanted && recycle {
                if let Some(c) = existing {
                    let contact = &mut contacts[c];
                    if let Some(origin) = contact.origin.filter(|o| o.allows(ba, bb, distance)) {
                        recycle_manifold(contact, &origin, ba, bb);
                        contact.friction = friction;
                        contact.restitution = restitution;
                        cache.recycled += 1;
                        continue;
                    }
                }
            }
            let unchanged = |c: &usize| {
                cache.still[iu]
                    && cache.still[ju]
                    && contacts[*c].recycled == 0
                    && contacts[*c].margin.to_bits() == distance.to_bits()
            };
            let manifold = if !wanted {
                Manifold::EMPTY
            } else if let Some(c) = existing.filter(unchanged) {
                cache.skipped += 1;
                contacts[c].manifold
            } else {
                cache.computed += 1;
                collide(&ba.shape, &ba.xf, &bb.shape, &bb.xf, distance)
            };
            if manifold.count == 0 {
                if let Some(c) = existing {
                    contacts[c].manifold.count = 0;
                    dead += 1;
                }
                continue;
            }
            let origin = Some(ManifoldOrigin::new(step, ba, bb, manifold, distance));
            match existing {
                Some(c) => {
                    let mut updated = Contact::new(iu, ju, manifold, friction, restitution, Some(&contacts[c]));
                    updated.margin = distance;
                    updated.origin = origin;
                    contacts[c] = updated;
                }
                None => {
                    let mut added = Contact::new(iu, ju, manifold, friction, restitution, None);
                    added.margin = distance;
                    added.origin = origin;
                    cache.added.push(added);
                }
            }
        }
        // Contacts after the last pair lost theirs.
        for c in &mut contacts[k..] {
            c.manifold.count = 0;
            dead += 1;
        }
        if dead > 0 {
            contacts.retain(|c| c.manifold.count > 0);
        }
        merge_from_back(contacts, &mut cache.added);
        self.profile.manifolds = cache.computed;
        self.profile.manifolds_reused = cache.skipped;
        self.profile.manifolds_recycled = cache.recycled;
        self.narrowphase = cache;
        self.joint_filter = Some(filter);
        self.profile.narrowphase_ms = t1.elapsed().as_secs_f32() * 1000.0;
    }
}

/// Merges `added` (sorted by pair, no pair in common with `contacts`) into the sorted
/// `contacts`, in place from the back, emptying `added`.
fn merge_from_back(contacts: &mut Vec<Contact>, added: &mut Vec<Contact>) {
    if added.is_empty() {
        return;
    }
    let mut old = contacts.len();
    // Grow by the new contacts' count (these copies are overwritten below).
    contacts.extend_from_slice(added);
    let mut w = contacts.len();
    let key = |c: &Contact| (c.a, c.b);
    while let Some(c) = added.pop() {
        while old > 0 && key(&contacts[old - 1]) > key(&c) {
            w -= 1;
            old -= 1;
            contacts.swap(w, old);
        }
        w -= 1;
        contacts[w] = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contact(a: usize, b: usize) -> Contact {
        let mut m = Manifold::EMPTY;
        m.count = 1;
        Contact::new(a, b, m, 0.5, 0.0, None)
    }

    #[test]
    fn merging_from_the_back_keeps_the_pairs_sorted() {
        let keys = |v: &[Contact]| v.iter().map(|c| (c.a, c.b)).collect::<Vec<_>>();
        for (old, new) in [
            (vec![(0, 1), (0, 3), (2, 5)], vec![(0, 2), (3, 4)]),
            (vec![], vec![(1, 2)]),
            (vec![(1, 2)], vec![]),
            (vec![(5, 6), (7, 8)], vec![(0, 1), (1, 2)]),
            (vec![(0, 1), (1, 2)], vec![(5, 6), (7, 8)]),
        ] {
            let mut contacts: Vec<Contact> = old.iter().map(|&(a, b)| contact(a, b)).collect();
            let mut added: Vec<Contact> = new.iter().map(|&(a, b)| contact(a, b)).collect();
            merge_from_back(&mut contacts, &mut added);
            let mut want = [old, new].concat();
            want.sort();
            assert_eq!(keys(&contacts), want);
            assert!(added.is_empty());
        }
    }
}
