//! Drawing the 3D hull lab: a `Camera3D` clipped to the lab's viewport for the ground grid and
//! the translucent faces (sorted back to front), then screen-space overlays projected with the
//! same camera: crisp edges, the best faces and edge pair, the winner, contacts, the MTV, the
//! selected axis with both projection intervals, labels on dark plates and an axes gizmo.

use super::{Hull3dLab, Hull3dView};
use crate::app::draw::mq_color;
use crate::app::state::App;
use crate::app::view3d::pen::{c, draw_gizmo, set_camera_3d, Labels, Pen};
use glam::{Vec2, Vec3};
use macroquad::prelude as mq;
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::debug::Color;
use manifold_lab::engine::hull3d::{AxisKind, AxisRecord, Hull};

pub const EDGE_PAIR: Color = palette::INCIDENT_FACE;
pub const CONTACT: Color = palette::KEPT;
pub const MTV: Color = Color::rgb(255, 70, 70);
pub const AXIS: Color = Color::rgb(235, 235, 245);

/// The colour of hull `i` (A blue, B orange), as in the 2D labs.
pub fn hull_color(i: usize) -> Color {
    if i == 0 {
        palette::SHAPE_A
    } else {
        palette::SHAPE_B
    }
}

/// Both hulls' faces as one mesh, back to front; the highlighted faces brighter.
fn draw_faces(lab: &Hull3dLab, bright: [Option<usize>; 2]) {
    let eye = lab.camera.eye();
    let mut tris: Vec<(f32, [Vec3; 3], mq::Color)> = Vec::new();
    for (i, h) in lab.view.hulls.iter().enumerate() {
        for (f, _) in h.faces().iter().enumerate() {
            let poly = h.face_polygon(f);
            let alpha = if bright[i] == Some(f) { 0.55 } else { 0.22 };
            for k in 1..poly.len().saturating_sub(1) {
                let t = [poly[0], poly[k], poly[k + 1]];
                let depth = ((t[0] + t[1] + t[2]) / 3.0).distance(eye);
                tris.push((depth, t, c(hull_color(i), alpha)));
            }
        }
    }
    tris.sort_by(|a, b| b.0.total_cmp(&a.0));
    for chunk in tris.chunks(2000) {
        let mut mesh = mq::Mesh { vertices: Vec::new(), indices: Vec::new(), texture: None };
        for (_, t, col) in chunk {
            for p in t {
                mesh.indices.push(mesh.vertices.len() as u16);
                mesh.vertices.push(mq::Vertex::new(p.x, p.y, p.z, 0.0, 0.0, *col));
            }
        }
        mq::draw_mesh(&mesh);
    }
}

/// Edges of a hull: front edges crisp, edges between two back faces faint.
fn draw_edges(pen: &Pen, h: &Hull, color: Color) {
    let eye = pen.cam.eye();
    let facing: Vec<bool> = (0..h.faces().len()).map(|f| h.planes()[f].distance(eye) > 0.0).collect();
    for (e, &[f, g]) in h.edge_faces().iter().enumerate() {
        let [a, b] = h.edge_segment(e);
        let front = facing[f] || facing[g];
        pen.line(a, b, if front { 1.6 } else { 1.0 }, c(color, if front { 0.95 } else { 0.35 }));
    }
}

fn face_center(h: &Hull, f: usize) -> Vec3 {
    let poly = h.face_polygon(f);
    poly.iter().copied().sum::<Vec3>() / poly.len().max(1) as f32
}

/// Short name of an axis, as in the panel: `A face 3`, `B face 0`, `edges 1 x 2`.
pub fn axis_name(kind: &AxisKind) -> String {
    match kind {
        AxisKind::FaceA { face } => format!("A face {face}"),
        AxisKind::FaceB { face } => format!("B face {face}"),
        AxisKind::Edges { edge_a, edge_b } => format!("edges {edge_a} x {edge_b}"),
    }
}

/// The best face of A, of B and the best edge pair, outlined, thickened and labelled; the
/// deciding one in the winner colour.
fn draw_best(pen: &Pen, v: &Hull3dView, labels: &mut Labels) {
    let decisive = v.decisive();
    for idx in v.best.iter().flatten().copied() {
        let r: &AxisRecord = &v.trace.axes[idx];
        let win = decisive == Some(idx);
        let win_color = if r.separating { palette::SEPARATING } else { palette::WINNER };
        let mark = if win && r.separating {
            "  SEPARATES"
        } else if win {
            "  WINNER"
        } else {
            ""
        };
        let text = format!("{}  {:+.3}{mark}", axis_name(&r.kind), r.separation);
        let (at, color) = match r.kind {
            AxisKind::FaceA { face } | AxisKind::FaceB { face } => {
                let i = usize::from(matches!(r.kind, AxisKind::FaceB { .. }));
                let h = &v.hulls[i];
                let col = if win { win_color } else { hull_color(i) };
                pen.polygon(&h.face_polygon(face), if win { 4.0 } else { 3.0 }, c(col, 1.0));
                (face_center(h, face), if win { win_color } else { hull_color(i) })
            }
            AxisKind::Edges { edge_a, edge_b } => {
                let col = c(if win { win_color } else { EDGE_PAIR }, 1.0);
                let [a0, a1] = v.hulls[0].edge_segment(edge_a);
                let [b0, b1] = v.hulls[1].edge_segment(edge_b);
                pen.line(a0, a1, 5.0, col);
                pen.line(b0, b1, 5.0, col);
                (0.25 * (a0 + a1 + b0 + b1), if win { win_color } else { EDGE_PAIR })
            }
        };
        if let Some(s) = pen.at(at) {
            // Labels sit beside the feature, stacked by family so they never overlap.
            let family = match r.kind {
                AxisKind::FaceA { .. } => -1.0,
                AxisKind::FaceB { .. } => 1.0,
                AxisKind::Edges { .. } => 0.0,
            };
            labels.add(s + Vec2::new(0.0, 24.0 * family - 20.0), &text, mq_color(color));
        }
    }
}

