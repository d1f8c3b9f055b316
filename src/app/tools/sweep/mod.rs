//! The broadphase panel's sort-and-sweep view (003 article's sort and sweep): "Record a sweep"
//! runs one traced pass of the sort-and-sweep pair finder over the world's tight AABBs as they
//! are, and a step slider (the labs' stepping protocol, `engine::trace::Trace`) walks it: the
//! sorted endpoints on an axis under the boxes, the active list as the sweep line passes, the
//! boxes each one tests and the pairs found so far. The recording is a snapshot: the world
//! may run on, the view keeps the boxes it swept.

#[cfg(test)]
mod tests;

use super::{Place, Tool, ToolContext, ToolEntry, ToolKind, ToolType, ToolView, WorldChange};
use crate::app::lab::widgets::step_slider;
use crate::app::render::draw::MqDraw;
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::broadphase::{trace_sort_and_sweep, PairFinding, SweepStep, SweepTrace};
use manifold_lab::engine::debug::{DebugDraw, Layer, LayerSet};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;
use manifold_lab::engine::World;
use serde::{Deserialize, Serialize};

/// A recorded sweep and the step shown.
#[derive(Clone, Debug, Default)]
pub struct SweepView {
    pub trace: SweepTrace,
    /// The step shown (`None` = the last).
    pub step: Option<usize>,
    /// The pairs the traced pass found (the mode's own pairs at that moment).
    pub pairs: usize,
}

impl SweepView {
    /// The step drawn: the chosen one, clamped, or the last.
    pub fn shown_step(&self) -> usize {
        let last = Trace::steps(&self.trace).saturating_sub(1);
        self.step.unwrap_or(last).min(last)
    }
}

/// What the sweep view can be asked to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SweepAction {
    /// Record one sort-and-sweep pass over the world's bodies as they are now.
    Record,
    /// Show step `k` (`None`: the last).
    SetStep(Option<usize>),
    /// Stop showing the recorded sweep.
    Close,
}

/// Layers the sweep view draws on, whatever the world's layer switches are.
pub fn sweep_layers() -> LayerSet {
    LayerSet::of(&[Layer::Aabb, Layer::SweepAndPrune, Layer::TreeNode, Layer::Pair])
}

/// The tool: the recorded sweep, if any.
#[derive(Clone, Debug, Default)]
pub struct SweepTool {
    pub view: Option<SweepView>,
}

impl ToolType for SweepTool {
    type Action = SweepAction;
    const ENTRY: ToolEntry =
        ToolEntry { name: "sweep", description: "one sort-and-sweep pass over the world's boxes, step by step" };

    fn apply(&mut self, cx: &mut ToolContext, action: SweepAction) {
        let world = &*cx.world;
        match action {
            SweepAction::Record if world.broadphase.mode != PairFinding::SortAndSweep => {
                *cx.error = Some("switch the broadphase to sort and sweep to record a sweep".into());
            }
            SweepAction::Record => {
                let mut trace = SweepTrace::default();
                let pairs = trace_sort_and_sweep(&world.bodies, world.params.speculative_margin, &mut trace).len();
                self.view = Some(SweepView { trace, step: Some(0), pairs });
            }
            SweepAction::SetStep(k) => {
                if let Some(v) = &mut self.view {
                    let last = Trace::steps(&v.trace).saturating_sub(1);
                    v.step = k.map(|k| k.min(last));
                }
            }
            SweepAction::Close => self.view = None,
        }
    }
}

impl SweepTool {
    /// Draws the recorded sweep at its step.
    pub fn draw_trace(&self, d: &mut dyn DebugDraw) {
        if let Some(v) = &self.view {
            v.trace.draw_step(v.shown_step(), d);
        }
    }
}

impl Tool for SweepTool {
    fn kind(&self) -> ToolKind {
        ToolKind::Sweep
    }

