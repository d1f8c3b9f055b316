//! Islands and sleep (003 article, "Culling Queries Further": "usually only active (awake)
//! dynamic bodies are placed into an island (and any objects they have contact constraints
//! with)"; Box2D v3's sleep rules).
//!
//! An island is a connected group of dynamic bodies, linked by touching contacts and by
//! joints; static and kinematic bodies belong to none (they would glue everything into one
//! island). Islands are **rebuilt every step by union-find** over the contact and joint lists
//! rather than kept persistent as Box2D v3 does: the step already walks every contact, so the
//! rebuild costs a small constant per constraint, needs no island splitting, and numbers the
//! islands by their lowest body index so the result never depends on history. With sleep off
//! no island can wake or sleep, so the step leaves them out and `World::islands` builds them
//! when they are shown. Contacts of sleeping bodies are carried from step to step unchanged,
//! so a sleeping pile keeps its island.
//!
//! Sleep: a dynamic body's `sleep_time` grows while its speed stays under
//! `linear_sleep_tolerance` and its turn rate under `angular_sleep_tolerance`; when every body
//! of an island has been still for `time_to_sleep`, the island sleeps (velocities zeroed). An
//! island wakes when any of its bodies is awake: a touching contact or a joint with an awake
//! body merges it into that body's island, and dragging, editing or pushing a body marks it
//! awake.

use super::body::{Body, BodyKind};
use super::solver::{Contact, Joint};

/// Marker for bodies in no island.
pub const NO_ISLAND: u32 = u32::MAX;

/// The islands of the last step.
#[derive(Clone, Debug, Default)]
pub struct Islands {
    /// Island of each body, `NO_ISLAND` for static and kinematic bodies.
    pub of_body: Vec<u32>,
    /// Bodies of island `k`: `members[start[k]..start[k + 1]]`, ascending.
    pub members: Vec<u32>,
    pub start: Vec<u32>,
    /// Whether island `k` is awake (after this step's waking and sleeping).
    pub awake: Vec<bool>,
    parent: Vec<u32>,
    /// Per body, whether it is dynamic (scratch: one pass over the large bodies instead of
    /// two reads per contact).
    dynamic: Vec<bool>,
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let next = parent[i as usize];
        parent[i as usize] = parent[next as usize];
        i = next;
    }
    i
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    // The smaller index becomes the root: roots are the lowest body of their island.
    if ra < rb {
        parent[rb as usize] = ra;
    } else if rb < ra {
        parent[ra as usize] = rb;
    }
}

