//! Peer engines: a world of ours translated body for body into Box2D v3 (its C library through
//! `boxdd-sys`) and rapier2d, stepped beside ours, so the same scene can be compared engine
//! against engine (`manifold-lab compare`). Behind the `peers` cargo feature (on by default).
//!
//! Each translation keeps body kinds, origins, angles, velocities, damping, gravity scale, the
//! bullet flag, shapes (circle, polygon, capsule), materials and filters, the joints the peer
//! has, and the world settings that map. Whatever a peer lacks is listed in its [`Skipped`],
//! never dropped silently. Without the feature the module keeps its types and `mirror` gives
//! no peer.

#[cfg(feature = "peers")]
pub mod box2d;
#[cfg(feature = "peers")]
pub mod box2d_distance;
#[cfg(feature = "peers")]
pub mod box2d_manifold;
#[cfg(feature = "peers")]
pub mod box2d_toi;
#[cfg(feature = "peers")]
pub mod parry_contact;
#[cfg(feature = "peers")]
pub mod parry_toi;
#[cfg(feature = "peers")]
pub mod rapier;

use crate::engine::World;
use glam::Vec2;
use std::collections::BTreeMap;

/// An engine the comparison can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Engine {
    Ours,
    Box2d,
    Rapier,
}

impl Engine {
    pub const ALL: [Engine; 3] = [Engine::Ours, Engine::Box2d, Engine::Rapier];

    /// The name on the command line (`--engines ours,box2d,rapier`).
    pub fn cli_name(self) -> &'static str {
        match self {
            Engine::Ours => "ours",
            Engine::Box2d => "box2d",
            Engine::Rapier => "rapier",
        }
    }

    /// The name in reports.
    pub fn label(self) -> &'static str {
        match self {
            Engine::Ours => "manifold-lab",
            Engine::Box2d => "Box2D v3",
            Engine::Rapier => "rapier2d",
        }
    }

    pub fn parse(name: &str) -> Result<Engine, String> {
        Engine::ALL
            .into_iter()
            .find(|e| e.cli_name() == name.trim())
            .ok_or_else(|| format!("unknown engine '{name}': expected ours, box2d or rapier"))
    }
}

/// A body's origin and angle (radians), as our `Body::xf.p` and `Body::angle`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeerPose {
    pub position: Vec2,
    pub angle: f32,
}

/// A peer's distance query on a pair: the distance between the shapes (0 when they overlap)
/// and the closest point on each, in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints {
    pub distance: f32,
    pub point_a: Vec2,
    pub point_b: Vec2,
    /// GJK's iterations where the peer reports them (Box2D), else 0.
    pub iterations: usize,
}

/// What a translation left out or changed, by what: "angle joints" → 2.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skipped {
    counts: BTreeMap<String, usize>,
}

impl Skipped {
    /// Notes one more `what` (plural, as it reads after a count: "angle joints").
    pub fn add(&mut self, what: &str) {
        *self.counts.entry(what.to_string()).or_default() += 1;
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// One line per kind, "2 × angle joints".
    pub fn lines(&self) -> Vec<String> {
        self.counts.iter().map(|(what, n)| format!("{n} × {what}")).collect()
    }
}

/// A peer engine's world, mirrored from ours.
pub trait PeerWorld {
    fn engine(&self) -> Engine;
    /// One step of the world's `1/hz` with its sub-steps.
    fn step(&mut self);
    /// The pose of each of our bodies, by our body index.
    fn poses(&self) -> Vec<PeerPose>;
    /// Contacts with at least one point (touching), as the status bar counts ours.
    fn contact_count(&self) -> usize;
    /// What the translation skipped or approximated.
    fn skipped(&self) -> &Skipped;
}

/// `world` translated into `engine` (not [`Engine::Ours`]: ours is the world itself).
pub fn mirror(engine: Engine, world: &World) -> Option<Box<dyn PeerWorld>> {
    match engine {
        Engine::Ours => None,
        #[cfg(feature = "peers")]
        Engine::Box2d => Some(Box::new(box2d::Box2dWorld::from_world(world))),
        #[cfg(feature = "peers")]
        Engine::Rapier => Some(Box::new(rapier::RapierWorld::from_world(world))),
        #[cfg(not(feature = "peers"))]
        _ => {
            let _ = world;
            None
        }
    }
}

/// Our own world as a [`PeerWorld`], so the comparison steps every engine alike.
pub struct OursWorld {
    pub world: World,
    skipped: Skipped,
}

impl OursWorld {
    pub fn new(world: World) -> OursWorld {
        OursWorld { world, skipped: Skipped::default() }
    }
}

impl PeerWorld for OursWorld {
    fn engine(&self) -> Engine {
        Engine::Ours
    }

