//! Contact constraints between hulls, solved by sequential impulses (article 003's "Impulse
//! Resolution" in 3D: relative velocity along the normal, `r × n` through the inverse inertia
//! tensor, Coulomb friction capped by `μ λn`), with accumulated impulses, warm starting by
//! feature id, two friction directions (the friction impulse is clamped to the disk of radius
//! `μ λn`), and Box2D v3's soft step: soft contacts in the biased pass, a relax pass without
//! bias, restitution after the sub-steps.

use super::body::Body3;
use super::integrate::SolverBody3;
use super::params::World3Params;
use crate::engine::hull3d::{AxisKind, FeatureManifold, HullSide};
use crate::engine::solver::soft::Softness;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Solver state of one contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ContactPoint3 {
    pub id: u64,
    /// World point when the contact was found (midway between the surfaces).
    pub position: Vec3,
    /// From each body's centre of mass to the point, at the start of the step.
    pub anchor_a: Vec3,
    pub anchor_b: Vec3,
    /// Separation at the start of the step (negative = penetration).
    pub base_separation: f32,
    pub normal_mass: f32,
    pub tangent_mass: [f32; 2],
    /// Accumulated impulses (kept across steps for warm starting).
    pub normal_impulse: f32,
    pub tangent_impulse: [f32; 2],
    /// Largest normal impulse applied this step (restitution only bounces touching points).
    pub max_normal_impulse: f32,
    /// Normal relative velocity before solving (for restitution).
    pub relative_velocity: f32,
    /// Consecutive steps this point has been matched and warm started.
    pub persisted: u32,
}

/// What decided a pair's SAT, for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SatDecision {
    /// The winning axis (face of A, face of B, or edge pair).
    pub kind: AxisKind,
    /// Its separation (≤ the speculative margin).
    pub separation: f32,
}

/// A contact between bodies `a < b`, normal (world) from A to B.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contact3 {
    pub a: usize,
    pub b: usize,
    pub normal: Vec3,
    /// The friction directions (an orthonormal basis with the normal).
    pub tangents: [Vec3; 2],
    pub points: Vec<ContactPoint3>,
    pub friction: f32,
    pub restitution: f32,
    pub sat: SatDecision,
    /// `(owner, face)` of the reference and incident faces, for face contacts.
    pub reference: Option<(HullSide, usize)>,
    pub incident: Option<(HullSide, usize)>,
    /// The hull of each body that touches (`Body3::hull_at`; 0 for bodies of one hull): a body
    /// of several hulls has one contact per hull pair ([`super::compound`]).
    #[serde(default, skip_serializing_if = "is_first_pair")]
    pub parts: [u8; 2],
    /// Largest push-out speed of this contact this step, m/s ([`super::push`]).
    #[serde(skip)]
    pub push_limit: f32,
}

impl Contact3 {
    /// A contact from a manifold, carrying impulses over from `old` by feature id.
    pub fn new(
        (a, b): (usize, usize),
        manifold: &FeatureManifold,
        sat: SatDecision,
        (friction, restitution): (f32, f32),
        old: Option<&Contact3>,
    ) -> Contact3 {
        let normal = manifold.normal;
        let (t1, t2) = normal.any_orthonormal_pair();
        let points = manifold
            .points
            .iter()
            .map(|mp| {
                let mut cp = ContactPoint3 {
                    id: mp.id,
                    position: mp.position,
                    base_separation: mp.separation,
                    ..Default::default()
                };
                if let Some(prev) = old.and_then(|o| o.points.iter().find(|p| p.id == mp.id)) {
                    cp.normal_impulse = prev.normal_impulse;
                    cp.tangent_impulse = prev.tangent_impulse;
                    cp.persisted = prev.persisted + 1;
                }
                cp
            })
            .collect();
        Contact3 {
            a,
            b,
            normal,
            tangents: [t1, t2],
            points,
            friction,
            restitution,
            sat,
            reference: manifold.reference,
            incident: manifold.incident,
            parts: [0, 0],
            push_limit: 0.0,
        }
    }

