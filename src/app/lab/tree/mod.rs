//! The tree lab (003 article, "Dynamic AABB Tree"): thousands of proxies in a square, a
//! fraction of them moving each step, the tree drawn by depth; drag a query box (or, with
//! Shift, a ray; with Ctrl, a circle: the article's sphere query) to see which nodes the query visited and which leaves it hit. Box2D's
//! "Dynamic Tree" sample is the model.

pub mod insertion;
mod insertion_panel;
mod panels;
pub mod proxies;
#[cfg(test)]
mod tests;

pub use proxies::{Proxies, TreeQuery};

use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::input::PointerFrame;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::{Action, RunMode};
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::broadphase::TreeSettings;
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::World;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Proxies when the lab opens.
const DEFAULT_COUNT: usize = 2000;

/// What a drag in the view queries with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum DragQuery {
    Box,
    Ray,
    Circle,
}

pub struct TreeLab {
    pub proxies: Proxies,
    /// A query being dragged: its start (world) and its kind.
    drag: Option<(Vec2, DragQuery)>,
    /// The last traced insertion or move, walked by a slider.
    pub insertion: Option<insertion::Insertion>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TreeAction {
    /// Respawn with `count` proxies and these tree settings.
    Spawn {
        count: usize,
        settings: TreeSettings,
    },
    /// The fraction of proxies moved each step.
    Moving(f32),
    /// Query with a box (two corners) or a ray, or clear the query.
    QueryBox {
        from: Vec2,
        to: Vec2,
    },
    Ray {
        from: Vec2,
        to: Vec2,
    },
    /// The sphere query in 2D: the circle about `center` through `edge`.
    Circle {
        center: Vec2,
        edge: Vec2,
    },
    ClearQuery,
    /// Insert one proxy at a random place, recording the insertion (pauses the lab).
    InsertOne,
    /// Move one random proxy to a random place and reinsert it, recorded (pauses the lab).
    MoveOne,
    /// Show step `k` of the recorded insertion (`None` = the last).
    SetInsertStep(Option<usize>),
}

pub fn act(a: TreeAction) -> Action {
    Action::Lab(LabAction::Tree(a))
}

impl LabType for TreeLab {
    type Action = TreeAction;
    const ENTRY: LabEntry = LabEntry {
        name: "Dynamic AABB tree",
        description:
            "Thousands of proxies, some moving each step; drag a query box (Shift: a ray, Ctrl: a circle) and \
                      see which nodes were visited and which leaves were hit.",
        file: None,
    };

    /// The lab has no file; it runs (its proxies move) from the start.
    fn open(app: &mut Stage, _file: Option<&Path>) -> Result<Self, String> {
        app.world = World::new(Default::default());
        app.mode = RunMode::Running;
        Ok(TreeLab { proxies: Proxies::new(DEFAULT_COUNT, TreeSettings::default()), drag: None, insertion: None })
    }

    fn apply(&mut self, app: &mut Stage, action: TreeAction) {
        let p = &mut self.proxies;
        match action {
            TreeAction::Spawn { count, settings } => {
                p.respawn(count, settings);
                self.insertion = None;
                self.frame(app);
            }
            TreeAction::Moving(f) if f.is_finite() => p.moving_fraction = f.clamp(0.0, 1.0),
            TreeAction::Moving(_) => app.error = Some("the moving fraction must be a number".into()),
            TreeAction::QueryBox { from, to } => {
                let b = Aabb::new(from.min(to), from.max(to));
                p.set_query((b.is_valid() && from.is_finite() && to.is_finite()).then_some(TreeQuery::Box(b)));
            }
            TreeAction::Ray { from, to } => {
                let ok = from.is_finite() && to.is_finite() && from != to;
                p.set_query(ok.then_some(TreeQuery::Ray { from, to }));
            }
            TreeAction::Circle { center, edge } => {
                let radius = center.distance(edge);
                let ok = center.is_finite() && radius.is_finite() && radius > 0.0;
                p.set_query(ok.then_some(TreeQuery::Circle { center, radius }));
            }
            TreeAction::ClearQuery => p.set_query(None),
            TreeAction::InsertOne => {
                app.mode = RunMode::Paused;
                self.insertion = Some(p.insert_one_traced());
            }
            TreeAction::MoveOne => {
                app.mode = RunMode::Paused;
                self.insertion = p.move_one_traced();
            }
            TreeAction::SetInsertStep(k) => {
                if let Some(i) = &mut self.insertion {
                    i.step = k;
                }
            }
        }
    }
}

impl Lab for TreeLab {
    fn kind(&self) -> LabKind {
        LabKind::Tree
    }

