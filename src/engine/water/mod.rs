//! Water: a surface over an x range (flat, prescribed waves, or a simulated height field of
//! spring columns), and the buoyancy and drag on what floats in it (003 article, "Buoyancy,
//! Rigid Bodies and Water Surface": clip each body by the surface, and the submerged
//! polygon's area and centroid give the buoyant force and where it acts).
//!
//! - `surface`: the surface's height and vertical velocity at any x, the polyline under a
//!   body, and the spring columns of [`Surface::Simulated`].
//! - `buoyancy`: a body's submerged part (Sutherland–Hodgman against the surface polyline,
//!   circular segments for circles) and the forces on it, as a [`BuoyancyReport`].
//! - `drag`: the per-edge pressure drag with its no-reversal clamp.
//! - `basin`: the water's bottom when the scene gives none: the floor of the static bodies'
//!   basin under it.
//! - `draw`: the `Water`, `Submerged` and `Buoyancy` debug layers.
//!
//! The water assumes gravity along −y (its surface is a height field `y = η(x)`); a
//! horizontal component of gravity still pulls the bodies but not the water.

pub mod basin;
pub mod buoyancy;
pub mod drag;
pub mod draw;
pub mod surface;

pub use buoyancy::{BuoyancyReport, DragArrow};
pub use surface::SurfaceState;

use crate::engine::shape::hull::MAX_COORDINATE;
use serde::{Deserialize, Serialize};

/// One sinusoid of a [`Surface::Waves`] surface: `amplitude · sin(2π/wavelength · (x − speed·t))`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wave {
    /// Metres above and below the level.
    pub amplitude: f32,
    /// Metres from crest to crest.
    pub wavelength: f32,
    /// Metres per second along +x (negative: along −x).
    pub speed: f32,
}

/// The shape of the water's surface.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Surface {
    /// Still water at `level`.
    #[default]
    Flat,
    /// A sum of travelling sine waves about `level`, prescribed (bodies do not change it).
    Waves(Vec<Wave>),
    /// The classic spring-column water (Michael Hoffman, "Make a Splash With Dynamic 2D Water
    /// Effects", Tuts+ 2012): `columns` columns spread evenly over the region, each pulled to
    /// the level by a spring of `stiffness` (1/s²), pulled towards its neighbours' heights by
    /// `spread` (1/s², so waves run at `spacing·√spread` m/s) and slowed by `damping` (1/s).
    /// Bodies entering and moving push the columns; the waves then move the bodies.
    Simulated { columns: u32, stiffness: f32, spread: f32, damping: f32 },
}

/// Everything that defines a body of water (the scene's `water` field).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaterParams {
    /// Height of the still surface, metres.
    pub level: f32,
    /// Mass per square metre (bodies' densities are in the same unit; 1 is "water").
    pub density: f32,
    /// Pressure drag coefficient of submerged edges facing the flow (see `drag`).
    pub linear_drag: f32,
    /// Angular drag, 1/s per unit of submerged mass ratio (see `buoyancy`).
    pub angular_drag: f32,
    /// The x range the water fills: `(x_min, x_max)`.
    pub region: (f32, f32),
    pub surface: Surface,
    /// The water's bottom, metres: nothing below it is in the water. `None`: the floor of the
    /// basin the static bodies make under it ([`basin::basin_floor`]), or no bottom at all
    /// where they leave the basin open.
    #[serde(default)]
    pub bottom: Option<f32>,
}

/// Most waves a `Waves` surface may sum.
pub const MAX_WAVES: usize = 16;
/// Most columns a `Simulated` surface may have.
pub const MAX_COLUMNS: u32 = 4096;

impl WaterParams {
    /// Still water of density 1 without drag over `region`.
    pub fn flat(level: f32, region: (f32, f32)) -> WaterParams {
        WaterParams {
            level,
            density: 1.0,
            linear_drag: 0.0,
            angular_drag: 0.0,
            region,
            surface: Surface::Flat,
            bottom: None,
        }
    }

