//! Contact constraints solved by sequential impulses (003 article "Impulse Resolution":
//! relative velocity along the normal, restitution, rotation through `r × n`, Coulomb
//! friction capped by `μ·λn`, positional correction with percent and slop, iterations),
//! with accumulated impulses, warm starting by feature id and sub-stepping.

use super::graph::GraphColor;
use super::params::{PositionCorrection, SolverParams};
use super::recycle::ManifoldOrigin;
use super::restitution::{bounce_impulses, effective_mass, BouncePoint};
use super::soft::Softness;
use super::state::{SolverBody, SolverCold};
use crate::engine::body::Body;
use crate::engine::collide::{FeatureId, Manifold};
use crate::engine::math::{cross, cross_sv, right_perp};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Solver state of one contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ContactPoint {
    pub id: FeatureId,
    /// World point when the contact was found.
    pub point: Vec2,
    /// From each body's centre of mass to the point, at the start of the step.
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    /// Separation at the start of the step (negative = penetration).
    pub base_separation: f32,
    /// Accumulated impulses (kept across steps for warm starting).
    pub normal_impulse: f32,
    pub tangent_impulse: f32,
    /// Largest normal impulse applied this step (restitution only bounces touching points).
    pub max_normal_impulse: f32,
    /// How many consecutive steps this point has been matched and warm started.
    pub persisted: u32,
    /// Set on a recycled manifold's point (`solver::recycle`): `anchor_a` and `anchor_b` are the
    /// anchors kept from the poses the manifold was computed at (Box2D v3 keeps them), and
    /// `prepare_contacts` uses them instead of deriving both from `point`.
    #[serde(default)]
    pub kept_anchors: bool,
}

/// The scalar solver modes' working values of one contact point over a step, kept beside the
/// contacts (`SolverScratch::scalar`) rather than in them: the soft step keeps its own in its
/// contact rows (`contact_wide`), and every pass over the contacts reads fewer bytes (a
/// contact is five cache lines, not six).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointWork {
    pub normal_mass: f32,
    pub tangent_mass: f32,
    /// Normal relative velocity at the start of the step (for restitution).
    pub relative_velocity: f32,
    /// Time from the start of the step to the end of the sub-step in which the point first
    /// pushed (for restitution: see [`Contact::approach_rate`]).
    pub impact_time: f32,
    /// Normal relative velocity just before the point first pushed this step.
    pub impact_velocity: f32,
    /// The Baumgarte push's cap, m/s (`contact_push`: `max_push_velocity` shared in piles).
    pub push_cap: f32,
}

/// A contact's two points' [`PointWork`].
pub type ContactWork = [PointWork; 2];

/// A contact constraint between bodies `a` and `b` (`a < b`), normal from A to B.
///
/// `repr(C)`, 64-byte aligned, five cache lines, fields in order of use: the passes that walk
/// every contact for its bodies alone (pair matching, islands, colouring) read only the first
/// line; the recycling record, read only by the narrowphase, comes last.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[repr(C, align(64))]
pub struct Contact {
    pub a: usize,
    pub b: usize,
    /// Which shape of body `a` (high four bits) and of body `b` (low four bits) touch
    /// (`engine::compound`, at most [`crate::engine::compound::MAX_PARTS`] shapes a body; 0
    /// for bodies of one shape): see [`Contact::sa`], [`Contact::sb`]. One byte, so `Contact`
    /// keeps its five cache lines. Contacts are keyed and sorted by `(a, b, sa, sb)`.
    #[serde(default)]
    pub shape_pair: u8,
    /// Whether the solver works on it this step (false between sleeping bodies).
    #[serde(default = "awake_default")]
    pub awake: bool,
    /// The constraint graph colour it was solved in last (drawing and reports only).
    #[serde(skip)]
    pub graph_color: GraphColor,
    /// Consecutive narrowphases that recycled the manifold (0: computed at the last one).
    #[serde(default)]
    pub recycled: u32,
    pub friction: f32,
    pub restitution: f32,
    /// How fast gravity changes the normal relative velocity, m/s² (set by `prepare_contacts`
    /// for the scalar modes; the soft step keeps it in its contact rows):
    /// restitution reverses `relative_velocity + approach_rate · impact_time`, the approach
    /// speed at the sub-step of impact as gravity made it. Impulses of other contacts during
    /// the step are left out, as Box2D v3 leaves them out: counting them would bounce a body
    /// pushed into a wall by its neighbour with energy it never had.
    #[serde(default)]
    pub approach_rate: f32,
    /// The speculative distance its manifold was found with: the world's margin plus the
    /// pair's reach (`reach::pair_reach`); 0 when not recorded.
    #[serde(default)]
    pub margin: f32,
    pub manifold: Manifold,
    pub points: [ContactPoint; 2],
    /// The poses and manifold the contact's manifold was last computed from, for recycling
    /// (`solver::recycle`; Box2D v3's cached rotations and relative pose). `None` until it is
    /// computed, and after an edit of either body's shape or mass: then it is not recycled.
    #[serde(default)]
    pub origin: Option<ManifoldOrigin>,
}

