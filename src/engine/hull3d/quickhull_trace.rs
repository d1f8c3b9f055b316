//! The 3D QuickHull trace (Barber, Dobkin & Huhdanpaa 1996; Gregorius, "Implementing
//! QuickHull", GDC 2014): each step of one [`super::quickhull::quickhull_traced`] run as plain
//! data (the initial simplex; per iteration the face, its outside set, the eye point, the faces
//! it sees and removes, the horizon and the new cone, the points left inside; eyes dropped at a
//! pinched horizon; the coplanar triangles merged into polygon faces), and a picture of step
//! `k` through [`DebugDraw3`] for the hull3d lab's construct stage.

use super::hull::{Hull, HullError};
use crate::engine::debug::palette;
use crate::engine::debug3::{DebugDraw3, Layer3};
use crate::engine::number::Num;
use crate::engine::trace::Trace3;
use glam::Vec3;

/// One step of the construction.
#[derive(Clone, Debug, PartialEq)]
pub enum QuickHullStep3 {
    /// The four points of the initial tetrahedron, the points given to its faces' outside sets,
    /// and the points already inside it (dropped).
    Simplex { vertices: [Vec3; 4], outside: usize, dropped: Vec<Vec3> },
    /// One iteration: `face` (a triangle of the hull so far) and its outside set, the farthest
    /// point `eye`, the faces it sees (removed), the horizon loop around them, the new cone of
    /// triangles from the horizon to the eye, the orphaned points now inside (dropped) and the
    /// hull after the iteration.
    Iteration {
        face: [Vec3; 3],
        outside: Vec<Vec3>,
        eye: Vec3,
        distance: f32,
        removed: Vec<[Vec3; 3]>,
        horizon: Vec<Vec3>,
        cone: Vec<[Vec3; 3]>,
        dropped: Vec<Vec3>,
        hull: Vec<[Vec3; 3]>,
    },
    /// The horizon seen from `eye` was not one simple loop: the point (a few tolerances out at
    /// most) is dropped and the face keeps its other points.
    Pinched { face: [Vec3; 3], eye: Vec3 },
    /// The final triangles merged into polygon faces (coplanar ones joined, vertices on a
    /// straight edge removed).
    Merged { triangles: usize, faces: Vec<Vec<Vec3>> },
}

/// Every step of one construction, with its input and result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuickHullTrace3 {
    pub input: Vec<Vec3>,
    pub steps: Vec<QuickHullStep3>,
    pub result: Option<Result<Hull, HullError>>,
}

crate::engine::trace::recorded_steps!(QuickHullTrace3, QuickHullStep3);

impl QuickHullTrace3 {
    pub fn clear(&mut self, input: &[Vec3]) {
        self.input.clear();
        self.input.extend_from_slice(input);
        self.steps.clear();
        self.result = None;
    }

    /// The hull's triangles as they stand after step `k` (none before the simplex).
    fn hull_at(&self, k: usize) -> Vec<[Vec3; 3]> {
        let mut out = Vec::new();
        for s in self.steps.iter().take(k + 1) {
            match s {
                QuickHullStep3::Simplex { vertices: [a, b, c, d], .. } => {
                    out = vec![[*a, *b, *c], [*a, *d, *b], [*b, *d, *c], [*c, *d, *a]];
                }
                QuickHullStep3::Iteration { hull, .. } => out.clone_from(hull),
                _ => {}
            }
        }
        out
    }

    /// Points dropped (inside the hull) up to step `k`.
    fn dropped_until(&self, k: usize) -> Vec<Vec3> {
        let mut out = Vec::new();
        for s in self.steps.iter().take(k + 1) {
            match s {
                QuickHullStep3::Simplex { dropped, .. } | QuickHullStep3::Iteration { dropped, .. } => {
                    out.extend_from_slice(dropped)
                }
                QuickHullStep3::Pinched { eye, .. } => out.push(*eye),
                QuickHullStep3::Merged { .. } => {}
            }
        }
        out
    }
}

