//! The Gauss maps of a SAT view on the unit sphere, through [`DebugDraw3`] (Gregorius, "The
//! Separating Axis Test between Convex Polyhedra", GDC 2013): A's face normals as points and
//! its edges as great arcs (blue), those of −B (orange), on `Gauss`. Where an arc of A crosses
//! an arc of −B the two edges form a face of the Minkowski difference, the only pairs whose
//! axis can win: those arcs again, bolder, and the crossings on `MinkowskiFace` (the best edge
//! pair's crossing in the winner colour). A ring on `Normal` marks the contact normal.
//! Everything lies on the sphere of radius 1 about the origin; a view projects it.

use super::gauss::arc_points;
use super::sat_draw::{hull_color, EDGE_PAIR};
use super::sat_view::SatView3;
use super::AxisKind;
use crate::engine::debug::{palette, Color};
use crate::engine::debug3::{DebugDraw3, Layer3};
use glam::Vec3;

/// Segments per arc.
const ARC_SEGMENTS: usize = 12;
/// Radius of the ring around the contact normal, on the unit sphere.
const RING: f32 = 0.1;

impl SatView3 {
    /// Describes both Gauss maps and their crossings to `d`.
    pub fn draw_gauss(&self, d: &mut dyn DebugDraw3) {
        let (gauss, hot) = (d.wants(Layer3::Gauss), d.wants(Layer3::MinkowskiFace));
        for (i, map) in self.gauss.iter().enumerate() {
            let color = hull_color(i);
            for arc in &map.arcs {
                let crossing = self.crossings.iter().any(|(pair, _)| pair[i] == arc.edge);
                if gauss {
                    polyline(d, Layer3::Gauss, &arc_points(arc.from, arc.to, ARC_SEGMENTS), color.with_alpha(0.6));
                }
                if hot && crossing {
                    polyline(d, Layer3::MinkowskiFace, &arc_points(arc.from, arc.to, ARC_SEGMENTS), color);
                }
            }
            if gauss {
                for p in &map.points {
                    d.point(Layer3::Gauss, *p, 6.0, color);
                }
            }
        }
        if hot {
            let best = self.best[2].map(|k| self.trace.axes[k].kind);
            for (pair, p) in &self.crossings {
                let is_best = best == Some(AxisKind::Edges { edge_a: pair[0], edge_b: pair[1] });
                let (size, color) = if is_best { (10.0, palette::WINNER) } else { (7.0, EDGE_PAIR) };
                d.point(Layer3::MinkowskiFace, *p, size, color);
            }
        }
        if let (true, Ok(c)) = (d.wants(Layer3::Normal), &self.result) {
            d.polygon(Layer3::Normal, &ring(c.normal, RING, 16), Color { a: 0.0, ..palette::WINNER }, palette::WINNER);
        }
    }
}

fn polyline(d: &mut dyn DebugDraw3, layer: Layer3, points: &[Vec3], color: Color) {
    for w in points.windows(2) {
        d.segment(layer, w[0], w[1], color);
    }
}

/// `n` points on the circle of radius `r` about the unit vector `normal`, on the sphere.
fn ring(normal: Vec3, r: f32, n: usize) -> Vec<Vec3> {
    let (u, v) = normal.any_orthonormal_pair();
    (0..n)
        .map(|k| {
            let t = std::f32::consts::TAU * k as f32 / n as f32;
            (normal + r * (t.cos() * u + t.sin() * v)).normalize()
        })
        .collect()
}
