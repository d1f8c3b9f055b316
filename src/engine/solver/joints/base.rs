//! What every joint shares (Box2D v3's `b2JointSim` base): the two bodies, a local frame on
//! each (anchor point and axis), `collide_connected`, optional break thresholds, and the data
//! `prepare` computes once per step for the sub-step solves.

use super::super::graph::GraphColor;
use super::super::soft::Softness;
use super::super::state::SolverBody;
use super::release::released_softness;
use crate::engine::body::Body;
use crate::engine::math::{Rot, Transform};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The settings every joint solve reads: sub-step, the joint constraint softness
/// (`SolverParams::joint_hertz` / `joint_damping_ratio`, clamped to a quarter of the sub-step
/// rate as Box2D v3's `b2PrepareJoint` does), the softness of joints released by a break
/// (`release`), and whether impulses carry over between steps.
#[derive(Clone, Copy, Debug)]
pub struct JointContext {
    pub h: f32,
    pub inv_h: f32,
    pub softness: Softness,
    /// What `softness` is for a released joint (`JointBase::release` > 0).
    pub released: Softness,
    pub warm_starting: bool,
    /// Motor speeds are held within these (rad/s, m/s): the integrator's clamps
    /// (`SolverParams::max_angular_speed`, `max_linear_speed`). A motor driving past what the
    /// integrator lets a body reach would add its torque every step without bound.
    pub max_angular_speed: f32,
    pub max_linear_speed: f32,
}

impl JointContext {
    pub fn new(h: f32, joint_hertz: f32, joint_damping_ratio: f32, warm_starting: bool) -> JointContext {
        let inv_h = 1.0 / h;
        let hertz = joint_hertz.min(0.25 * inv_h);
        JointContext {
            h,
            inv_h,
            softness: Softness::new(hertz, joint_damping_ratio, h),
            released: released_softness(hertz, joint_damping_ratio, h),
            warm_starting,
            max_angular_speed: f32::INFINITY,
            max_linear_speed: f32::INFINITY,
        }
    }

    /// A motor's target angular speed within [`JointContext::max_angular_speed`].
    #[inline]
    pub fn angular_target(&self, speed: f32) -> f32 {
        speed.clamp(-self.max_angular_speed, self.max_angular_speed)
    }

    /// A motor's target linear speed within [`JointContext::max_linear_speed`].
    #[inline]
    pub fn linear_target(&self, speed: f32) -> f32 {
        speed.clamp(-self.max_linear_speed, self.max_linear_speed)
    }

    /// The context joint `base` is solved with: the released softness while it is released.
    #[inline]
    pub fn for_joint(&self, base: &JointBase) -> JointContext {
        if base.release > 0 {
            JointContext { softness: self.released, ..*self }
        } else {
            *self
        }
    }
}

/// Per-step data: inverse masses and the frames in world orientation relative to each
/// centre of mass (Box2D: `frameA`, `frameB`, `deltaCenter`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prepared {
    pub m_a: f32,
    pub m_b: f32,
    pub i_a: f32,
    pub i_b: f32,
    pub frame_a: Transform,
    pub frame_b: Transform,
    /// `center_b − center_a` at the start of the step.
    pub delta_center: Vec2,
}

impl Default for Prepared {
    fn default() -> Self {
        Prepared {
            m_a: 0.0,
            m_b: 0.0,
            i_a: 0.0,
            i_b: 0.0,
            frame_a: Transform::IDENTITY,
            frame_b: Transform::IDENTITY,
            delta_center: Vec2::ZERO,
        }
    }
}

/// A joint frame in a body's local coordinates: an anchor point and the angle of the frame's
/// x axis (kept as an angle, so a saved joint reads back bit for bit).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub point: Vec2,
    pub angle: f32,
}

impl Frame {
    pub fn transform(&self) -> Transform {
        Transform::new(self.point, self.angle)
    }
}

/// The part of a joint common to every kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointBase {
    pub body_a: usize,
    pub body_b: usize,
    /// Anchor point and orientation in body A's frame (the body origin's frame).
    pub local_frame_a: Frame,
    pub local_frame_b: Frame,
    /// Whether the two bodies still collide with each other (off by default, as in Box2D).
    pub collide_connected: bool,
    /// The joint breaks (is removed) when its reaction force exceeds this, newtons.
    pub break_force: Option<f32>,
    /// The joint breaks when its reaction torque exceeds this, newton-metres.
    pub break_torque: Option<f32>,
    /// Steps this joint stays released after a joint of its structure broke or was removed
    /// (`joints::release`); 0 when not released.
    #[serde(default)]
    pub release: u32,
    #[serde(skip)]
    pub(crate) prepared: Prepared,
    /// Where the last step solved the joint: its graph colour, the overflow, or not coloured.
    #[serde(skip)]
    pub graph_color: GraphColor,
}

impl JointBase {
    /// Frames at the world point `anchor` on both bodies, both aligned with the world axes,
    /// so the joint starts satisfied with a relative angle of zero.
    pub fn at(bodies: &[Body], a: usize, b: usize, anchor: Vec2) -> JointBase {
        JointBase::with_anchors(bodies, a, b, anchor, anchor)
    }

    /// Frames at world point `anchor_a` on A and `anchor_b` on B, aligned with the world axes.
    pub fn with_anchors(bodies: &[Body], a: usize, b: usize, anchor_a: Vec2, anchor_b: Vec2) -> JointBase {
        let frame = |i: usize, p: Vec2| Frame { point: bodies[i].xf.apply_inv(p), angle: -bodies[i].angle };
        JointBase {
            body_a: a,
            body_b: b,
            local_frame_a: frame(a, anchor_a),
            local_frame_b: frame(b, anchor_b),
            collide_connected: false,
            break_force: None,
            break_torque: None,
            release: 0,
            prepared: Prepared::default(),
            graph_color: GraphColor::None,
        }
    }

