//! The two solvers a step chooses between for its joints and contacts, behind the passes of a
//! sub-step (warm start, solve, relax, restitution):
//!
//! - **Soft rows** (Box2D v3's soft step): contacts are coloured SIMD rows (`contact_wide`) and
//!   each colour's joints are solved just before its rows (`joint_colors`); the joints the
//!   colouring left over are solved first, one after another.
//! - **Sequential** (the article's sequential impulses): every awake joint, then every contact
//!   one by one (`contact`), with the projection or Baumgarte position correction.

use super::body_cell::BodyCell;
use super::contact::{apply_restitution, solve_contacts, warm_start, Contact, ContactSoftness, ContactWork};
use super::contact_wide::ContactRows;
use super::graph::ConstraintGraph;
use super::joint_colors::{for_each_joint, JointCell};
use super::joints::{BodyPair, Joint};
use super::state::{SolverBody, SolverCold};
use super::SolverParams;
use crate::engine::parallel::Workers;

/// A joint's warm start or one of its solves, on copies of its bodies' states.
pub(crate) type JointOp<'a> = dyn Fn(&mut Joint, &mut BodyPair) + Sync + 'a;

/// The joints and contacts of one step, ready for its sub-steps' passes.
pub(crate) enum ContactSolver<'a> {
    /// Box2D v3's soft step: coloured rows, each colour's joints before its rows.
    SoftRows {
        rows: &'a mut ContactRows,
        graph: &'a ConstraintGraph,
        workers: &'a Workers,
        joints: &'a [JointCell],
        contacts: &'a mut [Contact],
    },
    /// The article's sequential impulses: all awake joints (`awake`, in order), then each
    /// contact.
    Sequential {
        contacts: &'a mut [Contact],
        work: &'a mut [ContactWork],
        joints: &'a [JointCell],
        awake: Vec<u32>,
        params: &'a SolverParams,
        softness: ContactSoftness,
    },
}

impl ContactSolver<'_> {
    /// Solves the joints not taken with the colours, in order: the colouring's overflow with
    /// soft rows, every awake joint otherwise.
    fn serial_joints(&self, states: &mut [SolverBody], op: &JointOp<'_>) {
        let (list, joints) = match self {
            ContactSolver::SoftRows { graph, joints, .. } => (&graph.joint_overflow[..], *joints),
            ContactSolver::Sequential { awake, joints, .. } => (&awake[..], *joints),
        };
        for_each_joint(None, list, joints, BodyCell::from_mut(states), op);
    }

    /// Applies the impulses kept from the last step: joints (with `op`), then contacts.
    pub(crate) fn warm_start(&mut self, states: &mut [SolverBody], cold: &[SolverCold], op: &JointOp<'_>) {
        self.serial_joints(states, op);
        match self {
            ContactSolver::SoftRows { rows, graph, workers, joints, .. } => {
                let colour = &mut |k: usize, cells: &[BodyCell]| {
                    for_each_joint(Some(workers), &graph.joint_colors[k], joints, cells, op)
                };
                rows.warm_start(states, workers, colour);
            }
            ContactSolver::Sequential { contacts, .. } => warm_start(contacts, states, cold),
        }
    }

    /// One pass over joints (with `op`) and contacts: biased (`use_bias`) or relax. `elapsed`:
    /// time from the step's start to the end of this sub-step (restitution's impact time).
    pub(crate) fn solve(
        &mut self,
        states: &mut [SolverBody],
        cold: &[SolverCold],
        (inv_h, max_push): (f32, f32),
        use_bias: bool,
        elapsed: f32,
        op: &JointOp<'_>,
    ) {
        self.serial_joints(states, op);
        match self {
            ContactSolver::SoftRows { rows, graph, workers, joints, .. } => {
                let colour = &mut |k: usize, cells: &[BodyCell]| {
                    for_each_joint(Some(workers), &graph.joint_colors[k], joints, cells, op)
                };
                rows.solve(states, workers, inv_h, max_push, use_bias, elapsed, colour);
            }
            ContactSolver::Sequential { contacts, work, params, softness, .. } => {
                solve_contacts(contacts, work, states, cold, params, *softness, inv_h, use_bias, elapsed)
            }
        }
    }

    /// After the sub-steps: restitution, then (soft rows) the rows' impulses stored back on
    /// their contacts for the next step's warm start.
    pub(crate) fn finish(&mut self, states: &mut [SolverBody], cold: &[SolverCold], threshold: f32) {
        match self {
            ContactSolver::SoftRows { rows, workers, contacts, .. } => {
                rows.apply_restitution(states, workers, threshold);
                rows.store_impulses(contacts, workers);
            }
            ContactSolver::Sequential { contacts, work, .. } => {
                apply_restitution(contacts, work, states, cold, threshold)
            }
        }
    }

    /// The contacts, for the article's position projection.
    pub(crate) fn contacts(&self) -> &[Contact] {
        match self {
            ContactSolver::SoftRows { contacts, .. } | ContactSolver::Sequential { contacts, .. } => contacts,
        }
    }
}