fn awake_default() -> bool {
    true
}

impl Contact {
    /// A new contact from a manifold, carrying over impulses from `old` by feature id.
    pub fn new(
        a: usize,
        b: usize,
        manifold: Manifold,
        friction: f32,
        restitution: f32,
        old: Option<&Contact>,
    ) -> Contact {
        let mut points = [ContactPoint::default(); 2];
        for (cp, mp) in points.iter_mut().zip(manifold.points()) {
            cp.id = mp.id;
            cp.point = mp.point;
            cp.base_separation = -mp.penetration;
            if let Some(old) = old {
                let key = mp.id.warm_start_key();
                if let Some(prev) = old.points().iter().find(|p| p.id.warm_start_key() == key) {
                    cp.normal_impulse = prev.normal_impulse;
                    cp.tangent_impulse = prev.tangent_impulse;
                    cp.persisted = prev.persisted + 1;
                }
            }
        }
        Contact {
            a,
            b,
            shape_pair: old.map_or(0, |o| o.shape_pair),
            manifold,
            friction,
            restitution,
            points,
            awake: true,
            approach_rate: 0.0,
            margin: 0.0,
            graph_color: GraphColor::None,
            origin: None,
            recycled: 0,
        }
    }

    pub fn normal(&self) -> Vec2 {
        self.manifold.normal
    }

    /// The contact's key: its bodies, then its shapes (the order of `World::contacts`: the
    /// packed byte orders as `(sa, sb)`).
    #[inline]
    pub fn key(&self) -> (usize, usize, u8) {
        (self.a, self.b, self.shape_pair)
    }

    /// The key of the contact between shape `sa` of body `a` and shape `sb` of body `b`.
    #[inline]
    pub fn key_of(a: usize, b: usize, sa: usize, sb: usize) -> (usize, usize, u8) {
        (a, b, ((sa as u8) << 4) | (sb as u8 & 0x0f))
    }

    /// The shape of body `a` this contact is on.
    #[inline]
    pub fn sa(&self) -> usize {
        (self.shape_pair >> 4) as usize
    }

    /// The shape of body `b` this contact is on.
    #[inline]
    pub fn sb(&self) -> usize {
        (self.shape_pair & 0x0f) as usize
    }

    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.manifold.count]
    }
}

/// Friction mixing: geometric mean (Box2D).
pub fn mix_friction(a: f32, b: f32) -> f32 {
    (a * b).sqrt()
}

/// Restitution mixing: the bouncier wins (Box2D).
pub fn mix_restitution(a: f32, b: f32) -> f32 {
    a.max(b)
}

