//! The Minkowski lab (002 and 004 articles): the two shapes in the world view and, beside
//! them, configuration space: the Minkowski difference A − B, each GJK simplex and EPA
//! polytope step by step, the penetration vector, SAT compared, and a rotation sweep.

mod panels;
#[cfg(feature = "peers")]
pub mod peers;
pub mod sweep;
#[cfg(all(test, feature = "peers"))]
mod tests;
pub mod view;

pub use view::MinkowskiView;

use super::pair::{PairAction, PairFile};
use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::camera::ScreenRect;
use crate::app::lab::widgets::Player;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::trace::Trace;
use serde::{Deserialize, Serialize};
use std::path::Path;

const DEFAULT_PAIR: &str = "scenes/pairs/polygons.ron";
pub struct MinkowskiLab {
    pub pair: PairFile,
    /// The GJK/EPA step shown (GJK iterations first, then EPA expansions); `None` = the last.
    pub step: Option<usize>,
    /// Playing the steps.
    pub player: Player,
    /// The last rotation sweep.
    pub sweep: Vec<sweep::SweepSample>,
    /// Box2D v3's and parry2d's distance and closest points drawn and tabled beside ours.
    pub peers: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MinkowskiAction {
    Pair(PairAction),
    /// Show GJK/EPA step `k` (`None` = the last).
    SetStep(Option<usize>),
    /// Advance the step by itself.
    Play(bool),
    /// Turn B through 360° and compare SAT with GJK+EPA.
    RunSweep,
    /// Show Box2D v3's `b2ShapeDistance` and parry2d's distance on the same pair.
    ShowPeers(bool),
}

pub fn act(a: MinkowskiAction) -> Action {
    Action::Lab(LabAction::Minkowski(a))
}

impl LabType for MinkowskiLab {
    type Action = MinkowskiAction;
    const ENTRY: LabEntry = LabEntry {
        name: "Minkowski / GJK / EPA",
        description: "The shapes and, beside them, configuration space: the Minkowski difference A − B, \
                      each GJK simplex and EPA polytope, the penetration vector; SAT compared.",
        file: Some(manifold_lab::scene::FileKind::Pair),
    };

    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String> {
        let pair = PairFile::open(app, file, DEFAULT_PAIR)?;
        Ok(MinkowskiLab { pair, step: None, player: Player::default(), sweep: Vec::new(), peers: false })
    }

    fn apply(&mut self, app: &mut Stage, action: MinkowskiAction) {
        match action {
            MinkowskiAction::Pair(a) => self.pair.apply(app, a),
            MinkowskiAction::SetStep(k) => {
                self.step = k;
                self.player.playing = false;
            }
            MinkowskiAction::Play(on) => {
                self.player.set(on);
                if on {
                    self.step = Some(0);
                }
            }
            MinkowskiAction::RunSweep => self.sweep = sweep::rotation_sweep(&app.world, 360),
            MinkowskiAction::ShowPeers(on) => self.peers = on,
        }
    }
}

impl Lab for MinkowskiLab {
    crate::app::lab::pair::pair_lab_methods!(Minkowski);

    /// While playing, one GJK/EPA step at a time, stopping at the last.
    fn update(&mut self, app: &mut Stage, dt: f32) {
        if self.player.playing {
            let last = MinkowskiView::compute(&app.world).map_or(0, |v| v.step_count().saturating_sub(1));
            self.player.tick(dt, &mut self.step, last);
        }
    }

    fn controls(&self, ui: &mut egui::Ui, app: &Stage, files: &mut UiState, out: &mut Vec<Action>) {
        if let Some(v) = MinkowskiView::compute(&app.world) {
            panels::controls(ui, &v, self.step, self.player.playing, out);
        }
        self.pair.panel(ui, files, out, |a| act(MinkowskiAction::Pair(a)));
    }

    fn details(&self, ui: &mut egui::Ui, app: &Stage, out: &mut Vec<Action>) {
        if let Some(v) = MinkowskiView::compute(&app.world) {
            panels::details(ui, &v, &self.sweep, out);
            panels::peers_section(ui, &app.world, &v, self.peers, out);
        }
    }

    /// The world on the left half, configuration space on the right.
    fn viewport(&self, free: ScreenRect) -> (ScreenRect, Option<ScreenRect>) {
        let half = Vec2::new((0.5 * free.size.x).floor(), free.size.y);
        let left = ScreenRect { min: free.min, size: half };
        let right =
            ScreenRect { min: free.min + Vec2::new(half.x, 0.0), size: Vec2::new(free.size.x - half.x, half.y) };
        (left, Some(right))
    }

    fn draw(&self, app: &Stage, d: &mut dyn DebugDraw) {
        super::manifold::trace_view::draw_bodies(&app.world, d);
        if let Some(v) = MinkowskiView::compute(&app.world) {
            v.draw_world(d);
        }
        #[cfg(feature = "peers")]
        if self.peers {
            peers::draw_world(&app.world, d);
        }
    }

    fn inset(&self, app: &Stage) -> Option<(Aabb, &'static str)> {
        MinkowskiView::compute(&app.world).map(|v| (v.bounds(), "configuration space: A - B"))
    }

    fn draw_inset(&self, app: &Stage, d: &mut dyn DebugDraw) {
        if let Some(v) = MinkowskiView::compute(&app.world) {
            let last = v.steps().saturating_sub(1);
            v.draw_step(self.step.unwrap_or(last).min(last), d);
        }
        #[cfg(feature = "peers")]
        if self.peers {
            peers::draw_config(&app.world, d);
        }
    }

    fn report(&self, app: &Stage) -> Option<serde_json::Value> {
        let v = MinkowskiView::compute(&app.world)?;
        #[allow(unused_mut)]
        let mut r = super::step_report(v.steps(), self.step.unwrap_or(usize::MAX), |k| v.step_label(k));
        #[cfg(feature = "peers")]
        if self.peers {
            r["peers"] = peers::report(&app.world);
        }
        Some(r)
    }
}
