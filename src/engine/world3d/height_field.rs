//! A simulated 3D water surface: a height field of columns over the basin's rectangle, the
//! 2D world's spring columns (`engine::water::surface`, after Hoffman's "Make a Splash With
//! Dynamic 2D Water Effects") on a grid, for the polyhedral buoyancy of article 003
//! ("Buoyancy, Rigid Bodies and Water Surface").
//!
//! Column `(i, j)` stands at the centre of cell `(i, j)` of the region and owns its area
//! `A = dx·dz`. Each column has a height `η` and a vertical velocity, and is accelerated by
//!
//! `a = −stiffness·(η − η̄) + sₓ·(η₍ᵢ₋₁₎ + η₍ᵢ₊₁₎ − 2η) + s_z·(η₍ⱼ₋₁₎ + η₍ⱼ₊₁₎ − 2η)`,
//!
//! a spring to the rest height and the spread to the 4 neighbours (a neighbour missing at the
//! basin's edge pulls nothing: the walls reflect). `sₓ = spread` and `s_z = spread·(dx/dz)²`,
//! so waves run at `dx·√spread` m/s both ways, as in 2D. The **rest height** `η̄` is the mean
//! of the columns, the still level the water would have with the bodies in it: a spring to
//! the scene's `level` would drain the volume the bodies displace ([`super::displace`]);
//! to the mean, the springs' forces sum to zero and the columns' total never changes.
//! Damping is implicit (`v ← (v + h·a)/(1 + h·damping)`), then `η ← η + h·v` (semi-implicit
//! Euler, as in 2D).
//!
//! **Stability.** Semi-implicit Euler on `η'' = −K η` is stable when `h·√λ < 2` for the
//! largest eigenvalue `λ` of `K`; for this grid `λ ≤ stiffness + 4sₓ + 4s_z` (the 5-point
//! Laplacian's largest eigenvalue is 8 on a square grid). Each step is cut into as many equal
//! sub-steps as keep `h·√(stiffness + 4sₓ + 4s_z) ≤ 1` (twice the margin, as 2D keeps), and a
//! surface whose fastest rate exceeds [`MAX_SURFACE_RATE`] is refused by
//! [`Simulated3::validate`], so one step at the slowest `hz` (1) takes at most that many
//! sub-steps. Damping only shrinks the velocities, so it cannot break the bound.

use glam::{DVec2, Vec2};
use serde::{Deserialize, Serialize};

/// Most columns along one side of the grid.
pub const MAX_COLUMNS_PER_SIDE: u32 = 512;
/// Most columns in one grid.
pub const MAX_COLUMNS_3D: u32 = 65_536;
/// Largest `√(stiffness + 4sₓ + 4s_z)` accepted, rad/s (module docs: the stability bound).
pub const MAX_SURFACE_RATE: f32 = 2000.0;

/// The settings of a simulated surface (a basin's `surface: Simulated(...)`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Simulated3 {
    /// Columns along x and along z.
    pub columns: (u32, u32),
    /// Spring to the rest height, 1/s².
    pub stiffness: f32,
    /// Pull towards the neighbours' heights along x, 1/s² (waves run at `dx·√spread` m/s).
    pub spread: f32,
    /// Velocity damping, 1/s.
    pub damping: f32,
}

impl Simulated3 {
    /// The spread rates along x and z for cells of size `cell` (module docs).
    pub fn rates(&self, cell: Vec2) -> (f32, f32) {
        let aspect = cell.x / cell.y;
        (self.spread, self.spread * aspect * aspect)
    }

    /// `√(stiffness + 4sₓ + 4s_z)`: the fastest mode's angular frequency bound, rad/s.
    pub fn fastest_rate(&self, cell: Vec2) -> f32 {
        let (sx, sz) = self.rates(cell);
        (self.stiffness + 4.0 * sx + 4.0 * sz).max(0.0).sqrt()
    }

