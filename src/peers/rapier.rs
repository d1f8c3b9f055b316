//! Our world in rapier2d. Rapier's solver is also a soft, sub-stepped one (its PGS with
//! `num_solver_iterations` sub-steps), so the settings map as `benches/large_pyramid.rs`
//! explains; its joints are generic joints with locked axes, set up in our joints' local frames.
//! What rapier lacks (an angle joint, a rigid distance joint, the geometric-mean friction
//! rule) is listed in the world's [`Skipped`].

use super::{common_skips, parts, Engine, LocalGeometry, PartDesc, PeerPose, PeerWorld, Skipped};
use crate::engine::solver::joints::Frame;
use crate::engine::solver::{Joint, SolverParams};
use crate::engine::{Body, BodyKind, World};
use rapier2d::prelude::{
    CoefficientCombineRule, ColliderBuilder, GenericJoint, GenericJointBuilder, Group, IntegrationParameters,
    InteractionGroups, InteractionTestMode, JointAxesMask, JointAxis, MotorModel, PhysicsWorld, Pose, RigidBodyBuilder,
    RigidBodyHandle, SpringCoefficients, Vector,
};

fn vec(p: glam::Vec2) -> Vector {
    Vector::new(p.x, p.y)
}

fn pose(f: &Frame) -> Pose {
    Pose::new(vec(f.point), f.angle)
}

/// Rapier settings matched to ours: sub-steps, iterations, relax iterations, contact softness,
/// slop, push-out speed, speculative margin and speed cap; no substepped CCD unless our
/// continuous collision is on.
pub fn rapier_params(params: &SolverParams) -> IntegrationParameters {
    let contact = SpringCoefficients::new(params.contact_hertz, params.contact_damping_ratio);
    IntegrationParameters {
        dt: 1.0 / params.hz,
        num_solver_iterations: params.substeps as usize,
        num_internal_pgs_iterations: params.iterations as usize,
        num_internal_stabilization_iterations: params.relax_iterations as usize,
        contact_softness: contact,
        static_contact_softness: contact,
        warmstart_coefficient: 1.0,
        length_unit: 1.0,
        normalized_allowed_linear_error: params.slop,
        normalized_max_corrective_velocity: params.max_push_velocity,
        normalized_prediction_distance: params.speculative_margin,
        normalized_max_linear_velocity: params.max_linear_speed,
        max_ccd_substeps: usize::from(params.continuous),
        ..IntegrationParameters::default()
    }
}

pub struct RapierWorld {
    pub world: PhysicsWorld,
    /// Rapier's body for each of ours, by index.
    bodies: Vec<RigidBodyHandle>,
    skipped: Skipped,
}

impl RapierWorld {
    pub fn from_world(world: &World) -> RapierWorld {
        let mut skipped = Skipped::default();
        common_skips(world, &mut skipped);
        let physics = PhysicsWorld {
            gravity: vec(world.params.gravity),
            integration_parameters: rapier_params(&world.params),
            ..PhysicsWorld::default()
        };
        let mut r = RapierWorld { world: physics, bodies: Vec::new(), skipped };
        let frictions: Vec<f32> = world.bodies.iter().flat_map(|b| parts(world, b)).map(|p| p.material.1).collect();
        if frictions.windows(2).any(|w| w[0] != w[1]) {
            r.skipped.add("friction pairs combined by the average (rapier has no geometric mean)");
        }
        for b in &world.bodies {
            let handle = r.add_body(world, b);
            r.bodies.push(handle);
        }
        for j in world.joints() {
            r.add_joint(j);
        }
        if !world.joints().is_empty() {
            // Ours are Box2D's soft joints (`joint_hertz`); rapier's softness is another model,
            // measured further from ours than its own near-rigid default (pendulum, 60 steps).
            r.skipped.add("joint softness (rapier's own joint stiffness is used)");
        }
        r
    }

