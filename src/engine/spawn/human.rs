//! Box2D's human (its samples' `shared/human.c`, `CreateHuman`), the ragdoll its `rain`
//! benchmark drops: eleven capsule bones (hip, torso, head, two legs of two bones, two arms of
//! two bones), the lower legs carrying a foot polygon, hinged by revolute joints with limits,
//! joint friction (a motor at speed 0 whose torque cap is `friction_torque · scale · the
//! bone's friction scale`) and an angular spring (`hertz`, `damping_ratio`) towards the rest
//! pose. As in human.c: density 1, friction 0.2 (feet 0.05), linear damping 0.1 on the head and
//! lower arms, the lower arms' joints at a reference angle of π/4.
//!
//! The foot is human.c's rounded polygon (its hull with a 0.015 m radius). One difference:
//! Box2D's per-body sleep threshold (0.1 m/s) is the world's (`linear_sleep_tolerance`).
//! Box2D's negative group index (bones of one human never touch each other) is written with
//! category bits by the caller ([`HumanFilter`]).

use crate::engine::body::{Body, BodyDef, BodyKind};
use crate::engine::compound::Part;
use crate::engine::material::Material;
use crate::engine::shape::{Polygon, Shape};
use crate::engine::solver::joints::{JointBase, RevoluteJoint};
use crate::engine::solver::Joint;
use glam::Vec2;
use std::f32::consts::PI;

/// How a human's shapes filter (Box2D's `b2Filter`): the bones' category and mask, and the
/// feet's mask (human.c: feet touch only category 1, the ground).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanFilter {
    pub category: u32,
    pub mask: u32,
    pub foot_mask: u32,
}

/// One human as `CreateHuman` takes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanDef {
    /// Where the feet stand (human.c's `position`).
    pub position: Vec2,
    pub scale: f32,
    pub friction_torque: f32,
    /// Joint spring; 0 is no spring.
    pub hertz: f32,
    pub damping_ratio: f32,
    pub filter: HumanFilter,
}

/// One bone of human.c: its body's height above `position`, linear damping, the capsule's
/// segment ends (y) and radius, parent, friction scale, the pivot's height, the joint's
/// limits and reference angle, and whether it carries a foot.
struct Bone {
    name: &'static str,
    y: f32,
    linear_damping: f32,
    capsule: (f32, f32, f32),
    parent: Option<usize>,
    friction_scale: f32,
    pivot: f32,
    limits: (f32, f32),
    reference: f32,
    foot: bool,
}

#[allow(clippy::too_many_arguments)]
const fn bone(
    name: &'static str,
    y: f32,
    linear_damping: f32,
    capsule: (f32, f32, f32),
    parent: Option<usize>,
    friction_scale: f32,
    pivot: f32,
    limits: (f32, f32),
) -> Bone {
    Bone { name, y, linear_damping, capsule, parent, friction_scale, pivot, limits, reference: 0.0, foot: false }
}

const fn with_foot(b: Bone) -> Bone {
    Bone { foot: true, ..b }
}

const fn with_reference(b: Bone, reference: f32) -> Bone {
    Bone { reference, ..b }
}

