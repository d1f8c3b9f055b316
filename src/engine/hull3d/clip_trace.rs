//! The 3D clipping trace: every step of [`super::clip::contact_manifold`] as plain data, and a
//! picture of step `k` through [`DebugDraw3`] for the hull lab's clip stage. It follows article
//! 000 ("OBB to OBB": the reference face is the face of least penetration, the incident face the
//! other shape's face most facing it, clipped by Sutherland–Hodgman against the reference
//! face's side planes, keeping only the points behind the reference face) with the 3D changes of
//! article 001's follow-up: the incident face is a polygon, each reference edge gives a side
//! plane, and the points kept are reduced to at most four.
//!
//! The steps: the reference face; the incident face; one step per side plane (its reference
//! edge, the plane, the polygon before and after it); the points kept behind the reference
//! face and rejected in front of it; then the reduction (`clip::reduce_point_indices`): with
//! four points or fewer all are kept, otherwise the deepest, the one farthest from it, the
//! largest triangle with those two on the positive side of the normal and on the negative side
//! (each kept only when its area is above zero), and the points kept, in that polygon order.

use super::clip::{HullSide, ManifoldPoint3};
use super::hull::Plane;
use crate::engine::debug::{palette, Color};
use crate::engine::debug3::{DebugDraw3, Layer3};
use crate::engine::number::Num;
use crate::engine::trace::{step_caption, Trace3};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// The layers a clipping picture draws on, in panel order.
pub const CLIP_LAYERS: [Layer3; 5] =
    [Layer3::RefFace, Layer3::IncidentFace, Layer3::ClipPlane, Layer3::Contact, Layer3::Normal];

/// One step of the clipping.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClipStep3 {
    /// The reference face: `owner`'s face `face`, the SAT's winning face axis, with its outward
    /// normal.
    ReferenceFace { owner: HullSide, face: usize, polygon: Vec<Vec3>, normal: Vec3 },
    /// The incident face: the other hull's face most anti-parallel to the reference normal
    /// (`dot` is the cosine between the two normals).
    IncidentFace { owner: HullSide, face: usize, polygon: Vec<Vec3>, dot: f32 },
    /// Side plane `k`, through the reference edge `edge` and facing out of the face, clips the
    /// incident polygon `before` to `after` (the part with `plane.distance <= 0`).
    SidePlane { k: usize, edge: [Vec3; 2], plane: Plane, before: Vec<Vec3>, after: Vec<Vec3> },
    /// The clipped polygon's points: behind or on the reference face (kept) and in front of it
    /// (rejected), with their signed distance to it.
    Classify { kept: Vec<ManifoldPoint3>, rejected: Vec<ManifoldPoint3> },
    /// Nothing was left behind the reference face (rounding): the SAT's point stands in.
    Fallback(ManifoldPoint3),
    /// One choice of the reduction to at most four points (indices into `Classify::kept`).
    Reduce(ReduceStep),
    /// An edge–edge contact: the article's one point, no faces to clip.
    EdgeContact(ManifoldPoint3),
}

/// The reduction's choices, in the order `clip::reduce_point_indices` makes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ReduceStep {
    /// The deepest point (the most negative separation; the first in polygon order on ties).
    Deepest { index: usize },
    /// The point farthest from the deepest.
    Farthest { index: usize, distance: f32 },
    /// The point making the largest triangle with the first two on the `positive` (or negative)
    /// side about the normal; `area` is twice the signed area, kept only when it is on its side.
    LargestTriangle { index: usize, positive: bool, area: f32, kept: bool },
    /// The points kept, in polygon order (all of them when there were four or fewer).
    Kept(Vec<usize>),
}

/// Every step of one [`super::clip::contact_manifold`] run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClipTrace3 {
    pub steps: Vec<ClipStep3>,
}

crate::engine::trace::recorded_steps!(ClipTrace3, ClipStep3);

