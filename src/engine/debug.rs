//! The one seam between the engine and pictures: the engine never draws, it describes what to
//! draw through `DebugDraw`, each primitive tagged with a `Layer` so disabled layers cost
//! nothing. `DebugList` records the calls as data, which makes pictures testable headless.

use super::math::Aabb;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// What a primitive belongs to; the app maps each to a checkbox and a style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Layer {
    Shape,
    Angle,
    CenterOfMass,
    Aabb,
    Contact,
    Normal,
    Impulse,
    Friction,
    Joint,
    Label,
    TreeNode,
    Minkowski,
    Simplex,
    Polytope,
    SatAxis,
    RefFace,
    IncidentFace,
    ClipPlane,
    /// A time-of-impact sweep: each body's path and its poses (scripts may still say `Sweep`).
    #[serde(alias = "Sweep")]
    Motion,
    /// Broadphase candidate pairs, as lines between body centres.
    Pair,
    // Added after the others so existing layers keep their bit positions.
    /// Bodies coloured by the island they belong to.
    Island,
    /// Joint reaction forces and torques.
    Reaction,
    /// The water: its surface line and the water below it.
    Water,
    /// The submerged part of each body in water, filled.
    Submerged,
    /// Centre of buoyancy with the buoyant force, and the drag on each submerged edge.
    Buoyancy,
    /// Each contact in the hue of its constraint graph colour; the overflow set in grey with a
    /// ring.
    GraphColor,
    /// The round handles that turn a shape in the labs.
    Handle,
    /// The broadphase's sweep and prune: the axis, the interval ends, the active list.
    SweepAndPrune,
    // Motion drawn in the world (`world::draw_motion`): one layer per arrow, from bit 28 on,
    // which is why a `LayerSet` holds 64 bits.
    /// Each body's linear velocity, from its centre of mass.
    Velocity,
    /// Each body's angular velocity, an arc arrow around its centre of mass.
    AngularVelocity,
    /// Each body's weight, `m·g·gravity_scale`.
    Gravity,
    /// The resultant of each body's contact forces over the last sub-step.
    ContactForce,
    /// The resultant of the joints' reaction forces on each body.
    JointForce,
    /// The water's buoyant force on each body.
    BuoyancyForce,
    /// Forces applied from outside the world: the mouse joint's pull.
    AppliedForce,
    /// Continuous collision's time-of-impact events of the last steps (`world::toi_events`):
    /// start ghost, swept hull, pose at impact, point and normal.
    ToiEvent,
}

impl Layer {
    /// The layers the world view offers, in panel order.
    pub const WORLD: [Layer; 26] = [
        Layer::Shape,
        Layer::Angle,
        Layer::CenterOfMass,
        Layer::Aabb,
        Layer::TreeNode,
        Layer::Pair,
        Layer::Contact,
        Layer::Normal,
        Layer::Impulse,
        Layer::Friction,
        Layer::Joint,
        Layer::Reaction,
        Layer::Island,
        Layer::GraphColor,
        Layer::Label,
        Layer::Water,
        Layer::Submerged,
        Layer::Buoyancy,
        Layer::Velocity,
        Layer::AngularVelocity,
        Layer::Gravity,
        Layer::ContactForce,
        Layer::JointForce,
        Layer::BuoyancyForce,
        Layer::AppliedForce,
        Layer::ToiEvent,
    ];

    /// The per-body arrows (`world::draw_motion`), velocities first, then forces.
    pub const MOTION: [Layer; 7] = [
        Layer::Velocity,
        Layer::AngularVelocity,
        Layer::Gravity,
        Layer::ContactForce,
        Layer::JointForce,
        Layer::BuoyancyForce,
        Layer::AppliedForce,
    ];

    pub fn bit(self) -> u64 {
        1 << (self as u32)
    }

