//! Islands and sleep in the world's step, and the waking API the app calls (see
//! `engine::island` for the rules).

use super::World;
use crate::engine::body::BodyKind;
use crate::engine::island::{update_sleep_time, Islands, NO_ISLAND};
use crate::engine::parallel::BODY_BLOCK;
use crate::engine::solver::{SolverParams, SolverScratch};
use glam::Vec2;
use std::sync::OnceLock;

impl World {
    /// Wakes body `i` and, when the islands are known, every body of its island.
    pub fn wake_body(&mut self, i: usize) {
        let Some(b) = self.bodies.get_mut(i) else { return };
        b.wake();
        if let Some(k) = self.island_of(i) {
            let members = self.islands().bodies(k).to_vec();
            for m in members {
                self.bodies[m as usize].wake();
            }
            if let Some(islands) = self.islands.get_mut() {
                islands.awake[k] = true;
            }
        }
    }

    /// The islands of the last step (built now if the step left them out: sleep off) or,
    /// before any step, of the current contacts.
    pub fn islands(&self) -> &Islands {
        self.islands.get_or_init(|| {
            let mut islands = Islands::default();
            islands.build(&self.bodies, &self.contacts, &self.joints);
            islands.mark_awake_islands(&self.bodies);
            islands
        })
    }

    /// Wakes every body (a solver parameter changed, or the user asked).
    pub fn wake_all(&mut self) {
        for b in &mut self.bodies {
            if b.kind == BodyKind::Dynamic {
                b.wake();
            }
        }
        if let Some(islands) = self.islands.get_mut() {
            islands.awake.iter_mut().for_each(|a| *a = true);
        }
    }

    /// Sets the solver parameters and wakes every body (sleep depends on them).
    pub fn set_params(&mut self, params: SolverParams) {
        self.params = params;
        self.wake_all();
    }

    /// Applies `force` (newtons) at the world `point` of body `i` during the next step, and
    /// wakes it (Box2D's `b2Body_ApplyForce`).
    pub fn apply_force(&mut self, i: usize, force: Vec2, point: Vec2) {
        if let Some(b) = self.bodies.get_mut(i) {
            if force.is_finite() && point.is_finite() {
                b.force += force;
                b.torque += crate::engine::math::cross(point - b.center, force);
                b.wake();
            }
        }
    }

    /// Applies `torque` (N·m) to body `i` during the next step, and wakes it.
    pub fn apply_torque(&mut self, i: usize, torque: f32) {
        if let Some(b) = self.bodies.get_mut(i) {
            if torque.is_finite() {
                b.torque += torque;
                b.wake();
            }
        }
    }

    /// The island body `i` was in at the last step (`None` for static and kinematic bodies;
    /// see [`World::islands`]).
    pub fn island_of(&self, i: usize) -> Option<usize> {
        self.islands().of_body.get(i).copied().filter(|&k| k != NO_ISLAND).map(|k| k as usize)
    }

    /// Islands at the last step.
    pub fn island_count(&self) -> usize {
        self.islands().count()
    }

    /// Islands awake after the last step.
    pub fn awake_island_count(&self) -> usize {
        self.islands().awake.iter().filter(|&&a| a).count()
    }

