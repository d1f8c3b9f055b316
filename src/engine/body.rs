//! Rigid bodies: kind, pose, velocities, material and mass properties.

use super::compound::{self, Part};
use super::material::Material;
use super::math::{Aabb, Rot, Transform};
use super::shape::ray::{CastOutput, RayCastInput};
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
    pub material: Material,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    /// Continuous collision also against non-bullet dynamic and kinematic bodies, not only
    /// static ones (Box2D's `isBullet`).
    pub bullet: bool,
    /// Whether a dynamic body starts awake (Box2D's `isAwake`; true by default). A body created
    /// asleep is skipped by the solver until something awake touches it or it is given a
    /// velocity or a force; static and kinematic bodies ignore it.
    pub awake: bool,
    /// Collision filter (Box2D's `b2Filter`): two bodies collide when each one's category
    /// is in the other's mask.
    pub category_bits: u32,
    pub mask_bits: u32,
    /// Several shapes (`engine::compound`): empty for a body of one shape (`shape`, with
    /// `material` and the filter above); else every shape of the body, and `shape`,
    /// `material` and the filter are ignored.
    pub parts: Vec<Part>,
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
            material: Material::DEFAULT,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            bullet: false,
            awake: true,
            category_bits: DEFAULT_CATEGORY,
            mask_bits: DEFAULT_MASK,
            parts: Vec::new(),
        }
    }
}

/// Default collision category and mask: everything collides with everything.
pub const DEFAULT_CATEGORY: u32 = 1;
pub const DEFAULT_MASK: u32 = u32::MAX;

/// A rigid body. The solver moves the centre of mass (`center`, `angle`); `xf` is the body
/// origin's transform derived from them.
///
/// Laid out by hand (`repr(C)`, each body on its own cache lines): the first line holds what
/// most of a step's passes over the bodies read (pose, start-of-step pose, velocities, kind,
/// awake), the second the mass, damping, forces and filter, then the material, the parts of a body
/// of several shapes (beside the material, which the narrowphase reads too), shape and name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[repr(C, align(64))]
pub struct Body {
    pub xf: Transform,
    /// Centre of mass in world space.
    pub center: Vec2,
    /// Centre and rotation at the start of the current step (contact separation tracking).
    pub(crate) center0: Vec2,
    pub(crate) q0: Rot,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    /// Angle in radians (the article keeps radians and the cached rotation side by side).
    pub angle: f32,
    pub kind: BodyKind,
    /// Dynamic bodies: whether the body is simulated (asleep: skipped by the solver, its
    /// velocities zero). Static and kinematic bodies: set for one step after an edit, so
    /// sleeping bodies they touch are collided again.
    #[serde(default = "awake_default")]
    pub awake: bool,
    /// See [`BodyDef::bullet`].
    #[serde(default)]
    pub bullet: bool,
    /// The largest distance from the centre of mass to the shape's surface (Box2D v3's
    /// `b2BodySim::maxExtent`), kept with the shape by [`Body::update_mass`] so contact
    /// recycling (`solver::recycle`) does not recompute it per pair. Unknown (infinite, so no
    /// contact of the body is recycled) in data saved before it existed.
    #[serde(default = "unknown_extent")]
    pub extent: f32,
    /// The distance from the centre of mass to the nearest face plane (with `extent`, what
    /// `shape::extents::shape_extents` gives), kept by [`Body::update_mass`] for the continuous pass,
    /// which reads it for every moving body every step. Unknown (computed when needed) in data
    /// saved before it existed.
    #[serde(default = "unknown_extent")]
    pub(crate) min_extent: f32,
    /// Centre of mass in the body frame.
    pub local_center: Vec2,
    pub mass: f32,
    pub inv_mass: f32,
    pub inertia: f32,
    pub inv_inertia: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    /// Force (at the centre of mass, newtons) and torque (N·m) applied during the next step,
    /// then cleared (Box2D's `b2Body_ApplyForceToCenter` / `ApplyTorque`).
    #[serde(default)]
    pub force: Vec2,
    #[serde(default)]
    pub torque: f32,
    /// How long the body has been still, seconds (see `engine::island`).
    #[serde(default)]
    pub sleep_time: f32,
    /// Collision filter: see [`BodyDef::category_bits`].
    #[serde(default = "default_category")]
    pub category_bits: u32,
    #[serde(default = "default_mask")]
    pub mask_bits: u32,
    pub material: Material,
    /// Every shape of a multi-part body (`engine::compound`); empty for a body of one shape,
    /// which is `shape` at the body origin. A compound's `shape` and `material` are its first
    /// part's (without its offset) and its filter the union of its parts'.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
    pub shape: Shape,
    pub name: String,
}

// The per-step passes' fields share the first cache line.
const _: () = assert!(std::mem::offset_of!(Body, extent) + 4 <= 64);

