//! The narrowphase half of `World::step`: the contact list brought up to date with the
//! broadphase's pairs, in place.
//!
//! Contacts are persistent, as Box2D v3's: a contact lives from the step its shapes first come
//! within the speculative margin to the step they part, and is updated where it sits in
//! `World::contacts` (sorted by body pair). Each step:
//!
//! 1. The pairs (sorted) are merge-joined with the contacts (sorted the same way), in order:
//!    a contact whose pair went away or is filtered out (joint filter, collision filter,
//!    tight AABBs apart) is lost, one between two sleeping bodies is kept as it is, the others
//!    are to be updated; a pair with no contact yet becomes a new pair. With several threads
//!    the pairs are cut at pair keys into parts joined side by side (`MergePart`).
//! 2. Every contact to update gets its new manifold, impulses carried over by feature id
//!    (`Contact::new`), or is marked dead (`manifold.count = 0`) when the manifold is empty;
//!    every new pair whose shapes touch gives a new contact. Each reads only the bodies and
//!    writes only its own contact, so this runs in blocks on the solver's workers (Box2D v3's
//!    `b2CollideTask`), with the same bits on any number of threads.
//! 3. Dead contacts are squeezed out (`retain`, in place) and the new ones merged in from the
//!    back, so the list stays sorted and the memory is reused: a step allocates nothing once
//!    the vectors have grown.
//!
//! **Recycling** (`solver::recycle`, Box2D v3's contact recycling, on by default through
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

use super::compound_contacts::{add_new_shape_pairs, collide_shapes, CompoundPairs};
use super::merge_contacts::merge_from_back;
use super::{is_active, World};
use crate::engine::body::Body;
use crate::engine::broadphase::pair_finder::Broadphase;
use crate::engine::collide::collide_with;
use crate::engine::math::Transform;
use crate::engine::parallel::{Workers, BODY_BLOCK, CONTACT_BLOCK};
use crate::engine::prefetch::{prefetch, prefetch_head, CONTACTS_AHEAD};
use crate::engine::reach::{pair_reach, Motion};
use crate::engine::shape::Shape;
use crate::engine::solver::contact::{mix_friction, mix_restitution};
use crate::engine::solver::recycle::{recycle as recycle_manifold, ManifoldOrigin, Pose};
use crate::engine::solver::Contact;
use crate::engine::solver::SolverParams;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    /// Per body: whether `shape` holds one (read for every moving body, so kept apart from
    /// the 160-byte shapes).
    kept: Vec<bool>,
    /// Per body: unchanged since the previous narrowphase (this step's answer).
    still: Vec<bool>,
    /// Per body: what a pair's speculative distance and mixed material read of it, gathered
    /// once per step (a contact reads two of these instead of two bodies).
    pair_bodies: Vec<PairBody>,
    /// Per body: whether its pairs need the narrowphase (`world::is_active`) this step.
    active: Vec<bool>,
    /// Some body has several shapes this step (`world::compound_contacts` finds their new
    /// shape pairs).
    pub(crate) any_compound: bool,
    /// The speculative margin the stored manifolds were computed with.
    margin: f32,
    /// Set by edits that renumber bodies: nothing may be skipped at the next narrowphase.
    invalid: bool,
    /// New contacts of this step, sorted (scratch).
    added: Vec<Contact>,
    /// What the merge-join decided for each contact (scratch).
    fates: Vec<Fate>,
    /// Pairs with no contact yet whose shapes may touch, sorted (scratch).
    new_pairs: Vec<(usize, usize)>,
    /// The new pairs of each part of a merge-join cut for the workers (scratch).
    new_pair_parts: Vec<Vec<(usize, usize)>>,
    /// Their contacts, where the shapes touch (scratch).
    new_contacts: Vec<Option<Contact>>,
    /// No contact was added or removed since the last marking of awake contacts (taken, and
    /// set again, by `World::update_islands`; false in a fresh cache, so a restored world
    /// marks every contact).
    pub(crate) contacts_same: bool,
    /// Contacts whose manifold was reused this step (the profile's count).
    pub skipped: usize,
    /// Manifolds computed this step.
    pub computed: usize,
    /// Contacts whose manifold was recycled this step (`solver::recycle`).
    pub recycled: usize,
}