/// human.c's bones in its creation order (its `bone_*` enum).
const BONES: [Bone; 11] = [
    bone("hip", 0.95, 0.0, (-0.02, 0.02, 0.095), None, 1.0, 0.0, (0.0, 0.0)),
    bone("torso", 1.2, 0.0, (-0.135, 0.135, 0.09), Some(0), 0.5, 1.0, (-0.25 * PI, 0.0)),
    bone("head", 1.475, 0.1, (-0.038, 0.039, 0.075), Some(1), 0.25, 1.4, (-0.3 * PI, 0.1 * PI)),
    bone("upper_left_leg", 0.775, 0.0, (-0.125, 0.125, 0.06), Some(0), 1.0, 0.9, (-0.05 * PI, 0.4 * PI)),
    with_foot(bone("lower_left_leg", 0.475, 0.0, (-0.155, 0.125, 0.045), Some(3), 0.5, 0.625, (-0.5 * PI, -0.02 * PI))),
    bone("upper_right_leg", 0.775, 0.0, (-0.125, 0.125, 0.06), Some(0), 1.0, 0.9, (-0.05 * PI, 0.4 * PI)),
    with_foot(bone(
        "lower_right_leg",
        0.475,
        0.0,
        (-0.155, 0.125, 0.045),
        Some(5),
        0.5,
        0.625,
        (-0.5 * PI, -0.02 * PI),
    )),
    bone("upper_left_arm", 1.225, 0.0, (-0.125, 0.125, 0.035), Some(1), 0.5, 1.35, (-0.1 * PI, 0.8 * PI)),
    with_reference(
        bone("lower_left_arm", 0.975, 0.1, (-0.125, 0.125, 0.03), Some(7), 0.1, 1.1, (-0.2 * PI, 0.3 * PI)),
        0.25 * PI,
    ),
    bone("upper_right_arm", 1.225, 0.0, (-0.125, 0.125, 0.035), Some(1), 0.5, 1.35, (-0.1 * PI, 0.8 * PI)),
    with_reference(
        bone("lower_right_arm", 0.975, 0.1, (-0.125, 0.125, 0.03), Some(9), 0.1, 1.1, (-0.2 * PI, 0.3 * PI)),
        0.25 * PI,
    ),
];

/// Bodies of one human.
pub const HUMAN_BONES: usize = BONES.len();
/// Joints of one human.
pub const HUMAN_JOINTS: usize = BONES.len() - 1;
/// Shapes of one human: a capsule per bone and two feet.
pub const HUMAN_SHAPES: usize = BONES.len() + 2;

/// human.c's bone friction and its feet's.
const FRICTION: f32 = 0.2;
const FOOT_FRICTION: f32 = 0.05;
/// human.c's foot: the hull of these points (scaled) with a rounding radius.
const FOOT_POINTS: [(f32, f32); 4] = [(-0.03, -0.185), (0.11, -0.185), (0.11, -0.16), (-0.03, -0.14)];
const FOOT_RADIUS: f32 = 0.015;

/// human.c's foot: the hull of `FOOT_POINTS` rounded by `FOOT_RADIUS` (`b2MakePolygon(&hull,
/// radius)`), both scaled.
pub fn foot_polygon(scale: f32) -> Polygon {
    let pts: Vec<Vec2> = FOOT_POINTS.iter().map(|&(x, y)| scale * Vec2::new(x, y)).collect();
    let hull = Polygon::hull(&pts).expect("human.c's foot is a valid hull");
    hull.rounded(FOOT_RADIUS * scale).expect("human.c's foot radius is in range")
}

impl HumanDef {
    /// The eleven bodies in human.c's order, standing upright with the feet at `position`.
    pub fn bodies(&self) -> Vec<BodyDef> {
        let s = self.scale;
        let foot = Shape::Polygon(foot_polygon(s));
        BONES
            .iter()
            .map(|b| {
                let (y1, y2, r) = b.capsule;
                let capsule = Shape::capsule(Vec2::new(0.0, y1 * s), Vec2::new(0.0, y2 * s), r * s)
                    .expect("human.c's capsules are valid");
                let position = Vec2::new(0.0, b.y * s) + self.position;
                let mut def = BodyDef::new(BodyKind::Dynamic, capsule, position);
                def.name = b.name.to_string();
                def.linear_damping = b.linear_damping;
                def.material = Material { density: 1.0, friction: FRICTION, restitution: 0.0 };
                (def.category_bits, def.mask_bits) = (self.filter.category, self.filter.mask);
                if b.foot {
                    let mut leg = Part::new(capsule, Vec2::ZERO, 0.0);
                    leg.material = def.material;
                    (leg.category_bits, leg.mask_bits) = (self.filter.category, self.filter.mask);
                    let mut sole = Part::new(foot, Vec2::ZERO, 0.0);
                    sole.material = Material { friction: FOOT_FRICTION, ..def.material };
                    (sole.category_bits, sole.mask_bits) = (self.filter.category, self.filter.foot_mask);
                    def.parts = vec![leg, sole];
                }
                def
            })
            .collect()
    }

