//! A body's submerged part and the forces on it (003 article, "Buoyancy, Rigid Bodies and
//! Water Surface": clip the body by the water surface; the submerged area `A` and its
//! centroid give the buoyant force `ρ·g·A`, acting at the centroid).
//!
//! **Polygons** are clipped by the surface polyline under them with Sutherland–Hodgman: one
//! piece per surface segment (its x slab, below its line), so a wavy surface is followed
//! exactly, and the region's ends cut too. Under a sloped surface the hydrostatic pressure
//! `p = ρ·g·(η(x) − y)` also pushes sideways: its gradient is constant over a slab of slope
//! `s`, so that piece's force is `ρ·g·A_i·(−s, 1)` at its centroid (exact; on flat water it
//! is the article's `ρ·g·A` straight up). This is what lets waves carry floating bodies.
//!
//! **The bottom** (`Water::bottom`) bounds the water from below: a polygon is also clipped by
//! it where it reaches below it, and nothing entirely below it is in the water.
//!
//! **Circles** are exact: the surface under a circle is taken as the straight line through
//! its heights at the circle's left and right extremes (flat water: the surface itself), and
//! the part below it is a circular segment with a closed-form area and centroid
//! (`geometry::circular_segment`), less the segment below the bottom when the circle reaches
//! it. A circle across an end of the region, or whose surface chord dips below the bottom, is
//! clipped as a 32-gon instead (the cases where a circle is not exact).
//!
//! **Drag**: the per-edge pressure drag of `drag` on every submerged boundary part, and an
//! angular drag after Box2D 2.1's `b2BuoyancyController`: `dω/dt = −angular_drag · ρ·A/m · ω`,
//! applied implicitly by the solver (like `angular_damping`), so it never overshoots.

use super::drag::{edge_drag, DragEdge};
use super::Water;
use crate::engine::body::Body;
use crate::engine::geometry::{area_centroid, circle_behind_line, clip_polygon_to_line, clip_segment, Line};
use crate::engine::math::{cross, Transform};
use crate::engine::shape::Shape;
use crate::engine::solver::state::BodyForce;
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::f32::consts::{PI, TAU};

/// The drag on one submerged edge (or arc piece): where it acts and the force.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DragArrow {
    pub point: Vec2,
    pub force: Vec2,
}

/// What the water does to one body, from its pose and velocity at the time of computing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BuoyancyReport {
    /// The body's index in the world.
    pub body: usize,
    /// The submerged polygons, world space, counter-clockwise (one per surface segment
    /// under the body; for a circle, its segment outlined by arc points, for drawing only:
    /// `area` and `centroid` are exact).
    pub pieces: Vec<Vec<Vec2>>,
    /// Submerged area, m².
    pub area: f32,
    /// Submerged area over the body's area.
    pub fraction: f32,
    /// Centre of buoyancy (centroid of the submerged part).
    pub centroid: Vec2,
    /// Buoyant force, and its torque about the centre of mass.
    pub force: Vec2,
    pub torque: f32,
    /// Drag of the submerged edges, summed, and its torque about the centre of mass.
    pub drag_force: Vec2,
    pub drag_torque: f32,
    /// Each facing edge's drag.
    pub drag: Vec<DragArrow>,
    /// Angular drag as a rate, 1/s: the solver scales ω by `1 / (1 + h·rate)` per sub-step.
    pub angular_drag_rate: f32,
}

impl BuoyancyReport {
    /// The force, torque and angular drag the solver applies over the step.
    pub fn body_force(&self) -> BodyForce {
        BodyForce {
            force: self.force + self.drag_force,
            torque: self.torque + self.drag_torque,
            angular_drag: self.angular_drag_rate,
        }
    }
}

/// Buffers reused from body to body.
#[derive(Default)]
pub struct Scratch {
    surface: Vec<Vec2>,
    a: Vec<Vec2>,
    b: Vec<Vec2>,
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
    edges: Vec<DragEdge>,
}

