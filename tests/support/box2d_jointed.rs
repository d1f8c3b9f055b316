//! A world of ours copied into Box2D v3 (its C library through `boxdd-sys`), bodies and revolute
//! joints, for tests that run the same jointed scene in both engines: each body keeps its kind,
//! pose, shape, material, damping, gravity scale and collision filter; each revolute joint its
//! frames, motor, limits, spring and `collide_connected`; the world our gravity, contact
//! softness, push speed, joint softness and sleep. Box2D runs single-threaded. Measurements
//! (mechanical energy, speeds, heights) come from Box2D's own body queries.

use boxdd_sys::ffi::{
    b2BodyId, b2BodyType_b2_dynamicBody, b2BodyType_b2_kinematicBody, b2BodyType_b2_staticBody,
    b2Body_GetAngularVelocity, b2Body_GetLinearVelocity, b2Body_GetMass, b2Body_GetRotationalInertia,
    b2Body_GetWorldCenter, b2Capsule, b2Circle, b2ComputeHull, b2CreateBody, b2CreateCapsuleShape, b2CreateCircleShape,
    b2CreatePolygonShape, b2CreateRevoluteJoint, b2CreateWorld, b2DefaultBodyDef, b2DefaultRevoluteJointDef,
    b2DefaultShapeDef, b2DefaultWorldDef, b2DestroyJoint, b2DestroyWorld, b2JointId, b2Joint_GetConstraintForce,
    b2Joint_SetForceThreshold, b2MakePolygon, b2Rot, b2Transform, b2Vec2, b2WorldId, b2World_GetJointEvents,
    b2World_Step,
};
use manifold_lab::engine::math::Rot;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::joints::Frame;
use manifold_lab::engine::solver::Joint;
use manifold_lab::engine::{BodyKind, World};

fn v(x: f32, y: f32) -> b2Vec2 {
    b2Vec2 { x, y }
}

fn frame(f: &Frame) -> b2Transform {
    let q = Rot::from_angle(f.angle);
    b2Transform { p: v(f.point.x, f.point.y), q: b2Rot { c: q.c, s: q.s } }
}

/// A Box2D v3 world built from one of ours; `bodies[i]` is our body `i`, `joints[k]` our
/// joint `k` at the copy (`None` once destroyed).
pub struct B2Jointed {
    id: b2WorldId,
    pub bodies: Vec<b2BodyId>,
    pub joints: Vec<Option<b2JointId>>,
    gravity: (f32, f32),
    /// Each body's gravity scale when it is dynamic.
    dynamic: Vec<Option<f32>>,
    dt: f32,
    substeps: i32,
}

impl B2Jointed {
    /// Copies `world`. Panics on what Box2D's copy would get wrong: a joint other than a
    /// revolute one.
    pub fn from_world(world: &World) -> B2Jointed {
        let p = &world.params;
        // SAFETY: plain C calls on stack data; the world lives until `drop`.
        let id = unsafe {
            let mut def = b2DefaultWorldDef();
            def.gravity = v(p.gravity.x, p.gravity.y);
            def.contactHertz = p.contact_hertz;
            def.contactDampingRatio = p.contact_damping_ratio;
            def.contactSpeed = p.max_push_velocity;
            def.enableSleep = p.sleep;
            def.enableContinuous = p.continuous;
            def.workerCount = 1;
            b2CreateWorld(&def)
        };
        let mut b2 = B2Jointed {
            id,
            bodies: Vec::new(),
            joints: Vec::new(),
            gravity: (p.gravity.x, p.gravity.y),
            dynamic: Vec::new(),
            dt: p.dt(),
            substeps: p.substeps as i32,
        };
        for i in 0..world.bodies.len() {
            let body = b2.copy_body(world, i);
            b2.bodies.push(body);
            let b = &world.bodies[i];
            b2.dynamic.push(b.is_dynamic().then_some(b.gravity_scale));
        }
        for j in world.joints() {
            let joint = b2.copy_joint(world, j);
            b2.joints.push(Some(joint));
        }
        b2
    }

    fn copy_body(&self, world: &World, i: usize) -> b2BodyId {
        let b = &world.bodies[i];
        // SAFETY: as above; the definitions and points outlive the calls.
        unsafe {
            let mut bd = b2DefaultBodyDef();
            bd.type_ = match b.kind {
                BodyKind::Static => b2BodyType_b2_staticBody,
                BodyKind::Kinematic => b2BodyType_b2_kinematicBody,
                BodyKind::Dynamic => b2BodyType_b2_dynamicBody,
            };
            bd.position = v(b.xf.p.x, b.xf.p.y);
            bd.rotation = b2Rot { c: b.xf.q.c, s: b.xf.q.s };
            bd.linearVelocity = v(b.linear_velocity.x, b.linear_velocity.y);
            bd.angularVelocity = b.angular_velocity;
            bd.linearDamping = b.linear_damping;
            bd.angularDamping = b.angular_damping;
            bd.gravityScale = b.gravity_scale;
            bd.isBullet = b.bullet;
            let body = b2CreateBody(self.id, &bd);
            let mut sd = b2DefaultShapeDef();
            sd.density = b.material.density;
            sd.material.friction = b.material.friction;
            sd.material.restitution = b.material.restitution;
            sd.filter.categoryBits = u64::from(b.category_bits);
            sd.filter.maskBits = u64::from(b.mask_bits);
            match &b.shape {
                Shape::Circle(c) => {
                    b2CreateCircleShape(body, &sd, &b2Circle { center: v(0.0, 0.0), radius: c.radius });
                }
                Shape::Capsule(c) => {
                    let cap = b2Capsule {
                        center1: v(c.center1.x, c.center1.y),
                        center2: v(c.center2.x, c.center2.y),
                        radius: c.radius,
                    };
                    b2CreateCapsuleShape(body, &sd, &cap);
                }
                Shape::Polygon(poly) => {
                    let pts: Vec<b2Vec2> = poly.vertices().iter().map(|p| v(p.x, p.y)).collect();
                    let hull = b2ComputeHull(pts.as_ptr(), pts.len() as i32);
                    assert!(hull.count as usize == pts.len(), "Box2D keeps body {i}'s polygon as its own hull");
                    b2CreatePolygonShape(body, &sd, &b2MakePolygon(&hull, 0.0));
                }
            }
            body
        }
    }