/// Computes anchors, effective masses, the pre-solve normal velocity and the rate at which
/// `gravity` changes it; `work` gets one entry per contact.
pub fn prepare_contacts(
    contacts: &mut [Contact],
    work: &mut Vec<ContactWork>,
    bodies: &[Body],
    gravity: Vec2,
    warm_starting: bool,
) {
    work.clear();
    work.resize(contacts.len(), ContactWork::default());
    for (c, w) in contacts.iter_mut().zip(work.iter_mut()).filter(|(c, _)| c.awake) {
        let (ba, bb) = (&bodies[c.a], &bodies[c.b]);
        let (ca, cb) = (SolverCold::new(ba), SolverCold::new(bb));
        let (sa, sb) = (SolverBody::new(ba), SolverBody::new(bb));
        let n = c.manifold.normal;
        c.approach_rate = n.dot(cb.gravity_pull(gravity) - ca.gravity_pull(gravity));
        let count = c.manifold.count;
        for (cp, w) in c.points[..count].iter_mut().zip(w.iter_mut()) {
            if !warm_starting {
                cp.normal_impulse = 0.0;
                cp.tangent_impulse = 0.0;
            }
            cp.max_normal_impulse = 0.0;
            let p = PreparedPoint::new(cp, n, (&sa, &ca), (&sb, &cb));
            cp.anchor_a = p.anchor_a;
            cp.anchor_b = p.anchor_b;
            *w = PointWork {
                normal_mass: p.normal_mass,
                tangent_mass: p.tangent_mass,
                relative_velocity: p.relative_velocity,
                impact_time: 0.0,
                impact_velocity: 0.0,
                push_cap: f32::INFINITY,
            };
        }
    }
}

/// What the solver derives from a contact point at the start of a step.
#[derive(Clone, Copy, Debug)]
pub struct PreparedPoint {
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    pub normal_mass: f32,
    pub tangent_mass: f32,
    pub relative_velocity: f32,
}

impl PreparedPoint {
    /// Anchors from the bodies' centres of mass (a recycled point keeps the anchors its manifold
    /// was computed with, as Box2D v3 does), effective masses along the normal `n` and its
    /// tangent, and the normal relative velocity, from each body's solver state at the start of
    /// the step.
    #[inline]
    pub fn new(
        cp: &ContactPoint,
        n: Vec2,
        (sa, ca): (&SolverBody, &SolverCold),
        (sb, cb): (&SolverBody, &SolverCold),
    ) -> PreparedPoint {
        let t = right_perp(n);
        let (ma, ia, mb, ib) = (ca.inv_mass, ca.inv_inertia, cb.inv_mass, cb.inv_inertia);
        let (ra, rb) =
            if cp.kept_anchors { (cp.anchor_a, cp.anchor_b) } else { (cp.point - ca.center, cp.point - cb.center) };
        let rna = cross(ra, n);
        let rnb = cross(rb, n);
        let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
        let rta = cross(ra, t);
        let rtb = cross(rb, t);
        let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
        // With derived anchors, `ra` is `point - centre`: the body's velocity at the point.
        let dv = sb.v + cross_sv(sb.w, rb) - (sa.v + cross_sv(sa.w, ra));
        PreparedPoint {
            anchor_a: ra,
            anchor_b: rb,
            normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
            tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
            relative_velocity: n.dot(dv),
        }
    }
}

/// Applies an impulse `p` at anchors `ra`/`rb` (negative to A, positive to B).
#[inline]
fn apply_impulse(states: &mut [SolverBody], cold: &[SolverCold], a: usize, b: usize, ra: Vec2, rb: Vec2, p: Vec2) {
    states[a].apply(&cold[a], ra, -p);
    states[b].apply(&cold[b], rb, p);
}

/// Relative velocity of B with respect to A at the anchors.
#[inline]
fn relative_velocity(states: &[SolverBody], a: usize, b: usize, ra: Vec2, rb: Vec2) -> Vec2 {
    let (sa, sb) = (&states[a], &states[b]);
    sb.v + cross_sv(sb.w, rb) - sa.v - cross_sv(sa.w, ra)
}

/// Current separation of a point, tracked from the start of the step through the bodies'
/// displacement (no new collision query per sub-step).
#[inline]
pub fn current_separation(cp: &ContactPoint, n: Vec2, sa: &SolverBody, sb: &SolverBody) -> f32 {
    cp.base_separation + n.dot(sb.displacement_of(cp.anchor_b) - sa.displacement_of(cp.anchor_a))
}

/// Re-applies last step's accumulated impulses.
pub fn warm_start(contacts: &[Contact], states: &mut [SolverBody], cold: &[SolverCold]) {
    for c in contacts.iter().filter(|c| c.awake) {
        let n = c.manifold.normal;
        let t = right_perp(n);
        for cp in c.points() {
            let p = cp.normal_impulse * n + cp.tangent_impulse * t;
            apply_impulse(states, cold, c.a, c.b, cp.anchor_a, cp.anchor_b, p);
        }
    }
}

