//! Live edits of the water (003 article, "Buoyancy, Rigid Bodies and Water Surface"): its
//! parameters from the Water section or a script, and the length of the force arrows.

use super::{Place, Tool, ToolContext, ToolEntry, ToolKind, ToolType, ToolView};
use crate::app::state::Action;
use egui_macroquad::egui;
use manifold_lab::engine::water::{Surface, Water, WaterParams};
use manifold_lab::engine::{BodyKind, World};
use serde::{Deserialize, Serialize};
use std::mem::discriminant;

/// The arrows' scale at start, metres per newton: a floating 1 m box of water's density
/// under 10 m/s² gets an arrow of 0.75 m.
pub const DEFAULT_BUOYANCY_SCALE: f32 = 0.15;
/// The range of the arrows' scale, metres per newton.
pub const BUOYANCY_SCALE_RANGE: (f32, f32) = (0.001, 1.0);

/// The water's view: the Water section and the scale of the buoyancy and drag arrows.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterView {
    /// Metres of arrow per newton.
    pub arrow_scale: f32,
}

impl Default for WaterView {
    fn default() -> WaterView {
        WaterView { arrow_scale: DEFAULT_BUOYANCY_SCALE }
    }
}

/// What the water's view can be asked to do (the water itself changes by the world edit
/// `Action::SetWater`, which recordings keep).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WaterAction {
    /// Metres of arrow per newton of the buoyancy and drag arrows.
    SetArrowScale(f32),
}

impl ToolType for WaterView {
    type Action = WaterAction;
    const ENTRY: ToolEntry =
        ToolEntry { name: "water", description: "the water's parameters live, and the force arrows' scale" };

    fn apply(&mut self, _cx: &mut ToolContext, action: WaterAction) {
        let WaterAction::SetArrowScale(s) = action;
        if s.is_finite() {
            self.arrow_scale = s.clamp(BUOYANCY_SCALE_RANGE.0, BUOYANCY_SCALE_RANGE.1);
        }
    }
}

impl Tool for WaterView {
    fn kind(&self) -> ToolKind {
        ToolKind::Water
    }

    fn panel(&self, at: Place, ui: &mut egui::Ui, v: &ToolView, out: &mut Vec<Action>) {
        if at == Place::Settings {
            super::panel::water(ui, self, v.world, out);
        }
    }
}

/// Replaces the water's parameters (`Action::SetWater`). The surface keeps its motion when
/// only numbers change (a new level shifts the simulated columns with it); a new kind of
/// surface, column count or region starts it at rest. Every dynamic body wakes, since its
/// forces change.
pub fn set_water(world: &mut World, params: Option<WaterParams>) -> Result<(), String> {
    if let Some(p) = &params {
        p.validate().map_err(|e| format!("water: {e}"))?;
    }
    let water = params.map(|p| match world.water() {
        Some(old) if same_surface(&old.params, &p) => {
            let mut w = old.clone();
            let rise = p.level - old.params.level;
            w.state.heights.iter_mut().for_each(|h| *h += rise);
            w.params = p;
            w
        }
        _ => Water::new(p),
    });
    world.set_water(water);
    for b in world.bodies.iter_mut().filter(|b| b.kind == BodyKind::Dynamic) {
        b.wake();
    }
    Ok(())
}

/// Whether `b` keeps the surface state of `a`: the same kind of surface over the same
/// columns.
fn same_surface(a: &WaterParams, b: &WaterParams) -> bool {
    let columns = |p: &WaterParams| match p.surface {
        Surface::Simulated { columns, .. } => columns,
        _ => 0,
    };
    discriminant(&a.surface) == discriminant(&b.surface) && a.region == b.region && columns(a) == columns(b)
}
