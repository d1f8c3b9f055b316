//! The 3D side of the engine → pictures seam, the twin of [`super::debug`]: the 3D world, the
//! hull SAT view and the QuickHull trace never draw, they describe what to draw through
//! [`DebugDraw3`], each primitive tagged with a
//! [`Layer3`] so disabled layers cost nothing. [`DebugList3`] records the calls as plain,
//! serializable data (for tests, or for a view that draws later).

use super::debug::{CmdList, Color, OnLayer};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// What a 3D primitive belongs to; a view maps each to a checkbox and a style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Layer3 {
    /// Hull faces (translucent polygons).
    Shape,
    /// Hull edges.
    Edge,
    /// Body frames: the three local axes at the centre of mass.
    Frame,
    CenterOfMass,
    Aabb,
    /// Contact points (coloured by warm-start history, as in 2D).
    Contact,
    Normal,
    /// Accumulated normal impulses, as arrows along the normal.
    Impulse,
    /// Accumulated friction impulses (both tangent directions).
    Friction,
    /// The axis that decided each pair's SAT (face normal or edge pair), with its features.
    SatAxis,
    /// Water surfaces (a patch per basin, following the waves).
    Water,
    /// The cut of each floating hull by its local water plane (the waterline polygon).
    Submerged,
    /// Centre of buoyancy with the buoyant force; drag forces.
    Buoyancy,
    /// Joint anchors and the segments between them.
    Joint,
    /// The orientation joint's bases (article 003's `xa, ya, yb, zb`, plus `za, xb`).
    JointBasis,
    /// Each joint's current error per axis, as text at the joint.
    JointError,
    /// Linear and angular velocity arrows.
    Velocity,
    /// Body names.
    Label,
    /// The SAT lab: the best face axis of A and of B (the face outlined, with its separation).
    BestFace,
    /// The SAT lab: the best edge pair (both edges, with their separation).
    BestEdge,
    /// The minimum translation vector (move B by it).
    Mtv,
    /// The SAT lab's selected axis: a line through both hulls and each hull's projection
    /// interval on it.
    Projection,
    /// Gauss maps on the unit sphere: face normals as points, edges as great arcs.
    Gauss,
    /// Edge pairs that form faces of the Minkowski difference: their arcs cross on the Gauss
    /// maps (the crossing arcs and points).
    MinkowskiFace,
    /// The clipping trace: the reference face and its normal.
    RefFace,
    /// The clipping trace: the incident face.
    IncidentFace,
    /// The clipping trace: a side plane and the incident polygon before and after it.
    ClipPlane,
}

impl Layer3 {
    /// Every layer.
    pub const ALL: [Layer3; 27] = [
        Layer3::Shape,
        Layer3::Edge,
        Layer3::Frame,
        Layer3::CenterOfMass,
        Layer3::Aabb,
        Layer3::Contact,
        Layer3::Normal,
        Layer3::Impulse,
        Layer3::Friction,
        Layer3::SatAxis,
        Layer3::Water,
        Layer3::Submerged,
        Layer3::Buoyancy,
        Layer3::Joint,
        Layer3::JointBasis,
        Layer3::JointError,
        Layer3::Velocity,
        Layer3::Label,
        Layer3::BestFace,
        Layer3::BestEdge,
        Layer3::Mtv,
        Layer3::Projection,
        Layer3::Gauss,
        Layer3::MinkowskiFace,
        Layer3::RefFace,
        Layer3::IncidentFace,
        Layer3::ClipPlane,
    ];

    /// The layers a 3D world draws, in panel order: those declared before the SAT lab's.
    pub const WORLD: &'static [Layer3] = Layer3::ALL.as_slice().split_at(Layer3::BestFace as usize).0;

    pub fn bit(self) -> u32 {
        1 << (self as u32)
    }

    pub fn label(self) -> &'static str {
        match self {
            Layer3::Shape => "Hull faces",
            Layer3::Edge => "Hull edges",
            Layer3::Frame => "Body frames",
            Layer3::CenterOfMass => "Centres of mass",
            Layer3::Aabb => "AABBs",
            Layer3::Contact => "Contact points",
            Layer3::Normal => "Contact normals",
            Layer3::Impulse => "Normal impulses",
            Layer3::Friction => "Friction impulses",
            Layer3::SatAxis => "SAT axis per pair",
            Layer3::Water => "Water surface",
            Layer3::Submerged => "Submerged cut",
            Layer3::Buoyancy => "Buoyancy, drag",
            Layer3::Joint => "Joints",
            Layer3::JointBasis => "Joint bases",
            Layer3::JointError => "Joint errors",
            Layer3::Velocity => "Velocities",
            Layer3::Label => "Names",
            Layer3::BestFace => "Best face axes",
            Layer3::BestEdge => "Best edge pair",
            Layer3::Mtv => "MTV",
            Layer3::Projection => "Selected axis",
            Layer3::Gauss => "Gauss maps",
            Layer3::MinkowskiFace => "Minkowski faces",
            Layer3::RefFace => "Reference face",
            Layer3::IncidentFace => "Incident face",
            Layer3::ClipPlane => "Side planes, clipping",
        }
    }
}

