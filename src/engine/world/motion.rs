//! The forces on each body over the last step, as numbers the debug draw can show (003
//! article, "Protip: How to be a Physics Dev – Debug Rendering": a developer's skill grows
//! with how good the debug draw is, so draw what moved each body, not only where it is).
//!
//! The solver keeps impulses, not forces. Each contact point's accumulated normal and
//! tangent impulses, `λn·n + λt·t` (the article's "Impulse Resolution" and "Friction"), are
//! what the point applied over one sub-step: Box2D v3's sub-stepping warm starts every
//! sub-step with the accumulated impulse and the iterations only change it, so the impulse
//! applied within the last sub-step is the accumulated one. Over a step of `n` sub-steps of
//! length `h` the contacts apply `≈ n·λ`, so the force, `n·λ / (n·h)`, is `λ / h`: the
//! joints' reactions use the same `impulse / h` ([`crate::engine::solver::joints::Reaction`]).
//! A contact's impulse acts `+` on body B and `−` on body A (the normal points from A to B);
//! applied at the contact points, its resultant is drawn at the centre of mass.

use super::World;
use crate::engine::body::BodyKind;
use crate::engine::math::right_perp;
use glam::Vec2;

/// What acted on one body over the last step, newtons, world frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyForces {
    /// `m · g · gravity_scale` (dynamic bodies only).
    pub gravity: Vec2,
    /// The resultant of its contacts' normal and friction impulses over the last sub-step,
    /// divided by the sub-step.
    pub contact: Vec2,
    /// The resultant of the joints' reaction forces on it (B gets the reaction, A its
    /// opposite).
    pub joint: Vec2,
    /// The water's buoyant force (the world's buoyancy report; drag left out).
    pub buoyancy: Vec2,
    /// Forces from outside the world: the mouse joint's pull.
    pub applied: Vec2,
}

impl World {
    /// The forces on body `i` over the last step (all zero for an index past the bodies).
    pub fn body_forces(&self, i: usize) -> BodyForces {
        let mut f = BodyForces::default();
        if i >= self.bodies.len() {
            return f;
        }
        f.gravity = self.weight(i);
        self.each_contact_force(|b, force| {
            if b == i {
                f.contact += force;
            }
        });
        self.each_joint_force(|b, force| {
            if b == i {
                f.joint += force;
            }
        });
        f.buoyancy = self.buoyancy(i).map_or(Vec2::ZERO, |r| r.force);
        f.applied = self.applied_force(i);
        f
    }

    /// Every body's forces, one walk over the contacts and joints (what the drawing uses).
    pub fn all_body_forces(&self) -> Vec<BodyForces> {
        let mut out: Vec<BodyForces> =
            (0..self.bodies.len()).map(|i| BodyForces { gravity: self.weight(i), ..Default::default() }).collect();
        self.each_contact_force(|b, force| out[b].contact += force);
        self.each_joint_force(|b, force| out[b].joint += force);
        if let Some(w) = &self.water {
            let n = out.len();
            for r in w.reports.iter().filter(|r| r.body < n) {
                out[r.body].buoyancy += r.force;
            }
        }
        if let Some(m) = self.mouse_joint.as_ref().filter(|m| m.body < out.len()) {
            out[m.body].applied += m.reaction(1.0 / self.substep_dt());
        }
        out
    }

    /// Body `i`'s weight: `m · g · gravity_scale` for a dynamic body, else zero.
    fn weight(&self, i: usize) -> Vec2 {
        let b = &self.bodies[i];
        if b.kind == BodyKind::Dynamic {
            b.mass * b.gravity_scale * self.params.gravity
        } else {
            Vec2::ZERO
        }
    }

    /// The mouse joint's pull on body `i`, if it holds that body.
    fn applied_force(&self, i: usize) -> Vec2 {
        match &self.mouse_joint {
            Some(m) if m.body == i => m.reaction(1.0 / self.substep_dt()),
            _ => Vec2::ZERO,
        }
    }

    /// Calls `add(body, force)` for both bodies of every contact with points: its points'
    /// impulses `λn·n + λt·t` over the sub-step, `+` on B and `−` on A.
    fn each_contact_force(&self, mut add: impl FnMut(usize, Vec2)) {
        let inv_h = 1.0 / self.substep_dt();
        for c in &self.contacts {
            let n = c.normal();
            let t = right_perp(n);
            let p: Vec2 = c.points().iter().map(|cp| cp.normal_impulse * n + cp.tangent_impulse * t).sum();
            if p != Vec2::ZERO {
                add(c.b, p * inv_h);
                add(c.a, -p * inv_h);
            }
        }
    }

    /// Calls `add(body, force)` for both bodies of every joint: its reaction on B, and the
    /// opposite on A.
    fn each_joint_force(&self, mut add: impl FnMut(usize, Vec2)) {
        let inv_h = 1.0 / self.substep_dt();
        let n = self.bodies.len();
        for j in &self.joints {
            let (a, b) = j.bodies();
            if a >= n || b >= n {
                continue;
            }
            let r = j.reaction(&self.bodies, inv_h);
            add(b, r.force);
            add(a, -r.force);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::body::BodyDef;
    use crate::engine::shape::Shape;
    use crate::engine::solver::joints::{JointBase, RevoluteJoint};
    use crate::engine::solver::Joint;
    use crate::engine::water::{Water, WaterParams};

    fn ground(w: &mut World) -> usize {
        let def = BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(10.0, 0.5)).unwrap(), Vec2::ZERO);
        w.create_body(&def)
    }

