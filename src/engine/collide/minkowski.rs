//! The Minkowski difference of two convex shapes built from support vertices (004 article,
//! "OBB vs OBB" and "Poly vs Poly"): every edge of the difference is an edge of one shape
//! minus the supporting vertex of the other shape most opposite that edge's normal, so each
//! edge records its *feature pair* {edge of A, vertex of B} or {vertex of A, edge of B} and
//! which shape it comes from (the article's red and green edges).
//!
//! Convention: **A − B** (see [`super::support`]); the article draws B − A, which is this
//! polygon mirrored through the origin. An edge from A keeps A's outward normal, an edge from
//! B gets B's normal negated, and the outward normal of the edge closest to the origin is the
//! contact normal from A to B.
//!
//! The article loops over the faces of A then those of B and looks up each supporting vertex.
//! Here the same edges are walked in order of normal angle, tracking the supporting vertex of
//! the other shape as it advances (so the edges chain into one convex CCW polygon even when
//! faces are exactly parallel, the article's "two supporting vertices" caveat: such faces
//! become consecutive collinear edges).
//!
//! Circles and capsules: the difference is built from the cores (a point, a segment) and
//! keeps the summed radius; the signed distance subtracts it, which is exact, and the drawing
//! outlines the rounded shape with a circle per vertex and offset edges.

use super::support::{Inset, Proxy};
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::Transform;
use crate::engine::shape::Shape;
use glam::Vec2;
use serde::Serialize;
use std::f32::consts::PI;

/// Which features of A and B make a Minkowski edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FeaturePair {
    /// Edge `edge_a` of A minus vertex `vertex_b` of B (a red edge in the article).
    EdgeAVertexB { edge_a: usize, vertex_b: usize },
    /// Vertex `vertex_a` of A minus edge `edge_b` of B (a green edge).
    VertexAEdgeB { vertex_a: usize, edge_b: usize },
}

/// The shape an edge of the difference comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum EdgeSource {
    A,
    B,
}

/// One edge of the difference, from `start` to `end` (CCW), in configuration space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MinkowskiEdge {
    pub start: Vec2,
    pub end: Vec2,
    /// Outward unit normal (a contact normal from A to B).
    pub normal: Vec2,
    pub feature: FeaturePair,
}

impl MinkowskiEdge {
    pub fn source(&self) -> EdgeSource {
        match self.feature {
            FeaturePair::EdgeAVertexB { .. } => EdgeSource::A,
            FeaturePair::VertexAEdgeB { .. } => EdgeSource::B,
        }
    }

    /// A label such as "A edge 2 − B vertex 1".
    pub fn label(&self) -> String {
        match self.feature {
            FeaturePair::EdgeAVertexB { edge_a, vertex_b } => format!("A edge {edge_a} − B vertex {vertex_b}"),
            FeaturePair::VertexAEdgeB { vertex_a, edge_b } => format!("A vertex {vertex_a} − B edge {edge_b}"),
        }
    }
}

/// The feature of the difference closest to the origin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClosestFeature {
    /// The closest edge (`None` when the core difference is a single point).
    pub edge: Option<usize>,
    /// The closest point of the (rounded) difference's boundary to the origin. It is also the
    /// minimum translation of B that makes the shapes touch.
    pub point: Vec2,
    /// Positive: the origin is outside (the shapes' distance); negative: minus the depth.
    pub signed_distance: f32,
    /// Unit normal from A to B.
    pub normal: Vec2,
}

/// The Minkowski difference A − B as a convex CCW polygon with feature pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MinkowskiDifference {
    /// `vertices[i]` is the start of `edges[i]`.
    pub vertices: Vec<Vec2>,
    pub edges: Vec<MinkowskiEdge>,
    /// The summed radius of the two shapes (rounded difference).
    pub radius: f32,
    pub closest: ClosestFeature,
}

/// Angle of a normal in [−π, π), so both shapes' edge sequences start from the same direction.
fn angle(n: Vec2) -> f32 {
    let a = n.y.atan2(n.x);
    if a >= PI {
        -PI
    } else {
        a
    }
}