fn draw_contacts(pen: &Pen, v: &Hull3dView, labels: &mut Labels) {
    let (Ok(contact), Some(m)) = (&v.result, &v.manifold) else { return };
    for p in &m.points {
        pen.dot(p.position, 5.0, c(CONTACT, 1.0));
    }
    let n = m.points.len().max(1) as f32;
    let center = m.points.iter().map(|p| p.position).sum::<Vec3>() / n;
    let head = pen.arrow(center, center + contact.mtv, 3.0, 45.0, c(MTV, 1.0));
    if let Some(h) = head {
        labels.add(h + Vec2::new(0.0, -16.0), &format!("MTV {:.3}", contact.mtv.length()), c(MTV, 1.0));
    }
}

/// The selected axis: a long line through the midpoint of the centres, and each hull's
/// projection interval on it, side by side.
fn draw_axis(pen: &Pen, v: &Hull3dView, axis: usize, labels: &mut Labels) {
    let Some(r) = v.trace.axes.get(axis) else { return };
    let n = r.axis;
    if n.length_squared() < 0.5 {
        return;
    }
    let mid = 0.5 * (v.hulls[0].centroid() + v.hulls[1].centroid());
    let reach = v.hulls[0].radius() + v.hulls[1].radius() + mid.distance(v.hulls[0].centroid()) + 1.0;
    pen.line(mid - n * reach, mid + n * reach, 1.5, c(AXIS, 0.8));
    let on_line = |t: f32| mid + n * (t - mid.dot(n));
    let (Some(p0), Some(p1)) = (pen.at(mid - n), pen.at(mid + n)) else { return };
    let side = {
        let d = (p1 - p0).normalize_or(Vec2::X);
        Vec2::new(-d.y, d.x)
    };
    for (i, h) in v.hulls.iter().enumerate() {
        let (lo, hi) = h
            .positions()
            .iter()
            .map(|p| p.dot(n))
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), d| (a.min(d), b.max(d)));
        let off = side * if i == 0 { -7.0 } else { 7.0 };
        if let (Some(a), Some(b)) = (pen.at(on_line(lo)), pen.at(on_line(hi))) {
            let col = c(hull_color(i), 1.0);
            mq::draw_line(a.x + off.x, a.y + off.y, b.x + off.x, b.y + off.y, 6.0, col);
            for e in [a, b] {
                mq::draw_line(e.x, e.y, e.x + 2.0 * off.x, e.y + 2.0 * off.y, 2.0, col);
            }
        }
    }
    if let Some(s) = pen.at(mid + n * (reach * 0.8)) {
        labels.add(s, &format!("axis: {}  {:+.3}", axis_name(&r.kind), r.separation), c(AXIS, 1.0));
    }
}

/// The whole lab view (called by `view::draw_world`).
pub fn draw(app: &App, lab: &Hull3dLab) {
    let selected_axis = lab.axis;
    let vp = app.viewport;
    let v = &lab.view;
    let bright = |k: usize| {
        v.best[k].and_then(|i| match v.trace.axes[i].kind {
            AxisKind::FaceA { face } | AxisKind::FaceB { face } => Some(face),
            AxisKind::Edges { .. } => None,
        })
    };
    set_camera_3d(&lab.camera, &vp);
    let grid_center = Vec3::new(lab.camera.target.x.round(), lab.ground, lab.camera.target.z.round());
    mq::draw_grid_ex(24, 0.5, c(AXIS, 0.25), c(AXIS, 0.08), grid_center, glam::Quat::IDENTITY);
    draw_faces(lab, [bright(0), bright(1)]);
    mq::set_default_camera();

    let pen = Pen { cam: &lab.camera, vp };
    for (i, h) in v.hulls.iter().enumerate() {
        draw_edges(&pen, h, hull_color(i));
    }
    let mut labels = Labels::default();
    if let Some(axis) = selected_axis {
        draw_axis(&pen, v, axis, &mut labels);
    }
    draw_best(&pen, v, &mut labels);
    draw_contacts(&pen, v, &mut labels);
    for (i, name) in ["A", "B"].iter().enumerate() {
        let h = &v.hulls[i];
        let top = h.centroid() + lab.camera.up() * (h.radius() * 0.85);
        if let Some(s) = pen.at(top) {
            labels.add(s, name, c(hull_color(i), 1.0));
        }
    }
    labels.draw();
    draw_gizmo(&lab.camera, &vp);
    if lab.show_gauss {
        if let Some(rect) = app.inset {
            super::gauss::draw_inset(lab, &rect);
        }
    }
}