    fn dynamic(w: &mut World, shape: Shape, at: Vec2) -> usize {
        w.create_body(&BodyDef::new(BodyKind::Dynamic, shape, at))
    }

    #[test]
    fn a_box_at_rest_on_the_ground_is_held_up_by_its_weight() {
        let mut w = World::new(Default::default());
        ground(&mut w);
        let b = dynamic(&mut w, Shape::make_box(Vec2::new(0.5, 0.25)).unwrap(), Vec2::new(0.0, 0.75));
        for _ in 0..120 {
            w.step();
        }
        let f = w.body_forces(b);
        let weight = w.bodies[b].mass * w.params.gravity;
        assert_eq!(f.gravity, weight);
        // Newton's third law on the ground, and the closed form on the box: within 1 %.
        assert!((f.contact + weight).length() <= 0.01 * weight.length(), "contact {:?}, weight {weight:?}", f.contact);
        assert_eq!(w.body_forces(0).contact, -f.contact);
        assert_eq!(w.all_body_forces()[b], f);
        assert_eq!((f.joint, f.buoyancy, f.applied), (Vec2::ZERO, Vec2::ZERO, Vec2::ZERO));
    }

    #[test]
    fn a_body_in_free_fall_feels_its_weight_alone() {
        let mut w = World::new(Default::default());
        ground(&mut w);
        let b = dynamic(&mut w, Shape::circle(0.5).unwrap(), Vec2::new(0.0, 20.0));
        w.bodies[b].gravity_scale = 0.5;
        w.bodies[b].update_mass();
        for _ in 0..30 {
            w.step();
        }
        let f = w.body_forces(b);
        assert_eq!(f.contact, Vec2::ZERO, "no contact yet, at height {}", w.bodies[b].center.y);
        assert_eq!(f.gravity, 0.5 * w.bodies[b].mass * w.params.gravity);
        assert_eq!(w.body_forces(7), BodyForces::default());
    }

    #[test]
    fn a_pendulum_at_the_bottom_pulls_on_its_pivot_with_weight_and_centripetal_force() {
        // A small disc on a 2 m rod from a revolute joint, released level with its pivot.
        let (length, radius) = (2.0, 0.05);
        let mut w = World::new(Default::default());
        let pivot = Vec2::new(0.0, 5.0);
        let g = ground(&mut w);
        let bob = dynamic(&mut w, Shape::circle(radius).unwrap(), pivot + Vec2::new(length, 0.0));
        w.add_joint(Joint::Revolute(RevoluteJoint::new(JointBase::at(&w.bodies, g, bob, pivot)))).unwrap();
        // Step until the bob is closest to straight below the pivot.
        let mut best = (f32::INFINITY, 0.0, 0.0);
        for _ in 0..120 {
            w.step();
            let b = &w.bodies[bob];
            let r = b.center - pivot;
            let off = r.x.abs();
            if off < best.0 && r.y < 0.0 {
                let (m, g) = (b.mass, w.params.gravity.length());
                let v = b.linear_velocity.length();
                // Along the rod, at angle θ off vertical: m·g·cos θ + m·v²/L.
                let cos = -r.y / r.length();
                let expected = m * g * cos + m * v * v / r.length();
                best = (off, w.body_forces(bob).joint.length(), expected);
            }
        }
        let (off, got, expected) = best;
        assert!(off < 0.1, "the bob passed the bottom ({off} m off)");
        assert!((got - expected).abs() <= 0.02 * expected, "joint force {got} N, m·g + m·v²/L = {expected} N");
        // Three times the weight for a point mass released level (v² = 2·g·L).
        let weight = w.bodies[bob].mass * w.params.gravity.length();
        assert!((got / weight - 3.0).abs() < 0.1, "{got} N against a weight of {weight} N");
    }

    #[test]
    fn a_floating_box_at_rest_is_held_up_by_buoyancy() {
        let mut w = World::new(Default::default());
        ground(&mut w);
        let b = dynamic(&mut w, Shape::make_box(Vec2::new(0.5, 0.5)).unwrap(), Vec2::new(0.0, 3.0));
        w.bodies[b].material.density = 0.5;
        w.bodies[b].update_mass();
        let mut water = WaterParams::flat(3.0, (-10.0, 10.0));
        water.density = 1.0;
        w.set_water(Some(Water::new(water)));
        for _ in 0..600 {
            w.step();
        }
        let f = w.body_forces(b);
        let weight = w.bodies[b].mass * w.params.gravity.length();
        assert!(w.bodies[b].linear_velocity.length() < 0.01, "at rest: {:?}", w.bodies[b].linear_velocity);
        assert!((f.buoyancy.y - weight).abs() <= 0.02 * weight, "buoyancy {:?}, weight {weight}", f.buoyancy);
        assert_eq!(f.contact, Vec2::ZERO, "floating, touching nothing");
        assert_eq!(w.all_body_forces()[b].buoyancy, f.buoyancy);
    }

    #[test]
    fn the_mouse_joint_pull_is_the_applied_force() {
        let mut w = World::new(Default::default());
        ground(&mut w);
        let b = dynamic(&mut w, Shape::circle(0.5).unwrap(), Vec2::new(0.0, 5.0));
        assert!(w.start_mouse_joint(b, Vec2::new(0.0, 5.0)));
        for _ in 0..120 {
            w.step();
        }
        // Held still at the cursor: the pull carries the weight.
        let f = w.body_forces(b);
        let weight = w.bodies[b].mass * w.params.gravity;
        assert!((f.applied + weight).length() <= 0.02 * weight.length(), "pull {:?}, weight {weight:?}", f.applied);
        assert_eq!(w.body_forces(0).applied, Vec2::ZERO);
    }
}
