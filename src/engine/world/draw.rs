//! `World::debug_draw`: the world's state described through `DebugDraw`.

use super::World;
use crate::engine::body::{Body, BodyKind};
use crate::engine::broadphase::TreeDrawOptions;
use crate::engine::debug::{island_color, palette, Color, DebugDraw, DrawOptions, Layer};
use crate::engine::math::{right_perp, Transform};
use crate::engine::shape::{Capsule, Shape};
use crate::engine::solver::joints::draw::JointStyle;
use crate::engine::solver::Contact;
use glam::Vec2;

/// Body colour by kind and selection; sleeping bodies are dimmed.
pub fn body_color(b: &Body, selected: bool) -> Color {
    if selected {
        return palette::SELECTED;
    }
    match b.kind {
        BodyKind::Static => palette::STATIC,
        BodyKind::Kinematic => palette::KINEMATIC,
        BodyKind::Dynamic if !b.awake => palette::SLEEPING,
        BodyKind::Dynamic => palette::DYNAMIC,
    }
}

/// The shape's outline points at `xf` (polygon vertices, capsule outline), or `None` for a
/// circle.
fn outline(shape: &Shape, xf: &Transform) -> Option<Vec<Vec2>> {
    match shape {
        Shape::Circle(_) => None,
        Shape::Polygon(p) => Some(p.outline(xf, ROUNDED_CORNER_SEGMENTS)),
        Shape::Capsule(c) => Some(c.outline(xf, 12)),
    }
}

/// Pieces of each rounded corner's arc in a rounded polygon's outline.
const ROUNDED_CORNER_SEGMENTS: usize = 4;

/// Pieces of each end's half circle in a capsule's outline: 12 when the scale is unknown
/// (`px` 0) or the radius spans 12 pixels or more, down to 2 (the ends as three-sided caps) on
/// a radius of a pixel or two, where 26 outline points cost the window a frame rate of piles
/// of capsules (Box2D's rain benchmark) and show nothing more.
fn capsule_segments(radius: f32, px: f32) -> usize {
    if px > 0.0 {
        (radius / px).ceil().clamp(2.0, 12.0) as usize
    } else {
        12
    }
}

/// Every shape of `b` outlined (filled with `fill`) on `layer`.
fn draw_outlines(d: &mut dyn DebugDraw, layer: Layer, b: &Body, fill: Color, line: Color) {
    for (shape, xf) in b.shapes() {
        match (outline(shape, &xf), shape) {
            (Some(pts), _) => d.polygon(layer, &pts, fill, line),
            (None, Shape::Circle(circle)) => d.circle(layer, xf.p, circle.radius, fill, line),
            (None, _) => {}
        }
    }
}

/// Describes one body's shape (filled, outlined) and the line from its centre showing its angle.
pub fn draw_body(d: &mut dyn DebugDraw, b: &Body, color: Color) {
    draw_body_sized(d, b, color, f32::INFINITY, 0.0);
}