    /// Turns both frames so their x axis is the world direction `axis` (prismatic and wheel
    /// joints slide along it). A zero axis leaves the frames unchanged.
    pub fn with_axis(mut self, axis: Vec2) -> JointBase {
        if axis == Vec2::ZERO || !axis.is_finite() {
            return self;
        }
        let turn = axis.y.atan2(axis.x);
        self.local_frame_a.angle += turn;
        self.local_frame_b.angle += turn;
        self
    }

    /// World transforms of the two frames at the bodies' current poses.
    pub fn world_frames(&self, bodies: &[Body]) -> (Transform, Transform) {
        let world = |b: &Body, f: &Frame| Transform { p: b.xf.apply(f.point), q: b.xf.q * Rot::from_angle(f.angle) };
        (world(&bodies[self.body_a], &self.local_frame_a), world(&bodies[self.body_b], &self.local_frame_b))
    }

    /// The anchors in world space (A's, B's); they coincide when a point joint is satisfied.
    pub fn world_anchors(&self, bodies: &[Body]) -> (Vec2, Vec2) {
        let (fa, fb) = self.world_frames(bodies);
        (fa.p, fb.p)
    }

    /// Box2D's joint preparation: masses, and the frames rotated to world orientation and
    /// taken relative to the centres of mass (`rot(q, frame.p − local_center)`).
    pub(crate) fn prepare(&mut self, bodies: &[Body]) {
        let (ba, bb) = (&bodies[self.body_a], &bodies[self.body_b]);
        let frame = |b: &Body, f: &Frame| Transform {
            p: b.xf.q.apply(f.point - b.local_center),
            q: b.xf.q * Rot::from_angle(f.angle),
        };
        self.prepared = Prepared {
            m_a: ba.inv_mass,
            m_b: bb.inv_mass,
            i_a: ba.inv_inertia,
            i_b: bb.inv_inertia,
            frame_a: frame(ba, &self.local_frame_a),
            frame_b: frame(bb, &self.local_frame_b),
            delta_center: bb.center - ba.center,
        };
    }

    /// The current lever arms (rotated by each body's rotation so far this step).
    #[inline]
    pub(crate) fn arms(&self, sa: &SolverBody, sb: &SolverBody) -> (Vec2, Vec2) {
        (sa.dq.apply(self.prepared.frame_a.p), sb.dq.apply(self.prepared.frame_b.p))
    }

    /// The current separation of the anchors, `B's − A's`, from the displacements so far.
    #[inline]
    pub(crate) fn separation(&self, sa: &SolverBody, sb: &SolverBody, ra: Vec2, rb: Vec2) -> Vec2 {
        (sb.dp - sa.dp) + self.prepared.delta_center + (rb - ra)
    }

    /// The current relative rotation of the frames, `(qA fA)⁻¹ (qB fB)`.
    #[inline]
    pub(crate) fn relative_rotation(&self, sa: &SolverBody, sb: &SolverBody) -> Rot {
        let qa = sa.dq * self.prepared.frame_a.q;
        let qb = sb.dq * self.prepared.frame_b.q;
        qa.inv_mul(qb)
    }
}

/// Copies of a joint's two solver states, A's and B's. A joint's warm start and solve read and
/// write only these; `solver::joint_colors` loads them and stores the velocities back, so that
/// joints of one graph colour, which share no moving body, can be solved on several threads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyPair {
    pub a: SolverBody,
    pub b: SolverBody,
}

/// Velocities of the two bodies, read once, changed locally and written back (Box2D's
/// solve functions work on `vA, wA, vB, wB` copies).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Velocities {
    pub va: Vec2,
    pub wa: f32,
    pub vb: Vec2,
    pub wb: f32,
}

impl Velocities {
    #[inline]
    pub fn read(s: &BodyPair) -> Velocities {
        Velocities { va: s.a.v, wa: s.a.w, vb: s.b.v, wb: s.b.w }
    }

    #[inline]
    pub fn write(self, s: &mut BodyPair) {
        (s.a.v, s.a.w) = (self.va, self.wa);
        (s.b.v, s.b.w) = (self.vb, self.wb);
    }

    /// Applies a linear impulse `p` (−p to A, +p to B) with the angular impulses `la` to A
    /// (subtracted) and `lb` to B.
    #[inline]
    pub fn apply(&mut self, j: &Prepared, p: Vec2, la: f32, lb: f32) {
        self.va -= j.m_a * p;
        self.wa -= j.i_a * la;
        self.vb += j.m_b * p;
        self.wb += j.i_b * lb;
    }

    /// Applies a linear impulse `p` at arms `ra` (−p) and `rb` (+p).
    #[inline]
    pub fn apply_linear(&mut self, j: &Prepared, ra: Vec2, rb: Vec2, p: Vec2) {
        self.va -= j.m_a * p;
        self.wa -= j.i_a * crate::engine::math::cross(ra, p);
        self.vb += j.m_b * p;
        self.wb += j.i_b * crate::engine::math::cross(rb, p);
    }

    /// Applies an angular impulse (−to A, +to B).
    #[inline]
    pub fn apply_angular(&mut self, j: &Prepared, impulse: f32) {
        self.wa -= j.i_a * impulse;
        self.wb += j.i_b * impulse;
    }

    /// Relative velocity of B's anchor with respect to A's.
    #[inline]
    pub fn relative_at(&self, ra: Vec2, rb: Vec2) -> Vec2 {
        use crate::engine::math::cross_sv;
        self.vb + cross_sv(self.wb, rb) - self.va - cross_sv(self.wa, ra)
    }
}