impl MinkowskiDifference {
    /// The difference of two proxies in a common frame.
    pub fn new(pa: &Proxy, pb: &Proxy) -> MinkowskiDifference {
        let (na, nb) = (pa.edge_count(), pb.edge_count());
        let normal_a = |i: usize| pa.edge_normal(i);
        let normal_b = |k: usize| -pb.edge_normal(k);
        let first = |n: usize, f: &dyn Fn(usize) -> Vec2| {
            (0..n).min_by(|&i, &j| angle(f(i)).total_cmp(&angle(f(j)))).unwrap_or(0)
        };
        let (a0, b0) = (first(na, &normal_a), first(nb, &normal_b));
        // The supporting vertices just before the first edge of each sequence.
        let (mut ia, mut ib) = (a0, b0);
        let (mut ka, mut kb) = (0, 0);
        let mut vertices = Vec::with_capacity(na + nb);
        let mut edges = Vec::with_capacity(na + nb);
        while ka < na || kb < nb {
            let ea = (a0 + ka) % na.max(1);
            let eb = (b0 + kb) % nb.max(1);
            let take_a = kb == nb || (ka < na && angle(normal_a(ea)) <= angle(normal_b(eb)));
            let start = pa.points[ia] - pb.points[ib];
            let edge = if take_a {
                // Face of A, supporting vertex of B most opposite its normal.
                let feature = FeaturePair::EdgeAVertexB { edge_a: ea, vertex_b: ib };
                ia = (ea + 1) % na;
                ka += 1;
                MinkowskiEdge { start, end: pa.points[ia] - pb.points[ib], normal: normal_a(ea), feature }
            } else {
                // Face of B, supporting vertex of A most opposite its normal.
                let feature = FeaturePair::VertexAEdgeB { vertex_a: ia, edge_b: eb };
                ib = (eb + 1) % nb;
                kb += 1;
                MinkowskiEdge { start, end: pa.points[ia] - pb.points[ib], normal: normal_b(eb), feature }
            };
            vertices.push(start);
            edges.push(edge);
        }
        if vertices.is_empty() {
            vertices.push(pa.points[0] - pb.points[0]);
        }
        let radius = pa.radius + pb.radius;
        let closest = closest_feature(&vertices, &edges, radius);
        MinkowskiDifference { vertices, edges, radius, closest }
    }

    /// The difference of two shapes at their poses (configuration space does not depend on
    /// the frame's origin, so the proxies are built relative to A's position for precision).
    pub fn from_shapes(a: &Shape, xfa: &Transform, b: &Shape, xfb: &Transform) -> MinkowskiDifference {
        MinkowskiDifference::new(&Proxy::from_shape(a, xfa, xfa.p), &Proxy::from_shape(b, xfb, xfa.p))
    }

    /// Distance between the shapes when positive, minus the penetration depth when negative.
    pub fn signed_distance(&self) -> f32 {
        self.closest.signed_distance
    }

    /// Unit normal from A to B at the closest feature.
    pub fn normal(&self) -> Vec2 {
        self.closest.normal
    }

    /// The minimum translation of B that makes the shapes just touch (004 article's MTD):
    /// the closest boundary point of A − B to the origin.
    pub fn minimum_translation(&self) -> Vec2 {
        -self.closest.signed_distance * self.closest.normal
    }

    /// Whether the origin is inside: the shapes overlap.
    pub fn contains_origin(&self) -> bool {
        self.closest.signed_distance < 0.0
    }

    /// Draws the difference with the configuration-space origin at `origin`, `scale` world
    /// units per configuration unit: the polygon and its edges coloured by source shape
    /// (`Layer::Minkowski`; the closest edge highlighted, rounded outline if any radius), the
    /// minimum translation from the origin (`Layer::Normal`) and the closest point (`Layer::Contact`).
    pub fn draw(&self, d: &mut dyn DebugDraw, origin: Vec2, scale: f32) {
        let view = Inset { origin, scale };
        if d.wants(Layer::Minkowski) {
            let pts = view.map_all(self.vertices.iter().copied());
            if pts.len() >= 3 {
                d.polygon(Layer::Minkowski, &pts, palette::MINKOWSKI.with_alpha(0.15), palette::MINKOWSKI);
            }
            for (i, e) in self.edges.iter().enumerate() {
                let color = if Some(i) == self.closest.edge {
                    palette::CLOSEST_EDGE
                } else if e.source() == EdgeSource::A {
                    palette::MINKOWSKI_EDGE_A
                } else {
                    palette::MINKOWSKI_EDGE_B
                };
                d.segment(Layer::Minkowski, view.map(e.start), view.map(e.end), color);
                if self.radius > 0.0 {
                    let off = self.radius * e.normal;
                    d.segment(Layer::Minkowski, view.map(e.start + off), view.map(e.end + off), palette::MINKOWSKI);
                }
            }
            if self.radius > 0.0 {
                let clear = palette::MINKOWSKI.with_alpha(0.0);
                for &p in &pts {
                    d.circle(Layer::Minkowski, p, self.radius * scale, clear, palette::MINKOWSKI);
                }
            }
            d.point(Layer::Minkowski, origin, 6.0, palette::CONFIG_ORIGIN);
        }
        if d.wants(Layer::Normal) {
            d.arrow(Layer::Normal, origin, view.map(self.closest.point), palette::NORMAL);
        }
        if d.wants(Layer::Contact) {
            d.point(Layer::Contact, view.map(self.closest.point), 6.0, palette::CONTACT_NEW);
        }
    }
}

