//! Every solver setting in one struct, editable live.

use crate::engine::collide::ReferenceFaceRule;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How overlap is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PositionCorrection {
    /// The 003 article's positional correction: after the velocity iterations, move bodies
    /// apart along the normal by `percent` of the penetration beyond `slop`.
    Projection,
    /// Baumgarte stabilisation: a velocity bias `beta / h * (penetration - slop)` in the
    /// velocity solve (Box2D Lite).
    Baumgarte,
    /// Soft contacts with relaxation (Box2D v3 "soft step"): a stiff damped spring in the
    /// biased solve, then a relax pass without bias so no energy is added.
    #[default]
    Soft,
}

impl PositionCorrection {
    pub const ALL: [PositionCorrection; 3] =
        [PositionCorrection::Projection, PositionCorrection::Baumgarte, PositionCorrection::Soft];

    pub fn label(self) -> &'static str {
        match self {
            PositionCorrection::Projection => "Projection (article)",
            PositionCorrection::Baumgarte => "Baumgarte bias",
            PositionCorrection::Soft => "Soft step (Box2D v3)",
        }
    }
}

/// The most solver threads a scene may ask for.
pub const MAX_THREADS: u32 = 64;

/// Solver and world settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolverParams {
    pub gravity: Vec2,
    /// Steps per simulated second.
    pub hz: f32,
    pub substeps: u32,
    /// Velocity iterations per sub-step.
    pub iterations: u32,
    /// Relax iterations per sub-step (soft step only).
    pub relax_iterations: u32,
    pub position_correction: PositionCorrection,
    /// Fraction of the penetration removed per sub-step (projection).
    pub percent: f32,
    /// Penetration allowed without correction (projection and Baumgarte), metres.
    pub slop: f32,
    /// Baumgarte factor.
    pub baumgarte: f32,
    /// Contact stiffness (soft step), cycles per second.
    pub contact_hertz: f32,
    /// Contact damping ratio (soft step).
    pub contact_damping_ratio: f32,
    /// Largest velocity used to push overlapping bodies apart, m/s.
    pub max_push_velocity: f32,
    pub warm_starting: bool,
    /// Relative normal speeds below this do not bounce, m/s.
    pub restitution_threshold: f32,
    /// Contact points are created when shapes are closer than this (speculative), metres, plus
    /// the bodies' speculative reach (how far each moved over its last step, up to half its
    /// smallest extent: `reach::speculative_reach`).
    pub speculative_margin: f32,
    /// How a polygon pair's reference face is chosen: Box2D v3's absolute tolerance (the
    /// normal is the minimum translation within 0.5 mm) or the 000 article's relative bias.
    pub reference_face: ReferenceFaceRule,
    /// Contact recycling (Box2D v3's `b2CollideTask`, `solver::recycle`): a contact whose
    /// bodies moved less than 5 cm and turned less than about 11° relative to the poses its
    /// manifold was computed at keeps that manifold's anchors, normal and feature ids and
    /// only updates its separations from the relative motion, instead of running the
    /// manifold function. Off: every manifold is computed every step (as before recycling).
    pub recycle_contacts: bool,
    /// Replace every pair's mixed friction with this, when set.
    pub friction_override: Option<f32>,
    /// Replace every pair's mixed restitution with this, when set.
    pub restitution_override: Option<f32>,
    /// Speeds are clamped to this, m/s (keeps a blow-up finite).
    pub max_linear_speed: f32,
    /// Continuous collision (Box2D v3's rule): after the sub-steps, dynamic bodies that moved
    /// more than half their smallest extent are swept against static bodies (bullets also
    /// against dynamic ones) and moved back to their time of impact. As in Box2D, bodies then
    /// turn at most [`super::state::MAX_ROTATION`] per step, which the sweeps rely on.
    pub continuous: bool,
    /// Continuous collision keeps its time-of-impact events (`world::toi_events`) for this
    /// many steps, for drawing and inspection; 0 keeps none. Changes nothing in the step.
    pub toi_event_steps: u32,
    /// Joint constraint softness (Box2D v3's `constraintHertz`), cycles per second; clamped
    /// to a quarter of the sub-step rate.
    pub joint_hertz: f32,
    pub joint_damping_ratio: f32,
    /// Islands whose bodies all stay still for `time_to_sleep` fall asleep.
    pub sleep: bool,
    /// A body is still below this speed, m/s (Box2D v3's sleep threshold) ...
    pub linear_sleep_tolerance: f32,
    /// ... and this turn rate, rad/s (Box2D v2.4's 2°/s).
    pub angular_sleep_tolerance: f32,
    /// Seconds of stillness before an island sleeps (Box2D's `b2_timeToSleep`).
    pub time_to_sleep: f32,
    /// Threads that solve the soft step's contacts (Box2D v3's workers): each graph colour is
    /// cut into blocks solved side by side. Any count gives the same bits as one thread.
    pub threads: u32,
    /// Contact rows run their eight lanes in one AVX register where the processor has AVX2
    /// (Box2D v3's AVX2 build), else in two SSE2 halves: the same bits either way, so this
    /// only changes speed (and lets the two be compared).
    pub avx2: bool,
}