/// Sides of the polygon a circle straddling the region's end is clipped as.
const CIRCLE_FALLBACK_SIDES: usize = 32;
/// Sides of each end cap of a capsule clipped as a polygon: the outline is inscribed, so a
/// fully submerged capsule displaces its true area less 0.6 % of its caps' area (a full disk
/// of 32 sides).
const CAPSULE_CAP_SIDES: usize = 16;
/// Arc pieces of a circle's drag, and points outlining its segment.
const ARC_DRAG_PIECES: usize = 16;
const ARC_OUTLINE_POINTS: usize = 24;

/// Sums submerged pieces: area, first moment, force and torque.
struct Sum<'a> {
    body: &'a Body,
    rho_g: f32,
    report: BuoyancyReport,
    moment: Vec2,
}

impl Sum<'_> {
    /// A submerged piece of `area` at `centroid` under a surface of slope `slope`.
    fn add(&mut self, area: f32, centroid: Vec2, slope: f32) {
        let f = self.rho_g * area * Vec2::new(-slope, 1.0);
        self.report.area += area;
        self.moment += area * centroid;
        self.report.force += f;
        self.report.torque += cross(centroid - self.body.center, f);
    }
}

/// What `water` does to `body` (number `index`) under `gravity`, with the drag clamped for a
/// step of `dt`; `None` when no part of it is under water or its state is not finite.
pub fn submerge(
    water: &Water,
    body: &Body,
    index: usize,
    gravity: Vec2,
    dt: f32,
    scratch: &mut Scratch,
) -> Option<BuoyancyReport> {
    let finite = body.center.is_finite() && body.xf.p.is_finite() && body.linear_velocity.is_finite();
    if !finite || !body.angular_velocity.is_finite() {
        return None;
    }
    let p = &water.params;
    let report = BuoyancyReport { body: index, ..Default::default() };
    let mut sum = Sum { body, rho_g: p.density * (-gravity.y).max(0.0), report, moment: Vec2::ZERO };
    scratch.edges.clear();
    for (shape, xf) in body.shapes() {
        submerge_shape(water, &mut sum, shape, &xf, scratch);
    }
    let Sum { mut report, moment, .. } = sum;
    if !(report.area > 0.0 && report.area.is_finite()) {
        return None;
    }
    report.centroid = moment / report.area;
    let body_area: f32 = body.shapes().map(|(s, _)| s.mass_data(1.0).area).sum();
    report.fraction = (report.area / body_area).min(1.0);
    let (drag_force, drag_torque) = edge_drag(&scratch.edges, p.density, p.linear_drag, body, dt, &mut report.drag);
    report.drag_force = drag_force;
    report.drag_torque = drag_torque;
    if body.mass > 0.0 {
        report.angular_drag_rate = p.angular_drag * p.density * report.area / body.mass;
    }
    let finite = report.force.is_finite() && report.torque.is_finite() && report.centroid.is_finite();
    finite.then_some(report)
}

