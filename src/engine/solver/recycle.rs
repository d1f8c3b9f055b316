//! Contact recycling, as Box2D v3 does it (`b2CollideTask` in `physics_world.c`, "contact
//! recycling optimization"; the constants `B2_CONTACT_RECYCLE_DISTANCE` and
//! `B2_CONTACT_RECYCLE_COS_ANGLE` in `constants.h`).
//!
//! When a contact's manifold is computed, the contact records the two bodies' poses (Box2D
//! caches both rotations and the relative pose of B in A's frame) and the manifold as
//! computed. At a later narrowphase, if
//!
//! - each body turned less than `acos 0.98` (about 11.5°) since then, and
//! - `|Δp| + e · |sin Δθ| < 5 cm`, where `Δp` is how far B's origin moved in A's frame,
//!   `Δθ` the change of their relative angle and `e` the larger extent (centre of mass to
//!   farthest surface point) of the two bodies, static bodies counting 0 — a conservative
//!   bound on how far any surface point moved relative to the other body (conservative
//!   advancement),
//!
//! the manifold is kept instead of computed again: same normal, same point count, same
//! feature ids, the same anchors (each point's offset from each body's centre of mass, in
//! world axes, as computed), and each point's separation updated from the relative motion
//! exactly as the solver tracks it across sub-steps:
//!
//! `s = s₀ + n · ((c_B − c_A) + R(Δq_B) r_B − R(Δq_A) r_A)`,
//!
//! where `s₀` is the separation computed then, `r_A`, `r_B` the anchors then, `Δq` each body's
//! rotation since, and `c` the current centres of mass (at the recorded poses the bracket is
//! zero). Warm-starting impulses stay as they are.
//!
//! Recycling is not allowed (the manifold is computed) for a contact that has no record yet
//! (a pair's first touch: this engine keeps no contact for pairs without points, so Box2D's
//! tighter tolerance for non-touching contacts never applies), after an edit of either body's
//! shape or mass (`World::forget_manifold_origins`; Box2D destroys the contacts of an edited
//! shape), and when the world's `recycle_contacts` is off. This engine has no sensors (Box2D
//! never recycles them either).
//!
//! The speculative distance. Box2D's is a constant; here it is the world's margin plus the
//! pair's reach (`reach::pair_reach`, the bodies' motion over their last step), which
//! changes by round-off at every step of a resting body, so "unchanged" cannot mean "the same
//! bits" without refusing almost every contact. A recorded manifold holds the points within
//! the distance it was computed with (`ManifoldOrigin::distance`); wanting to look further
//! ahead by `g` now is counted as `g` more motion in the test above, so a pair whose reach
//! jumps (a body starting to fall fast) is computed, and a shorter look-ahead costs nothing
//! (points beyond it stay speculative, as Box2D keeps points that drift apart). A recycled
//! contact keeps the recorded distance as its `Contact::margin`.
//!
//! One difference: Box2D also skips refreshing the mixed friction and restitution of a
//! recycled contact; here they are refreshed, so a material edit in the app applies at once.
//!
//! Everything the decision reads is saved with the world (the record is part of `Contact`,
//! the extent part of `Body`), so a restored world recycles the same contacts as the original.

use super::contact::{Contact, ContactPoint};
use crate::engine::body::{Body, BodyKind};
use crate::engine::collide::Manifold;
use crate::engine::math::{Rot, Transform};
use crate::engine::LINEAR_SLOP;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How far surface points may have moved relative to the other body for the manifold to be
/// recycled, metres (Box2D v3's `B2_CONTACT_RECYCLE_DISTANCE`, ten linear slops).
pub const RECYCLE_DISTANCE: f32 = 10.0 * LINEAR_SLOP;

/// Each body's rotation since the manifold was computed must have a cosine above this
/// (Box2D v3's `B2_CONTACT_RECYCLE_COS_ANGLE`; about 11.5°).
pub const RECYCLE_COS_ANGLE: f32 = 0.98;

/// What a contact's manifold was computed from: the narrowphase that computed it, the two
/// bodies' poses, centres of mass and extents then, and the manifold as computed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifoldOrigin {
    /// The world's step count when it was computed.
    pub step: u64,
    /// Body origins' transforms then (the rotations and relative pose Box2D caches).
    pub xf_a: Transform,
    pub xf_b: Transform,
    /// Centres of mass then (the anchors are the points' offsets from these).
    pub center_a: Vec2,
    pub center_b: Vec2,
    /// The bodies' extents then: a different one now means the shape was edited.
    pub extent_a: f32,
    pub extent_b: f32,
    /// The speculative distance the manifold was computed with (the world's margin plus the
    /// pair's reach then; `Contact::margin`).
    pub distance: f32,
    /// The manifold as the manifold function returned it.
    pub manifold: Manifold,
}

impl ManifoldOrigin {
    /// The record of `manifold`, computed now for bodies `a` and `b` at `step`.
    pub fn new(step: u64, a: &Body, b: &Body, manifold: Manifold, distance: f32) -> ManifoldOrigin {
        ManifoldOrigin {
            step,
            xf_a: a.xf,
            xf_b: b.xf,
            center_a: a.center,
            center_b: b.center,
            extent_a: a.extent,
            extent_b: b.extent,
            distance,
            manifold,
        }
    }

