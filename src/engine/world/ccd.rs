//! Continuous collision in the world, after Box2D v3 (`b2FinalizeBodies` and
//! `b2SolveContinuous`). After the sub-steps, a dynamic body is *fast* when its motion over
//! the step, `max(|Δc| + |sin Δθ|·max_extent, (|v| + |ω|·max_extent)·dt)`, exceeds half its
//! smallest extent (the distance from its centre of mass to its nearest face): a body that
//! slow cannot pass through anything thicker than itself before the next step's speculative
//! contact sees it. Each fast body is swept from its start-of-step pose to its end pose
//! against the static bodies whose boxes overlap the swept box (scanned, or past 128 found in
//! a tree of the static bodies alone, as Box2D v3's static tree), and of a static body of
//! several shapes only against the shapes whose own boxes reach it, with the certified root
//! finder ([`crate::engine::collide::toi::certified()`]: Box2D's root finder, each advance
//! accepted only when the 004 article's motion bound for "Continuous Angular/Linear" rules
//! out an earlier contact, conservative advancement otherwise), so a
//! turning body never steps over a hit as Box2D's `b2TimeOfImpact` can; the earliest time of
//! impact wins and the body is moved back there, keeping its velocity. It ends a linear slop
//! from what it hit, inside the speculative margin, so the next step's contact stops it.
//!
//! A time of impact at 0 (already touching, e.g. sliding on the ground) is retried with the
//! body's core: the shape shrunk by three quarters of its smallest extent
//! ([`crate::engine::collide::toi::shrunk_core()`]; Box2D's `B2_CORE_FRACTION` keeps a quarter).
//! Box2D sweeps a small circle about the centre of mass, so a spinning rod touching a wall at
//! one end swings its far end through; the shrunk rod cannot. A core that touches at the start
//! too (the shape already deep in a static body) is held apart: swept with half its starting
//! distance as the target, its points' velocity into the obstacle taken away
//! (`stop_core`), and the contact pushes the body out.
//!
//! Bullets (`Body::bullet`) are swept after every other fast body, against static bodies and
//! also against non-bullet dynamic and kinematic bodies at their final poses.
//!
//! Below the threshold speculative contacts cover the motion. Unlike Box2D v3, whose contacts
//! look only a fixed speculative distance ahead, each body's contacts here also look ahead by
//! its last step's motion ([`crate::engine::reach::speculative_reach`]), so a body moving more than the margin per
//! step meets what it hits before overlapping it.

use super::toi_events::ToiEvent;
use super::World;
use crate::engine::body::{Body, BodyKind};
use crate::engine::broadphase::DynamicTree;
use crate::engine::collide::gjk_cache::SimplexCache;
use crate::engine::collide::support::{Proxy, MAX_PROXY_VERTICES};
use crate::engine::collide::toi::{
    certified, core_distance, local_proxy, shrunk_core, Sweep, ToiInput, ToiOutput, ToiState,
};
use crate::engine::math::{cross, Aabb, Transform};
use crate::engine::parallel::BODY_BLOCK;
use crate::engine::reach::{last_step_motion, CONTINUOUS_SAFETY_FACTOR};
use crate::engine::shape::extents::shape_extents;
use crate::engine::LINEAR_SLOP;
use glam::Vec2;
use std::time::Instant;

/// What the core keeps of the smallest extent (Box2D's `B2_CORE_FRACTION`): the shape shrunk
/// by the rest, see [`shrunk_core()`].
pub const CORE_FRACTION: f32 = 0.25;

/// Whether `b` moved far enough this step to be swept.
fn is_fast(b: &Body, dt: f32) -> bool {
    if b.kind != BodyKind::Dynamic {
        return false;
    }
    let (min_extent, max_extent) = b.extents();
    let max_velocity = b.linear_velocity.length() + b.angular_velocity.abs() * max_extent;
    let max_delta = last_step_motion(b, max_extent);
    max_delta.max(max_velocity * dt) > CONTINUOUS_SAFETY_FACTOR * min_extent
}

/// A time of impact of a body; for a held core (see [`impact_time`]) also the normal from the
/// obstacle to the body there. `normal`, `point` (in the sweep's frame) and `core` (found with
/// the core) are what the event log records (`world/toi_events`); the step reads only `t` and
/// `held`.
#[derive(Clone, Copy, Debug)]
struct Impact {
    t: f32,
    held: Option<Vec2>,
    normal: Vec2,
    point: Vec2,
    core: bool,
    /// The core distance that counted as impact, the tolerance on it, and the end of the
    /// interval searched (the earliest impact on another body so far).
    target: f32,
    tolerance: f32,
    t_max: f32,
}

