//! The 3D world: hull bodies, joints, water, contacts, and the step (find contacts, then solve in
//! sub-steps with Box2D v3's soft step: integrate velocities, warm start, solve with bias,
//! integrate positions, relax without bias; restitution at the end).

use super::body::{Body3, BodyDef3, BodyError3};
use super::buoyancy::{buoyancy, BuoyancyRecord};
use super::contact::{prepare_contacts, Contact3, ContactSoftness3};
use super::contact_rows::ContactRows;
use super::height_field::HeightField3;
use super::integrate::{clamp_speeds, integrate_positions, integrate_velocities, solver_bodies, SolverBody3};
use super::joint::{Joint3, JointError3};
use super::mouse::MouseSpring3;
use super::narrow::{collide_pairs, NarrowStats, SatCache};
use super::pairs::{find_pairs, PairStats};
use super::params::World3Params;
use super::push::set_push_limits;
use super::water::Water3;
use crate::engine::hull3d::{Pose3, SatScratch};
use glam::Vec3;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Timings and counts of the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepProfile3 {
    pub total_ms: f32,
    pub collide_ms: f32,
    pub solve_ms: f32,
    pub narrow: NarrowStats,
    /// Candidate pairs and those left out by the per-body bound ([`super::pairs`]).
    pub pairs: PairStats,
    /// Bodies whose state was non-finite and was reset.
    pub repaired: usize,
}

/// Why a joint could not be created.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum JointError {
    #[error("a joint needs two different bodies, got {0} twice")]
    SameBody(usize),
    #[error("body {0} does not exist")]
    NoBody(usize),
    #[error("a joint needs at least one dynamic body")]
    NothingMoves,
}

/// The simulation state; `Clone` and serializable so a view can keep history.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct World3 {
    pub params: World3Params,
    pub bodies: Vec<Body3>,
    pub joints: Vec<Joint3>,
    pub water: Vec<Water3>,
    /// This step's contacts, sorted by pair.
    pub contacts: Vec<Contact3>,
    /// Buoyancy of each floating body at the last sub-step.
    pub buoyancy: Vec<BuoyancyRecord>,
    /// The simulated surface of each basin (`None` for an analytic one), one per `water`
    /// entry ([`super::world_water`]).
    #[serde(default)]
    pub surfaces: Vec<Option<HeightField3>>,
    /// Simulated seconds (moves the waves).
    pub time: f64,
    pub step_count: u64,
    pub sat_cache: SatCache,
    /// The user's drag, if any ([`MouseSpring3`]).
    #[serde(default)]
    pub mouse: Option<MouseSpring3>,
    #[serde(skip)]
    pub profile: StepProfile3,
    #[serde(skip)]
    scratch: SatScratch,
    /// The step's contact rows (scratch).
    #[serde(skip)]
    rows: ContactRows,
}

impl World3 {
    pub fn new(params: World3Params) -> World3 {
        World3 {
            params,
            bodies: Vec::new(),
            joints: Vec::new(),
            water: Vec::new(),
            contacts: Vec::new(),
            buoyancy: Vec::new(),
            surfaces: Vec::new(),
            time: 0.0,
            step_count: 0,
            sat_cache: SatCache::default(),
            mouse: None,
            profile: StepProfile3::default(),
            scratch: SatScratch::default(),
            rows: ContactRows::default(),
        }
    }

    /// Adds a body and returns its index.
    pub fn create_body(&mut self, def: &BodyDef3) -> Result<usize, BodyError3> {
        self.bodies.push(Body3::new(def)?);
        Ok(self.bodies.len() - 1)
    }

    /// Adds a joint (made with [`Joint3::ball`] or [`Joint3::orientation`]) and returns its index.
    pub fn add_joint(&mut self, joint: Joint3) -> Result<usize, JointError> {
        for i in [joint.a, joint.b] {
            if i >= self.bodies.len() {
                return Err(JointError::NoBody(i));
            }
        }
        if joint.a == joint.b {
            return Err(JointError::SameBody(joint.a));
        }
        if !self.bodies[joint.a].is_dynamic() && !self.bodies[joint.b].is_dynamic() {
            return Err(JointError::NothingMoves);
        }
        self.joints.push(joint);
        Ok(self.joints.len() - 1)
    }