    /// The ten joints of the human whose hip is world body `first`, at the bodies' current
    /// poses (human.c's pivots, limits, motor and spring).
    pub fn joints(&self, bodies: &[Body], first: usize) -> Vec<Joint> {
        let s = self.scale;
        let max_torque = self.friction_torque * s;
        BONES
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let parent = b.parent?;
                let pivot = Vec2::new(0.0, b.pivot * s) + self.position;
                let mut j = RevoluteJoint::new(JointBase::at(bodies, first + parent, first + i, pivot));
                // Box2D's reference angle: the joint angle is θb − θa − reference.
                j.base.local_frame_a.angle += b.reference;
                (j.enable_limit, j.lower_angle, j.upper_angle) = (true, b.limits.0, b.limits.1);
                (j.enable_motor, j.motor_speed, j.max_motor_torque) = (true, 0.0, b.friction_scale * max_torque);
                (j.enable_spring, j.hertz, j.damping_ratio) = (self.hertz > 0.0, self.hertz, self.damping_ratio);
                Some(Joint::Revolute(j))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn human() -> HumanDef {
        let filter = HumanFilter { category: 2, mask: 3, foot_mask: 1 };
        HumanDef {
            position: Vec2::new(3.0, 40.0),
            scale: 1.0,
            friction_torque: 0.05,
            hertz: 5.0,
            damping_ratio: 0.5,
            filter,
        }
    }

    #[test]
    fn the_foot_is_human_c_s_hull_rounded_at_its_scale() {
        // (Against Box2D's own b2MakePolygon in tests/rounded_polygons.rs.)
        for scale in [1.0f32, 2.0] {
            let foot = foot_polygon(scale);
            assert_eq!(foot.radius, FOOT_RADIUS * scale);
            let mut core: Vec<(f32, f32)> = foot.vertices().iter().map(|v| (v.x / scale, v.y / scale)).collect();
            let mut want = FOOT_POINTS.to_vec();
            core.sort_by(|a, b| a.partial_cmp(b).unwrap());
            want.sort_by(|a, b| a.partial_cmp(b).unwrap());
            for (c, w) in core.iter().zip(&want) {
                assert!((c.0 - w.0).abs() < 1e-6 && (c.1 - w.1).abs() < 1e-6, "{c:?} vs {w:?}");
            }
            assert_eq!(core.len(), 4);
        }
    }

    #[test]
    fn a_human_is_human_c_s_bones_and_joints() {
        let h = human();
        let defs = h.bodies();
        assert_eq!(defs.len(), HUMAN_BONES);
        // human.c: the hip at 0.95 above the feet, the head at 1.475, the feet on the lower legs.
        assert_eq!(defs[0].position, Vec2::new(3.0, 40.95));
        assert_eq!(defs[2].position, Vec2::new(3.0, 40.0 + 1.475));
        assert_eq!(defs.iter().map(|d| d.parts.len().max(1)).sum::<usize>(), HUMAN_SHAPES);
        assert_eq!((defs[2].linear_damping, defs[8].linear_damping, defs[7].linear_damping), (0.1, 0.1, 0.0));
        let bodies: Vec<Body> = defs.iter().map(Body::new).collect();
        let joints = h.joints(&bodies, 0);
        assert_eq!(joints.len(), HUMAN_JOINTS);
        let Joint::Revolute(head) = &joints[1] else { panic!("revolute") };
        // The neck: torso to head at 1.4, friction 0.05 × 0.25, limits −0.3π..0.1π, a 5 Hz spring.
        assert_eq!((head.base.body_a, head.base.body_b), (1, 2));
        let anchor = bodies[2].xf.apply(head.base.local_frame_b.point);
        assert!((anchor - Vec2::new(3.0, 41.4)).length() < 1e-5, "{anchor}");
        assert_eq!(head.max_motor_torque, 0.05 * 0.25);
        assert_eq!((head.lower_angle, head.upper_angle), (-0.3 * PI, 0.1 * PI));
        assert!(head.enable_spring && head.hertz == 5.0 && head.damping_ratio == 0.5);
        let Joint::Revolute(elbow) = &joints[7] else { panic!("revolute") };
        assert_eq!(elbow.base.local_frame_a.angle - elbow.base.local_frame_b.angle, 0.25 * PI);
    }
}
