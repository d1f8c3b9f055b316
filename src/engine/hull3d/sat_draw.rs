//! The picture of one hull–hull SAT (seed article 001) through [`DebugDraw3`]: both hulls
//! (translucent faces, crisp edges, faint edges between two back faces when a viewpoint is
//! given), the best face axis of A and of B outlined on their face, the best edge pair drawn on
//! both edges, the deciding axis (`WINNER`, or `SEPARATES` when the SAT stopped on it), the
//! contact manifold, the minimum translation vector, and a selected axis as a line through the
//! hulls with each hull's projection interval on it. Each part is on its own [`Layer3`].
//!
//! Stepping: a [`SatView3`] is a [`Trace3`] whose steps are the axes in test order; step `k`
//! is the picture with axis `k` selected.

use super::sat_view::SatView3;
use super::{AxisKind, Hull};
use crate::engine::debug::{palette, Color};
use crate::engine::debug3::{DebugDraw3, Layer3};
use crate::engine::number::Num;
use crate::engine::trace::Trace3;
use glam::Vec3;

/// The best edge pair (and the Gauss-map crossings).
pub const EDGE_PAIR: Color = palette::INCIDENT_FACE;
pub const CONTACT: Color = palette::KEPT;
pub const MTV: Color = Color::rgb(255, 70, 70);
/// The selected axis.
pub const AXIS: Color = Color::rgb(235, 235, 245);
const CLEAR: Color = Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 };

/// The layers a SAT picture draws on (its Gauss maps included; `Normal` is the contact
/// normal's ring on them), in panel order.
pub const SAT_LAYERS: [Layer3; 12] = [
    Layer3::Shape,
    Layer3::Edge,
    Layer3::BestFace,
    Layer3::BestEdge,
    Layer3::SatAxis,
    Layer3::Contact,
    Layer3::Mtv,
    Layer3::Projection,
    Layer3::Label,
    Layer3::Gauss,
    Layer3::MinkowskiFace,
    Layer3::Normal,
];

/// The colour of hull `i` (A blue, B orange), as in the 2D labs.
pub fn hull_color(i: usize) -> Color {
    if i == 0 {
        palette::SHAPE_A
    } else {
        palette::SHAPE_B
    }
}

/// How the picture is seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatDrawOptions3 {
    /// The axis (index in the trace) drawn with both projection intervals.
    pub selected: Option<usize>,
    /// Where the picture is seen from: edges between two faces turned away from it are faint,
    /// and the two projection intervals sit side by side across the line of sight.
    pub eye: Option<Vec3>,
    /// Which way is up on the picture (the hull names sit above each hull).
    pub up: Vec3,
}

impl Default for SatDrawOptions3 {
    fn default() -> Self {
        SatDrawOptions3 { selected: None, eye: None, up: Vec3::Y }
    }
}

impl SatView3 {
    /// Describes the SAT to `d`, layer by layer (unwanted layers cost nothing).
    pub fn draw(&self, opts: &SatDrawOptions3, d: &mut dyn DebugDraw3) {
        self.draw_hulls(opts, d);
        if let Some(k) = opts.selected.filter(|_| d.wants(Layer3::Projection)) {
            self.draw_projection(k, opts.eye, d);
        }
        self.draw_best(d);
        self.draw_contact(d);
        self.draw_names(opts, d);
    }

    /// Both hulls alone: faces and edges (under a trace's picture, as the clip stage draws).
    pub fn draw_hulls(&self, opts: &SatDrawOptions3, d: &mut dyn DebugDraw3) {
        self.draw_faces(d);
        for i in 0..2 {
            draw_edges(&self.hulls[i], hull_color(i), opts.eye, d);
        }
    }

    /// The hulls' names, above each.
    pub fn draw_names(&self, opts: &SatDrawOptions3, d: &mut dyn DebugDraw3) {
        if d.wants(Layer3::Label) {
            for (i, name) in ["A", "B"].into_iter().enumerate() {
                let h = &self.hulls[i];
                d.text(Layer3::Label, h.centroid() + opts.up * (0.85 * h.radius()), name, hull_color(i));
            }
        }
    }

