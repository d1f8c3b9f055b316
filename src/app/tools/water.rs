//! Live edits of the water (003 article, "Buoyancy, Rigid Bodies and Water Surface"): its
//! parameters from the Water panel or a script, and the length of the force arrows.

use crate::app::state::{Action, App};
use manifold_lab::engine::water::{Surface, Water, WaterParams};
use manifold_lab::engine::BodyKind;
use std::mem::discriminant;

/// The arrows' scale at start, metres per newton: a floating 1 m box of water's density
/// under 10 m/s² gets an arrow of 0.75 m.
pub const DEFAULT_BUOYANCY_SCALE: f32 = 0.15;
/// The range of the arrows' scale, metres per newton.
pub const BUOYANCY_SCALE_RANGE: (f32, f32) = (0.001, 1.0);

impl App {
    pub(crate) fn apply_water(&mut self, action: Action) {
        match action {
            Action::SetWater(p) => self.set_water(p),
            Action::SetBuoyancyScale(s) if s.is_finite() => {
                self.buoyancy_scale = s.clamp(BUOYANCY_SCALE_RANGE.0, BUOYANCY_SCALE_RANGE.1)
            }
            _ => {}
        }
    }

    /// Replaces the water's parameters. The surface keeps its motion when only numbers change
    /// (a new level shifts the simulated columns with it); a new kind of surface, column
    /// count or region starts it at rest. Every dynamic body wakes, since its forces change.
    fn set_water(&mut self, params: Option<WaterParams>) {
        if let Some(p) = &params {
            if let Err(e) = p.validate() {
                self.error = Some(format!("water: {e}"));
                return;
            }
        }
        let water = params.map(|p| match self.world.water() {
            Some(old) if same_surface(&old.params, &p) => {
                let mut w = old.clone();
                let rise = p.level - old.params.level;
                w.state.heights.iter_mut().for_each(|h| *h += rise);
                w.params = p;
                w
            }
            _ => Water::new(p),
        });
        self.world.set_water(water);
        for b in self.world.bodies.iter_mut().filter(|b| b.kind == BodyKind::Dynamic) {
            b.wake();
        }
    }
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
