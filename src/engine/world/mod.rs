//! The world: bodies, contacts and the step (collide, then solve in sub-steps).

pub mod ccd;
mod compound_contacts;
mod compound_edit;
mod contacts;
pub mod draw;
mod draw_graph;
mod draw_motion;
mod joints;
mod merge_contacts;
pub mod motion;
pub mod ray;
pub mod shape_cast;
mod sleep;
pub mod slice;
mod slice_compound;
mod snapshot;
mod solve;
mod spawn;
pub mod toi_events;
pub mod water;

use super::body::{Body, BodyDef, BodyKind};
use super::broadphase::Broadphase;
use super::island::Islands;
use super::math::Aabb;
use super::solver::{Contact, Joint, MouseJoint, SolverParams, SolverScratch};
use super::spawn::Spawner;
use super::water::Water;
use contacts::NarrowphaseCache;
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use std::time::Instant;

/// Timings and counts of the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepProfile {
    pub total_ms: f32,
    pub broadphase_ms: f32,
    pub narrowphase_ms: f32,
    /// Manifolds computed this step, and contacts whose manifold was reused because neither
    /// body moved or changed shape since it was computed.
    #[serde(default)]
    pub manifolds: usize,
    #[serde(default)]
    pub manifolds_reused: usize,
    /// Contacts whose manifold was recycled: kept from the poses it was computed at, with
    /// separations updated from the bodies' small motion since (`solver::recycle`).
    #[serde(default)]
    pub manifolds_recycled: usize,
    pub solve_ms: f32,
    /// Candidate pairs from the broadphase.
    pub pairs: usize,
    /// Bodies whose AABB changed this step.
    pub proxies_moved: usize,
    /// Tree proxies given a new fat AABB this step (their AABB left the fat AABB).
    pub proxies_reinserted: usize,
    /// Bodies whose state was non-finite and was reset.
    pub repaired: usize,
    /// Constraint graph colours holding contacts, and contacts in the overflow set.
    #[serde(default)]
    pub colors: usize,
    #[serde(default)]
    pub overflow: usize,
    /// Awake contacts left unsolved by the pile cap (`solver::graph::SOLVED_PER_BODY`).
    #[serde(default)]
    pub capped: usize,
    /// Continuous collision: time spent, and bodies moved back to a time of impact.
    pub ccd_ms: f32,
    pub toi_events: usize,
    /// Joints that broke this step (their reaction exceeded a break threshold).
    pub joints_broken: usize,
    /// Water: buoyancy and drag before the sub-steps, the surface after them, ms.
    pub water_ms: f32,
}

/// The simulation state. `Clone` and serializable so history and replays can store it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct World {
    pub params: SolverParams,
    pub bodies: Vec<Body>,
    pub contacts: Vec<Contact>,
    /// The drag handle: a soft spring from the cursor to a grabbed body (never saved).
    pub mouse_joint: Option<MouseJoint>,
    /// Change through `add_joint`, `joint_mut`, `remove_joint` so the contact filter and
    /// sleep follow (see `world/joints`).
    pub(crate) joints: Vec<Joint>,
    /// Joints removed because they broke, since the world was created.
    pub broken_joints: usize,
    pub step_count: u64,
    #[serde(skip)]
    pub profile: StepProfile,
    /// Pair finding: the dynamic AABB tree, its move buffer and the persistent pairs. Not
    /// serialized: a deserialized world rebuilds it on its first step.
    #[serde(skip)]
    pub broadphase: Broadphase,
    /// The islands of the last step (see `engine::island`): built by the step when sleep is
    /// on (sleep needs them), else on first use after the step ([`World::islands`]), so a world
    /// without sleep pays for them only when they are shown.
    #[serde(skip)]
    pub(crate) islands: OnceLock<Islands>,
    /// Sorted body pairs whose contacts a joint filters out; `None` = rebuild.
    #[serde(skip)]
    pub(crate) joint_filter: Option<Vec<(u32, u32)>>,
    /// The parameters of the last step: a change wakes every body.
    #[serde(skip)]
    pub(crate) last_params: Option<SolverParams>,
    /// Water, if the scene has some (`world/water`).
    #[serde(default)]
    pub water: Option<Water>,
    /// The solver's per-step arrays (constraint graph, contact rows), kept so a step does not
    /// allocate them anew. Not state: rebuilt every step.
    #[serde(skip)]
    pub(crate) solver_scratch: SolverScratch,
    /// What the last narrowphase saw of each body, so unchanged pairs skip `collide`
    /// (`world/contacts`). Not state: an empty cache only means nothing is skipped once.
    #[serde(skip)]
    pub(crate) narrowphase: NarrowphaseCache,
    /// Continuous collision's events of the last steps (`world/toi_events`): a record for
    /// drawing, which nothing in the step reads.
    #[serde(skip)]
    pub toi_events: toi_events::ToiEventLog,
    /// The scene's step rule, if any (`engine::spawn`): run at the start of every step, part
    /// of the state (snapshots, saves, the hash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawner: Option<Spawner>,
}

impl World {
    pub fn new(params: SolverParams) -> World {
        World {
            params,
            bodies: Vec::new(),
            contacts: Vec::new(),
            mouse_joint: None,
            joints: Vec::new(),
            broken_joints: 0,
            step_count: 0,
            profile: StepProfile::default(),
            broadphase: Broadphase::default(),
            islands: OnceLock::new(),
            joint_filter: None,
            last_params: None,
            water: None,
            solver_scratch: SolverScratch::default(),
            narrowphase: NarrowphaseCache::default(),
            toi_events: Default::default(),
            spawner: None,
        }
    }