/// The reference face as recorded.
#[derive(Clone, Copy, Debug)]
pub struct TracedFace3<'a> {
    pub owner: HullSide,
    pub face: usize,
    pub polygon: &'a [Vec3],
    /// The reference face's outward normal; the incident face's is not kept.
    pub normal: Option<Vec3>,
}

impl ClipTrace3 {
    /// The reference face, when the contact was a face contact.
    pub fn reference(&self) -> Option<TracedFace3<'_>> {
        self.steps.iter().find_map(|s| match s {
            ClipStep3::ReferenceFace { owner, face, polygon, normal } => {
                Some(TracedFace3 { owner: *owner, face: *face, polygon, normal: Some(*normal) })
            }
            _ => None,
        })
    }

    /// The incident face, when the contact was a face contact.
    pub fn incident(&self) -> Option<TracedFace3<'_>> {
        self.steps.iter().find_map(|s| match s {
            ClipStep3::IncidentFace { owner, face, polygon, .. } => {
                Some(TracedFace3 { owner: *owner, face: *face, polygon, normal: None })
            }
            _ => None,
        })
    }

    /// How many side planes clipped the incident face.
    pub fn side_plane_count(&self) -> usize {
        self.steps.iter().filter(|s| matches!(s, ClipStep3::SidePlane { .. })).count()
    }

    /// The points kept behind the reference face and those rejected in front of it.
    pub fn classified(&self) -> Option<(&[ManifoldPoint3], &[ManifoldPoint3])> {
        self.steps.iter().find_map(|s| match s {
            ClipStep3::Classify { kept, rejected } => Some((kept.as_slice(), rejected.as_slice())),
            _ => None,
        })
    }

    /// The points the trace ends with: those the reduction kept, the fallback point or the edge
    /// contact's point (what the manifold holds).
    pub fn manifold_points(&self) -> Vec<ManifoldPoint3> {
        match self.steps.last() {
            Some(ClipStep3::Reduce(ReduceStep::Kept(keep))) => {
                let kept = self.classified().map_or(&[][..], |(k, _)| k);
                keep.iter().filter_map(|&i| kept.get(i).copied()).collect()
            }
            Some(ClipStep3::Fallback(p) | ClipStep3::EdgeContact(p)) => vec![*p],
            _ => Vec::new(),
        }
    }

    /// The length of drawn normals: a third of the smaller face's radius (2 cm to 5 m).
    fn scale(&self) -> f32 {
        let radius = |poly: &[Vec3]| {
            let c = poly.iter().copied().sum::<Vec3>() / poly.len().max(1) as f32;
            poly.iter().map(|p| p.distance(c)).fold(0.0, f32::max)
        };
        let r = |f: Option<TracedFace3>| f.map_or(f32::INFINITY, |f| radius(f.polygon));
        let s = 0.35 * r(self.reference()).min(r(self.incident()));
        if s.is_finite() {
            s.clamp(0.02, 5.0)
        } else {
            0.25
        }
    }

    /// What step `step` did, in words.
    fn describe(&self, step: &ClipStep3) -> String {
        match step {
            ClipStep3::ReferenceFace { owner, face, .. } => {
                format!("reference face {owner:?} face {face}, the SAT's winning face axis")
            }
            ClipStep3::IncidentFace { owner, face, dot, .. } => format!(
                "incident face {owner:?} face {face}, the most anti-parallel to the reference normal (cos {:.3})",
                Num(*dot)
            ),
            ClipStep3::SidePlane { k, before, after, .. } => {
                let made = after.iter().filter(|p| !before.contains(p)).count();
                let cut = before.iter().filter(|p| !after.contains(p)).count();
                format!(
                    "side plane {} of {}: {} -> {} vertices ({cut} cut off, {made} made)",
                    k + 1,
                    self.side_plane_count(),
                    before.len(),
                    after.len()
                )
            }
            ClipStep3::Classify { kept, rejected } => {
                format!("{} kept behind the reference face, {} rejected in front", kept.len(), rejected.len())
            }
            ClipStep3::Fallback(_) => "nothing left behind the reference face: the SAT's point stands in".into(),
            ClipStep3::EdgeContact(_) => "edge contact: the article's one point, no faces to clip".into(),
            ClipStep3::Reduce(r) => self.describe_reduce(r),
        }
    }

    fn describe_reduce(&self, r: &ReduceStep) -> String {
        let kept = self.classified().map_or(&[][..], |(k, _)| k);
        match r {
            ReduceStep::Deepest { index } => {
                let s = kept.get(*index).map_or(f32::NAN, |p| p.separation);
                let ties = kept.iter().filter(|p| p.separation == s).count();
                let tie = if ties > 1 { format!(" ({ties} tied: the first in polygon order)") } else { String::new() };
                format!("reduce {} points to 4: 1. the deepest, separation {:+.3}{tie}", kept.len(), Num(s))
            }
            ReduceStep::Farthest { distance, .. } => {
                format!("2. the point farthest from the deepest, {:.3} away", Num(*distance))
            }
            ReduceStep::LargestTriangle { positive, area, kept, .. } => {
                let (n, side) = if *positive { (3, "+") } else { (4, "-") };
                let verdict = if *kept {
                    format!("area {:.3}, kept", Num(0.5 * area.abs()))
                } else {
                    "no point on that side, none kept".into()
                };
                format!("{n}. the largest triangle with them on the {side} side: {verdict}")
            }
            ReduceStep::Kept(keep) => {
                if self.steps.iter().any(|s| matches!(s, ClipStep3::Reduce(ReduceStep::Deepest { .. }))) {
                    let roles: Vec<&str> = keep.iter().filter_map(|&i| self.role(i)).collect();
                    format!("the manifold: {} of {} points kept ({})", keep.len(), kept.len(), roles.join(", "))
                } else {
                    format!("the manifold: {} points, at most four, all kept", keep.len())
                }
            }
        }
    }
}

