//! The solve half of `World::step`: Box2D v3's sub-stepped soft step over joints and contacts
//! of the awake islands, then breaking overloaded joints.
//!
//! Per step: prepare (masses, anchors, effective masses); per sub-step: integrate velocities,
//! warm start, `iterations` biased passes (joints, then contacts), integrate positions, and
//! the chosen position correction (the soft step's relax passes: joints, then contacts);
//! restitution once after the sub-steps. Every constraint works on the one `SolverBody`
//! array. With the soft step, contacts are coloured (`solver::graph`) and solved in SIMD rows
//! (`solver::contact_wide`); the article's projection and Baumgarte modes solve them one by
//! one (`solver::contact`).

use super::solver::contact::{
    apply_restitution, prepare_contacts, project_positions, solve_contacts, warm_start, ContactSoftness,
};
use super::solver::graph::ConstraintGraph;
use super::solver::joints::JointContext;
use super::solver::state::{fill_solver_bodies, finalize, integrate_positions, integrate_velocities_with, BodyForce};
use super::solver::{PositionCorrection, SolverScratch};
use super::world::World;
use super::world_water::{floating_bodies, substep_water_forces};

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
        let substeps = p.substeps.max(1);
        let h = p.dt() / substeps as f32;
        let inv_h = 1.0 / h;
        let softness = ContactSoftness::new(&p, h);
        let jctx = JointContext::new(h, p.joint_hertz, p.joint_damping_ratio, p.warm_starting);

        for b in &mut self.bodies {
            b.center0 = b.center;
            b.q0 = b.xf.q;
        }
        let mut scratch = std::mem::take(&mut self.solver_scratch);
        prepare_contacts(&mut self.contacts, &self.bodies, p.gravity, p.warm_starting);
        scratch.awake_joints.clear();
        scratch.awake_joints.extend((0..self.joints.len()).filter(|&k| self.joint_awake(k)));
        for &k in &scratch.awake_joints {
            self.joints[k].prepare(&self.bodies, &jctx);
        }
        if let Some(j) = &mut self.mouse_joint {
            if j.body < self.bodies.len() {
                j.prepare(&self.bodies);
            } else {
                self.mouse_joint = None;
            }
        }
        let SolverScratch { graph, rows, states, cold, awake_joints, workers } = &mut scratch;
        let awake = &*awake_joints;
        fill_solver_bodies(states, cold, &self.bodies);
        // The soft step solves contacts in coloured rows; the article's corrections stay scalar.
        let wide = p.position_correction == PositionCorrection::Soft;
        if wide {
            graph.color_contacts(&self.contacts, states);
            graph.label_contacts(&mut self.contacts);
            rows.prepare(graph, &self.contacts, cold, softness);
            self.profile.colors = graph.used_colors();
            self.profile.overflow = graph.overflow.len();
            workers.ensure(p.threads as usize);
        } else {
            ConstraintGraph::unlabel_contacts(&mut self.contacts);
            self.profile.colors = 0;
            self.profile.overflow = 0;
        }
        // The water's forces are re-evaluated at every sub-step (`world_water`'s module docs).
        let mut floating = floating_bodies(self.water.as_ref(), &self.bodies, p.gravity, p.dt());
        let mut forces = forces.to_vec();
        let contacts = &mut self.contacts;
        let joints = &mut self.joints;
        let mut mouse = self.mouse_joint.as_mut();
        let bodies = &self.bodies;
        let workers = &*workers;

        // On the workers' pool when there is one, so that each colour's blocks start cheaply.
        let water = self.water.as_ref();
        workers.run(|| {
            for k in 0..substeps {
                // From the start of the step to the end of this sub-step (restitution's impact time).
                let elapsed = (k + 1) as f32 * h;
                if k > 0 && !floating.is_empty() {
                    substep_water_forces(water, &mut floating, states, p.gravity, h, &mut forces);
                }
                integrate_velocities_with(states, bodies, &forces, p.gravity, h, p.max_linear_speed);
                if p.warm_starting {
                    if let Some(j) = &mouse {
                        j.warm_start(states);
                    }
                    for &k in awake {
                        joints[k].warm_start(states);
                    }
                    if wide {
                        rows.warm_start(states, workers);
                    } else {
                        warm_start(contacts, states, cold);
                    }
                }
                for _ in 0..p.iterations {
                    if let Some(j) = &mut mouse {
                        j.solve(states, h, true);
                    }
                    for &k in awake {
                        joints[k].solve(states, &jctx, true);
                    }
                    if wide {
                        rows.solve(states, workers, inv_h, p.max_push_velocity, true, elapsed);
                    } else {
                        solve_contacts(contacts, states, cold, &p, softness, inv_h, true, elapsed);
                    }
                }
                integrate_positions(states, cold, h, p.max_angular_speed());
                match p.position_correction {
                    PositionCorrection::Soft => {
                        for _ in 0..p.relax_iterations {
                            if let Some(j) = &mut mouse {
                                j.solve(states, h, false);
                            }
                            for &k in awake {
                                joints[k].solve(states, &jctx, false);
                            }
                            rows.solve(states, workers, inv_h, p.max_push_velocity, false, elapsed);
                        }
                    }
                    PositionCorrection::Projection => project_positions(contacts, states, cold, p.percent, p.slop),
                    PositionCorrection::Baumgarte => {}
                }
            }
            if wide {
                rows.apply_restitution(states, workers, p.restitution_threshold);
                rows.store_impulses(contacts);
            } else {
                apply_restitution(contacts, states, cold, p.restitution_threshold);
            }
        });
        finalize(states, cold, &mut self.bodies);
        self.solver_scratch = scratch;
        self.finish_step();
    }

    /// Removes joints whose reaction over the last sub-step exceeded their break force or
    /// torque (Box2D v3 reports these as joint events; here the joint disappears), waking
    /// their bodies and counting them in `broken_joints`.
    pub(crate) fn break_joints(&mut self) {
        let inv_h = 1.0 / self.substep_dt();
        let mut broken = 0;
        let mut k = 0;
        while k < self.joints.len() {
            if self.joint_awake(k) && self.joints[k].exceeds_break_threshold(&self.bodies, inv_h) {
                let j = self.joints.remove(k);
                let (a, b) = j.bodies();
                self.bodies[a].wake();
                self.bodies[b].wake();
                broken += 1;
            } else {
                k += 1;
            }
        }
        if broken > 0 {
            self.joint_filter = None;
        }
        self.broken_joints += broken;
        self.profile.joints_broken = broken;
    }
}
