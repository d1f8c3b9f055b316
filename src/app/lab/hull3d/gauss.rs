//! The Gauss-map inset of the 3D hull lab: the unit sphere, orthographic, turned with the main
//! camera. A's face normals are points and its edges great arcs (blue); −B's likewise (orange).
//! Where an arc of A crosses an arc of −B, the two edges form a face of the Minkowski
//! difference: only those edge pairs can give the best edge axis. Crossings are marked, the
//! crossing arcs thickened, and the best edge pair's crossing drawn in the winner colour.

use super::draw::{hull_color, EDGE_PAIR};
use super::Hull3dLab;
use crate::app::camera::ScreenRect;
use crate::app::draw::mq_color;
use glam::Vec2;
use macroquad::prelude as mq;
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::hull3d::gauss::{arc_points, GaussArc};
use manifold_lab::engine::hull3d::AxisKind;

/// The inset's place: a square in the bottom-right corner of the lab's viewport.
pub fn inset_rect(free: &ScreenRect) -> ScreenRect {
    let side = (0.36 * free.size.x.min(free.size.y)).clamp(120.0, 300.0).floor();
    let min = free.min + free.size - Vec2::splat(side + 10.0);
    ScreenRect { min, size: Vec2::splat(side) }
}

fn draw_arc(lab: &Hull3dLab, rect: &ScreenRect, scale: f32, arc: &GaussArc, width: f32, color: mq::Color) {
    let pts = arc_points(arc.from, arc.to, 12);
    for w in pts.windows(2) {
        let (p, dp) = lab.camera.project_ortho(rect, w[0], scale);
        let (q, dq) = lab.camera.project_ortho(rect, w[1], scale);
        // The far hemisphere is faint.
        let alpha = if dp + dq >= 0.0 { color.a } else { color.a * 0.3 };
        mq::draw_line(p.x, p.y, q.x, q.y, width, mq::Color { a: alpha, ..color });
    }
}

pub fn draw_inset(lab: &Hull3dLab, rect: &ScreenRect) {
    let v = &lab.view;
    let plate = mq::Color::new(0.035, 0.04, 0.05, 0.94);
    mq::draw_rectangle(rect.min.x, rect.min.y, rect.size.x, rect.size.y, plate);
    mq::draw_rectangle_lines(rect.min.x, rect.min.y, rect.size.x, rect.size.y, 1.5, mq::Color::new(1.0, 1.0, 1.0, 0.3));
    let scale = 0.40 * rect.size.x;
    let center = rect.center();
    mq::draw_circle(center.x, center.y, scale, mq::Color::new(0.12, 0.13, 0.17, 1.0));
    mq::draw_circle_lines(center.x, center.y, scale, 1.0, mq::Color::new(1.0, 1.0, 1.0, 0.25));

    let crossing_a: Vec<usize> = v.crossings.iter().map(|(p, _)| p[0]).collect();
    let crossing_b: Vec<usize> = v.crossings.iter().map(|(p, _)| p[1]).collect();
    for (i, g) in v.gauss.iter().enumerate() {
        let col = mq_color(hull_color(i));
        let crossing = if i == 0 { &crossing_a } else { &crossing_b };
        for arc in &g.arcs {
            let hot = crossing.contains(&arc.edge);
            draw_arc(
                lab,
                rect,
                scale,
                arc,
                if hot { 2.5 } else { 1.2 },
                mq::Color { a: if hot { 1.0 } else { 0.6 }, ..col },
            );
        }
        for p in &g.points {
            let (s, depth) = lab.camera.project_ortho(rect, *p, scale);
            let a = if depth >= 0.0 { 1.0 } else { 0.35 };
            mq::draw_circle(s.x, s.y, 3.5, mq::Color { a, ..col });
        }
    }
    let best_edges = v.best[2].map(|k| v.trace.axes[k].kind);
    for (pair, p) in &v.crossings {
        let best = best_edges == Some(AxisKind::Edges { edge_a: pair[0], edge_b: pair[1] });
        let (s, depth) = lab.camera.project_ortho(rect, *p, scale);
        let col = mq_color(if best { palette::WINNER } else { EDGE_PAIR });
        let a = if depth >= 0.0 { 1.0 } else { 0.45 };
        mq::draw_circle(s.x, s.y, if best { 6.0 } else { 4.0 }, mq::Color { a, ..col });
    }
    // The contact normal (A to B) as a point on A's map.
    if let Ok(c) = &v.result {
        let (s, _) = lab.camera.project_ortho(rect, c.normal, scale);
        mq::draw_circle_lines(s.x, s.y, 8.0, 2.0, mq_color(palette::WINNER));
    }
    let title = format!("Gauss maps: A, -B  ({} crossings)", v.crossings.len());
    mq::draw_text(&title, rect.min.x + 8.0, rect.min.y + 18.0, 16.0, mq::Color::new(0.9, 0.9, 0.95, 0.95));
}
