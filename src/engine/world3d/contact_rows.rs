//! The contacts of one step as solver rows in one contiguous array (Box2D v3's contact
//! constraints; rapier's too): for each point, its lever arms crossed with the normal and the
//! two tangents, `r × d`, and those through the body's inverse inertia, `I⁻¹ (r × d)`, computed
//! once a step. The world inverse inertia, the anchors, the normal and the tangents are fixed
//! for the step (`contact::prepare_contacts`), so the rows stay exact for every sub-step: a
//! velocity along a row is `d · (vb − va) + wb · (rb × d) − wa · (ra × d)`, and an impulse `λ`
//! changes `w` by `λ I⁻¹ (r × d)`. The solve then reads no inertia tensor and no contact's
//! point list: three multiply-adds where [`SolverBody3::apply`] took a cross product and a
//! matrix product. The order of the impulses is the contacts' and their points', as before;
//! only the rounding differs. The accumulated impulses go back to the contacts at the end
//! ([`ContactRows::store_impulses`]).

use super::contact::{Contact3, ContactSoftness3};
use super::integrate::SolverBody3;
use glam::Vec3;

/// One direction of one point: `r × d` and `I⁻¹ (r × d)` for each body.
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    ra: Vec3,
    rb: Vec3,
    ka: Vec3,
    kb: Vec3,
}

impl Row {
    fn new(sa: &SolverBody3, sb: &SolverBody3, anchors: (Vec3, Vec3), d: Vec3) -> Row {
        let (ra, rb) = (anchors.0.cross(d), anchors.1.cross(d));
        Row { ra, rb, ka: sa.inv_i * ra, kb: sb.inv_i * rb }
    }
}

/// One contact point's rows and impulses.
#[derive(Clone, Copy, Debug, Default)]
struct PointRows {
    anchor_a: Vec3,
    anchor_b: Vec3,
    base_separation: f32,
    normal: Row,
    tangents: [Row; 2],
    normal_mass: f32,
    tangent_mass: [f32; 2],
    normal_impulse: f32,
    tangent_impulse: [f32; 2],
    max_normal_impulse: f32,
    relative_velocity: f32,
}

/// One contact: its bodies, directions, material, and its points' range in the point rows.
#[derive(Clone, Copy, Debug)]
struct ContactHead {
    a: u32,
    b: u32,
    points: (u32, u32),
    normal: Vec3,
    tangents: [Vec3; 2],
    inv_mass: (f32, f32),
    friction: f32,
    restitution: f32,
    push_limit: f32,
    /// One body is static or kinematic (the stiffer softness).
    fixed: bool,
}

/// The velocities of a contact's two bodies, and what their motion this step reads.
struct Pair {
    va: Vec3,
    wa: Vec3,
    vb: Vec3,
    wb: Vec3,
}

impl Pair {
    #[inline(always)]
    fn load(states: &[SolverBody3], h: &ContactHead) -> Pair {
        let (a, b) = (&states[h.a as usize], &states[h.b as usize]);
        Pair { va: a.v, wa: a.w, vb: b.v, wb: b.w }
    }

    #[inline(always)]
    fn store(&self, states: &mut [SolverBody3], h: &ContactHead) {
        (states[h.a as usize].v, states[h.a as usize].w) = (self.va, self.wa);
        (states[h.b as usize].v, states[h.b as usize].w) = (self.vb, self.wb);
    }

    /// The relative velocity along direction `d` with row `r`.
    #[inline(always)]
    fn speed(&self, d: Vec3, r: &Row) -> f32 {
        d.dot(self.vb - self.va) + self.wb.dot(r.rb) - self.wa.dot(r.ra)
    }

    /// Impulse `lambda` along direction `d` with row `r`.
    #[inline(always)]
    fn apply(&mut self, h: &ContactHead, d: Vec3, r: &Row, lambda: f32) {
        self.va -= (h.inv_mass.0 * lambda) * d;
        self.wa -= lambda * r.ka;
        self.vb += (h.inv_mass.1 * lambda) * d;
        self.wb += lambda * r.kb;
    }
}

/// A step's contact rows (kept by the world and refilled each step, so a step allocates
/// nothing once they have grown).
#[derive(Clone, Debug, Default)]
pub struct ContactRows {
    heads: Vec<ContactHead>,
    points: Vec<PointRows>,
}