    pub fn add_water(&mut self, water: Water3) -> usize {
        self.water.push(water);
        self.sync_surfaces();
        self.water.len() - 1
    }

    pub fn body_named(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }

    pub fn dt(&self) -> f32 {
        self.params.dt()
    }

    /// Advances the world by one step of `1 / hz` seconds.
    pub fn step(&mut self) {
        let t0 = Instant::now();
        self.refresh_contacts();
        let t1 = Instant::now();
        self.profile.collide_ms = (t1 - t0).as_secs_f32() * 1000.0;
        self.solve();
        self.advance_surfaces();
        self.profile.solve_ms = t1.elapsed().as_secs_f32() * 1000.0;
        self.profile.total_ms = t0.elapsed().as_secs_f32() * 1000.0;
        self.time += self.params.dt() as f64;
        self.step_count += 1;
    }

    /// Finds the contacts of the current poses (warm started from the previous ones) without
    /// stepping: the start of every step, and after bodies were placed by hand.
    pub fn refresh_contacts(&mut self) {
        let (pairs, pair_stats) = find_pairs(&self.bodies, &self.joints, self.params.speculative_margin);
        self.profile.pairs = pair_stats;
        let old = std::mem::take(&mut self.contacts);
        let (contacts, stats) =
            collide_pairs(&self.bodies, &pairs, &old, &mut self.sat_cache, &self.params, &mut self.scratch);
        self.contacts = contacts;
        self.profile.narrow = stats;
    }

    fn solve(&mut self) {
        let p = self.params.clone();
        let substeps = p.substeps.max(1);
        let h = p.dt() / substeps as f32;
        let inv_h = 1.0 / h;
        let softness = ContactSoftness3::new(&p, h);
        for b in &mut self.bodies {
            b.center0 = b.center;
            b.q0 = b.pose.q;
        }
        let mut states = solver_bodies(&self.bodies);
        prepare_contacts(&mut self.contacts, &self.bodies, &states, p.warm_starting);
        set_push_limits(&mut self.contacts, &self.bodies, p.max_push_velocity, softness);
        let mut rows = std::mem::take(&mut self.rows);
        rows.build(&self.contacts, &states);
        for j in &mut self.joints {
            j.prepare(&self.bodies, p.warm_starting);
        }
        let mut external = vec![(Vec3::ZERO, Vec3::ZERO); self.bodies.len()];
        for k in 0..substeps {
            self.buoyancy_forces(&states, self.time + (k as f64) * h as f64, &mut external);
            self.mouse_force(&states, h, &mut external);
            integrate_velocities(&mut states, &self.bodies, &external, &p, h);
            if p.warm_starting {
                rows.warm_start(&mut states);
                for j in &self.joints {
                    j.warm_start(&mut states);
                }
            }
            for _ in 0..p.iterations {
                for j in &mut self.joints {
                    j.solve(&mut states, &self.bodies, &p, h, true);
                }
                rows.solve(&mut states, softness, inv_h, true);
            }
            clamp_speeds(&mut states, &p);
            integrate_positions(&mut states, h);
            for _ in 0..p.relax_iterations {
                for j in &mut self.joints {
                    j.solve(&mut states, &self.bodies, &p, h, false);
                }
                rows.solve(&mut states, softness, inv_h, false);
            }
        }
        rows.apply_restitution(&mut states, p.restitution_threshold);
        rows.store_impulses(&mut self.contacts);
        self.rows = rows;
        clamp_speeds(&mut states, &p);
        self.finish(&states);
    }

    /// Buoyancy and drag on every dynamic body in water, at the sub-step's poses; records them.
    fn buoyancy_forces(&mut self, states: &[SolverBody3], t: f64, out: &mut [(Vec3, Vec3)]) {
        out.fill((Vec3::ZERO, Vec3::ZERO));
        self.buoyancy.clear();
        if self.water.is_empty() {
            return;
        }
        let g = self.params.gravity;
        for (i, (b, s)) in self.bodies.iter().zip(states).enumerate() {
            if !b.is_dynamic() {
                continue;
            }
            let q = (s.dq * b.q0).normalize();
            let center = b.center0 + s.dp;
            let pose = Pose3::new(center - q * b.local_center, q);
            for (w, water) in self.water.iter().enumerate() {
                let field = self.surfaces.get(w).and_then(Option::as_ref);
                if let Some(rec) = buoyancy(b, i, &pose, center, (s.v, s.w), (water, field, w), t, g) {
                    let (f, tau) = rec.force_and_torque(center);
                    out[i].0 += f;
                    out[i].1 += tau;
                    self.buoyancy.push(rec);
                }
            }
        }
    }