/// What [`PairContext::pair`] reads of a body.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairBody {
    motion: Motion,
    /// The body has several shapes (`Body::parts`).
    pub(crate) compound: bool,
    friction: f32,
    restitution: f32,
    /// What recycling reads of it.
    pose: Pose,
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
    fn observe(&mut self, bodies: &[Body], broadphase: &Broadphase, margin: f32, workers: &Workers) {
        let n = bodies.len();
        if self.invalid || self.xf.len() > n || self.margin.to_bits() != margin.to_bits() {
            self.xf.clear();
            self.shape.clear();
            self.kept.clear();
            self.invalid = false;
            self.margin = margin;
        }
        let known = self.xf.len();
        self.still.clear();
        self.still.resize(n, false);
        self.active.resize(n, false);
        self.pair_bodies.resize(n, PairBody::default());
        let any_compound = AtomicBool::new(false);
        workers.for_each_chunk2(&mut self.active, &mut self.pair_bodies, BODY_BLOCK, &|start, active, pair| {
            for (i, (active, pair)) in (start..).zip(active.iter_mut().zip(pair)) {
                let b = &bodies[i];
                *active = is_active(b);
                let compound = !b.parts.is_empty();
                if compound {
                    any_compound.store(true, Ordering::Relaxed);
                }
                *pair = PairBody {
                    motion: Motion::of(b, broadphase.reach(i)),
                    compound,
                    friction: b.material.friction,
                    restitution: b.material.restitution,
                    pose: Pose::of(b),
                };
            }
        });
        self.any_compound = any_compound.into_inner();
        for (i, b) in bodies.iter().enumerate().take(known) {
            if !same_bits(&self.xf[i], &b.xf) {
                self.xf[i] = b.xf;
                if self.kept[i] {
                    self.kept[i] = false;
                    self.shape[i] = None;
                }
                continue;
            }
            match &self.shape[i] {
                // A compound's parts are not compared: editing them drops its contacts
                // (`World::set_parts`).
                Some(s) if *s == b.shape => self.still[i] = true,
                // It stopped moving (or its shape changed): remember the shape; the manifolds
                // stored for it may be from another pose or shape, so none is reused yet.
                _ => {
                    self.shape[i] = Some(b.shape);
                    self.kept[i] = true;
                }
            }
        }
        for b in &bodies[known..] {
            self.xf.push(b.xf);
            self.shape.push(None);
            self.kept.push(false);
        }
    }
}

/// How many contacts ahead the update loop asks for the whole contact it will update.
const UPDATES_AHEAD: usize = 2;

/// What the merge-join decided for a contact.
#[derive(Clone, Copy, Debug)]
enum Fate {
    /// Its pair went away or is filtered out: dead.
    Lost,
    /// Both bodies asleep: left as it is.
    Kept,
    /// Recycled, reused or recomputed.
    Update,
}

/// Fewer pairs than this in a part of the merge-join are not worth another thread.
const MERGE_PART_PAIRS: usize = 2048;

/// One part of the merge-join: a run of the sorted pairs, the contacts whose keys fall in the
/// same range (sorted the same way), and the joint filter's pairs in it.
struct MergePart<'a> {
    pairs: &'a [(u32, u32)],
    contacts: &'a [Contact],
    /// Sorted pairs of bodies that a joint keeps from colliding.
    filter: &'a [(u32, u32)],
    /// One per contact of the part, all `Lost` to begin with.
    fates: &'a mut [Fate],
    new_pairs: &'a mut Vec<(usize, usize)>,
    /// Per body, read when some body is a compound (whose new shape pairs are found apart).
    compound: Option<&'a [PairBody]>,
}