impl Trace3 for ClipTrace3 {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        let n = self.steps.len();
        match n.checked_sub(1) {
            Some(last) => format!("{}: {}", step_caption("step", k, n), self.describe(&self.steps[k.min(last)])),
            None => "nothing to clip: the hulls are apart".into(),
        }
    }

    /// Draws step `k` (clamped): the reference face (`RefFace`), the incident face
    /// (`IncidentFace`), the step's side plane with the polygon before and after it
    /// (`ClipPlane`), the points kept and rejected or the reduction's choices (`Contact`) and
    /// the normal (`Normal`).
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw3) {
        let Some(last) = self.steps.len().checked_sub(1) else { return };
        let k = k.min(last);
        let scale = self.scale();
        self.draw_faces(k, scale, d);
        match &self.steps[k] {
            ClipStep3::SidePlane { k: i, edge, plane, before, after } => {
                draw_side_plane(*i, edge, plane, before, after, scale, d);
            }
            ClipStep3::Classify { kept, rejected } => self.draw_classify(kept, rejected, d),
            ClipStep3::Fallback(p) | ClipStep3::EdgeContact(p) if d.wants(Layer3::Contact) => {
                d.point(Layer3::Contact, p.position, 11.0, palette::KEPT);
                let text = format!("the SAT's point {:+.3}", Num(p.separation));
                d.text(Layer3::Contact, p.position, &text, palette::KEPT);
            }
            ClipStep3::Reduce(_) => self.draw_reduce(k, scale, d),
            _ => {}
        }
    }
}

const CLEAR: Color = Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 };

fn centroid(poly: &[Vec3]) -> Vec3 {
    poly.iter().copied().sum::<Vec3>() / poly.len().max(1) as f32
}