    /// The layer axis `k` is drawn on when it is one of the best: the deciding axis on
    /// `SatAxis`, the others on their family's layer.
    fn best_layer(&self, k: usize) -> Layer3 {
        if self.decisive() == Some(k) {
            Layer3::SatAxis
        } else if self.trace.axes[k].kind.family() == 2 {
            Layer3::BestEdge
        } else {
            Layer3::BestFace
        }
    }

    /// Both hulls' faces; a face that is its hull's best axis (and drawn) filled brighter.
    fn draw_faces(&self, d: &mut dyn DebugDraw3) {
        if !d.wants(Layer3::Shape) {
            return;
        }
        for (i, h) in self.hulls.iter().enumerate() {
            let bright = self.best_face(i).filter(|_| self.best[i].is_some_and(|k| d.wants(self.best_layer(k))));
            for f in 0..h.faces().len() {
                let alpha = if bright == Some(f) { 0.55 } else { 0.22 };
                d.polygon(Layer3::Shape, &h.face_polygon(f), hull_color(i).with_alpha(alpha), hull_color(i));
            }
        }
    }

    /// The best face of A, of B and the best edge pair, outlined and labelled with their
    /// separation; the deciding one in the winner colour (the separating colour when apart).
    fn draw_best(&self, d: &mut dyn DebugDraw3) {
        let decisive = self.decisive();
        // The deciding axis last, over the others.
        let mut order: Vec<usize> = self.best.iter().flatten().copied().filter(|&k| Some(k) != decisive).collect();
        order.extend(decisive.filter(|k| self.best.contains(&Some(*k))));
        for k in order {
            let layer = self.best_layer(k);
            if !d.wants(layer) {
                continue;
            }
            let r = &self.trace.axes[k];
            let mark = match (layer, r.separating) {
                (Layer3::SatAxis, true) => "  SEPARATES",
                (Layer3::SatAxis, false) => "  WINNER",
                _ => "",
            };
            let color = match (layer, r.separating, r.kind) {
                (Layer3::SatAxis, true, _) => palette::SEPARATING,
                (Layer3::SatAxis, false, _) => palette::WINNER,
                (_, _, AxisKind::Edges { .. }) => EDGE_PAIR,
                (_, _, kind) => hull_color(kind.family()),
            };
            let at = match r.kind {
                AxisKind::FaceA { face } | AxisKind::FaceB { face } => {
                    let poly = self.hulls[r.kind.family()].face_polygon(face);
                    d.polygon(layer, &poly, CLEAR, color);
                    poly.iter().copied().sum::<Vec3>() / poly.len().max(1) as f32
                }
                AxisKind::Edges { edge_a, edge_b } => {
                    let [a0, a1] = self.hulls[0].edge_segment(edge_a);
                    let [b0, b1] = self.hulls[1].edge_segment(edge_b);
                    d.segment(layer, a0, a1, color);
                    d.segment(layer, b0, b1, color);
                    0.25 * (a0 + a1 + b0 + b1)
                }
            };
            d.text(layer, at, &format!("{}  {:+.3}{mark}", r.kind.name(), Num(r.separation)), color);
        }
    }

    /// The manifold's points and the MTV from their centre.
    fn draw_contact(&self, d: &mut dyn DebugDraw3) {
        let (Ok(contact), Some(m)) = (&self.result, &self.manifold) else { return };
        if d.wants(Layer3::Contact) {
            for p in &m.points {
                d.point(Layer3::Contact, p.position, 8.0, CONTACT);
            }
        }
        if d.wants(Layer3::Mtv) {
            let center = match m.points.len() {
                0 => contact.point,
                n => m.points.iter().map(|p| p.position).sum::<Vec3>() / n as f32,
            };
            let head = center + contact.mtv;
            d.arrow(Layer3::Mtv, center, head, MTV);
            d.text(Layer3::Mtv, head, &format!("MTV {:.3}", Num(contact.mtv.length())), MTV);
        }
    }

