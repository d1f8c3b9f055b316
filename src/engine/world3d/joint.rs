//! Joints between two bodies: the article 003 orientation joint and a ball-and-socket joint
//! (together, a weld). Each exposes its current error per axis.

use super::body::Body3;
use super::integrate::SolverBody3;
use super::joint_ball::{self, BallJoint};
use super::joint_orientation::{self, OrientationJoint};
use super::params::World3Params;
use crate::engine::solver::soft::Softness;
use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

/// What a joint constrains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JointKind3 {
    Ball(BallJoint),
    Orientation(OrientationJoint),
}

/// A joint between bodies `a` and `b`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Joint3 {
    pub name: String,
    pub a: usize,
    pub b: usize,
    pub kind: JointKind3,
    /// Stiffness and damping ratio; the world's joint settings when `None`.
    pub hertz: Option<f32>,
    pub damping_ratio: Option<f32>,
    /// Whether the two bodies still collide with each other.
    pub collide_connected: bool,
}

/// A joint's current error: per axis (ball: metres along world x, y, z; orientation: radians
/// about the joint basis' u, v, w) and its size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JointError3 {
    pub per_axis: Vec3,
    pub magnitude: f32,
}

impl Joint3 {
    /// A ball joint at the world point `anchor`, for bodies as they are now.
    pub fn ball(bodies: &[Body3], a: usize, b: usize, anchor: Vec3) -> Joint3 {
        let ball = BallJoint {
            local_anchor_a: bodies[a].pose.inverse_transform_point(anchor),
            local_anchor_b: bodies[b].pose.inverse_transform_point(anchor),
            impulse: Vec3::ZERO,
            arms: [Vec3::ZERO; 2],
            base_error: Vec3::ZERO,
        };
        Joint3::with_kind(a, b, JointKind3::Ball(ball))
    }

    /// An orientation joint holding the bodies' current relative orientation; the basis
    /// `(u, v, w)` is the world axes turned by `basis`.
    pub fn orientation(bodies: &[Body3], a: usize, b: usize, basis: Quat, max_torque: Option<f32>) -> Joint3 {
        let o = OrientationJoint {
            frame_a: (bodies[a].rotation().inverse() * basis).normalize(),
            frame_b: (bodies[b].rotation().inverse() * basis).normalize(),
            max_torque,
            impulse: Vec3::ZERO,
        };
        Joint3::with_kind(a, b, JointKind3::Orientation(o))
    }

    fn with_kind(a: usize, b: usize, kind: JointKind3) -> Joint3 {
        Joint3 { name: String::new(), a, b, kind, hertz: None, damping_ratio: None, collide_connected: false }
    }

    /// The error now.
    pub fn error(&self, bodies: &[Body3]) -> JointError3 {
        let (ba, bb) = (&bodies[self.a], &bodies[self.b]);
        let per_axis = match &self.kind {
            JointKind3::Ball(j) => {
                bb.pose.transform_point(j.local_anchor_b) - ba.pose.transform_point(j.local_anchor_a)
            }
            JointKind3::Orientation(j) => joint_orientation::error_rotation(j, ba.rotation(), bb.rotation()),
        };
        JointError3 { per_axis, magnitude: per_axis.length() }
    }

    /// World anchors (ball) or the midpoint of the centres of mass (orientation), for drawing.
    pub fn anchors(&self, bodies: &[Body3]) -> [Vec3; 2] {
        let (ba, bb) = (&bodies[self.a], &bodies[self.b]);
        match &self.kind {
            JointKind3::Ball(j) => {
                [ba.pose.transform_point(j.local_anchor_a), bb.pose.transform_point(j.local_anchor_b)]
            }
            JointKind3::Orientation(_) => {
                let mid = 0.5 * (ba.center + bb.center);
                [mid, mid]
            }
        }
    }

    fn softness(&self, params: &World3Params, h: f32) -> Softness {
        let hertz = self.hertz.unwrap_or(params.joint_hertz).min(0.25 / h);
        Softness::new(hertz, self.damping_ratio.unwrap_or(params.joint_damping_ratio), h)
    }

    /// Start of step: arms and the anchors' offset for the ball joint.
    pub(crate) fn prepare(&mut self, bodies: &[Body3], warm_starting: bool) {
        let (ba, bb) = (&bodies[self.a], &bodies[self.b]);
        match &mut self.kind {
            JointKind3::Ball(j) => {
                let (pa, pb) = (ba.pose.transform_point(j.local_anchor_a), bb.pose.transform_point(j.local_anchor_b));
                j.arms = [pa - ba.center, pb - bb.center];
                j.base_error = pb - pa;
                if !warm_starting {
                    j.impulse = Vec3::ZERO;
                }
            }
            JointKind3::Orientation(j) => {
                if !warm_starting {
                    j.impulse = Vec3::ZERO;
                }
            }
        }
    }

    pub(crate) fn warm_start(&self, states: &mut [SolverBody3]) {
        let (sa, sb) = pair_mut(states, self.a, self.b);
        match &self.kind {
            JointKind3::Ball(j) => joint_ball::warm_start(j, sa, sb),
            JointKind3::Orientation(j) => joint_orientation::warm_start(j, sa, sb),
        }
    }

    pub(crate) fn solve(
        &mut self,
        states: &mut [SolverBody3],
        bodies: &[Body3],
        params: &World3Params,
        h: f32,
        bias: bool,
    ) {
        let softness = self.softness(params, h);
        let (qa, qb) = ((states[self.a].dq * bodies[self.a].q0), (states[self.b].dq * bodies[self.b].q0));
        let (sa, sb) = pair_mut(states, self.a, self.b);
        match &mut self.kind {
            JointKind3::Ball(j) => joint_ball::solve(j, (sa, sb), softness, bias),
            JointKind3::Orientation(j) => joint_orientation::solve(j, (sa, sb), (qa, qb), softness, h, bias),
        }
    }
}

/// Two distinct elements of a slice, mutably.
fn pair_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "a joint needs two bodies");
    if a < b {
        let (lo, hi) = v.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = v.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}
