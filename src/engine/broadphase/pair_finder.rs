//! The world's broadphase: one tree proxy per body, a move buffer, and a persistent set of
//! pairs (003 article, "Dynamic AABB Tree" → "Update" and "Culling Queries Further": "only
//! query rigid bodies that moved last frame", and "when contact constraints are updated, they
//! must first have each involved shape's bounding volume checked against each other. This
//! will allow old contact constraints to be removed").
//!
//! Each step:
//! 1. *synchronize*: every body's tight AABB (shape box grown by the speculative margin and
//!    the body's speculative reach, `reach::speculative_reach`) is
//!    compared with its proxy's fat AABB; a proxy whose box escaped gets a new fat box in
//!    place (`enlarge_proxy`, marking its ancestors) and enters the move buffer; before the
//!    queries, the marked branches of the tree are rebuilt (`rebuild_enlarged`), as Box2D v3
//!    enlarges its proxies and rebuilds its tree partially each step instead of removing and
//!    reinserting every proxy that moved. Comparing every body is cheap and catches
//!    bodies the app moved or retyped directly; added bodies get new proxies. At the start of
//!    a step a box is recomputed only if what it is computed from changed since the end of
//!    the last one (`BoxSource`: transform, kind, at the start-of-step pose or not; a shape
//!    or mass edited in place is announced with [`Broadphase::forget_box`], which
//!    `World::forget_manifold_origins` calls), and the proxies are visited only if a box or a
//!    filter changed: after a step the app did not touch, nothing is.
//!    Bodies removed through `World::remove_body` are taken out by [`Broadphase::remove_body`];
//!    if the body vector shrank any other way, the broadphase is rebuilt.
//! 2. *query*: each proxy in the move buffer queries the tree with its fat AABB; new pairs
//!    are sorted, deduplicated and merged into the sorted pair set (no hash-map order).
//! 3. *prune*: pairs whose fat AABBs stopped overlapping are removed.
//!
//! A pair stays while the fat AABBs overlap, even when the shapes are apart; the world runs
//! the narrowphase only for pairs whose tight AABBs overlap (`may_touch`), so the contacts
//! are exactly those of an all-pairs search.

use super::brute::find_pairs_brute_force;
use super::sweep::find_pairs as sweep_pairs;
use super::sweep_trace::SweepTrace;
use super::tree::{DynamicTree, TreeSettings};
use super::tree_query::QueryStats;
use super::tree_rebuild::RebuildMethod;
use crate::engine::body::{Body, BodyKind};
use crate::engine::math::Aabb;
use crate::engine::parallel::Workers;
use crate::engine::reach::speculative_reach;
use serde::{Deserialize, Serialize};

mod pair_index;
mod proxy_sync;
mod query;
mod query_parts;
use proxy_sync::{BoxSource, ProxySync};
pub use query_parts::MAX_QUERY_VISITS;

/// How the world finds candidate pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PairFinding {
    /// The dynamic AABB tree with a move buffer and persistent pairs.
    #[default]
    Tree,
    /// Sort and sweep along x over all tight boxes, every step.
    SortAndSweep,
    /// All pairs, every step (O(n²); the reference).
    BruteForce,
}

impl PairFinding {
    pub const ALL: [PairFinding; 3] = [PairFinding::Tree, PairFinding::SortAndSweep, PairFinding::BruteForce];

    pub fn label(self) -> &'static str {
        match self {
            PairFinding::Tree => "Dynamic AABB tree",
            PairFinding::SortAndSweep => "Sort and sweep",
            PairFinding::BruteForce => "All pairs (N²)",
        }
    }
}

/// Counts of the last broadphase update (for the profile and the app's panels).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BroadphaseStats {
    /// Proxies in the tree.
    pub proxies: usize,
    /// Bodies whose tight AABB changed since the previous synchronization.
    pub moved: usize,
    /// Proxies given a new fat AABB (their tight AABB left the fat one) and queried.
    pub reinserted: usize,
    /// Pairs added and removed by this update.
    pub new_pairs: usize,
    pub removed_pairs: usize,
    /// Candidate pairs after the update.
    pub pairs: usize,
    /// Tree work of the move-buffer queries, summed.
    pub query: QueryStats,
    /// Number of move-buffer queries.
    pub queries: usize,
    /// Queries put off to the next update because the pair set reached [`MAX_PAIRS`]
    /// (tree mode), or pairs dropped for it (sort and sweep, brute force).
    pub deferred: usize,
}

