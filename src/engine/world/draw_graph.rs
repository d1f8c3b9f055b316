//! The graph colour debug layer: which colour of the constraint graph (`solver::graph`) each
//! contact and joint was solved in last step. Constraints of one colour share no moving body,
//! which is what lets a colour be solved in SIMD rows and on several threads; the overflow
//! sets, solved one constraint at a time, are drawn grey with a ring so that they stand out.
//!
//! Close up, each contact point is a dot in its colour's hue with its normal; zoomed out, where
//! points would be a blur, each contact is one line of the graph: between the centres of its
//! two bodies, or from the moving body's centre to the contact when the other does not move.
//! A joint is always such a line, bent at its anchor, which is marked with a diamond.

use super::draw::Lod;
use super::World;
use crate::engine::debug::{graph_color, palette, Color, DebugDraw, DrawOptions, Layer};
use crate::engine::solver::graph::GraphColor;
use crate::engine::solver::Contact;
use glam::Vec2;

/// Ring radius around overflow contacts, pixels.
const RING_PX: f32 = 6.0;
/// The ring's radius when the pixel size is unknown, metres.
const RING_M: f32 = 0.08;
/// Half the diagonal of a joint's diamond, pixels.
const DIAMOND_PX: f32 = 4.0;

impl World {
    pub(crate) fn draw_graph_colors(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        if !d.wants(Layer::GraphColor) {
            return;
        }
        let ring = if opts.pixel_size > 0.0 { RING_PX * opts.pixel_size } else { RING_M };
        self.draw_joint_colors(d, opts, ring);
        let normal_visible = Lod::pixels(opts, opts.normal_length) >= Lod::DETAIL_PX;
        for c in &self.contacts {
            let color = match c.graph_color {
                GraphColor::None => continue,
                GraphColor::Color(k) => graph_color(k as usize),
                GraphColor::Overflow => palette::OVERFLOW,
            };
            let overflow = c.graph_color == GraphColor::Overflow;
            let Some(mid) = mean_point(c) else { continue };
            if opts.view.is_some_and(|v| !v.contains_point(mid)) {
                continue;
            }
            let (ba, bb) = (&self.bodies[c.a], &self.bodies[c.b]);
            if Lod::pixels(opts, ba.bounding_radius().min(bb.bounding_radius())) < Lod::DETAIL_PX {
                let end = |i: usize| if self.bodies[i].is_dynamic() { self.bodies[i].center } else { mid };
                d.segment(Layer::GraphColor, end(c.a), end(c.b), color);
                if overflow {
                    d.circle(Layer::GraphColor, mid, ring, Color::rgb(0, 0, 0).with_alpha(0.0), color);
                }
                continue;
            }
            for cp in c.points() {
                d.point(Layer::GraphColor, cp.point, 7.0, color);
                if normal_visible {
                    d.segment(Layer::GraphColor, cp.point, cp.point + opts.normal_length * c.normal(), color);
                }
                if overflow {
                    d.circle(Layer::GraphColor, cp.point, ring, Color::rgb(0, 0, 0).with_alpha(0.0), color);
                }
            }
        }
    }
}

impl World {
    /// Each coloured joint as two graph edges, from its moving bodies' centres to its anchor,
    /// with a diamond at the anchor (a ring too for the overflow).
    fn draw_joint_colors(&self, d: &mut dyn DebugDraw, opts: &DrawOptions, ring: f32) {
        let n = self.bodies.len();
        let half = if opts.pixel_size > 0.0 { DIAMOND_PX * opts.pixel_size } else { 0.5 * RING_M };
        for j in &self.joints {
            let color = match j.base().graph_color {
                GraphColor::None => continue,
                GraphColor::Color(k) => graph_color(k as usize),
                GraphColor::Overflow => palette::OVERFLOW,
            };
            let (a, b) = j.bodies();
            if a >= n || b >= n {
                continue;
            }
            let (pa, pb) = j.base().world_anchors(&self.bodies);
            let anchor = 0.5 * (pa + pb);
            if opts.view.is_some_and(|v| !v.contains_point(anchor)) {
                continue;
            }
            for i in [a, b] {
                if self.bodies[i].is_dynamic() {
                    d.segment(Layer::GraphColor, self.bodies[i].center, anchor, color);
                }
            }
            let diamond = [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y].map(|u| anchor + half * u);
            d.polygon(Layer::GraphColor, &diamond, color.with_alpha(0.5), color);
            if j.base().graph_color == GraphColor::Overflow {
                d.circle(Layer::GraphColor, anchor, ring, Color::rgb(0, 0, 0).with_alpha(0.0), color);
            }
        }
    }
}