/// `draw_body` for a body whose bounding radius spans `radius_px` pixels of `px` world units
/// (0 when unknown: nothing shrinks): below `Lod::SOLID_PX` it is one solid polygon (no
/// outline, no angle line), shrunk by `Lod::SEAM_PX` so that neighbours stay apart, which is
/// all a few pixels can show.
fn draw_body_sized(d: &mut dyn DebugDraw, b: &Body, color: Color, radius_px: f32, px: f32) {
    let solid = radius_px < Lod::SOLID_PX;
    let (fill, outline) =
        if solid { (color.with_alpha(0.85), color.with_alpha(0.0)) } else { (color.with_alpha(0.35), color) };
    let seam = if solid { Lod::SEAM_PX * px } else { 0.0 };
    if d.wants(Layer::Shape) {
        for (shape, xf) in b.shapes() {
            match shape {
                Shape::Circle(c) => d.circle(Layer::Shape, xf.p, (c.radius - seam).max(0.5 * c.radius), fill, outline),
                Shape::Polygon(p) if p.radius > 0.0 => {
                    d.polygon(Layer::Shape, &p.outline(&xf, ROUNDED_CORNER_SEGMENTS), fill, outline)
                }
                Shape::Polygon(p) => {
                    let mut pts = [Vec2::ZERO; crate::engine::shape::MAX_POLYGON_VERTICES];
                    let center = b.center;
                    for (dst, v) in pts.iter_mut().zip(p.world_vertices(&xf)) {
                        let r = v - center;
                        let len = r.length();
                        *dst = if len > 2.0 * seam { v - r * (seam / len) } else { v };
                    }
                    d.polygon(Layer::Shape, &pts[..p.count], fill, outline);
                }
                Shape::Capsule(c) => {
                    let c = Capsule { radius: (c.radius - seam).max(0.5 * c.radius), ..*c };
                    d.polygon(Layer::Shape, &c.outline(&xf, capsule_segments(c.radius, px)), fill, color);
                }
            }
        }
    }
    if d.wants(Layer::Angle) && b.kind != BodyKind::Static && radius_px >= Lod::DETAIL_PX {
        let reach = match &b.shape {
            _ if !b.parts.is_empty() => 0.5 * b.extents().1,
            Shape::Circle(c) => c.radius,
            Shape::Polygon(p) => p.vertices().iter().map(|v| (*v - p.centroid).dot(Vec2::X)).fold(0.0, f32::max),
            Shape::Capsule(c) => 0.5 * (c.center2 - c.center1).x.abs() + c.radius,
        };
        let tip = b.center + b.xf.q.apply(Vec2::X) * reach.max(0.05);
        d.segment(Layer::Angle, b.center, tip, color);
    }
}

/// Half the thickness of a body's shape: a circle's or capsule's radius, a polygon's smallest
/// distance from its centroid to a face.
fn half_thickness(b: &Body) -> f32 {
    if !b.parts.is_empty() {
        return b.extents().0;
    }
    match &b.shape {
        Shape::Circle(c) => c.radius,
        Shape::Capsule(c) => c.radius,
        Shape::Polygon(p) => {
            let face = (0..p.count).map(|i| p.normals[i].dot(p.vertices[i] - p.centroid)).fold(f32::INFINITY, f32::min);
            face + p.radius
        }
    }
}

/// The size of one joint's picture: `opts.joint_size`, shrunk to the thinner of its bodies so
/// the joints of a chain of thin links or a ragdoll's limbs do not hide them, but never below
/// `Lod::JOINT_MIN_PX`.
fn joint_picture_size(opts: &DrawOptions, a: &Body, b: &Body) -> f32 {
    let thin = half_thickness(a).min(half_thickness(b));
    let size = opts.joint_size.min(1.5 * thin);
    if opts.pixel_size > 0.0 {
        size.max(Lod::JOINT_MIN_PX * opts.pixel_size)
    } else {
        size
    }
}

/// Level of detail: what a body or contact must measure on screen (its bounding radius, in
/// pixels) for each kind of detail to be drawn. Zoomed out, a pyramid of thousands of boxes is
/// one quad per box, not a blur of contact dots, arrows and names.
pub struct Lod;

impl Lod {
    /// Smaller bodies are drawn as one solid polygon.
    pub const SOLID_PX: f32 = 6.0;
    /// How far a solid body's outline is pulled in (pixels), leaving a seam between touching
    /// bodies.
    pub const SEAM_PX: f32 = 0.6;
    /// Angle lines, centres of mass, and the contacts of bodies at least this large.
    pub const DETAIL_PX: f32 = 8.0;
    /// Names.
    pub const LABEL_PX: f32 = 16.0;
    /// The smallest joint picture (revolute circle radius, axis line), pixels.
    pub const JOINT_MIN_PX: f32 = 4.0;
    /// Joints between smaller bodies are drawn as one line from centre to centre.
    pub const JOINT_DETAIL_PX: f32 = 4.0;

