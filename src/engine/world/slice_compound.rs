//! Slicing a multi-part body (003 article, "Dynamically Slicing Shapes", for bodies of several
//! shapes, `engine::compound`): the knife cuts only the shapes it crosses, each by
//! Sutherland–Hodgman in its own frame; every other shape goes whole to the piece on whose
//! side of the line its centroid lies. A piece is a body holding its side's shapes (their
//! offsets, angles, materials and filters kept), moving as that part of the body did.
//!
//! A compound is refused when the line crosses one of its circles or capsules (as a body of
//! one such shape is, `world::slice`), and cut only when the line crosses at least one of its
//! polygons from side to side.

use super::slice::{
    capsule_chord, circle_chord, classify, piece_name, piece_polygon, polygon_chord, Crossing, SliceReport,
};
use super::World;
use crate::engine::body::{Body, BodyDef};
use crate::engine::compound::{combined_mass, compose, Part};
use crate::engine::geometry::{split_polygon, Line};
use crate::engine::shape::Shape;
use glam::Vec2;

/// How the line meets a compound: which parts it crosses through, and whether it was refused.
struct Meeting {
    through: Vec<bool>,
    partial: bool,
    refused: Option<String>,
}

/// How the segment `from → from + d` meets each part of `b`.
fn meet(b: &Body, from: Vec2, d: Vec2) -> Meeting {
    let mut m = Meeting { through: vec![false; b.parts.len()], partial: false, refused: None };
    for (k, part) in b.parts.iter().enumerate() {
        let xf = compose(&b.xf, &part.local());
        let (p, dl) = (xf.apply_inv(from), xf.q.apply_inv(d));
        let (t_in, t_out) = match &part.shape {
            Shape::Polygon(poly) => polygon_chord(poly, p, dl),
            Shape::Circle(c) => circle_chord(c.radius, p, dl),
            Shape::Capsule(c) => capsule_chord(c, p, dl),
        };
        match (classify(t_in, t_out), &part.shape) {
            (Crossing::Misses, _) => {}
            (Crossing::Partial, _) => m.partial = true,
            (Crossing::Through, Shape::Polygon(_)) => m.through[k] = true,
            (Crossing::Through, _) => {
                m.refused = Some(format!("shape {k} is round: circles and capsules are not sliced"));
            }
        }
    }
    m
}

/// A body of `parts` cut from `parent`, moving as that part of it did.
fn compound_piece(parent: &Body, parts: Vec<Part>, name: String) -> Body {
    let local = combined_mass(&parts).center;
    let mut def = BodyDef::new(parent.kind, parts[0].shape, parent.xf.p);
    def.name = name;
    def.angle = parent.angle;
    def.linear_velocity = parent.velocity_at(parent.xf.apply(local));
    def.angular_velocity = parent.angular_velocity;
    def.linear_damping = parent.linear_damping;
    def.angular_damping = parent.angular_damping;
    def.gravity_scale = parent.gravity_scale;
    def.bullet = parent.bullet;
    def.parts = parts;
    Body::new(&def)
}

impl World {
    /// Slices compound body `i` by the segment `from → from + d` (see the module docs).
    /// Returns `true` when no piece was kept (the body must go).
    pub(super) fn slice_compound(&mut self, i: usize, from: Vec2, d: Vec2, report: &mut SliceReport) -> bool {
        let parent = self.bodies[i].clone();
        let m = meet(&parent, from, d);
        if let Some(reason) = m.refused {
            report.refused.push((i, reason));
            return false;
        }
        if !m.through.contains(&true) {
            if m.partial {
                report.partial.push(i);
            }
            return false;
        }
        let (p, dl) = (parent.xf.apply_inv(from), parent.xf.q.apply_inv(d));
        let Some(line) = Line::through(p, p + dl) else { return false };
        let (mut behind, mut front, mut simplified) = (Vec::new(), Vec::new(), [0.0f32; 2]);
        for (part, &cut) in parent.parts.iter().zip(&m.through) {
            let local = part.local();
            let Shape::Polygon(poly) = &part.shape else {
                let side = line.distance_to_line(local.p) < 0.0;
                (if side { &mut behind } else { &mut front }).push(*part);
                continue;
            };
            if !cut {
                let side = line.distance_to_line(local.apply(poly.centroid)) < 0.0;
                (if side { &mut behind } else { &mut front }).push(*part);
                continue;
            }
            let Some(own) = Line::through(local.apply_inv(p), local.apply_inv(p + dl)) else { continue };
            let split = split_polygon(poly.vertices(), &own, None);
            for (points, out, s) in [(split.behind, &mut behind, 0), (split.front, &mut front, 1)] {
                if points.len() < 3 {
                    continue;
                }
                match piece_polygon(points) {
                    (Some(piece), dropped) => {
                        out.push(Part { shape: Shape::Polygon(piece), ..*part });
                        simplified[s] += dropped;
                    }
                    (None, _) => report.removed_small += 1,
                }
            }
        }
        let mut kept = Vec::new();
        for (parts, side, s) in [(behind, 'a', 0), (front, 'b', 1)] {
            if !parts.is_empty() {
                kept.push((compound_piece(&parent, parts, piece_name(&parent, i, side)), simplified[s]));
            }
        }
        self.place_pieces(i, parent, kept, report)
    }
}