    fn add_body(&mut self, world: &World, b: &Body) -> RigidBodyHandle {
        let builder = match b.kind {
            BodyKind::Static => RigidBodyBuilder::fixed(),
            BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
            BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
        };
        let body = builder
            .translation(vec(b.xf.p))
            .rotation(b.angle)
            .linvel(vec(b.linear_velocity))
            .angvel(b.angular_velocity)
            .linear_damping(b.linear_damping)
            .angular_damping(b.angular_damping)
            .gravity_scale(b.gravity_scale)
            .can_sleep(world.params.sleep)
            .ccd_enabled(b.bullet || (world.params.continuous && b.kind == BodyKind::Dynamic));
        let handle = self.world.insert_body(body);
        for part in parts(world, b) {
            match collider(&part) {
                Some(c) => {
                    let (bodies, colliders) = (&mut self.world.bodies, &mut self.world.colliders);
                    colliders.insert_with_parent(c, handle, bodies);
                }
                None => self.skipped.add("polygons rapier does not accept as convex (left out)"),
            }
        }
        handle
    }

    fn add_joint(&mut self, joint: &Joint) {
        let Some((base, mut j)) = self.joint_of(joint) else { return };
        j.set_local_frame1(pose(&base.local_frame_a));
        j.set_local_frame2(pose(&base.local_frame_b));
        j.set_contacts_enabled(base.collide_connected);
        if base.break_force.is_some() || base.break_torque.is_some() {
            self.skipped.add("joint break limits (the joint holds)");
        }
        let (a, b) = (self.bodies[base.body_a], self.bodies[base.body_b]);
        self.world.insert_impulse_joint(a, b, j);
    }

    /// The generic joint standing for ours (frames, softness and bodies set by the caller).
    fn joint_of<'a>(
        &mut self,
        joint: &'a Joint,
    ) -> Option<(&'a crate::engine::solver::joints::JointBase, GenericJoint)> {
        let generic = |mask: JointAxesMask| GenericJointBuilder::new(mask).build();
        match joint {
            Joint::Angle(_) => {
                self.skipped.add("angle joints");
                None
            }
            Joint::Revolute(r) => {
                let mut j = generic(JointAxesMask::LOCKED_REVOLUTE_AXES);
                axis_options(&mut j, JointAxis::AngX, (r.enable_limit, r.lower_angle, r.upper_angle));
                motor(&mut j, JointAxis::AngX, (r.enable_motor, r.motor_speed, r.max_motor_torque));
                spring(&mut j, JointAxis::AngX, (r.enable_spring, r.target_angle, r.hertz, r.damping_ratio));
                Some((&r.base, j))
            }
            Joint::Prismatic(p) => {
                let mut j = generic(JointAxesMask::LOCKED_PRISMATIC_AXES);
                axis_options(&mut j, JointAxis::LinX, (p.enable_limit, p.lower_translation, p.upper_translation));
                motor(&mut j, JointAxis::LinX, (p.enable_motor, p.motor_speed, p.max_motor_force));
                spring(&mut j, JointAxis::LinX, (p.enable_spring, p.target_translation, p.hertz, p.damping_ratio));
                Some((&p.base, j))
            }
            Joint::Wheel(w) => {
                // Free along the frame's x axis and in rotation: Box2D's wheel joint.
                let mut j = generic(JointAxesMask::LIN_Y);
                axis_options(&mut j, JointAxis::LinX, (w.enable_limit, w.lower_translation, w.upper_translation));
                motor(&mut j, JointAxis::AngX, (w.enable_motor, w.motor_speed, w.max_motor_torque));
                spring(&mut j, JointAxis::LinX, (w.enable_spring, 0.0, w.hertz, w.damping_ratio));
                Some((&w.base, j))
            }
            Joint::Weld(w) => {
                if w.linear_hertz > 0.0 || w.angular_hertz > 0.0 {
                    self.skipped.add("weld joint springs (rigid in rapier)");
                }
                Some((&w.base, generic(JointAxesMask::LOCKED_FIXED_AXES)))
            }
            Joint::Distance(d) => {
                self.skipped.add("distance joints (rapier: a rope holding the maximum length only)");
                let max = if d.enable_limit { d.max_length.min(d.length.max(d.min_length)) } else { d.length };
                Some((&d.base, rapier2d::prelude::RopeJointBuilder::new(max).build().into()))
            }
        }
    }
}

/// A limit on `axis` when enabled.
fn axis_options(j: &mut GenericJoint, axis: JointAxis, (enabled, lower, upper): (bool, f32, f32)) {
    if enabled {
        j.set_limits(axis, [lower, upper]);
    }
}

