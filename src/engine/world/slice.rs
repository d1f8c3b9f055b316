//! Slicing bodies with a line (003 article, "Dynamically Slicing Shapes": Sutherland–Hodgman
//! splits a convex polygon by a line into two convex polygons) and removing bodies.
//!
//! The world keeps bodies in a `Vec` and everything else refers to them by index (contacts,
//! broadphase proxies and pairs, joints, the mouse joint, the water's reports; continuous collision
//! only within a step). A sliced body is replaced *in place* by its first piece and its
//! second piece is appended, so no other body changes index; a body that leaves no piece is
//! removed with [`World::remove_body`], which renumbers every reference.
//!
//! Choices:
//! - **Joints** on a sliced body go to the piece holding their anchor; a removed body takes
//!   its joints with it.
//! - **Capsules are refused** like circles, for the same reason.
//! - **Circles are refused** (listed in the report with the reason): a piece of a circle has
//!   no convex-polygon form within [`MAX_POLYGON_VERTICES`] that keeps its area (a half disk
//!   as an 8-gon loses 4.5 %), and circles would stop rolling as circles.
//! - **Too many vertices are simplified**, not allowed: a cut adds up to one vertex, so an
//!   8-gon can give a 9-gon, and raising the maximum would only postpone it (every cut can
//!   add one) while enlarging every polygon and proxy on the hot paths. The piece drops the
//!   vertices that cut off the least area (Visvalingam–Whyatt, `geometry::simplify`), which
//!   keeps it convex; the area lost is reported per piece.
//! - **Small pieces are removed**: below [`MIN_PIECE_AREA`], or thinner than
//!   [`MIN_PIECE_THICKNESS`] (centroid to nearest face), a piece would be a sliver the
//!   solver cannot hold.

use super::World;
use crate::engine::body::{Body, BodyDef, BodyKind};
use crate::engine::geometry::{simplify_to, split_polygon, Line, SliceTrace};
use crate::engine::math::Aabb;
use crate::engine::shape::extents::shape_extents;
use crate::engine::shape::{Capsule, Polygon, Shape, MAX_POLYGON_VERTICES};
use glam::Vec2;
use serde::Serialize;

/// Pieces smaller than this (m²) are removed.
pub const MIN_PIECE_AREA: f32 = 0.0025;
/// Pieces whose centroid is closer than this to a face (m) are removed.
pub const MIN_PIECE_THICKNESS: f32 = crate::engine::LINEAR_SLOP;

/// One piece a sliced body became.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlicePiece {
    /// Its index in the world after the slice.
    pub index: usize,
    pub name: String,
    pub area: f32,
    pub mass: f32,
    pub vertices: usize,
    /// Area dropped to keep within `MAX_POLYGON_VERTICES` (0 when nothing was).
    pub simplified_area: f32,
}

/// A body the line cut.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlicedBody {
    /// Its index before the slice.
    pub parent: usize,
    pub name: String,
    pub mass: f32,
    /// The pieces kept: behind the line (left of `from → to`) first.
    pub pieces: Vec<SlicePiece>,
}

/// What [`World::slice`] did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SliceReport {
    pub from: Vec2,
    pub to: Vec2,
    pub sliced: Vec<SlicedBody>,
    /// Pieces dropped as too small or too thin.
    pub removed_small: usize,
    /// Bodies removed from the world because no piece of theirs was kept (indices before the
    /// slice, ascending). Bodies after each moved down by one.
    pub removed: Vec<usize>,
    /// Dynamic bodies the line crosses that were not cut, with the reason (circles).
    pub refused: Vec<(usize, String)>,
    /// Dynamic bodies the segment enters without crossing (an end lies inside them).
    pub partial: Vec<usize>,
}

impl SliceReport {
    /// Where the body at index `old` (before the slice) is now: `None` if it was removed. A
    /// sliced body's index now holds its first piece.
    pub fn new_index(&self, old: usize) -> Option<usize> {
        match self.removed.binary_search(&old) {
            Ok(_) => None,
            Err(below) => Some(old - below),
        }
    }

    /// One line for a status bar.
    pub fn summary(&self) -> String {
        let pieces: usize = self.sliced.iter().map(|s| s.pieces.len()).sum();
        let mut s = format!("sliced {} bodies into {pieces} pieces", self.sliced.len());
        if self.removed_small > 0 {
            s += &format!(", {} too small removed", self.removed_small);
        }
        if let Some((_, why)) = self.refused.first() {
            s += &format!(", {} refused ({why})", self.refused.len());
        }
        s
    }
}

