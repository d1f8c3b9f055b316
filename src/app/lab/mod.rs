//! Labs: focused views of one algorithm, registered in one table (like the Box2D samples and
//! the egui demos). A lab is one folder with one type implementing [`Lab`] (what the app
//! asks of every lab: panels, viewport, drawing, pointer, reactions to the app's own actions)
//! and [`LabType`] (how it opens and its own actions). The app knows labs only through these
//! traits and the table at the bottom of this file: adding a lab is a folder and a line there.

pub mod hull;
pub mod hull3d;
pub mod manifold;
pub mod minkowski;
pub mod pair;
pub mod preset_lab;
pub mod slice;
pub mod toi;
pub mod tree;
pub mod widgets;
pub mod world3d;

#[cfg(test)]
mod panel_tests;
#[cfg(test)]
pub mod test_support;

use crate::app::camera::ScreenRect;
use crate::app::input::PointerFrame;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui;
use manifold_lab::engine::debug::{DebugDraw, Layer, LayerSet};
use manifold_lab::engine::math::Aabb;
use std::any::Any;
use std::path::Path;

/// A lab's row in the menu.
pub struct LabEntry {
    pub name: &'static str,
    pub description: &'static str,
    /// The preset files the lab opens (`Ctrl+O` and `check` tell them by content); the first
    /// lab in the table that names a kind opens its files.
    pub file: Option<manifold_lab::scene::FileKind>,
}

/// What the app asks of an open lab. Every method has a default that suits a lab showing the
/// app's 2D world (the narrowphase labs move two bodies with the ordinary gestures).
pub trait Lab: AsAny {
    fn kind(&self) -> LabKind;

    /// The file the lab shows (for the status bar), if any.
    fn file(&self) -> Option<&Path> {
        None
    }

    /// The app's own action `action` arrived while the lab is open: handle it and return
    /// `true` (Restart, FrameAll, the view's zoom and pan, Step ...), or `false` to let the
    /// app carry it out as usual.
    fn intercept(&mut self, _app: &mut Stage, _action: &Action) -> bool {
        false
    }

    /// Once per frame, with the real (or scripted) seconds elapsed.
    fn update(&mut self, _app: &mut Stage, _dt: f32) {}

    /// The left panel, below the lab's name and the way back.
    fn controls(&self, ui: &mut egui::Ui, app: &Stage, files: &mut UiState, out: &mut Vec<Action>);

    /// The right panel.
    fn details(&self, ui: &mut egui::Ui, app: &Stage, out: &mut Vec<Action>);

    /// Windows over the view (the 3D lab's pinned contact card); none by default.
    fn windows(&self, _ctx: &egui::Context, _app: &Stage, _out: &mut Vec<Action>) {}

    /// The timeline bar along the bottom, for a lab that keeps a timeline of its own world
    /// (`timeline::panel::show_view`); its screen rect. None by default.
    fn timeline_panel(
        &self,
        _ctx: &egui::Context,
        _app: &Stage,
        _out: &mut Vec<Action>,
        _st: &mut UiState,
    ) -> Option<egui::Rect> {
        None
    }

    /// The main view and an optional second area, from the screen area the panels leave.
    fn viewport(&self, free: ScreenRect) -> (ScreenRect, Option<ScreenRect>) {
        (free, None)
    }

    /// Frames the lab's content in the view (on opening, on F, on the first real layout).
    fn frame(&mut self, app: &mut Stage) {
        if let Some(b) = app.world.bounds() {
            let vp = app.viewport;
            app.camera.frame(&vp, b.expanded(1.5));
        }
    }

    /// Where the lab's content is on screen, for tests that check the view is framed.
    fn content_screen(&self, app: &Stage) -> Option<ScreenRect> {
        let b = self.content_bounds(app)?;
        Some(screen_rect_of(app, b))
    }

    /// The content's world box (2D labs).
    fn content_bounds(&self, app: &Stage) -> Option<Aabb> {
        app.world.bounds()
    }

    /// Layers always drawn in this lab, besides the user's.
    fn layers(&self) -> LayerSet {
        LAB_LAYERS
    }

    /// Draws the lab into the 2D view, under the world camera.
    fn draw(&self, app: &Stage, d: &mut dyn DebugDraw);

    /// The second area's 2D content, if the lab has one: the world box to frame there, its
    /// title, and its drawing.
    fn inset(&self, _app: &Stage) -> Option<(Aabb, &'static str)> {
        None
    }

    fn draw_inset(&self, _app: &Stage, _d: &mut dyn DebugDraw) {}

    /// A lab that draws its whole view itself (a 3D lab) does so here and returns `true`.
    fn draw_view(&self, _app: &Stage) -> bool {
        false
    }

    /// The pointer of this frame: `Some(actions)` if the lab handles it, `None` for the
    /// ordinary select, drag and rotate gestures on the app's world.
    fn pointer(&mut self, _app: &Stage, _f: &PointerFrame, _over_ui: bool) -> Option<Vec<Action>> {
        None
    }

    /// Whether the status bar's world counts (bodies, contacts, step time) mean anything here.
    fn uses_world(&self) -> bool {
        true
    }

    /// The lab's own state for `--state-out` and the screenshot sidecar (`lab_state`), for
    /// tests that drive the window from outside; `None` when the app's report says it all.
    fn report(&self, _app: &Stage) -> Option<serde_json::Value> {
        None
    }
}