    pub fn label(self) -> &'static str {
        match self {
            Layer::Shape => "Shapes",
            Layer::Angle => "Angle lines",
            Layer::CenterOfMass => "Centres of mass",
            Layer::Aabb => "AABBs",
            Layer::Contact => "Contact points",
            Layer::Normal => "Contact normals",
            Layer::Impulse => "Normal impulses",
            Layer::Friction => "Friction impulses",
            Layer::Joint => "Joints",
            Layer::Label => "Names",
            Layer::TreeNode => "Tree nodes (by depth)",
            Layer::Pair => "Broadphase pairs",
            Layer::Minkowski => "Minkowski difference",
            Layer::Simplex => "GJK simplex",
            Layer::Polytope => "EPA polytope",
            Layer::SatAxis => "SAT axes",
            Layer::RefFace => "Reference face",
            Layer::IncidentFace => "Incident face",
            Layer::ClipPlane => "Clip planes",
            Layer::Motion => "Motions (time of impact)",
            Layer::Island => "Islands",
            Layer::Reaction => "Joint reactions",
            Layer::Water => "Water",
            Layer::Submerged => "Submerged parts",
            Layer::Buoyancy => "Buoyancy and drag",
            Layer::GraphColor => "Graph colours",
            Layer::Handle => "Rotation handles",
            Layer::SweepAndPrune => "Sweep and prune",
            Layer::Velocity => "Velocity arrows",
            Layer::AngularVelocity => "Angular velocity arcs",
            Layer::Gravity => "Gravity (weight) arrows",
            Layer::ContactForce => "Contact force arrows",
            Layer::JointForce => "Joint force arrows",
            Layer::BuoyancyForce => "Buoyancy force arrows",
            Layer::AppliedForce => "Applied force (mouse) arrows",
            Layer::ToiEvent => "Time-of-impact events",
        }
    }
}

/// A set of layers as a bit mask, for the 2D `Layer`s (64 bits) and the 3D `Layer3`s (32)
/// alike: `of`, `contains`, `set` and `ALL`.
macro_rules! layer_set {
    ($(#[$doc:meta])* $set:ident of $layer:ty, $bits:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub struct $set(pub $bits);

        impl $set {
            pub const ALL: $set = $set(<$bits>::MAX);

            pub fn of(layers: &[$layer]) -> $set {
                $set(layers.iter().fold(0, |m, l| m | l.bit()))
            }

            pub fn contains(self, l: $layer) -> bool {
                self.0 & l.bit() != 0
            }

            pub fn set(&mut self, l: $layer, on: bool) {
                if on {
                    self.0 |= l.bit();
                } else {
                    self.0 &= !l.bit();
                }
            }
        }
    };
}
pub(crate) use layer_set;

layer_set! {
    /// A set of layers as a bit mask.
    LayerSet of Layer, u64
}

impl Default for LayerSet {
    /// Shapes, angle lines, contacts and normals, and water when a scene has some: what a
    /// first look needs.
    fn default() -> Self {
        LayerSet::of(&[
            Layer::Shape,
            Layer::Angle,
            Layer::Contact,
            Layer::Normal,
            Layer::Joint,
            Layer::Water,
            Layer::Submerged,
        ])
    }
}

/// Linear RGBA in 0..1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Color {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

impl Color {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r: r as f32 / 255.0, g: g as f32 / 255.0, b: b as f32 / 255.0, a: 1.0 }
    }

    pub const fn with_alpha(self, a: f32) -> Color {
        Color { r: self.r, g: self.g, b: self.b, a }
    }
}

/// The engine's palette, chosen to read on a dark background.
pub mod palette {
    use super::Color;
    pub const STATIC: Color = Color::rgb(120, 190, 120);
    pub const KINEMATIC: Color = Color::rgb(120, 140, 230);
    pub const DYNAMIC: Color = Color::rgb(235, 160, 110);
    /// A sleeping dynamic body: the dynamic colour, dimmed.
    pub const SLEEPING: Color = Color::rgb(130, 100, 85);
    pub const SELECTED: Color = Color::rgb(255, 230, 60);
    pub const AABB: Color = Color::rgb(200, 80, 220);
    pub const CONTACT_NEW: Color = Color::rgb(255, 255, 120);
    pub const CONTACT_WARM: Color = Color::rgb(80, 150, 255);
    pub const CONTACT_PERSISTENT: Color = Color::rgb(255, 70, 70);

