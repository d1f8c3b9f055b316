//! The world: bodies, contacts and the step (collide, then solve in sub-steps).

use super::body::{Body, BodyDef, BodyKind};
use super::broadphase::Broadphase;
use super::collide::collide;
use super::math::Aabb;
use super::solver::contact::{
    apply_restitution, mix_friction, mix_restitution, prepare_contacts, project_positions, solve_contacts, warm_start,
    ContactSoftness,
};
use super::solver::state::{finalize, integrate_positions, integrate_velocities, solver_bodies};
use super::solver::{Contact, MouseJoint, PositionCorrection, SolverParams};
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Timings and counts of the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepProfile {
    pub total_ms: f32,
    pub broadphase_ms: f32,
    pub narrowphase_ms: f32,
    pub solve_ms: f32,
    /// Candidate pairs from the broadphase.
    pub pairs: usize,
    /// Bodies whose AABB changed this step.
    pub proxies_moved: usize,
    /// Tree proxies reinserted this step (their AABB left the fat AABB).
    pub proxies_reinserted: usize,
    /// Bodies whose state was non-finite and was reset.
    pub repaired: usize,
    /// Continuous collision: time spent, and bodies moved back to a time of impact.
    pub ccd_ms: f32,
    pub toi_events: usize,
}

/// The simulation state. `Clone` and serializable so history and replays can store it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct World {
    pub params: SolverParams,
    pub bodies: Vec<Body>,
    pub contacts: Vec<Contact>,
    pub mouse_joint: Option<MouseJoint>,
    pub step_count: u64,
    #[serde(skip)]
    pub profile: StepProfile,
    /// Pair finding: the dynamic AABB tree, its move buffer and the persistent pairs. Not
    /// serialized: a deserialized world rebuilds it on its first step.
    #[serde(skip)]
    pub broadphase: Broadphase,
}

impl World {
    pub fn new(params: SolverParams) -> World {
        World {
            params,
            bodies: Vec::new(),
            contacts: Vec::new(),
            mouse_joint: None,
            step_count: 0,
            profile: StepProfile::default(),
            broadphase: Broadphase::default(),
        }
    }

    /// Adds a body and returns its index.
    pub fn create_body(&mut self, def: &BodyDef) -> usize {
        self.bodies.push(Body::new(def));
        self.bodies.len() - 1
    }

    pub fn dt(&self) -> f32 {
        self.params.dt()
    }

    /// Advances the world by one step of `1 / hz` seconds.
    pub fn step(&mut self) {
        let t0 = Instant::now();
        self.update_contacts();
        let t1 = Instant::now();
        self.solve();
        self.profile.solve_ms = t1.elapsed().as_secs_f32() * 1000.0;
        self.solve_continuous();
        // Move the tree proxies with the bodies (Box2D's "synchronize fixtures"), so the tree
        // matches the world between steps; new pairs are found at the next step.
        let t2 = Instant::now();
        self.broadphase.synchronize(&self.bodies, self.params.speculative_margin);
        self.profile.broadphase_ms += t2.elapsed().as_secs_f32() * 1000.0;
        self.profile.proxies_moved = self.broadphase.stats.moved;
        self.profile.proxies_reinserted = self.broadphase.stats.reinserted;
        self.profile.total_ms = t0.elapsed().as_secs_f32() * 1000.0;
        self.step_count += 1;
    }

    /// Finds the contacts of the current poses without stepping, so a scene loaded paused shows
    /// them before its first step. The next step finds the same pairs and manifolds again, so
    /// the simulation does not change.
    pub fn refresh_contacts(&mut self) {
        self.update_contacts();
    }

    /// Broadphase and narrowphase: updates the broadphase pairs (tree proxies, move buffer,
    /// persistent pairs: `broadphase::pair_finder`), then rebuilds the contact list from the
    /// pairs whose tight AABBs overlap, carrying impulses over by pair and feature id from the
    /// previous step's contacts. Pairs and contacts are sorted by `(a, b)`, so the result never
    /// depends on tree layout or hash order.
    fn update_contacts(&mut self) {
        let t0 = Instant::now();
        let margin = self.params.speculative_margin;
        self.broadphase.update_pairs(&self.bodies, margin);
        let t1 = Instant::now();
        self.profile.broadphase_ms = (t1 - t0).as_secs_f32() * 1000.0;
        self.profile.pairs = self.broadphase.pairs().len();

        // Merge-join with the previous contacts (both sorted by pair) to find old impulses.
        let old = std::mem::take(&mut self.contacts);
        let mut k = 0;
        let mut contacts = Vec::with_capacity(old.len() + 16);
        for &(i, j) in self.broadphase.pairs() {
            if !self.broadphase.may_touch(i, j) {
                continue;
            }
            let (i, j) = (i as usize, j as usize);
            while k < old.len() && (old[k].a, old[k].b) < (i, j) {
                k += 1;
            }
            let prev = old.get(k).filter(|c| c.a == i && c.b == j);
            let (ba, bb) = (&self.bodies[i], &self.bodies[j]);
            let manifold = collide(&ba.shape, &ba.xf, &bb.shape, &bb.xf, margin);
            if manifold.count == 0 {
                continue;
            }
            let friction = self.params.friction_override.unwrap_or_else(|| mix_friction(ba.friction, bb.friction));
            let restitution =
                self.params.restitution_override.unwrap_or_else(|| mix_restitution(ba.restitution, bb.restitution));
            contacts.push(Contact::new(i, j, manifold, friction, restitution, prev));
        }
        self.contacts = contacts;
        self.profile.narrowphase_ms = t1.elapsed().as_secs_f32() * 1000.0;
    }

