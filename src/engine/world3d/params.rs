//! Every setting of the 3D world in one struct, editable live.

use crate::engine::hull3d::SatConfig;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Which hull SAT finds contacts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SatChoice {
    /// The local-frame SAT with Gauss-map pruning and the support bound (`sat_local`).
    #[default]
    Fast,
    /// Full supports on every edge pair that forms a Minkowski face or comes near one, with a
    /// wide guard band (`SatConfig::GUARDED`, local frame).
    Robust,
    /// Article 001's code to the letter (on moved hulls; no speculative margin).
    Article,
}

impl SatChoice {
    pub const ALL: [SatChoice; 3] = [SatChoice::Fast, SatChoice::Robust, SatChoice::Article];

    /// The mode's name in the panel.
    pub fn label(self) -> &'static str {
        match self {
            SatChoice::Fast => "Fast",
            SatChoice::Robust => "Robust",
            SatChoice::Article => "Article",
        }
    }

    pub fn config(self) -> SatConfig {
        match self {
            SatChoice::Fast => SatConfig::FAST,
            SatChoice::Robust => SatConfig::GUARDED,
            SatChoice::Article => SatConfig::ARTICLE,
        }
    }
}

/// How the gyroscopic term `−ω × I ω` of Euler's equations is integrated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gyroscopic {
    /// Left out: bodies spin without precession (and a free body's momentum wanders).
    Off,
    /// Catto's implicit step (GDC 2015; Bullet's `computeGyroscopicImpulseImplicit_Body`): one
    /// Newton step of `I (ω₂ − ω₁) + h ω₂ × I ω₂ = 0` in body coordinates. Stable, but it loses
    /// momentum and energy on fast tumbles (measured: 12.7 % of `|L|` over 10 s of an
    /// intermediate-axis tumble at 6 rad/s and 240 Hz sub-steps).
    Catto,
    /// The same implicit step written as a rotation, `L₂ = exp(−h ω̂₂) L₁` in body coordinates
    /// with `ω₂ = I⁻¹ L₂` (fixed-point iterations), matching the exponential-map orientation
    /// update: a free body's world angular momentum is conserved (to 1e-6 in that test).
    #[default]
    Exponential,
}

impl Gyroscopic {
    pub const ALL: [Gyroscopic; 3] = [Gyroscopic::Off, Gyroscopic::Catto, Gyroscopic::Exponential];

    /// The integrator's name in the panel.
    pub fn label(self) -> &'static str {
        match self {
            Gyroscopic::Off => "off",
            Gyroscopic::Catto => "implicit (Catto)",
            Gyroscopic::Exponential => "exponential map",
        }
    }
}

/// Solver and world settings (y is up; units are metres, kilograms, seconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct World3Params {
    pub gravity: Vec3,
    /// Steps per simulated second.
    pub hz: f32,
    pub substeps: u32,
    /// Velocity iterations per sub-step (with the soft bias).
    pub iterations: u32,
    /// Relax iterations per sub-step (no bias; Box2D v3's soft step).
    pub relax_iterations: u32,
    /// Contact stiffness, cycles per second, and damping ratio.
    pub contact_hertz: f32,
    pub contact_damping_ratio: f32,
    /// Joint stiffness and damping ratio (Box2D v3's joint softness), unless a joint sets its own.
    pub joint_hertz: f32,
    pub joint_damping_ratio: f32,
    /// Largest velocity used to push overlapping bodies apart, m/s (3 by default, Box2D's
    /// `contactPushMaxVelocity`; at most 100), shared among a body's overlaps ([`super::push`]).
    pub max_push_velocity: f32,
    pub warm_starting: bool,
    /// Relative normal speeds below this do not bounce, m/s.
    pub restitution_threshold: f32,
    /// Contact points are created when hulls are closer than this, metres.
    pub speculative_margin: f32,
    /// Speeds are clamped to these (keep a blow-up finite), m/s and rad/s.
    pub max_linear_speed: f32,
    pub max_angular_speed: f32,
    pub gyroscopic: Gyroscopic,
    pub sat: SatChoice,
    /// Test last step's separating axis first for each pair.
    pub sat_cache: bool,
}