    /// Pixels spanned by `world` units (unbounded when the pixel size is unknown).
    pub fn pixels(opts: &DrawOptions, world: f32) -> f32 {
        if opts.pixel_size > 0.0 {
            world / opts.pixel_size
        } else {
            f32::INFINITY
        }
    }
}

impl World {
    /// Draws the water (under the bodies), bodies, AABBs, centres of mass, the water's surface,
    /// submerged parts and forces, contacts, normals, impulses and the mouse joint, each on
    /// its layer.
    pub fn debug_draw(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        let visible = |b: &Body| match opts.view {
            Some(view) => b.compute_aabb().overlaps(&view),
            None => true,
        };
        if let Some(w) = &self.water {
            // Under the bodies, down to the bottom; without one (an open basin) and without a
            // view, to a little below the lowest body.
            let lowest = self.bounds().map_or(w.params.level, |b| b.min.y.min(w.params.level));
            w.draw_body_of_water(d, opts, self.water_bottom(), lowest - 1.0);
        }
        for (i, b) in self.bodies.iter().enumerate() {
            if !visible(b) {
                continue;
            }
            let selected = opts.selected.contains(&i);
            let radius_px = Lod::pixels(opts, b.bounding_radius());
            draw_body_sized(d, b, body_color(b, selected), radius_px, opts.pixel_size.max(0.0));
            if d.wants(Layer::Aabb) {
                d.aabb(Layer::Aabb, b.compute_aabb(), palette::AABB);
            }
            if d.wants(Layer::CenterOfMass) && b.kind == BodyKind::Dynamic && radius_px >= Lod::DETAIL_PX {
                d.point(Layer::CenterOfMass, b.center, 4.0, palette::CENTER);
            }
            if d.wants(Layer::Label) && !b.name.is_empty() && radius_px >= Lod::LABEL_PX {
                d.text(Layer::Label, b.xf.p, &b.name, palette::TEXT);
            }
            if d.wants(Layer::Island) {
                self.draw_island_of(d, i, b);
            }
        }
        if let Some(w) = &self.water {
            w.draw_over_bodies(d, opts);
        }
        self.draw_broadphase(d, opts);
        self.draw_contacts(d, opts);
        self.draw_graph_colors(d, opts);
        self.draw_joints(d, opts);
        self.draw_motion(d, opts);
        self.draw_toi_events(d);
    }

    /// Body `i` in its island's colour (hue from the island's lowest body, so colours stay
    /// put while islands are renumbered), dimmer when the island sleeps.
    fn draw_island_of(&self, d: &mut dyn DebugDraw, i: usize, b: &Body) {
        let Some(k) = self.island_of(i) else { return };
        let lowest = self.islands().bodies(k)[0] as usize;
        let awake = self.islands().awake.get(k).copied().unwrap_or(true);
        let c = island_color(lowest);
        let (fill, line) = if awake { (c.with_alpha(0.45), c) } else { (c.with_alpha(0.15), c.with_alpha(0.5)) };
        draw_outlines(d, Layer::Island, b, fill, line);
    }