impl MergePart<'_> {
    /// Walks the part's pairs and contacts together: a contact matched by a wanted pair is to
    /// be updated (or kept, both bodies asleep), one matched by none stays lost; a wanted pair
    /// with no contact is a new pair.
    fn join(&mut self, broadphase: &Broadphase, active: &[bool]) {
        let (contacts, filter) = (self.contacts, self.filter);
        let (mut k, mut f) = (0, 0);
        for &(i, j) in self.pairs {
            let (iu, ju) = (i as usize, j as usize);
            prefetch_head(contacts, k + CONTACTS_AHEAD);
            // Contacts before this pair lost their pair (their fate is already `Lost`).
            while k < contacts.len() && (contacts[k].a, contacts[k].b) < (iu, ju) {
                k += 1;
            }
            let same = |c: &Contact| c.a == iu && c.b == ju;
            let existing = k < contacts.len() && same(&contacts[k]);
            // The collision filter was applied to the pairs by `update_pairs` just now.
            let wanted = broadphase.may_touch(i, j) && {
                while f < filter.len() && filter[f] < (i, j) {
                    f += 1;
                }
                filter.get(f) != Some(&(i, j))
            };
            // Both asleep (or asleep and static): the contact is kept as it was.
            let asleep = !active[iu] && !active[ju];
            if existing {
                self.fates[k] = match (wanted, asleep) {
                    (false, _) => Fate::Lost,
                    (true, true) => Fate::Kept,
                    (true, false) => Fate::Update,
                };
                k += 1;
                // A compound pair has a contact per touching shape pair, all with its fate.
                while k < contacts.len() && same(&contacts[k]) {
                    self.fates[k] = self.fates[k - 1];
                    k += 1;
                }
            } else if wanted && !asleep && !self.compound.is_some_and(|p| p[iu].compound || p[ju].compound) {
                self.new_pairs.push((iu, ju));
            }
        }
    }
}

/// Manifolds of one block, by how they were had.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    computed: usize,
    skipped: usize,
    recycled: usize,
    dead: usize,
}

/// The blocks' counts, summed (in any order: sums do not depend on it).
#[derive(Debug, Default)]
struct Tally([AtomicUsize; 4]);

impl Tally {
    fn add(&self, n: Counts) {
        for (t, v) in self.0.iter().zip([n.computed, n.skipped, n.recycled, n.dead]) {
            if v > 0 {
                t.fetch_add(v, Ordering::Relaxed);
            }
        }
    }

    fn get(&self) -> Counts {
        let [computed, skipped, recycled, dead] = self.0.each_ref().map(|t| t.load(Ordering::Relaxed));
        Counts { computed, skipped, recycled, dead }
    }
}

/// What a contact's update reads: the bodies, the settings, which bodies are unchanged since
/// the previous narrowphase, each body's motion and material.
pub(crate) struct PairContext<'a> {
    pub(crate) bodies: &'a [Body],
    pub(crate) params: &'a SolverParams,
    still: &'a [bool],
    pub(crate) pair_bodies: &'a [PairBody],
    pub(crate) step: u64,
}

impl PairContext<'_> {
    /// The speculative distance (bodies moving faster than the margin per step look ahead by
    /// their reach) and the mixed friction and restitution of bodies `a` and `b`.
    pub(crate) fn pair(&self, a: usize, b: usize) -> (f32, f32, f32) {
        let (ba, bb, p) = (&self.pair_bodies[a], &self.pair_bodies[b], self.params);
        let distance = p.speculative_margin + pair_reach(&ba.motion, &bb.motion);
        let friction = p.friction_override.unwrap_or_else(|| mix_friction(ba.friction, bb.friction));
        let restitution = p.restitution_override.unwrap_or_else(|| mix_restitution(ba.restitution, bb.restitution));
        (distance, friction, restitution)
    }

    /// Brings an existing contact up to date: recycled if allowed (decided from saved state
    /// only), else its stored manifold if both bodies are unchanged (bit-exact, see the module
    /// docs), else recomputed. An empty manifold leaves it dead (`manifold.count = 0`).
    fn update(&self, c: &mut Contact, n: &mut Counts) {
        let (distance, mut friction, mut restitution) = self.pair(c.a, c.b);
        // Read from the per-step gather `pair` just read, not from the bodies.
        let compound = self.pair_bodies[c.a].compound || self.pair_bodies[c.b].compound;
        if compound {
            (friction, restitution) = self.shape_materials(c, (friction, restitution));
        }
        let (pa, pb) = (&self.pair_bodies[c.a].pose, &self.pair_bodies[c.b].pose);
        if self.params.recycle_contacts && recycle_manifold(c, pa, pb, distance) {
            c.friction = friction;
            c.restitution = restitution;
            n.recycled += 1;
            return;
        }
        let (ba, bb) = (&self.bodies[c.a], &self.bodies[c.b]);
        let unchanged =
            self.still[c.a] && self.still[c.b] && c.recycled == 0 && c.margin.to_bits() == distance.to_bits();
        let manifold = if unchanged {
            n.skipped += 1;
            c.manifold
        } else {
            n.computed += 1;
            if compound {
                collide_shapes(ba, c.sa(), bb, c.sb(), distance, self.params)
            } else {
                collide_with(&ba.shape, &ba.xf, &bb.shape, &bb.xf, distance, self.params.reference_face)
            }
        };
        if manifold.count == 0 {
            c.manifold.count = 0;
            n.dead += 1;
            return;
        }
        let mut updated = Contact::new(c.a, c.b, manifold, friction, restitution, Some(c));
        updated.margin = distance;
        updated.origin = Some(ManifoldOrigin::new(self.step, ba, bb, manifold, distance));
        *c = updated;
    }

    /// The friction and restitution of a compound's shape pair, from the shapes' materials
    /// (`mixed`, the bodies' mix, when the world overrides them).
    pub(crate) fn shape_materials(&self, c: &Contact, mixed: (f32, f32)) -> (f32, f32) {
        let (ma, mb) = (self.bodies[c.a].material_at(c.sa()), self.bodies[c.b].material_at(c.sb()));
        let p = self.params;
        (
            p.friction_override.map_or_else(|| mix_friction(ma.friction, mb.friction), |_| mixed.0),
            p.restitution_override.map_or_else(|| mix_restitution(ma.restitution, mb.restitution), |_| mixed.1),
        )
    }

    /// A new contact for the pair `(a, b)`, if their shapes touch.
    fn create(&self, a: usize, b: usize, n: &mut Counts) -> Option<Contact> {
        let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
        let (distance, friction, restitution) = self.pair(a, b);
        n.computed += 1;
        let manifold = collide_with(&ba.shape, &ba.xf, &bb.shape, &bb.xf, distance, self.params.reference_face);
        (manifold.count > 0).then(|| {
            let mut added = Contact::new(a, b, manifold, friction, restitution, None);
            added.margin = distance;
            added.origin = Some(ManifoldOrigin::new(self.step, ba, bb, manifold, distance));
            added
        })
    }
}

