//! Layouts of the generators that create joints as well as bodies: a chain (Box2D's chain and
//! bridge samples), Box2D's joint grid benchmark, and a capsule ragdoll (after Box2D's human
//! sample). Each returns its bodies and its joints; joints refer to the generator's own bodies
//! by index (`first` is the index of its first body in the world) and to named bodies by name.

use super::generators::{Generator, MAX_GENERATED_BODIES};
use super::joints::{BodyRef, JointSpec};
use crate::engine::shape::Shape;
use crate::engine::{BodyDef, BodyKind, Material};
use glam::Vec2;

/// Material and naming shared by a generator's bodies.
pub(crate) struct Style<'a> {
    pub prefix: &'a str,
    pub material: Material,
}

impl<'a> Style<'a> {
    /// The scene syntax's flat material fields, mapped to a [`Material`].
    pub fn new(prefix: &'a str, density: f32, friction: f32, restitution: f32) -> Style<'a> {
        Style { prefix, material: Material { density, friction, restitution } }
    }

    /// Body number `i` of the generator, named `{prefix}{i}`.
    pub fn def(&self, i: usize, kind: BodyKind, shape: Shape, position: Vec2, angle: f32) -> BodyDef {
        let mut def = BodyDef::new(kind, shape, position);
        def.name = format!("{}{i}", self.prefix);
        def.angle = angle;
        def.material = self.material;
        def
    }
}

/// A revolute joint at `anchor` with joint friction (a motor at speed 0 capped at `friction`,
/// Box2D's idiom) and optional limits.
fn hinge(a: BodyRef, b: BodyRef, anchor: Vec2, friction: f32, limits: Option<(f32, f32)>) -> JointSpec {
    JointSpec::Revolute {
        a,
        b,
        frame_a: None,
        frame_b: None,
        collide_connected: false,
        break_force: None,
        break_torque: None,
        anchor: Some(anchor),
        lower: limits.map(|l| l.0),
        upper: limits.map(|l| l.1),
        motor_speed: 0.0,
        max_motor_torque: (friction > 0.0).then_some(friction),
        hertz: None,
        damping_ratio: 0.0,
        target_angle: 0.0,
    }
}

/// The distance between a link's two pivots: the capsule's segment, the box's or polygon's
/// extent along x, the circle's diameter.
pub(crate) fn link_pitch(shape: &Shape) -> f32 {
    match shape {
        Shape::Capsule(c) => c.length(),
        Shape::Circle(c) => 2.0 * c.radius,
        Shape::Polygon(p) => {
            let xs = p.vertices().iter().map(|v| v.x);
            xs.clone().fold(f32::MIN, f32::max) - xs.fold(f32::MAX, f32::min)
        }
    }
}

/// `count` links from `origin` along `direction`, hinged at their shared ends, the first
/// to `start` at `origin` and the last to `end` at the chain's far end when given.
#[allow(clippy::too_many_arguments)]
pub(crate) fn chain(
    first: usize,
    count: u32,
    origin: Vec2,
    direction: Vec2,
    link: Shape,
    start: Option<&BodyRef>,
    end: Option<&BodyRef>,
    friction_torque: f32,
    style: &Style,
) -> (Vec<BodyDef>, Vec<JointSpec>) {
    let dir = direction.normalize_or(Vec2::X);
    let angle = dir.y.atan2(dir.x);
    let pitch = link_pitch(&link);
    let n = count as usize;
    let bodies: Vec<BodyDef> =
        (0..n).map(|i| style.def(i, BodyKind::Dynamic, link, origin + dir * pitch * (i as f32 + 0.5), angle)).collect();
    let pivot = |i: usize| origin + dir * pitch * i as f32;
    let own = |i: usize| BodyRef::Index(first + i);
    let mut joints = Vec::with_capacity(n + 1);
    if let Some(s) = start {
        joints.push(hinge(s.clone(), own(0), pivot(0), friction_torque, None));
    }
    for i in 1..n {
        joints.push(hinge(own(i - 1), own(i), pivot(i), friction_torque, None));
    }
    if let (Some(e), true) = (end, n > 0) {
        joints.push(hinge(own(n - 1), e.clone(), pivot(n), friction_torque, None));
    }
    (bodies, joints)
}

/// Box2D's joint grid benchmark (`benchmark/joint_grid`): `size × size` circles of `radius`
/// `spacing` apart, column `k` at `x = k`, row `i` at `y = −i`, each hinged to the one above
/// and the one to its left halfway between them; the middle `anchors` of the top row are
/// static. The circles do not collide with each other (category 2, mask `!2`).
pub(crate) fn joint_grid(
    first: usize,
    size: u32,
    origin: Vec2,
    radius: f32,
    spacing: f32,
    anchors: u32,
    style: &Style,
) -> (Vec<BodyDef>, Vec<JointSpec>) {
    let n = size as usize;
    let Ok(circle) = Shape::circle(radius) else { return (Vec::new(), Vec::new()) };
    let (lo, hi) = ((n / 2) as i64 - (anchors as i64) / 2, (n / 2) as i64 + (anchors as i64 - 1) / 2);
    let mut bodies = Vec::with_capacity(n * n);
    let mut joints = Vec::with_capacity(2 * n * n);
    let at = |k: usize, i: usize| origin + spacing * Vec2::new(k as f32, -(i as f32));
    for k in 0..n {
        for i in 0..n {
            let index = bodies.len();
            let fixed = i == 0 && (lo..=hi).contains(&(k as i64)) && anchors > 0;
            let kind = if fixed { BodyKind::Static } else { BodyKind::Dynamic };
            let mut def = style.def(index, kind, circle, at(k, i), 0.0);
            (def.category_bits, def.mask_bits) = (2, !2);
            bodies.push(def);
            if i > 0 {
                joints.push(hinge(
                    BodyRef::Index(first + index - 1),
                    BodyRef::Index(first + index),
                    at(k, i) + Vec2::new(0.0, 0.5 * spacing),
                    0.0,
                    None,
                ));
            }
            // Box2D also hinges neighbouring anchors to each other; two static bodies cannot
            // form a joint here, and that joint does nothing anyway.
            let left_fixed = i == 0 && k > 0 && (lo..=hi).contains(&(k as i64 - 1)) && anchors > 0;
            if k > 0 && !(fixed && left_fixed) {
                joints.push(hinge(
                    BodyRef::Index(first + index - n),
                    BodyRef::Index(first + index),
                    at(k, i) - Vec2::new(0.5 * spacing, 0.0),
                    0.0,
                    None,
                ));
            }
        }
    }
    (bodies, joints)
}

/// One bone of the ragdoll: a vertical capsule (half length, radius) centred at `center`,
/// hinged to bone `parent` at `pivot` within `limits` (radians); metres for a 1.5 m figure.
struct Bone {
    half_length: f32,
    radius: f32,
    center: (f32, f32),
    parent: Option<usize>,
    pivot: (f32, f32),
    limits: (f32, f32),
}

const fn bone(h: f32, r: f32, c: (f32, f32), parent: Option<usize>, pivot: (f32, f32), limits: (f32, f32)) -> Bone {
    Bone { half_length: h, radius: r, center: c, parent, pivot, limits }
}

const PI: f32 = std::f32::consts::PI;

/// Hip, torso, head, then left and right legs (upper, lower) and arms (upper, lower), after
/// Box2D's human sample; the limbs stand apart so only hinged bones touch at rest.
const BONES: [Bone; 11] = [
    bone(0.03, 0.1, (0.0, 0.95), None, (0.0, 0.0), (0.0, 0.0)),
    bone(0.14, 0.1, (0.0, 1.22), Some(0), (0.0, 1.0), (-0.25 * PI, 0.0)),
    bone(0.04, 0.09, (0.0, 1.52), Some(1), (0.0, 1.43), (-0.3 * PI, 0.1 * PI)),
    bone(0.13, 0.065, (-0.09, 0.74), Some(0), (-0.09, 0.9), (-0.05 * PI, 0.4 * PI)),
    bone(0.14, 0.05, (-0.09, 0.36), Some(3), (-0.09, 0.55), (-0.5 * PI, 0.0)),
    bone(0.13, 0.065, (0.09, 0.74), Some(0), (0.09, 0.9), (-0.05 * PI, 0.4 * PI)),
    bone(0.14, 0.05, (0.09, 0.36), Some(5), (0.09, 0.55), (-0.5 * PI, 0.0)),
    bone(0.11, 0.045, (-0.22, 1.22), Some(1), (-0.22, 1.36), (-0.1 * PI, 0.8 * PI)),
    bone(0.1, 0.04, (-0.22, 0.94), Some(7), (-0.22, 1.08), (-0.2 * PI, 0.3 * PI)),
    bone(0.11, 0.045, (0.22, 1.22), Some(1), (0.22, 1.36), (-0.1 * PI, 0.8 * PI)),
    bone(0.1, 0.04, (0.22, 0.94), Some(9), (0.22, 1.08), (-0.2 * PI, 0.3 * PI)),
];

/// A capsule ragdoll standing with its feet at `origin`, `scale` times 1.5 m tall; its
/// hinges have limits and joint friction (`friction_torque`, scaled with the figure).
pub(crate) fn ragdoll(
    first: usize,
    origin: Vec2,
    scale: f32,
    friction_torque: f32,
    style: &Style,
) -> (Vec<BodyDef>, Vec<JointSpec>) {
    let s = scale;
    let mut bodies = Vec::with_capacity(BONES.len());
    let mut joints = Vec::with_capacity(BONES.len() - 1);
    let p = |(x, y): (f32, f32)| origin + s * Vec2::new(x, y - 0.17);
    for (i, b) in BONES.iter().enumerate() {
        let Ok(shape) =
            Shape::capsule(Vec2::new(0.0, -s * b.half_length), Vec2::new(0.0, s * b.half_length), s * b.radius)
        else {
            return (Vec::new(), Vec::new());
        };
        bodies.push(style.def(i, BodyKind::Dynamic, shape, p(b.center), 0.0));
        if let Some(parent) = b.parent {
            let torque = friction_torque * s * s;
            joints.push(hinge(
                BodyRef::Index(first + parent),
                BodyRef::Index(first + i),
                p(b.pivot),
                torque,
                Some(b.limits),
            ));
        }
    }
    (bodies, joints)
}

/// Bones in a ragdoll.
pub(crate) const RAGDOLL_BONES: u64 = BONES.len() as u64;

pub(crate) fn unit_x() -> Vec2 {
    Vec2::X
}

pub(crate) fn chain_prefix() -> String {
    "link_".to_string()
}

pub(crate) fn grid_size() -> u32 {
    100
}

pub(crate) fn grid_radius() -> f32 {
    0.4
}

pub(crate) fn grid_spacing() -> f32 {
    1.0
}

pub(crate) fn grid_anchors() -> u32 {
    7
}

pub(crate) fn grid_prefix() -> String {
    "grid_".to_string()
}

pub(crate) fn unit_scale() -> f32 {
    1.0
}

pub(crate) fn ragdoll_friction() -> f32 {
    0.5
}

pub(crate) fn ragdoll_prefix() -> String {
    "bone_".to_string()
}

impl Generator {
    /// The bodies and joints of the generators that make joints; `first` is the world index
    /// of the generator's first body (its joints refer to its bodies by index).
    pub(crate) fn jointed(&self, first: usize) -> Option<(Vec<BodyDef>, Vec<JointSpec>)> {
        Some(match self {
            Generator::Chain {
                count,
                origin,
                direction,
                link,
                start,
                end,
                friction_torque,
                prefix,
                density,
                friction,
                restitution,
            } => {
                let style = Style::new(prefix, *density, *friction, *restitution);
                let (s, e) = (start.as_ref(), end.as_ref());
                chain(first, *count, *origin, *direction, link.shape(), s, e, *friction_torque, &style)
            }
            Generator::JointGrid { size, origin, radius, spacing, anchors, prefix, density, friction } => {
                let style = Style::new(prefix, *density, *friction, 0.0);
                joint_grid(first, *size, *origin, *radius, *spacing, *anchors, &style)
            }
            Generator::Ragdoll { origin, scale, friction_torque, velocity, prefix, density, friction } => {
                let style = Style::new(prefix, *density, *friction, 0.0);
                let (mut bodies, joints) = ragdoll(first, *origin, *scale, *friction_torque, &style);
                bodies.iter_mut().for_each(|b| b.linear_velocity = *velocity);
                (bodies, joints)
            }
            _ => return None,
        })
    }

    /// The joints this generator makes, its first body being world body `first`.
    pub fn joints(&self, first: usize) -> Vec<JointSpec> {
        if self.body_count() > MAX_GENERATED_BODIES {
            return Vec::new();
        }
        self.jointed(first).map(|(_, j)| j).unwrap_or_default()
    }
}
