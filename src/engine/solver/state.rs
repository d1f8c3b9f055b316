//! Compact per-body solver state, split as Box2D v3 splits it: the hot part the constraints
//! read and write every pass ([`SolverBody`], 32 bytes, Box2D's `b2BodyState`: velocities, a
//! flag word, displacement and rotation since the step began), and the cold part they do not
//! ([`SolverCold`]: inverse masses, which the contact rows copy into their prepared data as
//! Box2D stores them per constraint, the centre and gravity scale that preparing a contact
//! reads, and the angle turned). The contact rows load a hot record
//! with two 16-byte loads and store its velocities with one (`solver::contact_wide`).

use crate::engine::body::{Body, BodyKind};
use crate::engine::math::{cross, Rot};
use crate::engine::parallel::{Workers, BODY_BLOCK};
use glam::Vec2;

/// [`SolverBody::flags`] bit: a constraint can change this body's velocity (it has inverse
/// mass or inertia). Only such bodies are coloured, and only they are written back.
pub const MOVES: u32 = 1;

/// The hot solver state of one body. `repr(C)` with 32-byte alignment: the first 16 bytes are
/// `[vx, vy, w, flags]`, the next 16 `[dpx, dpy, dqc, dqs]`, one aligned vector load each.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    /// [`MOVES`] or 0.
    pub flags: u32,
    /// Centre-of-mass displacement since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rot,
}

const _: () = assert!(std::mem::size_of::<SolverBody>() == 32);

/// The cold solver state of one body: what the constraints' preparation reads of it, copied in
/// one pass over the bodies so that preparing a contact does not touch the large `Body`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverCold {
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Angle turned since the step began (radians, for the body's stored angle).
    pub da: f32,
    /// Centre of mass at the start of the step.
    pub center: Vec2,
    pub gravity_scale: f32,
    /// Whether gravity acts on it (dynamic bodies only).
    pub dynamic: bool,
    /// Whether its velocities are integrated: an awake dynamic body.
    pub integrates: bool,
    pub linear_damping: f32,
    pub angular_damping: f32,
    /// The applied force and torque of the step.
    pub force: Vec2,
    pub torque: f32,
}

impl SolverCold {
    pub fn new(b: &Body) -> SolverCold {
        SolverCold {
            inv_mass: b.inv_mass,
            inv_inertia: b.inv_inertia,
            da: 0.0,
            center: b.center,
            gravity_scale: b.gravity_scale,
            dynamic: b.kind == BodyKind::Dynamic,
            integrates: b.kind == BodyKind::Dynamic && b.awake,
            linear_damping: b.linear_damping,
            angular_damping: b.angular_damping,
            force: b.force,
            torque: b.torque,
        }
    }

    /// No mass: impulses leave the body unchanged.
    pub const FIXED: SolverCold = SolverCold {
        inv_mass: 0.0,
        inv_inertia: 0.0,
        da: 0.0,
        center: Vec2::ZERO,
        gravity_scale: 0.0,
        dynamic: false,
        integrates: false,
        linear_damping: 0.0,
        angular_damping: 0.0,
        force: Vec2::ZERO,
        torque: 0.0,
    };

    /// The acceleration gravity gives it.
    #[inline]
    pub fn gravity_pull(&self, gravity: Vec2) -> Vec2 {
        if self.dynamic {
            self.gravity_scale * gravity
        } else {
            Vec2::ZERO
        }
    }
}

/// Whether the solver moves body `b` (it has an inverse mass or inertia): [`MOVES`].
pub fn body_moves(b: &Body) -> bool {
    b.inv_mass > 0.0 || b.inv_inertia > 0.0
}

impl SolverBody {
    pub fn new(b: &Body) -> SolverBody {
        let moves = body_moves(b);
        SolverBody {
            v: b.linear_velocity,
            w: b.angular_velocity,
            flags: if moves { MOVES } else { 0 },
            dp: Vec2::ZERO,
            dq: Rot::IDENTITY,
        }
    }

    /// A body at rest that has not moved this step and that no constraint moves.
    pub fn at_rest() -> SolverBody {
        SolverBody { v: Vec2::ZERO, w: 0.0, flags: 0, dp: Vec2::ZERO, dq: Rot::IDENTITY }
    }

    /// Whether any constraint can change this body's velocity (the graph colours only these).
    #[inline(always)]
    pub fn moves(&self) -> bool {
        self.flags & MOVES != 0
    }