    /// Checks the numbers and the stability bound over a region of `size` (x, z); the message
    /// names the field in backticks.
    pub fn validate(&self, size: Vec2) -> Result<(), String> {
        let (nx, nz) = self.columns;
        let side = 2..=MAX_COLUMNS_PER_SIDE;
        if !(side.contains(&nx) && side.contains(&nz)) || nx * nz > MAX_COLUMNS_3D {
            return Err(format!(
                "`columns` must be 2 to {MAX_COLUMNS_PER_SIDE} along each side and at most {MAX_COLUMNS_3D} in all, \
                 got ({nx}, {nz})"
            ));
        }
        for (name, v, max) in
            [("stiffness", self.stiffness, 1e4), ("spread", self.spread, 1e6), ("damping", self.damping, 1e3)]
        {
            if !(v.is_finite() && (0.0..=max).contains(&v)) {
                return Err(format!("`{name}` must be a number in [0, {max}], got {v}"));
            }
        }
        let cell = size / Vec2::new(nx as f32, nz as f32);
        let rate = self.fastest_rate(cell);
        if rate.is_nan() || rate > MAX_SURFACE_RATE {
            return Err(format!(
                "`spread` and `stiffness` make the surface's fastest rate √(stiffness + 4·spread·(1 + (dx/dz)²)) = \
                 {rate} rad/s, above {MAX_SURFACE_RATE}: lower them or use fewer columns"
            ));
        }
        Ok(())
    }
}

/// The columns' state: heights, vertical velocities and the bodies' occupancy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeightField3 {
    pub settings: Simulated3,
    /// The region's `(x, z)` corner with the smallest coordinates, and one cell's size.
    pub min: Vec2,
    pub cell: Vec2,
    /// Column `(i, j)` is at index `j·nx + i`: its surface height (absolute y), and velocity.
    pub heights: Vec<f32>,
    pub velocities: Vec<f32>,
    /// How much of each column the dynamic bodies fill below its surface, metres
    /// ([`super::displace`]); what the next displacement is measured from.
    pub occupied: Vec<f32>,
}

impl HeightField3 {
    /// Still columns at `level` over the rectangle `min`–`max`.
    pub fn at_rest(settings: Simulated3, min: Vec2, max: Vec2, level: f32) -> HeightField3 {
        let (nx, nz) = settings.columns;
        let n = (nx * nz) as usize;
        let cell = (max - min) / Vec2::new(nx as f32, nz as f32);
        HeightField3 { settings, min, cell, heights: vec![level; n], velocities: vec![0.0; n], occupied: vec![0.0; n] }
    }

    pub fn nx(&self) -> usize {
        self.settings.columns.0 as usize
    }

    pub fn nz(&self) -> usize {
        self.settings.columns.1 as usize
    }

    /// Index of column `(i, j)`.
    #[inline]
    pub fn index(&self, i: usize, j: usize) -> usize {
        j * self.nx() + i
    }

    /// Where column `(i, j)` stands, `(x, z)`.
    pub fn column_xz(&self, i: usize, j: usize) -> Vec2 {
        self.min + self.cell * Vec2::new(i as f32 + 0.5, j as f32 + 0.5)
    }

    /// Area of one column, m².
    pub fn column_area(&self) -> f32 {
        self.cell.x * self.cell.y
    }