/// Contact softness for dynamic–dynamic pairs, and a stiffer one (twice the frequency) for
/// contacts with a static or kinematic body, as Box2D v3 does.
#[derive(Clone, Copy, Debug)]
pub struct ContactSoftness {
    pub dynamic: Softness,
    pub fixed: Softness,
}

impl ContactSoftness {
    pub fn new(params: &SolverParams, h: f32) -> ContactSoftness {
        // Stiffer than a quarter of the sub-step rate cannot be resolved (Box2D v3).
        let hertz = params.contact_hertz.min(0.25 / h);
        ContactSoftness {
            dynamic: Softness::new(hertz, params.contact_damping_ratio, h),
            fixed: Softness::new(2.0 * hertz, params.contact_damping_ratio, h),
        }
    }
}

/// One sequential-impulse pass over all contacts. With `use_bias` the chosen position
/// correction's velocity bias is applied; the relax pass calls it without. `elapsed`: time
/// from the start of the step to the end of this sub-step (points that push for the first time
/// record it as their impact time).
#[allow(clippy::too_many_arguments)]
pub fn solve_contacts(
    contacts: &mut [Contact],
    work: &mut [ContactWork],
    states: &mut [SolverBody],
    cold: &[SolverCold],
    params: &SolverParams,
    soft: ContactSoftness,
    inv_h: f32,
    use_bias: bool,
    elapsed: f32,
) {
    for (c, w) in contacts.iter_mut().zip(work.iter_mut()).filter(|(c, _)| c.awake) {
        let n = c.manifold.normal;
        let fixed = cold[c.a].inv_mass == 0.0 || cold[c.b].inv_mass == 0.0;
        let softness = if fixed { soft.fixed } else { soft.dynamic };
        let t = right_perp(n);
        let count = c.manifold.count;
        for (cp, w) in c.points[..count].iter_mut().zip(w.iter_mut()) {
            let s = current_separation(cp, n, &states[c.a], &states[c.b]);
            if s > 0.0 && !use_bias && cp.normal_impulse == 0.0 {
                // The relax pass only takes back bias velocity; a speculative point that has
                // not pushed is left to the next sub-step's solve, which sees its gravity
                // first, so an impact is met (and its speed measured) at its own sub-step.
                continue;
            }
            let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                // Speculative: allow closing exactly the gap this sub-step.
                (s * inv_h, 1.0, 0.0)
            } else if use_bias {
                match params.position_correction {
                    PositionCorrection::Soft => (
                        (softness.bias_rate * s).max(-params.max_push_velocity),
                        softness.mass_scale,
                        softness.impulse_scale,
                    ),
                    PositionCorrection::Baumgarte => {
                        let b = params.baumgarte * inv_h * (s + params.slop).min(0.0);
                        (b.max(-params.max_push_velocity.min(w.push_cap)), 1.0, 0.0)
                    }
                    PositionCorrection::Projection => (0.0, 1.0, 0.0),
                }
            } else {
                (0.0, 1.0, 0.0)
            };
            let dv = relative_velocity(states, c.a, c.b, cp.anchor_a, cp.anchor_b);
            let vn = dv.dot(n);
            if use_bias && cp.max_normal_impulse == 0.0 {
                // Not pushed yet this step: if it pushes now, this is its sub-step of impact.
                w.impact_time = elapsed;
                w.impact_velocity = vn;
            }
            let impulse = -w.normal_mass * mass_scale * (vn + bias) - impulse_scale * cp.normal_impulse;
            let new_impulse = (cp.normal_impulse + impulse).max(0.0);
            let applied = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            apply_impulse(states, cold, c.a, c.b, cp.anchor_a, cp.anchor_b, applied * n);
        }
        // Coulomb friction, capped by μ times this point's normal impulse.
        for (cp, w) in c.points[..count].iter_mut().zip(w.iter()) {
            let dv = relative_velocity(states, c.a, c.b, cp.anchor_a, cp.anchor_b);
            let vt = dv.dot(t);
            let impulse = -w.tangent_mass * vt;
            let max_friction = c.friction * cp.normal_impulse;
            let new_impulse = (cp.tangent_impulse + impulse).clamp(-max_friction, max_friction);
            let applied = new_impulse - cp.tangent_impulse;
            cp.tangent_impulse = new_impulse;
            apply_impulse(states, cold, c.a, c.b, cp.anchor_a, cp.anchor_b, applied * t);
        }
    }
}