    /// The recorded sweep at its step, on the sweep layers whatever the user's switches are.
    fn draw(&self, _v: &ToolView, d: &mut MqDraw) {
        if self.view.is_some() {
            let layers = d.layers;
            d.layers = LayerSet(layers.0 | sweep_layers().0);
            self.draw_trace(d);
            d.layers = layers;
        }
    }

    /// The sort-and-sweep pair finder's own view, at the top of the right panel (where the
    /// labs keep their step sliders), shown in that mode only.
    fn panel(&self, at: Place, ui: &mut egui::Ui, v: &ToolView, out: &mut Vec<Action>) {
        if at != Place::Details || v.world.broadphase.mode != PairFinding::SortAndSweep {
            return;
        }
        egui::CollapsingHeader::new("Sort and sweep, step by step")
            .default_open(true)
            .show(ui, |ui| sweep_section(ui, self, out));
        ui.separator();
    }

    fn world_changed(&mut self, how: WorldChange, world: &World) {
        if how != WorldChange::Broadphase || world.broadphase.mode != PairFinding::SortAndSweep {
            self.view = None;
        }
    }

    fn report(&self, _v: &ToolView) -> Option<serde_json::Value> {
        let v = self.view.as_ref()?;
        Some(serde_json::json!({ "step": v.shown_step(), "steps": Trace::steps(&v.trace), "pairs": v.pairs }))
    }
}

fn sweep_section(ui: &mut egui::Ui, tool: &SweepTool, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        if ui.button("Record a sweep").on_hover_text("Trace one pass over the bodies as they are now").clicked() {
            out.push(SweepAction::Record.into());
        }
        if tool.view.is_some() && ui.button("Close").clicked() {
            out.push(SweepAction::Close.into());
        }
    });
    let Some(v) = &tool.view else {
        ui.label(
            RichText::new("Endpoints are ticks under the boxes (starts up, ends down); the active list is cyan.")
                .small(),
        );
        return;
    };
    let t = &v.trace;
    let shown = v.shown_step();
    if let Some(k) = step_slider(ui, shown, Trace::steps(t), |k| t.step_label(k)) {
        out.push(SweepAction::SetStep(Some(k)).into());
    }
    match t.steps.get(shown) {
        Some(SweepStep::Sweep { active, tested, .. }) => {
            ui.label(RichText::new(format!("active: {}", list(active))).monospace());
            ui.label(RichText::new(format!("tested: {}", list(tested))).monospace());
        }
        _ => {
            ui.label(format!("{} boxes, {} endpoints; {} pairs in all", t.aabbs.len(), 2 * t.aabbs.len(), v.pairs));
        }
    }
    endpoint_list(ui, t, shown);
}

/// Box indices, the first few of a long list.
fn list(ids: &[u32]) -> String {
    const MAX: usize = 12;
    let mut s: Vec<String> = ids.iter().take(MAX).map(|i| i.to_string()).collect();
    if ids.len() > MAX {
        s.push(format!("… ({} in all)", ids.len()));
    }
    format!("[{}]", s.join(", "))
}

/// The sorted endpoints around the sweep line: passed ones plain, the next ones weak, the
/// swept box's start highlighted.
fn endpoint_list(ui: &mut egui::Ui, t: &SweepTrace, k: usize) {
    let ends = t.endpoints();
    let passed = t.passed_endpoints(k);
    let from = passed.saturating_sub(6);
    ui.label(RichText::new("sorted endpoints (x, box):").small());
    ui.vertical(|ui| {
        for (n, (x, b, start)) in ends.iter().enumerate().skip(from).take(12) {
            let text = format!("{x:8.2}  {}{b}", if *start { "start " } else { "end   " }, x = Num(x));
            let rich = RichText::new(text).monospace();
            let rich = if n + 1 == passed && *start {
                rich.strong().color(egui::Color32::from_rgb(255, 230, 60))
            } else if n < passed {
                rich
            } else {
                rich.weak()
            };
            ui.label(rich);
        }
    });
}
