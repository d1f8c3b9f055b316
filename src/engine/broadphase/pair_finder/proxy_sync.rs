//! Step 1 of the broadphase (`pair_finder`'s module docs), *synchronize*: each body's tight
//! AABB recomputed from what it is computed from (`BoxSource`), and the tree's proxies created,
//! retyped, tightened in place or reinserted to match (serially, or at the end of a step with
//! each proxy's need decided on the workers first, as Box2D v3's enlarge pass).

use super::{body_aabb, Broadphase, Proxy};
use crate::engine::body::{Body, BodyKind};
use crate::engine::math::Aabb;
use crate::engine::parallel::{Workers, BODY_BLOCK};
use crate::engine::reach::speculative_reach;
use glam::Vec2;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a body's proxy needs at [`Broadphase::synchronize_moved`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) enum ProxySync {
    /// Its tight box is the tree's already.
    #[default]
    Keep,
    /// A new tight box, still inside the fat one: recorded in place.
    Tighten,
    /// A new tight box that left the fat one (or a fat one grown far too large): a new fat box,
    /// in place (`DynamicTree::enlarge_proxy`).
    Enlarge,
    /// Its kind or filter changed.
    Retype,
}

/// What a body's tight AABB is computed from besides its shape and the margin, as bits: the
/// transform, the kind, and whether the body is at its start-of-step pose (its speculative
/// reach is then zero; the start-of-step pose itself is the engine's, and an edit only ever
/// resets it to the current pose). With the reach it gave. The same sources give the same
/// box, which is then not recomputed. (A centre of mass or extent changes only with the shape
/// or mass: announced with [`Broadphase::forget_box`].)
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BoxSource {
    pub(super) reach: f32,
    xf: [u32; 4],
    kind: BodyKind,
    at_start: bool,
    /// False until computed, and after [`Broadphase::forget_box`].
    pub(super) known: bool,
}

impl BoxSource {
    #[inline]
    fn xf_bits(b: &Body) -> [u32; 4] {
        [b.xf.p.x, b.xf.p.y, b.xf.q.c, b.xf.q.s].map(f32::to_bits)
    }

    /// Whether `b` is at its start-of-step pose (`reach::speculative_reach`'s test).
    #[inline]
    fn at_start(b: &Body) -> bool {
        b.center == b.center0 && b.q0 == b.xf.q
    }

    /// Body `b`'s sources and reach, now.
    #[inline]
    pub(super) fn of(b: &Body) -> BoxSource {
        let (xf, kind, at_start) = (BoxSource::xf_bits(b), b.kind, BoxSource::at_start(b));
        BoxSource { reach: speculative_reach(b), xf, kind, at_start, known: true }
    }

    /// Whether `b`'s box would be computed from these sources.
    #[inline]
    fn matches(&self, b: &Body) -> bool {
        self.known && self.kind == b.kind && self.xf == BoxSource::xf_bits(b) && self.at_start == BoxSource::at_start(b)
    }
}

impl Broadphase {
    /// Recomputes the tight AABBs of bodies that may have moved: awake ones (dynamic bodies
    /// awake, static bodies edited this step) and kinematic ones; with `by_source`, only those
    /// whose [`BoxSource`] changed (the start of a step: the end of the previous one computed
    /// them all, so a shape edit nobody announced lags one step, not more). A sleeping body
    /// keeps its box, and so its proxy (003 article: query only bodies that moved). Each
    /// body's box is its own, so blocks of bodies go to `workers`. Leaves `synced` false if a
    /// box was recomputed or a body's filter changed.
    pub(super) fn refresh_tight(&mut self, bodies: &[Body], speculative: f32, workers: &Workers, by_source: bool) {
        if self.tight.len() != bodies.len() || self.tight_margin != speculative {
            self.sources.clear();
            self.sources.extend(bodies.iter().map(BoxSource::of));
            self.tight.clear();
            self.tight.extend(bodies.iter().zip(&self.sources).map(|(b, s)| body_aabb(b, speculative, s.reach)));
            self.tight_margin = speculative;
            self.synced = false;
            return;
        }
        let changed = AtomicBool::new(false);
        let proxies = &self.proxies;
        workers.for_each_chunk2(&mut self.tight, &mut self.sources, BODY_BLOCK, &|start, tight, sources| {
            let mut any = false;
            for (i, ((t, s), b)) in (start..).zip(tight.iter_mut().zip(sources).zip(&bodies[start..])) {
                if (b.awake || b.kind == BodyKind::Kinematic) && !(by_source && s.matches(b)) {
                    *s = BoxSource::of(b);
                    *t = body_aabb(b, speculative, s.reach);
                    any = true;
                }
                // Once a box changed the proxies are visited anyway (filters included).
                any = any || proxies.get(i).is_some_and(|p| p.filter_changed(b));
            }
            if any {
                changed.store(true, Ordering::Relaxed);
            }
        });
        if changed.into_inner() {
            self.synced = false;
        }
    }

