//! The water's debug layers: `Water` (the water below the surface, then the surface line),
//! `Submerged` (each body's submerged pieces, filled) and `Buoyancy` (the centre of
//! buoyancy with the buoyant force, and the drag arrow of every facing edge).

use super::Water;
use crate::engine::debug::{palette, DebugDraw, DrawOptions, Layer};
use glam::Vec2;

impl Water {
    /// The water between its bottom and the surface, as one quad per surface segment within
    /// the view (`Layer::Water`, fill only: drawn under the bodies). Without a bottom it
    /// reaches down to the view's lower edge, or without a view to `open_depth`.
    pub fn draw_body_of_water(&self, d: &mut dyn DebugDraw, opts: &DrawOptions, bottom: Option<f32>, open_depth: f32) {
        if !d.wants(Layer::Water) {
            return;
        }
        let Some(line) = self.visible_surface(opts) else { return };
        let bottom = match (bottom, opts.view) {
            (Some(b), Some(v)) => b.max(v.min.y),
            (Some(b), None) => b,
            (None, Some(v)) => v.min.y,
            (None, None) => open_depth,
        };
        for w in line.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.y.min(b.y) > bottom {
                let quad = [Vec2::new(a.x, bottom), Vec2::new(b.x, bottom), b, a];
                d.polygon(Layer::Water, &quad, palette::WATER, palette::WATER.with_alpha(0.0));
            }
        }
    }

    /// The surface line (`Layer::Water`), the submerged pieces (`Layer::Submerged`) and the
    /// buoyancy and drag arrows (`Layer::Buoyancy`, `opts.buoyancy_scale` metres per newton).
    pub fn draw_over_bodies(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        if d.wants(Layer::Water) {
            if let Some(line) = self.visible_surface(opts) {
                for w in line.windows(2) {
                    d.segment(Layer::Water, w[0], w[1], palette::WATER_SURFACE);
                }
            }
        }
        if d.wants(Layer::Submerged) {
            // Fill only: a body under a wavy surface is one piece per surface segment, and
            // outlines would stripe it.
            let (fill, outline) = (palette::SUBMERGED.with_alpha(0.35), palette::SUBMERGED.with_alpha(0.0));
            for r in &self.reports {
                for piece in &r.pieces {
                    d.polygon(Layer::Submerged, piece, fill, outline);
                }
            }
        }
        if d.wants(Layer::Buoyancy) {
            let scale = opts.buoyancy_scale;
            for r in &self.reports {
                d.point(Layer::Buoyancy, r.centroid, 7.0, palette::BUOYANCY);
                d.arrow(Layer::Buoyancy, r.centroid, r.centroid + scale * r.force, palette::BUOYANCY);
                for a in &r.drag {
                    d.arrow(Layer::Buoyancy, a.point, a.point + scale * a.force, palette::DRAG);
                }
            }
        }
    }

    /// The surface polyline across the region within the view.
    fn visible_surface(&self, opts: &DrawOptions) -> Option<Vec<Vec2>> {
        let (mut x0, mut x1) = self.params.region;
        if let Some(v) = opts.view {
            x0 = x0.max(v.min.x);
            x1 = x1.min(v.max.x);
        }
        if x0.partial_cmp(&x1) != Some(std::cmp::Ordering::Less) {
            return None;
        }
        let mut line = Vec::new();
        self.surface_polyline(x0, x1, &mut line);
        Some(line)
    }
}
