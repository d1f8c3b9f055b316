//! The scene's optional `water` field: the engine's [`WaterParams`] as written in files, plus
//! the surface's state when a save caught it moving (the waves' clock, the simulated
//! columns), so a saved world loads back to the same state hash.

use super::format::{is_one, is_zero};
use crate::engine::water::{Surface, Water, WaterParams};
use serde::{Deserialize, Serialize};

/// `water: (level, density, linear_drag, angular_drag, region, surface, bottom)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Water", deny_unknown_fields)]
pub struct WaterSpec {
    /// Height of the still surface.
    pub level: f32,
    /// Mass per m² (bodies' `density` is in the same unit), default 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub density: f32,
    /// Pressure drag of submerged edges facing the flow, default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub linear_drag: f32,
    /// Angular drag, default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angular_drag: f32,
    /// `(x_min, x_max)`.
    pub region: (f32, f32),
    /// `Flat` (default), `Waves([(amplitude, wavelength, speed), ...])` or
    /// `Simulated(columns, stiffness, spread, damping)`.
    #[serde(default, skip_serializing_if = "is_flat")]
    pub surface: Surface,
    /// Where the water ends below, default the floor of the basin the static bodies make under
    /// it (none where the basin is open).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bottom: Option<f32>,
    /// Saved state: seconds on the waves' clock.
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    pub time: f64,
    /// Saved state: every simulated column's `(height, vertical velocity)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<(f32, f32)>,
}

fn one() -> f32 {
    1.0
}

fn is_flat(s: &Surface) -> bool {
    *s == Surface::Flat
}

fn is_zero_f64(x: &f64) -> bool {
    x.to_bits() == 0
}

impl WaterSpec {
    /// Still water of the given parameters.
    pub fn new(params: &WaterParams) -> WaterSpec {
        WaterSpec {
            level: params.level,
            density: params.density,
            linear_drag: params.linear_drag,
            angular_drag: params.angular_drag,
            region: params.region,
            surface: params.surface.clone(),
            bottom: params.bottom,
            time: 0.0,
            columns: Vec::new(),
        }
    }

    pub fn params(&self) -> WaterParams {
        WaterParams {
            level: self.level,
            density: self.density,
            linear_drag: self.linear_drag,
            angular_drag: self.angular_drag,
            region: self.region,
            surface: self.surface.clone(),
            bottom: self.bottom,
        }
    }

    /// The engine's checks, then the saved state's; the message names the field in backticks.
    pub fn check(&self) -> Result<(), String> {
        self.params().validate()?;
        if !(self.time.is_finite() && self.time >= 0.0) {
            return Err(format!("`time` must be a finite number >= 0, got {}", self.time));
        }
        if self.columns.is_empty() {
            return Ok(());
        }
        let Surface::Simulated { columns, .. } = self.surface else {
            return Err("`columns` (saved column state) needs a `Simulated` surface".into());
        };
        if self.columns.len() != columns as usize {
            return Err(format!("`columns` lists {} columns, the surface has {columns}", self.columns.len()));
        }
        let far = |h: f32| !(h.is_finite() && (h - self.level).abs() < 1e5);
        if let Some(i) = self.columns.iter().position(|&(h, v)| far(h) || !v.is_finite()) {
            return Err(format!("`columns`: column {i} must be finite and within 1e5 of the level"));
        }
        Ok(())
    }

    /// The water, in the saved state if there is one.
    pub fn to_water(&self) -> Water {
        let mut water = Water::new(self.params());
        water.state.time = self.time;
        if !self.columns.is_empty() {
            water.state.heights = self.columns.iter().map(|c| c.0).collect();
            water.state.velocities = self.columns.iter().map(|c| c.1).collect();
        }
        water
    }

    /// A live water: its parameters, and its state unless it is at rest.
    pub fn from_water(water: &Water) -> WaterSpec {
        let mut spec = WaterSpec::new(&water.params);
        spec.time = water.state.time;
        let level = water.params.level.to_bits();
        let at_rest = water.state.heights.iter().all(|h| h.to_bits() == level)
            && water.state.velocities.iter().all(|v| v.to_bits() == 0);
        if !at_rest {
            spec.columns = water.state.heights.iter().copied().zip(water.state.velocities.iter().copied()).collect();
        }
        spec
    }
}
