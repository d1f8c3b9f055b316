//! Labs: focused views of one algorithm, registered in one table (like the Box2D samples).
//! A lab owns a small world (two kinematic bodies for the narrowphase labs), so the ordinary
//! select, drag and rotate gestures move its shapes.

pub mod manifold;
pub mod panels;

use manifold_lab::engine::debug::{Layer, LayerSet};
use manifold_lab::scene::PairSpec;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum LabKind {
    /// SAT axes, reference and incident faces, side planes and clipping, step by step.
    Manifold,
}

/// One row of the lab table.
pub struct LabEntry {
    pub kind: LabKind,
    pub name: &'static str,
    pub description: &'static str,
    /// The pair opened when none is given.
    pub default_pair: &'static str,
}

/// Every lab, in menu order.
pub const LABS: &[LabEntry] = &[LabEntry {
    kind: LabKind::Manifold,
    name: "Manifold (SAT + clipping)",
    description: "Drag and rotate two shapes; walk the SAT axes, the reference and incident faces, \
                  the side planes and each clip to the final contact points.",
    default_pair: "scenes/pairs/box_on_box.ron",
}];

impl LabKind {
    pub fn entry(self) -> &'static LabEntry {
        LABS.iter().find(|e| e.kind == self).unwrap_or(&LABS[0])
    }
}

/// Layers the narrowphase labs draw on, always shown in a lab.
pub const LAB_LAYERS: LayerSet = LayerSet(
    (1 << Layer::SatAxis as u32)
        | (1 << Layer::RefFace as u32)
        | (1 << Layer::IncidentFace as u32)
        | (1 << Layer::ClipPlane as u32)
        | (1 << Layer::Contact as u32)
        | (1 << Layer::Normal as u32)
        | (1 << Layer::Label as u32),
);

/// Where the pair presets live.
pub const PAIR_DIR: &str = "scenes/pairs";

/// The state of the open lab.
pub struct LabState {
    pub kind: LabKind,
    /// The pair as loaded (restart returns to it).
    pub pair: PairSpec,
    pub pair_path: Option<PathBuf>,
    /// Clipping stage shown (index into `CLIP_STAGES`).
    pub stage: usize,
    /// Whether the reference face is chosen with `BiasGreaterThan`.
    pub use_bias: bool,
    /// The SAT axis whose projections are drawn, if any (index into the trace's axes).
    pub axis: Option<usize>,
}

impl LabState {
    pub fn new(kind: LabKind, pair: PairSpec, pair_path: Option<PathBuf>) -> LabState {
        LabState { kind, pair, pair_path, stage: manifold::LAST_STAGE, use_bias: true, axis: None }
    }
}