    /// A contact point's colour by its warm-start history (003 article): speculative (not yet
    /// touching), new, warm, or persisting for over 10 steps.
    pub fn contact(base_separation: f32, persisted: u32) -> Color {
        if base_separation > 0.0 {
            CONTACT_SPECULATIVE
        } else if persisted > 10 {
            CONTACT_PERSISTENT
        } else if persisted > 0 {
            CONTACT_WARM
        } else {
            CONTACT_NEW
        }
    }
    pub const CONTACT_SPECULATIVE: Color = Color::rgb(150, 150, 150);
    pub const NORMAL: Color = Color::rgb(60, 230, 230);
    pub const IMPULSE: Color = Color::rgb(255, 120, 200);
    pub const FRICTION: Color = Color::rgb(250, 200, 60);
    pub const CENTER: Color = Color::rgb(255, 255, 255);
    pub const JOINT: Color = Color::rgb(120, 255, 120);
    /// B's frame of a joint (Box2D draws it blue), limits, springs, motors, reactions.
    pub const JOINT_REFERENCE: Color = Color::rgb(90, 150, 255);
    pub const JOINT_LIMIT: Color = Color::rgb(170, 170, 170);
    pub const JOINT_LOWER: Color = Color::rgb(80, 220, 80);
    pub const JOINT_UPPER: Color = Color::rgb(240, 70, 70);
    pub const JOINT_SPRING: Color = Color::rgb(200, 110, 255);
    pub const JOINT_MOTOR: Color = Color::rgb(255, 170, 40);
    pub const REACTION: Color = Color::rgb(255, 80, 150);
    pub const TEXT: Color = Color::rgb(230, 230, 230);
    pub const PAIR: Color = Color::rgb(120, 200, 255).with_alpha(0.45);
    // Configuration-space views (Minkowski difference, GJK simplex, EPA polytope).
    pub const MINKOWSKI: Color = Color::rgb(160, 160, 200);
    /// Minkowski edges that come from shape A (the 004 article draws them red) and from B (green).
    pub const MINKOWSKI_EDGE_A: Color = Color::rgb(240, 80, 80);
    pub const MINKOWSKI_EDGE_B: Color = Color::rgb(40, 200, 90);
    pub const CONFIG_ORIGIN: Color = Color::rgb(245, 245, 245);
    pub const SIMPLEX: Color = Color::rgb(255, 150, 30);
    pub const SEARCH_DIRECTION: Color = Color::rgb(200, 255, 90);
    pub const SUPPORT_POINT: Color = Color::rgb(255, 60, 160);
    pub const POLYTOPE: Color = Color::rgb(150, 110, 255);
    pub const CLOSEST_EDGE: Color = Color::rgb(255, 215, 0);
    pub const PENETRATION: Color = Color::rgb(255, 40, 40);
    // The narrowphase labs and traces: shape A and B, the axes, faces and clip results.
    pub const SHAPE_A: Color = Color::rgb(90, 170, 255);
    pub const SHAPE_B: Color = Color::rgb(255, 150, 90);
    pub const WINNER: Color = Color::rgb(255, 235, 80);
    pub const SEPARATING: Color = Color::rgb(120, 255, 140);
    pub const REFERENCE_FACE: Color = Color::rgb(80, 255, 160);
    pub const INCIDENT_FACE: Color = Color::rgb(255, 90, 200);
    pub const CLIP_PLANE: Color = Color::rgb(190, 150, 255);
    pub const KEPT: Color = Color::rgb(110, 255, 110);
    pub const REJECTED: Color = Color::rgb(255, 80, 80);
    // Sutherland–Hodgman slicing: the two parts, the edge cases and the line.
    pub const SLICE_BEHIND: Color = Color::rgb(90, 170, 255);
    pub const SLICE_FRONT: Color = Color::rgb(255, 160, 60);
    pub const CASE_IN_OUT: Color = Color::rgb(200, 120, 255);
    pub const CASE_OUT_IN: Color = Color::rgb(80, 230, 160);
    pub const CLIP_LINE: Color = Color::rgb(240, 240, 240);
    pub const INTERSECTION: Color = Color::rgb(255, 60, 160);
    /// The sort-and-sweep trace's active list (boxes the sweep line crosses).
    pub const SWEEP_ACTIVE: Color = Color::rgb(80, 220, 255);
    // Water.
    pub const WATER: Color = Color::rgb(40, 110, 200).with_alpha(0.28);
    pub const WATER_SURFACE: Color = Color::rgb(110, 190, 255);
    pub const SUBMERGED: Color = Color::rgb(60, 150, 255);
    pub const BUOYANCY: Color = Color::rgb(120, 255, 255);
    pub const DRAG: Color = Color::rgb(255, 110, 90);
    /// Contacts of the constraint graph's overflow set (the colours take the hues).
    pub const OVERFLOW: Color = Color::rgb(235, 235, 235);
    /// The other body of each of the selected body's contacts, outlined.
    pub const PARTNER: Color = Color::rgb(250, 250, 250);
    // Motion drawn in the world: one hue per arrow layer.
    pub const VELOCITY: Color = Color::rgb(90, 210, 255);
    pub const ANGULAR_VELOCITY: Color = Color::rgb(190, 140, 255);
    pub const GRAVITY: Color = Color::rgb(255, 150, 40);
    pub const CONTACT_FORCE: Color = Color::rgb(255, 80, 110);
    pub const JOINT_FORCE: Color = Color::rgb(130, 255, 100);
    pub const BUOYANCY_FORCE: Color = Color::rgb(40, 255, 220);
    pub const APPLIED_FORCE: Color = Color::rgb(255, 120, 255);
    /// Continuous collision's time-of-impact events.
    pub const TOI_EVENT: Color = Color::rgb(255, 80, 200);
}