impl Default for World3Params {
    fn default() -> Self {
        World3Params {
            gravity: Vec3::new(0.0, -10.0, 0.0),
            hz: 60.0,
            substeps: 4,
            iterations: 1,
            relax_iterations: 1,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            max_push_velocity: 3.0,
            warm_starting: true,
            restitution_threshold: 1.0,
            speculative_margin: 0.02,
            max_linear_speed: 400.0,
            max_angular_speed: 200.0,
            gyroscopic: Gyroscopic::Exponential,
            sat: SatChoice::Fast,
            sat_cache: true,
        }
    }
}

impl World3Params {
    /// Checks the ranges; the message names the first bad field in backticks.
    pub fn validate(&self) -> Result<(), String> {
        let finite = [
            ("gravity.x", self.gravity.x),
            ("gravity.y", self.gravity.y),
            ("gravity.z", self.gravity.z),
            ("hz", self.hz),
            ("contact_hertz", self.contact_hertz),
            ("contact_damping_ratio", self.contact_damping_ratio),
            ("joint_hertz", self.joint_hertz),
            ("joint_damping_ratio", self.joint_damping_ratio),
            ("max_push_velocity", self.max_push_velocity),
            ("restitution_threshold", self.restitution_threshold),
            ("speculative_margin", self.speculative_margin),
            ("max_linear_speed", self.max_linear_speed),
            ("max_angular_speed", self.max_angular_speed),
        ];
        for (name, v) in finite {
            if !v.is_finite() {
                return Err(format!("`{name}` must be a finite number, got {v}"));
            }
        }
        let check = |ok: bool, msg: &str| if ok { Ok(()) } else { Err(msg.to_string()) };
        check(self.hz >= 1.0 && self.hz <= 10_000.0, "`hz` must be between 1 and 10000")?;
        check(self.substeps >= 1 && self.substeps <= 64, "`substeps` must be between 1 and 64")?;
        check(self.iterations >= 1 && self.iterations <= 200, "`iterations` must be between 1 and 200")?;
        check(self.relax_iterations <= 200, "`relax_iterations` must be at most 200")?;
        // The 2D solver's ranges (`SolverParams::validate`).
        check(self.gravity.abs().max_element() <= 1.0e3, "`gravity` must be within ±1000 m/s² on each axis")?;
        check(self.contact_hertz <= 1.0e4, "`contact_hertz` must be at most 10000")?;
        check(self.contact_damping_ratio <= 1.0e4, "`contact_damping_ratio` must be at most 10000")?;
        check(self.joint_hertz <= 1.0e4, "`joint_hertz` must be at most 10000")?;
        check(self.joint_damping_ratio <= 1.0e4, "`joint_damping_ratio` must be at most 10000")?;
        check(self.max_push_velocity <= 100.0, "`max_push_velocity` must be at most 100 m/s")?;
        check(self.restitution_threshold <= 1.0e3, "`restitution_threshold` must be at most 1000 m/s")?;
        check(self.max_linear_speed <= 1.0e4, "`max_linear_speed` must be at most 10000 m/s")?;
        check(self.max_angular_speed <= 1.0e4, "`max_angular_speed` must be at most 10000 rad/s")?;
        check(self.contact_hertz >= 0.0, "`contact_hertz` must not be negative")?;
        check(self.contact_damping_ratio >= 0.0, "`contact_damping_ratio` must not be negative")?;
        check(self.joint_hertz >= 0.0, "`joint_hertz` must not be negative")?;
        check(self.joint_damping_ratio >= 0.0, "`joint_damping_ratio` must not be negative")?;
        check(self.max_push_velocity >= 0.0, "`max_push_velocity` must not be negative")?;
        check(self.restitution_threshold >= 0.0, "`restitution_threshold` must not be negative")?;
        check((0.0..=1.0).contains(&self.speculative_margin), "`speculative_margin` must be between 0 and 1")?;
        check(self.max_linear_speed > 0.0, "`max_linear_speed` must be positive")?;
        check(self.max_angular_speed > 0.0, "`max_angular_speed` must be positive")?;
        Ok(())
    }

    pub fn dt(&self) -> f32 {
        1.0 / self.hz
    }
}
