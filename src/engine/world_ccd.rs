//! Continuous collision in the world, after Box2D v3 (`b2FinalizeBodies` and
//! `b2SolveContinuous`). After the sub-steps, a dynamic body is *fast* when its motion over
//! the step, `max(|Δc| + |sin Δθ|·max_extent, (|v| + |ω|·max_extent)·dt)`, exceeds half its
//! smallest extent (the distance from its centre of mass to its nearest face): a body that
//! slow cannot pass through anything thicker than itself before the next step's speculative
//! contact sees it. Each fast body is swept from its start-of-step pose to its end pose
//! against the static bodies whose fat AABBs in the broadphase tree overlap the swept box,
//! with the root finder ([`crate::engine::collide::toi::root_finder`]); the earliest time of
//! impact wins and the body is moved back there, keeping its velocity. It ends a linear slop
//! from what it hit, inside the speculative margin, so the next step's contact stops it.
//!
//! A time of impact at 0 (already touching, e.g. sliding on the ground) is retried with a
//! small circle around the centre of mass, a quarter of the smallest extent (Box2D's
//! `B2_CORE_FRACTION`), so only the core is kept from passing through.
//!
//! Bullets (`Body::bullet`) are swept after every other fast body, against static bodies and
//! also against non-bullet dynamic and kinematic bodies at their final poses.
//!
//! Below the threshold speculative contacts cover the motion. Unlike Box2D v3, whose contacts
//! look only a fixed speculative distance ahead, each body's contacts here also look ahead by
//! its last step's motion ([`speculative_reach`]), so a body moving more than the margin per
//! step meets what it hits before overlapping it.

use super::body::{Body, BodyKind};
use super::collide::support::Proxy;
use super::collide::toi::{local_proxy, root_finder, Sweep, ToiInput};
use super::math::{cross, Aabb};
use super::parallel::BODY_BLOCK;
use super::shape::Shape;
use super::world::World;
use std::time::Instant;

/// A body is swept when it moves more than this fraction of its smallest extent in a step.
pub const CONTINUOUS_SAFETY_FACTOR: f32 = 0.5;
/// The fallback circle's radius as a fraction of the smallest extent (Box2D's
/// `B2_CORE_FRACTION`).
pub const CORE_FRACTION: f32 = 0.25;

/// The smallest and largest extent of a shape about `local_center` (Box2D's
/// `b2ComputeShapeExtent`): the distance to the nearest face plane, and to the furthest point.
pub fn shape_extents(shape: &Shape, local_center: glam::Vec2) -> (f32, f32) {
    match shape {
        Shape::Circle(c) => (c.radius, local_center.length() + c.radius),
        Shape::Polygon(p) => {
            let min = (0..p.count).map(|i| p.normals[i].dot(p.vertices[i] - p.centroid)).fold(f32::MAX, f32::min);
            let max = p.vertices().iter().map(|v| (*v - local_center).length()).fold(0.0, f32::max);
            (min, max)
        }
        Shape::Capsule(c) => {
            let far = (c.center1 - local_center).length().max((c.center2 - local_center).length());
            (c.radius, far + c.radius)
        }
    }
}

/// How far any point of `b` moved over its last step: the centre's displacement plus the
/// furthest point's turn.
fn last_step_motion(b: &Body, max_extent: f32) -> f32 {
    let turn = cross(b.q0.x_axis(), b.xf.q.x_axis());
    (b.center - b.center0).length() + turn.abs() * max_extent
}

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

/// How much further than the speculative margin the contacts of `b` look ahead: the distance
/// it moved over its last step (its likely motion over the next one), up to the continuous
/// threshold, half its smallest extent. Below that threshold a body is not swept, so without
/// this reach a body moving more than the margin per step is only seen once it overlaps: a
/// ball falling at 10 m/s (0.17 m a step at 60 Hz) sinks up to 0.17 m into the ground before
/// its contact exists, and bounces back from there. With it, the contact exists before the
/// impact and its speculative constraint stops the body at the surface in the sub-step of
/// impact. Above the threshold the continuous pass moves the body back to its time of impact.
pub fn speculative_reach(b: &Body) -> f32 {
    if b.kind == BodyKind::Static || (b.center == b.center0 && b.q0 == b.xf.q) {
        return 0.0;
    }
    let (min_extent, max_extent) = b.extents();
    last_step_motion(b, max_extent).min(CONTINUOUS_SAFETY_FACTOR * min_extent)
}

/// A body's motion over its last step, as [`pair_reach`] reads it: computed once per body
/// per step rather than once per contact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Motion {
    /// How far the centre of mass moved over the last step.
    pub displacement: glam::Vec2,
    /// `displacement`'s length.
    pub distance: f32,
    /// The body's speculative reach ([`speculative_reach`]).
    pub reach: f32,
}

impl Motion {
    pub fn of(b: &Body, reach: f32) -> Motion {
        let displacement = b.center - b.center0;
        Motion { displacement, distance: displacement.length(), reach }
    }
}