impl NarrowphaseCache {
    /// Phase 1, the merge-join of the sorted contacts with the broadphase's sorted pairs: each
    /// contact's fate, and the new pairs (minus those a joint filters). With several threads
    /// the pair list is cut into parts at pair keys and each part is joined with its own range
    /// of contacts on a worker (the parts' results, concatenated, are the whole join's).
    fn merge_join(&mut self, contacts: &[Contact], broadphase: &Broadphase, filter: &[(u32, u32)], workers: &Workers) {
        let NarrowphaseCache { fates, new_pairs, new_pair_parts, active, any_compound, pair_bodies, .. } = self;
        let compound = any_compound.then_some(&pair_bodies[..]);
        let pairs = broadphase.pairs();
        let parts = workers.threads().min(pairs.len() / MERGE_PART_PAIRS).max(1);
        fates.clear();
        fates.resize(contacts.len(), Fate::Lost);
        new_pair_parts.resize_with(parts, Vec::new);
        let mut jobs = Vec::with_capacity(parts);
        let (mut fates_rest, mut outs) = (&mut fates[..], &mut new_pair_parts[..]);
        let (mut p0, mut k0, mut f0) = (0, 0, 0);
        for part in 1..=parts {
            let p1 = pairs.len() * part / parts;
            let (k1, f1) = match pairs.get(p1) {
                Some(&(i, j)) => (
                    contacts.partition_point(|c| (c.a, c.b) < (i as usize, j as usize)),
                    filter.partition_point(|&pair| pair < (i, j)),
                ),
                None => (contacts.len(), filter.len()),
            };
            let (fates_part, rest) = std::mem::take(&mut fates_rest).split_at_mut(k1 - k0);
            let (out, more) = std::mem::take(&mut outs).split_first_mut().expect("one list per part");
            out.clear();
            jobs.push(MergePart {
                pairs: &pairs[p0..p1],
                contacts: &contacts[k0..k1],
                filter: &filter[f0..f1],
                fates: fates_part,
                new_pairs: out,
                compound,
            });
            (fates_rest, outs, p0, k0, f0) = (rest, more, p1, k1, f1);
        }
        let active = &*active;
        workers.run(|| {
            workers.for_each_chunk(&mut jobs, 1, &|_, jobs| jobs.iter_mut().for_each(|j| j.join(broadphase, active)));
        });
        drop(jobs);
        new_pairs.clear();
        for part in new_pair_parts.iter() {
            new_pairs.extend_from_slice(part);
        }
    }