impl Trace3 for QuickHullTrace3 {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        let n = self.steps.len();
        let Some(s) = self.steps.get(k) else { return "no steps".into() };
        format!("step {} of {n}: ", k + 1)
            + &match s {
                QuickHullStep3::Simplex { outside, dropped, .. } => {
                    format!("initial tetrahedron, {outside} points outside, {} inside", dropped.len())
                }
                QuickHullStep3::Iteration { outside, distance, removed, horizon, dropped, .. } => format!(
                    "eye {distance:.3} out of {} outside; {} faces removed, horizon {}, {} dropped",
                    outside.len(),
                    removed.len(),
                    horizon.len(),
                    dropped.len(),
                    distance = Num(distance)
                ),
                QuickHullStep3::Pinched { .. } => "pinched horizon: eye point dropped".into(),
                QuickHullStep3::Merged { triangles, faces } => {
                    format!("{triangles} triangles merged into {} faces", faces.len())
                }
            }
    }

    /// Draws step `k` (clamped): the input points (`Label`), the hull so far (`Shape`, `Edge`),
    /// and for an iteration the face and its outside set, the removed faces, the horizon, the
    /// new cone and the eye (`SatAxis`); the merged polygons at the end.
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw3) {
        let Some(last) = self.steps.len().checked_sub(1) else { return };
        let k = k.min(last);
        let dropped = self.dropped_until(k);
        if d.wants(Layer3::Label) {
            for p in &self.input {
                let gone = dropped.contains(p);
                let c = if gone { palette::REJECTED.with_alpha(0.8) } else { palette::TEXT.with_alpha(0.8) };
                d.point(Layer3::Label, *p, if gone { 5.0 } else { 6.0 }, c);
            }
        }
        let shape = palette::SHAPE_A;
        let step = &self.steps[k];
        if let QuickHullStep3::Merged { faces, .. } = step {
            for f in faces {
                if d.wants(Layer3::Shape) {
                    d.polygon(Layer3::Shape, f, shape.with_alpha(0.25), shape);
                }
                edges(d, f, palette::TEXT);
            }
            return;
        }
        let hull = match step {
            QuickHullStep3::Iteration { hull, .. } => hull.clone(),
            _ => self.hull_at(k),
        };
        let faint = if matches!(step, QuickHullStep3::Iteration { .. }) { 0.08 } else { 0.2 };
        for t in &hull {
            if d.wants(Layer3::Shape) {
                d.polygon(Layer3::Shape, t, shape.with_alpha(faint), shape.with_alpha(0.6));
            }
        }
        match step {
            QuickHullStep3::Iteration { face, outside, eye, removed, horizon, cone, .. } => {
                if !d.wants(Layer3::SatAxis) {
                    return;
                }
                for t in removed {
                    d.polygon(Layer3::SatAxis, t, palette::REJECTED.with_alpha(0.25), palette::REJECTED);
                }
                d.polygon(Layer3::SatAxis, face, palette::CLOSEST_EDGE.with_alpha(0.3), palette::CLOSEST_EDGE);
                for p in outside {
                    d.point(Layer3::SatAxis, *p, 8.0, palette::SHAPE_B);
                }
                for t in cone {
                    d.polygon(Layer3::SatAxis, t, palette::KEPT.with_alpha(0.2), palette::KEPT.with_alpha(0.7));
                }
                edges(d, horizon, palette::WINNER);
                d.point(Layer3::SatAxis, *eye, 13.0, palette::SUPPORT_POINT);
                d.text(Layer3::SatAxis, *eye, "eye", palette::SUPPORT_POINT);
            }
            QuickHullStep3::Pinched { face, eye } if d.wants(Layer3::SatAxis) => {
                d.polygon(Layer3::SatAxis, face, palette::CLOSEST_EDGE.with_alpha(0.3), palette::CLOSEST_EDGE);
                d.point(Layer3::SatAxis, *eye, 13.0, palette::REJECTED);
            }
            _ => {}
        }
    }
}

/// A closed loop's edges on `Layer3::Edge`.
fn edges(d: &mut dyn DebugDraw3, ring: &[Vec3], color: crate::engine::debug::Color) {
    if !d.wants(Layer3::Edge) {
        return;
    }
    for i in 0..ring.len() {
        d.segment(Layer3::Edge, ring[i], ring[(i + 1) % ring.len()], color);
    }
}