    /// The mouse spring's force at the sub-step's pose, added to its body's external force.
    fn mouse_force(&self, states: &[SolverBody3], h: f32, out: &mut [(Vec3, Vec3)]) {
        let Some(m) = &self.mouse else { return };
        let (Some(b), Some(s)) = (self.bodies.get(m.body), states.get(m.body)) else { return };
        let q = (s.dq * b.q0).normalize();
        let (f, tau) = m.force_and_torque(b, (b.center0 + s.dp, q), (s.v, s.w), self.params.gravity.length(), h);
        out[m.body].0 += f;
        out[m.body].1 += tau;
    }

    /// Writes the solver state back and repairs any body whose state stopped being finite.
    fn finish(&mut self, states: &[SolverBody3]) {
        let mut repaired = 0;
        for (b, s) in self.bodies.iter_mut().zip(states) {
            if b.kind != crate::engine::BodyKind::Static {
                b.linear_velocity = s.v;
                b.angular_velocity = s.w;
                b.center = b.center0 + s.dp;
                b.pose.q = (s.dq * b.q0).normalize();
            }
            let finite = b.center.is_finite()
                && b.pose.q.is_finite()
                && b.linear_velocity.is_finite()
                && b.angular_velocity.is_finite();
            if !finite {
                (b.center, b.pose.q) = (b.center0, b.q0);
                (b.linear_velocity, b.angular_velocity) = (Vec3::ZERO, Vec3::ZERO);
                repaired += 1;
            }
            b.sync_pose();
        }
        if repaired > 0 {
            for c in &mut self.contacts {
                for cp in &mut c.points {
                    if !(cp.normal_impulse.is_finite() && cp.tangent_impulse.iter().all(|x| x.is_finite())) {
                        cp.normal_impulse = 0.0;
                        cp.tangent_impulse = [0.0; 2];
                    }
                }
            }
        }
        self.profile.repaired = repaired;
    }

    /// Each joint's current error.
    pub fn joint_errors(&self) -> Vec<JointError3> {
        self.joints.iter().map(|j| j.error(&self.bodies)).collect()
    }

    /// The largest joint error (radians for orientation joints, metres for ball joints).
    pub fn max_joint_error(&self) -> f32 {
        self.joint_errors().iter().map(|e| e.magnitude).fold(0.0, f32::max)
    }

    pub fn kinetic_energy(&self) -> f32 {
        self.bodies.iter().map(Body3::kinetic_energy).sum()
    }

    /// Deepest penetration among the current contacts.
    pub fn max_penetration(&self) -> f32 {
        self.contacts.iter().map(Contact3::max_penetration).fold(0.0, f32::max)
    }

    /// A 64-bit FNV-1a hash of every body's pose and velocity bits (and a multi-part body's hull
    /// offsets and rotations), then every simulated surface's columns (heights, velocities,
    /// occupancy; a world without one hashes its bodies alone): equal worlds, equal hashes.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: f32| {
            for byte in x.to_bits().to_le_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        for b in &self.bodies {
            let q = b.pose.q;
            for x in [b.center.x, b.center.y, b.center.z, q.x, q.y, q.z, q.w] {
                eat(x);
            }
            for v in [b.linear_velocity, b.angular_velocity] {
                eat(v.x);
                eat(v.y);
                eat(v.z);
            }
            // A body of several hulls also hashes where each sits (bodies of one add nothing).
            for p in &b.parts {
                let r = p.rotation;
                for x in [p.offset.x, p.offset.y, p.offset.z, r.x, r.y, r.z, r.w] {
                    eat(x);
                }
            }
        }
        for f in self.surfaces.iter().flatten() {
            for &x in f.heights.iter().chain(&f.velocities).chain(&f.occupied) {
                eat(x);
            }
        }
        h
    }
}