    /// Axis `k` as a long line through the midpoint of the centres, and each hull's projection
    /// interval on it as a bar beside the line (A on one side, B on the other).
    fn draw_projection(&self, k: usize, eye: Option<Vec3>, d: &mut dyn DebugDraw3) {
        let Some(r) = self.trace.axes.get(k) else { return };
        let n = r.axis;
        if n.length_squared() <= 0.5 || !n.is_finite() {
            return; // a skipped parallel pair has no axis
        }
        let [c0, c1] = [self.hulls[0].centroid(), self.hulls[1].centroid()];
        let mid = 0.5 * (c0 + c1);
        let size = self.hulls[0].radius() + self.hulls[1].radius();
        let reach = size + mid.distance(c0) + 1.0;
        d.segment(Layer3::Projection, mid - n * reach, mid + n * reach, AXIS.with_alpha(0.8));
        // Across the line of sight, so the bars stand apart on screen.
        let side =
            eye.map_or(Vec3::ZERO, |e| n.cross(mid - e)).try_normalize().unwrap_or_else(|| n.any_orthonormal_vector());
        let on_line = |t: f32| mid + n * (t - mid.dot(n));
        let (offset, half_width) = (0.018 * size, 0.006 * size);
        for (i, h) in self.hulls.iter().enumerate() {
            let (lo, hi) = h
                .positions()
                .iter()
                .map(|p| p.dot(n))
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), t| (a.min(t), b.max(t)));
            let s = side * if i == 0 { -offset } else { offset };
            let w = side * half_width;
            let (a, b) = (on_line(lo), on_line(hi));
            let color = hull_color(i);
            d.polygon(Layer3::Projection, &[a + s - w, b + s - w, b + s + w, a + s + w], color, color);
            for end in [a, b] {
                d.segment(Layer3::Projection, end, end + 2.0 * s, color);
            }
        }
        d.text(
            Layer3::Projection,
            mid + n * (0.8 * reach),
            &format!("axis: {}  {:+.3}", r.kind.name(), Num(r.separation)),
            AXIS,
        );
    }
}

/// A hull's edges; with a viewpoint, those between two faces turned away from it faint.
fn draw_edges(h: &Hull, color: Color, eye: Option<Vec3>, d: &mut dyn DebugDraw3) {
    if !d.wants(Layer3::Edge) {
        return;
    }
    let facing = |f: usize| eye.is_none_or(|e| h.planes()[f].distance(e) > 0.0);
    for (e, &[f, g]) in h.edge_faces().iter().enumerate() {
        let [a, b] = h.edge_segment(e);
        let front = facing(f) || facing(g);
        d.segment(Layer3::Edge, a, b, color.with_alpha(if front { 0.95 } else { 0.35 }));
    }
}

impl Trace3 for SatView3 {
    /// Every axis the SAT tested, in test order.
    fn steps(&self) -> usize {
        self.trace.axes.len()
    }

    fn step_label(&self, k: usize) -> String {
        let Some(r) = self.trace.axes.get(k) else { return "no axes".into() };
        let verdict = match r.skipped {
            Some(skip) => format!("skipped ({skip:?})"),
            None if r.separating => format!("{:+.4}, separates", Num(r.separation)),
            None if self.trace.winner == Some(k) => format!("{:+.4}, the winner", Num(r.separation)),
            None => format!("{:+.4}", Num(r.separation)),
        };
        format!("axis {} of {}: {}  {verdict}", k + 1, self.trace.axes.len(), r.kind.name())
    }

    /// The picture with axis `k` (clamped) selected.
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw3) {
        let selected = self.steps().checked_sub(1).map(|last| k.min(last));
        self.draw(&SatDrawOptions3 { selected, ..Default::default() }, d);
    }
}