/// A pastel colour of hue `turns` (fractions of the colour wheel), lifted towards white by
/// `floor` so it reads on a dark background; `span` is how much of the rest the hue fills.
pub fn pastel_hue(turns: f32, floor: f32, span: f32, alpha: f32) -> Color {
    let hue = turns.fract() * 6.0;
    let x = 1.0 - (hue % 2.0 - 1.0).abs();
    let (r, g, b) = match hue as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let light = |v: f32| floor + span * v;
    Color { r: light(r), g: light(g), b: light(b), a: alpha }
}

/// A distinct colour for island `k` (hues a golden angle apart, so neighbours differ).
pub fn island_color(k: usize) -> Color {
    pastel_hue(k as f32 * 0.618_034, 0.35, 0.6, 1.0)
}

/// The hue of constraint graph colour `k`: hues a golden angle apart, fully saturated so
/// neighbouring colours differ, and never grey (which marks the overflow set).
pub fn graph_color(k: usize) -> Color {
    pastel_hue(k as f32 * 0.618_034, 0.1, 0.9, 1.0)
}

/// Receives debug geometry in world units.
pub trait DebugDraw {
    /// Whether primitives of `layer` are wanted; callers skip work for unwanted layers.
    fn wants(&self, layer: Layer) -> bool;
    fn segment(&mut self, layer: Layer, a: Vec2, b: Vec2, color: Color);
    /// A closed convex polygon, filled and outlined.
    fn polygon(&mut self, layer: Layer, points: &[Vec2], fill: Color, outline: Color);
    fn circle(&mut self, layer: Layer, center: Vec2, radius: f32, fill: Color, outline: Color);
    /// A dot of a fixed size in pixels.
    fn point(&mut self, layer: Layer, p: Vec2, size: f32, color: Color);
    fn arrow(&mut self, layer: Layer, from: Vec2, to: Vec2, color: Color);
    fn aabb(&mut self, layer: Layer, aabb: Aabb, color: Color);
    fn text(&mut self, layer: Layer, p: Vec2, text: &str, color: Color);
}

