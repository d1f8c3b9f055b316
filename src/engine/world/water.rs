//! Water in the world: buoyancy and drag as forces within the step, the surface advanced
//! after it, and bodies splashing the simulated surface.
//!
//! **When the forces act.** Each body's submerged part is found at the start of every
//! sub-step, from its pose and velocity there, and the resulting force, torque and angular
//! drag are held through that sub-step and integrated with gravity (like a force applied in
//! Box2D); the contacts, solved every sub-step, see the buoyancy (a box resting on the pool
//! floor presses on it with its weight less its buoyancy). Once per step would be cheaper but
//! pumps energy in: a floating body's heave is a spring of stiffness `k = ρ·g·waterline`, and a
//! spring force held from the step's start while the sub-steps move the body gives the step
//! map `x' = x + dt·v − (10/16)·dt²·k/m·x`, `v' = v − dt·k/m·x` (four sub-steps), whose
//! determinant `1 + (6/16)·dt²·k/m` exceeds one: every bob grows a little, and three boats on
//! `waves.ron` kept bobbing at 0.17 m/s after five minutes, drag and all. Evaluated per
//! sub-step, each sub-step is a symplectic Euler step (determinant one) and drag takes the
//! energy out. A body thin and light enough that its heave frequency exceeds `2/h` would still
//! oscillate; the speed clamp keeps even that finite.
//!
//! **Splashes** (`Simulated` surfaces; Hoffman's `Splash`, which sets a column's speed when
//! a body hits the water): after the sub-steps, every column whose surface point a body
//! *entered* this step (inside the body now, outside it at the step's start pose) collides
//! with the body there, inelastically: the column, a parcel of water `ρ·spacing²`, and the
//! body's point end with the same vertical velocity, momentum conserved (the body gets the
//! opposite impulse at that point). A ball dropped in pushes the columns it enters down at
//! its speed and is slowed by them; the springs turn the dip into waves; the waves carry and
//! rock the floating bodies through the surface they are clipped by and the column
//! velocities their drag is measured against.
//!
//! Only entry couples. A body held to the columns it already pierces (pulling them along,
//! or pushing its displaced water aside every step) feeds its own motion back through the
//! surface it floats on, a step or more late, and the lag pumps energy in: tried both ways,
//! the water never settled. An inelastic collision at entry only takes energy out.

use super::World;
use crate::engine::body::{Body, BodyKind};
use crate::engine::math::Transform;
use crate::engine::solver::state::{BodyForce, SolverBody};
use crate::engine::water::basin::basin_floor;
use crate::engine::water::buoyancy::{submerge, Scratch};
use crate::engine::water::{BuoyancyReport, Surface, Water};
use glam::Vec2;
use std::time::Instant;

impl World {
    /// The water, if any.
    pub fn water(&self) -> Option<&Water> {
        self.water.as_ref()
    }

    /// The water, to change its parameters (call [`World::refresh_water`] after). Wakes the
    /// bodies in it, since their forces may change.
    pub fn water_mut(&mut self) -> Option<&mut Water> {
        self.wake_bodies_in_water();
        self.water.as_mut()
    }

    /// Wakes every body the water touches.
    fn wake_bodies_in_water(&mut self) {
        let Some(water) = &self.water else { return };
        for r in &water.reports {
            if let Some(b) = self.bodies.get_mut(r.body) {
                b.wake();
            }
        }
    }

    /// Whether the water exerts the same forces on resting bodies every step (a flat surface):
    /// only then may the bodies in it sleep, and a step of a sleeping world skip it.
    pub fn water_is_still(&self) -> bool {
        self.water.as_ref().is_none_or(|w| matches!(w.params.surface, Surface::Flat))
    }

    /// Replaces the water (or removes it) and computes its reports.
    pub fn set_water(&mut self, water: Option<Water>) {
        self.water = water;
        self.refresh_water();
    }