    fn solve(&mut self) {
        let p = self.params.clone();
        let substeps = p.substeps.max(1);
        let h = p.dt() / substeps as f32;
        let inv_h = 1.0 / h;
        let softness = ContactSoftness::new(&p, h);

        for b in &mut self.bodies {
            b.center0 = b.center;
            b.q0 = b.xf.q;
        }
        prepare_contacts(&mut self.contacts, &self.bodies, p.warm_starting);
        if let Some(j) = &mut self.mouse_joint {
            if j.body < self.bodies.len() {
                j.prepare(&self.bodies);
            } else {
                self.mouse_joint = None;
            }
        }
        let mut states = solver_bodies(&self.bodies);
        let contacts = &mut self.contacts;
        let mut joint = self.mouse_joint.as_mut();

        for _ in 0..substeps {
            integrate_velocities(&mut states, &self.bodies, p.gravity, h, p.max_linear_speed);
            if p.warm_starting {
                warm_start(contacts, &mut states);
                if let Some(j) = &joint {
                    j.warm_start(&mut states);
                }
            }
            for _ in 0..p.iterations {
                if let Some(j) = &mut joint {
                    j.solve(&mut states, h, true);
                }
                solve_contacts(contacts, &mut states, &p, softness, inv_h, true);
            }
            integrate_positions(&mut states, h, p.max_angular_speed());
            match p.position_correction {
                PositionCorrection::Soft => {
                    for _ in 0..p.relax_iterations {
                        if let Some(j) = &mut joint {
                            j.solve(&mut states, h, false);
                        }
                        solve_contacts(contacts, &mut states, &p, softness, inv_h, false);
                    }
                }
                PositionCorrection::Projection => project_positions(contacts, &mut states, p.percent, p.slop),
                PositionCorrection::Baumgarte => {}
            }
        }
        apply_restitution(contacts, &mut states, p.restitution_threshold);
        finalize(&states, &mut self.bodies);
        self.finish_step();
    }

    /// Derives origin transforms and repairs any body whose state stopped being finite, so a
    /// NaN never spreads through the world.
    fn finish_step(&mut self) {
        let mut repaired = 0;
        for b in &mut self.bodies {
            let finite = b.center.is_finite()
                && b.angle.is_finite()
                && b.linear_velocity.is_finite()
                && b.angular_velocity.is_finite();
            if !finite {
                b.center = b.center0;
                b.angle = b.q0.angle();
                b.linear_velocity = Vec2::ZERO;
                b.angular_velocity = 0.0;
                repaired += 1;
            }
            b.sync_transform();
        }
        if repaired > 0 {
            for c in &mut self.contacts {
                for cp in &mut c.points {
                    if !cp.normal_impulse.is_finite() || !cp.tangent_impulse.is_finite() {
                        cp.normal_impulse = 0.0;
                        cp.tangent_impulse = 0.0;
                    }
                }
            }
        }
        self.profile.repaired = repaired;
    }

    /// The topmost body containing `point`.
    pub fn body_at(&self, point: Vec2) -> Option<usize> {
        (0..self.bodies.len()).rev().find(|&i| {
            let b = &self.bodies[i];
            b.shape.test_point(&b.xf, point)
        })
    }

    /// Grabs body `body` at world `point` with a mouse joint (dynamic bodies only).
    pub fn start_mouse_joint(&mut self, body: usize, point: Vec2) -> bool {
        let Some(b) = self.bodies.get(body) else { return false };
        if b.kind != BodyKind::Dynamic {
            return false;
        }
        let max_force = 1000.0 * b.mass * self.params.gravity.length().max(1.0);
        self.mouse_joint = Some(MouseJoint::new(body, b.xf.apply_inv(point), point, max_force));
        true
    }

    pub fn bounds(&self) -> Option<Aabb> {
        self.bodies.iter().map(|b| b.shape.compute_aabb(&b.xf)).reduce(|a, b| a.union(&b))
    }

    pub fn kinetic_energy(&self) -> f32 {
        self.bodies.iter().map(Body::kinetic_energy).sum()
    }

    /// Deepest penetration among current contacts (0 when none overlap).
    pub fn max_penetration(&self) -> f32 {
        self.contacts.iter().map(|c| c.manifold.max_penetration()).fold(0.0, f32::max)
    }

    /// A 64-bit FNV-1a hash of every body's pose and velocity bits. Equal worlds give equal
    /// hashes; it detects any divergence between runs.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: f32| {
            for byte in x.to_bits().to_le_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        for b in &self.bodies {
            eat(b.center.x);
            eat(b.center.y);
            eat(b.angle);
            eat(b.linear_velocity.x);
            eat(b.linear_velocity.y);
            eat(b.angular_velocity);
        }
        h
    }
}