impl Impact {
    fn of(out: &ToiOutput, core: bool, input: &ToiInput) -> Impact {
        let (target, tolerance, t_max) = (input.target, input.tolerance, input.t_max);
        Impact { t: out.t, held: None, normal: out.normal, point: out.point, core, target, tolerance, t_max }
    }
}

/// The time of impact of a body (its shape and core, moving along `sweep`) against `obstacle`
/// (moving along `other`) within `[0, t_max]`; 0 when nothing can be done. The shape first;
/// touching at the start, its core; the core touching too (the shape already deep in), and the
/// obstacle static (`hold`), the core held apart: swept to half its starting distance, so it
/// never closes in.
fn impact_time(
    obstacle: Proxy,
    other: Sweep,
    (shape, core): (Proxy, Proxy),
    sweep: Sweep,
    t_max: f32,
    hold: bool,
) -> Impact {
    let input = ToiInput { t_max, ..ToiInput::new(obstacle, other, shape, sweep) };
    let out = certified(&input, None);
    if out.t > 0.0 {
        return Impact::of(&out, false, &input);
    }
    let input = ToiInput { t_max, ..ToiInput::new(obstacle, other, core, sweep) };
    let out = certified(&input, None);
    if out.t > 0.0 || out.state == ToiState::Overlapped || !hold {
        return Impact::of(&out, true, &input);
    }
    let (xa, xb) = input.transforms(0.0);
    let start = core_distance(&input, &xa, &xb, &mut SimplexCache::default());
    if start.overlap || start.distance.is_nan() || start.distance <= 0.0 {
        return Impact { t: 0.0, ..Impact::of(&out, true, &input) };
    }
    let held = ToiInput { target: 0.5 * start.distance, tolerance: 0.125 * start.distance, ..input };
    let out = certified(&held, None);
    Impact { held: (out.is_hit() && out.normal != Vec2::ZERO).then_some(out.normal), ..Impact::of(&out, true, &held) }
}

/// Takes from `b` the velocity that drives its core into a static obstacle whose surface
/// faces `normal` (from the obstacle to the body): plastic impacts of every core point
/// against that surface's plane, by sequential impulses. A held core meets the
/// obstacle with a part of the body that the step's contacts do not hold (beyond their
/// speculative margin), and a spinning body swings its other end in next, so without it the
/// body would be held again at every step, closing in a little each time.
fn stop_core(b: &mut Body, core: &Proxy, normal: Vec2) {
    let mut arms = [Vec2::ZERO; MAX_PROXY_VERTICES];
    for (arm, q) in arms.iter_mut().zip(core.points()) {
        *arm = b.xf.apply(*q) - b.center;
    }
    for _ in 0..STOP_ITERATIONS {
        for r in &arms[..core.count] {
            let approach = (b.linear_velocity + b.angular_velocity * r.perp()).dot(normal);
            let rn = cross(*r, normal);
            let k = b.inv_mass + b.inv_inertia * rn * rn;
            if approach < 0.0 && k > 0.0 {
                let impulse = -approach / k;
                b.linear_velocity += b.inv_mass * impulse * normal;
                b.angular_velocity += b.inv_inertia * rn * impulse;
            }
        }
    }
}

/// Each shape of `b` as a GJK proxy in the body frame, with its core for a body of smallest
/// extent `min_extent` (a compound's parts: each part's own core, see `engine::compound`).
/// Continuous collision of a compound is per shape: each shape of the moving body against
/// each shape of what it may hit, the earliest impact winning, so a hammer's thin handle is
/// swept as itself, not as the body's smallest extent about its centre.
fn body_proxies(b: &Body, min_extent: f32) -> Vec<(Proxy, Proxy)> {
    if b.parts.is_empty() {
        return vec![(local_proxy(&b.shape), shrunk_core(&b.shape, b.local_center, min_extent, CORE_FRACTION))];
    }
    b.parts
        .iter()
        .map(|p| {
            let local = p.local();
            let (own_min, _) = shape_extents(&p.shape, local.apply_inv(b.local_center));
            let core = shrunk_core(&p.shape, local.apply_inv(b.local_center), own_min, CORE_FRACTION);
            (Proxy::from_shape(&p.shape, &local, Vec2::ZERO), placed(core, &local))
        })
        .collect()
}