    /// The water's bottom: the scene's `bottom`, else the floor of the basin the static bodies
    /// make under the water (`water::basin`); `None` without water or with an open basin.
    pub fn water_bottom(&self) -> Option<f32> {
        let w = self.water.as_ref()?;
        if w.params.bottom.is_some() {
            return w.params.bottom;
        }
        let statics = self.bodies.iter().filter(|b| b.kind == BodyKind::Static).map(Body::compute_aabb);
        basin_floor(w.params.region, w.params.level, statics)
    }

    /// Finds the water's bottom again (static bodies may have moved).
    fn refresh_water_bottom(&mut self) {
        let bottom = self.water_bottom();
        if let Some(w) = &mut self.water {
            w.bottom = bottom;
        }
    }

    /// What the water does to body `index` (its submerged part and forces), if it touches it.
    pub fn buoyancy(&self, index: usize) -> Option<&BuoyancyReport> {
        self.water.as_ref()?.report(index)
    }

    /// Recomputes every body's [`BuoyancyReport`] for the current poses (after the app moved
    /// bodies or changed the water). Changes nothing the simulation reads.
    pub fn refresh_water(&mut self) {
        self.refresh_water_bottom();
        let reports = self.water_reports(self.substep_dt());
        if let Some(w) = &mut self.water {
            w.reports = reports;
        }
    }

    /// The reports of every dynamic body touching the water, by index, with forces held for
    /// `h` seconds (drag never reverses an edge's motion within `h`).
    fn water_reports(&self, h: f32) -> Vec<BuoyancyReport> {
        let Some(water) = &self.water else { return Vec::new() };
        let (x_min, x_max) = water.params.region;
        let top = water.max_height();
        let bottom = water.bottom.unwrap_or(f32::NEG_INFINITY);
        let mut scratch = Scratch::default();
        let mut reports = Vec::new();
        for (i, b) in self.bodies.iter().enumerate() {
            if b.kind != BodyKind::Dynamic {
                continue;
            }
            let bb = b.compute_aabb();
            if bb.max.x <= x_min || bb.min.x >= x_max || bb.min.y >= top || bb.max.y <= bottom {
                continue;
            }
            if let Some(r) = submerge(water, b, i, self.params.gravity, h, &mut scratch) {
                reports.push(r);
            }
        }
        reports
    }

    /// The water's force on every body for the step's first sub-step (empty without water);
    /// refreshes the reports with them.
    pub(crate) fn water_forces(&mut self) -> Vec<BodyForce> {
        if self.water.is_none() {
            self.profile.water_ms = 0.0;
            return Vec::new();
        }
        let start = Instant::now();
        self.refresh_water_bottom();
        let reports = self.water_reports(self.substep_dt());
        let mut forces = vec![BodyForce::default(); self.bodies.len()];
        for r in &reports {
            forces[r.body] = r.body_force();
        }
        if let Some(w) = &mut self.water {
            w.reports = reports;
        }
        if !self.water_is_still() {
            // A moving surface moves what floats on it: nothing in it sleeps.
            self.wake_bodies_in_water();
        }
        self.profile.water_ms = start.elapsed().as_secs_f32() * 1000.0;
        forces
    }

    /// After the sub-steps: splashes, the surface's own motion, and the reports for the new
    /// poses (what the app draws between steps).
    pub(crate) fn advance_water(&mut self) {
        if self.water.is_none() {
            return;
        }
        let start = Instant::now();
        self.splash();
        let dt = self.dt();
        if let Some(w) = &mut self.water {
            w.advance_surface(dt);
        }
        self.refresh_water();
        self.profile.water_ms += start.elapsed().as_secs_f32() * 1000.0;
    }