/// Most pairs the broadphase keeps. Bodies created on top of each other overlap in n²/2
/// pairs (10,000 coincident circles: 50 million); past this the update stops looking for new
/// pairs and counts what it put off, instead of allocating without bound. Real scenes stay
/// far below it (`large_pyramid`: about 15,000 pairs). A quarter more may be pairs of put-off
/// proxies with static and kinematic bodies (`Broadphase::query_fixed_pairs`).
pub const MAX_PAIRS: usize = 250_000;

/// Most new pairs one update adds (tree mode). Bodies created on top of each other would
/// otherwise find all their pairs in one step: 2,000 coincident boxes made 250,000 contacts in
/// their first step (about 0.5 s in a release build, most of it computing the manifolds of the
/// new contacts). Past this, the remaining queries wait in the move buffer for the next steps,
/// as at [`MAX_PAIRS`], and still meet the static and kinematic bodies they overlap. A
/// `large_pyramid` finds about 15,000 pairs in its first step. A packed scene is not held to
/// it (see [`NEW_PAIRS_PER_QUERY`]).
pub const MAX_NEW_PAIRS: usize = 32_768;

/// New pairs per query that any scene may add in one update beyond [`MAX_NEW_PAIRS`]: the
/// first `k` queries of the move buffer may add `max(MAX_NEW_PAIRS, 4 k)` new pairs
/// ([`new_pair_room`]). A box packed among others touches up to 8 neighbours and reports each
/// pair once (the larger proxy's query), 4 per query; `many_pyramids` (22,020 boxes) finds
/// 58,000 pairs in its first step, 2.6 per query, where the plain bound put 9,571 of its
/// queries off to the second step (Box2D finds them all at once). A pile's queries report
/// hundreds of pairs each, so its new pairs stay bounded by [`MAX_NEW_PAIRS`].
pub const NEW_PAIRS_PER_QUERY: usize = 4;

/// The new pairs the first `queries` queries of the move buffer may add together, with
/// `room` left in the pair set ([`MAX_PAIRS`]).
pub fn new_pair_room(queries: usize, room: usize) -> usize {
    room.min(MAX_NEW_PAIRS.max(NEW_PAIRS_PER_QUERY.saturating_mul(queries)))
}

/// A body's tree proxy, with what the pair filter (`should_collide`) read of the body when
/// the proxy was last synchronized: a change of either re-examines the body's pairs.
#[derive(Clone, Copy, Debug)]
struct Proxy {
    id: u32,
    kind: BodyKind,
    category_bits: u32,
    mask_bits: u32,
}

impl Proxy {
    fn new(id: u32, b: &Body) -> Proxy {
        Proxy { id, kind: b.kind, category_bits: b.category_bits, mask_bits: b.mask_bits }
    }

    /// Whether the body's kind or collision filter changed since the proxy last saw it.
    fn filter_changed(&self, b: &Body) -> bool {
        self.kind != b.kind || self.category_bits != b.category_bits || self.mask_bits != b.mask_bits
    }
}

