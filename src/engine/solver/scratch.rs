//! The solver's per-step working arrays, kept between steps so that a step reuses their memory
//! (Box2D v3 keeps its constraint graph and step arenas in the world likewise).

use super::contact::ContactWork;
use super::contact_wide::ContactRows;
use super::graph::ConstraintGraph;
use super::state::{SolverBody, SolverCold};
use crate::engine::parallel::Workers;

#[derive(Clone, Debug, Default)]
pub struct SolverScratch {
    pub graph: ConstraintGraph,
    pub rows: ContactRows,
    /// The scalar solver modes' per-contact working values (`contact::prepare_contacts`).
    pub scalar: Vec<ContactWork>,
    pub states: Vec<SolverBody>,
    /// The bodies' cold solver state, beside `states`.
    pub cold: Vec<SolverCold>,
    /// Indices of the joints solved this step.
    pub awake_joints: Vec<usize>,
    /// The threads that solve each colour (`SolverParams::threads`).
    pub workers: Workers,
    /// One flag per body, for a per-body pass outside the solve (the continuous pass's
    /// fast-body test), kept so the step does not allocate it.
    pub body_flags: Vec<bool>,
}
