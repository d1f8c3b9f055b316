//! Our world in Box2D v3 (its C library through `boxdd-sys`, single-threaded). Box2D's model
//! is ours (soft step, sub-steps, local joint frames as in v3.1), so nearly everything maps:
//! what does not is listed in the world's [`Skipped`].

use super::{common_skips, parts, Engine, LocalGeometry, PartDesc, PeerPose, PeerWorld, Skipped};
use crate::engine::math::Rot;
use crate::engine::solver::joints::{Frame, JointBase};
use crate::engine::solver::{Joint, PositionCorrection, SolverParams};
use crate::engine::spawn::{HumanDef, SpawnHost, Spawner};
use crate::engine::{Body, BodyKind, World};
use boxdd_sys::ffi as b2;
use glam::Vec2;

/// Box2D keeps its worlds in one global table that `b2CreateWorld` and `b2DestroyWorld` update
/// unguarded: worlds made or dropped on several threads at once (parallel tests) corrupt it.
static WORLD_TABLE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn v(p: Vec2) -> b2::b2Vec2 {
    b2::b2Vec2 { x: p.x, y: p.y }
}

fn rot(angle: f32) -> b2::b2Rot {
    // Our rotation of the angle, so both engines start from the same bits.
    let q = Rot::from_angle(angle);
    b2::b2Rot { c: q.c, s: q.s }
}

fn frame(f: &Frame) -> b2::b2Transform {
    b2::b2Transform { p: v(f.point), q: rot(f.angle) }
}

pub struct Box2dWorld {
    id: b2::b2WorldId,
    /// Box2D's body for each of ours, by index.
    bodies: Vec<b2::b2BodyId>,
    /// Box2D's joints, in the order of ours it made (angle joints have none).
    joints: Vec<b2::b2JointId>,
    dt: f32,
    substeps: i32,
    skipped: Skipped,
    /// The scene's step rule, run on Box2D's world as ours runs it on ours (so Box2D creates
    /// and destroys the same bodies before the same steps), and the steps taken.
    spawner: Option<Spawner>,
    step_count: u64,
    params: SolverParams,
}

/// What Box2D's world holds (`b2World_GetCounters`): bodies, shapes and joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Box2dCounts {
    pub bodies: usize,
    pub shapes: usize,
    pub joints: usize,
}

impl Box2dWorld {
    /// `world` in Box2D, stepped on one thread (the Compare panel's peer).
    pub fn from_world(world: &World) -> Box2dWorld {
        Box2dWorld::with_workers(world, 1)
    }

    /// `world` in Box2D stepped by `workers` threads: with more than one, Box2D's own
    /// scheduler (no task callbacks given), the calling thread being worker 0.
    pub fn with_workers(world: &World, workers: usize) -> Box2dWorld {
        let p = &world.params;
        let mut skipped = Skipped::default();
        common_skips(world, &mut skipped);
        if p.position_correction != PositionCorrection::Soft {
            skipped.add("position correction other than the soft step (Box2D's soft step is used)");
        }
        let _table = WORLD_TABLE.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: plain C calls on stack data; the world lives until `drop`.
        let id = unsafe {
            let mut def = b2::b2DefaultWorldDef();
            def.gravity = v(p.gravity);
            def.enableSleep = p.sleep;
            def.enableContinuous = p.continuous;
            def.contactHertz = p.contact_hertz;
            def.contactDampingRatio = p.contact_damping_ratio;
            def.contactSpeed = p.max_push_velocity;
            def.maximumLinearSpeed = p.max_linear_speed;
            def.restitutionThreshold = p.restitution_threshold;
            def.workerCount = workers.max(1) as i32;
            b2::b2CreateWorld(&def)
        };
        let mut w = Box2dWorld {
            id,
            bodies: Vec::new(),
            joints: Vec::new(),
            dt: 1.0 / p.hz,
            substeps: p.substeps as i32,
            skipped,
            spawner: world.spawner.clone(),
            step_count: world.step_count,
            params: p.clone(),
        };
        for b in &world.bodies {
            let body = w.add_body(world, b);
            w.bodies.push(body);
        }
        for j in world.joints() {
            w.add_joint(world, j);
        }
        w
    }