    /// Applies impulse `p` at lever arm `r`, with the body's inverse masses `m`.
    #[inline]
    pub fn apply(&mut self, m: &SolverCold, r: Vec2, p: Vec2) {
        self.v += m.inv_mass * p;
        self.w += m.inv_inertia * cross(r, p);
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

/// Refills `states` and `cold` with the solver state of every body, then one dummy body at rest
/// (the target of empty SIMD lanes, like Box2D v3's dummy body), reusing the vectors' memory.
pub fn fill_solver_bodies(states: &mut Vec<SolverBody>, cold: &mut Vec<SolverCold>, bodies: &[Body]) {
    fill_solver_bodies_with(states, cold, bodies, &Workers::default());
}

/// [`fill_solver_bodies`], in blocks of bodies on `workers` (each entry is its body's alone).
pub fn fill_solver_bodies_with(
    states: &mut Vec<SolverBody>,
    cold: &mut Vec<SolverCold>,
    bodies: &[Body],
    workers: &Workers,
) {
    let n = bodies.len();
    states.resize(n + 1, SolverBody::at_rest());
    cold.resize(n + 1, SolverCold::FIXED);
    workers.for_each_chunk2(&mut states[..n], &mut cold[..n], BODY_BLOCK, &|start, s, c| {
        for ((s, c), b) in s.iter_mut().zip(c).zip(&bodies[start..]) {
            *s = SolverBody::new(b);
            *c = SolverCold::new(b);
        }
    });
    states[n] = SolverBody::at_rest();
    cold[n] = SolverCold::FIXED;
}

/// The start of a step's solve: records each body's start-of-step pose (`center0`, `q0`, which
/// contact separation tracking and the continuous pass read) and fills `states` and `cold` as
/// [`fill_solver_bodies_with`] does, in the same pass of blocks on `workers`.
pub fn start_solver_bodies_with(
    states: &mut Vec<SolverBody>,
    cold: &mut Vec<SolverCold>,
    bodies: &mut [Body],
    workers: &Workers,
) {
    let n = bodies.len();
    states.resize(n + 1, SolverBody::at_rest());
    cold.resize(n + 1, SolverCold::FIXED);
    workers.for_each_chunk3((&mut states[..n], &mut cold[..n], bodies), BODY_BLOCK, &|_, s, c, bodies| {
        for ((s, c), b) in s.iter_mut().zip(c).zip(bodies) {
            b.center0 = b.center;
            b.q0 = b.xf.q;
            *s = SolverBody::new(b);
            *c = SolverCold::new(b);
        }
    });
    states[n] = SolverBody::at_rest();
    cold[n] = SolverCold::FIXED;
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
/// bodies, speed clamp, plus `forces[i]` applied to body `i` (bodies past the end of `forces`
/// get none, and compute exactly as without). Reads the bodies' cold state (`cold[i]` is body
/// `i`'s), not the large `Body`: it runs once per sub-step.
pub fn integrate_velocities_with(
    states: &mut [SolverBody],
    cold: &[SolverCold],
    forces: &[BodyForce],
    gravity: Vec2,
    h: f32,
    max_speed: f32,
) {
    for (i, (s, b)) in states.iter_mut().zip(cold).enumerate() {
        if !b.integrates {
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
            v += h * b.inv_mass * f.force;
            s.w += h * b.inv_inertia * f.torque;
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
pub fn integrate_positions(states: &mut [SolverBody], cold: &mut [SolverCold], h: f32, max_angular_speed: f32) {
    for (s, c) in states.iter_mut().zip(cold) {
        if s.w.abs() > max_angular_speed {
            s.w = max_angular_speed.copysign(s.w);
        }
        s.dp += h * s.v;
        s.dq = s.dq.integrate(h * s.w);
        c.da += h * s.w;
    }
}

/// Writes velocities and poses back to the bodies (sleeping ones did not move), then derives
/// the transform of every body that may have moved (all but sleeping dynamic ones). A body
/// left with a non-finite pose or velocity is put back where the step found it, at rest;
/// returns how many were.
pub fn finalize(states: &[SolverBody], cold: &[SolverCold], bodies: &mut [Body]) -> usize {
    let mut repaired = 0;
    for ((s, c), b) in states.iter().zip(cold).zip(bodies) {
        if b.kind != BodyKind::Static && b.awake {
            b.linear_velocity = s.v;
            b.angular_velocity = s.w;
            b.center = b.center0 + s.dp;
            b.angle += c.da;
        }
        if !b.awake && b.kind == BodyKind::Dynamic {
            continue;
        }
        let finite = b.center.is_finite()
            && b.angle.is_finite()
            && b.linear_velocity.is_finite()
            && b.angular_velocity.is_finite();
        if !finite {
            b.center = b.center0;
            b.angle = b.q0.angle();
            b.linear_velocity = Vec2::ZERO;
            b.angular_velocity = 0.0;
            repaired += 1;
        }
        b.sync_transform();
    }
    repaired
}
