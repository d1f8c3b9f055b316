//! Contact constraints solved by sequential impulses (003 article "Impulse Resolution":
//! relative velocity along the normal, restitution, rotation through `r × n`, Coulomb
//! friction capped by `μ·λn`, positional correction with percent and slop, iterations),
//! with accumulated impulses, warm starting by feature id and sub-stepping.

use super::graph::GraphColor;
use super::params::{PositionCorrection, SolverParams};
use super::soft::Softness;
use super::state::SolverBody;
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
    pub normal_mass: f32,
    pub tangent_mass: f32,
    /// Accumulated impulses (kept across steps for warm starting).
    pub normal_impulse: f32,
    pub tangent_impulse: f32,
    /// Largest normal impulse applied this step (restitution only bounces touching points).
    pub max_normal_impulse: f32,
    /// Normal relative velocity before solving (for restitution).
    pub relative_velocity: f32,
    /// How many consecutive steps this point has been matched and warm started.
    pub persisted: u32,
}

/// A contact constraint between bodies `a` and `b` (`a < b`), normal from A to B.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    pub a: usize,
    pub b: usize,
    pub manifold: Manifold,
    pub friction: f32,
    pub restitution: f32,
    pub points: [ContactPoint; 2],
    /// Whether the solver works on it this step (false between sleeping bodies).
    #[serde(default = "awake_default")]
    pub awake: bool,
    /// The constraint graph colour it was solved in last (drawing and reports only).
    #[serde(skip)]
    pub graph_color: GraphColor,
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
        Contact { a, b, manifold, friction, restitution, points, awake: true, graph_color: GraphColor::None }
    }

    pub fn normal(&self) -> Vec2 {
        self.manifold.normal
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

/// Computes anchors, effective masses and the pre-solve normal velocity.
pub fn prepare_contacts(contacts: &mut [Contact], bodies: &[Body], warm_starting: bool) {
    for c in contacts.iter_mut().filter(|c| c.awake) {
        let (ba, bb) = (&bodies[c.a], &bodies[c.b]);
        let n = c.manifold.normal;
        let t = right_perp(n);
        let (ma, ia, mb, ib) = (ba.inv_mass, ba.inv_inertia, bb.inv_mass, bb.inv_inertia);
        let count = c.manifold.count;
        for cp in &mut c.points[..count] {
            if !warm_starting {
                cp.normal_impulse = 0.0;
                cp.tangent_impulse = 0.0;
            }
            cp.max_normal_impulse = 0.0;
            let ra = cp.point - ba.center;
            let rb = cp.point - bb.center;
            cp.anchor_a = ra;
            cp.anchor_b = rb;
            let rna = cross(ra, n);
            let rnb = cross(rb, n);
            let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
            cp.normal_mass = if kn > 0.0 { 1.0 / kn } else { 0.0 };
            let rta = cross(ra, t);
            let rtb = cross(rb, t);
            let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
            cp.tangent_mass = if kt > 0.0 { 1.0 / kt } else { 0.0 };
            let dv = bb.velocity_at(cp.point) - ba.velocity_at(cp.point);
            cp.relative_velocity = n.dot(dv);
        }
    }
}

/// Applies an impulse `p` at anchors `ra`/`rb` (negative to A, positive to B).
#[inline]
fn apply_impulse(states: &mut [SolverBody], a: usize, b: usize, ra: Vec2, rb: Vec2, p: Vec2) {
    states[a].apply(ra, -p);
    states[b].apply(rb, p);
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
pub fn warm_start(contacts: &[Contact], states: &mut [SolverBody]) {
    for c in contacts.iter().filter(|c| c.awake) {
        let n = c.manifold.normal;
        let t = right_perp(n);
        for cp in c.points() {
            let p = cp.normal_impulse * n + cp.tangent_impulse * t;
            apply_impulse(states, c.a, c.b, cp.anchor_a, cp.anchor_b, p);
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
/// correction's velocity bias is applied; the relax pass calls it without.
pub fn solve_contacts(
    contacts: &mut [Contact],
    states: &mut [SolverBody],
    params: &SolverParams,
    soft: ContactSoftness,
    inv_h: f32,
    use_bias: bool,
) {
    for c in contacts.iter_mut().filter(|c| c.awake) {
        let n = c.manifold.normal;
        let fixed = states[c.a].inv_mass == 0.0 || states[c.b].inv_mass == 0.0;
        let softness = if fixed { soft.fixed } else { soft.dynamic };
        let t = right_perp(n);
        let count = c.manifold.count;
        for cp in &mut c.points[..count] {
            let s = current_separation(cp, n, &states[c.a], &states[c.b]);
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
                        (b.max(-params.max_push_velocity), 1.0, 0.0)
                    }
                    PositionCorrection::Projection => (0.0, 1.0, 0.0),
                }
            } else {
                (0.0, 1.0, 0.0)
            };
            let dv = relative_velocity(states, c.a, c.b, cp.anchor_a, cp.anchor_b);
            let vn = dv.dot(n);
            let impulse = -cp.normal_mass * mass_scale * (vn + bias) - impulse_scale * cp.normal_impulse;
            let new_impulse = (cp.normal_impulse + impulse).max(0.0);
            let applied = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            apply_impulse(states, c.a, c.b, cp.anchor_a, cp.anchor_b, applied * n);
        }
        // Coulomb friction, capped by μ times this point's normal impulse.
        for cp in &mut c.points[..count] {
            let dv = relative_velocity(states, c.a, c.b, cp.anchor_a, cp.anchor_b);
            let vt = dv.dot(t);
            let impulse = -cp.tangent_mass * vt;
            let max_friction = c.friction * cp.normal_impulse;
            let new_impulse = (cp.tangent_impulse + impulse).clamp(-max_friction, max_friction);
            let applied = new_impulse - cp.tangent_impulse;
            cp.tangent_impulse = new_impulse;
            apply_impulse(states, c.a, c.b, cp.anchor_a, cp.anchor_b, applied * t);
        }
    }
}

/// Restitution after the sub-steps (Box2D v3): bounce points that were approaching faster
/// than `threshold` and actually pushed, towards `-e · v_before`.
pub fn apply_restitution(contacts: &mut [Contact], states: &mut [SolverBody], threshold: f32) {
    for c in contacts.iter_mut().filter(|c| c.awake) {
        if c.restitution == 0.0 {
            continue;
        }
        let n = c.manifold.normal;
        let count = c.manifold.count;
        for cp in &mut c.points[..count] {
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == 0.0 {
                continue;
            }
            let vn = relative_velocity(states, c.a, c.b, cp.anchor_a, cp.anchor_b).dot(n);
            let impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let new_impulse = (cp.normal_impulse + impulse).max(0.0);
            let applied = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max(applied);
            apply_impulse(states, c.a, c.b, cp.anchor_a, cp.anchor_b, applied * n);
        }
    }
}

/// The 003 article's positional correction: move each pair apart along the normal by
/// `percent` of the penetration beyond `slop`, shared by inverse mass (linear only).
pub fn project_positions(contacts: &[Contact], states: &mut [SolverBody], percent: f32, slop: f32) {
    for c in contacts.iter().filter(|c| c.awake) {
        let n = c.manifold.normal;
        for cp in c.points() {
            let (ma, mb) = (states[c.a].inv_mass, states[c.b].inv_mass);
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