    /// Joints (and the mouse joint) on `Layer::Joint`, reactions on `Layer::Reaction`.
    fn draw_joints(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        if !d.wants(Layer::Joint) && !d.wants(Layer::Reaction) {
            return;
        }
        let inv_h = 1.0 / self.substep_dt();
        let n = self.bodies.len();
        for (k, j) in self.joints().iter().enumerate() {
            let (a, b) = j.bodies();
            if a >= n || b >= n {
                continue;
            }
            if let Some(view) = opts.view {
                let (pa, pb) = j.base().world_anchors(&self.bodies);
                let reach = view.expanded(4.0 * opts.joint_size);
                if !reach.contains_point(pa) && !reach.contains_point(pb) {
                    continue;
                }
            }
            let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
            let highlight = opts.selected_joints.contains(&k);
            // Level of detail: between bodies a few pixels across, a joint is one line from
            // centre to centre (a net of thousands stays a net, not a blur of circles), and
            // nothing where that line would be shorter than a body's detail.
            if !highlight && Lod::pixels(opts, ba.bounding_radius().min(bb.bounding_radius())) < Lod::JOINT_DETAIL_PX {
                if d.wants(Layer::Joint) && Lod::pixels(opts, ba.center.distance(bb.center)) >= Lod::DETAIL_PX {
                    d.segment(Layer::Joint, ba.center, bb.center, palette::JOINT.with_alpha(0.6));
                }
                continue;
            }
            let style = JointStyle { size: joint_picture_size(opts, ba, bb), force_scale: opts.force_scale, highlight };
            j.draw(d, &self.bodies, inv_h, &style);
        }
        if let Some(m) = self.mouse_joint.as_ref().filter(|m| m.body < n) {
            let style = JointStyle { size: opts.joint_size, force_scale: opts.force_scale, highlight: false };
            m.draw(d, &self.bodies, inv_h, &style);
        }
    }

    /// The dynamic tree's nodes coloured by depth (within `opts.tree_depth`), leaves' fat and
    /// optionally tight AABBs, and the candidate pairs as thin lines between centres.
    fn draw_broadphase(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        let (lo, hi) = opts.tree_depth;
        let tree_opts = TreeDrawOptions {
            min_depth: lo,
            max_depth: (hi != u32::MAX).then_some(hi),
            view: opts.view,
            leaves: true,
            tight: opts.tree_tight,
        };
        self.broadphase.tree.debug_draw(d, &tree_opts);
        if d.wants(Layer::Pair) {
            for &(i, j) in self.broadphase.pairs() {
                let (a, b) = (self.bodies[i as usize].center, self.bodies[j as usize].center);
                if opts.view.is_none_or(|v| v.contains_point(a) || v.contains_point(b)) {
                    d.segment(Layer::Pair, a, b, palette::PAIR);
                }
            }
        }
    }

    /// Contact points coloured by warm-start history, normals, impulses and friction. While
    /// bodies are selected, their contacts are drawn over the others, larger, and the others
    /// dimmed; the other body of each of their pairs is outlined (on `Layer::Contact`).
    fn draw_contacts(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        let wants_any = [Layer::Contact, Layer::Normal, Layer::Impulse, Layer::Friction].iter().any(|&l| d.wants(l));
        if !wants_any {
            return;
        }
        let mine = |c: &Contact| opts.selected.contains(&c.a) || opts.selected.contains(&c.b);
        let others = if opts.selected.is_empty() { Emphasis::Plain } else { Emphasis::Dimmed };
        for c in self.contacts.iter().filter(|c| !mine(c)) {
            let smaller = self.bodies[c.a].bounding_radius().min(self.bodies[c.b].bounding_radius());
            if Lod::pixels(opts, smaller) >= Lod::DETAIL_PX {
                self.draw_contact(d, c, opts, others);
            }
        }
        if opts.selected.is_empty() {
            return;
        }
        // The partners first, so that the strong points on their edges stay on top.
        let mut partners: Vec<usize> = Vec::new();
        for c in self.contacts.iter().filter(|c| mine(c) && c.manifold.count > 0) {
            for k in [c.a, c.b] {
                if !opts.selected.contains(&k) && !partners.contains(&k) {
                    partners.push(k);
                }
            }
        }
        if d.wants(Layer::Contact) {
            for &k in &partners {
                outline_body(d, Layer::Contact, &self.bodies[k], palette::PARTNER);
            }
        }
        for c in self.contacts.iter().filter(|c| mine(c)) {
            self.draw_contact(d, c, opts, Emphasis::Strong);
        }
    }

