//! The serde types of a scene file: `Scene`, its bodies and the camera.

use super::fields;
use super::generators::Generator;
use super::joints::JointSpec;
use super::lists;
use super::parts::{self, PartSpec};
use super::shapes::ShapeSpec;
use super::water::WaterSpec;
use crate::engine::math::Transform;
use crate::engine::solver::SolverParams;
use crate::engine::spawn::Spawner;
use crate::engine::{Body, BodyDef, BodyKind, Material, World};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A scene: solver settings, a camera, explicit bodies, body generators and joints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
pub struct Scene {
    /// Format version; only [`fields::FORMAT_VERSION`] is supported.
    #[serde(deserialize_with = "fields::version")]
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default, deserialize_with = "fields::settings")]
    pub settings: SolverParams,
    #[serde(default, deserialize_with = "fields::camera", skip_serializing_if = "Option::is_none")]
    pub camera: Option<Camera>,
    /// Water with buoyancy and drag, if any.
    #[serde(default, deserialize_with = "fields::water", skip_serializing_if = "Option::is_none")]
    pub water: Option<WaterSpec>,
    #[serde(default, deserialize_with = "lists::bodies", skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<BodySpec>,
    #[serde(default, deserialize_with = "lists::generators", skip_serializing_if = "Vec::is_empty")]
    pub generators: Vec<Generator>,
    /// Joints between named bodies (explicit or generated).
    #[serde(default, deserialize_with = "lists::joints", skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointSpec>,
    /// A step rule creating and destroying bodies while the world runs (`engine::spawn`).
    #[serde(default, deserialize_with = "fields::spawner", skip_serializing_if = "Option::is_none")]
    pub spawner: Option<Spawner>,
}

impl Scene {
    /// An empty scene with default settings.
    pub fn new(name: &str) -> Scene {
        Scene {
            version: fields::FORMAT_VERSION,
            name: name.to_string(),
            description: String::new(),
            settings: SolverParams::default(),
            camera: None,
            water: None,
            bodies: Vec::new(),
            generators: Vec::new(),
            joints: Vec::new(),
            spawner: None,
        }
    }
}

/// What the view shows at open: `height` world units vertically, centred on `center`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Camera {
    #[serde(deserialize_with = "fields::center")]
    pub center: Vec2,
    #[serde(deserialize_with = "fields::height")]
    pub height: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Camera { center: Vec2::new(0.0, 5.0), height: 25.0 }
    }
}

/// One body, written explicitly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Body", deny_unknown_fields)]
pub struct BodySpec {
    #[serde(default, deserialize_with = "fields::name", skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "is_dynamic")]
    pub kind: BodyKind,
    /// Position of the body origin (the shape's frame).
    #[serde(deserialize_with = "fields::position")]
    pub position: Vec2,
    #[serde(default, deserialize_with = "fields::angle", skip_serializing_if = "is_zero")]
    pub angle: f32,
    #[serde(default, deserialize_with = "fields::linear_velocity", skip_serializing_if = "is_zero_vec")]
    pub linear_velocity: Vec2,
    #[serde(default, deserialize_with = "fields::angular_velocity", skip_serializing_if = "is_zero")]
    pub angular_velocity: f32,
    /// The body's one shape, at its origin; or `shapes` (not both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<ShapeSpec>,
    /// Several shapes, each with its offset, angle, material and filter (`scene::parts`).
    #[serde(default, deserialize_with = "parts::parts", skip_serializing_if = "Option::is_none")]
    pub shapes: Option<Vec<PartSpec>>,
    // `density`, `friction` and `restitution` are the scene syntax of the body's [`Material`]
    // (`BodySpec::material`): flat fields, as scenes have always written them. Nesting them
    // with `#[serde(flatten)]` would make serde read the body as a map, which RON 0.8 only
    // accepts in `{ "key": value }` syntax, breaking every scene file.
    #[serde(default = "default_density", deserialize_with = "fields::density", skip_serializing_if = "is_one")]
    pub density: f32,
    #[serde(
        default = "default_friction",
        deserialize_with = "fields::friction",
        skip_serializing_if = "is_default_friction"
    )]
    pub friction: f32,
    #[serde(default, deserialize_with = "fields::restitution", skip_serializing_if = "is_zero")]
    pub restitution: f32,
    #[serde(default, deserialize_with = "fields::linear_damping", skip_serializing_if = "is_zero")]
    pub linear_damping: f32,
    #[serde(default, deserialize_with = "fields::angular_damping", skip_serializing_if = "is_zero")]
    pub angular_damping: f32,
    #[serde(
        default = "default_gravity_scale",
        deserialize_with = "fields::gravity_scale",
        skip_serializing_if = "is_one"
    )]
    pub gravity_scale: f32,
    /// World centre of mass, overriding the one implied by `position`. Saves write it only
    /// when `position` alone cannot reproduce the centre bit for bit; it must agree with
    /// `position` to within a millimetre per metre.
    #[serde(default, deserialize_with = "fields::center_of_mass", skip_serializing_if = "Option::is_none")]
    pub center: Option<Vec2>,
    /// Continuous collision against dynamic bodies too (see [`BodyDef::bullet`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bullet: bool,
    /// Whether a dynamic body starts awake (see [`BodyDef::awake`]): `awake: false` creates it
    /// asleep, as Box2D's `isAwake = false` (its smash benchmark's wall of boxes).
    #[serde(default = "default_awake", skip_serializing_if = "is_true")]
    pub awake: bool,
    /// Collision filter (Box2D's `b2Filter`): bodies collide when each one's category is in
    /// the other's mask.
    #[serde(default = "default_category", skip_serializing_if = "is_default_category")]
    pub category_bits: u32,
    #[serde(default = "default_mask", skip_serializing_if = "is_default_mask")]
    pub mask_bits: u32,
}