/// One shape of a body at world transform `xf`, its submerged pieces added to `sum` (a
/// multi-part body's buoyancy is the sum over its shapes, `engine::compound`).
fn submerge_shape(water: &Water, sum: &mut Sum, shape: &Shape, xf: &Transform, scratch: &mut Scratch) {
    let p = &water.params;
    match shape {
        Shape::Polygon(poly) => {
            scratch.vertices.clear();
            scratch.vertices.extend(poly.world_vertices(xf));
            scratch.normals.clear();
            scratch.normals.extend(poly.normals().iter().map(|&n| xf.q.apply(n)));
            submerge_polygon(water, sum, scratch);
        }
        Shape::Capsule(c) => {
            // As its outline polygon: each end cap a half circle of CAPSULE_CAP_SIDES sides.
            scratch.vertices.clear();
            scratch.vertices.extend(c.outline(xf, CAPSULE_CAP_SIDES));
            let n = scratch.vertices.len();
            scratch.normals.clear();
            for k in 0..n {
                let e = scratch.vertices[(k + 1) % n] - scratch.vertices[k];
                scratch.normals.push(Vec2::new(e.y, -e.x).normalize_or_zero());
            }
            submerge_polygon(water, sum, scratch);
        }
        Shape::Circle(c) => {
            let (center, r) = (xf.p, c.radius);
            let bottom = water.bottom.unwrap_or(f32::NEG_INFINITY);
            let inside = center.x - r >= p.region.0 && center.x + r <= p.region.1;
            // Exact while the surface's chord over the circle stays above the bottom.
            let chord = |x: f32| water.height_at(x) > bottom;
            if inside && (center.y - r >= bottom || (chord(center.x - r) && chord(center.x + r))) {
                submerge_circle(water, sum, center, r, scratch);
            } else {
                scratch.vertices.clear();
                scratch.normals.clear();
                for k in 0..CIRCLE_FALLBACK_SIDES {
                    let a = TAU * k as f32 / CIRCLE_FALLBACK_SIDES as f32;
                    scratch.vertices.push(center + r * Vec2::from_angle(a));
                    scratch.normals.push(Vec2::from_angle(a + PI / CIRCLE_FALLBACK_SIDES as f32));
                }
                submerge_polygon(water, sum, scratch);
            }
        }
    }
}

/// The surface polyline under x range `[lo, hi]` (clamped to the region), or `false`.
fn surface_under(water: &Water, lo: f32, hi: f32, out: &mut Vec<Vec2>) -> bool {
    let (x0, x1) = (lo.max(water.params.region.0), hi.min(water.params.region.1));
    if x0.partial_cmp(&x1) != Some(std::cmp::Ordering::Less) {
        return false;
    }
    water.surface_polyline(x0, x1, out);
    true
}

/// The polygon in `scratch.vertices` (world space, CCW, with `scratch.normals`): one piece
/// and the submerged part of every edge per surface segment (see the module docs).
fn submerge_polygon(water: &Water, sum: &mut Sum, scratch: &mut Scratch) {
    let verts = &scratch.vertices;
    let min = verts.iter().copied().fold(Vec2::splat(f32::MAX), Vec2::min);
    let max = verts.iter().copied().fold(Vec2::splat(f32::MIN), Vec2::max);
    if !surface_under(water, min.x, max.x, &mut scratch.surface) {
        return;
    }
    let bottom = water.bottom.unwrap_or(f32::NEG_INFINITY);
    if scratch.surface.iter().all(|s| s.y <= min.y) || bottom >= max.y {
        return;
    }
    // The bottom (normal down, so the water is behind it), where it cuts the body.
    let floor = (bottom > min.y).then_some(Line { n: Vec2::NEG_Y, c: -bottom });
    let n = verts.len();
    for k in 0..scratch.surface.len() - 1 {
        let (a, b) = (scratch.surface[k], scratch.surface[k + 1]);
        if b.x <= a.x || a.y.max(b.y) <= min.y {
            continue;
        }
        // The slab's planes: its two sides where they cut the body, and the surface line
        // (normal up, so the water is behind it).
        let mut planes = [Line { n: Vec2::ZERO, c: 0.0 }; 4];
        let mut count = 0;
        if a.x > min.x {
            planes[count] = Line { n: Vec2::NEG_X, c: -a.x };
            count += 1;
        }
        if b.x < max.x {
            planes[count] = Line { n: Vec2::X, c: b.x };
            count += 1;
        }
        if a.y.min(b.y) < max.y {
            let Some(surface) = Line::through(b, a) else { continue };
            planes[count] = surface;
            count += 1;
        }
        if let Some(floor) = floor {
            planes[count] = floor;
            count += 1;
        }
        let planes = &planes[..count];
        scratch.a.clear();
        scratch.a.extend_from_slice(verts);
        for plane in planes {
            clip_polygon_to_line(&scratch.a, plane, &mut scratch.b);
            std::mem::swap(&mut scratch.a, &mut scratch.b);
        }
        let (area, centroid) = area_centroid(&scratch.a);
        if area > 0.0 {
            sum.add(area, centroid, (b.y - a.y) / (b.x - a.x));
            sum.report.pieces.push(scratch.a.clone());
        }
        for i in 0..n {
            let mut seg = Some((verts[i], verts[(i + 1) % n]));
            for plane in planes {
                seg = seg.and_then(|(p, q)| clip_segment(p, q, plane));
            }
            if let Some((p, q)) = seg {
                push_edge(water, sum.body, &mut scratch.edges, 0.5 * (p + q), scratch.normals[i], (q - p).length());
            }
        }
    }
}

