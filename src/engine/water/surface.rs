//! The water's surface as a height field `y = η(x)` over the region: its height and vertical
//! velocity anywhere, the polyline under a body, and the time step of the spring columns
//! (Hoffman's "Make a Splash": a spring to the level per column, neighbours pulling on each
//! other's heights, damping).
//!
//! Hoffman's constants are per frame; here they are rates (per second²), integrated by
//! semi-implicit Euler with implicit damping in as many equal sub-steps as keep
//! `h·√(stiffness + 4·spread) <= 1` (the fastest mode of the chain), so the water behaves the
//! same at any `hz` and never blows up.

use super::{Surface, Water, WaterParams};
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::f64::consts::TAU;

/// The surface's changing part: the waves' clock and the simulated columns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SurfaceState {
    /// Seconds since the water started (moves `Waves`).
    pub time: f64,
    /// `Simulated`: each column's surface height (absolute y) and vertical velocity; column
    /// `i` stands at `x_min + i · spacing`, the first and last at the region's ends.
    pub heights: Vec<f32>,
    pub velocities: Vec<f32>,
}

impl SurfaceState {
    /// Columns at the level, at rest; the clock at zero.
    pub fn at_rest(params: &WaterParams) -> SurfaceState {
        let n = match params.surface {
            Surface::Simulated { columns, .. } => columns as usize,
            _ => 0,
        };
        SurfaceState { time: 0.0, heights: vec![params.level; n], velocities: vec![0.0; n] }
    }
}

/// Most polyline samples under one body for `Waves` (beyond, samples spread out).
const MAX_WAVE_SAMPLES: usize = 256;

impl Water {
    /// Distance between neighbouring columns (`Simulated`), or 0.
    pub fn column_spacing(&self) -> f32 {
        let n = self.state.heights.len();
        if n < 2 {
            return 0.0;
        }
        (self.params.region.1 - self.params.region.0) / (n - 1) as f32
    }

    /// The x of column `i`.
    pub fn column_x(&self, i: usize) -> f32 {
        self.params.region.0 + i as f32 * self.column_spacing()
    }

    /// Column interval holding `x` (clamped to the region) and the weight of its right end.
    fn column_at(&self, x: f32) -> (usize, f32) {
        let n = self.state.heights.len();
        let spacing = self.column_spacing();
        let u = ((x - self.params.region.0) / spacing).clamp(0.0, (n - 1) as f32);
        let i = (u.floor() as usize).min(n - 2);
        (i, (u - i as f32).clamp(0.0, 1.0))
    }

    /// The surface's height at `x`.
    pub fn height_at(&self, x: f32) -> f32 {
        let level = self.params.level;
        match &self.params.surface {
            Surface::Flat => level,
            Surface::Waves(waves) => {
                let t = self.state.time;
                let sum: f64 = waves
                    .iter()
                    .map(|w| w.amplitude as f64 * (TAU / w.wavelength as f64 * (x as f64 - w.speed as f64 * t)).sin())
                    .sum();
                level + sum as f32
            }
            Surface::Simulated { .. } if self.state.heights.len() >= 2 => {
                let (i, u) = self.column_at(x);
                let h = &self.state.heights;
                h[i] + u * (h[i + 1] - h[i])
            }
            Surface::Simulated { .. } => level,
        }
    }

    /// The surface's vertical velocity at `x`, ∂η/∂t (the water's velocity in this model:
    /// a height field's columns only move up and down).
    pub fn vertical_velocity_at(&self, x: f32) -> f32 {
        match &self.params.surface {
            Surface::Flat => 0.0,
            Surface::Waves(waves) => {
                let t = self.state.time;
                let sum: f64 = waves
                    .iter()
                    .map(|w| {
                        let k = TAU / w.wavelength as f64;
                        -(w.amplitude as f64) * k * w.speed as f64 * (k * (x as f64 - w.speed as f64 * t)).cos()
                    })
                    .sum();
                sum as f32
            }
            Surface::Simulated { .. } if self.state.velocities.len() >= 2 => {
                let (i, u) = self.column_at(x);
                let v = &self.state.velocities;
                v[i] + u * (v[i + 1] - v[i])
            }
            Surface::Simulated { .. } => 0.0,
        }
    }

    /// The surface polyline from `x0` to `x1` (within the region), into `out`: both ends and
    /// every column or wave sample between them, left to right. A flat surface is one segment.
    pub fn surface_polyline(&self, x0: f32, x1: f32, out: &mut Vec<Vec2>) {
        out.clear();
        out.push(Vec2::new(x0, self.height_at(x0)));
        match &self.params.surface {
            Surface::Flat => {}
            Surface::Waves(waves) => {
                let shortest = waves.iter().map(|w| w.wavelength).fold(f32::MAX, f32::min);
                let count = ((x1 - x0) / (shortest / 16.0)).ceil();
                let count = if count.is_finite() { (count as usize).clamp(1, MAX_WAVE_SAMPLES) } else { 1 };
                for k in 1..count {
                    let x = x0 + (x1 - x0) * k as f32 / count as f32;
                    out.push(Vec2::new(x, self.height_at(x)));
                }
            }
            Surface::Simulated { .. } => {
                let n = self.state.heights.len();
                if n >= 2 {
                    let (first, _) = self.column_at(x0);
                    for i in first + 1..n {
                        let x = self.column_x(i);
                        if x >= x1 {
                            break;
                        }
                        if x > x0 {
                            out.push(Vec2::new(x, self.state.heights[i]));
                        }
                    }
                }
            }
        }
        out.push(Vec2::new(x1, self.height_at(x1)));
    }