    /// [`Broadphase::synchronize_proxies`] when every body has its proxy (the end of a step,
    /// Box2D v3's enlarge pass): what each proxy needs is decided in blocks on `workers`,
    /// reading the tree only (a leaf's fat box changes only with its own proxy, so no decision
    /// depends on another's move), then applied here in body order, visiting only the compact
    /// per-body records and the proxies that leave their fat boxes. A changed filter, rare,
    /// sends every body through the serial walk.
    pub(super) fn synchronize_moved(&mut self, bodies: &[Body], workers: &Workers) {
        let (tree, proxies, tight) = (&self.tree, &self.proxies, &self.tight);
        self.sync.resize(bodies.len(), ProxySync::Keep);
        workers.for_each_chunk(&mut self.sync, BODY_BLOCK, &|start, sync| {
            for (i, s) in (start..).zip(sync.iter_mut()) {
                let (b, p, t) = (&bodies[i], proxies[i], tight[i]);
                *s = if p.filter_changed(b) {
                    ProxySync::Retype
                } else if !t.is_valid() || t == tree.tight_aabb(p.id) {
                    ProxySync::Keep
                } else if tree.stays(p.id, t, b.center - b.center0) {
                    ProxySync::Tighten
                } else {
                    ProxySync::Enlarge
                };
            }
        });
        if self.sync.contains(&ProxySync::Retype) {
            return self.synchronize_proxies(bodies);
        }
        let (mut moved, mut reinserted) = (0, 0);
        for (i, b) in bodies.iter().enumerate() {
            let (id, t) = (self.proxies[i].id, self.tight[i]);
            match self.sync[i] {
                ProxySync::Keep | ProxySync::Retype => {}
                ProxySync::Tighten => {
                    self.tree.set_tight(id, t);
                    moved += 1;
                }
                ProxySync::Enlarge => {
                    moved += 1;
                    if self.tree.enlarge_proxy(id, t, b.center - b.center0) {
                        reinserted += 1;
                        self.push_moved(i);
                    }
                }
            }
        }
        self.stats.moved += moved;
        self.stats.reinserted += reinserted;
        self.synced = true;
    }

    pub(super) fn push_moved(&mut self, body: usize) {
        if !self.in_move_buffer[body] {
            self.in_move_buffer[body] = true;
            self.move_buffer.push(body as u32);
        }
    }

    /// Step 1: creates, moves and retypes proxies from `self.tight`.
    pub(super) fn synchronize_proxies(&mut self, bodies: &[Body]) {
        if self.proxies.len() > bodies.len() {
            // Bodies were removed and indices may have shifted: start over.
            self.reset();
        }
        let (mut moved, mut reinserted) = (0, 0);
        for (i, b) in bodies.iter().enumerate() {
            let tight = self.tight[i];
            if i >= self.proxies.len() {
                let valid = if tight.is_valid() { tight } else { Aabb::new(Vec2::ZERO, Vec2::ZERO) };
                let id = self.tree.create_proxy(valid, i as u32);
                self.proxies.push(Proxy::new(id, b));
                self.in_move_buffer.push(false);
                self.push_moved(i);
                continue;
            }
            let p = self.proxies[i];
            if p.filter_changed(b) {
                self.proxies[i] = Proxy::new(p.id, b);
                self.push_moved(i);
            }
            if !tight.is_valid() || tight == self.tree.tight_aabb(p.id) {
                continue;
            }
            moved += 1;
            if self.tree.enlarge_proxy(p.id, tight, b.center - b.center0) {
                reinserted += 1;
                self.push_moved(i);
            }
        }
        // Accumulated over the step: the start-of-step pass (user edits) and the end-of-step
        // pass (the solver's motion).
        self.stats.moved += moved;
        self.stats.reinserted += reinserted;
        self.synced = true;
    }
}