/// How much further than the speculative margin the contact between `a` and `b` looks ahead,
/// given their reaches: their relative motion over the last step (the difference of their
/// displacements, plus each one's turn, the part of its reach its displacement does not
/// explain), never more than the two reaches. Bodies falling side by side add no speculative
/// points between them.
pub fn pair_reach(a: &Motion, b: &Motion) -> f32 {
    if a.reach + b.reach == 0.0 {
        return 0.0;
    }
    let turns = (a.reach - a.distance).max(0.0) + (b.reach - b.distance).max(0.0);
    ((b.displacement - a.displacement).length() + turns).min(a.reach + b.reach)
}

/// Up to this many static bodies, a sweep scans their boxes instead of querying the tree.
const STATIC_SCAN_MAX: usize = 128;

impl World {
    /// The continuous pass of the step (see the module docs): fills `profile.ccd_ms` and
    /// `profile.toi_events`. Does nothing when `params.continuous` is off.
    pub(crate) fn solve_continuous(&mut self) {
        self.profile.ccd_ms = 0.0;
        self.profile.toi_events = 0;
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
        // Bodies that are not bullets are only moved back against static bodies. When there
        // are few, testing each one's box is cheaper than a query of the tree, which also
        // holds every moving body (Box2D v3 keeps static bodies in a tree of their own).
        let statics: Vec<(usize, Aabb)> = if fast.is_empty() {
            Vec::new()
        } else {
            self.bodies
                .iter()
                .enumerate()
                .filter(|(_, b)| b.kind == BodyKind::Static)
                .map(|(i, b)| (i, b.shape.compute_aabb(&b.xf)))
                .collect()
        };
        let statics = (statics.len() <= STATIC_SCAN_MAX).then_some(statics.as_slice());
        for &i in &fast {
            events += usize::from(self.sweep_to_impact(i, statics, &mut candidates));
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

    /// Sweeps body `i` over the step against what it may hit and moves it back to the earliest
    /// time of impact. Returns whether it was moved. `statics`: the static bodies and their
    /// boxes, to scan instead of querying the tree (only for a body that is not a bullet).
    fn sweep_to_impact(&mut self, i: usize, statics: Option<&[(usize, Aabb)]>, candidates: &mut Vec<usize>) -> bool {
        let b = &self.bodies[i];
        // Relative to the start centre, so the sweep keeps its precision far from the origin.
        let base = b.center0;
        let sweep =
            Sweep { local_center: b.local_center, c1: b.center0 - base, c2: b.center - base, q1: b.q0, q2: b.xf.q };
        // Every pose between the two ends lies within the furthest point's reach of the
        // centre's path (the ends' boxes alone miss a turning body's middle poses).
        let (min_extent, reach) = b.extents();
        let swept = Aabb::new(b.center0.min(b.center), b.center0.max(b.center)).expanded(reach);
        // What it may be moved back against: static bodies, and for a bullet also the bodies
        // that are not bullets (Box2D v3). Filtered before any box is computed, so a body
        // falling through a crowd of other moving bodies pays only for the static ones.
        let bodies = &self.bodies;
        let bullet = b.bullet;
        let target = |j: usize| {
            let o = &bodies[j];
            j != i
                && match o.kind {
                    BodyKind::Static => true,
                    BodyKind::Kinematic | BodyKind::Dynamic => bullet && !o.bullet,
                }
        };
        let scan = statics.filter(|_| !bullet);
        candidates.clear();
        if let Some(statics) = scan {
            // In index order already, and each box is the one the filter below computes.
            candidates.extend(statics.iter().filter(|(j, aabb)| *j != i && aabb.overlaps(&swept)).map(|&(j, _)| j));
        } else if self.broadphase.has_proxies_for(bodies.len()) {
            self.broadphase.tree.query(&swept, |_, j| {
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
        if scan.is_none() {
            candidates.retain(|&j| bodies[j].shape.compute_aabb(&bodies[j].xf).overlaps(&swept));
            candidates.sort_unstable();
        }
        let proxy = local_proxy(&b.shape);
        let core = Proxy::circle(b.local_center, CORE_FRACTION * min_extent);
        let mut fraction = 1.0f32;
        for &j in candidates.iter() {
            let o = &bodies[j];
            let other = Sweep::stationary(o.local_center, &o.xf).relative_to(base);
            let mut input = ToiInput::new(local_proxy(&o.shape), other, proxy, sweep);
            input.t_max = fraction;
            let mut out = root_finder(&input, None);
            if out.t == 0.0 {
                input = ToiInput { t_max: fraction, ..ToiInput::new(input.proxy_a, other, core, sweep) };
                out = root_finder(&input, None);
            }
            if 0.0 < out.t && out.t < fraction {
                fraction = out.t;
            }
        }
        if fraction >= 1.0 {
            return false;
        }
        let at = sweep.transform(fraction);
        let remaining = cross(at.q.x_axis(), sweep.q2.x_axis()).atan2(at.q.c * sweep.q2.c + at.q.s * sweep.q2.s);
        let b = &mut self.bodies[i];
        b.center = base + (1.0 - fraction) * sweep.c1 + fraction * sweep.c2;
        b.angle -= remaining;
        b.sync_transform();
        true
    }
}