    /// Phase 2, every updated contact's and new pair's manifold, in blocks on the workers: each reads
    /// only the bodies and writes only its own contact (new ones into `new_contacts`).
    fn compute_manifolds(
        &mut self,
        contacts: &mut [Contact],
        bodies: &[Body],
        params: &SolverParams,
        step: u64,
        workers: &Workers,
    ) -> Counts {
        let NarrowphaseCache { fates, new_pairs, new_contacts, still, pair_bodies, .. } = self;
        let pair = PairContext { bodies, params, still, pair_bodies, step };
        let tally = Tally::default();
        new_contacts.clear();
        new_contacts.resize(new_pairs.len(), None);
        workers.run(|| {
            workers.for_each_chunk2(contacts, fates, CONTACT_BLOCK, &|_, cs, fs| {
                let mut n = Counts::default();
                for (i, fate) in fs.iter().enumerate() {
                    if let Some(ahead) = cs.get(i + UPDATES_AHEAD) {
                        prefetch(ahead);
                    }
                    let c = &mut cs[i];
                    match fate {
                        Fate::Kept => {}
                        Fate::Lost => {
                            c.manifold.count = 0;
                            n.dead += 1;
                        }
                        Fate::Update => pair.update(c, &mut n),
                    }
                }
                tally.add(n);
            });
            workers.for_each_chunk2(new_pairs, new_contacts, CONTACT_BLOCK, &|_, ps, out| {
                let mut n = Counts::default();
                for (&(a, b), o) in ps.iter().zip(out) {
                    *o = pair.create(a, b, &mut n);
                }
                tally.add(n);
            });
        });
        tally.get()
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
        self.broadphase.update_pairs_with(&self.bodies, margin, &self.solver_scratch.workers);
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
        cache.observe(&self.bodies, &self.broadphase, margin, &self.solver_scratch.workers);
        let workers = &self.solver_scratch.workers;
        cache.merge_join(&self.contacts, &self.broadphase, &filter, workers);
        let n = cache.compute_manifolds(&mut self.contacts, &self.bodies, &self.params, self.step_count, workers);
        let NarrowphaseCache { new_contacts, added, .. } = &mut cache;
        let contacts = &mut self.contacts;

        // 3. Dead contacts out, new ones in (in order).
        if n.dead > 0 {
            contacts.retain(|c| c.manifold.count > 0);
        }
        added.clear();
        added.reserve(new_contacts.len());
        added.extend(new_contacts.drain(..).flatten());
        let mut computed = n.computed;
        if cache.any_compound {
            let NarrowphaseCache { still, pair_bodies, active, added, .. } = &cache;
            let pc =
                PairContext { bodies: &self.bodies, params: &self.params, still, pair_bodies, step: self.step_count };
            let pairs = CompoundPairs { broadphase: &self.broadphase, filter: &filter, active };
            let mut more = Vec::new();
            computed += add_new_shape_pairs(&pc, &pairs, contacts, &mut more);
            if !more.is_empty() {
                more.extend_from_slice(added);
                more.sort_unstable_by_key(Contact::key);
                cache.added = more;
            }
        }
        let NarrowphaseCache { added, .. } = &mut cache;
        let same = n.dead == 0 && added.is_empty();
        merge_from_back(contacts, added);
        (cache.computed, cache.skipped, cache.recycled) = (computed, n.skipped, n.recycled);
        cache.contacts_same &= same;
        self.profile.manifolds = computed;
        self.profile.manifolds_reused = n.skipped;
        self.profile.manifolds_recycled = n.recycled;
        self.narrowphase = cache;
        self.joint_filter = Some(filter);
        self.profile.narrowphase_ms = t1.elapsed().as_secs_f32() * 1000.0;
    }
}

impl World {
    /// Forgets the manifold records of body `body`'s contacts, so none of them is recycled at
    /// the next narrowphase, and what its broadphase box was computed from
    /// (`Broadphase::forget_box`): call it after editing the body's shape, mass or kind
    /// (Box2D v3 destroys the contacts of an edited shape).
    pub fn forget_manifold_origins(&mut self, body: usize) {
        self.broadphase.forget_box(body);
        for c in self.contacts.iter_mut().filter(|c| c.a == body || c.b == body) {
            c.origin = None;
        }
    }
}