/// Proxies, move buffer and pair set of a world (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Broadphase {
    pub mode: PairFinding,
    /// When set, the tree is rebuilt top-down with this method every step (after the
    /// proxies moved, before the queries) instead of relying on incremental balancing alone.
    pub rebuild: Option<RebuildMethod>,
    /// The tree, with user data = body index. Fresh after every step in `Tree` mode; empty in
    /// the other modes.
    pub tree: DynamicTree<u32>,
    /// The static and kinematic bodies' proxies alone, for put-off queries (scratch).
    fixed_tree: DynamicTree<u32>,
    proxies: Vec<Proxy>,
    /// Bodies whose proxy was created, reinserted or retyped since the last query.
    move_buffer: Vec<u32>,
    in_move_buffer: Vec<bool>,
    /// Sorted, unique `(i, j)` body pairs, `i < j`.
    pairs: Vec<(u32, u32)>,
    /// Where each body's run of `pairs` starts, built before the move buffer's queries.
    pair_index: pair_index::PairIndex,
    /// Tight AABB of every body at the last update (shape box + speculative margin + reach).
    tight: Vec<Aabb>,
    /// What each body's tight AABB was computed from, and its speculative reach then.
    sources: Vec<BoxSource>,
    /// The margin `tight` was computed with.
    tight_margin: f32,
    /// Every proxy matches `tight` and its body's filter (a synchronization ran after the last
    /// change of `tight`).
    synced: bool,
    /// What each body's proxy needs at the end-of-step synchronization (scratch).
    sync: Vec<ProxySync>,
    candidates: Vec<(u32, u32)>,
    /// The move-buffer queries' parts (scratch).
    query_parts: Vec<query_parts::QueryPart>,
    merged: Vec<(u32, u32)>,
    order: Vec<u32>,
    pub stats: BroadphaseStats,
}

/// A body's tight AABB for pair finding: its shape's box grown by the speculative margin and
/// its speculative `reach` (`reach::speculative_reach`).
pub fn body_aabb(b: &Body, speculative: f32, reach: f32) -> Aabb {
    b.compute_aabb().expanded(speculative + reach)
}

/// One sort-and-sweep pass over `bodies`' tight AABBs (grown by `speculative` and each body's
/// speculative reach, as the broadphase builds them) with the broadphase's pair filter, recorded into `trace`: what the
/// sort-and-sweep mode does each step, for stepping through it. Returns the pairs found.
pub fn trace_sort_and_sweep(bodies: &[Body], speculative: f32, trace: &mut SweepTrace) -> Vec<(u32, u32)> {
    let aabbs: Vec<Aabb> = bodies.iter().map(|b| body_aabb(b, speculative, speculative_reach(b))).collect();
    super::sweep::find_pairs_traced(&aabbs, |i, j| should_collide(&bodies[i], &bodies[j]), trace)
}

/// Contacts need at least one dynamic body and filters that accept each other (Box2D's
/// `b2ShouldShapesCollide` in its pair query).
#[inline]
fn should_collide(a: &Body, b: &Body) -> bool {
    (a.kind == BodyKind::Dynamic || b.kind == BodyKind::Dynamic) && a.should_collide(b)
}

/// Keeps the items of a per-body list whose index is not `gone`.
fn retain_unremoved<T>(list: &mut Vec<T>, gone: &impl Fn(usize) -> bool) {
    let mut k = 0;
    list.retain(|_| {
        k += 1;
        !gone(k - 1)
    });
}

impl Broadphase {
    pub fn new(mode: PairFinding, settings: TreeSettings) -> Broadphase {
        Broadphase { mode, tree: DynamicTree::new(settings), ..Default::default() }
    }

