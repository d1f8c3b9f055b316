//! Rigid bodies: kind, pose, velocities, material and mass properties.

use super::math::{Rot, Transform};
use super::shape::Shape;
use glam::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum BodyKind {
    /// Never moves; infinite mass.
    Static,
    /// Moves with the velocity it is given; infinite mass, unaffected by contacts.
    Kinematic,
    /// Moved by gravity, contacts and joints.
    #[default]
    Dynamic,
}

/// Everything needed to create a body.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDef {
    pub name: String,
    pub kind: BodyKind,
    pub shape: Shape,
    /// Position of the body origin (the shape's frame), not of its centre of mass.
    pub position: Vec2,
    pub angle: f32,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    /// Continuous collision also against non-bullet dynamic and kinematic bodies, not only
    /// static ones (Box2D's `isBullet`).
    pub bullet: bool,
}

impl BodyDef {
    pub fn new(kind: BodyKind, shape: Shape, position: Vec2) -> BodyDef {
        BodyDef {
            name: String::new(),
            kind,
            shape,
            position,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            bullet: false,
        }
    }
}

/// A rigid body. The solver moves the centre of mass (`center`, `angle`); `xf` is the body
/// origin's transform derived from them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body {
    pub name: String,
    pub kind: BodyKind,
    pub shape: Shape,
    pub xf: Transform,
    /// Angle in radians (the article keeps radians and the cached rotation side by side).
    pub angle: f32,
    /// Centre of mass in world space.
    pub center: Vec2,
    /// Centre of mass in the body frame.
    pub local_center: Vec2,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    /// See [`BodyDef::bullet`].
    #[serde(default)]
    pub bullet: bool,
    pub mass: f32,
    pub inv_mass: f32,
    pub inertia: f32,
    pub inv_inertia: f32,
    /// Centre and rotation at the start of the current step (contact separation tracking).
    pub(crate) center0: Vec2,
    pub(crate) q0: Rot,
}

impl Body {
    pub fn new(def: &BodyDef) -> Body {
        let xf = Transform::new(def.position, def.angle);
        let mut body = Body {
            name: def.name.clone(),
            kind: def.kind,
            shape: def.shape,
            xf,
            angle: def.angle,
            center: def.position,
            local_center: Vec2::ZERO,
            linear_velocity: def.linear_velocity,
            angular_velocity: def.angular_velocity,
            density: def.density,
            friction: def.friction,
            restitution: def.restitution,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            bullet: def.bullet,
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            center0: def.position,
            q0: xf.q,
        };
        body.update_mass();
        body
    }

    /// Recomputes mass, inertia and centre of mass from the shape and density.
    pub fn update_mass(&mut self) {
        let md = self.shape.mass_data(self.density.max(0.0));
        self.local_center = md.center;
        self.center = self.xf.apply(md.center);
        self.center0 = self.center;
        if self.kind == BodyKind::Dynamic && md.mass > 0.0 {
            self.mass = md.mass;
            self.inv_mass = 1.0 / md.mass;
            self.inertia = md.inertia;
            self.inv_inertia = if md.inertia > 0.0 { 1.0 / md.inertia } else { 0.0 };
        } else {
            self.mass = 0.0;
            self.inv_mass = 0.0;
            self.inertia = 0.0;
            self.inv_inertia = 0.0;
        }
        if self.kind == BodyKind::Static {
            self.linear_velocity = Vec2::ZERO;
            self.angular_velocity = 0.0;
        }
    }

    /// Places the body origin at `position` with `angle`.
    pub fn set_transform(&mut self, position: Vec2, angle: f32) {
        self.angle = angle;
        self.xf = Transform::new(position, angle);
        self.center = self.xf.apply(self.local_center);
        self.center0 = self.center;
        self.q0 = self.xf.q;
    }

    /// Recomputes the origin transform from the centre of mass and angle.
    pub(crate) fn sync_transform(&mut self) {
        self.xf.q = Rot::from_angle(self.angle);
        self.xf.p = self.center - self.xf.q.apply(self.local_center);
    }

    pub fn position(&self) -> Vec2 {
        self.xf.p
    }

    /// Velocity of the world point `p` attached to the body.
    pub fn velocity_at(&self, p: Vec2) -> Vec2 {
        self.linear_velocity + super::math::cross_sv(self.angular_velocity, p - self.center)
    }

    pub fn kinetic_energy(&self) -> f32 {
        0.5 * self.mass * self.linear_velocity.length_squared()
            + 0.5 * self.inertia * self.angular_velocity * self.angular_velocity
    }

    /// Distance from the centre of mass to the furthest point of the shape.
    pub fn bounding_radius(&self) -> f32 {
        match &self.shape {
            Shape::Circle(c) => c.radius + self.local_center.length(),
            Shape::Polygon(p) => p.vertices().iter().map(|v| (*v - self.local_center).length()).fold(0.0, f32::max),
        }
    }

    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }
}