/// How the line `from → to` meets a shape, by the parameter `t` along it.
pub(super) enum Crossing {
    Misses,
    /// Enters and leaves between the ends.
    Through,
    /// An end lies inside.
    Partial,
}

pub(super) fn classify(t_in: f32, t_out: f32) -> Crossing {
    if t_in.partial_cmp(&t_out) != Some(std::cmp::Ordering::Less) || t_out <= 0.0 || t_in >= 1.0 {
        Crossing::Misses
    } else if t_in > 0.0 && t_out < 1.0 {
        Crossing::Through
    } else {
        Crossing::Partial
    }
}

/// The chord of the line `p + t·d` through polygon `poly` (Cyrus–Beck): `(t_in, t_out)`.
pub(super) fn polygon_chord(poly: &Polygon, p: Vec2, d: Vec2) -> (f32, f32) {
    let (mut t_in, mut t_out) = (f32::NEG_INFINITY, f32::INFINITY);
    for (v, n) in poly.vertices().iter().zip(poly.normals()) {
        let (a, b) = (n.dot(p - *v), n.dot(d));
        if b == 0.0 {
            if a > 0.0 {
                return (1.0, 0.0);
            }
        } else if b < 0.0 {
            t_in = t_in.max(-a / b);
        } else {
            t_out = t_out.min(-a / b);
        }
    }
    (t_in, t_out)
}

/// The chord of the line `p + t·d` through a circle of `radius` at the origin.
pub(super) fn circle_chord(radius: f32, p: Vec2, d: Vec2) -> (f32, f32) {
    let (a, b, c) = (d.dot(d), p.dot(d), p.dot(p) - radius * radius);
    let disc = b * b - a * c;
    if a == 0.0 || disc <= 0.0 {
        return (1.0, 0.0);
    }
    let root = disc.sqrt();
    ((-b - root) / a, (-b + root) / a)
}

/// The chord of the line `p + t·d` through a capsule (its frame): the union of the chords
/// through its two end discs and its middle rectangle, which is exact since the capsule is
/// their union and convex.
pub(super) fn capsule_chord(c: &Capsule, p: Vec2, d: Vec2) -> (f32, f32) {
    let axis = (c.center2 - c.center1).normalize_or_zero();
    let side = axis.perp();
    // The rectangle as four planes (point, outward normal).
    let planes = [
        (c.center1 + c.radius * side, side),
        (c.center1 - c.radius * side, -side),
        (c.center1, -axis),
        (c.center2, axis),
    ];
    let (mut t_in, mut t_out) = (f32::NEG_INFINITY, f32::INFINITY);
    for (v, n) in planes {
        let (a, b) = (n.dot(p - v), n.dot(d));
        if b == 0.0 {
            if a > 0.0 {
                (t_in, t_out) = (1.0, 0.0);
                break;
            }
        } else if b < 0.0 {
            t_in = t_in.max(-a / b);
        } else {
            t_out = t_out.min(-a / b);
        }
    }
    let mut chord: Option<(f32, f32)> = (t_in < t_out).then_some((t_in, t_out));
    for center in [c.center1, c.center2] {
        let (i, o) = circle_chord(c.radius, p - center, d);
        if i < o {
            chord = Some(chord.map_or((i, o), |(ci, co)| (ci.min(i), co.max(o))));
        }
    }
    chord.unwrap_or((1.0, 0.0))
}

/// `parent#a` / `parent#b`; a piece of a piece gets one more letter (`parent#ab`).
pub(super) fn piece_name(parent: &Body, index: usize, side: char) -> String {
    let base = if parent.name.is_empty() { format!("body{index}") } else { parent.name.clone() };
    if base.contains('#') {
        format!("{base}{side}")
    } else {
        format!("{base}#{side}")
    }
}

/// The polygon of one side of a cut (at least 3 points), simplified to at most
/// `MAX_POLYGON_VERTICES` (with the area that dropped); `None` when it is too small or thin to
/// keep (see the module docs).
pub(super) fn piece_polygon(mut points: Vec<Vec2>) -> (Option<Polygon>, f32) {
    let simplified_area = simplify_to(&mut points, MAX_POLYGON_VERTICES);
    let piece = Polygon::hull(&points).ok().filter(|p| {
        let md = p.mass_data(1.0);
        md.area >= MIN_PIECE_AREA && shape_extents(&Shape::Polygon(*p), md.center).0 >= MIN_PIECE_THICKNESS
    });
    (piece, simplified_area)
}

