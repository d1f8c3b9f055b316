//! The contact manifold of the 000 article: up to two points, a normal from A to B and a
//! penetration per point. `count == 0` means "no contact".

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Identifies which features of the two shapes produced a contact point, so the point can be
/// matched across frames for warm starting. Packed as
/// `flip << 24 | kind << 16 | reference feature << 8 | incident feature`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FeatureId(pub u32);

/// Which kind of contact a point belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureKind {
    /// Polygon face contact: the features are a reference vertex and an incident vertex.
    Face = 0,
    /// A single deepest incident vertex (reference edge, incident vertex).
    Vertex = 1,
    /// A circle contact (the feature is the polygon's face or vertex, or 0).
    Circle = 2,
    /// A capsule–capsule or capsule–circle contact (segment end or clip point indices, as
    /// Box2D v3's `b2CollideCapsules` numbers them).
    Capsule = 3,
}

impl FeatureId {
    /// The id as the pair (vertex of A, vertex of B) for a face contact, whichever shape gave
    /// the reference face (Box2D v3 numbers its clip points so): the same end of the overlap
    /// keeps its key when the reference face flips between the shapes, so it stays warm
    /// started. Other kinds are returned unchanged.
    pub fn warm_start_key(self) -> u32 {
        let flip = self.0 >> 24 & 1 == 1;
        let kind = self.0 >> 16 & 0xff;
        if kind != FeatureKind::Face as u32 || !flip {
            return self.0 & !(1 << 24);
        }
        let (reference, incident) = (self.0 >> 8 & 0xff, self.0 & 0xff);
        kind << 16 | incident << 8 | reference
    }

    pub fn new(flip: bool, kind: FeatureKind, reference: usize, incident: usize) -> FeatureId {
        FeatureId(
            (flip as u32) << 24 | (kind as u32) << 16 | ((reference as u32) & 0xff) << 8 | ((incident as u32) & 0xff),
        )
    }
}

/// One contact point (000 article's `Contact`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ManifoldPoint {
    /// World position, midway between the two surfaces.
    pub point: Vec2,
    /// Overlap along the normal; positive when penetrating, negative for a speculative point.
    pub penetration: f32,
    pub id: FeatureId,
}

/// Up to two contact points sharing one normal that points from shape A to shape B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifold {
    pub normal: Vec2,
    pub points: [ManifoldPoint; 2],
    pub count: usize,
}

impl Manifold {
    pub const EMPTY: Manifold = Manifold {
        normal: Vec2::ZERO,
        points: [ManifoldPoint { point: Vec2::ZERO, penetration: 0.0, id: FeatureId(0) }; 2],
        count: 0,
    };

    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.count]
    }

    pub fn push(&mut self, p: ManifoldPoint) {
        if self.count < 2 {
            self.points[self.count] = p;
            self.count += 1;
        }
    }

    /// The deepest penetration among the points (0 when empty).
    pub fn max_penetration(&self) -> f32 {
        self.points().iter().map(|p| p.penetration).fold(0.0, f32::max)
    }

    /// The same contact seen from B: the normal flips, points stay.
    pub fn flipped(mut self) -> Manifold {
        self.normal = -self.normal;
        for p in &mut self.points[..self.count] {
            p.id = FeatureId(p.id.0 ^ (1 << 24));
        }
        self
    }
}