/// Lets the table reach a lab's own type behind `dyn Lab` (to hand it its actions).
pub trait AsAny: Any {
    /// For tests that look inside a lab (`App::lab_as`), and the tools' table.
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// How a lab opens, and its own actions (nested in `Action::Lab`).
pub trait LabType: Lab + Sized {
    /// Its actions, as plain data (scripts write them in RON).
    type Action: Clone + std::fmt::Debug + PartialEq + serde::Serialize + serde::de::DeserializeOwned;
    const ENTRY: LabEntry;

    /// Opens on `file` (a preset), or on the lab's default when `None`.
    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String>;

    fn apply(&mut self, app: &mut Stage, action: Self::Action);

    /// Replaces this lab with one opened on the preset at `path`, framed; on an error the lab
    /// stays and the error is shown.
    fn reload(&mut self, app: &mut Stage, path: &Path) {
        match Self::open(app, Some(path)) {
            Ok(lab) => {
                *self = lab;
                app.error = None;
                self.frame(app);
            }
            Err(e) => app.error = Some(e),
        }
    }

    /// Shows how saving a preset to `path` went.
    fn report_save(app: &mut Stage, path: &Path, saved: Result<(), manifold_lab::scene::SceneError>) {
        match saved {
            Ok(()) => app.notice = Some(format!("Saved {}", path.display())),
            Err(e) => app.error = Some(e.to_string()),
        }
    }
}

/// A preset's name from its file name (`scenes/toi/thin_wall.ron` gives `thin_wall`).
pub fn preset_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Layers the labs draw on, always shown in a lab.
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
        | (1 << Layer::Motion as u32)
        | (1 << Layer::Handle as u32)
        | (1 << Layer::Joint as u32),
);

/// The stepping state every lab reports (`lab_state` in the screenshot sidecar and
/// `--state-out`): how many steps its trace has, the one shown (clamped to the last) and its
/// caption. An empty trace reports 0 steps, step 0 and no caption.
pub fn step_report(steps: usize, shown: usize, caption: impl Fn(usize) -> String) -> serde_json::Value {
    let step = shown.min(steps.saturating_sub(1));
    let caption = (steps > 0).then(|| caption(step));
    serde_json::json!({ "steps": steps, "step": step, "caption": caption })
}

/// [`step_report`] of a 2D trace.
pub fn trace_report(trace: &dyn manifold_lab::engine::trace::Trace, shown: usize) -> serde_json::Value {
    step_report(trace.steps(), shown, |k| trace.step_label(k))
}

/// A world box on screen.
pub fn screen_rect_of(app: &Stage, b: Aabb) -> ScreenRect {
    let (p, q) = (app.camera.world_to_screen(&app.viewport, b.min), app.camera.world_to_screen(&app.viewport, b.max));
    ScreenRect { min: p.min(q), size: (q - p).abs() }
}

/// The table: one line per lab, `Kind: folder::Type`. It makes `LabKind` (the `--lab` values,
/// in this order), `LabAction` (each lab's actions nested under its kind), the menu order and
/// the dispatch from a kind or an action to the lab's type.
macro_rules! labs {
    ($($kind:ident $(($cli:literal, $old:literal))? : $ty:ty),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
        pub enum LabKind {
            $($(#[value(alias = $cli)] #[serde(alias = $old)])? $kind),*
        }

        /// An action of one lab, e.g. `Lab(HullSat(SetSat(Fast)))` in a script (a renamed lab's old
        /// name still reads).
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum LabAction {
            $($(#[serde(alias = $old)])? $kind(<$ty as LabType>::Action)),*
        }

        /// Every lab, in menu order.
        pub const LABS: &[LabKind] = &[$(LabKind::$kind),*];

        impl LabKind {
            pub fn entry(self) -> &'static LabEntry {
                match self {
                    $(LabKind::$kind => &<$ty as LabType>::ENTRY),*
                }
            }

            /// Opens this lab on `file` (its default preset when `None`).
            pub fn open(self, app: &mut Stage, file: Option<&Path>) -> Result<Box<dyn Lab>, String> {
                match self {
                    $(LabKind::$kind => Ok(Box::new(<$ty as LabType>::open(app, file)?))),*
                }
            }
        }

        impl LabAction {
            pub fn kind(&self) -> LabKind {
                match self {
                    $(LabAction::$kind(_) => LabKind::$kind),*
                }
            }

            /// Hands the action to `lab` if it is the lab the action belongs to; returns it
            /// otherwise.
            pub fn apply_to(self, lab: &mut dyn Lab, app: &mut Stage) -> Result<(), LabAction> {
                match self {
                    $(LabAction::$kind(a) => match lab.as_any_mut().downcast_mut::<$ty>() {
                        Some(l) => {
                            l.apply(app, a);
                            Ok(())
                        }
                        None => Err(LabAction::$kind(a)),
                    }),*
                }
            }
        }
    };
}

labs! {
    Manifold: manifold::ManifoldLab,
    Minkowski: minkowski::MinkowskiLab,
    Tree: tree::TreeLab,
    HullSat("hull3d", "Hull3d"): hull3d::Hull3dLab,
    Toi: toi::ToiLab,
    Slice: slice::SliceLab,
    QuickHull("hull", "Hull"): hull::HullLab,
    World3d: world3d::World3dLab,
}
