//! The solve half of `World::step`: Box2D v3's sub-stepped soft step over joints and contacts
//! of the awake islands, then breaking overloaded joints.
//!
//! Per step: prepare (masses, anchors, effective masses); per sub-step: integrate velocities,
//! warm start, `iterations` biased passes, integrate positions, and the chosen position
//! correction (the soft step's relax passes); restitution once after the sub-steps. Every
//! constraint works on the one `SolverBody` array. With the soft step, joints and contacts are
//! coloured (`solver::graph`) and each pass takes the colours in turn, a colour's joints
//! (`solver::joint_colors`) then its contacts in SIMD rows (`solver::contact_wide`), after the
//! mouse joint and the overflow joints; the article's projection and Baumgarte modes solve all
//! joints, then the contacts one by one (`solver::contact`).

use super::water::{floating_bodies, substep_water_forces};
use super::World;
use crate::engine::body::Body;
use crate::engine::parallel::{Workers, BODY_BLOCK};
use crate::engine::solver::contact::{prepare_contacts, project_positions, ContactSoftness};
use crate::engine::solver::contact_push::share_push_baumgarte;
use crate::engine::solver::contact_solver::{ContactSolver, JointOp};
use crate::engine::solver::graph::{ConstraintGraph, GraphColor};
use crate::engine::solver::joint_colors::JointCell;
use crate::engine::solver::joints::{Joint, JointContext, MouseJoint};
use crate::engine::solver::state::{
    finalize, integrate_positions, integrate_velocities_with, start_solver_bodies_with, BodyForce, SolverBody,
    SolverCold,
};
use crate::engine::solver::{PositionCorrection, SolverParams, SolverScratch};
use crate::engine::water::Water;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Records where each joint is solved this step (for drawing and the status bar): its colour
/// or the overflow from `graph`, or not coloured (asleep, or no graph: a scalar solver mode).
fn label_joints(joints: &mut [Joint], graph: Option<&ConstraintGraph>) {
    for j in joints.iter_mut() {
        j.base_mut().graph_color = GraphColor::None;
    }
    let Some(g) = graph else { return };
    for (k, list) in g.joint_colors.iter().enumerate() {
        for &i in list {
            joints[i as usize].base_mut().graph_color = GraphColor::Color(k as u8);
        }
    }
    for &i in &g.joint_overflow {
        joints[i as usize].base_mut().graph_color = GraphColor::Overflow;
    }
}

/// What every sub-step of one step shares.
struct Substeps<'a> {
    p: &'a SolverParams,
    /// The sub-step's length.
    h: f32,
    jctx: &'a JointContext,
    workers: &'a Workers,
    /// How many bodies (the solver states hold one more: the fixed body at the end).
    bodies: usize,
    water: Option<&'a Water>,
    /// Each body's external force in the current sub-step (the water's).
    forces: Vec<BodyForce>,
}

impl Substeps<'_> {
    /// Box2D v3's sub-stepping: per sub-step, integrate velocities, warm start, `iterations`
    /// biased passes, integrate positions, then the chosen position correction (the soft
    /// step's relax passes, or the article's projection).
    fn run(
        mut self,
        solver: &mut ContactSolver,
        states: &mut [SolverBody],
        cold: &mut [SolverCold],
        mut mouse: Option<&mut MouseJoint>,
        mut floating: Vec<(usize, Body)>,
    ) {
        let (p, h, jctx, workers) = (self.p, self.h, self.jctx, self.workers);
        let speeds = (1.0 / h, p.max_push_velocity);
        let warm: &JointOp<'_> = &|j, pair| j.warm_start(pair);
        let biased: &JointOp<'_> = &|j, pair| j.solve(pair, jctx, true);
        let relax: &JointOp<'_> = &|j, pair| j.solve(pair, jctx, false);
        let n = self.bodies;
        for k in 0..p.substeps.max(1) {
            // From the start of the step to the end of this sub-step (restitution's impact time).
            let elapsed = (k + 1) as f32 * h;
            if k > 0 && !floating.is_empty() {
                substep_water_forces(self.water, &mut floating, states, p.gravity, h, &mut self.forces);
            }
            let forces = &self.forces;
            workers.for_each_chunk(&mut states[..n], BODY_BLOCK, &|start, chunk| {
                let forces = &forces[start.min(forces.len())..];
                integrate_velocities_with(chunk, &cold[start..], forces, p.gravity, h, p.max_linear_speed)
            });
            if p.warm_starting {
                if let Some(j) = &mouse {
                    j.warm_start(states);
                }
                solver.warm_start(states, cold, warm);
            }
            for _ in 0..p.iterations {
                if let Some(j) = &mut mouse {
                    j.solve(states, h, true);
                }
                solver.solve(states, cold, speeds, true, elapsed, biased);
            }
            workers.for_each_chunk2(states, cold, BODY_BLOCK, &|_, s, c| {
                integrate_positions(s, c, h, p.max_angular_speed())
            });
            match p.position_correction {
                PositionCorrection::Soft => {
                    for _ in 0..p.relax_iterations {
                        if let Some(j) = &mut mouse {
                            j.solve(states, h, false);
                        }
                        solver.solve(states, cold, speeds, false, elapsed, relax);
                    }
                }
                PositionCorrection::Projection => project_positions(solver.contacts(), states, cold, p.percent, p.slop),
                PositionCorrection::Baumgarte => {}
            }
        }
    }
}

impl World {
    /// Whether joint `k` is solved this step: valid bodies, at least one awake dynamic one.
    fn joint_awake(&self, k: usize) -> bool {
        let (a, b) = self.joints[k].bodies();
        let n = self.bodies.len();
        if a >= n || b >= n || a == b {
            return false;
        }
        let moving = |i: usize| self.bodies[i].is_dynamic() && self.bodies[i].awake;
        moving(a) || moving(b)
    }