/// Each shape of `b` as a GJK proxy in the body frame.
fn shape_proxies(b: &Body) -> impl Iterator<Item = Proxy> + '_ {
    (0..b.shape_count()).map(|k| match b.parts.get(k) {
        None => local_proxy(&b.shape),
        Some(p) => Proxy::from_shape(&p.shape, &p.local(), Vec2::ZERO),
    })
}

/// A proxy given in a part's frame, moved to the body frame.
fn placed(mut proxy: Proxy, local: &Transform) -> Proxy {
    for (q, n) in proxy.points[..proxy.count].iter_mut().zip(&mut proxy.normals) {
        *q = local.apply(*q);
        *n = local.q.apply(*n);
    }
    proxy
}

/// Sequential-impulse passes of [`stop_core`].
const STOP_ITERATIONS: usize = 4;

/// Up to this many static bodies, a sweep scans their boxes instead of querying a tree of them.
const STATIC_SCAN_MAX: usize = 128;

/// The static bodies a body that is not a bullet is swept against, each with its box: few
/// enough to scan, or in a tree of their own (its user data the index in the list), as Box2D
/// v3 keeps its static shapes in a tree apart from the moving ones.
struct Statics {
    list: Vec<(usize, Aabb)>,
    tree: Option<DynamicTree<u32>>,
}

impl Statics {
    fn of(world: &World) -> Statics {
        let list: Vec<(usize, Aabb)> = world
            .bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.kind == BodyKind::Static)
            .map(|(i, b)| (i, b.compute_aabb()))
            .collect();
        let tree = (list.len() > STATIC_SCAN_MAX).then(|| {
            let mut tree = DynamicTree::new(world.broadphase.tree.settings);
            for (k, &(_, aabb)) in list.iter().enumerate() {
                tree.create_proxy(aabb, k as u32);
            }
            tree
        });
        Statics { list, tree }
    }

    /// The static bodies whose boxes overlap `swept`, in index order, into `out`.
    fn overlapping(&self, swept: &Aabb, out: &mut Vec<usize>) {
        match &self.tree {
            None => out.extend(self.list.iter().filter(|(_, aabb)| aabb.overlaps(swept)).map(|&(j, _)| j)),
            Some(tree) => {
                tree.query(swept, |_, k| {
                    let (j, aabb) = self.list[k as usize];
                    if aabb.overlaps(swept) {
                        out.push(j);
                    }
                    true
                });
                out.sort_unstable();
            }
        }
    }
}

impl World {
    /// The continuous pass of the step (see the module docs): fills `profile.ccd_ms` and
    /// `profile.toi_events`. Does nothing when `params.continuous` is off.
    pub(crate) fn solve_continuous(&mut self) {
        self.profile.ccd_ms = 0.0;
        self.profile.toi_events = 0;
        self.toi_events.keep_steps(self.step_count + 1, self.params.toi_event_steps);
        if !self.params.continuous {
            return;
        }
        let start = Instant::now();
        let dt = self.dt();
        // Which bodies are fast: each body's own test, in blocks on the workers.
        let mut flags = std::mem::take(&mut self.solver_scratch.body_flags);
        flags.clear();
        flags.resize(self.bodies.len(), false);
        let bodies = &self.bodies;
        self.solver_scratch.workers.for_each_chunk(&mut flags, BODY_BLOCK, &|start, flags| {
            for (f, b) in flags.iter_mut().zip(&bodies[start..]) {
                *f = is_fast(b, dt);
            }
        });
        let (mut fast, mut bullets) = (Vec::new(), Vec::new());
        for (i, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
            if self.bodies[i].bullet {
                bullets.push(i);
            } else {
                fast.push(i);
            }
        }
        self.solver_scratch.body_flags = flags;
        let mut candidates = Vec::new();
        let mut events = 0;
        // Bodies that are not bullets are only moved back against static bodies: their boxes
        // scanned, or a tree of them alone, not the broadphase's tree, which also holds every
        // moving body (a falling crowd's sweeps walked it to find a floor).
        if !fast.is_empty() {
            let statics = Statics::of(self);
            for &i in &fast {
                events += usize::from(self.sweep_to_impact(i, Some(&statics), &mut candidates));
            }
        }
        if !bullets.is_empty() {
            // The tree then holds every other body at its final pose.
            self.sync_broadphase();
            for &i in &bullets {
                events += usize::from(self.sweep_to_impact(i, None, &mut candidates));
            }
        }
        self.profile.toi_events = events;
        self.profile.ccd_ms = start.elapsed().as_secs_f32() * 1000.0;
    }