    fn add_body(&mut self, world: &World, b: &Body) -> b2::b2BodyId {
        // SAFETY: as above; the definition outlives the call.
        let body = unsafe {
            let mut bd = b2::b2DefaultBodyDef();
            bd.type_ = match b.kind {
                BodyKind::Static => b2::b2BodyType_b2_staticBody,
                BodyKind::Kinematic => b2::b2BodyType_b2_kinematicBody,
                BodyKind::Dynamic => b2::b2BodyType_b2_dynamicBody,
            };
            bd.position = v(b.xf.p);
            bd.rotation = rot(b.angle);
            // Ours is the centre of mass's velocity; Box2D's definition gives the origin's and
            // adds ω × (centre − origin) when the shapes move the centre off the origin.
            let r = b.center - b.xf.p;
            bd.linearVelocity = v(b.linear_velocity - b.angular_velocity * Vec2::new(-r.y, r.x));
            bd.angularVelocity = b.angular_velocity;
            bd.linearDamping = b.linear_damping;
            bd.angularDamping = b.angular_damping;
            bd.gravityScale = b.gravity_scale;
            bd.isBullet = b.bullet;
            bd.isAwake = b.awake || b.kind != BodyKind::Dynamic;
            b2::b2CreateBody(self.id, &bd)
        };
        for part in parts(world, b) {
            // A static shape that collides with nothing changes nothing in Box2D (no mass,
            // no contact): it is how a scene writes Box2D's bodies with no shape (a joint's
            // ground), so Box2D gets the body alone, as its own scenes build it.
            let inert = part.filter.0 == 0 || part.filter.1 == 0;
            if !(b.kind == BodyKind::Static && inert) {
                self.add_shape(body, &part);
            }
        }
        body
    }

    /// Adds a static body holding Box2D's segment from `a` to `b` (friction 0.6), as its
    /// benchmarks build grounds: for checking a scene's stand-in for a segment (this engine has
    /// no segment shape) against the segment itself. The body is not one of ours (not in
    /// [`PeerWorld::poses`]).
    pub fn add_static_segment(&mut self, a: Vec2, b: Vec2) {
        // SAFETY: plain C calls on stack data, on this live world.
        unsafe {
            let body = b2::b2CreateBody(self.id, &b2::b2DefaultBodyDef());
            let segment = b2::b2Segment { point1: v(a), point2: v(b) };
            b2::b2CreateSegmentShape(body, &b2::b2DefaultShapeDef(), &segment);
        }
    }

    /// Replaces the shapes of our static bodies `bodies` (indices) by one Box2D chain loop
    /// through the world points `points` (`b2CreateChain`, `isLoop`, one material of
    /// `friction`) on the first of them: for checking a scene's stand-in for a chain (this
    /// engine has no chain shape; the spinner's loop is thin boxes) against the chain itself.
    pub fn replace_with_chain_loop(&mut self, bodies: &[usize], points: &[Vec2], friction: f32) {
        let Some(&first) = bodies.first() else { return };
        // SAFETY: plain C calls on this live world's bodies; the arrays outlive the calls.
        unsafe {
            for &i in bodies {
                let body = self.bodies[i];
                let count = b2::b2Body_GetShapeCount(body).max(0) as usize;
                let mut shapes = vec![b2::b2ShapeId { index1: 0, world0: 0, generation: 0 }; count];
                b2::b2Body_GetShapes(body, shapes.as_mut_ptr(), count as i32);
                for shape in shapes {
                    b2::b2DestroyShape(shape, false);
                }
            }
            let body = self.bodies[first];
            let local: Vec<b2::b2Vec2> = points.iter().map(|&p| b2::b2Body_GetLocalPoint(body, v(p))).collect();
            let mut material = b2::b2DefaultSurfaceMaterial();
            material.friction = friction;
            let mut def = b2::b2DefaultChainDef();
            def.points = local.as_ptr();
            def.count = local.len() as i32;
            def.isLoop = true;
            def.materials = &material;
            def.materialCount = 1;
            b2::b2CreateChain(body, &def);
        }
    }

    /// Bodies, shapes and joints in Box2D's world.
    pub fn counts(&self) -> Box2dCounts {
        // SAFETY: the world is alive.
        let c = unsafe { b2::b2World_GetCounters(self.id) };
        Box2dCounts { bodies: c.bodyCount as usize, shapes: c.shapeCount as usize, joints: c.jointCount as usize }
    }

    /// The largest distance between a joint's two anchors, metres (Box2D's own measure,
    /// `b2Joint_GetLinearSeparation`); 0 without joints.
    pub fn max_joint_separation(&self) -> f32 {
        // SAFETY: the joints belong to this live world.
        self.joints.iter().map(|&j| unsafe { b2::b2Joint_GetLinearSeparation(j) }).fold(0.0, f32::max)
    }