/// A drag edge at `point` with its normal speed relative to the water.
fn push_edge(water: &Water, body: &Body, edges: &mut Vec<DragEdge>, point: Vec2, normal: Vec2, length: f32) {
    let relative = body.velocity_at(point) - Vec2::new(0.0, water.vertical_velocity_at(point.x));
    edges.push(DragEdge { point, normal, length, normal_speed: relative.dot(normal) });
}

/// A circle inside the region: the circular segment below the line through the surface at
/// its left and right extremes.
fn submerge_circle(water: &Water, sum: &mut Sum, center: Vec2, r: f32, scratch: &mut Scratch) {
    let a = Vec2::new(center.x - r, water.height_at(center.x - r));
    let b = Vec2::new(center.x + r, water.height_at(center.x + r));
    let Some(surface) = Line::through(b, a) else { return };
    let cut = circle_behind_line(center, r, &surface);
    if cut.area <= 0.0 {
        return;
    }
    let slope = (b.y - a.y) / (b.x - a.x);
    sum.add(cut.area, cut.centroid, slope);
    // Less the segment below the bottom (all of it under the surface's chord, which is above
    // the bottom): what lies between the two lines.
    let bottom = water.bottom.filter(|&y| y > center.y - r);
    let floor = bottom.map(|y| Line { n: Vec2::NEG_Y, c: -y });
    if let Some(y) = bottom {
        let below = circle_behind_line(center, r, &Line { n: Vec2::Y, c: y });
        sum.add(-below.area, below.centroid, slope);
    }
    // The arc below the line, about the direction −n from the centre.
    let down = (-surface.n).to_angle();
    let theta = cut.half_angle;
    let full = theta >= PI - 1e-6;
    let points = if full { ARC_OUTLINE_POINTS } else { ARC_OUTLINE_POINTS + 1 };
    let outline: Vec<Vec2> = (0..points)
        .map(|k| {
            let t = k as f32 / if full { points as f32 } else { (points - 1) as f32 };
            center + r * Vec2::from_angle(down - theta + 2.0 * theta * t)
        })
        .collect();
    match floor {
        Some(floor) => {
            clip_polygon_to_line(&outline, &floor, &mut scratch.a);
            if scratch.a.len() >= 3 {
                sum.report.pieces.push(scratch.a.clone());
            }
        }
        None => sum.report.pieces.push(outline),
    }
    let length = r * 2.0 * theta / ARC_DRAG_PIECES as f32;
    for k in 0..ARC_DRAG_PIECES {
        let n = Vec2::from_angle(down - theta + 2.0 * theta * (k as f32 + 0.5) / ARC_DRAG_PIECES as f32);
        // A circle's rotation moves its boundary tangentially: only the centre's velocity
        // pushes water, so `velocity_at` of the arc point would give the same normal speed.
        if bottom.is_none_or(|y| center.y + r * n.y >= y) {
            push_edge(water, sum.body, &mut scratch.edges, center + r * n, n, length);
        }
    }
}