    /// What body `i`, sweeping through `swept`, may be moved back against, into `candidates`
    /// in index order: static bodies, and for a bullet also the bodies that are not bullets
    /// (Box2D v3). Filtered before any box is computed, so a body falling through a crowd of
    /// other moving bodies pays only for the static ones.
    fn sweep_candidates(&self, i: usize, swept: &Aabb, statics: Option<&Statics>, candidates: &mut Vec<usize>) {
        let bodies = &self.bodies;
        let bullet = bodies[i].bullet;
        let target = |j: usize| {
            let o = &bodies[j];
            j != i
                && match o.kind {
                    BodyKind::Static => true,
                    BodyKind::Kinematic | BodyKind::Dynamic => bullet && !o.bullet,
                }
        };
        candidates.clear();
        if let Some(statics) = statics.filter(|_| !bullet) {
            // In index order, and each box is the one the filter below computes (a static
            // body is never the swept one, which moves).
            return statics.overlapping(swept, candidates);
        }
        if self.broadphase.has_proxies_for(bodies.len()) {
            self.broadphase.tree.query(swept, |_, j| {
                if target(j as usize) {
                    candidates.push(j as usize);
                }
                true
            });
        } else {
            candidates.extend((0..bodies.len()).filter(|&j| target(j)));
        }
        // The tree's fat boxes and its layout depend on the run's history (a world read back
        // from a snapshot builds a fresh tree): keep only the bodies whose own boxes reach the
        // sweep, in index order, so the earliest impact found never depends on the tree.
        candidates.retain(|&j| bodies[j].compute_aabb().overlaps(swept));
        candidates.sort_unstable();
    }

    /// Sweeps body `i` over the step against what it may hit and moves it back to the earliest
    /// time of impact. Returns whether it was moved. `statics`: the static bodies, to search
    /// instead of the broadphase's tree (only for a body that is not a bullet).
    fn sweep_to_impact(&mut self, i: usize, statics: Option<&Statics>, candidates: &mut Vec<usize>) -> bool {
        let b = &self.bodies[i];
        // Relative to the start centre, so the sweep keeps its precision far from the origin.
        let base = b.center0;
        let sweep =
            Sweep { local_center: b.local_center, c1: b.center0 - base, c2: b.center - base, q1: b.q0, q2: b.xf.q };
        // Every pose between the two ends lies within the furthest point's reach of the
        // centre's path (the ends' boxes alone miss a turning body's middle poses).
        let (min_extent, reach) = b.extents();
        let swept = Aabb::new(b.center0.min(b.center), b.center0.max(b.center)).expanded(reach);
        self.sweep_candidates(i, &swept, statics, candidates);
        if candidates.is_empty() {
            // Nothing to meet (a body falling through open space): no proxies, no cores.
            return false;
        }
        let bodies = &self.bodies;
        let mine = body_proxies(b, min_extent);
        // An obstacle's shape is swept against only if its own box reaches the sweep: a
        // static body of many shapes (a floor of tiles) is met where the body passes, not
        // shape by shape along its whole length. Grown by twice the slop: a time of impact
        // is found within a slop and a quarter of touching (`toi::default_target`).
        let near = swept.expanded(2.0 * LINEAR_SLOP);
        // `first`: the first impact's obstacle, the shapes that met (moving, obstacle), the query.
        let (mut fraction, mut held, mut core, mut first) = (1.0f32, None, mine.first().map(|m| m.1), None);
        for &j in candidates.iter() {
            let o = &bodies[j];
            let other = Sweep::stationary(o.local_center, &o.xf).relative_to(base);
            let hold = o.kind == BodyKind::Static;
            for (l, obstacle) in shape_proxies(o).enumerate() {
                if o.shape_count() > 1 {
                    let (shape, xf) = o.shape_at(l);
                    if !shape.compute_aabb(&xf).overlaps(&near) {
                        continue;
                    }
                }
                for (k, &(proxy, shape_core)) in mine.iter().enumerate() {
                    let impact = impact_time(obstacle, other, (proxy, shape_core), sweep, fraction, hold);
                    if 0.0 < impact.t && impact.t < fraction {
                        (fraction, held, core) = (impact.t, impact.held, Some(shape_core));
                        first = Some((j, (k, l), impact));
                    }
                }
            }
        }
        if fraction >= 1.0 {
            return false;
        }
        let (start, end) = (b.start_transform(), b.xf);
        let at = sweep.transform(fraction);
        let remaining = cross(at.q.x_axis(), sweep.q2.x_axis()).atan2(at.q.c * sweep.q2.c + at.q.s * sweep.q2.s);
        let b = &mut self.bodies[i];
        b.center = base + (1.0 - fraction) * sweep.c1 + fraction * sweep.c2;
        b.angle -= remaining;
        b.sync_transform();
        if let (Some(normal), Some(core)) = (held, core) {
            stop_core(b, &core, normal);
        }
        if let (Some((j, shapes, impact)), Some(core)) = (first.filter(|_| self.params.toi_event_steps > 0), core) {
            self.record_toi_event(i, j, shapes, (start, end), impact, base, core);
        }
        true
    }