    /// Checks every range; the message names the field in backticks.
    pub fn validate(&self) -> Result<(), String> {
        let check = |ok: bool, msg: String| if ok { Ok(()) } else { Err(msg) };
        let coordinate = |v: f32| v.is_finite() && v.abs() < MAX_COORDINATE;
        let (lo, hi) = self.region;
        check(
            coordinate(self.level),
            format!("`level` must be a finite number below 1e5 in size, got {}", self.level),
        )?;
        check(
            self.density.is_finite() && self.density > 0.0 && self.density <= 1e6,
            format!("`density` must be a number in (0, 1e6], got {}", self.density),
        )?;
        for (name, v) in [("linear_drag", self.linear_drag), ("angular_drag", self.angular_drag)] {
            check(v.is_finite() && (0.0..=1e4).contains(&v), format!("`{name}` must be in [0, 1e4], got {v}"))?;
        }
        check(
            coordinate(lo) && coordinate(hi) && hi - lo >= 0.01,
            format!(
                "`region` must be (x_min, x_max) with x_min at least 0.01 below x_max, within 1e5, got ({lo}, {hi})"
            ),
        )?;
        if let Some(b) = self.bottom {
            check(
                coordinate(b) && b < self.level,
                format!("`bottom` must be a finite number below `level` ({}), got {b}", self.level),
            )?;
        }
        match &self.surface {
            Surface::Flat => Ok(()),
            Surface::Waves(waves) => {
                check(
                    !waves.is_empty() && waves.len() <= MAX_WAVES,
                    format!("`surface`: `Waves` needs 1 to {MAX_WAVES} waves, got {}", waves.len()),
                )?;
                for (i, w) in waves.iter().enumerate() {
                    let ok = w.amplitude.is_finite()
                        && (0.0..=1e3).contains(&w.amplitude)
                        && w.wavelength.is_finite()
                        && (0.01..=1e5).contains(&w.wavelength)
                        && w.speed.is_finite()
                        && w.speed.abs() <= 1e3;
                    check(
                        ok,
                        format!(
                            "`surface`: wave {i} needs amplitude in [0, 1e3], wavelength in [0.01, 1e5] and |speed| \
                             <= 1e3, got ({}, {}, {})",
                            w.amplitude, w.wavelength, w.speed
                        ),
                    )?;
                }
                Ok(())
            }
            Surface::Simulated { columns, stiffness, spread, damping } => {
                check(
                    (2..=MAX_COLUMNS).contains(columns),
                    format!("`surface`: `columns` must be between 2 and {MAX_COLUMNS}, got {columns}"),
                )?;
                for (name, v, max) in
                    [("stiffness", *stiffness, 1e4), ("spread", *spread, 1e5), ("damping", *damping, 1e3)]
                {
                    check(
                        v.is_finite() && (0.0..=max).contains(&v),
                        format!("`surface`: `{name}` must be in [0, {max}], got {v}"),
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// A body of water in a world: its parameters, the surface's state, and what it did to each
/// body at the last step (or refresh).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Water {
    pub params: WaterParams,
    pub state: SurfaceState,
    /// One report per dynamic body touching the water, sorted by body index. Recomputed at
    /// the end of every step and by `World::refresh_water`.
    #[serde(skip)]
    pub reports: Vec<BuoyancyReport>,
    /// The bottom in force: `params.bottom`, or the basin's floor the world found with the
    /// reports (`World::water_bottom`); `None` when the water has no bottom.
    #[serde(skip)]
    pub bottom: Option<f32>,
}

impl Water {
    /// Water at rest (simulated columns at the level, the waves' clock at 0).
    pub fn new(params: WaterParams) -> Water {
        let state = SurfaceState::at_rest(&params);
        let bottom = params.bottom;
        Water { params, state, reports: Vec::new(), bottom }
    }

    /// The report of body `index`, if it touches the water.
    pub fn report(&self, index: usize) -> Option<&BuoyancyReport> {
        self.reports.binary_search_by_key(&index, |r| r.body).ok().map(|k| &self.reports[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_field() {
        let ok = WaterParams::flat(0.0, (-5.0, 5.0));
        assert!(ok.validate().is_ok());
        let bad = |p: WaterParams| p.validate().unwrap_err();
        assert!(bad(WaterParams { density: 0.0, ..ok.clone() }).starts_with("`density`"));
        assert!(bad(WaterParams { level: f32::NAN, ..ok.clone() }).starts_with("`level`"));
        assert!(bad(WaterParams { region: (1.0, 1.0), ..ok.clone() }).starts_with("`region`"));
        assert!(bad(WaterParams { linear_drag: -1.0, ..ok.clone() }).starts_with("`linear_drag`"));
        assert!(
            bad(WaterParams { bottom: Some(0.0), ..ok.clone() }).starts_with("`bottom` must be a finite number below")
        );
        assert!(bad(WaterParams { bottom: Some(f32::NAN), ..ok.clone() }).starts_with("`bottom`"));
        assert!(WaterParams { bottom: Some(-3.0), ..ok.clone() }.validate().is_ok());
        let waves = |w: Vec<Wave>| WaterParams { surface: Surface::Waves(w), ..ok.clone() };
        assert!(bad(waves(vec![])).contains("1 to 16 waves"));
        let w = Wave { amplitude: 0.1, wavelength: 0.0, speed: 1.0 };
        assert!(bad(waves(vec![w])).contains("wave 0"));
        let sim = |columns, spread| WaterParams {
            surface: Surface::Simulated { columns, stiffness: 1.0, spread, damping: 0.1 },
            ..ok.clone()
        };
        assert!(sim(100, 10.0).validate().is_ok());
        assert!(bad(sim(1, 10.0)).contains("`columns`"));
        assert!(bad(sim(10, f32::INFINITY)).contains("`spread`"));
    }
}