/// Least mass of a dynamic body that has any, kg. Density and size are each in range, but
/// their product need not be: density 1e-30 on a 0.005 m circle is 8e-35 kg with an inertia
/// below f32's normal range, whose inverse is infinite. Lighter bodies get this mass, with
/// their inertia scaled alike (as if their density were higher).
pub const MIN_MASS: f32 = 1.0e-6;
/// Least rotational inertia of a dynamic body that has mass, kg·m² (a 0.005 m circle of
/// [`MIN_MASS`] has 1.25e-11).
pub const MIN_INERTIA: f32 = 1.0e-12;

/// `mass` and `inertia` raised to [`MIN_MASS`] and [`MIN_INERTIA`] (unchanged when above;
/// an inertia lost to underflow gets the floor too).
fn floored_mass(mass: f32, inertia: f32) -> (f32, f32) {
    let (mass, inertia) = if mass < MIN_MASS { (MIN_MASS, inertia * (MIN_MASS / mass)) } else { (mass, inertia) };
    (mass, inertia.max(MIN_INERTIA))
}

fn awake_default() -> bool {
    true
}

fn unknown_extent() -> f32 {
    f32::INFINITY
}

fn default_category() -> u32 {
    DEFAULT_CATEGORY
}

fn default_mask() -> u32 {
    DEFAULT_MASK
}

