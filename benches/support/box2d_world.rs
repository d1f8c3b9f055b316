//! A Box2D v3 world (its C library through `boxdd-sys`, the raw FFI under the `boxdd` crate)
//! for the world benchmarks: single-threaded (`workerCount` 1, no task system) or with Box2D's
//! built-in scheduler and several workers (`with_workers`), Box2D's own defaults (contact 30 Hz / damping 10, push 3 m/s, joint 60 Hz / damping 2), sleep on or off.

use boxdd_sys::ffi::{
    b2BodyId, b2BodyType_b2_dynamicBody, b2BodyType_b2_staticBody, b2Body_GetLinearVelocity, b2Body_GetPosition,
    b2Body_GetShapes, b2Body_SetAngularVelocity, b2Body_SetBullet, b2Body_SetLinearVelocity, b2Capsule, b2Circle,
    b2ComputeHull, b2CreateBody, b2CreateCapsuleShape, b2CreateCircleShape, b2CreatePolygonShape,
    b2CreateRevoluteJoint, b2CreateWorld, b2DefaultBodyDef, b2DefaultRevoluteJointDef, b2DefaultShapeDef,
    b2DefaultWorldDef, b2DestroyWorld, b2JointId, b2Joint_GetLinearSeparation, b2MakeBox, b2MakePolygon, b2Rot,
    b2ShapeId, b2Shape_SetRestitution, b2Transform, b2Vec2, b2WorldId, b2World_GetAwakeBodyCount, b2World_Step,
};

fn v(x: f32, y: f32) -> b2Vec2 {
    b2Vec2 { x, y }
}

/// Shape and material of a body.
pub enum B2Shape {
    Box {
        hx: f32,
        hy: f32,
    },
    Circle {
        radius: f32,
    },
    /// A convex polygon from its vertices in the body's frame (Box2D computes the hull).
    Polygon {
        points: Vec<(f32, f32)>,
    },
    /// A capsule from its two segment ends in the body's frame.
    Capsule {
        center1: (f32, f32),
        center2: (f32, f32),
        radius: f32,
    },
}

pub struct B2World {
    id: b2WorldId,
    pub steps: usize,
    /// The dynamic bodies, in creation order.
    pub dynamic: Vec<b2BodyId>,
}

impl B2World {
    pub fn new(gravity: (f32, f32), sleep: bool) -> B2World {
        B2World::with_workers(gravity, sleep, 1)
    }

    /// A world stepped by `workers` threads: with more than one, Box2D starts its own
    /// scheduler's threads (no task callbacks given), the calling thread being worker 0.
    pub fn with_workers(gravity: (f32, f32), sleep: bool, workers: i32) -> B2World {
        // SAFETY: plain C calls on stack data; the world lives until `drop`.
        unsafe {
            let mut def = b2DefaultWorldDef();
            def.gravity = v(gravity.0, gravity.1);
            def.enableSleep = sleep;
            def.workerCount = workers;
            B2World { id: b2CreateWorld(&def), steps: 0, dynamic: Vec::new() }
        }
    }

    /// A body with one shape; `category`/`mask` set Box2D's collision filter. Friction 0.6,
    /// restitution 0, no rotation.
    pub fn body(
        &mut self,
        dynamic: bool,
        position: (f32, f32),
        shape: &B2Shape,
        density: f32,
        filter: Option<(u64, u64)>,
    ) -> b2BodyId {
        self.body_with(dynamic, position, 0.0, shape, (density, 0.6, 0.0), filter)
    }

    /// A body turned by `angle` (radians), with `material` = (density, friction, restitution).
    pub fn body_posed(
        &mut self,
        dynamic: bool,
        position: (f32, f32),
        angle: f32,
        shape: &B2Shape,
        material: (f32, f32, f32),
    ) -> b2BodyId {
        self.body_with(dynamic, position, angle, shape, material, None)
    }