crate::engine::debug::layer_set! {
    /// A set of 3D layers as a bit mask.
    LayerSet3 of Layer3, u32
}

impl Default for LayerSet3 {
    /// Faces, edges, contacts, normals, water, the submerged cut, buoyancy and joints.
    fn default() -> Self {
        LayerSet3::of(&[
            Layer3::Shape,
            Layer3::Edge,
            Layer3::Contact,
            Layer3::Normal,
            Layer3::Water,
            Layer3::Submerged,
            Layer3::Buoyancy,
            Layer3::Joint,
            Layer3::JointBasis,
        ])
    }
}

/// Receives 3D debug geometry in world units (y up).
pub trait DebugDraw3 {
    /// Whether primitives of `layer` are wanted; callers skip work for unwanted layers.
    fn wants(&self, layer: Layer3) -> bool;
    fn segment(&mut self, layer: Layer3, a: Vec3, b: Vec3, color: Color);
    /// A closed planar convex polygon, filled (`fill`, usually translucent) and outlined.
    fn polygon(&mut self, layer: Layer3, points: &[Vec3], fill: Color, outline: Color);
    /// A dot of a fixed size in pixels.
    fn point(&mut self, layer: Layer3, p: Vec3, size: f32, color: Color);
    fn arrow(&mut self, layer: Layer3, from: Vec3, to: Vec3, color: Color);
    /// Text anchored at a 3D point (drawn facing the camera).
    fn text(&mut self, layer: Layer3, p: Vec3, text: &str, color: Color);
}

/// One recorded 3D primitive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DrawCmd3 {
    Segment { layer: Layer3, a: Vec3, b: Vec3, color: Color },
    Polygon { layer: Layer3, points: Vec<Vec3>, fill: Color, outline: Color },
    Point { layer: Layer3, p: Vec3, size: f32, color: Color },
    Arrow { layer: Layer3, from: Vec3, to: Vec3, color: Color },
    Text { layer: Layer3, p: Vec3, text: String, color: Color },
}

impl OnLayer for DrawCmd3 {
    type Layer = Layer3;
    fn layer(&self) -> Layer3 {
        match self {
            DrawCmd3::Segment { layer, .. }
            | DrawCmd3::Polygon { layer, .. }
            | DrawCmd3::Point { layer, .. }
            | DrawCmd3::Arrow { layer, .. }
            | DrawCmd3::Text { layer, .. } => *layer,
        }
    }
}

/// A [`DebugDraw3`] that records every call.
pub type DebugList3 = CmdList<LayerSet3, DrawCmd3>;

impl DebugDraw3 for DebugList3 {
    fn wants(&self, layer: Layer3) -> bool {
        self.layers.contains(layer)
    }
    fn segment(&mut self, layer: Layer3, a: Vec3, b: Vec3, color: Color) {
        self.cmds.push(DrawCmd3::Segment { layer, a, b, color });
    }
    fn polygon(&mut self, layer: Layer3, points: &[Vec3], fill: Color, outline: Color) {
        self.cmds.push(DrawCmd3::Polygon { layer, points: points.to_vec(), fill, outline });
    }
    fn point(&mut self, layer: Layer3, p: Vec3, size: f32, color: Color) {
        self.cmds.push(DrawCmd3::Point { layer, p, size, color });
    }
    fn arrow(&mut self, layer: Layer3, from: Vec3, to: Vec3, color: Color) {
        self.cmds.push(DrawCmd3::Arrow { layer, from, to, color });
    }
    fn text(&mut self, layer: Layer3, p: Vec3, text: &str, color: Color) {
        self.cmds.push(DrawCmd3::Text { layer, p, text: text.to_string(), color });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_filter_and_record() {
        let mut l = DebugList3::new(LayerSet3::of(&[Layer3::Contact]));
        assert!(l.wants(Layer3::Contact) && !l.wants(Layer3::Water));
        l.point(Layer3::Contact, Vec3::ZERO, 4.0, Color::rgb(1, 2, 3));
        assert_eq!(l.count(Layer3::Contact), 1);
        let json = serde_json::to_string(&l).unwrap();
        assert!(json.contains("Contact"));
        assert_eq!(Layer3::ALL.len(), Layer3::ClipPlane as usize + 1);
        assert!(Layer3::ALL.iter().enumerate().all(|(k, l)| *l as usize == k), "ALL in declaration order");
        assert_eq!((Layer3::WORLD.len(), Layer3::WORLD.last()), (18, Some(&Layer3::Label)));
    }
}