    /// The current candidate pairs, sorted. Every one passed the collision filter
    /// (`should_collide`) at the last `update_pairs`: pairs that fail it are never added and are
    /// pruned at each update.
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Whether bodies `i` and `j` may be within the speculative margin (their tight AABBs
    /// overlap); the narrowphase only runs for those.
    #[inline]
    pub fn may_touch(&self, i: u32, j: u32) -> bool {
        self.tight[i as usize].overlaps(&self.tight[j as usize])
    }

    /// How far beyond the speculative margin body `i`'s contacts look ahead: its speculative
    /// reach at the last update (0 for a body the broadphase has not seen).
    #[inline]
    pub fn reach(&self, i: usize) -> f32 {
        self.sources.get(i).map_or(0.0, |s| s.reach)
    }

    /// The tight AABB of body `i` at the last update.
    pub fn tight_aabb(&self, i: usize) -> Option<Aabb> {
        self.tight.get(i).copied()
    }

    /// Whether the tree has one proxy per body (it may still lag bodies moved since the last
    /// step or `World::sync_broadphase`).
    pub fn has_proxies_for(&self, body_count: usize) -> bool {
        self.mode == PairFinding::Tree && self.proxies.len() == body_count
    }

    /// The tree proxy of body `i`, if the tree is in use.
    pub fn proxy_of(&self, i: usize) -> Option<u32> {
        self.proxies.get(i).map(|p| p.id)
    }

    /// Changes the tree's insertion strategy, balancing or margins: the proxies are
    /// recreated with them at the next update. Pairs are found again, so contacts (which
    /// depend only on tight AABBs) are unaffected.
    pub fn set_tree_settings(&mut self, settings: TreeSettings) {
        self.tree.settings = settings;
        self.reset();
    }

    /// An empty broadphase with the same mode, tree settings and rebuild method (the next
    /// update creates the proxies and finds the pairs).
    pub fn emptied(&self) -> Broadphase {
        Broadphase { mode: self.mode, rebuild: self.rebuild, ..Broadphase::new(self.mode, self.tree.settings) }
    }

    /// Forgets every proxy and pair (the next update recreates them).
    pub fn reset(&mut self) {
        self.tree.clear();
        self.proxies.clear();
        self.move_buffer.clear();
        self.in_move_buffer.clear();
        self.pairs.clear();
        self.synced = false;
    }

    /// Forgets what body `i`'s tight AABB was computed from, so the next update recomputes
    /// it: call it after editing the body's shape in place (a pose, kind or filter edit is
    /// seen without it).
    pub fn forget_box(&mut self, i: usize) {
        if let Some(s) = self.sources.get_mut(i) {
            s.known = false;
        }
    }

    /// Forgets body `index`, which the world removed (the bodies after it moved down by one):
    /// [`Broadphase::remove_bodies`] of that one body.
    pub fn remove_body(&mut self, index: usize) {
        self.remove_bodies(&[index]);
    }

    /// Forgets the bodies `removed` (ascending, distinct), which the world removed in one go
    /// (every later body moved down by the removed ones before it): destroys their proxies,
    /// drops their pairs and renumbers every later body's proxy, pairs and move-buffer entry
    /// in one pass, so the tree and the pair set stay valid without a rebuild.
    pub fn remove_bodies(&mut self, removed: &[usize]) {
        let Some(&lowest) = removed.first() else { return };
        let gone = |b: usize| removed.binary_search(&b).is_ok();
        let shift = |b: u32| b - removed.partition_point(|&r| r < b as usize) as u32;
        if lowest < self.proxies.len() {
            for &r in removed.iter().filter(|&&r| r < self.proxies.len()) {
                self.tree.destroy_proxy(self.proxies[r].id);
            }
            retain_unremoved(&mut self.proxies, &gone);
            retain_unremoved(&mut self.in_move_buffer, &gone);
            for (k, p) in self.proxies.iter().enumerate().skip(lowest) {
                self.tree.set_user_data(p.id, k as u32);
            }
        }
        self.move_buffer.retain(|&b| !gone(b as usize));
        for b in &mut self.move_buffer {
            *b = shift(*b);
        }
        // Renumbering is monotone, so the pairs stay sorted and unique.
        self.pairs.retain(|&(i, j)| !gone(i as usize) && !gone(j as usize));
        for (i, j) in &mut self.pairs {
            (*i, *j) = (shift(*i), shift(*j));
        }
        if lowest < self.tight.len() {
            retain_unremoved(&mut self.tight, &gone);
            retain_unremoved(&mut self.sources, &gone);
        }
        self.synced = false;
    }

    /// Brings the pair set up to date with `bodies` (steps 1–3 of the module docs).
    pub fn update_pairs(&mut self, bodies: &[Body], speculative: f32) {
        self.update_pairs_with(bodies, speculative, &Workers::default());
    }

    /// [`Broadphase::update_pairs`], with the boxes recomputed in blocks on `workers`.
    pub fn update_pairs_with(&mut self, bodies: &[Body], speculative: f32, workers: &Workers) {
        self.stats = BroadphaseStats::default();
        self.refresh_tight(bodies, speculative, workers, true);
        let pair_ok = |i: usize, j: usize| should_collide(&bodies[i], &bodies[j]);
        match self.mode {
            PairFinding::Tree => {
                if self.proxies.is_empty() {
                    self.pairs.clear();
                }
                if !self.synced || self.proxies.len() != bodies.len() {
                    self.synchronize_proxies(bodies);
                }
                match self.rebuild {
                    Some(method) => self.tree.rebuild(method),
                    None => self.tree.rebuild_enlarged(),
                }
                self.stats.removed_pairs = self.prune_pairs(bodies);
                let kept = self.pairs.len();
                self.query_move_buffer(bodies, workers);
                self.stats.new_pairs = self.pairs.len() - kept;
            }
            PairFinding::SortAndSweep | PairFinding::BruteForce => {
                self.drop_tree();
                let refused = std::cell::Cell::new(0usize);
                let kept = std::cell::Cell::new(0usize);
                let capped = |i: usize, j: usize| {
                    let ok = pair_ok(i, j);
                    if ok && kept.get() >= MAX_PAIRS {
                        refused.set(refused.get() + 1);
                        return false;
                    }
                    kept.set(kept.get() + ok as usize);
                    ok
                };
                self.pairs = if self.mode == PairFinding::SortAndSweep {
                    sweep_pairs(&self.tight, &mut self.order, capped)
                } else {
                    find_pairs_brute_force(&self.tight, capped)
                };
                self.stats.deferred = refused.get();
            }
        }
        debug_assert!(self.pairs.windows(2).all(|w| w[0] < w[1]), "pairs sorted and unique");
        #[cfg(debug_assertions)]
        if self.mode == PairFinding::Tree {
            if let Err(e) = self.tree.validate() {
                panic!("dynamic tree invariant broken: {e}");
            }
        }
        self.stats.pairs = self.pairs.len();
        self.stats.proxies = self.tree.proxy_count();
    }

    fn drop_tree(&mut self) {
        if !self.proxies.is_empty() {
            self.reset();
        }
    }

    /// End-of-step synchronization (Box2D's "synchronize fixtures"): moves the proxies of
    /// bodies the solver moved, so the tree matches the world between steps (for drawing and
    /// ray casts). New pairs are found by the next `update_pairs`.
    pub fn synchronize(&mut self, bodies: &[Body], speculative: f32) {
        self.synchronize_with(bodies, speculative, &Workers::default());
    }

    /// [`Broadphase::synchronize`], with the boxes recomputed in blocks on `workers`.
    pub fn synchronize_with(&mut self, bodies: &[Body], speculative: f32, workers: &Workers) {
        if self.mode != PairFinding::Tree {
            return;
        }
        self.refresh_tight(bodies, speculative, workers, false);
        if self.proxies.len() != bodies.len() {
            self.synchronize_proxies(bodies);
        } else if !self.synced {
            self.synchronize_moved(bodies, workers);
        }
    }

    /// Step 3: drops pairs whose fat AABBs stopped overlapping or that may no longer collide.
    /// Only a proxy in the move buffer can have changed either (its fat box is new, or its
    /// kind or filter changed: `synchronize_proxies`), so only pairs with one are examined.
    /// Returns how many were dropped.
    fn prune_pairs(&mut self, bodies: &[Body]) -> usize {
        if self.move_buffer.is_empty() {
            return 0;
        }
        let before = self.pairs.len();
        let (tree, proxies, moved) = (&self.tree, &self.proxies, &self.in_move_buffer);
        self.pairs.retain(|&(i, j)| {
            let (i, j) = (i as usize, j as usize);
            if !moved[i] && !moved[j] {
                return true;
            }
            let (pi, pj) = (proxies[i].id, proxies[j].id);
            should_collide(&bodies[i], &bodies[j]) && tree.fat_aabb(pi).overlaps(&tree.fat_aabb(pj))
        });
        before - self.pairs.len()
    }
}