impl ClipTrace3 {
    /// The reference face (filled on its own step, outlined after) with its normal, and the
    /// incident face (filled on its own step, faint once the clipping draws its polygons).
    fn draw_faces(&self, k: usize, scale: f32, d: &mut dyn DebugDraw3) {
        for (i, step) in self.steps.iter().enumerate().take(k + 1) {
            match step {
                ClipStep3::ReferenceFace { owner, face, polygon, normal } if d.wants(Layer3::RefFace) => {
                    let c = palette::REFERENCE_FACE;
                    d.polygon(Layer3::RefFace, polygon, c.with_alpha(if i == k { 0.35 } else { 0.12 }), c);
                    let mid = centroid(polygon);
                    d.arrow(Layer3::RefFace, mid, mid + scale * *normal, c);
                    if k <= i + 1 {
                        d.text(Layer3::RefFace, mid + 1.2 * scale * *normal, &format!("reference {owner:?}{face}"), c);
                    }
                }
                ClipStep3::IncidentFace { owner, face, polygon, .. } if d.wants(Layer3::IncidentFace) => {
                    let c = palette::INCIDENT_FACE;
                    let (fill, line) = if i == k { (c.with_alpha(0.35), c) } else { (CLEAR, c.with_alpha(0.4)) };
                    d.polygon(Layer3::IncidentFace, polygon, fill, line);
                    if i == k {
                        d.text(Layer3::IncidentFace, centroid(polygon), &format!("incident {owner:?}{face}"), c);
                    }
                }
                _ => {}
            }
        }
    }

    /// The clipped polygon, and each point with its distance to the reference face: kept
    /// (behind) in green, rejected (in front) in red.
    fn draw_classify(&self, kept: &[ManifoldPoint3], rejected: &[ManifoldPoint3], d: &mut dyn DebugDraw3) {
        let last_polygon = self.steps.iter().rev().find_map(|s| match s {
            ClipStep3::SidePlane { after, .. } => Some(after),
            _ => None,
        });
        if let Some(poly) = last_polygon.filter(|_| d.wants(Layer3::ClipPlane)) {
            d.polygon(Layer3::ClipPlane, poly, palette::WINNER.with_alpha(0.12), palette::WINNER.with_alpha(0.7));
        }
        let (Some(n), true) = (self.reference().and_then(|r| r.normal), d.wants(Layer3::Contact)) else { return };
        for (points, color, what) in [(kept, palette::KEPT, "kept"), (rejected, palette::REJECTED, "rejected")] {
            for p in points {
                let foot = p.position - p.separation * n;
                d.segment(Layer3::Contact, p.position, foot, color.with_alpha(0.8));
                d.point(Layer3::Contact, p.position, 10.0, color);
                d.text(Layer3::Contact, p.position, &format!("{what} {:+.3}", Num(p.separation)), color);
            }
        }
    }

    /// The reduction up to step `k`: every candidate as a small dot, each choice so far marked
    /// and numbered as the captions number them (the farthest joined to the deepest, the
    /// triangles filled); on the last step the manifold instead, each point named by its role.
    fn draw_reduce(&self, k: usize, scale: f32, d: &mut dyn DebugDraw3) {
        let (Some((kept, _)), true) = (self.classified(), d.wants(Layer3::Contact)) else { return };
        for p in kept {
            d.point(Layer3::Contact, p.position, 6.0, palette::TEXT.with_alpha(0.8));
        }
        if let ClipStep3::Reduce(ReduceStep::Kept(keep)) = &self.steps[k] {
            self.draw_manifold(keep, kept, scale, d);
            return;
        }
        let at = |i: usize| kept.get(i).map_or(Vec3::ZERO, |p| p.position);
        let (mut deepest, mut farthest) = (Vec3::ZERO, Vec3::ZERO);
        for step in self.steps.iter().take(k + 1) {
            let ClipStep3::Reduce(r) = step else { continue };
            let (index, tag, color) = match *r {
                ReduceStep::Deepest { index } => {
                    deepest = at(index);
                    (index, "1 deepest", palette::KEPT)
                }
                ReduceStep::Farthest { index, .. } => {
                    farthest = at(index);
                    d.segment(Layer3::Contact, deepest, farthest, palette::WINNER);
                    (index, "2 farthest", palette::KEPT)
                }
                ReduceStep::LargestTriangle { index, positive, kept: true, .. } => {
                    let c = palette::KEPT;
                    d.polygon(Layer3::Contact, &[deepest, at(index), farthest], c.with_alpha(0.2), c.with_alpha(0.8));
                    (index, if positive { "3 largest + triangle" } else { "4 largest - triangle" }, c)
                }
                _ => continue,
            };
            d.point(Layer3::Contact, at(index), 12.0, color);
            d.text(Layer3::Contact, at(index), tag, color);
        }
    }