    /// Dynamic bodies that are awake.
    pub fn awake_body_count(&self) -> usize {
        self.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic && b.awake).count()
    }

    /// Start of a step: a parameter change wakes everyone; a sleeping body given a velocity
    /// or a force was edited, so it wakes.
    pub(crate) fn begin_step(&mut self) {
        if self.last_params.as_ref() != Some(&self.params) {
            if self.last_params.is_some() {
                self.wake_all();
            }
            self.last_params = Some(self.params.clone());
        }
        // Sleep off, every dynamic body is set awake before the solve (`update_islands`).
        if self.params.sleep {
            for b in &mut self.bodies {
                let pushed = b.linear_velocity != Vec2::ZERO || b.angular_velocity != 0.0 || b.force != Vec2::ZERO;
                if b.kind == BodyKind::Dynamic && !b.awake && (pushed || b.torque != 0.0) {
                    b.wake();
                }
            }
        }
        if self.joint_filter.is_none() {
            self.rebuild_joint_filter();
        }
    }

    /// Whether a step can change nothing: sleep on, no mouse joint, no moving water, the broadphase and the
    /// islands in step with the bodies, and no body awake, kinematic or edited.
    pub(crate) fn at_rest(&self) -> bool {
        self.params.sleep
            && self.mouse_joint.is_none()
            && self.water_is_still()
            && self.step_count > 0
            && self.broadphase.has_proxies_for(self.bodies.len())
            && self.islands.get().is_some_and(|islands| islands.of_body.len() == self.bodies.len())
            && !self.bodies.iter().any(super::is_active)
    }

    /// After the narrowphase: islands over touching contacts and joints; islands with an
    /// awake body wake whole; then only constraints with an awake body are solved.
    pub(crate) fn update_islands(&mut self) {
        let sleep = self.params.sleep;
        // A moving kinematic body, an edited static body, the dragged body or sleep switched
        // off keep what they touch awake.
        let pushes = |k: BodyKind, awake: bool, v: Vec2, w: f32| match k {
            BodyKind::Kinematic => v != Vec2::ZERO || w != 0.0,
            BodyKind::Static => awake,
            BodyKind::Dynamic => false,
        };
        let n = self.bodies.len();
        let mut seeds = Vec::new();
        // Usually nothing pushes (no kinematic body moves, no static one was edited): then
        // the walk over every contact, two random body reads each, is skipped. Sleep off:
        // every dynamic body is set awake by the marking below, so waking what a body pushes
        // would change nothing (a dynamic body's sleep timer stays zero with sleep off).
        let any_pusher =
            sleep && self.bodies.iter().any(|b| pushes(b.kind, b.awake, b.linear_velocity, b.angular_velocity));
        if any_pusher {
            let links = self.contacts.iter().map(|c| (c.a, c.b)).chain(self.joints.iter().map(|j| j.bodies()));
            for (a, b) in links.filter(|&(a, b)| a < n && b < n) {
                for (x, y) in [(a, b), (b, a)] {
                    let bx = &self.bodies[x];
                    if pushes(bx.kind, bx.awake, bx.linear_velocity, bx.angular_velocity)
                        && self.bodies[y].kind == BodyKind::Dynamic
                    {
                        seeds.push(y);
                    }
                }
            }
        }
        if let Some(m) = &self.mouse_joint {
            seeds.push(m.body);
        }
        for i in seeds {
            if let Some(b) = self.bodies.get_mut(i) {
                b.wake();
            }
        }
        // Sleep off: every dynamic body is awake, so no island can wake or sleep; the islands
        // are built only if asked for (`World::islands`).
        let mut islands = self.islands.take().unwrap_or_default();
        if sleep {
            islands.build(&self.bodies, &self.contacts, &self.joints);
            islands.wake_touched(&mut self.bodies);
        }
        let SolverScratch { graph, workers, .. } = &mut self.solver_scratch;
        let same = std::mem::replace(&mut self.narrowphase.contacts_same, true);
        graph.mark_awake_contacts(&mut self.bodies, &mut self.contacts, workers, same, !sleep);
        if sleep {
            self.islands = OnceLock::from(islands);
        }
    }

    /// End of a step: sleep timers, then islands still for `time_to_sleep` fall asleep;
    /// applied forces are cleared and static edits forgotten.
    pub(crate) fn update_sleep(&mut self) {
        let p = &self.params;
        let dt = p.dt();
        // Each body's own: in blocks on the workers.
        self.solver_scratch.workers.for_each_chunk(&mut self.bodies, BODY_BLOCK, &|_, bodies| {
            for b in bodies {
                b.force = Vec2::ZERO;
                b.torque = 0.0;
                match b.kind {
                    BodyKind::Dynamic if b.awake => {
                        if p.sleep {
                            update_sleep_time(b, dt, p.linear_sleep_tolerance, p.angular_sleep_tolerance);
                        } else {
                            b.sleep_time = 0.0;
                        }
                    }
                    BodyKind::Static => b.awake = false,
                    _ => {}
                }
            }
        });
        if let Some(m) = &self.mouse_joint {
            if let Some(b) = self.bodies.get_mut(m.body) {
                b.sleep_time = 0.0;
            }
        }
        if p.sleep {
            let time_to_sleep = p.time_to_sleep;
            if let Some(islands) = self.islands.get_mut() {
                islands.sleep_still(&mut self.bodies, time_to_sleep);
            }
        }
    }
}