    /// Columns a body entered this step collide with it inelastically (module docs).
    fn splash(&mut self) {
        let Some(water) = &mut self.water else { return };
        if !matches!(water.params.surface, Surface::Simulated { .. }) || water.state.heights.len() < 2 {
            return;
        }
        let spacing = water.column_spacing();
        let column_mass = water.params.density * spacing * spacing;
        let (x_min, n) = (water.params.region.0, water.state.heights.len());
        for b in &mut self.bodies {
            if b.kind == BodyKind::Static || !(b.center.is_finite() && b.center0.is_finite()) {
                continue;
            }
            let bb = b.compute_aabb();
            let first = ((bb.min.x - x_min) / spacing).ceil().max(0.0);
            let last = ((bb.max.x - x_min) / spacing).floor().min((n - 1) as f32);
            if first.partial_cmp(&last).is_none_or(|o| o == std::cmp::Ordering::Greater) {
                continue;
            }
            let start = Transform { q: b.q0, p: b.center0 - b.q0.apply(b.local_center) };
            for i in first as usize..=last as usize {
                let p = Vec2::new(water.column_x(i), water.state.heights[i]);
                if !b.test_point(p) || b.test_point_at(&start, p) {
                    continue;
                }
                // The impulse that equalises the vertical velocities of the column and the
                // body's point p: the reduced mass times their difference.
                let r = p - b.center;
                let reduced = 1.0 / (b.inv_mass + b.inv_inertia * r.x * r.x + 1.0 / column_mass);
                let v = &mut water.state.velocities[i];
                let j = reduced * (b.velocity_at(p).y - *v);
                if !j.is_finite() {
                    continue;
                }
                *v += j / column_mass;
                b.linear_velocity.y -= j * b.inv_mass;
                b.angular_velocity -= j * b.inv_inertia * r.x;
            }
        }
    }
}

/// The bodies whose water forces are re-evaluated at each sub-step after the first (module
/// docs): copies of the awake dynamic bodies that may touch the water within the step (their
/// bounds grown by how far they can move in it), with their indices. Empty without water.
pub(crate) fn floating_bodies(water: Option<&Water>, bodies: &[Body], gravity: Vec2, dt: f32) -> Vec<(usize, Body)> {
    let Some(water) = water else { return Vec::new() };
    let (x_min, x_max) = water.params.region;
    let top = water.max_height();
    let bottom = water.bottom.unwrap_or(f32::NEG_INFINITY);
    let mut out = Vec::new();
    for (i, b) in bodies.iter().enumerate() {
        if b.kind != BodyKind::Dynamic || !b.awake {
            continue;
        }
        let reach = dt * b.linear_velocity.length() + dt * dt * gravity.length();
        let bb = b.compute_aabb();
        let beside = bb.max.x + reach <= x_min || bb.min.x - reach >= x_max;
        if beside || bb.min.y - reach >= top || bb.max.y + reach <= bottom {
            continue;
        }
        if reach.is_finite() {
            out.push((i, b.clone()));
        }
    }
    out
}

/// Sets `forces[i]` of every floating body to the water's force at its pose and velocity in
/// the solver's `states` (mid-step), held for the sub-step `h`.
pub(crate) fn substep_water_forces(
    water: Option<&Water>,
    floating: &mut [(usize, Body)],
    states: &[SolverBody],
    gravity: Vec2,
    h: f32,
    forces: &mut [BodyForce],
) {
    let Some(water) = water else { return };
    let mut scratch = Scratch::default();
    for (i, b) in floating.iter_mut() {
        let s = &states[*i];
        b.center = b.center0 + s.dp;
        b.xf.q = b.q0 * s.dq;
        b.xf.p = b.center - b.xf.q.apply(b.local_center);
        b.linear_velocity = s.v;
        b.angular_velocity = s.w;
        forces[*i] = submerge(water, b, *i, gravity, h, &mut scratch).map(|r| r.body_force()).unwrap_or_default();
    }
}

impl Water {
    /// The highest the surface reaches anywhere (nothing above it can be in the water).
    pub fn max_height(&self) -> f32 {
        let level = self.params.level;
        match &self.params.surface {
            Surface::Flat => level,
            Surface::Waves(waves) => level + waves.iter().map(|w| w.amplitude).sum::<f32>(),
            Surface::Simulated { .. } => self.state.heights.iter().copied().fold(level, f32::max),
        }
    }
}