    /// Advances the surface by `dt`: the waves' clock, and the spring columns (see the module
    /// docs). Columns that stopped being finite are put back at rest on the level.
    pub fn advance_surface(&mut self, dt: f32) {
        self.state.time += dt as f64;
        let Surface::Simulated { stiffness, spread, damping, .. } = self.params.surface else { return };
        let level = self.params.level;
        let fastest = (stiffness + 4.0 * spread).max(0.0).sqrt();
        let substeps = (dt * fastest).ceil().clamp(1.0, 1024.0) as usize;
        let h = dt / substeps as f32;
        let (heights, velocities) = (&mut self.state.heights, &mut self.state.velocities);
        let n = heights.len().min(velocities.len());
        let mut accel = vec![0.0f32; n];
        for _ in 0..substeps {
            for i in 0..n {
                let y = heights[i];
                let mut a = -stiffness * (y - level);
                if i > 0 {
                    a += spread * (heights[i - 1] - y);
                }
                if i + 1 < n {
                    a += spread * (heights[i + 1] - y);
                }
                accel[i] = a;
            }
            for i in 0..n {
                velocities[i] = (velocities[i] + h * accel[i]) / (1.0 + h * damping);
                heights[i] += h * velocities[i];
            }
        }
        for i in 0..n {
            if !(heights[i].is_finite() && velocities[i].is_finite()) {
                heights[i] = level;
                velocities[i] = 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::water::Wave;

    fn simulated(columns: u32, stiffness: f32, spread: f32, damping: f32) -> Water {
        Water::new(WaterParams {
            surface: Surface::Simulated { columns, stiffness, spread, damping },
            ..WaterParams::flat(1.0, (0.0, 10.0))
        })
    }

    #[test]
    fn columns_interpolate_and_polylines_hold_the_columns_between_the_ends() {
        let mut w = simulated(11, 10.0, 100.0, 0.0);
        w.state.heights[3] = 2.0;
        assert_eq!(w.column_spacing(), 1.0);
        assert_eq!(w.height_at(3.0), 2.0);
        assert!((w.height_at(2.5) - 1.5).abs() < 1e-6);
        assert_eq!(w.height_at(-5.0), 1.0, "clamped to the region");
        let mut line = Vec::new();
        w.surface_polyline(2.5, 4.2, &mut line);
        let xs: Vec<f32> = line.iter().map(|p| p.x).collect();
        assert_eq!(xs, [2.5, 3.0, 4.0, 4.2]);
        assert_eq!(line[1].y, 2.0);
        w.surface_polyline(3.0, 4.0, &mut line);
        assert_eq!(line.len(), 2, "ends on columns are not repeated");
    }

    #[test]
    fn a_lone_column_oscillates_at_its_spring_frequency() {
        // Without spread each column is a harmonic oscillator: √stiffness rad/s.
        let mut w = simulated(2, 25.0, 0.0, 0.0);
        w.state.heights = vec![1.1, 1.1];
        let dt = 1.0 / 600.0;
        let mut t = 0.0;
        let mut last = w.state.heights[0];
        // First downward crossing of the level: a quarter period, π / (2·5) s.
        while w.state.heights[0] > 1.0 {
            last = w.state.heights[0];
            w.advance_surface(dt);
            t += dt;
        }
        assert!(last > 1.0 && (t - std::f32::consts::PI / 10.0).abs() < 2.0 * dt, "t {t}");
    }

    #[test]
    fn a_bump_spreads_as_waves_at_the_predicted_speed_and_damping_settles_it() {
        // c = spacing·√spread = 0.1·√400 = 2 m/s: after 1 s the front is 2 m from the bump.
        let mut w = simulated(101, 0.0, 400.0, 0.0);
        w.state.heights[50] = 1.5;
        for _ in 0..60 {
            w.advance_surface(1.0 / 60.0);
        }
        let disturbed = |w: &Water, i: usize| (w.state.heights[i] - 1.0).abs() > 1e-3;
        let front = (51..101).filter(|&i| disturbed(&w, i)).max().unwrap();
        assert!((front as f32 * 0.1 - 5.0 - 2.0).abs() < 0.5, "front at {}", front as f32 * 0.1);
        let mut d = simulated(101, 5.0, 400.0, 2.0);
        d.state.heights[50] = 1.5;
        for _ in 0..1200 {
            d.advance_surface(1.0 / 60.0);
        }
        assert!(d.state.heights.iter().all(|h| (h - 1.0).abs() < 1e-3));
    }

    #[test]
    fn stiff_columns_stay_finite_at_one_hertz() {
        let mut w = simulated(64, 1e4, 1e5, 0.0);
        w.state.heights[10] = 50.0;
        for _ in 0..20 {
            w.advance_surface(1.0);
        }
        assert!(w.state.heights.iter().all(|h| h.is_finite() && (h - 1.0).abs() <= 60.0));
    }

    #[test]
    fn waves_travel_and_their_velocity_is_the_time_derivative() {
        let wave = Wave { amplitude: 0.5, wavelength: 4.0, speed: 2.0 };
        let mut w =
            Water::new(WaterParams { surface: Surface::Waves(vec![wave]), ..WaterParams::flat(0.0, (-9.0, 9.0)) });
        assert!((w.height_at(1.0) - 0.5).abs() < 1e-6, "crest at a quarter wavelength");
        let (h0, v0) = (w.height_at(0.3), w.vertical_velocity_at(0.3));
        w.advance_surface(1e-3);
        assert!(((w.height_at(0.3) - h0) / 1e-3 - v0).abs() < 1e-2);
        w.advance_surface(1.0 - 1e-3);
        assert!((w.height_at(3.0) - 0.5).abs() < 1e-5, "the crest moved 2 m in 1 s");
        let mut line = Vec::new();
        w.surface_polyline(0.0, 2.0, &mut line);
        assert_eq!(line.len(), 9, "16 samples per wavelength");
    }
}