    /// Dynamic bodies awake in Box2D's world.
    pub fn awake_body_count(&self) -> usize {
        // SAFETY: the world is alive.
        unsafe { b2::b2World_GetAwakeBodyCount(self.id) as usize }
    }

    /// One shape on `body`, in the body's frame.
    fn add_shape(&mut self, body: b2::b2BodyId, part: &PartDesc) {
        let (density, friction, restitution) = part.material;
        // SAFETY: as above; the definitions and points outlive the calls.
        unsafe {
            let mut sd = b2::b2DefaultShapeDef();
            sd.density = density;
            sd.material.friction = friction;
            sd.material.restitution = restitution;
            sd.filter.categoryBits = part.filter.0 as u64;
            sd.filter.maskBits = part.filter.1 as u64;
            match &part.geometry {
                LocalGeometry::Circle { center, radius } => {
                    b2::b2CreateCircleShape(body, &sd, &b2::b2Circle { center: v(*center), radius: *radius });
                }
                LocalGeometry::Capsule { center1, center2, radius } => {
                    let capsule = b2::b2Capsule { center1: v(*center1), center2: v(*center2), radius: *radius };
                    b2::b2CreateCapsuleShape(body, &sd, &capsule);
                }
                LocalGeometry::Box { half_extents: h, center, angle, radius } => {
                    let poly = b2::b2MakeOffsetRoundedBox(h.x, h.y, v(*center), rot(*angle), *radius);
                    b2::b2CreatePolygonShape(body, &sd, &poly);
                }
                LocalGeometry::Polygon { points, radius } => {
                    let pts: Vec<b2::b2Vec2> = points.iter().map(|&p| v(p)).collect();
                    let hull = b2::b2ComputeHull(pts.as_ptr(), pts.len() as i32);
                    if hull.count as usize == pts.len() {
                        b2::b2CreatePolygonShape(body, &sd, &b2::b2MakePolygon(&hull, *radius));
                    } else {
                        self.skipped.add("polygons Box2D does not accept as a hull (left out)");
                    }
                }
            }
        }
    }

    fn add_joint(&mut self, world: &World, joint: &Joint) {
        let p = &world.params;
        let fill = |jd: &mut b2::b2JointDef, base: &JointBase| {
            jd.bodyIdA = self.bodies[base.body_a];
            jd.bodyIdB = self.bodies[base.body_b];
            jd.localFrameA = frame(&base.local_frame_a);
            jd.localFrameB = frame(&base.local_frame_b);
            jd.collideConnected = base.collide_connected;
            jd.constraintHertz = p.joint_hertz;
            jd.constraintDampingRatio = p.joint_damping_ratio;
        };
        let base = match joint {
            Joint::Angle(j) => &j.base,
            Joint::Revolute(j) => &j.base,
            Joint::Prismatic(j) => &j.base,
            Joint::Distance(j) => &j.base,
            Joint::Weld(j) => &j.base,
            Joint::Wheel(j) => &j.base,
        };
        if base.break_force.is_some() || base.break_torque.is_some() {
            self.skipped.add("joint break limits (the joint holds)");
        }
        // SAFETY: the definitions are plain data naming bodies of this live world.
        unsafe {
            match joint {
                Joint::Angle(_) => self.skipped.add("angle joints"),
                Joint::Revolute(j) => {
                    let mut d = b2::b2DefaultRevoluteJointDef();
                    fill(&mut d.base, &j.base);
                    (d.enableSpring, d.hertz, d.dampingRatio, d.targetAngle) =
                        (j.enable_spring, j.hertz, j.damping_ratio, j.target_angle);
                    (d.enableLimit, d.lowerAngle, d.upperAngle) = (j.enable_limit, j.lower_angle, j.upper_angle);
                    (d.enableMotor, d.maxMotorTorque, d.motorSpeed) =
                        (j.enable_motor, j.max_motor_torque, j.motor_speed);
                    self.joints.push(b2::b2CreateRevoluteJoint(self.id, &d));
                }
                Joint::Prismatic(j) => {
                    let mut d = b2::b2DefaultPrismaticJointDef();
                    fill(&mut d.base, &j.base);
                    (d.enableSpring, d.hertz, d.dampingRatio, d.targetTranslation) =
                        (j.enable_spring, j.hertz, j.damping_ratio, j.target_translation);
                    (d.enableLimit, d.lowerTranslation, d.upperTranslation) =
                        (j.enable_limit, j.lower_translation, j.upper_translation);
                    (d.enableMotor, d.maxMotorForce, d.motorSpeed) = (j.enable_motor, j.max_motor_force, j.motor_speed);
                    self.joints.push(b2::b2CreatePrismaticJoint(self.id, &d));
                }
                Joint::Distance(j) => {
                    let mut d = b2::b2DefaultDistanceJointDef();
                    fill(&mut d.base, &j.base);
                    d.length = j.length;
                    (d.enableSpring, d.hertz, d.dampingRatio) = (j.enable_spring, j.hertz, j.damping_ratio);
                    (d.enableLimit, d.minLength, d.maxLength) = (j.enable_limit, j.min_length, j.max_length);
                    (d.enableMotor, d.maxMotorForce, d.motorSpeed) = (j.enable_motor, j.max_motor_force, j.motor_speed);
                    self.joints.push(b2::b2CreateDistanceJoint(self.id, &d));
                }
                Joint::Weld(j) => {
                    let mut d = b2::b2DefaultWeldJointDef();
                    fill(&mut d.base, &j.base);
                    (d.linearHertz, d.linearDampingRatio) = (j.linear_hertz, j.linear_damping_ratio);
                    (d.angularHertz, d.angularDampingRatio) = (j.angular_hertz, j.angular_damping_ratio);
                    self.joints.push(b2::b2CreateWeldJoint(self.id, &d));
                }
                Joint::Wheel(j) => {
                    let mut d = b2::b2DefaultWheelJointDef();
                    fill(&mut d.base, &j.base);
                    (d.enableSpring, d.hertz, d.dampingRatio) = (j.enable_spring, j.hertz, j.damping_ratio);
                    (d.enableLimit, d.lowerTranslation, d.upperTranslation) =
                        (j.enable_limit, j.lower_translation, j.upper_translation);
                    (d.enableMotor, d.maxMotorTorque, d.motorSpeed) =
                        (j.enable_motor, j.max_motor_torque, j.motor_speed);
                    self.joints.push(b2::b2CreateWheelJoint(self.id, &d));
                }
            }
        }
    }
}

