//! The mouse joint (as in the Box2D samples): a soft spring pulling a point of a body towards
//! the cursor, with a force cap so a dragged body cannot punch through the world.

use crate::engine::body::Body;
use crate::engine::math::cross_sv;
use crate::engine::solver::soft::Softness;
use crate::engine::solver::state::{SolverBody, SolverCold};
use glam::{Mat2, Vec2};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MouseJoint {
    pub body: usize,
    /// The grabbed point in the body's frame.
    pub local_anchor: Vec2,
    pub target: Vec2,
    pub hertz: f32,
    pub damping_ratio: f32,
    pub max_force: f32,
    pub impulse: Vec2,
    r: Vec2,
    center0: Vec2,
    linear_mass: Mat2,
    /// The body's inverse mass and inertia, from `prepare` (the solver state holds none).
    #[serde(default)]
    inv_mass: f32,
    #[serde(default)]
    inv_inertia: f32,
}

impl MouseJoint {
    pub fn new(body: usize, local_anchor: Vec2, target: Vec2, max_force: f32) -> MouseJoint {
        MouseJoint {
            body,
            local_anchor,
            target,
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force,
            impulse: Vec2::ZERO,
            r: Vec2::ZERO,
            center0: Vec2::ZERO,
            linear_mass: Mat2::ZERO,
            inv_mass: 0.0,
            inv_inertia: 0.0,
        }
    }

    /// The grabbed point in world space.
    pub fn anchor(&self, bodies: &[Body]) -> Vec2 {
        bodies[self.body].xf.apply(self.local_anchor)
    }

    pub fn prepare(&mut self, bodies: &[Body]) {
        let b = &bodies[self.body];
        self.r = b.xf.q.apply(self.local_anchor - b.local_center);
        self.center0 = b.center;
        let (m, i, r) = (b.inv_mass, b.inv_inertia, self.r);
        (self.inv_mass, self.inv_inertia) = (m, i);
        let k =
            Mat2::from_cols(Vec2::new(m + i * r.y * r.y, -i * r.x * r.y), Vec2::new(-i * r.x * r.y, m + i * r.x * r.x));
        self.linear_mass = if k.determinant().abs() > f32::EPSILON { k.inverse() } else { Mat2::ZERO };
        self.impulse = Vec2::ZERO;
    }

    pub fn warm_start(&self, states: &mut [SolverBody]) {
        states[self.body].apply(&self.masses(), self.r, self.impulse);
    }

    pub fn solve(&mut self, states: &mut [SolverBody], h: f32, use_bias: bool) {
        let s = &mut states[self.body];
        let soft = Softness::new(self.hertz, self.damping_ratio, h);
        let (bias, mass_scale, impulse_scale) = if use_bias {
            let anchor = self.center0 + s.dp + s.dq.apply(self.r);
            (soft.bias_rate * (anchor - self.target), soft.mass_scale, soft.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let cdot = s.v + cross_sv(s.w, self.r);
        let m = self.linear_mass * (cdot + bias);
        let mut impulse = -mass_scale * m - impulse_scale * self.impulse;
        let old = self.impulse;
        self.impulse += impulse;
        let max_impulse = self.max_force * h;
        if self.impulse.length_squared() > max_impulse * max_impulse {
            self.impulse *= max_impulse / self.impulse.length();
        }
        impulse = self.impulse - old;
        s.apply(&self.masses(), self.r, impulse);
    }

    fn masses(&self) -> SolverCold {
        SolverCold { inv_mass: self.inv_mass, inv_inertia: self.inv_inertia, ..SolverCold::FIXED }
    }

    /// Reaction force on the body, `impulse · inv_h`.
    pub fn reaction(&self, inv_h: f32) -> Vec2 {
        self.impulse * inv_h
    }

    /// Distance from the grabbed point to the target, metres.
    pub fn error(&self, bodies: &[Body]) -> f32 {
        (self.anchor(bodies) - self.target).length()
    }
}