/// Restitution after the sub-steps (Box2D v3): bounce points that were approaching faster
/// than `threshold` and actually pushed, towards `-e · v_before`. Unlike Box2D, `v_before` is
/// the approach speed at the sub-step of impact ([`Contact::approach_rate`]), not at the
/// start of the step: a ball falling at 10 m/s gains up to g·dt = 0.17 m/s within a 60 Hz
/// step, which Box2D's start-of-step speed leaves out of the bounce (up to 3 % of the height)
/// and out of the threshold test. Also unlike Box2D, a contact's two bouncing points are
/// solved together (`solver::restitution`), so a face landing flat gains no energy.
pub fn apply_restitution(
    contacts: &mut [Contact],
    work: &[ContactWork],
    states: &mut [SolverBody],
    cold: &[SolverCold],
    threshold: f32,
) {
    for (c, w) in contacts.iter_mut().zip(work).filter(|(c, _)| c.awake) {
        if c.restitution == 0.0 {
            continue;
        }
        let n = c.manifold.normal;
        let count = c.manifold.count;
        let rate = c.approach_rate;
        let mut bp = [BouncePoint::default(); 2];
        for ((b, cp), w) in bp.iter_mut().zip(&c.points[..count]).zip(w) {
            let before = (w.relative_velocity + rate * w.impact_time).max(w.impact_velocity);
            *b = BouncePoint {
                bounces: before <= -threshold && cp.max_normal_impulse != 0.0,
                vn: relative_velocity(states, c.a, c.b, cp.anchor_a, cp.anchor_b).dot(n),
                target: -c.restitution * before,
                impulse: cp.normal_impulse,
                normal_mass: w.normal_mass,
            };
        }
        if !bp.iter().any(|b| b.bounces) {
            continue;
        }
        let (sa, sb) = (&cold[c.a], &cold[c.b]);
        let rn = |cp: &ContactPoint| (cross(cp.anchor_a, n), cross(cp.anchor_b, n));
        let (rna1, rnb1) = rn(&c.points[0]);
        let (rna2, rnb2) = rn(&c.points[1]);
        let (k11, k22, k12) =
            effective_mass(sa.inv_mass, sa.inv_inertia, sb.inv_mass, sb.inv_inertia, rna1, rnb1, rna2, rnb2);
        let x = bounce_impulses(&bp[..count], k11, k22, k12);
        for (cp, new_impulse) in c.points[..count].iter_mut().zip(x) {
            let applied = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            apply_impulse(states, cold, c.a, c.b, cp.anchor_a, cp.anchor_b, applied * n);
        }
    }
}

/// The 003 article's positional correction: move each pair apart along the normal by
/// `percent` of the penetration beyond `slop`, shared by inverse mass (linear only).
pub fn project_positions(
    contacts: &[Contact],
    states: &mut [SolverBody],
    cold: &[SolverCold],
    percent: f32,
    slop: f32,
) {
    for c in contacts.iter().filter(|c| c.awake) {
        let n = c.manifold.normal;
        for cp in c.points() {
            let (ma, mb) = (cold[c.a].inv_mass, cold[c.b].inv_mass);
            let total = ma + mb;
            if total == 0.0 {
                continue;
            }
            let s = current_separation(cp, n, &states[c.a], &states[c.b]);
            let depth = (-s - slop).max(0.0);
            if depth == 0.0 {
                continue;
            }
            let correction = (depth / total * percent) * n;
            states[c.a].dp -= ma * correction;
            states[c.b].dp += mb * correction;
        }
    }
}

/// Every pass over the contacts is bound by memory: a field that grows `Contact` past five
/// cache lines costs each of them a sixth.
const _: () = assert!(std::mem::size_of::<Contact>() == 5 * 64);
