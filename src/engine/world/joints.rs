//! The world's joints: adding, changing and removing them (each wakes the bodies and refreshes
//! the contact filter), their reactions and errors, and picking a joint under the cursor.

use super::World;
use crate::engine::body::BodyKind;
use crate::engine::solver::joints::release::RELEASE_TIME;
use crate::engine::solver::joints::Reaction;
use crate::engine::solver::Joint;
use glam::Vec2;

impl World {
    /// The joints, in creation order (a broken or removed joint shifts later indices down).
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Adds a joint and returns its index. Rejected: a body index out of range, a joint from
    /// a body to itself, and a joint between two bodies that cannot move (static or kinematic).
    pub fn add_joint(&mut self, joint: Joint) -> Result<usize, String> {
        let (a, b) = joint.bodies();
        let n = self.bodies.len();
        if a >= n || b >= n {
            return Err(format!("joint body index out of range: {a} and {b} with {n} bodies"));
        }
        if a == b {
            return Err(format!("a joint needs two different bodies, got body {a} twice"));
        }
        if self.bodies[a].kind != BodyKind::Dynamic && self.bodies[b].kind != BodyKind::Dynamic {
            return Err(format!("a joint needs at least one dynamic body; bodies {a} and {b} cannot move"));
        }
        self.bodies[a].wake();
        self.bodies[b].wake();
        self.joints.push(joint);
        self.joint_filter = None;
        Ok(self.joints.len() - 1)
    }

    /// Joint `k` for editing; its bodies wake (a changed joint may move them) and the contact
    /// filter is refreshed at the next step.
    pub fn joint_mut(&mut self, k: usize) -> Option<&mut Joint> {
        let (a, b) = self.joints.get(k)?.bodies();
        self.wake_body(a);
        self.wake_body(b);
        self.joint_filter = None;
        self.joints.get_mut(k)
    }

    /// Removes joint `k`, waking its bodies and releasing the joints linked to them
    /// (`World::release_joints`).
    pub fn remove_joint(&mut self, k: usize) -> Option<Joint> {
        if k >= self.joints.len() {
            return None;
        }
        let j = self.joints.remove(k);
        let (a, b) = j.bodies();
        self.wake_body(a);
        self.wake_body(b);
        self.release_joints(&[a, b]);
        self.joint_filter = None;
        Some(j)
    }

    /// After a joint between bodies `seeds` broke or was removed: releases every joint linked
    /// to them through dynamic bodies (static and kinematic bodies link nothing, as in Box2D's
    /// islands), dropping its accumulated impulses and correcting its error overdamped for the
    /// steps of `RELEASE_TIME` (`solver::joints::release`). Returns how many were released.
    pub(crate) fn release_joints(&mut self, seeds: &[usize]) -> usize {
        let n = self.bodies.len();
        let mut by_body: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, j) in self.joints.iter().enumerate() {
            let (a, b) = j.bodies();
            if a < n && b < n {
                by_body[a].push(k as u32);
                by_body[b].push(k as u32);
            }
        }
        let links = |i: usize, bodies: &[crate::engine::body::Body]| i < n && bodies[i].is_dynamic();
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        for &s in seeds {
            if links(s, &self.bodies) && !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
        let mut released = vec![false; self.joints.len()];
        while let Some(i) = stack.pop() {
            for &k in &by_body[i] {
                released[k as usize] = true;
                let (a, b) = self.joints[k as usize].bodies();
                let other = if a == i { b } else { a };
                if links(other, &self.bodies) && !seen[other] {
                    seen[other] = true;
                    stack.push(other);
                }
            }
        }
        let steps = (RELEASE_TIME * self.params.hz).ceil() as u32;
        let mut count = 0;
        for (j, _) in self.joints.iter_mut().zip(&released).filter(|(_, &r)| r) {
            j.reset_impulses();
            j.base_mut().release = steps;
            count += 1;
        }
        count
    }

    /// The reaction of joint `k` on its body B over the last sub-step (`impulse · inv_h`).
    pub fn joint_reaction(&self, k: usize) -> Option<Reaction> {
        Some(self.joints.get(k)?.reaction(&self.bodies, 1.0 / self.substep_dt()))
    }

    /// Joint `k`'s current error: (metres off its constraint, radians beyond it).
    pub fn joint_error(&self, k: usize) -> Option<(f32, f32)> {
        let j = self.joints.get(k)?;
        Some((j.linear_error(&self.bodies), j.angular_error(&self.bodies)))
    }

    /// The largest positional error of any joint, metres (0 without joints).
    pub fn max_joint_error(&self) -> f32 {
        self.joints.iter().map(|j| j.linear_error(&self.bodies)).fold(0.0, f32::max)
    }

    /// The joint with an anchor nearest to `point` within `radius` (for picking in a view).
    pub fn joint_at(&self, point: Vec2, radius: f32) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (k, j) in self.joints.iter().enumerate() {
            let (pa, pb) = j.base().world_anchors(&self.bodies);
            let d = pa.distance(point).min(pb.distance(point));
            if d <= radius && best.is_none_or(|(_, bd)| d < bd) {
                best = Some((k, d));
            }
        }
        best.map(|(k, _)| k)
    }

    /// The sorted pairs whose contacts joints filter out (`collide_connected` off).
    pub(crate) fn rebuild_joint_filter(&mut self) {
        let mut pairs: Vec<(u32, u32)> = self
            .joints
            .iter()
            .filter(|j| !j.base().collide_connected)
            .map(|j| {
                let (a, b) = j.bodies();
                (a.min(b) as u32, a.max(b) as u32)
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        self.joint_filter = Some(pairs);
    }
}