    /// One contact's points, normals and impulses, with `emphasis`.
    fn draw_contact(&self, d: &mut dyn DebugDraw, c: &Contact, opts: &DrawOptions, emphasis: Emphasis) {
        let normal_visible = Lod::pixels(opts, opts.normal_length) >= Lod::DETAIL_PX;
        let (size, reach) = emphasis.size_and_reach();
        let n = c.normal();
        for cp in c.points() {
            if let Some(view) = opts.view {
                if !view.contains_point(cp.point) {
                    continue;
                }
            }
            if d.wants(Layer::Contact) {
                // 003 article: colour by warm-start history.
                let color = palette::contact(cp.base_separation, cp.persisted);
                // A sleeping pair's contacts are dimmed with its bodies.
                let color = if c.awake { color } else { color.with_alpha(0.35) };
                d.point(Layer::Contact, cp.point, size, emphasis.color(color));
            }
            if d.wants(Layer::Normal) && (normal_visible || emphasis == Emphasis::Strong) {
                let color = if c.awake { palette::NORMAL } else { palette::NORMAL.with_alpha(0.3) };
                d.arrow(Layer::Normal, cp.point, cp.point + reach * opts.normal_length * n, emphasis.color(color));
            }
            if d.wants(Layer::Impulse) && cp.normal_impulse > 0.0 {
                let to = cp.point + opts.impulse_scale * cp.normal_impulse * n;
                d.arrow(Layer::Impulse, cp.point, to, emphasis.color(palette::IMPULSE));
            }
            if d.wants(Layer::Friction) && cp.tangent_impulse != 0.0 {
                let t = right_perp(n);
                let to = cp.point + opts.impulse_scale * cp.tangent_impulse * t;
                d.arrow(Layer::Friction, cp.point, to, emphasis.color(palette::FRICTION));
            }
        }
    }
}

/// How a contact is drawn: as always, dimmed (another body is selected) or strong (a selected
/// body's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Emphasis {
    Plain,
    Dimmed,
    Strong,
}

impl Emphasis {
    /// What a dimmed contact keeps of its opacity.
    const DIMMED_ALPHA: f32 = 0.3;

    /// The contact point's size in pixels, and the normal's length over `normal_length`.
    fn size_and_reach(self) -> (f32, f32) {
        match self {
            Emphasis::Strong => (10.0, 1.5),
            _ => (6.0, 1.0),
        }
    }

    /// A dimmed contact's colour keeps 30 % of its opacity; a strong one is opaque even when
    /// its pair sleeps (the selected body's panel says so).
    fn color(self, c: Color) -> Color {
        match self {
            Emphasis::Plain => c,
            Emphasis::Dimmed => c.with_alpha(c.a * Self::DIMMED_ALPHA),
            Emphasis::Strong => c.with_alpha(1.0),
        }
    }
}

/// Body `b`'s shape outlined on `layer` in `color`, unfilled.
fn outline_body(d: &mut dyn DebugDraw, layer: Layer, b: &Body, color: Color) {
    draw_outlines(d, layer, b, color.with_alpha(0.0), color);
}

