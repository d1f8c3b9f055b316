//! Bodies push the simulated surface ([`super::height_field`]) by the volume they displace,
//! and ride it on the plane fitted under them (article 003, "Buoyancy, Rigid Bodies and Water
//! Surface": the polyhedron is cut by a plane, its faces clipped Sutherland–Hodgman style).
//!
//! **Occupancy.** Along the vertical through a column's centre, a convex hull is one interval
//! `[bottom, top]` (the line clipped by the hull's face planes); what it fills of the column is
//! `max(0, min(top, η̄) − bottom)`, summed over the dynamic bodies' hulls, measured below the
//! **rest height** `η̄` (the still level), not the column's own surface. Measured below the
//! local surface, a wave passing under a floating body counts as water the body displaced and
//! is pushed out again: that feeds the waves from the body's bobbing, and, tried, a cube
//! dropped into the pool still bobbed at 0.4 m/s after 40 s with the surface's energy at its
//! peak; below the rest height only the body's own motion displaces water, and the same cube
//! settles within 20 s. The water's volume is `Σ A·(η − floor − occupied)`
//! ([`HeightField3::water_volume`]).
//!
//! **Displacement.** After each step the occupancy is measured again; its change in a column
//! is water the bodies pushed out of it (or let back in). That volume goes to the nearest
//! free columns (no body in them): a breadth-first distance from the free columns is
//! computed, and each occupied column hands its change on, in equal parts, to its neighbours
//! one step nearer the free water, until it reaches the surface beside the body. So a body
//! dropped in raises a ring of water around itself that the springs and the spread turn into
//! waves, and the volume `Σ A·(η − occupied)` is the same before and after (the columns'
//! motion keeps `Σ η`: see the height field's rest height). With no free column anywhere
//! the change is shared by all columns.
//!
//! **Riding.** The article cuts each polyhedron by one plane. The local surface under a hull
//! is reduced to the least-squares plane through the surface sampled over the hull's
//! footprint ([`HeightField3::fitted_plane`]); the exact cut against that plane then gives the
//! buoyancy (`super::buoyancy`). A still surface is fitted exactly by its level, so it floats
//! a hull exactly as the analytic flat water does.

use super::body::Body3;
use super::height_field::HeightField3;
use crate::engine::hull3d::{Hull, Plane, Pose3};
use glam::{Vec2, Vec3};
use std::collections::VecDeque;

/// The interval of world heights `[bottom, top]` where the vertical line through `(x, z)`
/// is inside `hull` placed by `pose`; `None` when it misses.
pub fn vertical_cut(hull: &Hull, pose: &Pose3, x: f32, z: f32) -> Option<(f32, f32)> {
    // The line p(t) = (x, t, z) in the hull's frame: o + t·u.
    let inv = pose.q.inverse();
    let o = inv * (Vec3::new(x, 0.0, z) - pose.p);
    let u = inv * Vec3::Y;
    let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
    for plane in hull.planes() {
        let (nu, gap) = (plane.n.dot(u), plane.d - plane.n.dot(o));
        if nu > 1e-9 {
            hi = hi.min(gap / nu);
        } else if nu < -1e-9 {
            lo = lo.max(gap / nu);
        } else if gap < 0.0 {
            return None;
        }
    }
    (lo < hi).then_some((lo, hi))
}

/// What the dynamic bodies fill of each column below its surface (module docs).
pub fn occupancy(field: &HeightField3, bodies: &[Body3]) -> Vec<f32> {
    let mut out = vec![0.0f32; field.heights.len()];
    let surface = field.rest_height();
    for b in bodies.iter().filter(|b| b.is_dynamic()) {
        let [lo, hi] = b.world_bounds(0.0);
        if !(lo.is_finite() && hi.is_finite()) {
            continue;
        }
        let (is, js) = field.columns_in(Vec2::new(lo.x, lo.z), Vec2::new(hi.x, hi.z));
        for j in js {
            for i in is.clone() {
                let c = field.index(i, j);
                let p = field.column_xz(i, j);
                for hull in b.hulls() {
                    if let Some((bottom, top)) = vertical_cut(hull, &b.pose, p.x, p.y) {
                        out[c] += (top.min(surface) - bottom).max(0.0);
                    }
                }
            }
        }
    }
    out
}

/// Moves the volume the bodies displaced since the last call to the nearest free columns
/// (module docs) and remembers the new occupancy.
pub fn displace(field: &mut HeightField3, bodies: &[Body3]) {
    let now = occupancy(field, bodies);
    let mut change: Vec<f64> = now.iter().zip(&field.occupied).map(|(&n, &o)| n as f64 - o as f64).collect();
    field.occupied = now;
    if change.iter().all(|&d| d == 0.0) {
        return;
    }
    let Some((order, dist)) = distance_order(field) else {
        // No free column: every column takes an equal share.
        let share = change.iter().sum::<f64>() / change.len() as f64;
        for h in &mut field.heights {
            *h = (*h as f64 + share) as f32;
        }
        return;
    };
    let (nx, nz) = (field.nx(), field.nz());
    // Farthest first: each column hands its change to its neighbours one step nearer.
    for &c in order.iter().rev().filter(|&&c| dist[c] > 0) {
        let nearer = || neighbours(c % nx, c / nx, nx, nz).filter(|&k| dist[k] + 1 == dist[c]);
        let share = change[c] / nearer().count() as f64;
        for k in nearer() {
            change[k] += share;
        }
        change[c] = 0.0;
    }
    for (h, d) in field.heights.iter_mut().zip(&change) {
        *h = (*h as f64 + d) as f32;
    }
}

/// The 4 neighbours of column `(i, j)` in the grid, by index.
fn neighbours(i: usize, j: usize, nx: usize, nz: usize) -> impl Iterator<Item = usize> {
    let c = j * nx + i;
    [(i > 0).then(|| c - 1), (i + 1 < nx).then(|| c + 1), (j > 0).then(|| c - nx), (j + 1 < nz).then(|| c + nx)]
        .into_iter()
        .flatten()
}

/// The columns in breadth-first order from the free ones (no body in them), and each
/// column's distance from the nearest free one; `None` when every column is occupied.
fn distance_order(field: &HeightField3) -> Option<(Vec<usize>, Vec<u32>)> {
    let (nx, nz) = (field.nx(), field.nz());
    let mut dist = vec![u32::MAX; field.heights.len()];
    let mut queue: VecDeque<usize> =
        field.occupied.iter().enumerate().filter(|(_, &o)| o <= 0.0).map(|(c, _)| c).collect();
    if queue.is_empty() {
        return None;
    }
    for &c in &queue {
        dist[c] = 0;
    }
    let mut order = Vec::with_capacity(dist.len());
    while let Some(c) = queue.pop_front() {
        order.push(c);
        for k in neighbours(c % nx, c / nx, nx, nz) {
            if dist[k] == u32::MAX {
                dist[k] = dist[c] + 1;
                queue.push_back(k);
            }
        }
    }
    Some((order, dist))
}

/// The plane a body at `pose` rides on the simulated surface: fitted over its footprint
/// (module docs), normal pointing up.
pub fn riding_plane(field: &HeightField3, body: &Body3, pose: &Pose3) -> Plane {
    let [lo, hi] = super::body::posed_box(body.local_bounds, pose, 0.0);
    let (center, height, grad) = field.fitted_plane(Vec2::new(lo.x, lo.z), Vec2::new(hi.x, hi.z));
    let n = Vec3::new(-grad.x, 1.0, -grad.y).normalize();
    Plane::from_point_normal(Vec3::new(center.x, height, center.y), n)
}