    /// The columns whose centres lie in the `(x, z)` box `lo`–`hi`, as index ranges (empty
    /// when the box misses the grid).
    pub fn columns_in(&self, lo: Vec2, hi: Vec2) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let range = |lo: f32, hi: f32, min: f32, cell: f32, n: usize| {
            let a = ((lo - min) / cell - 0.5).ceil().max(0.0);
            let b = ((hi - min) / cell - 0.5).floor() + 1.0;
            if !(a.is_finite() && b.is_finite()) || b <= a {
                return 0..0;
            }
            (a as usize).min(n)..(b.min(n as f32) as usize)
        };
        (range(lo.x, hi.x, self.min.x, self.cell.x, self.nx()), range(lo.y, hi.y, self.min.y, self.cell.y, self.nz()))
    }

    /// Bilinear interpolation of `values` (one per column) at `(x, z)`, clamped to the
    /// columns (outside the outer centres a value holds to the edge).
    fn interpolate(&self, values: &[f32], x: f32, z: f32) -> f32 {
        let axis = |p: f32, min: f32, cell: f32, n: usize| {
            let u = ((p - min) / cell - 0.5).clamp(0.0, (n - 1) as f32);
            let u = if u.is_finite() { u } else { 0.0 };
            let i = (u.floor() as usize).min(n - 2);
            (i, u - i as f32)
        };
        let (i, u) = axis(x, self.min.x, self.cell.x, self.nx());
        let (j, w) = axis(z, self.min.y, self.cell.y, self.nz());
        let at = |i: usize, j: usize| values[self.index(i, j)];
        let near = at(i, j) + u * (at(i + 1, j) - at(i, j));
        let far = at(i, j + 1) + u * (at(i + 1, j + 1) - at(i, j + 1));
        near + w * (far - near)
    }

    /// The surface's height at `(x, z)`.
    pub fn height_at(&self, x: f32, z: f32) -> f32 {
        self.interpolate(&self.heights, x, z)
    }

    /// The surface's vertical velocity at `(x, z)` (a height field's water moves up and down).
    pub fn velocity_at(&self, x: f32, z: f32) -> f32 {
        self.interpolate(&self.velocities, x, z)
    }

    /// The rest height: the mean of the columns (module docs).
    pub fn rest_height(&self) -> f32 {
        (self.heights.iter().map(|&h| h as f64).sum::<f64>() / self.heights.len().max(1) as f64) as f32
    }

    /// The water's volume above `floor`, m³: every column's height over the floor less what the
    /// bodies fill of it. Displacement and the surface's motion keep it (to rounding).
    pub fn water_volume(&self, floor: f32) -> f64 {
        let a = self.column_area() as f64;
        self.heights.iter().zip(&self.occupied).map(|(&h, &o)| a * (h as f64 - floor as f64 - o as f64)).sum()
    }

    /// The surface's energy per unit density: kinetic `½v²`, the springs' `½·stiffness·(η − η̄)²`
    /// and the spread's `½·s·(η − η')²` per neighbouring pair, each times the column area.
    pub fn energy(&self) -> f64 {
        let (nx, nz) = (self.nx(), self.nz());
        let (sx, sz) = self.settings.rates(self.cell);
        let rest = self.rest_height() as f64;
        let k = self.settings.stiffness as f64;
        let mut e = 0.0;
        for j in 0..nz {
            for i in 0..nx {
                let c = self.index(i, j);
                let (h, v) = (self.heights[c] as f64, self.velocities[c] as f64);
                e += 0.5 * v * v + 0.5 * k * (h - rest) * (h - rest);
                if i + 1 < nx {
                    e += 0.5 * sx as f64 * (self.heights[c + 1] as f64 - h).powi(2);
                }
                if j + 1 < nz {
                    e += 0.5 * sz as f64 * (self.heights[c + nx] as f64 - h).powi(2);
                }
            }
        }
        e * self.column_area() as f64
    }

    /// Sub-steps one step of `dt` takes (module docs: the stability bound).
    pub fn substeps(&self, dt: f32) -> usize {
        (dt * self.settings.fastest_rate(self.cell)).ceil().clamp(1.0, MAX_SURFACE_RATE) as usize
    }

    /// Advances the columns by `dt` (module docs). Columns that stopped being finite are put
    /// back at rest on the rest height.
    pub fn advance(&mut self, dt: f32) {
        let substeps = self.substeps(dt);
        let h = dt / substeps as f32;
        let (nx, nz) = (self.nx(), self.nz());
        let (sx, sz) = self.settings.rates(self.cell);
        let Simulated3 { stiffness, damping, .. } = self.settings;
        let mut accel = vec![0.0f32; self.heights.len()];
        for _ in 0..substeps {
            let rest = self.rest_height();
            let eta = &self.heights;
            for j in 0..nz {
                for i in 0..nx {
                    let c = j * nx + i;
                    let y = eta[c];
                    let mut a = -stiffness * (y - rest);
                    let mut pull = |s: f32, other: usize| a += s * (eta[other] - y);
                    if i > 0 {
                        pull(sx, c - 1);
                    }
                    if i + 1 < nx {
                        pull(sx, c + 1);
                    }
                    if j > 0 {
                        pull(sz, c - nx);
                    }
                    if j + 1 < nz {
                        pull(sz, c + nx);
                    }
                    accel[c] = a;
                }
            }
            for ((v, y), a) in self.velocities.iter_mut().zip(&mut self.heights).zip(&accel) {
                *v = (*v + h * a) / (1.0 + h * damping);
                *y += h * *v;
            }
        }
        self.repair();
    }

    /// Puts non-finite columns back at rest on the rest height of the finite ones.
    fn repair(&mut self) {
        if self.heights.iter().chain(&self.velocities).all(|x| x.is_finite()) {
            return;
        }
        let finite: Vec<f64> = self.heights.iter().filter(|h| h.is_finite()).map(|&h| h as f64).collect();
        let rest = if finite.is_empty() { 0.0 } else { (finite.iter().sum::<f64>() / finite.len() as f64) as f32 };
        for (h, v) in self.heights.iter_mut().zip(&mut self.velocities) {
            if !(h.is_finite() && v.is_finite()) {
                (*h, *v) = (rest, 0.0);
            }
        }
    }

    /// Least-squares plane `y = a + b·(x − x₀) + c·(z − z₀)` through the surface sampled on a
    /// 3×3 grid over the `(x, z)` box `lo`–`hi` (clamped to the region): the height `a` at the
    /// box's centre `(x₀, z₀)` and the slopes `(b, c)`. The samples sit symmetrically about
    /// the centre, so a still surface gives its level and zero slopes exactly.
    pub fn fitted_plane(&self, lo: Vec2, hi: Vec2) -> (Vec2, f32, Vec2) {
        let max = self.min + self.cell * Vec2::new(self.nx() as f32, self.nz() as f32);
        let (lo, hi) = (lo.clamp(self.min, max), hi.clamp(self.min, max));
        let center = 0.5 * (lo + hi);
        let half = (0.5 * (hi - lo)).as_dvec2();
        let (mut sum, mut sx, mut sz) = (0.0f64, 0.0f64, 0.0f64);
        for dj in [-1.0f64, 0.0, 1.0] {
            for di in [-1.0f64, 0.0, 1.0] {
                let p = center.as_dvec2() + half * DVec2::new(di, dj);
                let y = self.height_at(p.x as f32, p.y as f32) as f64;
                sum += y;
                sx += y * di;
                sz += y * dj;
            }
        }
        // Σ dᵢ² = 6 over the 9 samples (in units of the half extent).
        let slope = |s: f64, half: f64| if half > 0.0 { s / (6.0 * half) } else { 0.0 };
        let grad = DVec2::new(slope(sx, half.x), slope(sz, half.y)).as_vec2();
        (center, (sum / 9.0) as f32, grad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(columns: (u32, u32), stiffness: f32, spread: f32, damping: f32) -> HeightField3 {
        let s = Simulated3 { columns, stiffness, spread, damping };
        HeightField3::at_rest(s, Vec2::ZERO, Vec2::new(columns.0 as f32, columns.1 as f32) * 0.1, 1.0)
    }

    #[test]
    fn a_lone_disturbed_column_oscillates_at_the_spring_frequency() {
        // Without spread every column's distance from the (constant) mean obeys e'' = −k e:
        // the disturbed one crosses the rest height after a quarter period, π / (2·√k).
        let mut f = field((4, 4), 25.0, 0.0, 0.0);
        f.heights[5] = 1.16;
        let rest = f.rest_height();
        assert!((rest - 1.01).abs() < 1e-5);
        let dt = 1.0 / 600.0;
        let (mut steps, mut last) = (0usize, f.heights[5]);
        while f.heights[5] > rest {
            last = f.heights[5];
            f.advance(dt);
            steps += 1;
        }
        let t = steps as f32 * dt;
        assert!(last > rest && (t - std::f32::consts::PI / 10.0).abs() < 2.0 * dt, "t {t}");
        // A full period 2π/5 from the start it is back at its crest (no damping).
        let period = (2.0 * std::f32::consts::PI / 5.0 / dt).round() as usize;
        for _ in steps..period {
            f.advance(dt);
        }
        assert!((f.heights[5] - 1.16).abs() < 0.01, "{}", f.heights[5]);
    }

    #[test]
    fn a_bump_spreads_at_the_predicted_speed_and_keeps_the_volume() {
        // c = dx·√spread = 0.1·√400 = 2 m/s: after 1 s the front is ~2 m from the bump.
        let mut f = field((101, 101), 0.0, 400.0, 0.0);
        let centre = f.index(50, 50);
        f.heights[centre] = 1.5;
        let volume = f.water_volume(0.0);
        for _ in 0..60 {
            f.advance(1.0 / 60.0);
        }
        let front = (51..101).filter(|&i| (f.heights[f.index(i, 50)] - 1.0).abs() > 1e-4).max().unwrap();
        assert!(((front - 50) as f32 * 0.1 - 2.0).abs() < 0.5, "front {}", (front - 50) as f32 * 0.1);
        let side = (51..101).filter(|&j| (f.heights[f.index(50, j)] - 1.0).abs() > 1e-4).max().unwrap();
        assert_eq!(front, side, "waves run alike along x and z");
        assert!(((f.water_volume(0.0) - volume) / volume).abs() < 1e-6);
    }

    #[test]
    fn energy_never_grows_with_damping_and_the_surface_settles() {
        let mut f = field((30, 20), 4.0, 300.0, 0.5);
        for (c, h) in f.heights.iter_mut().enumerate() {
            *h += 0.2 * ((c * 7919 % 101) as f32 / 101.0 - 0.5);
        }
        let volume = f.water_volume(-2.0);
        let start = f.energy();
        let mut second = start;
        for _ in 0..20 {
            for _ in 0..60 {
                f.advance(1.0 / 60.0);
            }
            let e = f.energy();
            assert!(e <= second, "energy grew: {second} -> {e}");
            second = e;
        }
        assert!(second < 1e-3 * start, "settled: {second} of {start}");
        assert!(((f.water_volume(-2.0) - volume) / volume).abs() < 1e-6);
    }

    #[test]
    fn stiff_fine_grids_stay_finite_at_one_hertz_and_bad_settings_are_refused() {
        let mut f = field((16, 16), 1e4, 1e5, 0.0);
        f.heights[10] = 50.0;
        for _ in 0..5 {
            f.advance(1.0);
        }
        assert!(f.heights.iter().all(|h| h.is_finite() && (h - 1.0).abs() <= 60.0));
        let ok = Simulated3 { columns: (40, 30), stiffness: 1.0, spread: 144.0, damping: 0.5 };
        let size = Vec2::new(8.0, 6.0);
        assert!(ok.validate(size).is_ok());
        let bad = |s: Simulated3| s.validate(size).unwrap_err();
        assert!(bad(Simulated3 { columns: (1, 30), ..ok }).starts_with("`columns`"));
        assert!(bad(Simulated3 { columns: (512, 512), ..ok }).starts_with("`columns`"));
        assert!(bad(Simulated3 { spread: f32::NAN, ..ok }).starts_with("`spread`"));
        assert!(bad(Simulated3 { damping: -1.0, ..ok }).starts_with("`damping`"));
        assert!(bad(Simulated3 { stiffness: 1e30, ..ok }).starts_with("`stiffness`"));
        assert!(bad(Simulated3 { spread: 1e6, ..ok }).contains("fastest rate"));
    }

    #[test]
    fn a_still_surface_fits_its_level_exactly_and_a_slope_is_found() {
        let mut f = field((20, 20), 0.0, 1.0, 0.0);
        let (c, h, g) = f.fitted_plane(Vec2::new(0.3, 0.4), Vec2::new(1.1, 0.9));
        assert_eq!((h, g), (1.0, Vec2::ZERO));
        assert!((c - Vec2::new(0.7, 0.65)).length() < 1e-6);
        for j in 0..20 {
            for i in 0..20 {
                let p = f.column_xz(i, j);
                let k = f.index(i, j);
                f.heights[k] = 1.0 + 0.5 * p.x - 0.25 * p.y;
            }
        }
        let (c, h, g) = f.fitted_plane(Vec2::new(0.5, 0.5), Vec2::new(1.5, 1.2));
        assert!((h - (1.0 + 0.5 * c.x - 0.25 * c.y)).abs() < 1e-5 && (g - Vec2::new(0.5, -0.25)).length() < 1e-4);
        assert_eq!(f.columns_in(Vec2::new(0.12, -3.0), Vec2::new(0.36, 0.06)), (1..4, 0..1));
    }
}