/// One recorded primitive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DrawCmd {
    Segment { layer: Layer, a: Vec2, b: Vec2, color: Color },
    Polygon { layer: Layer, points: Vec<Vec2>, fill: Color, outline: Color },
    Circle { layer: Layer, center: Vec2, radius: f32, fill: Color, outline: Color },
    Point { layer: Layer, p: Vec2, size: f32, color: Color },
    Arrow { layer: Layer, from: Vec2, to: Vec2, color: Color },
    Aabb { layer: Layer, aabb: Aabb, color: Color },
    Text { layer: Layer, p: Vec2, text: String, color: Color },
}

/// A recorded primitive's layer (2D or 3D).
pub trait OnLayer {
    type Layer: PartialEq;
    fn layer(&self) -> Self::Layer;
}

impl OnLayer for DrawCmd {
    type Layer = Layer;
    fn layer(&self) -> Layer {
        match self {
            DrawCmd::Segment { layer, .. }
            | DrawCmd::Polygon { layer, .. }
            | DrawCmd::Circle { layer, .. }
            | DrawCmd::Point { layer, .. }
            | DrawCmd::Arrow { layer, .. }
            | DrawCmd::Aabb { layer, .. }
            | DrawCmd::Text { layer, .. } => *layer,
        }
    }
}

/// A recorder of drawing calls: the layers it records and what they drew
/// ([`DebugList`] in 2D, [`super::debug3::DebugList3`] in 3D).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CmdList<S, C> {
    pub layers: S,
    pub cmds: Vec<C>,
}

impl<S, C: OnLayer> CmdList<S, C> {
    pub fn new(layers: S) -> CmdList<S, C> {
        CmdList { layers, cmds: Vec::new() }
    }

    /// The recorded primitives of `layer`.
    pub fn on(&self, layer: C::Layer) -> impl Iterator<Item = &C> {
        self.cmds.iter().filter(move |c| c.layer() == layer)
    }

    /// How many primitives were recorded on `layer`.
    pub fn count(&self, layer: C::Layer) -> usize {
        self.on(layer).count()
    }
}

/// A `DebugDraw` that records every call.
pub type DebugList = CmdList<LayerSet, DrawCmd>;

impl DebugDraw for DebugList {
    fn wants(&self, layer: Layer) -> bool {
        self.layers.contains(layer)
    }
    fn segment(&mut self, layer: Layer, a: Vec2, b: Vec2, color: Color) {
        self.cmds.push(DrawCmd::Segment { layer, a, b, color });
    }
    fn polygon(&mut self, layer: Layer, points: &[Vec2], fill: Color, outline: Color) {
        self.cmds.push(DrawCmd::Polygon { layer, points: points.to_vec(), fill, outline });
    }
    fn circle(&mut self, layer: Layer, center: Vec2, radius: f32, fill: Color, outline: Color) {
        self.cmds.push(DrawCmd::Circle { layer, center, radius, fill, outline });
    }
    fn point(&mut self, layer: Layer, p: Vec2, size: f32, color: Color) {
        self.cmds.push(DrawCmd::Point { layer, p, size, color });
    }
    fn arrow(&mut self, layer: Layer, from: Vec2, to: Vec2, color: Color) {
        self.cmds.push(DrawCmd::Arrow { layer, from, to, color });
    }
    fn aabb(&mut self, layer: Layer, aabb: Aabb, color: Color) {
        self.cmds.push(DrawCmd::Aabb { layer, aabb, color });
    }
    fn text(&mut self, layer: Layer, p: Vec2, text: &str, color: Color) {
        self.cmds.push(DrawCmd::Text { layer, p, text: text.to_string(), color });
    }
}