    fn step(&mut self) {
        self.world.step();
    }

    fn poses(&self) -> Vec<PeerPose> {
        self.world.bodies.iter().map(|b| PeerPose { position: b.xf.p, angle: b.angle }).collect()
    }

    fn contact_count(&self) -> usize {
        self.world.contacts.iter().filter(|c| c.manifold.count > 0).count()
    }

    fn skipped(&self) -> &Skipped {
        &self.skipped
    }
}

/// What every peer lacks in `world`: our water (buoyancy, drag and its surface).
#[cfg(feature = "peers")]
fn common_skips(world: &World, skipped: &mut Skipped) {
    if world.water.is_some() {
        skipped.add("water (buoyancy, drag, surface)");
    }
}

/// One shape of a body as the peers take it: its geometry in the body's frame, its material
/// (density, friction, restitution, the world's overrides applied) and filter.
#[cfg(feature = "peers")]
struct PartDesc {
    geometry: LocalGeometry,
    material: (f32, f32, f32),
    filter: (u32, u32),
}

/// A shape's geometry placed in its body's frame.
#[cfg(feature = "peers")]
enum LocalGeometry {
    Circle {
        center: Vec2,
        radius: f32,
    },
    Capsule {
        center1: Vec2,
        center2: Vec2,
        radius: f32,
    },
    /// A box: its half extents and its centre and angle in the body frame.
    Box {
        half_extents: Vec2,
        center: Vec2,
        angle: f32,
        /// Rounding radius (0: sharp).
        radius: f32,
    },
    Polygon {
        points: Vec<Vec2>,
        radius: f32,
    },
}

/// Every shape of `body` (one for a body of one shape), as the peers build them.
#[cfg(feature = "peers")]
fn parts(world: &World, body: &crate::engine::Body) -> Vec<PartDesc> {
    use crate::engine::math::Transform;
    use crate::engine::shape::Shape;
    let p = &world.params;
    (0..body.shape_count())
        .map(|k| {
            let (shape, local) = body.shape_at_pose(k, &Transform::IDENTITY);
            let geometry = match shape {
                Shape::Circle(c) => LocalGeometry::Circle { center: local.p, radius: c.radius },
                Shape::Capsule(c) => LocalGeometry::Capsule {
                    center1: local.apply(c.center1),
                    center2: local.apply(c.center2),
                    radius: c.radius,
                },
                Shape::Polygon(poly) => match poly.box_half_extents {
                    Some(h) if poly.centroid == Vec2::ZERO => {
                        let angle = local.q.s.atan2(local.q.c);
                        LocalGeometry::Box { half_extents: h, center: local.p, angle, radius: poly.radius }
                    }
                    _ => LocalGeometry::Polygon {
                        points: poly.vertices().iter().map(|&v| local.apply(v)).collect(),
                        radius: poly.radius,
                    },
                },
            };
            let m = body.material_at(k);
            let material =
                (m.density, p.friction_override.unwrap_or(m.friction), p.restitution_override.unwrap_or(m.restitution));
            PartDesc { geometry, material, filter: body.filter_at(k) }
        })
        .collect()
}