/// The closest point of segment `a`–`b` to the origin (the article's `ProjectPointOntoEdge`),
/// and whether it is inside the segment (the face region) rather than at an end.
fn project_origin(a: Vec2, b: Vec2) -> (Vec2, bool) {
    let e = b - a;
    let len2 = e.length_squared();
    if len2 <= 0.0 {
        return (a, false);
    }
    let t = -a.dot(e) / len2;
    (a + t.clamp(0.0, 1.0) * e, t > 0.0 && t < 1.0)
}

/// The 004 article's search: project the origin onto every edge, sign the distance by the side
/// of the edge the origin is on, keep the least negative (penetration) and least positive
/// (separation). Touching (a zero distance) counts as separated by 0.
fn closest_feature(vertices: &[Vec2], edges: &[MinkowskiEdge], radius: f32) -> ClosestFeature {
    if edges.is_empty() {
        let w = vertices[0];
        let len = w.length();
        let normal = if len > 0.0 { -w / len } else { Vec2::X };
        return ClosestFeature { edge: None, point: w + radius * normal, signed_distance: len - radius, normal };
    }
    let mut least_penetrating = (-f32::MAX, 0, Vec2::ZERO, true);
    let mut least_positive = (f32::MAX, 0, Vec2::ZERO, true);
    for (i, e) in edges.iter().enumerate() {
        let face_dist = -e.normal.dot(e.start);
        let (p, face) = project_origin(e.start, e.end);
        let dist = if face_dist > 0.0 {
            p.length()
        } else if face_dist < 0.0 {
            -p.length()
        } else {
            0.0
        };
        if dist > least_penetrating.0 {
            least_penetrating = (dist, i, p, face);
        }
        // Near the end of an edge the vertex and the next face are equally close up to
        // round-off: prefer the face region there, whose normal is the exact one.
        let eps = 4.0 * f32::EPSILON * dist.abs().max(1.0);
        let (best, best_face) = (least_positive.0, least_positive.3);
        let better = if (dist - best).abs() <= eps {
            face && !best_face || face == best_face && dist < best
        } else {
            dist < best
        };
        if face_dist >= 0.0 && better {
            least_positive = (dist, i, p, face);
        }
    }
    // (No edge with the origin on or in front of it but a zero distance: the origin sits on a
    // vertex, touching; keep the least penetrating one.)
    let (dist, edge, p, face) =
        if least_penetrating.0 < 0.0 || least_positive.0 == f32::MAX { least_penetrating } else { least_positive };
    let len = p.length();
    // In a vertex region (apart) the normal runs from the closest point to the origin; in a
    // face region, or penetrating, or touching, it is the face's own normal.
    let normal = if dist > 0.0 && len > 0.0 && !face { -p / len } else { edges[edge].normal };
    ClosestFeature { edge: Some(edge), point: p + radius * normal, signed_distance: dist - radius, normal }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_minus_box_is_a_box_with_feature_pairs() {
        let a = Proxy::from_shape(&Shape::make_box(Vec2::new(1.0, 0.5)).unwrap(), &Transform::IDENTITY, Vec2::ZERO);
        let b = Proxy::from_shape(
            &Shape::make_box(Vec2::splat(0.25)).unwrap(),
            &Transform::new(Vec2::new(3.0, 0.0), 0.0),
            Vec2::ZERO,
        );
        let md = MinkowskiDifference::new(&a, &b);
        // Parallel faces: 8 edges, two collinear per side of the 2.5 × 1.5 rectangle around (−3, 0).
        assert_eq!(md.edges.len(), 8);
        assert_eq!(md.edges.iter().filter(|e| e.source() == EdgeSource::A).count(), 4);
        let right = md.edges.iter().filter(|e| e.normal == Vec2::X);
        assert!(right.clone().count() == 2 && right.clone().all(|e| (e.start.x + 1.75).abs() < 1e-6));
        assert!((md.signed_distance() - 1.75).abs() < 1e-6 && md.normal() == Vec2::X);
        assert!((md.minimum_translation() - Vec2::new(-1.75, 0.0)).length() < 1e-6);
        assert!(!md.contains_origin());
        // A circle: the rounded difference subtracts the radius.
        let md = MinkowskiDifference::new(&a, &Proxy::circle(Vec2::new(0.5, 0.1), 0.25));
        assert!((md.signed_distance() + 0.65).abs() < 1e-6 && md.normal() == Vec2::Y);
    }
}