/// What `World::debug_draw` should emphasise.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOptions {
    /// Highlighted bodies.
    pub selected: Vec<usize>,
    /// Length of drawn contact normals, metres.
    pub normal_length: f32,
    /// Metres of arrow per newton-second of impulse.
    pub impulse_scale: f32,
    /// Only primitives touching this box are drawn (culling), if set.
    pub view: Option<Aabb>,
    /// World units per screen pixel, for the level of detail (`world::draw::Lod`); 0 draws
    /// every detail at any size.
    pub pixel_size: f32,
    /// Tree levels drawn on `Layer::TreeNode` (root = 0), inclusive.
    pub tree_depth: (u32, u32),
    /// Also draw the tree leaves' tight AABBs (on `Layer::Aabb`) inside their fat ones.
    pub tree_tight: bool,
    /// Highlighted joints (indices into `World::joints`).
    pub selected_joints: Vec<usize>,
    /// Size of joint pictures (revolute circles, axis lines, ticks), metres.
    pub joint_size: f32,
    /// Metres of reaction arrow per newton (and radians of arc per newton-metre).
    pub force_scale: f32,
    /// Metres of arrow per newton of force (buoyancy and drag arrows).
    pub buoyancy_scale: f32,
    /// The per-body arrows' scales (`world::draw_motion`).
    pub motion: MotionScales,
}

/// How long the per-body motion arrows are drawn: metres of arrow per unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MotionScales {
    /// Metres of arrow per newton (gravity, contact, joint, buoyancy and applied forces).
    pub force: f32,
    /// Metres of arrow per metre per second; an angular velocity's arc sweeps `velocity · ω`
    /// radians (its rim moves `ω·r`, drawn `velocity · ω·r` long).
    pub velocity: f32,
}

impl MotionScales {
    /// The ranges a user may set (the panel's sliders, a script's action).
    pub const FORCE_RANGE: (f32, f32) = (1e-4, 10.0);
    pub const VELOCITY_RANGE: (f32, f32) = (1e-3, 10.0);

    /// Both scales clamped to their ranges; a number that is not finite keeps `self`'s.
    pub fn clamped(self, force: f32, velocity: f32) -> MotionScales {
        let fit = |v: f32, old: f32, (lo, hi): (f32, f32)| if v.is_finite() { v.clamp(lo, hi) } else { old };
        MotionScales {
            force: fit(force, self.force, Self::FORCE_RANGE),
            velocity: fit(velocity, self.velocity, Self::VELOCITY_RANGE),
        }
    }
}

impl Default for MotionScales {
    /// A 1 kg body's weight under 10 m/s² is a 0.5 m arrow; 5 m/s is 0.5 m.
    fn default() -> Self {
        MotionScales { force: 0.05, velocity: 0.1 }
    }
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            selected: Vec::new(),
            normal_length: 0.3,
            impulse_scale: 1.0,
            view: None,
            pixel_size: 0.0,
            tree_depth: (0, u32::MAX),
            tree_tight: false,
            selected_joints: Vec::new(),
            joint_size: 0.25,
            force_scale: 0.01,
            buoyancy_scale: 0.05,
            motion: MotionScales::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_bits_of_existing_layers_do_not_move() {
        // Saved layer masks and the labs' masks are bit positions: new layers go at the end.
        assert_eq!((Layer::Shape.bit(), Layer::Label.bit()), (1, 1 << 9));
        assert_eq!((Layer::Motion as u32, Layer::Pair as u32), (18, 19));
        assert_eq!((Layer::Island as u32, Layer::Reaction as u32), (20, 21));
        assert_eq!((Layer::Water as u32, Layer::Submerged as u32, Layer::Buoyancy as u32), (22, 23, 24));
        assert_eq!(Layer::GraphColor as u32, 25);
        assert_eq!((Layer::Handle as u32, Layer::SweepAndPrune as u32), (26, 27));
        assert_eq!((Layer::Velocity as u32, Layer::AppliedForce as u32), (28, 34));
        // The motion arrows are off at first, and every one of them fits the mask.
        let all = LayerSet::of(&Layer::MOTION);
        assert_eq!(all.0.count_ones(), 7);
        assert!(Layer::MOTION.iter().all(|&l| !LayerSet::default().contains(l) && LayerSet::ALL.contains(l)));
        assert!(LayerSet::default().contains(Layer::Water) && !LayerSet::default().contains(Layer::Buoyancy));
    }
}