    /// Keeps body `i`'s impact on `j` in the event log (see `world/toi_events`): the body has
    /// been moved back to it. `base` is the origin of the sweep's frame. For bodies of several
    /// shapes the event holds the two shapes that met, posed as the bodies were (its core is
    /// then left out: the lab sweeps the whole shape).
    #[allow(clippy::too_many_arguments)]
    fn record_toi_event(
        &mut self,
        i: usize,
        j: usize,
        (k, l): (usize, usize),
        (start, end): (Transform, Transform),
        impact: Impact,
        base: Vec2,
        core: Proxy,
    ) {
        let (b, o) = (&self.bodies[i], &self.bodies[j]);
        let local = b.shape_at_pose(k, &Transform::IDENTITY).1;
        let pose = |xf: &Transform| b.shape_at_pose(k, xf).1;
        let (other_shape, other_xf) = o.shape_at(l);
        let event = ToiEvent {
            step: self.step_count + 1,
            body: i,
            other: j,
            shape: *b.shape_at(k).0,
            other_shape: *other_shape,
            core: impact.core.then_some(core).filter(|_| b.parts.is_empty()),
            local_center: local.apply_inv(b.local_center),
            start: pose(&start),
            end: pose(&end),
            impact: pose(&b.xf),
            other_xf,
            fraction: impact.t,
            point: impact.point + base,
            normal: impact.normal,
            target: impact.target,
            tolerance: impact.tolerance,
            t_max: impact.t_max,
        };
        self.toi_events.push(event);
    }
}

#[cfg(test)]
mod tests {
    use super::{Statics, World, STATIC_SCAN_MAX};
    use crate::engine::body::{BodyDef, BodyKind};
    use crate::engine::math::Aabb;
    use crate::engine::rng::SplitMix64;
    use crate::engine::shape::Shape;
    use crate::engine::solver::SolverParams;
    use glam::Vec2;

    /// Past `STATIC_SCAN_MAX` static bodies the sweeps search a tree of them: the same bodies,
    /// in the same (index) order, as scanning every box.
    #[test]
    fn the_static_tree_finds_what_the_scan_finds() {
        let mut w = World::new(SolverParams::default());
        let mut rng = SplitMix64(3);
        for k in 0..300 {
            let p = Vec2::new(rng.f32(-50.0, 50.0), rng.f32(-50.0, 50.0));
            let shape = Shape::make_box(Vec2::splat(rng.f32(0.1, 2.0))).unwrap();
            // Moving bodies between them: never candidates.
            let kind = if k % 3 == 0 { BodyKind::Dynamic } else { BodyKind::Static };
            w.create_body(&BodyDef::new(kind, shape, p));
        }
        let statics = Statics::of(&w);
        assert!(statics.list.len() > STATIC_SCAN_MAX && statics.tree.is_some());
        let scan = Statics { list: statics.list.clone(), tree: None };
        let (mut hits, mut from_tree, mut scanned) = (0, Vec::new(), Vec::new());
        for _ in 0..500 {
            let c = Vec2::new(rng.f32(-55.0, 55.0), rng.f32(-55.0, 55.0));
            let swept = Aabb::new(c, c + Vec2::new(rng.f32(0.0, 8.0), rng.f32(0.0, 8.0)));
            from_tree.clear();
            scanned.clear();
            statics.overlapping(&swept, &mut from_tree);
            scan.overlapping(&swept, &mut scanned);
            assert_eq!(from_tree, scanned);
            assert!(scanned.iter().all(|&j| w.bodies[j].kind == BodyKind::Static));
            hits += scanned.len();
        }
        assert!(hits > 100, "the sweeps met static bodies: {hits}");
    }
}