    /// Deepest penetration (0 when only speculative).
    pub fn max_penetration(&self) -> f32 {
        self.points.iter().map(|p| -p.base_separation).fold(0.0, f32::max)
    }
}

/// Friction mixing: geometric mean; restitution: the bouncier (Box2D).
pub fn mix_material(a: &Body3, b: &Body3) -> (f32, f32) {
    ((a.friction * b.friction).sqrt(), a.restitution.max(b.restitution))
}

/// [`mix_material`] for hull `ka` of `a` and hull `kb` of `b` (each hull's own material).
pub fn mix_part_material(a: &Body3, ka: usize, b: &Body3, kb: usize) -> (f32, f32) {
    let ((fa, ra), (fb, rb)) = (a.material_at(ka), b.material_at(kb));
    ((fa * fb).sqrt(), ra.max(rb))
}

fn is_first_pair(parts: &[u8; 2]) -> bool {
    *parts == [0, 0]
}

fn effective_mass(sa: &SolverBody3, sb: &SolverBody3, ra: Vec3, rb: Vec3, d: Vec3) -> f32 {
    let (rna, rnb) = (ra.cross(d), rb.cross(d));
    let k = sa.inv_mass + sb.inv_mass + rna.dot(sa.inv_i * rna) + rnb.dot(sb.inv_i * rnb);
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}

/// Anchors, effective masses and the pre-solve normal velocity.
pub fn prepare_contacts(contacts: &mut [Contact3], bodies: &[Body3], states: &[SolverBody3], warm_starting: bool) {
    for c in contacts {
        let (ba, bb) = (&bodies[c.a], &bodies[c.b]);
        let (sa, sb) = (&states[c.a], &states[c.b]);
        for cp in &mut c.points {
            if !warm_starting {
                cp.normal_impulse = 0.0;
                cp.tangent_impulse = [0.0; 2];
            }
            cp.max_normal_impulse = 0.0;
            cp.anchor_a = cp.position - ba.center;
            cp.anchor_b = cp.position - bb.center;
            cp.normal_mass = effective_mass(sa, sb, cp.anchor_a, cp.anchor_b, c.normal);
            cp.tangent_mass = c.tangents.map(|t| effective_mass(sa, sb, cp.anchor_a, cp.anchor_b, t));
            cp.relative_velocity = c.normal.dot(bb.velocity_at(cp.position) - ba.velocity_at(cp.position));
        }
    }
}

/// The two bodies of one contact, copied out of the solver state while its points are solved
/// (Box2D v3's solver does the same): the compiler keeps them in registers instead of reloading
/// them through the slice after every impulse, and the arithmetic is unchanged (`a < b`, so the
/// two never alias). Only the velocities change, and only they are written back.
struct Pair {
    a: SolverBody3,
    b: SolverBody3,
}

impl Pair {
    #[inline(always)]
    fn load(states: &[SolverBody3], c: &Contact3) -> Pair {
        Pair { a: states[c.a], b: states[c.b] }
    }

    #[inline(always)]
    fn store(&self, states: &mut [SolverBody3], c: &Contact3) {
        (states[c.a].v, states[c.a].w) = (self.a.v, self.a.w);
        (states[c.b].v, states[c.b].w) = (self.b.v, self.b.w);
    }

    #[inline(always)]
    fn apply(&mut self, cp: &ContactPoint3, p: Vec3) {
        self.a.apply(cp.anchor_a, -p);
        self.b.apply(cp.anchor_b, p);
    }

    #[inline(always)]
    fn relative_velocity(&self, cp: &ContactPoint3) -> Vec3 {
        self.b.velocity_at(cp.anchor_b) - self.a.velocity_at(cp.anchor_a)
    }
}