    /// Restart respawns the same number of proxies; Step moves them once.
    fn intercept(&mut self, app: &mut Stage, action: &Action) -> bool {
        match action {
            Action::Restart => {
                let (n, settings) = (self.proxies.count(), self.proxies.tree.settings);
                self.proxies.respawn(n, settings);
            }
            Action::Step => {
                app.mode = RunMode::Paused;
                self.proxies.step();
            }
            _ => return false,
        }
        true
    }

    fn update(&mut self, app: &mut Stage, _dt: f32) {
        if app.mode == RunMode::Running {
            self.proxies.step();
        }
    }

    fn controls(&self, ui: &mut egui::Ui, app: &Stage, _files: &mut UiState, out: &mut Vec<Action>) {
        panels::controls(ui, app, &self.proxies, out);
        insertion_panel::controls(ui, self.insertion.as_ref(), out);
    }

    fn details(&self, ui: &mut egui::Ui, _app: &Stage, _out: &mut Vec<Action>) {
        panels::details(ui, &self.proxies);
    }

    fn frame(&mut self, app: &mut Stage) {
        let vp = app.viewport;
        app.camera.frame(&vp, self.proxies.bounds());
    }

    fn content_bounds(&self, _app: &Stage) -> Option<Aabb> {
        Some(self.proxies.bounds())
    }

    fn draw(&self, app: &Stage, d: &mut dyn DebugDraw) {
        self.proxies.draw(d, app.camera.visible(&app.viewport), app.tree_depth);
        if let Some(i) = &self.insertion {
            manifold_lab::engine::trace::Trace::draw_step(&i.trace, i.step.unwrap_or(usize::MAX), d);
        }
    }

    /// Left drag: a query box from where it started (Shift: a ray; Ctrl: a circle about the
    /// start).
    fn pointer(&mut self, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
        let world = app.camera.screen_to_world(&app.viewport, f.pos);
        let Some((start, shape)) = self.drag else {
            if f.left_pressed && !over_ui && app.viewport.contains(f.pos) {
                let shape = if f.shift {
                    DragQuery::Ray
                } else if f.rotate_modifier {
                    DragQuery::Circle
                } else {
                    DragQuery::Box
                };
                self.drag = Some((world, shape));
                return Some(Vec::new());
            }
            return None;
        };
        let mut out = Vec::new();
        if start != world {
            let (from, to) = (start, world);
            out.push(act(match shape {
                DragQuery::Ray => TreeAction::Ray { from, to },
                DragQuery::Circle => TreeAction::Circle { center: from, edge: to },
                DragQuery::Box => TreeAction::QueryBox { from, to },
            }));
        }
        if !f.left_down {
            self.drag = None;
        }
        Some(out)
    }

    fn uses_world(&self) -> bool {
        false
    }

    /// The stepping state of the last traced insertion (0 steps before any).
    fn report(&self, _app: &Stage) -> Option<serde_json::Value> {
        let shown = |i: &insertion::Insertion| super::trace_report(&i.trace, i.step.unwrap_or(usize::MAX));
        Some(self.insertion.as_ref().map_or_else(|| super::step_report(0, 0, |_| String::new()), shown))
    }
}