impl ContactRows {
    /// The rows of `contacts` (after `prepare_contacts` and `set_push_limits`) at the solver
    /// state `states` of the step's start.
    pub fn build(&mut self, contacts: &[Contact3], states: &[SolverBody3]) {
        self.heads.clear();
        self.points.clear();
        for c in contacts {
            let (sa, sb) = (&states[c.a], &states[c.b]);
            let first = self.points.len() as u32;
            for cp in &c.points {
                let anchors = (cp.anchor_a, cp.anchor_b);
                self.points.push(PointRows {
                    anchor_a: cp.anchor_a,
                    anchor_b: cp.anchor_b,
                    base_separation: cp.base_separation,
                    normal: Row::new(sa, sb, anchors, c.normal),
                    tangents: c.tangents.map(|t| Row::new(sa, sb, anchors, t)),
                    normal_mass: cp.normal_mass,
                    tangent_mass: cp.tangent_mass,
                    normal_impulse: cp.normal_impulse,
                    tangent_impulse: cp.tangent_impulse,
                    max_normal_impulse: cp.max_normal_impulse,
                    relative_velocity: cp.relative_velocity,
                });
            }
            self.heads.push(ContactHead {
                a: c.a as u32,
                b: c.b as u32,
                points: (first, self.points.len() as u32),
                normal: c.normal,
                tangents: c.tangents,
                inv_mass: (sa.inv_mass, sb.inv_mass),
                friction: c.friction,
                restitution: c.restitution,
                push_limit: c.push_limit,
                fixed: sa.inv_mass == 0.0 || sb.inv_mass == 0.0,
            });
        }
    }

    /// Re-applies last step's accumulated impulses.
    pub fn warm_start(&self, states: &mut [SolverBody3]) {
        for h in &self.heads {
            let mut pair = Pair::load(states, h);
            for p in &self.points[h.points.0 as usize..h.points.1 as usize] {
                pair.apply(h, h.normal, &p.normal, p.normal_impulse);
                pair.apply(h, h.tangents[0], &p.tangents[0], p.tangent_impulse[0]);
                pair.apply(h, h.tangents[1], &p.tangents[1], p.tangent_impulse[1]);
            }
            pair.store(states, h);
        }
    }