/// Re-applies last step's accumulated impulses.
pub fn warm_start(contacts: &[Contact3], states: &mut [SolverBody3]) {
    for c in contacts {
        let mut pair = Pair::load(states, c);
        for cp in &c.points {
            let p = cp.normal_impulse * c.normal
                + cp.tangent_impulse[0] * c.tangents[0]
                + cp.tangent_impulse[1] * c.tangents[1];
            pair.apply(cp, p);
        }
        pair.store(states, c);
    }
}

/// Contact softness for dynamic pairs and a stiffer one (twice the frequency) against static or
/// kinematic bodies, as Box2D v3.
#[derive(Clone, Copy, Debug)]
pub struct ContactSoftness3 {
    pub dynamic: Softness,
    pub fixed: Softness,
}

impl ContactSoftness3 {
    pub fn new(params: &World3Params, h: f32) -> ContactSoftness3 {
        let hertz = params.contact_hertz.min(0.25 / h);
        ContactSoftness3 {
            dynamic: Softness::new(hertz, params.contact_damping_ratio, h),
            fixed: Softness::new(2.0 * hertz, params.contact_damping_ratio, h),
        }
    }
}

/// One sequential-impulse pass. With `use_bias` the soft position bias pushes overlapping points
/// apart, at most at the contact's `push_limit`; the relax pass calls it without.
pub fn solve_contacts(
    contacts: &mut [Contact3],
    states: &mut [SolverBody3],
    soft: ContactSoftness3,
    inv_h: f32,
    use_bias: bool,
) {
    for c in contacts.iter_mut() {
        let mut pair = Pair::load(states, c);
        let fixed = pair.a.inv_mass == 0.0 || pair.b.inv_mass == 0.0;
        let softness = if fixed { soft.fixed } else { soft.dynamic };
        let n = c.normal;
        for cp in &mut c.points {
            let (sa, sb) = (&pair.a, &pair.b);
            let s = cp.base_separation + n.dot(sb.displacement_of(cp.anchor_b) - sa.displacement_of(cp.anchor_a));
            let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                (s * inv_h, 1.0, 0.0) // speculative: close exactly the gap this sub-step
            } else if use_bias {
                ((softness.bias_rate * s).max(-c.push_limit), softness.mass_scale, softness.impulse_scale)
            } else {
                (0.0, 1.0, 0.0)
            };
            let vn = pair.relative_velocity(cp).dot(n);
            let impulse = -cp.normal_mass * mass_scale * (vn + bias) - impulse_scale * cp.normal_impulse;
            let new_impulse = (cp.normal_impulse + impulse).max(0.0);
            let applied = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            pair.apply(cp, applied * n);
        }
        // Coulomb friction on both tangents, the pair clamped to the disk of radius μ λn.
        for cp in &mut c.points {
            let dv = pair.relative_velocity(cp);
            let old = cp.tangent_impulse;
            let mut new = [0, 1].map(|k| old[k] - cp.tangent_mass[k] * dv.dot(c.tangents[k]));
            let (len, max) = ((new[0] * new[0] + new[1] * new[1]).sqrt(), c.friction * cp.normal_impulse);
            if len > max {
                let scale = if len > 0.0 { max / len } else { 0.0 };
                new = new.map(|x| x * scale);
            }
            cp.tangent_impulse = new;
            let p = (new[0] - old[0]) * c.tangents[0] + (new[1] - old[1]) * c.tangents[1];
            pair.apply(cp, p);
        }
        pair.store(states, c);
    }
}

/// Restitution after the sub-steps (Box2D v3): points that approached faster than `threshold`
/// and pushed bounce towards `−e · v_before`.
pub fn apply_restitution(contacts: &mut [Contact3], states: &mut [SolverBody3], threshold: f32) {
    for c in contacts.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        let mut pair = Pair::load(states, c);
        for cp in &mut c.points {
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == 0.0 {
                continue;
            }
            let vn = pair.relative_velocity(cp).dot(c.normal);
            let impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let new_impulse = (cp.normal_impulse + impulse).max(0.0);
            let applied = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            pair.apply(cp, applied * c.normal);
        }
        pair.store(states, c);
    }
}
