//! Water basins: a surface at `level`, flat or a sum of moving waves (article 003's slides,
//! "Buoyancy, Rigid Bodies and Water Surface"), over a rectangle of the xz plane (or
//! everywhere). y is up. Each wave is `A sin(k (d·(x, z)) − ω t + φ)` with `k = 2π / λ` and,
//! unless a speed is given, deep-water dispersion `ω = √(g k)`. A body floats on the **local
//! plane** of the surface at its centre of mass: through the surface point above it, normal to
//! the surface there (`(−∂h/∂x, 1, −∂h/∂z)`, normalized). Drag acts relative to the water's
//! own motion, the linear (Airy) deep-water orbital velocity: `A ω sin θ` along the direction of
//! travel and `−A ω cos θ` upwards at the surface, decaying as `e^{k z}` below it.

use super::height_field::Simulated3;
use crate::engine::hull3d::Plane;
use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// One travelling sine wave.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wave {
    /// Height of a crest above the level, metres.
    pub amplitude: f32,
    pub wavelength: f32,
    /// Direction of travel in the xz plane, degrees from +x towards +z.
    #[serde(default)]
    pub direction_degrees: f32,
    #[serde(default)]
    pub phase_degrees: f32,
    /// Phase speed in m/s; `None`: deep-water dispersion from gravity.
    #[serde(default)]
    pub speed: Option<f32>,
}

impl Wave {
    pub fn wavenumber(&self) -> f32 {
        std::f32::consts::TAU / self.wavelength
    }

    /// Angular frequency for gravity magnitude `g`.
    pub fn angular_frequency(&self, g: f32) -> f32 {
        let k = self.wavenumber();
        self.speed.map_or((g * k).sqrt(), |c| c * k)
    }

    fn direction(&self) -> Vec2 {
        let a = self.direction_degrees.to_radians();
        Vec2::new(a.cos(), a.sin())
    }

    /// Height above the level and its gradient `(∂h/∂x, ∂h/∂z)` at `(x, z)`, time `t`.
    fn sample(&self, xz: Vec2, t: f64, g: f32) -> (f32, Vec2) {
        let (k, d) = (self.wavenumber() as f64, self.direction());
        let w = self.angular_frequency(g) as f64;
        let phase = k * d.dot(xz) as f64 - w * t + (self.phase_degrees as f64).to_radians();
        let (s, c) = phase.sin_cos();
        (self.amplitude * s as f32, d * (self.amplitude * self.wavenumber() * c as f32))
    }
}

/// An axis-aligned rectangle of the xz plane.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    /// `(x, z)` corners.
    pub min: Vec2,
    pub max: Vec2,
}

/// How a basin's surface moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Surface3 {
    /// The level plus the sum of the basin's `waves` (flat without any); bodies do not change it.
    #[default]
    Analytic,
    /// A height field of spring columns over the basin's `region` ([`super::height_field`]):
    /// bodies push it and ride it; the `waves` are not used.
    Simulated { columns: (u32, u32), stiffness: f32, spread: f32, damping: f32 },
}

impl Surface3 {
    /// The simulated surface's settings, if it is one.
    pub fn simulated(&self) -> Option<Simulated3> {
        match *self {
            Surface3::Analytic => None,
            Surface3::Simulated { columns, stiffness, spread, damping } => {
                Some(Simulated3 { columns, stiffness, spread, damping })
            }
        }
    }
}

/// A body of water.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Water3 {
    pub name: String,
    /// Mean surface height, metres.
    pub level: f32,
    /// kg/m³.
    pub density: f32,
    /// Where the water is (xz); everywhere if `None`.
    pub region: Option<Region>,
    pub waves: Vec<Wave>,
    /// Drag rates, 1/s: a fully submerged body loses this fraction of its velocity (linear) and
    /// spin (angular) per second, less in proportion when partly submerged.
    pub linear_drag: f32,
    pub angular_drag: f32,
    /// Analytic (level and waves) or simulated (columns the bodies push).
    #[serde(default)]
    pub surface: Surface3,
}

impl Water3 {
    /// Flat water at `level` everywhere, with density 1000 and drag 1/s.
    pub fn flat(level: f32) -> Water3 {
        Water3 {
            name: String::new(),
            level,
            density: 1000.0,
            region: None,
            waves: Vec::new(),
            linear_drag: 1.0,
            angular_drag: 1.0,
            surface: Surface3::Analytic,
        }
    }

    /// Whether the point's `(x, z)` lies over this water.
    pub fn covers(&self, p: Vec3) -> bool {
        self.region.is_none_or(|r| p.x >= r.min.x && p.x <= r.max.x && p.z >= r.min.y && p.z <= r.max.y)
    }

    /// Surface height and gradient at `(x, z)`, time `t`, gravity magnitude `g`.
    pub fn surface(&self, x: f32, z: f32, t: f64, g: f32) -> (f32, Vec2) {
        let xz = Vec2::new(x, z);
        self.waves.iter().fold((self.level, Vec2::ZERO), |(h, grad), w| {
            let (dh, dg) = w.sample(xz, t, g);
            (h + dh, grad + dg)
        })
    }