    /// One pass over the contacts: each point's normal impulse (soft, pushing overlapping
    /// bodies apart at most at the contact's `push_limit`, when `use_bias`; the relax pass
    /// calls it without), then the points' friction, clamped to the disk of radius `μ λn`.
    pub fn solve(&mut self, states: &mut [SolverBody3], soft: ContactSoftness3, inv_h: f32, use_bias: bool) {
        let ContactRows { heads, points } = self;
        for h in heads.iter() {
            let mut pair = Pair::load(states, h);
            let (sa, sb) = (&states[h.a as usize], &states[h.b as usize]);
            let softness = if h.fixed { soft.fixed } else { soft.dynamic };
            let n = h.normal;
            let rows = &mut points[h.points.0 as usize..h.points.1 as usize];
            for p in rows.iter_mut() {
                let s = p.base_separation + n.dot(sb.displacement_of(p.anchor_b) - sa.displacement_of(p.anchor_a));
                let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                    (s * inv_h, 1.0, 0.0) // speculative: close exactly the gap this sub-step
                } else if use_bias {
                    ((softness.bias_rate * s).max(-h.push_limit), softness.mass_scale, softness.impulse_scale)
                } else {
                    (0.0, 1.0, 0.0)
                };
                let vn = pair.speed(n, &p.normal);
                let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
                let new_impulse = (p.normal_impulse + impulse).max(0.0);
                let applied = new_impulse - p.normal_impulse;
                p.normal_impulse = new_impulse;
                p.max_normal_impulse = p.max_normal_impulse.max(applied);
                pair.apply(h, n, &p.normal, applied);
            }
            for p in rows.iter_mut() {
                let old = p.tangent_impulse;
                let mut new = [0, 1].map(|k| old[k] - p.tangent_mass[k] * pair.speed(h.tangents[k], &p.tangents[k]));
                let (len, max) = ((new[0] * new[0] + new[1] * new[1]).sqrt(), h.friction * p.normal_impulse);
                if len > max {
                    let scale = if len > 0.0 { max / len } else { 0.0 };
                    new = new.map(|x| x * scale);
                }
                p.tangent_impulse = new;
                pair.apply(h, h.tangents[0], &p.tangents[0], new[0] - old[0]);
                pair.apply(h, h.tangents[1], &p.tangents[1], new[1] - old[1]);
            }
            pair.store(states, h);
        }
    }

    /// Restitution after the sub-steps (Box2D v3): points that approached faster than
    /// `threshold` and pushed bounce towards `−e · v_before`.
    pub fn apply_restitution(&mut self, states: &mut [SolverBody3], threshold: f32) {
        let ContactRows { heads, points } = self;
        for h in heads.iter().filter(|h| h.restitution != 0.0) {
            let mut pair = Pair::load(states, h);
            for p in &mut points[h.points.0 as usize..h.points.1 as usize] {
                if p.relative_velocity > -threshold || p.max_normal_impulse == 0.0 {
                    continue;
                }
                let vn = pair.speed(h.normal, &p.normal);
                let impulse = -p.normal_mass * (vn + h.restitution * p.relative_velocity);
                let new_impulse = (p.normal_impulse + impulse).max(0.0);
                let applied = new_impulse - p.normal_impulse;
                p.normal_impulse = new_impulse;
                p.max_normal_impulse = p.max_normal_impulse.max(applied);
                pair.apply(h, h.normal, &p.normal, applied);
            }
            pair.store(states, h);
        }
    }

    /// Writes the accumulated impulses back to the contacts the rows were built from.
    pub fn store_impulses(&self, contacts: &mut [Contact3]) {
        let rows = self.points.iter();
        for (cp, p) in contacts.iter_mut().flat_map(|c| c.points.iter_mut()).zip(rows) {
            cp.normal_impulse = p.normal_impulse;
            cp.tangent_impulse = p.tangent_impulse;
            cp.max_normal_impulse = p.max_normal_impulse;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::SplitMix64;
    use glam::{Mat3, Quat};

    fn vector(rng: &mut SplitMix64, scale: f32) -> Vec3 {
        Vec3::new(rng.f32(-scale, scale), rng.f32(-scale, scale), rng.f32(-scale, scale))
    }

    /// A body with a random velocity and a random symmetric positive-definite inverse inertia.
    fn body(rng: &mut SplitMix64) -> SolverBody3 {
        let r = Mat3::from_quat(Quat::from_scaled_axis(vector(rng, 2.0)));
        let d = Mat3::from_diagonal(Vec3::new(rng.f32(0.2, 3.0), rng.f32(0.2, 3.0), rng.f32(0.2, 3.0)));
        SolverBody3 {
            v: vector(rng, 3.0),
            w: vector(rng, 3.0),
            inv_mass: rng.f32(0.1, 2.0),
            inv_i: r * d * r.transpose(),
            dp: Vec3::ZERO,
            dq: Quat::IDENTITY,
        }
    }

    #[test]
    fn a_row_gives_the_speed_and_the_velocity_change_of_the_direct_formulas() {
        let mut rng = SplitMix64(0x5eed_0003);
        for _ in 0..1000 {
            let (sa, sb) = (body(&mut rng), body(&mut rng));
            let (ra, rb, d) = (vector(&mut rng, 1.0), vector(&mut rng, 1.0), vector(&mut rng, 1.0).normalize());
            let lambda = rng.f32(-2.0, 2.0);
            let row = Row::new(&sa, &sb, (ra, rb), d);
            let head = ContactHead {
                a: 0,
                b: 1,
                points: (0, 0),
                normal: d,
                tangents: [Vec3::X, Vec3::Y],
                inv_mass: (sa.inv_mass, sb.inv_mass),
                friction: 0.5,
                restitution: 0.0,
                push_limit: 3.0,
                fixed: false,
            };
            let mut pair = Pair::load(&[sa, sb], &head);
            let direct = d.dot(sb.velocity_at(rb) - sa.velocity_at(ra));
            assert!((pair.speed(d, &row) - direct).abs() <= 1e-5 * direct.abs().max(1.0));
            pair.apply(&head, d, &row, lambda);
            let (mut a, mut b) = (sa, sb);
            a.apply(ra, -lambda * d);
            b.apply(rb, lambda * d);
            for (got, want) in [(pair.va, a.v), (pair.wa, a.w), (pair.vb, b.v), (pair.wb, b.w)] {
                assert!((got - want).length() <= 1e-5 * want.length().max(1.0), "{got} vs {want}");
            }
        }
    }
}