/// The mean of a contact's points, if it has any.
fn mean_point(c: &Contact) -> Option<Vec2> {
    let pts = c.points();
    (!pts.is_empty()).then(|| pts.iter().map(|p| p.point).sum::<Vec2>() / pts.len() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::debug::OnLayer;
    use crate::engine::debug::{DebugList, DrawCmd, LayerSet};
    use crate::engine::shape::Shape;
    use crate::engine::solver::graph::COLORS;
    use crate::engine::{BodyDef, BodyKind};

    /// A stack of boxes on the ground: the ground contact and each box-on-box contact.
    fn stack(n: usize) -> World {
        let mut w = World::new(Default::default());
        w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(5.0, 0.5)).unwrap(), Vec2::ZERO));
        for k in 0..n {
            let y = 0.5 + 0.5 + k as f32;
            w.create_body(&BodyDef::new(
                BodyKind::Dynamic,
                Shape::make_box(Vec2::splat(0.5)).unwrap(),
                Vec2::new(0.0, y),
            ));
        }
        w.step();
        w
    }

    fn colors_of(list: &DebugList) -> Vec<Color> {
        list.cmds
            .iter()
            .filter_map(|c| match c {
                DrawCmd::Point { layer: Layer::GraphColor, color, .. } => Some(*color),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn each_contact_point_is_drawn_in_its_colours_hue() {
        let w = stack(3);
        let mut list = DebugList::new(LayerSet::of(&[Layer::GraphColor]));
        w.debug_draw(&mut list, &DrawOptions::default());
        let points: usize = w.contacts.iter().map(|c| c.manifold.count).sum();
        assert_eq!(w.contacts.len(), 3);
        assert_eq!(colors_of(&list).len(), points, "a dot per contact point");
        assert_eq!(list.count(Layer::GraphColor), 2 * points, "a dot and a normal per point");
        // Box on ground, box on box, box on box: a chain, so neighbours get different colours,
        // the ground contact skipping colour 0 (Box2D's rule): colours 1, 0, 1.
        let mut by_contact = Vec::new();
        for c in &w.contacts {
            let GraphColor::Color(k) = c.graph_color else { panic!("{:?}", c.graph_color) };
            by_contact.push(k);
            for cp in c.points() {
                let drawn = list.cmds.iter().find_map(|cmd| match cmd {
                    DrawCmd::Point { p, color, .. } if *p == cp.point => Some(*color),
                    _ => None,
                });
                assert_eq!(drawn, Some(graph_color(k as usize)));
            }
        }
        by_contact.sort();
        by_contact.dedup();
        assert_eq!(by_contact.len(), 2, "alternating colours along the stack: {by_contact:?}");
        assert_ne!(graph_color(0), graph_color(1));
        assert!((0..COLORS).all(|k| graph_color(k) != palette::OVERFLOW));
        // Other layers draw nothing of it, and it draws nothing on them.
        let mut others = DebugList::new(LayerSet::of(&[Layer::Contact]));
        w.debug_draw(&mut others, &DrawOptions::default());
        assert_eq!(others.count(Layer::GraphColor), 0);
        assert!(list.cmds.iter().all(|c| c.layer() == Layer::GraphColor));
    }

    #[test]
    fn overflow_contacts_are_grey_with_a_ring_and_far_away_contacts_are_graph_edges() {
        // More contacts on one box than there are colours: a heavy plank across a row of
        // boxes, each box also on the ground. The plank's contacts all share it, so past
        // `COLORS` of them they overflow.
        let mut w = World::new(Default::default());
        let n = COLORS + 6;
        let width = n as f32 * 1.2;
        w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(width, 0.5)).unwrap(), Vec2::ZERO));
        for k in 0..n {
            let x = k as f32 * 1.2 - 0.5 * width;
            w.create_body(&BodyDef::new(
                BodyKind::Dynamic,
                Shape::make_box(Vec2::splat(0.5)).unwrap(),
                Vec2::new(x, 1.0),
            ));
        }
        let plank = Shape::make_box(Vec2::new(0.5 * width, 0.2)).unwrap();
        w.create_body(&BodyDef::new(BodyKind::Dynamic, plank, Vec2::new(-0.6, 1.7)));
        w.step();
        let overflow: Vec<&Contact> = w.contacts.iter().filter(|c| c.graph_color == GraphColor::Overflow).collect();
        assert_eq!(w.profile.overflow, overflow.len());
        assert!(!overflow.is_empty(), "the plank's contacts overflow: {:?}", w.profile);

        let mut near = DebugList::new(LayerSet::of(&[Layer::GraphColor]));
        w.debug_draw(&mut near, &DrawOptions::default());
        let rings: Vec<Vec2> = near
            .cmds
            .iter()
            .filter_map(|c| match c {
                DrawCmd::Circle { center, outline, .. } if *outline == palette::OVERFLOW => Some(*center),
                _ => None,
            })
            .collect();
        let overflow_points: Vec<Vec2> = overflow.iter().flat_map(|c| c.points().iter().map(|p| p.point)).collect();
        assert_eq!(rings, overflow_points, "a ring on every overflow point, and only there");
        assert_eq!(colors_of(&near).iter().filter(|&&c| c == palette::OVERFLOW).count(), overflow_points.len());

        // Zoomed out (a 1 m box spans 2 px): one segment per contact, ending at the centre of
        // each dynamic body; a ring per overflow contact.
        let far = DrawOptions { pixel_size: 0.5, ..Default::default() };
        let mut list = DebugList::new(LayerSet::of(&[Layer::GraphColor]));
        w.debug_draw(&mut list, &far);
        let segments: Vec<(Vec2, Vec2)> = list
            .cmds
            .iter()
            .filter_map(|c| match c {
                DrawCmd::Segment { a, b, .. } => Some((*a, *b)),
                _ => None,
            })
            .collect();
        assert_eq!(segments.len(), w.contacts.len());
        assert_eq!(colors_of(&list).len(), 0, "no dots when zoomed out");
        let centers: Vec<Vec2> = w.bodies.iter().map(|b| b.center).collect();
        for (c, &(a, b)) in w.contacts.iter().zip(&segments) {
            if w.bodies[c.a].is_dynamic() {
                assert_eq!(a, centers[c.a]);
            }
            assert_eq!(b, centers[c.b], "B is always a box or the plank here");
        }
        let far_rings = list.cmds.iter().filter(|c| matches!(c, DrawCmd::Circle { .. })).count();
        assert_eq!(far_rings, overflow.len());
    }

    #[test]
    fn contacts_not_solved_in_colours_are_not_drawn() {
        let mut w = stack(2);
        w.params.position_correction = crate::engine::solver::PositionCorrection::Projection;
        w.step();
        let mut list = DebugList::new(LayerSet::of(&[Layer::GraphColor]));
        w.debug_draw(&mut list, &DrawOptions::default());
        assert!(!w.contacts.is_empty());
        assert_eq!(list.cmds.len(), 0);
    }

    #[test]
    fn joints_are_drawn_in_their_colour_with_a_diamond_at_the_anchor() {
        use crate::engine::solver::joints::{JointBase, RevoluteJoint};
        use crate::engine::solver::Joint;
        // A pendulum of two links from a static pivot: the links' joint and the pivot's joint
        // share link 1, so they get different colours.
        let mut w = World::new(Default::default());
        let circle = |r| Shape::circle(r).unwrap();
        let pivot = w.create_body(&BodyDef::new(BodyKind::Static, circle(0.1), Vec2::new(0.0, 5.0)));
        let l1 = w.create_body(&BodyDef::new(BodyKind::Dynamic, circle(0.2), Vec2::new(1.0, 5.0)));
        let l2 = w.create_body(&BodyDef::new(BodyKind::Dynamic, circle(0.2), Vec2::new(2.0, 5.0)));
        for (a, b, x) in [(pivot, l1, 0.0), (l1, l2, 1.0)] {
            let base = JointBase::at(&w.bodies, a, b, Vec2::new(x, 5.0));
            w.add_joint(Joint::Revolute(RevoluteJoint::new(base))).unwrap();
        }
        w.step();
        let colors: Vec<GraphColor> = w.joints().iter().map(|j| j.base().graph_color).collect();
        assert_eq!(colors, [GraphColor::Color(0), GraphColor::Color(1)]);
        assert_eq!((w.profile.colors, w.profile.overflow), (2, 0));
        let mut list = DebugList::new(LayerSet::of(&[Layer::GraphColor]));
        w.debug_draw(&mut list, &DrawOptions::default());
        let diamonds: Vec<Color> = list
            .cmds
            .iter()
            .filter_map(|c| match c {
                DrawCmd::Polygon { points, outline, .. } if points.len() == 4 => Some(*outline),
                _ => None,
            })
            .collect();
        assert_eq!(diamonds, [graph_color(0), graph_color(1)]);
        // The pivot's joint: one edge (the static pivot has none); the links' joint: two.
        let edges = list.cmds.iter().filter(|c| matches!(c, DrawCmd::Segment { .. })).count();
        assert_eq!(edges, 3);
        // A scalar position correction colours nothing.
        w.params.position_correction = crate::engine::solver::PositionCorrection::Baumgarte;
        w.step();
        assert!(w.joints().iter().all(|j| j.base().graph_color == GraphColor::None));
    }
}
