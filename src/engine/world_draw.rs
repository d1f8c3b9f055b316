//! `World::debug_draw`: the world's state described through `DebugDraw`.

use super::body::{Body, BodyKind};
use super::broadphase::TreeDrawOptions;
use super::debug::{palette, Color, DebugDraw, DrawOptions, Layer};
use super::math::right_perp;
use super::shape::Shape;
use super::world::World;
use glam::Vec2;

/// Body colour by kind and selection.
pub fn body_color(b: &Body, selected: bool) -> Color {
    if selected {
        return palette::SELECTED;
    }
    match b.kind {
        BodyKind::Static => palette::STATIC,
        BodyKind::Kinematic => palette::KINEMATIC,
        BodyKind::Dynamic => palette::DYNAMIC,
    }
}

/// Describes one body's shape (filled, outlined) and the line from its centre showing its angle.
pub fn draw_body(d: &mut dyn DebugDraw, b: &Body, color: Color) {
    draw_body_sized(d, b, color, f32::INFINITY);
}

/// `draw_body` for a body whose bounding radius spans `radius_px` pixels: below
/// `Lod::SOLID_PX` it is one solid polygon (no outline, no angle line), shrunk by
/// `Lod::SEAM_PX` so that neighbours stay apart, which is all a few pixels can show.
fn draw_body_sized(d: &mut dyn DebugDraw, b: &Body, color: Color, radius_px: f32) {
    let solid = radius_px < Lod::SOLID_PX;
    let (fill, outline) =
        if solid { (color.with_alpha(0.85), color.with_alpha(0.0)) } else { (color.with_alpha(0.35), color) };
    // World units per pixel at this body's size (0 when unknown: nothing shrinks).
    let px = if radius_px.is_finite() && radius_px > 0.0 { b.bounding_radius() / radius_px } else { 0.0 };
    let seam = if solid { Lod::SEAM_PX * px } else { 0.0 };
    if d.wants(Layer::Shape) {
        match &b.shape {
            Shape::Circle(c) => d.circle(Layer::Shape, b.xf.p, (c.radius - seam).max(0.5 * c.radius), fill, outline),
            Shape::Polygon(p) => {
                let mut pts = [Vec2::ZERO; super::shape::MAX_POLYGON_VERTICES];
                let center = b.center;
                for (dst, v) in pts.iter_mut().zip(p.world_vertices(&b.xf)) {
                    let r = v - center;
                    let len = r.length();
                    *dst = if len > 2.0 * seam { v - r * (seam / len) } else { v };
                }
                d.polygon(Layer::Shape, &pts[..p.count], fill, outline);
            }
        }
    }
    if d.wants(Layer::Angle) && b.kind != BodyKind::Static && radius_px >= Lod::DETAIL_PX {
        let reach = match &b.shape {
            Shape::Circle(c) => c.radius,
            Shape::Polygon(p) => p.vertices().iter().map(|v| (*v - p.centroid).dot(Vec2::X)).fold(0.0, f32::max),
        };
        let tip = b.center + b.xf.q.apply(Vec2::X) * reach.max(0.05);
        d.segment(Layer::Angle, b.center, tip, color);
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
    /// Draws bodies, AABBs, centres of mass, contacts, normals, impulses and the mouse joint,
    /// each on its layer.
    pub fn debug_draw(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        let visible = |b: &Body| match opts.view {
            Some(view) => b.shape.compute_aabb(&b.xf).overlaps(&view),
            None => true,
        };
        for (i, b) in self.bodies.iter().enumerate() {
            if !visible(b) {
                continue;
            }
            let selected = opts.selected.contains(&i);
            let radius_px = Lod::pixels(opts, b.bounding_radius());
            draw_body_sized(d, b, body_color(b, selected), radius_px);
            if d.wants(Layer::Aabb) {
                d.aabb(Layer::Aabb, b.shape.compute_aabb(&b.xf), palette::AABB);
            }
            if d.wants(Layer::CenterOfMass) && b.kind == BodyKind::Dynamic && radius_px >= Lod::DETAIL_PX {
                d.point(Layer::CenterOfMass, b.center, 4.0, palette::CENTER);
            }
            if d.wants(Layer::Label) && !b.name.is_empty() && radius_px >= Lod::LABEL_PX {
                d.text(Layer::Label, b.xf.p, &b.name, palette::TEXT);
            }
        }
        self.draw_broadphase(d, opts);
        self.draw_contacts(d, opts);
        if let Some(j) = &self.mouse_joint {
            if d.wants(Layer::Joint) {
                let anchor = j.anchor(&self.bodies);
                d.segment(Layer::Joint, anchor, j.target, palette::JOINT);
                d.point(Layer::Joint, j.target, 6.0, palette::JOINT);
                d.point(Layer::Joint, anchor, 5.0, palette::JOINT);
            }
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

    fn draw_contacts(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        let wants_any = [Layer::Contact, Layer::Normal, Layer::Impulse, Layer::Friction].iter().any(|&l| d.wants(l));
        if !wants_any {
            return;
        }
        let normal_visible = Lod::pixels(opts, opts.normal_length) >= Lod::DETAIL_PX;
        for c in &self.contacts {
            let smaller = self.bodies[c.a].bounding_radius().min(self.bodies[c.b].bounding_radius());
            if Lod::pixels(opts, smaller) < Lod::DETAIL_PX {
                continue;
            }
            let n = c.normal();
            for cp in c.points() {
                if let Some(view) = opts.view {
                    if !view.contains_point(cp.point) {
                        continue;
                    }
                }
                if d.wants(Layer::Contact) {
                    // 003 article: colour by warm-start history.
                    let color = if cp.base_separation > 0.0 {
                        palette::CONTACT_SPECULATIVE
                    } else if cp.persisted > 10 {
                        palette::CONTACT_PERSISTENT
                    } else if cp.persisted > 0 {
                        palette::CONTACT_WARM
                    } else {
                        palette::CONTACT_NEW
                    };
                    d.point(Layer::Contact, cp.point, 6.0, color);
                }
                if d.wants(Layer::Normal) && normal_visible {
                    d.arrow(Layer::Normal, cp.point, cp.point + opts.normal_length * n, palette::NORMAL);
                }
                if d.wants(Layer::Impulse) && cp.normal_impulse > 0.0 {
                    d.arrow(
                        Layer::Impulse,
                        cp.point,
                        cp.point + opts.impulse_scale * cp.normal_impulse * n,
                        palette::IMPULSE,
                    );
                }
                if d.wants(Layer::Friction) && cp.tangent_impulse != 0.0 {
                    let t = right_perp(n);
                    d.arrow(
                        Layer::Friction,
                        cp.point,
                        cp.point + opts.impulse_scale * cp.tangent_impulse * t,
                        palette::FRICTION,
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