impl BodySpec {
    /// A body with default material at rest.
    pub fn new(kind: BodyKind, shape: ShapeSpec, position: Vec2) -> BodySpec {
        BodySpec::from_def(&BodyDef::new(kind, shape.shape(), position))
    }

    /// Checks between fields (single fields are checked while parsing).
    pub fn check(&self) -> Result<(), String> {
        self.check_fields().map_err(|(_, msg)| msg)
    }

    /// [`BodySpec::check`], also naming the field to blame.
    pub(crate) fn check_fields(&self) -> Result<(), (&'static str, String)> {
        match (&self.shape, &self.shapes) {
            (Some(_), Some(_)) => {
                return Err(("shapes", "a body has either one `shape` or a list of `shapes`, not both".into()));
            }
            (None, None) => return Err(("position", "missing field `shape` (or `shapes: [...]`)".into())),
            _ => {}
        }
        if let Some(k) = self.shapes.iter().flatten().position(|p| self.kind == BodyKind::Dynamic && p.density <= 0.0) {
            return Err(("shapes", format!("shape {k}'s `density` must be > 0 for a dynamic body")));
        }
        if !self.awake && self.kind != BodyKind::Dynamic {
            return Err((
                "awake",
                format!("only a dynamic body can start asleep (`awake: false`), this one is {:?}", self.kind),
            ));
        }
        if self.kind == BodyKind::Dynamic && self.density <= 0.0 {
            return Err(("density", format!("`density` must be > 0 for a dynamic body, got {}", self.density)));
        }
        if let Some(center) = self.center {
            let implied = self.implied_center();
            if (center - implied).length() > 1e-3 * implied.length().max(1.0) {
                return Err((
                    "center",
                    format!("`center` {center} is not the centre of mass implied by `position`, {implied}"),
                ));
            }
        }
        Ok(())
    }

    /// The centre of mass the engine derives from `position`, `angle` and the shape.
    pub fn implied_center(&self) -> Vec2 {
        let def = self.to_def();
        let local = if def.parts.is_empty() {
            def.shape.mass_data(self.density.max(0.0)).center
        } else {
            crate::engine::compound::combined_mass(&def.parts).center
        };
        Transform::new(self.position, self.angle).apply(local)
    }

    /// Adds the body to `world`, returning its index.
    pub fn create_in(&self, world: &mut World) -> usize {
        let index = world.create_body(&self.to_def());
        if let Some(center) = self.center {
            world.bodies[index].center = center;
        }
        index
    }