    /// `forces[i]` (the water's, at the step's start) acts on body `i` in the first sub-step;
    /// later sub-steps re-evaluate it at their own poses.
    pub(crate) fn solve(&mut self, forces: &[BodyForce]) {
        let p = self.params.clone();
        let h = p.dt() / p.substeps.max(1) as f32;
        let softness = ContactSoftness::new(&p, h);
        let jctx = JointContext {
            max_angular_speed: p.max_angular_speed(),
            max_linear_speed: p.max_linear_speed,
            ..JointContext::new(h, p.joint_hertz, p.joint_damping_ratio, p.warm_starting)
        };

        let mut scratch = std::mem::take(&mut self.solver_scratch);
        scratch.awake_joints.clear();
        scratch.awake_joints.extend((0..self.joints.len()).filter(|&k| self.joint_awake(k)));
        if let Some(j) = &self.mouse_joint {
            if j.body >= self.bodies.len() {
                self.mouse_joint = None;
            }
        }
        // The soft step solves contacts in coloured rows; the article's corrections stay scalar.
        let wide = p.position_correction == PositionCorrection::Soft;
        let SolverScratch { graph, rows, scalar, states, cold, awake_joints, workers, .. } = &mut scratch;
        workers.ensure(if wide { p.threads as usize } else { 1 });
        let awake = &*awake_joints;
        let workers = &*workers;
        let World { bodies, contacts, joints, mouse_joint, water, profile, .. } = self;

        let repaired = AtomicUsize::new(0);
        // With the workers spinning, so that each colour's blocks start within a microsecond.
        workers.run(|| {
            if !wide {
                prepare_contacts(contacts, scalar, bodies, p.gravity, p.warm_starting);
                let baumgarte = (p.baumgarte, 1.0 / h, p.slop);
                share_push_baumgarte(contacts, scalar, bodies, p.max_push_velocity, baumgarte);
            }
            for &k in awake {
                joints[k].prepare(bodies, &jctx);
            }
            if let Some(j) = mouse_joint.as_mut() {
                j.prepare(bodies);
            }
            // Each body's start-of-step pose is recorded here, before anything reads it.
            start_solver_bodies_with(states, cold, bodies, workers);
            // The water's forces are re-evaluated at every sub-step (`world/water`'s module docs).
            let floating = floating_bodies(water.as_ref(), bodies, p.gravity, p.dt());
            if wide {
                let pairs = awake.iter().map(|&k| (k, joints[k].bodies().0, joints[k].bodies().1));
                graph.color(pairs, contacts, states);
                rows.use_avx2(p.avx2);
                rows.prepare(graph, contacts, states, cold, softness, p.gravity, p.warm_starting, workers);
                rows.share_push(contacts, p.max_push_velocity);
                (profile.colors, profile.overflow) = (graph.used_colors(), graph.overflow_count());
            } else {
                ConstraintGraph::unlabel_contacts(contacts);
                graph.capped.clear();
                (profile.colors, profile.overflow) = (0, 0);
            }
            label_joints(joints, wide.then_some(&*graph));
            let joints = JointCell::from_mut(joints);
            let mut solver = match wide {
                true => ContactSolver::SoftRows { rows, graph, workers, joints, contacts },
                false => {
                    let awake = awake.iter().map(|&k| k as u32).collect();
                    ContactSolver::Sequential { contacts, work: scalar, joints, awake, params: &p, softness }
                }
            };
            let step = Substeps {
                p: &p,
                h,
                jctx: &jctx,
                workers,
                bodies: bodies.len(),
                water: water.as_ref(),
                forces: forces.to_vec(),
            };
            step.run(&mut solver, states, cold, mouse_joint.as_mut(), floating);
            solver.finish(states, cold, p.restitution_threshold);
            workers.for_each_chunk(bodies, BODY_BLOCK, &|start, chunk| {
                let n = finalize(&states[start..], &cold[start..], chunk);
                repaired.fetch_add(n, Ordering::Relaxed);
            });
        });
        // A contact left out by the pile cap starts from nothing when it is solved again.
        for &k in &scratch.graph.capped {
            for p in &mut self.contacts[k as usize].points {
                (p.normal_impulse, p.tangent_impulse, p.max_normal_impulse) = (0.0, 0.0, 0.0);
            }
        }
        self.profile.capped = scratch.graph.capped.len();
        self.solver_scratch = scratch;
        self.finish_step(repaired.into_inner());
    }

    /// Removes joints whose reaction over the last sub-step exceeded their break force or
    /// torque (Box2D v3 reports these as joint events; here the joint disappears), waking
    /// their bodies, releasing the joints linked to them (`World::release_joints`) and counting
    /// them in `broken_joints`. Counts down the releases of the joints solved this step.
    pub(crate) fn break_joints(&mut self) {
        let inv_h = 1.0 / self.substep_dt();
        let mut broken = 0;
        let mut seeds = Vec::new();
        let mut k = 0;
        while k < self.joints.len() {
            if !self.joint_awake(k) {
                k += 1;
                continue;
            }
            let base = self.joints[k].base_mut();
            base.release = base.release.saturating_sub(1);
            if self.joints[k].exceeds_break_threshold(&self.bodies, inv_h) {
                let j = self.joints.remove(k);
                let (a, b) = j.bodies();
                self.bodies[a].wake();
                self.bodies[b].wake();
                seeds.extend([a, b]);
                broken += 1;
            } else {
                k += 1;
            }
        }
        if broken > 0 {
            self.release_joints(&seeds);
            self.joint_filter = None;
        }
        self.broken_joints += broken;
        self.profile.joints_broken = broken;
    }
}