    fn body_with(
        &mut self,
        dynamic: bool,
        position: (f32, f32),
        angle: f32,
        shape: &B2Shape,
        (density, friction, restitution): (f32, f32, f32),
        filter: Option<(u64, u64)>,
    ) -> b2BodyId {
        // SAFETY: as above; the definitions and points outlive the calls.
        let body = unsafe {
            let mut bd = b2DefaultBodyDef();
            bd.type_ = if dynamic { b2BodyType_b2_dynamicBody } else { b2BodyType_b2_staticBody };
            bd.position = v(position.0, position.1);
            if angle != 0.0 {
                // Our rotation of the angle, so both engines start from the same bits.
                let q = manifold_lab::engine::math::Rot::from_angle(angle);
                bd.rotation = b2Rot { c: q.c, s: q.s };
            }
            let body = b2CreateBody(self.id, &bd);
            let mut sd = b2DefaultShapeDef();
            sd.density = density;
            sd.material.friction = friction;
            sd.material.restitution = restitution;
            if let Some((category, mask)) = filter {
                sd.filter.categoryBits = category;
                sd.filter.maskBits = mask;
            }
            match shape {
                B2Shape::Box { hx, hy } => {
                    let poly = b2MakeBox(*hx, *hy);
                    b2CreatePolygonShape(body, &sd, &poly);
                }
                B2Shape::Circle { radius } => {
                    let circle = b2Circle { center: v(0.0, 0.0), radius: *radius };
                    b2CreateCircleShape(body, &sd, &circle);
                }
                B2Shape::Capsule { center1, center2, radius } => {
                    let capsule = b2Capsule {
                        center1: v(center1.0, center1.1),
                        center2: v(center2.0, center2.1),
                        radius: *radius,
                    };
                    b2CreateCapsuleShape(body, &sd, &capsule);
                }
                B2Shape::Polygon { points } => {
                    let pts: Vec<b2Vec2> = points.iter().map(|&(x, y)| v(x, y)).collect();
                    let hull = b2ComputeHull(pts.as_ptr(), pts.len() as i32);
                    assert!(hull.count as usize == pts.len(), "Box2D accepted the polygon as its own hull");
                    let poly = b2MakePolygon(&hull, 0.0);
                    b2CreatePolygonShape(body, &sd, &poly);
                }
            }
            body
        };
        if dynamic {
            self.dynamic.push(body);
        }
        body
    }

    /// Mean height of the dynamic bodies' origins.
    pub fn mean_dynamic_height(&self) -> f64 {
        let sum: f64 = self.dynamic.iter().map(|&b| self.position(b).1 as f64).sum();
        sum / self.dynamic.len().max(1) as f64
    }

    /// A revolute joint with its anchor at `local_a` on A and `local_b` on B, with Box2D's
    /// default constraint softness (60 Hz, damping ratio 2).
    pub fn revolute(&mut self, a: b2BodyId, b: b2BodyId, local_a: (f32, f32), local_b: (f32, f32)) -> b2JointId {
        // SAFETY: as above; both bodies belong to this world.
        unsafe {
            let mut jd = b2DefaultRevoluteJointDef();
            jd.base.bodyIdA = a;
            jd.base.bodyIdB = b;
            let identity = b2Rot { c: 1.0, s: 0.0 };
            jd.base.localFrameA = b2Transform { p: v(local_a.0, local_a.1), q: identity };
            jd.base.localFrameB = b2Transform { p: v(local_b.0, local_b.1), q: identity };
            b2CreateRevoluteJoint(self.id, &jd)
        }
    }

    pub fn step(&mut self, dt: f32, substeps: i32) {
        // SAFETY: the world is alive.
        unsafe { b2World_Step(self.id, dt, substeps) };
        self.steps += 1;
    }

    /// Box2D's own timers for the last step, in ms (`b2World_GetProfile`).
    pub fn profile(&self) -> boxdd_sys::ffi::b2Profile {
        // SAFETY: the world is alive.
        unsafe { boxdd_sys::ffi::b2World_GetProfile(self.id) }
    }

    pub fn awake_bodies(&self) -> usize {
        // SAFETY: the world is alive.
        unsafe { b2World_GetAwakeBodyCount(self.id) as usize }
    }

    /// Sets the restitution of the body's shape (its first; the bodies here have one).
    pub fn set_restitution(&mut self, body: b2BodyId, restitution: f32) {
        // SAFETY: the body belongs to this live world; the array holds the one id written.
        unsafe {
            let mut shape = b2ShapeId { index1: 0, world0: 0, generation: 0 };
            if b2Body_GetShapes(body, &mut shape, 1) == 1 {
                b2Shape_SetRestitution(shape, restitution);
            }
        }
    }

    /// Sets a body's linear and angular velocity and its bullet flag.
    pub fn set_motion(&mut self, body: b2BodyId, velocity: (f32, f32), angular_velocity: f32, bullet: bool) {
        // SAFETY: the body belongs to this live world.
        unsafe {
            b2Body_SetLinearVelocity(body, v(velocity.0, velocity.1));
            b2Body_SetAngularVelocity(body, angular_velocity);
            b2Body_SetBullet(body, bullet);
        }
    }

    pub fn velocity(&self, body: b2BodyId) -> (f32, f32) {
        // SAFETY: the body belongs to this live world.
        let v = unsafe { b2Body_GetLinearVelocity(body) };
        (v.x, v.y)
    }

    /// Box2D's own measure of how far a joint's anchors are apart, metres.
    pub fn joint_separation(&self, joint: b2JointId) -> f32 {
        // SAFETY: the joint belongs to this live world.
        unsafe { b2Joint_GetLinearSeparation(joint) }
    }

    pub fn position(&self, body: b2BodyId) -> (f32, f32) {
        // SAFETY: the body belongs to this live world.
        let p = unsafe { b2Body_GetPosition(body) };
        (p.x, p.y)
    }
}

impl Drop for B2World {
    fn drop(&mut self) {
        // SAFETY: created by b2CreateWorld and destroyed once.
        unsafe { b2DestroyWorld(self.id) };
    }
}