/// Box2D's world as a step rule's host: `b2DestroyBody` (its joints and contacts go with
/// it) and the human's bodies and joints translated as the scene's are.
impl SpawnHost for Box2dWorld {
    fn body_count(&self) -> usize {
        self.bodies.len()
    }

    fn remove_bodies(&mut self, sorted: &[usize]) {
        for &i in sorted {
            // SAFETY: the body belongs to this live world and is destroyed once.
            unsafe { b2::b2DestroyBody(self.bodies[i]) };
        }
        let mut k = 0;
        self.bodies.retain(|_| {
            k += 1;
            sorted.binary_search(&(k - 1)).is_err()
        });
        // SAFETY: checking an id is valid on a live world.
        self.joints.retain(|&j| unsafe { b2::b2Joint_IsValid(j) });
    }

    fn add_human(&mut self, human: &HumanDef) {
        let ours = World::new(self.params.clone());
        let bodies: Vec<Body> = human.bodies().iter().map(Body::new).collect();
        let first = self.bodies.len();
        for b in &bodies {
            let id = self.add_body(&ours, b);
            self.bodies.push(id);
        }
        for mut joint in human.joints(&bodies, 0) {
            let base = joint.base_mut();
            (base.body_a, base.body_b) = (base.body_a + first, base.body_b + first);
            self.add_joint(&ours, &joint);
        }
    }
}

impl PeerWorld for Box2dWorld {
    fn engine(&self) -> Engine {
        Engine::Box2d
    }

    fn step(&mut self) {
        if let Some(mut rule) = self.spawner.take() {
            rule.apply(self.step_count, self);
            self.spawner = Some(rule);
        }
        // SAFETY: the world is alive.
        unsafe { b2::b2World_Step(self.id, self.dt, self.substeps) };
        self.step_count += 1;
    }

    fn poses(&self) -> Vec<PeerPose> {
        (self.bodies.iter())
            .map(|&b| {
                // SAFETY: the bodies belong to this live world.
                let (p, q) = unsafe { (b2::b2Body_GetPosition(b), b2::b2Body_GetRotation(b)) };
                PeerPose { position: Vec2::new(p.x, p.y), angle: q.s.atan2(q.c) }
            })
            .collect()
    }

    fn contact_count(&self) -> usize {
        // SAFETY: the world is alive.
        unsafe { b2::b2World_GetCounters(self.id).contactCount as usize }
    }

    fn skipped(&self) -> &Skipped {
        &self.skipped
    }
}

impl Drop for Box2dWorld {
    fn drop(&mut self) {
        let _table = WORLD_TABLE.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: created by b2CreateWorld and destroyed once.
        unsafe { b2::b2DestroyWorld(self.id) };
    }
}