/// A new body for `piece` (in `parent`'s frame), moving as that part of the parent did.
fn piece_body(parent: &Body, piece: Polygon, name: String) -> Body {
    let local = piece.mass_data(parent.material.density.max(0.0)).center;
    let def = BodyDef {
        name,
        kind: BodyKind::Dynamic,
        shape: Shape::Polygon(piece),
        position: parent.xf.p,
        angle: parent.angle,
        linear_velocity: parent.velocity_at(parent.xf.apply(local)),
        angular_velocity: parent.angular_velocity,
        material: parent.material,
        linear_damping: parent.linear_damping,
        angular_damping: parent.angular_damping,
        gravity_scale: parent.gravity_scale,
        bullet: parent.bullet,
        awake: true,
        category_bits: parent.category_bits,
        mask_bits: parent.mask_bits,
        parts: Vec::new(),
    };
    Body::new(&def)
}

impl World {
    /// Removes body `index` and renumbers every reference to the bodies after it (contacts,
    /// broadphase proxies and pairs, joints, the mouse joint, the water's reports). Contacts,
    /// joints and the mouse joint of the removed body go with it. Returns the body, or `None` if there is
    /// no such index.
    pub fn remove_body(&mut self, index: usize) -> Option<Body> {
        if index >= self.bodies.len() {
            return None;
        }
        // Joints on the body go with it (their other body wakes).
        let mut k = 0;
        while k < self.joints.len() {
            let (a, b) = self.joints[k].bodies();
            if a == index || b == index {
                self.remove_joint(k);
            } else {
                k += 1;
            }
        }
        let body = self.bodies.remove(index);
        self.narrowphase.invalidate();
        let shift = |i: usize| if i > index { i - 1 } else { i };
        self.contacts.retain(|c| c.a != index && c.b != index);
        for c in &mut self.contacts {
            (c.a, c.b) = (shift(c.a), shift(c.b));
        }
        if self.mouse_joint.as_ref().is_some_and(|j| j.body == index) {
            self.mouse_joint = None;
        }
        if let Some(j) = &mut self.mouse_joint {
            j.body = shift(j.body);
        }
        for j in &mut self.joints {
            let base = j.base_mut();
            (base.body_a, base.body_b) = (shift(base.body_a), shift(base.body_b));
        }
        self.broadphase.remove_body(index);
        if let Some(w) = &mut self.water {
            w.reports.retain(|r| r.body != index);
            for r in &mut w.reports {
                r.body = shift(r.body);
            }
        }
        if let Some(rule) = &mut self.spawner {
            rule.forget(&[index]);
        }
        Some(body)
    }

    /// Cuts every dynamic polygon body that the segment `from → to` fully crosses (both ends
    /// outside it) into two convex bodies along the line: mass, centroid and inertia from
    /// the density, each piece moving as that part of the body did (`v + ω × r` at its new
    /// centroid, the same `ω`), named `name#a` (the part left of `from → to`) and `name#b`.
    /// See the module docs for circles, vertex counts and small pieces.
    pub fn slice(&mut self, from: Vec2, to: Vec2) -> SliceReport {
        let mut report = SliceReport { from, to, ..Default::default() };
        let d = to - from;
        if !(from.is_finite() && to.is_finite()) || d.length_squared() == 0.0 {
            return report;
        }
        let reach = Aabb::new(from.min(to), from.max(to));
        let mut doomed = Vec::new();
        for i in 0..self.bodies.len() {
            let b = &self.bodies[i];
            if b.kind != BodyKind::Dynamic || !b.compute_aabb().overlaps(&reach) {
                continue;
            }
            if !b.parts.is_empty() {
                if self.slice_compound(i, from, d, &mut report) {
                    doomed.push(i);
                }
                continue;
            }
            let (p, dl) = (b.xf.apply_inv(from), b.xf.q.apply_inv(d));
            let (t_in, t_out) = match &b.shape {
                Shape::Polygon(poly) => polygon_chord(poly, p, dl),
                Shape::Circle(c) => circle_chord(c.radius, p, dl),
                Shape::Capsule(c) => capsule_chord(c, p, dl),
            };
            match (classify(t_in, t_out), &b.shape) {
                (Crossing::Misses, _) => {}
                (Crossing::Partial, _) => report.partial.push(i),
                (Crossing::Through, Shape::Circle(_)) => report.refused.push((
                    i,
                    "circles are not sliced: no convex polygon of at most 8 vertices keeps a piece's area".into(),
                )),
                (Crossing::Through, Shape::Capsule(_)) => report
                    .refused
                    .push((i, "capsules are not sliced: a piece would lose its round end to a polygon".into())),
                (Crossing::Through, Shape::Polygon(poly)) => {
                    let poly = *poly;
                    let Some(line) = Line::through(p, p + dl) else { continue };
                    if self.cut(i, &poly, &line, &mut report) {
                        doomed.push(i);
                    }
                }
            }
        }
        // Remove the bodies that kept no piece, last first, and renumber the pieces.
        for &i in doomed.iter().rev() {
            self.remove_body(i);
        }
        report.removed = doomed;
        let removed = report.removed.clone();
        for s in &mut report.sliced {
            for piece in &mut s.pieces {
                piece.index -= removed.iter().filter(|&&r| r < piece.index).count();
            }
        }
        self.refresh_water();
        report
    }