/// Body `b`'s shapes outlined with the body at the pose `xf` (another engine's pose of it),
/// each circle with a radius showing its turn.
pub fn outline_body_at(d: &mut dyn DebugDraw, layer: Layer, b: &Body, xf: &Transform, color: Color) {
    let clear = color.with_alpha(0.0);
    for (shape, at) in (0..b.shape_count()).map(|k| b.shape_at_pose(k, xf)) {
        match (outline(shape, &at), shape) {
            (Some(pts), _) => d.polygon(layer, &pts, clear, color),
            (None, Shape::Circle(circle)) => {
                d.circle(layer, at.p, circle.radius, clear, color);
                d.segment(layer, at.p, at.apply(Vec2::new(circle.radius, 0.0)), color);
            }
            (None, _) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::debug::OnLayer;
    use crate::engine::debug::{DebugList, DrawCmd, LayerSet};
    use crate::engine::BodyDef;

    #[test]
    fn disabled_layers_record_nothing() {
        let mut w = World::new(Default::default());
        w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(5.0, 0.5)).unwrap(), Vec2::ZERO));
        w.create_body(&BodyDef::new(BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(0.0, 0.95)));
        w.step();
        let mut all = DebugList::new(LayerSet::ALL);
        w.debug_draw(&mut all, &DrawOptions::default());
        assert_eq!(all.count(Layer::Shape), 2);
        assert!(all.count(Layer::Contact) >= 1);
        assert!(all.count(Layer::Normal) >= 1);
        assert_eq!(all.count(Layer::Aabb), 2);
        let mut shapes_only = DebugList::new(LayerSet::of(&[Layer::Shape]));
        w.debug_draw(&mut shapes_only, &DrawOptions::default());
        assert!(shapes_only.cmds.iter().all(|c| c.layer() == Layer::Shape));
        // the selected body is drawn in the selection colour
        let mut sel = DebugList::new(LayerSet::of(&[Layer::Shape]));
        w.debug_draw(&mut sel, &DrawOptions { selected: vec![1], ..Default::default() });
        assert!(sel.cmds.iter().any(|c| matches!(c, DrawCmd::Circle { outline, .. } if *outline == palette::SELECTED)));
    }

    #[test]
    fn joints_islands_and_reactions_have_their_layers() {
        use crate::engine::solver::joints::{JointBase, RevoluteJoint};
        use crate::engine::solver::Joint;
        let mut w = World::new(Default::default());
        let g =
            w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(5.0, 0.5)).unwrap(), Vec2::ZERO));
        let arm = w.create_body(&BodyDef::new(
            BodyKind::Dynamic,
            Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.1).unwrap(),
            Vec2::new(0.5, 3.0),
        ));
        let mut j = RevoluteJoint::new(JointBase::at(&w.bodies, g, arm, Vec2::new(0.0, 3.0)));
        (j.enable_limit, j.lower_angle, j.upper_angle) = (true, -0.5, 0.5);
        (j.enable_motor, j.motor_speed, j.max_motor_torque) = (true, 1.0, 1.0);
        w.add_joint(Joint::Revolute(j)).unwrap();
        w.step();
        let mut all = DebugList::new(LayerSet::ALL);
        w.debug_draw(&mut all, &DrawOptions::default());
        assert!(all.count(Layer::Joint) >= 8, "anchors, reference lines, limit arc, motor arrow");
        assert!(all.count(Layer::Reaction) >= 1, "the hinge holds the arm up");
        assert_eq!(all.count(Layer::Island), 1, "the arm, in its island's colour");
        // The capsule is drawn as one outline polygon.
        assert!(all
            .cmds
            .iter()
            .any(|c| matches!(c, DrawCmd::Polygon { layer: Layer::Shape, points, .. } if points.len() > 8)));
        // Zoomed out until the arm is a few pixels: one line per joint (the centres are 3 m
        // apart: 15 px), then nothing once that line is shorter than 8 px; the selected joint
        // is drawn whole.
        let far = DrawOptions { pixel_size: 0.2, ..Default::default() };
        let mut lod = DebugList::new(LayerSet::ALL);
        w.debug_draw(&mut lod, &far);
        assert_eq!((lod.count(Layer::Joint), lod.count(Layer::Reaction)), (1, 0));
        let mut tiny = DebugList::new(LayerSet::ALL);
        w.debug_draw(&mut tiny, &DrawOptions { pixel_size: 1.0, ..Default::default() });
        assert_eq!(tiny.count(Layer::Joint), 0);
        let mut chosen = DebugList::new(LayerSet::ALL);
        w.debug_draw(&mut chosen, &DrawOptions { selected_joints: vec![0], ..far });
        assert!(chosen.count(Layer::Joint) >= 8, "the selected joint is drawn whole");
        // Close up, a joint's picture is no larger than its thinner body (the 0.1 m capsule).
        let near = DrawOptions { pixel_size: 0.001, ..Default::default() };
        let mut close = DebugList::new(LayerSet::of(&[Layer::Joint]));
        w.debug_draw(&mut close, &near);
        let circle = close.cmds.iter().find_map(|c| match c {
            DrawCmd::Circle { radius, .. } => Some(*radius),
            _ => None,
        });
        assert!(circle.is_some_and(|r| r <= 0.15 + 1e-6), "revolute circle radius {circle:?}");
        let mut none = DebugList::new(LayerSet::of(&[Layer::Shape]));
        w.debug_draw(&mut none, &DrawOptions::default());
        assert_eq!(none.count(Layer::Joint) + none.count(Layer::Reaction) + none.count(Layer::Island), 0);
    }

    #[test]
    fn a_selected_body_s_contacts_are_strong_the_others_dimmed_and_its_partners_outlined() {
        let mut w = World::new(Default::default());
        let boxy = |h: f32| Shape::make_box(Vec2::new(0.5, h)).unwrap();
        w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(10.0, 0.5)).unwrap(), Vec2::ZERO));
        let lower = w.create_body(&BodyDef::new(BodyKind::Dynamic, boxy(0.5), Vec2::new(0.0, 1.0)));
        let upper = w.create_body(&BodyDef::new(BodyKind::Dynamic, boxy(0.5), Vec2::new(0.0, 2.0)));
        w.create_body(&BodyDef::new(BodyKind::Dynamic, Shape::circle(0.5).unwrap(), Vec2::new(5.0, 1.0)));
        for _ in 0..10 {
            w.step();
        }
        let layers = LayerSet::of(&[Layer::Contact, Layer::Normal]);
        let draw = |selected: Vec<usize>| {
            let mut list = DebugList::new(layers);
            w.debug_draw(&mut list, &DrawOptions { selected, ..Default::default() });
            list.cmds
        };
        let points = |cmds: &[DrawCmd]| -> Vec<(Vec2, f32, f32)> {
            cmds.iter()
                .filter_map(|c| match c {
                    DrawCmd::Point { p, size, color, .. } => Some((*p, *size, color.a)),
                    _ => None,
                })
                .collect()
        };
        let outlines = |cmds: &[DrawCmd]| {
            cmds.iter().filter(|c| matches!(c, DrawCmd::Polygon { outline, .. } | DrawCmd::Circle { outline, .. } if *outline == palette::PARTNER)).count()
        };
        let plain = draw(Vec::new());
        assert!(points(&plain).iter().all(|&(_, size, a)| size == 6.0 && a == 1.0));
        assert_eq!(outlines(&plain), 0);
        let chosen = draw(vec![upper]);
        let between = |p: Vec2| (p.y - 1.5).abs() < 0.1 && p.x.abs() < 0.6;
        let pts = points(&chosen);
        assert_eq!(pts.len(), points(&plain).len(), "every contact point is still drawn");
        for (p, size, a) in pts {
            if between(p) {
                assert_eq!((size, a), (10.0, 1.0), "the upper box's contact at {p}");
            } else {
                assert_eq!((size, a), (6.0, 0.3), "another contact at {p}, dimmed");
            }
        }
        // Only the lower box (the upper's one partner) is outlined, on the contact layer.
        let partner = chosen.iter().find_map(|c| match c {
            DrawCmd::Polygon { layer: Layer::Contact, points, outline, fill } if *outline == palette::PARTNER => {
                Some((points.clone(), fill.a))
            }
            _ => None,
        });
        let lower_pts: Vec<Vec2> = outline(&w.bodies[lower].shape, &w.bodies[lower].xf).unwrap();
        assert_eq!(partner, Some((lower_pts, 0.0)));
        assert_eq!(outlines(&chosen), 1);
        // The strong normals are half as long again.
        let normal_len = chosen.iter().find_map(|c| match c {
            DrawCmd::Arrow { layer: Layer::Normal, from, to, .. } if between(*from) => Some(from.distance(*to)),
            _ => None,
        });
        assert!(normal_len.is_some_and(|l| (l - 0.45).abs() < 1e-4), "{normal_len:?}");
    }
}