impl Islands {
    pub fn count(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// Bodies of island `k`.
    pub fn bodies(&self, k: usize) -> &[u32] {
        &self.members[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// Union-find over the dynamic bodies linked by contacts and joints (see the module docs).
    pub fn build(&mut self, bodies: &[Body], contacts: &[Contact], joints: &[Joint]) {
        let n = bodies.len();
        self.parent.clear();
        self.parent.extend(0..n as u32);
        self.dynamic.clear();
        self.dynamic.extend(bodies.iter().map(|b| b.kind == BodyKind::Dynamic));
        let dynamic = |i: usize| self.dynamic[i];
        for c in contacts {
            if dynamic(c.a) && dynamic(c.b) {
                union(&mut self.parent, c.a as u32, c.b as u32);
            }
        }
        for j in joints {
            let (a, b) = j.bodies();
            if a < n && b < n && dynamic(a) && dynamic(b) {
                union(&mut self.parent, a as u32, b as u32);
            }
        }
        // Number islands by their lowest body; count members, then place them.
        self.of_body.clear();
        self.of_body.resize(n, NO_ISLAND);
        let mut sizes: Vec<u32> = Vec::new();
        for i in 0..n {
            if !dynamic(i) {
                continue;
            }
            let root = find(&mut self.parent, i as u32) as usize;
            let k = if root == i {
                sizes.push(0);
                (sizes.len() - 1) as u32
            } else {
                self.of_body[root]
            };
            self.of_body[i] = k;
            sizes[k as usize] += 1;
        }
        self.start.clear();
        self.start.push(0);
        for s in &sizes {
            let last = *self.start.last().unwrap_or(&0);
            self.start.push(last + s);
        }
        self.members.clear();
        self.members.resize(*self.start.last().unwrap_or(&0) as usize, 0);
        let mut fill: Vec<u32> = self.start[..sizes.len()].to_vec();
        for i in 0..n {
            let k = self.of_body[i];
            if k != NO_ISLAND {
                self.members[fill[k as usize] as usize] = i as u32;
                fill[k as usize] += 1;
            }
        }
        self.awake.clear();
        self.awake.resize(sizes.len(), true);
    }

    /// Marks each island awake when one of its bodies is (changing no body).
    pub fn mark_awake_islands(&mut self, bodies: &[Body]) {
        for k in 0..self.count() {
            let members = &self.members[self.start[k] as usize..self.start[k + 1] as usize];
            self.awake[k] = members.iter().any(|&i| bodies[i as usize].awake);
        }
    }

    /// Wakes every island holding an awake body: its sleeping bodies wake with a fresh
    /// sleep timer. Returns how many bodies woke.
    pub fn wake_touched(&mut self, bodies: &mut [Body]) -> usize {
        let mut woken = 0;
        for k in 0..self.count() {
            let range = self.start[k] as usize..self.start[k + 1] as usize;
            let any_awake = self.members[range.clone()].iter().any(|&i| bodies[i as usize].awake);
            self.awake[k] = any_awake;
            if !any_awake {
                continue;
            }
            for &i in &self.members[range] {
                let b = &mut bodies[i as usize];
                if !b.awake {
                    b.awake = true;
                    b.sleep_time = 0.0;
                    woken += 1;
                }
            }
        }
        woken
    }

    /// Puts to sleep every awake island whose bodies have all been still for
    /// `time_to_sleep` (velocities zeroed, as Box2D's sleeping bodies report none).
    pub fn sleep_still(&mut self, bodies: &mut [Body], time_to_sleep: f32) {
        for k in 0..self.count() {
            if !self.awake[k] {
                continue;
            }
            let range = self.start[k] as usize..self.start[k + 1] as usize;
            if self.members[range.clone()].iter().all(|&i| bodies[i as usize].sleep_time >= time_to_sleep) {
                self.awake[k] = false;
                for &i in &self.members[range] {
                    let b = &mut bodies[i as usize];
                    b.awake = false;
                    b.linear_velocity = glam::Vec2::ZERO;
                    b.angular_velocity = 0.0;
                }
            }
        }
    }
}

/// Box2D's sleep test for one body after the step: still (under both tolerances) adds the
/// step to its sleep time, moving resets it.
pub fn update_sleep_time(b: &mut Body, dt: f32, linear_tolerance: f32, angular_tolerance: f32) {
    let still = b.linear_velocity.length_squared() <= linear_tolerance * linear_tolerance
        && b.angular_velocity.abs() <= angular_tolerance;
    if still {
        b.sleep_time += dt;
    } else {
        b.sleep_time = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::collide::Manifold;
    use crate::engine::shape::Shape;
    use crate::engine::BodyDef;
    use glam::Vec2;

    fn body(kind: BodyKind) -> Body {
        Body::new(&BodyDef::new(kind, Shape::circle(0.5).unwrap(), Vec2::ZERO))
    }

    #[test]
    fn islands_follow_dynamic_links_only() {
        // 0 static, 1..=3 chained by contacts through 2, 4 alone, 5 touches only the static.
        let kinds = [BodyKind::Static, BodyKind::Dynamic, BodyKind::Dynamic, BodyKind::Dynamic, BodyKind::Dynamic];
        let mut bodies: Vec<Body> = kinds.iter().map(|&k| body(k)).collect();
        bodies.push(body(BodyKind::Dynamic));
        let c = |a, b| Contact::new(a, b, Manifold::EMPTY, 0.5, 0.0, None);
        let contacts = [c(0, 1), c(1, 2), c(2, 3), c(0, 5)];
        let mut isl = Islands::default();
        isl.build(&bodies, &contacts, &[]);
        assert_eq!(isl.count(), 3);
        assert_eq!(isl.of_body[0], NO_ISLAND);
        assert_eq!(isl.bodies(0), &[1, 2, 3]);
        assert_eq!(isl.bodies(1), &[4]);
        assert_eq!(isl.bodies(2), &[5]);
        // Island 0 asleep except body 3: all three wake, 3 keeps its timer.
        for (i, b) in bodies.iter_mut().enumerate().take(4).skip(1) {
            b.awake = i == 3;
            b.sleep_time = 1.0;
        }
        assert_eq!(isl.wake_touched(&mut bodies), 2);
        assert!(bodies[1].awake && bodies[1].sleep_time == 0.0 && bodies[3].sleep_time == 1.0);
        // Everyone still long enough: all islands sleep, velocities zeroed.
        for b in &mut bodies[1..] {
            b.sleep_time = 0.6;
            b.linear_velocity = Vec2::new(0.01, 0.0);
        }
        bodies[4].sleep_time = 0.1;
        isl.sleep_still(&mut bodies, 0.5);
        assert!(!bodies[2].awake && bodies[2].linear_velocity == Vec2::ZERO);
        assert!(bodies[4].awake && !isl.awake[0] && isl.awake[1]);
    }
}