    /// The material, from the scene syntax's flat `density`, `friction` and `restitution`.
    pub fn material(&self) -> Material {
        Material { density: self.density, friction: self.friction, restitution: self.restitution }
    }

    /// The engine definition (without the `center` override, see [`BodySpec::create_in`]).
    pub fn to_def(&self) -> BodyDef {
        let parts: Vec<_> = self.shapes.iter().flatten().map(PartSpec::to_part).collect();
        BodyDef {
            name: self.name.clone(),
            kind: self.kind,
            shape: self.shape.as_ref().map_or_else(|| parts[0].shape, ShapeSpec::shape),
            position: self.position,
            angle: self.angle,
            linear_velocity: self.linear_velocity,
            angular_velocity: self.angular_velocity,
            material: self.material(),
            linear_damping: self.linear_damping,
            angular_damping: self.angular_damping,
            gravity_scale: self.gravity_scale,
            bullet: self.bullet,
            awake: self.awake,
            category_bits: self.category_bits,
            mask_bits: self.mask_bits,
            parts,
        }
    }

    pub fn from_def(def: &BodyDef) -> BodySpec {
        BodySpec {
            name: def.name.clone(),
            kind: def.kind,
            position: def.position,
            angle: def.angle,
            linear_velocity: def.linear_velocity,
            angular_velocity: def.angular_velocity,
            shape: def.parts.is_empty().then(|| ShapeSpec::from_shape(&def.shape)),
            shapes: (!def.parts.is_empty()).then(|| def.parts.iter().map(PartSpec::from_part).collect()),
            density: def.material.density,
            friction: def.material.friction,
            restitution: def.material.restitution,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            center: None,
            bullet: def.bullet,
            awake: def.awake || def.kind != BodyKind::Dynamic,
            category_bits: def.category_bits,
            mask_bits: def.mask_bits,
        }
    }

    /// A live body with its current pose and velocities; rebuilding it gives the same
    /// centre of mass bit for bit (see [`super::save`]).
    pub fn from_body(body: &Body) -> BodySpec {
        let mut spec = BodySpec::from_def(&BodyDef {
            name: body.name.clone(),
            kind: body.kind,
            shape: body.shape,
            position: body.xf.p,
            angle: body.angle,
            linear_velocity: body.linear_velocity,
            angular_velocity: body.angular_velocity,
            material: body.material,
            linear_damping: body.linear_damping,
            angular_damping: body.angular_damping,
            gravity_scale: body.gravity_scale,
            bullet: body.bullet,
            awake: body.awake || body.kind != BodyKind::Dynamic,
            category_bits: body.category_bits,
            mask_bits: body.mask_bits,
            parts: body.parts.clone(),
        });
        match super::save::exact_origin(body) {
            Some(origin) => spec.position = origin,
            None => spec.center = Some(body.center),
        }
        spec
    }
}

pub(crate) fn default_density() -> f32 {
    Material::DEFAULT.density
}

pub(crate) fn default_friction() -> f32 {
    Material::DEFAULT.friction
}

fn default_gravity_scale() -> f32 {
    1.0
}

fn default_category() -> u32 {
    crate::engine::body::DEFAULT_CATEGORY
}

fn default_mask() -> u32 {
    crate::engine::body::DEFAULT_MASK
}

fn is_default_category(x: &u32) -> bool {
    *x == default_category()
}

fn is_default_mask(x: &u32) -> bool {
    *x == default_mask()
}

// Defaults are compared bit for bit so that -0.0 is still written (state hashes see it).
pub(crate) fn is_zero(x: &f32) -> bool {
    x.to_bits() == 0
}

pub(crate) fn is_one(x: &f32) -> bool {
    x.to_bits() == 1.0f32.to_bits()
}

fn is_default_friction(x: &f32) -> bool {
    x.to_bits() == default_friction().to_bits()
}

fn is_zero_vec(v: &Vec2) -> bool {
    is_zero(&v.x) && is_zero(&v.y)
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn default_awake() -> bool {
    true
}

fn is_dynamic(kind: &BodyKind) -> bool {
    *kind == BodyKind::Dynamic
}
