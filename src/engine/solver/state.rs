//! Compact per-body solver state (as Box2D v3's body state): velocities, inverse masses and
//! the displacement since the start of the step. The solver works on these small records
//! instead of whole bodies, so the hot loops touch little memory.

use crate::engine::body::{Body, BodyKind};
use crate::engine::math::{cross, Rot};
use glam::Vec2;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Centre-of-mass displacement since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rot,
    /// Angle turned since the step began (radians, for the body's stored angle).
    pub da: f32,
}

impl SolverBody {
    pub fn new(b: &Body) -> SolverBody {
        SolverBody {
            v: b.linear_velocity,
            w: b.angular_velocity,
            inv_mass: b.inv_mass,
            inv_inertia: b.inv_inertia,
            dp: Vec2::ZERO,
            dq: Rot::IDENTITY,
            da: 0.0,
        }
    }

    /// A body at rest that has not moved this step (no mass: impulses leave it unchanged).
    pub fn at_rest() -> SolverBody {
        SolverBody {
            v: Vec2::ZERO,
            w: 0.0,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            dp: Vec2::ZERO,
            dq: Rot::IDENTITY,
            da: 0.0,
        }
    }

    /// Applies impulse `p` at lever arm `r`.
    #[inline]
    pub fn apply(&mut self, r: Vec2, p: Vec2) {
        self.v += self.inv_mass * p;
        self.w += self.inv_inertia * cross(r, p);
    }

    /// Moves a point fixed to the body at arm `r` (from the start-of-step centre) by the
    /// body's displacement so far.
    #[inline]
    pub fn displacement_of(&self, r: Vec2) -> Vec2 {
        self.dp + self.dq.apply(r) - r
    }
}

/// Builds the solver state of every body.
pub fn solver_bodies(bodies: &[Body]) -> Vec<SolverBody> {
    bodies.iter().map(SolverBody::new).collect()
}

/// Refills `states` with the solver state of every body, then one dummy body at rest (the
/// target of empty SIMD lanes, like Box2D v3's dummy body), reusing the vector's memory.
pub fn fill_solver_bodies(states: &mut Vec<SolverBody>, bodies: &[Body]) {
    states.clear();
    states.extend(bodies.iter().map(SolverBody::new));
    states.push(SolverBody::at_rest());
}

/// A force held constant over a step (Box2D's applied force and torque), plus an angular
/// drag rate applied implicitly like `angular_damping`. The water's buoyancy and drag.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyForce {
    pub force: Vec2,
    /// About the centre of mass.
    pub torque: f32,
    /// 1/s: ω is scaled by `1 / (1 + h·(angular_damping + angular_drag))` per sub-step.
    pub angular_drag: f32,
}

/// Semi-implicit Euler, velocity half: gravity, applied forces and damping for awake dynamic
/// bodies, speed clamp.
pub fn integrate_velocities(states: &mut [SolverBody], bodies: &[Body], gravity: Vec2, h: f32, max_speed: f32) {
    integrate_velocities_with(states, bodies, &[], gravity, h, max_speed);
}

/// [`integrate_velocities`] with `forces[i]` also applied to body `i` (bodies past the end of
/// `forces` get none, and compute exactly as without).
pub fn integrate_velocities_with(
    states: &mut [SolverBody],
    bodies: &[Body],
    forces: &[BodyForce],
    gravity: Vec2,
    h: f32,
    max_speed: f32,
) {
    for (i, (s, b)) in states.iter_mut().zip(bodies).enumerate() {
        if b.kind != BodyKind::Dynamic || !b.awake {
            continue;
        }
        let mut v = s.v + h * b.gravity_scale * gravity;
        if b.force != Vec2::ZERO {
            v += (h * b.inv_mass) * b.force;
        }
        if b.torque != 0.0 {
            s.w += (h * b.inv_inertia) * b.torque;
        }
        let mut angular_damping = b.angular_damping;
        if let Some(f) = forces.get(i) {
            v += h * s.inv_mass * f.force;
            s.w += h * s.inv_inertia * f.torque;
            angular_damping += f.angular_drag;
        }
        // Implicit damping: v *= 1 / (1 + h c).
        v *= 1.0 / (1.0 + h * b.linear_damping);
        if v.length_squared() > max_speed * max_speed {
            v = v.normalize() * max_speed;
        }
        s.v = v;
        s.w *= 1.0 / (1.0 + h * angular_damping);
    }
}

/// Most a body may turn in one step, radians (Box2D v3's `B2_MAX_ROTATION`, π/4). Faster
/// spins are clamped where positions are integrated, as Box2D does, so the rotation that a
/// time-of-impact sweep blends between two steps stays far below the half turn it can show.
pub const MAX_ROTATION: f32 = 0.25 * std::f32::consts::PI;

/// Semi-implicit Euler, position half: displacements from the new velocities, with the angular
/// speed clamped to `max_angular_speed` (Box2D v3: [`MAX_ROTATION`] per step).
pub fn integrate_positions(states: &mut [SolverBody], h: f32, max_angular_speed: f32) {
    for s in states {
        if s.w.abs() > max_angular_speed {
            s.w = max_angular_speed.copysign(s.w);
        }
        s.dp += h * s.v;
        s.dq = s.dq.integrate(h * s.w);
        s.da += h * s.w;
    }
}

/// Writes velocities and poses back to the bodies (sleeping ones did not move).
pub fn finalize(states: &[SolverBody], bodies: &mut [Body]) {
    for (s, b) in states.iter().zip(bodies) {
        if b.kind == BodyKind::Static || !b.awake {
            continue;
        }
        b.linear_velocity = s.v;
        b.angular_velocity = s.w;
        b.center = b.center0 + s.dp;
        b.angle += s.da;
    }
}