    /// Adds a body and returns its index.
    pub fn create_body(&mut self, def: &BodyDef) -> usize {
        self.bodies.push(Body::new(def));
        self.bodies.len() - 1
    }

    /// The sub-step length, seconds (joint reactions are impulses over a sub-step).
    pub fn substep_dt(&self) -> f32 {
        self.params.dt() / self.params.substeps.max(1) as f32
    }

    pub fn dt(&self) -> f32 {
        self.params.dt()
    }

    /// Advances the world by one step of `1 / hz` seconds: run the scene's step rule (spawns), wake edited bodies, collide,
    /// build islands (waking those touched by awake bodies), solve the awake ones in
    /// sub-steps, break overloaded joints, put still islands to sleep.
    pub fn step(&mut self) {
        let t0 = Instant::now();
        self.run_spawner();
        self.begin_step();
        if self.at_rest() {
            // Everything sleeps and nothing was touched: the step would change nothing.
            self.profile = StepProfile { total_ms: t0.elapsed().as_secs_f32() * 1000.0, ..Default::default() };
            self.step_count += 1;
            return;
        }
        // The solver's workers spin for the rest of the step instead of being woken for each
        // of its parallel parts (the narrowphase's, the solve's).
        let span = self.solver_scratch.workers.span();
        self.update_contacts();
        let t1 = Instant::now();
        let forces = self.water_forces();
        self.update_islands();
        self.solve(&forces);
        self.break_joints();
        self.update_sleep();
        self.profile.solve_ms = t1.elapsed().as_secs_f32() * 1000.0;
        self.solve_continuous();
        self.advance_water();
        // Move the tree proxies with the bodies (Box2D's "synchronize fixtures"), so the tree
        // matches the world between steps; new pairs are found at the next step.
        let t2 = Instant::now();
        let workers = &self.solver_scratch.workers;
        self.broadphase.synchronize_with(&self.bodies, self.params.speculative_margin, workers);
        self.profile.broadphase_ms += t2.elapsed().as_secs_f32() * 1000.0;
        drop(span);
        self.profile.proxies_moved = self.broadphase.stats.moved;
        self.profile.proxies_reinserted = self.broadphase.stats.reinserted;
        self.profile.total_ms = t0.elapsed().as_secs_f32() * 1000.0;
        self.step_count += 1;
    }

    /// Finds the contacts of the current poses without stepping, so a scene loaded paused shows
    /// them before its first step. The next step finds the same pairs and manifolds again, so
    /// the simulation does not change. Refreshes the water's reports too.
    pub fn refresh_contacts(&mut self) {
        self.update_contacts();
        self.refresh_water();
    }

    /// After the solve repaired `repaired` bodies whose state stopped being finite
    /// (`solver::state::finalize`, which also derives the transforms), clears any non-finite
    /// impulse the contacts kept, so a NaN never spreads through the world.
    pub(crate) fn finish_step(&mut self, repaired: usize) {
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
        (0..self.bodies.len()).rev().find(|&i| self.bodies[i].test_point(point))
    }

    /// Grabs body `body` at world `point` with a mouse joint (dynamic bodies only); wakes it.
    pub fn start_mouse_joint(&mut self, body: usize, point: Vec2) -> bool {
        let Some(b) = self.bodies.get(body) else { return false };
        if b.kind != BodyKind::Dynamic {
            return false;
        }
        let max_force = 1000.0 * b.mass * self.params.gravity.length().max(1.0);
        self.mouse_joint = Some(MouseJoint::new(body, b.xf.apply_inv(point), point, max_force));
        self.wake_body(body);
        true
    }

    pub fn bounds(&self) -> Option<Aabb> {
        self.bodies.iter().map(Body::compute_aabb).reduce(|a, b| a.union(&b))
    }

    pub fn kinetic_energy(&self) -> f32 {
        self.bodies.iter().map(Body::kinetic_energy).sum()
    }

    /// Deepest penetration among current contacts (0 when none overlap).
    pub fn max_penetration(&self) -> f32 {
        self.contacts.iter().map(|c| c.manifold.max_penetration()).fold(0.0, f32::max)
    }

    /// A 64-bit FNV-1a hash of every body's pose and velocity bits, and of the water's
    /// surface state when there is water. Equal worlds give equal hashes; it detects any
    /// divergence between runs.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat_bytes = |bytes: &[u8]| {
            for &byte in bytes {
                h ^= byte as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        if let Some(w) = &self.water {
            eat_bytes(&w.state.time.to_bits().to_le_bytes());
            for (y, v) in w.state.heights.iter().zip(&w.state.velocities) {
                eat_bytes(&y.to_bits().to_le_bytes());
                eat_bytes(&v.to_bits().to_le_bytes());
            }
        }
        if let Some(s) = &self.spawner {
            for word in s.state_words() {
                eat_bytes(&word.to_le_bytes());
            }
        }
        let mut eat = |x: f32| eat_bytes(&x.to_bits().to_le_bytes());
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

/// Whether a body's pairs need the narrowphase: an awake dynamic body, any kinematic body, or
/// a static body edited this step (`awake` marks the edit).
#[inline]
pub(crate) fn is_active(b: &Body) -> bool {
    b.awake || b.kind == BodyKind::Kinematic
}
