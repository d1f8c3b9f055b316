//! The world as a step rule's host (`engine::spawn`): running the scene's rule at the start of
//! a step, appending a human, and removing many bodies in one pass (Box2D's `b2DestroyBody`
//! for each: the body's joints and contacts go with it, and what they touched wakes).

use super::World;
use crate::engine::spawn::{HumanDef, SpawnHost};
use std::sync::OnceLock;

impl World {
    /// Runs the scene's step rule for the coming step (`step_count`), if there is one.
    pub(crate) fn run_spawner(&mut self) {
        if let Some(mut rule) = self.spawner.take() {
            rule.apply(self.step_count, self);
            self.spawner = Some(rule);
        }
    }

    /// Removes the bodies at `removed` (ascending, distinct; indices past the end are
    /// ignored) with their joints and contacts, renumbering every reference once (where
    /// [`World::remove_body`] renumbers per body). Bodies joined to or touching a removed
    /// body wake, as in Box2D. A step rule's own bodies are renumbered.
    pub fn remove_bodies(&mut self, removed: &[usize]) {
        let n = self.bodies.len();
        let removed: Vec<usize> = removed.iter().copied().filter(|&i| i < n).collect();
        debug_assert!(removed.windows(2).all(|w| w[0] < w[1]), "ascending, distinct indices");
        if removed.is_empty() {
            return;
        }
        let gone = |i: usize| removed.binary_search(&i).is_ok();
        let shift = |i: usize| i - removed.partition_point(|&r| r < i);
        let mut woken: Vec<usize> = Vec::new();
        for j in &self.joints {
            let (a, b) = j.bodies();
            if gone(a) != gone(b) {
                woken.push(if gone(a) { b } else { a });
            }
        }
        for c in self.contacts.iter().filter(|c| !c.points.is_empty() && gone(c.a) != gone(c.b)) {
            woken.push(if gone(c.a) { c.b } else { c.a });
        }
        for i in woken {
            self.wake_body(i);
        }
        self.joints.retain(|j| {
            let (a, b) = j.bodies();
            !gone(a) && !gone(b)
        });
        for j in &mut self.joints {
            let base = j.base_mut();
            (base.body_a, base.body_b) = (shift(base.body_a), shift(base.body_b));
        }
        let mut k = 0;
        self.bodies.retain(|_| {
            k += 1;
            !gone(k - 1)
        });
        self.contacts.retain(|c| !gone(c.a) && !gone(c.b));
        for c in &mut self.contacts {
            (c.a, c.b) = (shift(c.a), shift(c.b));
        }
        if self.mouse_joint.as_ref().is_some_and(|j| gone(j.body)) {
            self.mouse_joint = None;
        }
        if let Some(j) = &mut self.mouse_joint {
            j.body = shift(j.body);
        }
        self.broadphase.remove_bodies(&removed);
        if let Some(w) = &mut self.water {
            w.reports.retain(|r| !gone(r.body));
            for r in &mut w.reports {
                r.body = shift(r.body);
            }
        }
        self.narrowphase.invalidate();
        self.joint_filter = None;
        self.islands = OnceLock::new();
        if let Some(rule) = &mut self.spawner {
            rule.forget(&removed);
        }
    }
}

impl SpawnHost for World {
    fn body_count(&self) -> usize {
        self.bodies.len()
    }

    fn remove_bodies(&mut self, sorted: &[usize]) {
        World::remove_bodies(self, sorted);
    }

    fn add_human(&mut self, human: &HumanDef) {
        let first = self.bodies.len();
        for def in human.bodies() {
            self.create_body(&def);
        }
        for joint in human.joints(&self.bodies, first) {
            // Two new dynamic bodies: the world accepts it.
            let _ = self.add_joint(joint);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::shape::Shape;
    use crate::engine::solver::SolverParams;
    use crate::engine::{BodyDef, BodyKind, World};
    use glam::Vec2;

    /// A column of boxes on a ground, stepped until they touch.
    fn stack(n: usize) -> World {
        // Sleep off: the batched removal wakes what touched a removed body (Box2D's
        // `b2DestroyBody`), which resets its sleep timer; `remove_body` does not.
        let mut w = World::new(SolverParams { sleep: false, ..SolverParams::default() });
        let ground = BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(10.0, 0.5)).unwrap(), Vec2::ZERO);
        w.create_body(&ground);
        for i in 0..n {
            let def = BodyDef::new(
                BodyKind::Dynamic,
                Shape::make_box(Vec2::splat(0.5)).unwrap(),
                Vec2::new(0.0, 1.0 + i as f32),
            );
            w.create_body(&def);
        }
        for _ in 0..10 {
            w.step();
        }
        w
    }

    #[test]
    fn removing_bodies_at_once_is_removing_them_one_by_one() {
        let (mut once, mut each) = (stack(8), stack(8));
        once.remove_bodies(&[2, 3, 6]);
        for i in [6, 3, 2] {
            each.remove_body(i);
        }
        let rested = |w: &World| {
            let mut bodies = w.bodies.clone();
            bodies.iter_mut().for_each(|b| b.sleep_time = 0.0);
            bodies
        };
        assert_eq!(rested(&once), rested(&each));
        assert_eq!(once.contacts.len(), each.contacts.len());
        for (a, b) in once.contacts.iter().zip(&each.contacts) {
            assert_eq!((a.a, a.b, a.points.len()), (b.a, b.b, b.points.len()));
        }
        for _ in 0..30 {
            once.step();
            each.step();
        }
        assert_eq!(once.state_hash(), each.state_hash());
    }
}