    fn copy_joint(&self, world: &World, joint: &Joint) -> b2JointId {
        let Joint::Revolute(r) = joint else { panic!("only revolute joints are copied, got {:?}", joint.kind()) };
        let base = &r.base;
        let p = &world.params;
        // SAFETY: as above; both bodies belong to this world.
        unsafe {
            let mut jd = b2DefaultRevoluteJointDef();
            jd.base.bodyIdA = self.bodies[base.body_a];
            jd.base.bodyIdB = self.bodies[base.body_b];
            jd.base.localFrameA = frame(&base.local_frame_a);
            jd.base.localFrameB = frame(&base.local_frame_b);
            jd.base.collideConnected = base.collide_connected;
            jd.base.constraintHertz = p.joint_hertz;
            jd.base.constraintDampingRatio = p.joint_damping_ratio;
            jd.enableSpring = r.enable_spring;
            jd.hertz = r.hertz;
            jd.dampingRatio = r.damping_ratio;
            jd.targetAngle = r.target_angle;
            jd.enableLimit = r.enable_limit;
            jd.lowerAngle = r.lower_angle;
            jd.upperAngle = r.upper_angle;
            jd.enableMotor = r.enable_motor;
            jd.maxMotorTorque = r.max_motor_torque;
            jd.motorSpeed = r.motor_speed;
            b2CreateRevoluteJoint(self.id, &jd)
        }
    }

    /// One step of the copied world's `1 / hz` with its sub-steps; returns the joints (our
    /// indices) whose force threshold the step exceeded (Box2D's joint events).
    pub fn step(&mut self) -> Vec<usize> {
        // SAFETY: the world is alive; the event array is read before anything is destroyed.
        unsafe {
            b2World_Step(self.id, self.dt, self.substeps);
            let events = b2World_GetJointEvents(self.id);
            let mut hit = Vec::new();
            for e in 0..events.count.max(0) as usize {
                let id = (*events.jointEvents.add(e)).jointId;
                hit.extend(
                    self.joints
                        .iter()
                        .position(|j| j.is_some_and(|j| (j.index1, j.generation) == (id.index1, id.generation))),
                );
            }
            hit
        }
    }

    /// Destroys our joint `k` (`b2DestroyJoint`, waking its bodies).
    pub fn destroy_joint(&mut self, k: usize) {
        let id = self.joints[k].take().expect("the joint is still there");
        // SAFETY: the joint belongs to this live world and is destroyed once.
        unsafe { b2DestroyJoint(id, true) };
    }

    /// Sets our joint `k`'s force threshold (newtons): Box2D reports it as a joint event after
    /// a step whose constraint force reaches it.
    pub fn set_force_threshold(&mut self, k: usize, force: f32) {
        let id = self.joints[k].expect("the joint is still there");
        // SAFETY: as above.
        unsafe { b2Joint_SetForceThreshold(id, force) };
    }

    /// Sets every body's linear and angular damping.
    pub fn set_damping(&mut self, damping: f32) {
        for &b in &self.bodies {
            // SAFETY: the body belongs to this live world.
            unsafe {
                boxdd_sys::ffi::b2Body_SetLinearDamping(b, damping);
                boxdd_sys::ffi::b2Body_SetAngularDamping(b, damping);
            }
        }
    }

    /// Our joint `k`'s constraint force, newtons.
    pub fn joint_force(&self, k: usize) -> (f32, f32) {
        let id = self.joints[k].expect("the joint is still there");
        // SAFETY: as above.
        let f = unsafe { b2Joint_GetConstraintForce(id) };
        (f.x, f.y)
    }

    /// Body `i`'s centre of mass, linear velocity, angular velocity, mass and rotational inertia
    /// about its centre.
    pub fn body_state(&self, i: usize) -> ((f32, f32), (f32, f32), f32, f32, f32) {
        let b = self.bodies[i];
        // SAFETY: the body belongs to this live world.
        unsafe {
            let c = b2Body_GetWorldCenter(b);
            let vel = b2Body_GetLinearVelocity(b);
            let w = b2Body_GetAngularVelocity(b);
            ((c.x, c.y), (vel.x, vel.y), w, b2Body_GetMass(b), b2Body_GetRotationalInertia(b))
        }
    }

    /// Kinetic plus gravity's potential energy of the dynamic bodies, J (f64 sums).
    pub fn mechanical_energy(&self) -> f64 {
        let g = self.gravity;
        (0..self.bodies.len())
            .filter_map(|i| Some((i, self.dynamic[i]? as f64)))
            .map(|(i, scale)| {
                let ((cx, cy), (vx, vy), w, m, inertia) = self.body_state(i);
                let (m, inertia) = (m as f64, inertia as f64);
                let ke = 0.5 * m * (vx as f64 * vx as f64 + vy as f64 * vy as f64) + 0.5 * inertia * (w as f64).powi(2);
                ke - scale * m * (g.0 as f64 * cx as f64 + g.1 as f64 * cy as f64)
            })
            .sum()
    }
}

impl Drop for B2Jointed {
    fn drop(&mut self) {
        // SAFETY: created by b2CreateWorld and destroyed once.
        unsafe { b2DestroyWorld(self.id) };
    }
}