impl Default for SolverParams {
    fn default() -> Self {
        SolverParams {
            gravity: Vec2::new(0.0, -10.0),
            hz: 60.0,
            substeps: 4,
            iterations: 1,
            relax_iterations: 1,
            position_correction: PositionCorrection::Soft,
            percent: 0.4,
            slop: 0.005,
            baumgarte: 0.2,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            max_push_velocity: 3.0,
            warm_starting: true,
            restitution_threshold: 1.0,
            speculative_margin: 0.02,
            reference_face: ReferenceFaceRule::Absolute,
            recycle_contacts: true,
            friction_override: None,
            restitution_override: None,
            max_linear_speed: 400.0,
            continuous: true,
            toi_event_steps: 60,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            sleep: true,
            linear_sleep_tolerance: 0.05,
            angular_sleep_tolerance: 2.0_f32.to_radians(),
            time_to_sleep: 0.5,
            threads: 1,
            avx2: true,
        }
    }
}

impl SolverParams {
    /// Checks the ranges; returns a message naming the first bad field.
    pub fn validate(&self) -> Result<(), String> {
        let finite = [
            ("gravity.x", self.gravity.x),
            ("gravity.y", self.gravity.y),
            ("hz", self.hz),
            ("percent", self.percent),
            ("slop", self.slop),
            ("baumgarte", self.baumgarte),
            ("contact_hertz", self.contact_hertz),
            ("contact_damping_ratio", self.contact_damping_ratio),
            ("max_push_velocity", self.max_push_velocity),
            ("restitution_threshold", self.restitution_threshold),
            ("speculative_margin", self.speculative_margin),
            ("max_linear_speed", self.max_linear_speed),
            ("joint_hertz", self.joint_hertz),
            ("joint_damping_ratio", self.joint_damping_ratio),
            ("linear_sleep_tolerance", self.linear_sleep_tolerance),
            ("angular_sleep_tolerance", self.angular_sleep_tolerance),
            ("time_to_sleep", self.time_to_sleep),
        ];
        for (name, v) in finite {
            if !v.is_finite() {
                return Err(format!("`{name}` must be a finite number, got {v}"));
            }
        }
        let check = |ok: bool, msg: &str| if ok { Ok(()) } else { Err(msg.to_string()) };
        check(self.hz >= 1.0 && self.hz <= 10_000.0, "`hz` must be between 1 and 10000")?;
        check(
            self.gravity.x.abs() <= 1.0e3 && self.gravity.y.abs() <= 1.0e3,
            "`gravity` must be within ±1000 m/s² on each axis",
        )?;
        check(self.contact_hertz <= 1.0e4, "`contact_hertz` must be at most 10000")?;
        check(self.contact_damping_ratio <= 1.0e4, "`contact_damping_ratio` must be at most 10000")?;
        check(self.max_push_velocity <= 100.0, "`max_push_velocity` must be at most 100 m/s")?;
        check(self.max_linear_speed <= 1.0e4, "`max_linear_speed` must be at most 10000 m/s")?;
        check(self.restitution_threshold <= 1.0e3, "`restitution_threshold` must be at most 1000 m/s")?;
        check(self.substeps >= 1 && self.substeps <= 64, "`substeps` must be between 1 and 64")?;
        check(self.iterations >= 1 && self.iterations <= 200, "`iterations` must be between 1 and 200")?;
        check(self.threads >= 1 && self.threads <= MAX_THREADS, "`threads` must be between 1 and 64")?;
        check(self.relax_iterations <= 200, "`relax_iterations` must be at most 200")?;
        check(self.toi_event_steps <= 10_000, "`toi_event_steps` must be at most 10000")?;
        check((0.0..=1.0).contains(&self.percent), "`percent` must be between 0 and 1")?;
        check((0.0..=1.0).contains(&self.slop), "`slop` must be between 0 and 1 metre")?;
        check((0.0..=1.0).contains(&self.baumgarte), "`baumgarte` must be between 0 and 1")?;
        check(self.contact_hertz >= 0.0, "`contact_hertz` must not be negative")?;
        check(self.contact_damping_ratio >= 0.0, "`contact_damping_ratio` must not be negative")?;
        check(self.max_push_velocity >= 0.0, "`max_push_velocity` must not be negative")?;
        check(self.restitution_threshold >= 0.0, "`restitution_threshold` must not be negative")?;
        check((0.0..=1.0).contains(&self.speculative_margin), "`speculative_margin` must be between 0 and 1")?;
        check(self.max_linear_speed > 0.0, "`max_linear_speed` must be positive")?;
        check(self.joint_hertz >= 0.0, "`joint_hertz` must not be negative")?;
        check(self.joint_damping_ratio >= 0.0, "`joint_damping_ratio` must not be negative")?;
        check(self.linear_sleep_tolerance >= 0.0, "`linear_sleep_tolerance` must not be negative")?;
        check(self.angular_sleep_tolerance >= 0.0, "`angular_sleep_tolerance` must not be negative")?;
        check(self.time_to_sleep >= 0.0, "`time_to_sleep` must not be negative")?;
        if let Some(f) = self.friction_override {
            check((0.0..=10.0).contains(&f), "`friction_override` must be between 0 and 10")?;
        }
        if let Some(e) = self.restitution_override {
            check((0.0..=1.0).contains(&e), "`restitution_override` must be between 0 and 1")?;
        }
        Ok(())
    }

    pub fn dt(&self) -> f32 {
        1.0 / self.hz
    }

    /// The angular speed clamp of the position integration: [`super::state::MAX_ROTATION`]
    /// per step with continuous collision, none without.
    pub fn max_angular_speed(&self) -> f32 {
        if self.continuous {
            super::state::MAX_ROTATION * self.hz
        } else {
            f32::INFINITY
        }
    }
}
