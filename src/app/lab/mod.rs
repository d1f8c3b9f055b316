//! Labs: focused views of one algorithm, registered in one table (like the Box2D samples).
//! A lab owns a small world (two kinematic bodies for the narrowphase labs), so the ordinary
//! select, drag and rotate gestures move its shapes.

pub mod actions;
pub mod hull3d;
pub mod hull3d_camera;
pub mod hull3d_draw;
pub mod hull3d_gauss;
pub mod hull3d_input;
pub mod hull3d_panels;
#[cfg(test)]
mod hull3d_tests;
pub mod manifold;
pub mod minkowski;
pub mod minkowski_panels;
pub mod panels;
pub mod sweep;
pub mod tree_lab;
pub mod tree_panels;

use crate::app::camera::ScreenRect;
use glam::Vec2;
use manifold_lab::engine::debug::{Layer, LayerSet};
use manifold_lab::scene::PairSpec;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum LabKind {
    /// SAT axes, reference and incident faces, side planes and clipping, step by step.
    Manifold,
    /// Configuration space: the Minkowski difference, GJK simplices, EPA polytopes.
    Minkowski,
    /// The dynamic AABB tree: many moving proxies, AABB and ray queries.
    Tree,
    /// 3D convex hulls: every SAT axis, the best faces and edge pair, the manifold, Gauss maps.
    Hull3d,
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
pub const LABS: &[LabEntry] = &[
    LabEntry {
        kind: LabKind::Manifold,
        name: "Manifold (SAT + clipping)",
        description: "Drag and rotate two shapes; walk the SAT axes, the reference and incident faces, \
                      the side planes and each clip to the final contact points.",
        default_pair: "scenes/pairs/box_on_box.ron",
    },
    LabEntry {
        kind: LabKind::Minkowski,
        name: "Minkowski / GJK / EPA",
        description: "The shapes and, beside them, configuration space: the Minkowski difference A − B, \
                      each GJK simplex and EPA polytope, the penetration vector; SAT compared.",
        default_pair: "scenes/pairs/polygons.ron",
    },
    LabEntry {
        kind: LabKind::Tree,
        name: "Dynamic AABB tree",
        description: "Thousands of proxies, some moving each step; drag a query box (Shift: a ray) and \
                      see which nodes were visited and which leaves were hit.",
        default_pair: "",
    },
    LabEntry {
        kind: LabKind::Hull3d,
        name: "3D hull SAT",
        description: "Two convex hulls in 3D: orbit, drag and turn them; see the best face axis of each, \
                      the best edge pair, the winner, the contact manifold, the MTV and both Gauss maps.",
        default_pair: hull3d::DEFAULT_HULLS,
    },
];

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
        | (1 << Layer::Label as u32)
        | (1 << Layer::Minkowski as u32)
        | (1 << Layer::Simplex as u32)
        | (1 << Layer::Polytope as u32)
        | (1 << Layer::TreeNode as u32)
        | (1 << Layer::Sweep as u32)
        | (1 << Layer::Joint as u32),
);

/// Where the pair presets live.
pub const PAIR_DIR: &str = "scenes/pairs";

/// The state of the open lab.
pub struct LabState {
    pub kind: LabKind,
    /// The pair as loaded (restart returns to it); `None` for the tree lab.
    pub pair: Option<PairSpec>,
    /// The tree lab's proxies and queries.
    pub tree: Option<tree_lab::TreeLab>,
    pub pair_path: Option<PathBuf>,
    /// Clipping stage shown (index into `CLIP_STAGES`).
    pub stage: usize,
    /// Whether the reference face is chosen with `BiasGreaterThan`.
    pub use_bias: bool,
    /// The SAT axis whose projections are drawn, if any (index into the trace's axes).
    pub axis: Option<usize>,
    /// Minkowski lab: the GJK/EPA step shown (GJK iterations first, then EPA expansions);
    /// `None` shows the last.
    pub step: Option<usize>,
    /// Minkowski lab: the step advances by itself.
    pub playing: bool,
    /// Seconds since the step last advanced while playing.
    pub play_clock: f32,
    /// The last rotation sweep.
    pub sweep: Vec<sweep::SweepSample>,
    /// The 3D hull lab's hulls, camera and SAT view.
    pub hull3d: Option<Box<hull3d::Hull3dLab>>,
}

impl LabState {
    pub fn new(kind: LabKind, pair: PairSpec, pair_path: Option<PathBuf>) -> LabState {
        LabState::with(kind, Some(pair), pair_path, None)
    }

    /// The tree lab with `count` proxies.
    pub fn tree(count: usize) -> LabState {
        let tree = tree_lab::TreeLab::new(count, Default::default());
        LabState::with(LabKind::Tree, None, None, Some(tree))
    }

    fn with(
        kind: LabKind,
        pair: Option<PairSpec>,
        pair_path: Option<PathBuf>,
        tree: Option<tree_lab::TreeLab>,
    ) -> LabState {
        LabState {
            kind,
            pair,
            tree,
            pair_path,
            stage: manifold::LAST_STAGE,
            use_bias: true,
            axis: None,
            step: None,
            playing: false,
            play_clock: 0.0,
            sweep: Vec::new(),
            hull3d: None,
        }
    }
}

/// Splits the free screen area: the Minkowski lab shows the world on the left and
/// configuration space on the right; the other views use all of it.
pub fn split_viewport(kind: Option<LabKind>, free: ScreenRect) -> (ScreenRect, Option<ScreenRect>) {
    match kind {
        Some(LabKind::Minkowski) => {
            let half = Vec2::new((0.5 * free.size.x).floor(), free.size.y);
            let left = ScreenRect { min: free.min, size: half };
            let right =
                ScreenRect { min: free.min + Vec2::new(half.x, 0.0), size: Vec2::new(free.size.x - half.x, half.y) };
            (left, Some(right))
        }
        Some(LabKind::Hull3d) => (free, Some(hull3d_gauss::inset_rect(&free))),
        _ => (free, None),
    }
}