    /// The Sutherland–Hodgman walk of cutting body `index` along `from → to`, in world space,
    /// for the slicing lab's step slider (`SliceTrace::draw_step`); `None` for a circle, a
    /// missing body or a line of zero length. Records the split whether or not
    /// [`World::slice`] would cut the body (the segment need not cross it).
    pub fn slice_trace(&self, index: usize, from: Vec2, to: Vec2) -> Option<SliceTrace> {
        let b = self.bodies.get(index)?;
        let Shape::Polygon(poly) = &b.shape else { return None };
        let line = Line::through(from, to)?;
        let vertices: Vec<Vec2> = poly.world_vertices(&b.xf).collect();
        let mut trace = SliceTrace::new();
        split_polygon(&vertices, &line, Some(&mut trace));
        Some(trace)
    }

    /// Cuts body `i` (polygon `poly`) by `line` (its frame): the first piece kept replaces it,
    /// the second is appended. Returns `true` when no piece was kept (the body must go).
    fn cut(&mut self, i: usize, poly: &Polygon, line: &Line, report: &mut SliceReport) -> bool {
        let parent = self.bodies[i].clone();
        let split = split_polygon(poly.vertices(), line, None);
        let mut kept = Vec::new();
        for (part, side) in [(split.behind, 'a'), (split.front, 'b')] {
            if part.len() < 3 {
                continue;
            }
            let (piece, simplified_area) = piece_polygon(part);
            match piece {
                Some(p) => kept.push((piece_body(&parent, p, piece_name(&parent, i, side)), simplified_area)),
                None => report.removed_small += 1,
            }
        }
        self.place_pieces(i, parent, kept, report)
    }

    /// Puts the pieces `kept` of body `i` (a copy of it before the cut: `parent`) in the world:
    /// the first replaces it, the second is appended; joints, contacts and the grip follow
    /// (see the module docs). Returns `true` when no piece was kept (the body must go).
    pub(super) fn place_pieces(
        &mut self,
        i: usize,
        parent: Body,
        kept: Vec<(Body, f32)>,
        report: &mut SliceReport,
    ) -> bool {
        let mut pieces = Vec::new();
        for (k, (body, simplified_area)) in kept.into_iter().enumerate() {
            let index = if k == 0 { i } else { self.bodies.len() };
            pieces.push(SlicePiece {
                index,
                name: body.name.clone(),
                area: body.shapes().map(|(s, _)| s.mass_data(1.0).area).sum(),
                mass: body.mass,
                vertices: body
                    .shapes()
                    .map(|(s, _)| match s {
                        Shape::Polygon(p) => p.count,
                        Shape::Circle(_) | Shape::Capsule(_) => 0,
                    })
                    .sum(),
                simplified_area,
            });
            if k == 0 {
                self.bodies[i] = body;
                self.narrowphase.invalidate();
                self.forget_manifold_origins(i);
            } else {
                self.bodies.push(body);
            }
        }
        // Joints on the parent go to the piece holding their anchor (pieces keep the parent's
        // frame, so the local anchors stay valid); with only one piece kept, they stay on it.
        if pieces.len() == 2 {
            let second = pieces[1].index;
            for j in &mut self.joints {
                let base = j.base_mut();
                for (body, frame) in [(&mut base.body_a, base.local_frame_a), (&mut base.body_b, base.local_frame_b)] {
                    if *body == i {
                        let anchor = self.bodies[i].xf.apply(frame.point);
                        if !self.bodies[i].test_point(anchor) && self.bodies[second].test_point(anchor) {
                            *body = second;
                        }
                    }
                }
            }
        }
        self.joint_filter = None;
        // The parent's contacts and grip do not carry over to a new shape.
        self.contacts.retain(|c| c.a != i && c.b != i);
        if self.mouse_joint.as_ref().is_some_and(|j| j.body == i) {
            self.mouse_joint = None;
        }
        let gone = pieces.is_empty();
        report.sliced.push(SlicedBody { parent: i, name: parent.name, mass: parent.mass, pieces });
        gone
    }
}
