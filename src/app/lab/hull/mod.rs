//! The hull lab: a 2D point cloud and its convex hull built by QuickHull step by step (the 2D
//! twin of the construction behind article 001's hulls). Click to add a point, drag one to move
//! it, Shift+click to delete it; the step slider (or Play) walks the recorded construction: the
//! first chord, each edge's outside set and farthest point, the new cone, the points dropped.

mod draw;
mod input;
mod panels;
#[cfg(test)]
mod tests;

use super::preset_lab;
use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::input::PointerFrame;
use crate::app::lab::widgets::Player;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::shape::{quickhull_2d, QuickHull2Trace};
use manifold_lab::engine::trace::Trace;
use manifold_lab::scene::{CloudSpec, MAX_CLOUD_POINTS};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the presets live.
pub const HULL_DIR: &str = "scenes/hull";
const DEFAULT_PRESET: &str = "scenes/hull/scatter.ron";
pub struct HullLab {
    pub spec: CloudSpec,
    pub path: Option<PathBuf>,
    /// The step shown (`None` = the last, the finished hull).
    pub step: Option<usize>,
    pub trace: QuickHull2Trace,
    /// Playing the steps.
    pub player: Player,
    /// The point being dragged.
    dragging: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HullAction {
    /// Load a preset (`scenes/hull/*.ron`); a bad file keeps the lab as it is.
    Load(PathBuf),
    /// Save the cloud as a preset.
    Save(PathBuf),
    /// Show step `k` (clamped to the last; `None` = the last). Stops playing.
    SetStep(Option<usize>),
    /// Play the steps from the first, one every 0.6 s, or stop.
    Play(bool),
    AddPoint(Vec2),
    MovePoint {
        index: usize,
        to: Vec2,
    },
    DeletePoint(usize),
    /// Remove every point.
    Clear,
}

pub fn act(a: HullAction) -> Action {
    Action::Lab(LabAction::QuickHull(a))
}

impl HullLab {
    fn new(spec: CloudSpec, path: Option<PathBuf>) -> HullLab {
        let mut lab = HullLab {
            spec,
            path,
            step: None,
            trace: QuickHull2Trace::default(),
            player: Player::default(),
            dragging: None,
        };
        lab.recompute();
        lab
    }

    fn recompute(&mut self) {
        let _ = quickhull_2d(&self.spec.points, Some(&mut self.trace));
        self.step = self.step.map(|k| k.min(self.last_step()));
    }

    /// The last step's index (0 for an empty trace).
    pub fn last_step(&self) -> usize {
        Trace::steps(&self.trace).saturating_sub(1)
    }

    pub fn shown_step(&self) -> usize {
        self.step.unwrap_or(self.last_step()).min(self.last_step())
    }

    /// Why the cloud has no hull, if it has none.
    pub fn error(&self) -> Option<String> {
        match &self.trace.result {
            Some(Err(e)) => Some(e.to_string()),
            _ => None,
        }
    }

    fn edit(&mut self, app: &mut Stage, f: impl FnOnce(&mut Vec<Vec2>) -> bool) {
        if f(&mut self.spec.points) {
            self.recompute();
        } else {
            app.notice = Some("point refused: outside ±1e5, not finite, or too many points".into());
        }
    }
}

fn usable(p: Vec2) -> bool {
    p.is_finite() && p.abs().max_element() < manifold_lab::engine::shape::hull::MAX_COORDINATE
}

impl LabType for HullLab {
    type Action = HullAction;
    const ENTRY: LabEntry = LabEntry {
        name: "Hull construction",
        description: "A 2D point cloud and its convex hull built by QuickHull step by step: the first chord, each \
                      edge's outside set and farthest point, the new cone, the points dropped.",
        file: Some(manifold_lab::scene::FileKind::Cloud),
    };

    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String> {
        preset_lab::open(app, file)
    }

    fn apply(&mut self, app: &mut Stage, action: HullAction) {
        match action {
            HullAction::Load(path) => self.reload(app, &path),
            HullAction::Save(path) => preset_lab::save(self, app, &path),
            HullAction::SetStep(k) => {
                self.step = k.map(|k| k.min(self.last_step()));
                self.player.playing = false;
            }
            HullAction::Play(on) => {
                self.player.set(on);
                if on {
                    self.step = Some(0);
                }
            }
            HullAction::AddPoint(p) => self.edit(app, |pts| {
                let ok = usable(p) && pts.len() < MAX_CLOUD_POINTS;
                if ok {
                    pts.push(p);
                }
                ok
            }),
            HullAction::MovePoint { index, to } => self.edit(app, |pts| match pts.get_mut(index) {
                Some(q) if usable(to) => {
                    *q = to;
                    true
                }
                _ => false,
            }),
            HullAction::DeletePoint(index) => {
                self.edit(app, |pts| {
                    let ok = index < pts.len();
                    if ok {
                        pts.remove(index);
                    }
                    ok
                });
                self.dragging = None;
            }
            HullAction::Clear => {
                self.spec.points.clear();
                self.recompute();
            }
        }
    }
}

preset_lab::preset_lab!(HullLab, CloudSpec);

impl Lab for HullLab {
    preset_lab::preset_lab_methods!(QuickHull, 0.8);

    /// While playing, one step at a time, stopping on the finished hull.
    fn update(&mut self, _app: &mut Stage, dt: f32) {
        let last = self.last_step();
        self.player.tick(dt, &mut self.step, last);
    }

    /// The cloud (a unit box around the origin when it is empty).
    fn content_bounds(&self, _app: &Stage) -> Option<Aabb> {
        let pts = &self.spec.points;
        if pts.is_empty() {
            return Some(Aabb::new(Vec2::splat(-1.0), Vec2::splat(1.0)));
        }
        let min = pts.iter().copied().fold(Vec2::splat(f32::MAX), Vec2::min);
        let max = pts.iter().copied().fold(Vec2::splat(f32::MIN), Vec2::max);
        Some(Aabb::new(min - Vec2::splat(0.25), max + Vec2::splat(0.25)))
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
