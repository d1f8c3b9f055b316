//! The manifold lab (000 article): two shapes, dragged and turned with the ordinary gestures,
//! and their manifold function stepped: for polygons the SAT axes, the reference and incident
//! faces, the side planes and each clip (after the article's AABB construction when both are
//! axis-aligned boxes); for circles and capsules the closest features, the change of basis,
//! the Voronoi region and the clipped segment. Also draws the selected pair of the world view.

mod panels;
#[cfg(feature = "peers")]
pub mod peers;
#[cfg(test)]
mod tests;
pub mod trace_view;
pub mod traces;

#[cfg(test)]
pub use trace_view::LAST_STAGE;
pub use trace_view::{draw_pair, manifold_numbers, manifold_of, pair_numbers, trace_pair};

use super::pair::{PairAction, PairFile};
use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui;
use manifold_lab::engine::collide::polygon::ReferenceFaceRule;
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::trace::Trace;
use serde::{Deserialize, Serialize};
use std::path::Path;

const DEFAULT_PAIR: &str = "scenes/pairs/box_on_box.ron";

pub struct ManifoldLab {
    pub pair: PairFile,
    /// The trace's step shown (clamped to its last when drawn).
    pub stage: usize,
    /// How the reference face is chosen (the world's default, or the article's bias).
    pub rule: ReferenceFaceRule,
    /// The SAT axis whose projections are drawn (index into the trace's axes).
    pub axis: Option<usize>,
    /// Box2D v3's manifold and parry2d's contact drawn over ours and compared in the panel.
    pub peers: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ManifoldAction {
    Pair(PairAction),
    /// Show step `k` of the pair's trace (clamped to its last step, the manifold).
    SetStage(usize),
    /// Choose the reference face by this rule.
    SetRule(ReferenceFaceRule),
    /// Draw both shapes' projections on SAT axis `k`.
    SelectAxis(Option<usize>),
    /// Show Box2D v3's manifold and parry2d's contact for the pair beside ours.
    ShowPeers(bool),
}

pub fn act(a: ManifoldAction) -> Action {
    Action::Lab(LabAction::Manifold(a))
}

impl ManifoldLab {
    /// The lab on a pair already placed in the app's world (a contact taken from a scene).
    pub fn on_pair(pair: PairFile) -> ManifoldLab {
        ManifoldLab { pair, stage: usize::MAX, rule: ReferenceFaceRule::default(), axis: None, peers: false }
    }
}

impl LabType for ManifoldLab {
    type Action = ManifoldAction;
    const ENTRY: LabEntry = LabEntry {
        name: "Manifold (SAT + clipping)",
        description: "Drag and rotate two shapes; walk the SAT axes, the reference and incident faces, \
                      the side planes and each clip to the final contact points, or the closest \
                      features of circles and capsules.",
        file: Some(manifold_lab::scene::FileKind::Pair),
    };

    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String> {
        Ok(ManifoldLab::on_pair(PairFile::open(app, file, DEFAULT_PAIR)?))
    }

    fn apply(&mut self, app: &mut Stage, action: ManifoldAction) {
        match action {
            ManifoldAction::Pair(a) => self.pair.apply(app, a),
            ManifoldAction::SetStage(k) => {
                let steps = trace_pair(&app.world, 0, 1, self.rule).map_or(0, |t| t.steps());
                self.stage = k.min(steps.saturating_sub(1));
            }
            ManifoldAction::SetRule(rule) => self.rule = rule,
            ManifoldAction::SelectAxis(k) => self.axis = k,
            ManifoldAction::ShowPeers(on) => self.peers = on,
        }
    }
}

impl Lab for ManifoldLab {
    crate::app::lab::pair::pair_lab_methods!(Manifold);

    fn controls(&self, ui: &mut egui::Ui, app: &Stage, files: &mut UiState, out: &mut Vec<Action>) {
        panels::controls(ui, app, self.stage, self.rule, out);
        self.pair.panel(ui, files, out, |a| act(ManifoldAction::Pair(a)));
    }

    fn details(&self, ui: &mut egui::Ui, app: &Stage, out: &mut Vec<Action>) {
        panels::details(ui, app, self.rule, self.stage, self.axis, out);
        panels::peers_section(ui, app, self.rule, self.peers, out);
    }

    fn draw(&self, app: &Stage, d: &mut dyn DebugDraw) {
        trace_view::draw_bodies(&app.world, d);
        draw_pair(&app.world, 0, 1, d, self.stage, self.rule, self.axis);
        #[cfg(feature = "peers")]
        if self.peers {
            peers::draw(&app.world, d);
        }
    }

    /// The pair trace's stepping state (0 steps when the world has no pair).
    fn report(&self, app: &Stage) -> Option<serde_json::Value> {
        let empty = || super::step_report(0, 0, |_| String::new());
        Some(trace_pair(&app.world, 0, 1, self.rule).map_or_else(empty, |t| super::trace_report(&t, self.stage)))
    }
}
