//! What the labs see and change of the app: the world on show, the view onto it, the run
//! state, the step-back history and the selection, and the messages. `App` holds one and
//! dereferences to it, so the app's own code reads `app.world` while a lab is handed the
//! `Stage` alone (every `Lab` method), never the timeline, the tools, the files or the lab
//! table.

use super::camera::{ScreenRect, ViewCamera};
use super::history::History;
use super::tools::joints::state::JointSelection;
use glam::Vec2;
use manifold_lab::engine::debug::MotionScales;
use manifold_lab::engine::World;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunMode {
    Running,
    Paused,
}

/// The world on show and the view onto it.
pub struct Stage {
    pub world: World,
    pub mode: RunMode,
    /// Simulated seconds per real second.
    pub speed: f32,
    pub camera: ViewCamera,
    /// The screen area the world is drawn in (set by the frame loop from the panels' layout).
    pub viewport: ScreenRect,
    /// A second area beside it (the Minkowski lab's configuration space), if any.
    pub inset: Option<ScreenRect>,
    /// The selected bodies.
    pub selection: Vec<usize>,
    /// The selected joint, if any (bodies and joints are selected in turn; see
    /// `tools::joints::state`).
    pub joint_selection: Option<JointSelection>,
    /// The states before the last steps and edits (B goes back).
    pub history: History,
    /// The last error shown to the user (scene load, save ...).
    pub error: Option<String>,
    /// A short confirmation (saved, loaded ...).
    pub notice: Option<String>,
    /// Tree levels drawn (inclusive) and whether tight AABBs are shown.
    pub tree_depth: (u32, u32),
    pub tree_tight: bool,
    /// The per-body motion arrows' scales (the Debug layers section).
    pub motion_scales: MotionScales,
    /// Whether the frame loop has told the app its real viewport yet. Until then views are
    /// framed for a guessed one, so the first real layout frames them again.
    pub(super) viewport_known: bool,
}

impl Stage {
    pub fn new(world: World) -> Stage {
        Stage {
            world,
            mode: RunMode::Running,
            speed: 1.0,
            camera: ViewCamera::default(),
            viewport: ScreenRect { min: Vec2::ZERO, size: Vec2::new(1280.0, 720.0) },
            inset: None,
            selection: Vec::new(),
            joint_selection: None,
            history: History::default(),
            error: None,
            notice: None,
            tree_depth: (0, u32::MAX),
            tree_tight: false,
            motion_scales: MotionScales::default(),
            viewport_known: false,
        }
    }

    pub fn is_running(&self) -> bool {
        self.mode == RunMode::Running
    }

    /// Frames what is shown again once the panels have laid out the next frame (a lab whose
    /// viewport changes shape, or whose content is replaced, asks for this).
    pub fn frame_after_layout(&mut self) {
        self.viewport_known = false;
    }
}