    /// The water's velocity at `p` (orbital motion of the waves; zero for flat water), taken at
    /// the surface for points above it.
    pub fn velocity(&self, p: Vec3, t: f64, g: f32) -> Vec3 {
        let (h, _) = self.surface(p.x, p.z, t, g);
        let depth = (p.y - h).min(0.0);
        let xz = Vec2::new(p.x, p.z);
        self.waves.iter().fold(Vec3::ZERO, |v, wave| {
            let (k, d) = (wave.wavenumber(), wave.direction());
            let w = wave.angular_frequency(g);
            let phase = k as f64 * d.dot(xz) as f64 - w as f64 * t + (wave.phase_degrees as f64).to_radians();
            let (sin, cos) = phase.sin_cos();
            let speed = wave.amplitude * w * (k * depth).exp();
            v + Vec3::new(d.x * speed * sin as f32, -speed * cos as f32, d.y * speed * sin as f32)
        })
    }

    /// The local plane of the surface above or below `p` (normal pointing up, out of the water).
    pub fn local_plane(&self, p: Vec3, t: f64, g: f32) -> Plane {
        let (h, grad) = self.surface(p.x, p.z, t, g);
        let n = Vec3::new(-grad.x, 1.0, -grad.y).normalize();
        Plane::from_point_normal(Vec3::new(p.x, h, p.z), n)
    }

    /// Checks the numbers; the message names the field.
    pub fn validate(&self) -> Result<(), String> {
        let positive = |name: &str, v: f32| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("`{name}` must be a finite number > 0, got {v}"))
            }
        };
        if !self.level.is_finite() {
            return Err(format!("`level` must be a finite number, got {}", self.level));
        }
        positive("density", self.density)?;
        for (name, v) in [("linear_drag", self.linear_drag), ("angular_drag", self.angular_drag)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("`{name}` must be a finite number >= 0, got {v}"));
            }
        }
        if let Some(r) = self.region {
            if !(r.min.is_finite() && r.max.is_finite() && r.min.x < r.max.x && r.min.y < r.max.y) {
                return Err("`region` needs finite corners with `min` below `max` in x and z".to_string());
            }
        }
        for w in &self.waves {
            positive("wavelength", w.wavelength)?;
            if !(w.amplitude.is_finite() && w.amplitude >= 0.0) {
                return Err(format!("`amplitude` must be a finite number >= 0, got {}", w.amplitude));
            }
            if !(w.direction_degrees.is_finite() && w.phase_degrees.is_finite()) {
                return Err("wave angles must be finite".to_string());
            }
            if let Some(c) = w.speed {
                positive("speed", c)?;
            }
        }
        if let Some(s) = self.surface.simulated() {
            let Some(r) = self.region else {
                return Err("`surface`: a simulated surface needs a `region` (the basin's rectangle)".to_string());
            };
            s.validate(r.max - r.min)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_move_and_tilt_the_local_plane() {
        let mut w = Water3::flat(1.0);
        let flat = w.local_plane(Vec3::new(3.0, -2.0, 1.0), 0.0, 10.0);
        assert_eq!((flat.n, flat.d), (Vec3::Y, 1.0));
        w.waves.push(Wave { amplitude: 0.2, wavelength: 4.0, direction_degrees: 0.0, phase_degrees: 0.0, speed: None });
        // At x = 0, t = 0 the wave crosses the level going up: slope A k along +x.
        let (h, g) = w.surface(0.0, 5.0, 0.0, 10.0);
        assert!((h - 1.0).abs() < 1e-6 && (g.x - 0.2 * std::f32::consts::TAU / 4.0).abs() < 1e-5 && g.y == 0.0);
        let p = w.local_plane(Vec3::ZERO, 0.0, 10.0);
        assert!(p.n.x < 0.0 && p.n.y > 0.9);
        // A quarter period later the crest (x = λ/4 at t = 0) has moved on by a quarter wave.
        let period = std::f32::consts::TAU / w.waves[0].angular_frequency(10.0);
        let (h1, _) = w.surface(2.0, 0.0, 0.25 * period as f64, 10.0);
        assert!((h1 - 1.2).abs() < 1e-4, "{h1}");
        assert!(w.validate().is_ok());
        // The surface rises at x = 0, t = 0 (it moves with the water): ∂h/∂t = −A ω cos(−0)·(−1).
        let v = w.velocity(Vec3::new(0.0, 1.0, 0.0), 0.0, 10.0);
        let omega = w.waves[0].angular_frequency(10.0);
        assert!((v.y + 0.2 * omega).abs() < 1e-5 && v.x.abs() < 1e-5, "{v}");
        let deep = w.velocity(Vec3::new(0.0, -3.0, 0.0), 0.0, 10.0);
        assert!(deep.length() < 0.02 * v.length(), "orbits shrink with depth");
        w.waves[0].wavelength = 0.0;
        assert!(w.validate().unwrap_err().contains("wavelength"));
    }
}
