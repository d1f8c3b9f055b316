//! What the app can be asked to do: every change to the app state is an `Action` (from input,
//! panels, scripts and recordings), carried out by `App::apply` in `state.rs`.

pub mod check;

use super::lab::{LabAction, LabKind};
use crate::app::tools::joints::JointParam;
use glam::Vec2;
use manifold_lab::engine::broadphase::{PairFinding, TreeSettings};
use manifold_lab::engine::debug::Layer;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::engine::water::WaterParams;
use manifold_lab::engine::{BodyKind, Material};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Editable properties of one body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyEdit {
    pub position: Vec2,
    pub angle: f32,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    pub material: Material,
    pub kind: BodyKind,
    #[serde(default)]
    pub bullet: bool,
}

/// Editable properties of one shape of a multi-part body (`engine::compound`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapeEdit {
    /// The shape's frame in the body frame.
    pub offset: Vec2,
    pub angle: f32,
    pub material: Material,
}

impl ShapeEdit {
    pub fn of(part: &manifold_lab::engine::compound::Part) -> ShapeEdit {
        ShapeEdit { offset: part.offset, angle: part.angle, material: part.material }
    }
}

/// Everything the user can do. Scripts (`--script`) are lists of these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    Play,
    Pause,
    TogglePlay,
    /// Advance one step (pauses first).
    Step,
    /// Restore the state before the last step, if kept.
    StepBack,
    /// Reload the current scene as it was loaded.
    Restart,
    LoadScene(PathBuf),
    SaveScene(PathBuf),
    /// Select a body by index; `None` clears the selection.
    Select(Option<usize>),
    /// Select the body with this name.
    SelectNamed(String),
    /// Add or remove a body from the selection (shift-click).
    ToggleSelect(usize),
    /// Place a body's origin at `position` with `angle` (paused dragging and rotating).
    SetPose {
        body: usize,
        position: Vec2,
        angle: f32,
    },
    /// Grab a body at a world point with the mouse joint (dragging while running).
    StartPull {
        body: usize,
        point: Vec2,
    },
    PullTo(Vec2),
    EndPull,
    EditBody {
        body: usize,
        edit: BodyEdit,
    },
    SetParams(SolverParams),
    SetLayer(Layer, bool),
    /// The motion arrows' lengths: metres per newton of force and per m/s of velocity
    /// (clamped to `MotionScales::FORCE_RANGE` and `VELOCITY_RANGE`).
    SetMotionScales {
        force: f32,
        velocity: f32,
    },
    SetSpeed(f32),
    /// Pan the view so that it is centred on a world point with a visible height.
    SetCamera {
        center: Vec2,
        height: f32,
    },
    /// Hide the error message.
    DismissError,
    /// Open a lab on a file of its presets (or its default one).
    OpenLab {
        kind: LabKind,
        file: Option<PathBuf>,
    },
    /// Leave the lab and reload the last scene.
    CloseLab,
    /// An action of the open lab, e.g. `Lab(Manifold(SetStage(2)))`.
    Lab(LabAction),
    /// Choose how the world finds pairs, and the tree's settings (rebuilds the broadphase).
    SetBroadphase {
        mode: PairFinding,
        settings: TreeSettings,
    },
    /// Which tree levels are drawn, and whether leaves show their tight AABBs.
    SetTreeView {
        min_depth: u32,
        max_depth: u32,
        tight: bool,
    },
    ZoomAt {
        screen: Vec2,
        factor: f32,
    },
    PanPixels(Vec2),
    FrameAll,
    /// Cut every dynamic polygon the segment `from → to` fully crosses into two bodies
    /// (`World::slice`); the status bar shows what happened and StepBack undoes it. The slice
    /// tool's knife does this on release.
    Slice {
        from: Vec2,
        to: Vec2,
    },
    /// Open the contact between bodies `a` and `b` in the Manifold lab, in the poses where the
    /// world found its manifold (Save there keeps it as a pair file).
    OpenContactInLab {
        a: usize,
        b: usize,
        /// Which shapes of bodies of several shapes (`Contact::shape_pair`; 0 otherwise).
        #[serde(default)]
        shape_pair: u8,
    },
    /// Open the 3D dynamics lab's contact of `PairRef3` in the 3D hull lab, in the poses that
    /// made it (Back returns to the 3D lab as it was).
    OpenContact3InHullLab(crate::app::lab::world3d::pin::PairRef3),
    /// Unpin the pinned contact (Esc).
    Unpin,
    /// Open the time-of-impact event of `body` at step `step` (the world's record of its last
    /// steps' continuous collision) in the time-of-impact lab, with the poses the world swept.
    OpenToiEventInLab {
        step: u64,
        body: usize,
    },
    /// Replace the water's parameters live (the scene's `water` field); `None` removes it.
    SetWater(Option<WaterParams>),
    /// Select a joint by index (clears the body selection); `None` clears it.
    SelectJoint(Option<usize>),
    /// Change one parameter of a joint, live (wakes its bodies).
    SetJoint {
        joint: usize,
        param: JointParam,
    },
    /// Wake a body and its island.
    WakeBody(usize),
    /// Keep the view centred on the selected body as the world steps (a driving car).
    Follow(bool),
    /// A body's collision filter: it touches another when each one's category is in the
    /// other's mask.
    SetFilter {
        body: usize,
        category_bits: u32,
        mask_bits: u32,
    },
    /// One shape of a multi-part body: `EditShape(body: 2, shape: 1, edit: (offset: (0.5, 0.0),
    /// angle: 0.0, material: (density: 2.0)))`. Its contacts are found afresh.
    EditShape {
        body: usize,
        shape: usize,
        edit: ShapeEdit,
    },
    /// An action of one of the scene's tools: `Tool(Ray(Toggle))`, `Tool(Sweep(Record))`
    /// (see `tools`).
    Tool(crate::app::tools::ToolAction),
    /// Scrub, branch, compare, check, record: `Timeline(SeekEnd)` (see `timeline`).
    Timeline(super::timeline::TimelineAction),
    /// Open any file where its kind belongs (a scene, a lab preset, a 3D world, a recording),
    /// told by its content; it goes first in the recent-files list.
    OpenFile(PathBuf),
    /// Read the open file again (hot reload does this when it changes on disk).
    ReloadFile,
    /// Whether a reload runs the new scene to the step that was shown.
    SetReloadResimulate(bool),
    /// Ctrl+S: save the world where the Save dialog last saved it, or ask where.
    SaveCurrent,
    /// Show the Open (Ctrl+O) or Save (Ctrl+Shift+S) dialog.
    ShowDialog(super::files::DialogKind),
    /// Remove a file from the recent-files list; `None` clears it.
    ForgetRecent(Option<PathBuf>),
}
