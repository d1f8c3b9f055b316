//! The slicing lab (003 article, "Dynamically Slicing Shapes"): one convex polygon and a knife
//! line, both draggable; a step slider walks the Sutherland–Hodgman clipper edge by edge
//! (in–in, in–out, out–in, out–out), with each intersection and the two output polygons as
//! they are built, and the pieces' areas checked against the original.

mod draw;
mod input;
mod panels;
#[cfg(test)]
mod tests;

use super::preset_lab;
use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::input::PointerFrame;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::geometry::{area_centroid, SliceTrace};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::trace::Trace;
use manifold_lab::scene::{Knife, ShapeDesc, ShapeSpec, SliceSpec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the presets live.
pub const SLICE_DIR: &str = "scenes/slice";
const DEFAULT_PRESET: &str = "scenes/slice/square.ron";

pub struct SliceLab {
    pub spec: SliceSpec,
    pub path: Option<PathBuf>,
    /// The edge shown (`None` = the last, the finished split).
    pub step: Option<usize>,
    /// The clipper's walk for the current polygon and knife.
    pub trace: SliceTrace,
    gesture: Option<input::Gesture>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SliceAction {
    /// Load a preset (`scenes/slice/*.ron`); a bad file keeps the lab as it is.
    Load(PathBuf),
    /// Save the polygon and knife as a preset.
    Save(PathBuf),
    /// Show edge `k` of the walk (clamped to the last; `None` = the last).
    SetStep(Option<usize>),
    /// Place the polygon's origin at `position`, turned by `angle`.
    SetPose { position: Vec2, angle: f32 },
    /// Move the knife's ends.
    SetKnife { from: Vec2, to: Vec2 },
    /// Replace the polygon (circles and capsules are refused: the clipper cuts polygons).
    SetShape(ShapeDesc),
}

pub fn act(a: SliceAction) -> Action {
    Action::Lab(LabAction::Slice(a))
}

/// Both pieces of the finished split and the original, for the details panel and tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieceAreas {
    pub original: f32,
    pub behind: f32,
    pub front: f32,
}

impl PieceAreas {
    /// How far the pieces' sum is from the original, relative to it.
    pub fn relative_error(&self) -> f32 {
        (self.behind + self.front - self.original).abs() / self.original.max(f32::MIN_POSITIVE)
    }
}

impl SliceLab {
    fn new(spec: SliceSpec, path: Option<PathBuf>) -> SliceLab {
        let mut lab = SliceLab { spec, path, step: None, trace: SliceTrace::new(), gesture: None };
        lab.recompute();
        lab
    }

    fn recompute(&mut self) {
        self.trace = self.spec.trace();
        self.step = self.step.map(|k| k.min(self.last_step()));
    }

    /// The last edge's index (0 for an empty walk).
    pub fn last_step(&self) -> usize {
        Trace::steps(&self.trace).saturating_sub(1)
    }

    /// The edge shown.
    pub fn shown_step(&self) -> usize {
        self.step.unwrap_or(self.last_step()).min(self.last_step())
    }

    /// The areas of both pieces (0 for a side left empty) and of the polygon.
    pub fn areas(&self) -> PieceAreas {
        let original = self.spec.polygon().map_or(0.0, |p| p.mass_data(1.0).area);
        let split = self.trace.result.clone().unwrap_or_default();
        PieceAreas { original, behind: area_centroid(&split.behind).0, front: area_centroid(&split.front).0 }
    }

    /// Whether an end of the knife lies inside the polygon (the scenes' slice tool cuts only
    /// bodies the knife crosses from side to side).
    pub fn knife_end_inside(&self) -> bool {
        let shape = self.spec.shape.shape();
        let xf = self.spec.transform();
        shape.test_point(&xf, self.spec.knife.from) || shape.test_point(&xf, self.spec.knife.to)
    }

    fn set_shape(&mut self, app: &mut Stage, desc: ShapeDesc) {
        match ShapeSpec::new(desc) {
            Ok(s) if matches!(s.shape(), Shape::Polygon(_)) => {
                self.spec.shape = s;
                self.recompute();
            }
            Ok(s) => {
                app.error = Some(format!("the slicing lab cuts polygons, not a `{}`", s.desc().kind()));
            }
            Err(e) => app.error = Some(e),
        }
    }
}

impl LabType for SliceLab {
    type Action = SliceAction;
    const ENTRY: LabEntry = LabEntry {
        name: "Slicing",
        description: "One polygon and a knife line: Sutherland–Hodgman clipping walked edge by edge, its four \
                      cases, the intersections and both pieces as they are built.",
        file: Some(manifold_lab::scene::FileKind::Slice),
    };

    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String> {
        preset_lab::open(app, file)
    }

    fn apply(&mut self, app: &mut Stage, action: SliceAction) {
        match action {
            SliceAction::Load(path) => self.reload(app, &path),
            SliceAction::Save(path) => preset_lab::save(self, app, &path),
            SliceAction::SetStep(k) => self.step = k.map(|k| k.min(self.last_step())),
            SliceAction::SetPose { position, angle } => {
                if position.is_finite() && angle.is_finite() {
                    (self.spec.position, self.spec.angle) = (position, angle);
                    self.recompute();
                }
            }
            SliceAction::SetKnife { from, to } => {
                if from.is_finite() && to.is_finite() && from != to {
                    self.spec.knife = Knife { from, to };
                    self.recompute();
                }
            }
            SliceAction::SetShape(desc) => self.set_shape(app, desc),
        }
    }
}

preset_lab::preset_lab!(SliceLab, SliceSpec);

impl Lab for SliceLab {
    preset_lab::preset_lab_methods!(Slice, 0.6);

    /// The polygon and the knife.
    fn content_bounds(&self, _app: &Stage) -> Option<Aabb> {
        let k = &self.spec.knife;
        let knife = Aabb::new(k.from.min(k.to), k.from.max(k.to));
        Some(self.spec.shape.shape().compute_aabb(&self.spec.transform()).union(&knife))
    }

    fn draw(&self, app: &Stage, d: &mut dyn DebugDraw) {
        draw::draw(self, app, d);
    }

    fn pointer(&mut self, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
        input::pointer(self, app, f, over_ui)
    }

    fn uses_world(&self) -> bool {
        false
    }

    fn report(&self, _app: &Stage) -> Option<serde_json::Value> {
        Some(super::trace_report(&self.trace, self.shown_step()))
    }
}
