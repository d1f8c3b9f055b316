//! Contact constraints between hulls, solved by sequential impulses (article 003's "Impulse
//! Resolution" in 3D: relative velocity along the normal, `r × n` through the inverse inertia
//! tensor, Coulomb friction capped by `μ λn`), with accumulated impulses, warm starting by
//! feature id, two friction directions (the friction impulse is clamped to the disk of radius
//! `μ λn`), and Box2D v3's soft step: soft contacts in the biased pass, a relax pass without
//! bias, restitution after the sub-steps. The contacts are prepared here and solved as rows
//! ([`super::contact_rows`]).

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