    /// What the reduction chose point `i` (of the kept ones) as, if it chose.
    fn role(&self, i: usize) -> Option<&'static str> {
        self.steps.iter().find_map(|s| match s {
            ClipStep3::Reduce(ReduceStep::Deepest { index }) if *index == i => Some("deepest"),
            ClipStep3::Reduce(ReduceStep::Farthest { index, .. }) if *index == i => Some("farthest"),
            ClipStep3::Reduce(ReduceStep::LargestTriangle { index, positive, kept: true, .. }) if *index == i => {
                Some(if *positive { "+ triangle" } else { "- triangle" })
            }
            _ => None,
        })
    }

    /// The manifold: the points kept (outlined in their order), each with its role and
    /// separation, and the reference normal.
    fn draw_manifold(&self, keep: &[usize], kept: &[ManifoldPoint3], scale: f32, d: &mut dyn DebugDraw3) {
        let points: Vec<&ManifoldPoint3> = keep.iter().filter_map(|&i| kept.get(i)).collect();
        let at: Vec<Vec3> = points.iter().map(|p| p.position).collect();
        if at.len() >= 3 {
            d.polygon(Layer3::Contact, &at, palette::KEPT.with_alpha(0.15), palette::KEPT);
        }
        for (&i, p) in keep.iter().zip(&points) {
            d.point(Layer3::Contact, p.position, 12.0, palette::KEPT);
            let role = self.role(i).map_or(String::new(), |r| format!("{r} "));
            d.text(Layer3::Contact, p.position, &format!("{role}{:+.3}", Num(p.separation)), palette::KEPT);
        }
        if let (Some(n), true) = (self.reference().and_then(|r| r.normal), d.wants(Layer3::Normal)) {
            let c = centroid(&at);
            d.arrow(Layer3::Normal, c, c + scale * n, palette::NORMAL);
        }
    }
}

/// Side plane `k` as a wall through its reference edge (reaching 1.3 `scale` to both sides of
/// the face), with an arrow to the side it cuts away; the polygon before it (outline) and after it
/// (filled), the vertices the cut made and those it removed.
fn draw_side_plane(
    k: usize,
    edge: &[Vec3; 2],
    plane: &Plane,
    before: &[Vec3],
    after: &[Vec3],
    scale: f32,
    d: &mut dyn DebugDraw3,
) {
    if !d.wants(Layer3::ClipPlane) {
        return;
    }
    let [p, q] = *edge;
    let up = plane.n.cross(q - p).normalize_or_zero() * (1.3 * scale);
    let wall = [p - up, q - up, q + up, p + up];
    d.polygon(Layer3::ClipPlane, &wall, palette::CLIP_PLANE.with_alpha(0.18), palette::CLIP_PLANE);
    let mid = 0.5 * (p + q);
    d.arrow(Layer3::ClipPlane, mid, mid + 0.8 * scale * plane.n, palette::CLIP_PLANE);
    d.text(Layer3::ClipPlane, mid + up, &format!("side plane {}", k + 1), palette::CLIP_PLANE);
    d.polygon(Layer3::ClipPlane, before, CLEAR, palette::INCIDENT_FACE.with_alpha(0.8));
    if after.len() >= 3 {
        d.polygon(Layer3::ClipPlane, after, palette::WINNER.with_alpha(0.25), palette::WINNER);
    }
    for v in after.iter().filter(|v| !before.contains(v)) {
        d.point(Layer3::ClipPlane, *v, 9.0, palette::CLIP_PLANE);
    }
    for v in before.iter().filter(|v| !after.contains(v)) {
        d.point(Layer3::ClipPlane, *v, 7.0, palette::REJECTED);
    }
}

#[cfg(test)]
#[path = "clip_trace_tests.rs"]
mod tests;