    /// Whether the bodies, now at `a` and `b` and wanting the speculative distance
    /// `distance`, are close enough to the recorded poses for the manifold to be recycled
    /// (Box2D v3's test, see the module docs, with a longer look-ahead counted as motion).
    pub fn allows(&self, a: &Body, b: &Body, distance: f32) -> bool {
        self.allows_poses(&Pose::of(a), &Pose::of(b), distance)
    }

    /// [`ManifoldOrigin::allows`] from what it reads of the bodies.
    pub fn allows_poses(&self, a: &Pose, b: &Pose, distance: f32) -> bool {
        if self.extent_a.to_bits() != a.extent.to_bits() || self.extent_b.to_bits() != b.extent.to_bits() {
            return false;
        }
        let min_cos = relative_cos(a.xf.q, self.xf_a.q).min(relative_cos(b.xf.q, self.xf_b.q));
        let extent = |body: &Pose| if body.fixed { 0.0 } else { body.extent };
        let max_extent = extent(a).max(extent(b));
        let now = a.xf.inv_mul(&b.xf);
        let then = self.xf_a.inv_mul(&self.xf_b);
        let moved = now.p.distance(then.p);
        // `qr.s` = sin of the change of relative angle (≈ the angle when small).
        let qr = now.q.inv_mul(then.q);
        // Looking further ahead than the recorded manifold did is like having moved closer.
        let growth = (distance - self.distance).max(0.0);
        // Written so that a NaN (an infinite extent times a zero sine) refuses.
        min_cos > RECYCLE_COS_ANGLE && moved + max_extent * qr.s.abs() + growth < RECYCLE_DISTANCE
    }

    /// The recorded manifold moved with the bodies, now at `a` and `b`: normal, count and ids
    /// as recorded, separations from the relative motion; each point midway between where
    /// its two anchors are now. Also returns each point's kept anchors.
    pub fn moved(&self, a: &Body, b: &Body) -> (Manifold, [(Vec2, Vec2); 2]) {
        let mut m = Manifold::EMPTY;
        let mut points = [ContactPoint::default(); 2];
        self.move_into(&Pose::of(a), &Pose::of(b), &mut m, &mut points);
        (m, points.map(|p| (p.anchor_a, p.anchor_b)))
    }

    /// [`ManifoldOrigin::moved`] written into a contact's manifold and points in place (no
    /// copy of the manifold through a return value: recycling runs for most contacts of a
    /// resting pile every step). Each point gets its kept anchors, its new separation and
    /// world point; impulses and ids stay.
    pub fn move_into(&self, a: &Pose, b: &Pose, m: &mut Manifold, points: &mut [ContactPoint; 2]) {
        let dqa = a.xf.q * invert(self.xf_a.q);
        let dqb = b.xf.q * invert(self.xf_b.q);
        let n = self.manifold.normal;
        // Centre difference first, as Box2D does, to keep round-off small.
        let dc = b.center - a.center;
        *m = self.manifold;
        for (mp, cp) in m.points[..self.manifold.count].iter_mut().zip(points) {
            let (anchor_a, anchor_b) = (mp.point - self.center_a, mp.point - self.center_b);
            let (ra, rb) = (dqa.apply(anchor_a), dqb.apply(anchor_b));
            let dp = dc + (rb - ra);
            let separation = -mp.penetration + n.dot(dp);
            mp.penetration = -separation;
            mp.point = 0.5 * ((a.center + ra) + (b.center + rb));
            cp.point = mp.point;
            cp.base_separation = separation;
            cp.anchor_a = anchor_a;
            cp.anchor_b = anchor_b;
            cp.kept_anchors = true;
            cp.persisted += 1;
        }
    }
}

/// What recycling reads of a body, gathered once per step for all bodies (a contact reads two
/// of these, not two whole bodies).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub xf: Transform,
    pub center: Vec2,
    pub extent: f32,
    /// A static body (its extent does not count as motion).
    pub fixed: bool,
}

impl Default for Pose {
    fn default() -> Pose {
        Pose { xf: Transform::IDENTITY, center: Vec2::ZERO, extent: 0.0, fixed: false }
    }
}

impl Pose {
    #[inline]
    pub fn of(b: &Body) -> Pose {
        Pose { xf: b.xf, center: b.center, extent: b.extent, fixed: b.kind == BodyKind::Static }
    }
}

/// Cosine of the angle between two rotations (Box2D v3's `b2RelativeCos`).
#[inline]
fn relative_cos(a: Rot, b: Rot) -> f32 {
    a.c * b.c + a.s * b.s
}

#[inline]
fn invert(q: Rot) -> Rot {
    Rot { c: q.c, s: -q.s }
}

/// Recycles `contact`'s manifold for bodies now at `a` and `b` (see the module docs): the
/// manifold moved with the bodies, the points' kept anchors and new separations, impulses
/// and feature ids unchanged. Returns false (and changes nothing) when its record does not
/// allow it. Works on the record in place: a contact's record is 120 bytes.
pub(crate) fn recycle(contact: &mut Contact, a: &Pose, b: &Pose, distance: f32) -> bool {
    let Contact { origin, manifold, points, recycled, .. } = contact;
    let Some(origin) = origin.as_ref().filter(|o| o.allows_poses(a, b, distance)) else { return false };
    origin.move_into(a, b, manifold, points);
    *recycled += 1;
    true
}