impl Body {
    /// A body from its definition. Panics when `def.parts` holds more than
    /// [`compound::MAX_PARTS`] shapes (scenes refuse them with a located error).
    pub fn new(def: &BodyDef) -> Body {
        assert!(def.parts.len() <= compound::MAX_PARTS, "a body holds at most {} shapes", compound::MAX_PARTS);
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
            material: def.material,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            bullet: def.bullet,
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            category_bits: def.category_bits,
            mask_bits: def.mask_bits,
            awake: true,
            sleep_time: 0.0,
            force: Vec2::ZERO,
            torque: 0.0,
            extent: f32::INFINITY,
            min_extent: f32::INFINITY,
            center0: def.position,
            q0: xf.q,
            parts: def.parts.clone(),
        };
        body.sync_parts();
        body.update_mass();
        if def.kind == BodyKind::Dynamic && !def.awake {
            body.awake = false;
        }
        body
    }

    /// Marks the body awake with a fresh sleep timer (its island wakes at the next step).
    pub fn wake(&mut self) {
        self.awake = true;
        self.sleep_time = 0.0;
    }

    /// Recomputes mass, inertia, centre of mass and extent from the shape and density (and
    /// wakes the body: an edit). Call it after every shape edit.
    pub fn update_mass(&mut self) {
        self.wake();
        let md = if self.parts.is_empty() {
            self.shape.mass_data(self.material.density.max(0.0))
        } else {
            compound::combined_mass(&self.parts)
        };
        self.local_center = md.center;
        (self.min_extent, self.extent) = self.compute_extents(md.center);
        self.center = self.xf.apply(md.center);
        self.center0 = self.center;
        if self.kind == BodyKind::Dynamic && md.mass > 0.0 {
            let (mass, inertia) = floored_mass(md.mass, md.inertia);
            self.mass = mass;
            self.inv_mass = 1.0 / mass;
            self.inertia = inertia;
            self.inv_inertia = if inertia > 0.0 { 1.0 / inertia } else { 0.0 };
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

    /// Places the body origin at `position` with `angle` (and wakes it: an edit).
    pub fn set_transform(&mut self, position: Vec2, angle: f32) {
        self.wake();
        self.angle = angle;
        self.xf = Transform::new(position, angle);
        self.center = self.xf.apply(self.local_center);
        self.center0 = self.center;
        self.q0 = self.xf.q;
    }

    /// The origin transform at the start of the last step's solve, where the step's
    /// contacts were found (the current one until the body first steps or after an edit).
    pub fn start_transform(&self) -> Transform {
        Transform { q: self.q0, p: self.center0 - self.q0.apply(self.local_center) }
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
    /// The smallest and largest extent about the centre of mass (`shape::extents::shape_extents`),
    /// as kept by [`Body::update_mass`], or computed when unknown (a loaded body).
    #[inline]
    pub fn extents(&self) -> (f32, f32) {
        if self.min_extent.is_finite() && self.extent.is_finite() {
            (self.min_extent, self.extent)
        } else {
            self.compute_extents(self.local_center)
        }
    }

    fn compute_extents(&self, center: Vec2) -> (f32, f32) {
        if self.parts.is_empty() {
            super::shape::extents::shape_extents(&self.shape, center)
        } else {
            compound::combined_extents(&self.parts, center)
        }
    }

    /// After `parts` changed: the first part's shape and material stand for the body where
    /// one value is read (`shape`, `material`), and the filter is the union of the parts'
    /// (the body-level broadphase lets through what any shape pair might accept). Nothing for
    /// a body of one shape. Call [`Body::update_mass`] next.
    pub fn sync_parts(&mut self) {
        if let Some(first) = self.parts.first() {
            self.shape = first.shape;
            self.material = first.material;
            (self.category_bits, self.mask_bits) = compound::combined_filter(&self.parts);
        }
    }

    /// How many shapes the body holds (1 for a body of one shape).
    #[inline]
    pub fn shape_count(&self) -> usize {
        self.parts.len().max(1)
    }

    /// Shape `k` and its world transform (shape 0 at the body origin for a body of one shape).
    #[inline]
    pub fn shape_at(&self, k: usize) -> (&Shape, Transform) {
        if self.parts.is_empty() {
            (&self.shape, self.xf)
        } else {
            self.part_at(k, &self.xf)
        }
    }

    /// Shape `k` placed with the body at transform `xf` (a past or future pose).
    #[inline]
    pub fn shape_at_pose(&self, k: usize, xf: &Transform) -> (&Shape, Transform) {
        if self.parts.is_empty() {
            (&self.shape, *xf)
        } else {
            self.part_at(k, xf)
        }
    }

    fn part_at(&self, k: usize, xf: &Transform) -> (&Shape, Transform) {
        let p = &self.parts[k];
        (&p.shape, compound::compose(xf, &p.local()))
    }

    /// Every shape with its world transform.
    pub fn shapes(&self) -> impl Iterator<Item = (&Shape, Transform)> + '_ {
        (0..self.shape_count()).map(|k| self.shape_at(k))
    }

    /// Shape `k`'s material (the body's for a body of one shape).
    #[inline]
    pub fn material_at(&self, k: usize) -> Material {
        self.parts.get(k).map_or(self.material, |p| p.material)
    }

    /// Shape `k`'s collision filter `(category, mask)`.
    #[inline]
    pub fn filter_at(&self, k: usize) -> (u32, u32) {
        self.parts.get(k).map_or((self.category_bits, self.mask_bits), |p| (p.category_bits, p.mask_bits))
    }

    /// The box around every shape at the body's transform.
    #[inline]
    pub fn compute_aabb(&self) -> Aabb {
        self.aabb_at(&self.xf)
    }

    /// The box around every shape with the body at transform `xf`.
    #[inline]
    pub fn aabb_at(&self, xf: &Transform) -> Aabb {
        if self.parts.is_empty() {
            self.shape.compute_aabb(xf)
        } else {
            compound::combined_aabb(&self.parts, xf)
        }
    }

    /// Whether the world point lies in any of the body's shapes.
    pub fn test_point(&self, point: Vec2) -> bool {
        self.test_point_at(&self.xf, point)
    }

    /// Whether the world point lies in any of the body's shapes with the body at `xf`.
    pub fn test_point_at(&self, xf: &Transform, point: Vec2) -> bool {
        (0..self.shape_count()).any(|k| {
            let (s, at) = self.shape_at_pose(k, xf);
            s.test_point(&at, point)
        })
    }

    /// Where the ray first enters any of the body's shapes (Box2D's `b2Body` ray cast over
    /// its shapes: the least fraction wins, the lower shape on a tie).
    pub fn ray_cast(&self, input: &RayCastInput) -> Option<CastOutput> {
        if self.parts.is_empty() {
            return self.shape.ray_cast(&self.xf, input);
        }
        self.shapes()
            .filter_map(|(s, xf)| s.ray_cast(&xf, input))
            .reduce(|a, b| if b.fraction < a.fraction { b } else { a })
    }

    /// Index of the first shape holding the world point.
    pub fn shape_index_at(&self, point: Vec2) -> Option<usize> {
        (0..self.shape_count()).find(|&k| {
            let (s, xf) = self.shape_at(k);
            s.test_point(&xf, point)
        })
    }

    pub fn bounding_radius(&self) -> f32 {
        if !self.parts.is_empty() {
            return self.extent_about(self.local_center);
        }
        match &self.shape {
            Shape::Circle(c) => c.radius + self.local_center.length(),
            Shape::Polygon(p) => {
                let far = p.vertices().iter().map(|v| (*v - self.local_center).length()).fold(0.0, f32::max);
                if p.radius > 0.0 {
                    far + p.radius
                } else {
                    far
                }
            }
            Shape::Capsule(c) => {
                c.radius + (c.center1 - self.local_center).length().max((c.center2 - self.local_center).length())
            }
        }
    }

    /// Distance from `center` (body frame) to the furthest point of any shape.
    fn extent_about(&self, center: Vec2) -> f32 {
        compound::combined_extents(&self.parts, center).1
    }

    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }

    /// Box2D's `b2ShouldShapesCollide`: each body's category is in the other's mask.
    pub fn should_collide(&self, other: &Body) -> bool {
        self.category_bits & other.mask_bits != 0 && other.category_bits & self.mask_bits != 0
    }
}