/// A velocity motor on `axis` of at most `max` force or torque: rigid, as Box2D's and ours
/// (the velocity held exactly while the force stays under `max`). Rapier's velocity motor is
/// a damper, `force = damping · (speed − velocity)`, softened by `1 / (dt · damping)` in its
/// row; the damping of 1 used before left a plank's hinge about fifty times weaker than its
/// rigid row (the bridge's joint friction is a motor at speed zero). An unbounded damping
/// takes the softening away, `max` still bounds it. Measured on `tests/peers/held_pendulum.ron`
/// (60 steps): the bob 3.1 m below ours before, 0.72 m after; rapier's motor still yields where
/// Box2D's holds (the rest was not found: the acceleration-based model gives the same).
fn motor(j: &mut GenericJoint, axis: JointAxis, (enabled, speed, max): (bool, f32, f32)) {
    if enabled {
        j.set_motor_model(axis, MotorModel::ForceBased);
        j.set_motor_velocity(axis, speed, f32::MAX);
        j.set_motor_max_force(axis, max);
    }
}

/// A spring towards `target` on `axis` of `hertz` and damping ratio `zeta`: an acceleration
/// based position motor of stiffness ω² and damping 2ζω (ω = 2π·hertz), mass independent as ours.
fn spring(j: &mut GenericJoint, axis: JointAxis, (enabled, target, hertz, zeta): (bool, f32, f32, f32)) {
    if enabled && hertz > 0.0 {
        let omega = std::f32::consts::TAU * hertz;
        j.set_motor_model(axis, MotorModel::AccelerationBased);
        j.set_motor_position(axis, target, omega * omega, 2.0 * zeta * omega);
    }
}

impl PeerWorld for RapierWorld {
    fn engine(&self) -> Engine {
        Engine::Rapier
    }

    fn step(&mut self) {
        self.world.step();
    }

    fn poses(&self) -> Vec<PeerPose> {
        (self.bodies.iter())
            .map(|&h| {
                let b = &self.world.bodies[h];
                let t = b.translation();
                PeerPose { position: glam::Vec2::new(t.x, t.y), angle: b.rotation().angle() }
            })
            .collect()
    }

    fn contact_count(&self) -> usize {
        self.world.contact_pairs().filter(|p| p.has_any_active_contact()).count()
    }

    fn skipped(&self) -> &Skipped {
        &self.skipped
    }
}

/// One shape as a rapier collider placed in its body's frame, with its material and filter
/// (`None` for a polygon rapier does not take as convex).
fn collider(part: &PartDesc) -> Option<rapier2d::prelude::Collider> {
    let builder = match &part.geometry {
        LocalGeometry::Circle { center, radius } => ColliderBuilder::ball(*radius).translation(vec(*center)),
        LocalGeometry::Capsule { center1, center2, radius } => {
            ColliderBuilder::capsule_from_endpoints(vec(*center1), vec(*center2), *radius)
        }
        // Boxes as rapier's cuboids (its box–box manifolds), other polygons as convex ones.
        // Rounded ones as rapier's round shapes (the core and its border radius).
        LocalGeometry::Box { half_extents: h, center, angle, radius } if *radius > 0.0 => {
            ColliderBuilder::round_cuboid(h.x, h.y, *radius).position(Pose::new(vec(*center), *angle))
        }
        LocalGeometry::Box { half_extents: h, center, angle, .. } => {
            ColliderBuilder::cuboid(h.x, h.y).position(Pose::new(vec(*center), *angle))
        }
        LocalGeometry::Polygon { points, radius } if *radius > 0.0 => {
            ColliderBuilder::round_convex_polyline(points.iter().map(|&p| vec(p)).collect(), *radius)?
        }
        LocalGeometry::Polygon { points, .. } => {
            ColliderBuilder::convex_polyline(points.iter().map(|&p| vec(p)).collect())?
        }
    };
    let (density, friction, restitution) = part.material;
    let groups = InteractionGroups::new(
        Group::from_bits_retain(part.filter.0),
        Group::from_bits_retain(part.filter.1),
        InteractionTestMode::And,
    );
    Some(
        builder
            .density(density)
            .friction(friction)
            .restitution(restitution)
            .restitution_combine_rule(CoefficientCombineRule::Max)
            .collision_groups(groups)
            .build(),
    )
}
