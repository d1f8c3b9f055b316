//! The SAT + clipping trace (the clip trace): every step of `collide_polygons` recorded as
//! plain data through the engine's `Recorder` protocol, and drawn stage by stage through
//! `DebugDraw` (000 article, "OBB to OBB": axes of least
//! penetration, `BiasGreaterThan`, reference and incident faces, side planes, clipping,
//! keeping points behind the reference face).

use super::clip::Line;
use super::manifold::Manifold;
use super::polygon::ReferenceFaceRule;
use crate::engine::debug::{palette, Color, DebugDraw, Layer};
use crate::engine::number::Num;
use crate::engine::trace::{Recorder, Trace};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Which of the two shapes a feature belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShapeId {
    A,
    B,
}

impl ShapeId {
    pub fn label(self) -> &'static str {
        match self {
            ShapeId::A => "A",
            ShapeId::B => "B",
        }
    }
}

/// One separating axis candidate: the normal of face `edge` of shape `owner`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatAxis {
    pub owner: ShapeId,
    pub edge: usize,
    /// World unit normal of the face.
    pub normal: Vec2,
    /// The face's end points in world space.
    pub face: [Vec2; 2],
    /// Distance of the other shape's deepest vertex beyond the face (negative = overlap).
    pub separation: f32,
    /// That deepest vertex (index and world point) on the other shape.
    pub deepest_vertex: usize,
    pub deepest_point: Vec2,
}

/// A face (edge) of one shape in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracedFace {
    pub owner: ShapeId,
    pub edge: usize,
    pub v1: Vec2,
    pub v2: Vec2,
    pub normal: Vec2,
}

/// A point of the clipped incident segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracedPoint {
    pub p: Vec2,
    /// The side plane (0 or 1) that created it, if a clip did.
    pub created_by: Option<usize>,
}

/// The stages the clipping slider walks through.
pub const CLIP_STAGES: [&str; 7] = [
    "1. SAT axes",
    "2. Reference and incident faces",
    "3. Side planes",
    "4. Clip against side plane 1",
    "5. Clip against side plane 2",
    "6. Keep points behind the reference face",
    "7. Manifold",
];

/// Everything `collide_polygons` did for one pair.
#[derive(Clone, Debug, Default)]
pub struct ClipTrace {
    /// World vertices of A and B (for projections).
    pub vertices: [Vec<Vec2>; 2],
    /// Every tested axis: A's faces first, then B's (B's are missing after an early out on A).
    pub axes: Vec<SatAxis>,
    /// Index in `axes` of the best axis of A and of B.
    pub best: [Option<usize>; 2],
    /// Index in `axes` of a separating axis, when the test stopped early.
    pub separating_axis: Option<usize>,
    /// The rule that chose the reference face.
    pub rule: ReferenceFaceRule,
    /// Whether B holds the reference face.
    pub flip: bool,
    /// Whether the plain comparison (no bias) would have picked the other shape.
    pub bias_changed_choice: bool,
    pub reference: Option<TracedFace>,
    pub incident: Option<TracedFace>,
    /// Side planes of the reference face (normals point out of the face's extent).
    pub side_planes: Vec<Line>,
    /// The incident segment before clipping, after side plane 1, after side plane 2.
    pub clip_stages: Vec<Vec<TracedPoint>>,
    /// Clipped points kept (behind the reference face) and rejected, with their separation.
    pub kept: Vec<(Vec2, f32)>,
    pub rejected: Vec<(Vec2, f32)>,
    /// Clipping removed the segment and the deepest incident vertex was used instead.
    pub fallback: bool,
    /// The rule's first choice of face would have lost this much depth and yielded to the
    /// other polygon's deeper face (the faces recorded are the second choice's).
    pub yielded: Option<f32>,
    /// Rounded polygons (a capsule as a two-gon): each shape's radius around its core.
    pub radii: [f32; 2],
    /// Rounded polygons whose cores are apart: the closest points of the two edges, when the
    /// manifold is the single point between them.
    pub closest_points: Option<[Vec2; 2]>,
    pub result: Manifold,
}

fn owner_color(id: ShapeId) -> Color {
    match id {
        ShapeId::A => palette::SHAPE_A,
        ShapeId::B => palette::SHAPE_B,
    }
}

/// One recorded step of `collide_polygons` (the trace's [`Recorder`] input).
#[derive(Clone, Debug, PartialEq)]
pub enum ClipEvent {
    /// The run starts: the reference-face rule and both shapes' world vertices.
    Begin {
        rule: ReferenceFaceRule,
        vertices: [Vec<Vec2>; 2],
    },
    /// A face normal was tested.
    Axis(SatAxis),
    /// The best (largest separation) axis of a shape, as an index into the recorded axes.
    Best {
        owner: ShapeId,
        axis: usize,
    },
    /// The test stopped early: this recorded axis separates the shapes.
    Separating(usize),
    /// The reference and incident faces were chosen, and the reference face's side planes.
    Faces {
        flip: bool,
        bias_changed_choice: bool,
        reference: TracedFace,
        incident: TracedFace,
        side_planes: [Line; 2],
    },
    /// The incident segment before clipping, after side plane 1 and after side plane 2.
    Clipped([Vec<TracedPoint>; 3]),
    /// A clipped point, kept behind the reference face or rejected in front of it.
    Point {
        p: Vec2,
        separation: f32,
        kept: bool,
    },
    /// Clipping removed the segment: the deepest incident vertex is used.
    Fallback,
    /// The reference face kept by the rule's tolerance would cut `lost` metres off the
    /// deepest point: it yields to the other polygon's deeper face, clipped next.
    Yield {
        lost: f32,
    },
    /// The shapes are rounded polygons with these radii (a capsule as a two-gon), recorded
    /// after `Begin`: separations are the cores', contacts lie midway between the surfaces.
    Radii([f32; 2]),
    /// Rounded polygons: the single point between these closest points of the two edges.
    ClosestPoints([Vec2; 2]),
    Done(Manifold),
}

impl Recorder<ClipEvent> for ClipTrace {
    const ENABLED: bool = true;
    fn record(&mut self, e: ClipEvent) {
        match e {
            ClipEvent::Begin { rule, vertices } => *self = ClipTrace { rule, vertices, ..Default::default() },
            ClipEvent::Axis(a) => self.axes.push(a),
            ClipEvent::Best { owner, axis } => self.best[owner as usize] = Some(axis),
            ClipEvent::Separating(axis) => self.separating_axis = Some(axis),
            ClipEvent::Faces { flip, bias_changed_choice, reference, incident, side_planes } => {
                (self.flip, self.bias_changed_choice) = (flip, bias_changed_choice);
                (self.reference, self.incident) = (Some(reference), Some(incident));
                self.side_planes = side_planes.to_vec();
            }
            ClipEvent::Clipped(stages) => self.clip_stages = stages.to_vec(),
            ClipEvent::Point { p, separation, kept } => {
                if kept { &mut self.kept } else { &mut self.rejected }.push((p, separation))
            }
            ClipEvent::Fallback => self.fallback = true,
            ClipEvent::Yield { lost } => {
                self.yielded = Some(lost);
                (self.kept, self.rejected, self.clip_stages) = Default::default();
            }
            ClipEvent::Radii(radii) => self.radii = radii,
            ClipEvent::ClosestPoints(points) => self.closest_points = Some(points),
            ClipEvent::Done(m) => self.result = m,
        }
    }
}

/// The clip trace walks the seven stages of `CLIP_STAGES`; normals are drawn at a third of the
/// smaller shape's size.
impl Trace for ClipTrace {
    fn steps(&self) -> usize {
        if self.vertices[0].is_empty() {
            0
        } else {
            CLIP_STAGES.len()
        }
    }

    fn step_label(&self, k: usize) -> String {
        CLIP_STAGES[k.min(CLIP_STAGES.len() - 1)].to_string()
    }

    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        self.draw(k.min(CLIP_STAGES.len() - 1), d, self.axis_scale());
    }
}

impl ClipTrace {
    /// Length of drawn normals: a third of the smaller shape's radius (5 cm to 5 m).
    pub fn axis_scale(&self) -> f32 {
        let radius = |vs: &[Vec2]| {
            let c = vs.iter().copied().sum::<Vec2>() / vs.len().max(1) as f32;
            vs.iter().map(|v| v.distance(c)).fold(0.0, f32::max)
        };
        (0.35 * radius(&self.vertices[0]).min(radius(&self.vertices[1]))).clamp(0.05, 5.0)
    }

    /// The axis the manifold's normal came from (the reference face's), if any.
    pub fn winning_axis(&self) -> Option<usize> {
        let r = self.reference?;
        self.axes.iter().position(|a| a.owner == r.owner && a.edge == r.edge)
    }

    /// The other shape's best axis when it is shallower than the reference face's: the
    /// minimum translation the reference-face rule passed over, and how much longer the
    /// chosen normal's way out is (metres).
    pub fn shortest_way_out(&self) -> Option<(&SatAxis, f32)> {
        let chosen = &self.axes[self.winning_axis()?];
        let other = self.best.iter().flatten().map(|&i| &self.axes[i]).find(|a| a.owner != chosen.owner)?;
        (other.separation > chosen.separation).then_some((other, other.separation - chosen.separation))
    }

    /// Draws stage `stage` (index into `CLIP_STAGES`); `axis_scale` is the length of drawn
    /// normals in metres.
    pub fn draw(&self, stage: usize, d: &mut dyn DebugDraw, axis_scale: f32) {
        self.draw_rounded(d, stage);
        if stage == 0 || self.reference.is_none() {
            self.draw_axes(d, axis_scale);
            return;
        }
        let (Some(r), Some(inc)) = (self.reference, self.incident) else { return };
        self.draw_shortest_way_out(d, axis_scale);
        // Labels sit at opposite ends of the two faces so they do not cover each other
        // (from stage 5 on the points carry the labels).
        for (layer, face, word, color) in [
            (Layer::RefFace, r, "reference", palette::REFERENCE_FACE),
            (Layer::IncidentFace, inc, "incident", palette::INCIDENT_FACE),
        ] {
            if !d.wants(layer) {
                continue;
            }
            d.segment(layer, face.v1, face.v2, color);
            if layer == Layer::RefFace {
                let mid = 0.5 * (face.v1 + face.v2);
                d.arrow(layer, mid, mid + axis_scale * face.normal, color);
            }
            if stage < 5 {
                let at = face.v1 + 0.25 * (face.v2 - face.v1) - 0.6 * axis_scale * face.normal;
                d.text(layer, at, &format!("{word} {}{}", face.owner.label(), face.edge), color);
            }
        }
        if stage >= 2 && d.wants(Layer::ClipPlane) {
            draw_side_planes(d, &r, axis_scale);
        }
        self.draw_points(stage, d, axis_scale, r.normal);
    }

    /// The points of stage `stage`: the incident face after each clip (2–4), the kept and
    /// rejected points (5), the manifold (6 on).
    fn draw_points(&self, stage: usize, d: &mut dyn DebugDraw, axis_scale: f32, ref_normal: Vec2) {
        let pts = match stage {
            2..=4 => self.clip_stages.get(stage - 2),
            _ => None,
        };
        if let Some(pts) = pts {
            if pts.len() == 2 {
                d.segment(Layer::ClipPlane, pts[0].p, pts[1].p, palette::WINNER);
            }
            for p in pts {
                let c = if p.created_by.is_some() { palette::CLIP_PLANE } else { palette::WINNER };
                d.point(Layer::ClipPlane, p.p, 9.0, c);
            }
        }
        if stage == 5 {
            for (list, word, color) in
                [(&self.kept, "kept", palette::KEPT), (&self.rejected, "rejected", palette::REJECTED)]
            {
                for &(p, s) in list {
                    d.point(Layer::Contact, p, 10.0, color);
                    d.text(
                        Layer::Contact,
                        p + 0.25 * axis_scale * ref_normal,
                        &format!("{word} {s:+.3}", s = Num(s)),
                        color,
                    );
                }
            }
        }
        if stage >= 6 {
            let n = self.result.normal;
            for p in self.result.points() {
                d.point(Layer::Contact, p.point, 10.0, palette::KEPT);
                d.arrow(Layer::Normal, p.point, p.point + axis_scale * n, palette::WINNER);
                let at = p.point - 0.3 * axis_scale * n;
                d.text(Layer::Contact, at, &format!("depth {:.3}", Num(p.penetration)), palette::TEXT);
            }
        }
    }

    /// Rounded polygons: each rounded shape's core (its two-gon for a capsule) with a circle of
    /// its radius at every vertex, and from stage 6 on the closest points of the two edges
    /// when they gave the manifold.
    fn draw_rounded(&self, d: &mut dyn DebugDraw, stage: usize) {
        if !d.wants(Layer::SatAxis) {
            return;
        }
        let clear = palette::TEXT.with_alpha(0.0);
        for (k, vs) in self.vertices.iter().enumerate().filter(|&(k, _)| self.radii[k] > 0.0) {
            let color = owner_color([ShapeId::A, ShapeId::B][k]);
            for (i, v) in vs.iter().enumerate() {
                d.segment(Layer::SatAxis, *v, vs[(i + 1) % vs.len()], color);
                d.circle(Layer::SatAxis, *v, self.radii[k], clear, color.with_alpha(0.5));
            }
            let label = format!("core of {}, radius {:.3}", ["A", "B"][k], Num(self.radii[k]));
            d.text(Layer::SatAxis, vs[0] - Vec2::new(0.0, 1.5 * self.radii[k]), &label, color);
        }
        if let (Some([p, q]), true) = (self.closest_points, stage >= 5) {
            d.segment(Layer::SatAxis, p, q, palette::WINNER);
            d.text(Layer::SatAxis, 0.5 * (p + q), "closest points of the edges", palette::WINNER);
        }
    }

    /// What the reference-face rule costs: the minimum translation it passed over, drawn from
    /// that face with the extra distance the chosen normal pushes (under a millimetre with
    /// the absolute tolerance; centimetres with the article's relative bias on deep overlaps).
    fn draw_shortest_way_out(&self, d: &mut dyn DebugDraw, axis_scale: f32) {
        let Some((axis, extra)) = self.shortest_way_out().filter(|&(_, extra)| extra > 1e-4) else { return };
        if !d.wants(Layer::SatAxis) {
            return;
        }
        let mid = 0.5 * (axis.face[0] + axis.face[1]);
        let color = palette::REJECTED;
        d.arrow(Layer::SatAxis, mid, mid + axis_scale * axis.normal, color);
        let label = format!("shortest way out {}{}: {:.3} shorter", axis.owner.label(), axis.edge, extra);
        d.text(Layer::SatAxis, mid + 1.25 * axis_scale * axis.normal, &label, color);
    }

    /// Every SAT axis: the face, its normal, the other shape's deepest vertex and the
    /// separation; the best axis of each shape is marked and the winner highlighted.
    fn draw_axes(&self, d: &mut dyn DebugDraw, axis_scale: f32) {
        if !d.wants(Layer::SatAxis) {
            return;
        }
        let winner = self.winning_axis().or(self.separating_axis);
        for (i, a) in self.axes.iter().enumerate() {
            let is_best = self.best.contains(&Some(i));
            let color = if Some(i) == self.separating_axis {
                palette::SEPARATING
            } else if Some(i) == winner {
                palette::WINNER
            } else {
                owner_color(a.owner).with_alpha(if is_best { 1.0 } else { 0.55 })
            };
            let mid = 0.5 * (a.face[0] + a.face[1]);
            d.arrow(Layer::SatAxis, mid, mid + axis_scale * a.normal, color);
            // The separation: from the deepest vertex to the face's line along the normal.
            let foot = a.deepest_point - a.separation * a.normal;
            d.segment(Layer::SatAxis, a.deepest_point, foot, color.with_alpha(0.7));
            d.point(Layer::SatAxis, a.deepest_point, 5.0, color);
            if is_best || Some(i) == winner {
                let tag = format!("{}{}: {:+.3}", a.owner.label(), a.edge, Num(a.separation));
                d.text(Layer::SatAxis, mid + 1.25 * axis_scale * a.normal, &tag, color);
            }
        }
    }

    /// The projections of both shapes onto axis `k`, drawn as intervals on a line beside the
    /// shapes, with their overlap.
    pub fn draw_projection(&self, k: usize, d: &mut dyn DebugDraw) {
        let Some(axis) = self.axes.get(k) else { return };
        if !d.wants(Layer::SatAxis) || self.vertices[0].is_empty() || self.vertices[1].is_empty() {
            return;
        }
        let n = axis.normal;
        let interval =
            |vs: &[Vec2]| vs.iter().map(|v| v.dot(n)).fold((f32::MAX, f32::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let (a0, a1) = interval(&self.vertices[0]);
        let (b0, b1) = interval(&self.vertices[1]);
        // Place the axis line to one side of both shapes.
        let side = Vec2::new(-n.y, n.x);
        let all = self.vertices[0].iter().chain(&self.vertices[1]);
        let offset = all.map(|v| v.dot(side)).fold(f32::MIN, f32::max) + 0.6;
        let at = |s: f32, lift: f32| n * s + side * (offset + lift);
        d.segment(Layer::SatAxis, at(a0.min(b0) - 1.0, 0.0), at(a1.max(b1) + 1.0, 0.0), palette::TEXT.with_alpha(0.4));
        d.segment(Layer::SatAxis, at(a0, 0.12), at(a1, 0.12), palette::SHAPE_A);
        d.segment(Layer::SatAxis, at(b0, 0.24), at(b1, 0.24), palette::SHAPE_B);
        let (o0, o1) = (a0.max(b0), a1.min(b1));
        if o1 > o0 {
            d.segment(Layer::SatAxis, at(o0, 0.36), at(o1, 0.36), palette::REJECTED);
            d.text(
                Layer::SatAxis,
                at(0.5 * (o0 + o1), 0.6),
                &format!("overlap {:.3}", Num(o1 - o0)),
                palette::REJECTED,
            );
        } else {
            d.text(Layer::SatAxis, at(0.5 * (o0 + o1), 0.6), &format!("gap {:.3}", Num(o0 - o1)), palette::SEPARATING);
        }
    }
}

/// The reference face's two side planes, each with an arrow to the side it cuts away.
fn draw_side_planes(d: &mut dyn DebugDraw, r: &TracedFace, axis_scale: f32) {
    let t = (r.v2 - r.v1).normalize_or_zero();
    let reach = (r.v2 - r.v1).length().max(axis_scale) * 1.5;
    for (k, v) in [r.v1, r.v2].into_iter().enumerate() {
        let n = r.normal;
        d.segment(Layer::ClipPlane, v - reach * n, v + reach * n, palette::CLIP_PLANE);
        let out = if k == 0 { -t } else { t };
        let from = v + 0.5 * reach * n;
        d.arrow(Layer::ClipPlane, from, from + 0.4 * axis_scale * out, palette::CLIP_PLANE);
        d.text(Layer::ClipPlane, v + 0.8 * reach * n, &format!("side plane {}", k + 1), palette::CLIP_PLANE);
    }
}

#[cfg(test)]
mod tests {
    use super::super::polygon::{collide_polygons, collide_polygons_traced};
    use super::*;
    use crate::engine::debug::OnLayer;
    use crate::engine::debug::{DebugList, LayerSet};
    use crate::engine::math::Transform;
    use crate::engine::shape::Polygon;

    fn boxes() -> (Polygon, Polygon) {
        (Polygon::make_box(Vec2::new(1.0, 1.0)).unwrap(), Polygon::make_box(Vec2::new(0.5, 0.5)).unwrap())
    }

    #[test]
    fn traced_result_equals_untraced_and_records_every_axis() {
        let (a, b) = boxes();
        let xa = Transform::IDENTITY;
        let xb = Transform::new(Vec2::new(0.3, 1.4), 0.2);
        let mut t = ClipTrace::default();
        let m = collide_polygons_traced(&a, &xa, &b, &xb, 0.0, ReferenceFaceRule::default(), Some(&mut t));
        assert_eq!(m, collide_polygons(&a, &xa, &b, &xb, 0.0));
        assert_eq!(t.result, m);
        assert_eq!(t.axes.len(), 8);
        assert!(t.separating_axis.is_none());
        let r = t.reference.unwrap();
        // The winner's separation is the deepest point's: the manifold's max depth.
        let w = &t.axes[t.winning_axis().unwrap()];
        assert_eq!((w.owner, w.edge), (r.owner, r.edge));
        assert!((m.normal - if t.flip { -r.normal } else { r.normal }).length() < 1e-6);
        assert_eq!(t.clip_stages.len(), 3);
        assert_eq!(t.clip_stages[0].len(), 2);
        assert_eq!(t.kept.len(), m.count);
        // Kept points are behind the reference face, rejected ones in front.
        assert!(t.kept.iter().all(|&(_, s)| s <= 0.0));
        assert!(t.rejected.iter().all(|&(_, s)| s > 0.0));
    }

    #[test]
    fn separated_pair_records_the_separating_axis() {
        let (a, b) = boxes();
        let mut t = ClipTrace::default();
        let m = collide_polygons_traced(
            &a,
            &Transform::IDENTITY,
            &b,
            &Transform::new(Vec2::new(3.0, 0.0), 0.0),
            0.0,
            ReferenceFaceRule::default(),
            Some(&mut t),
        );
        assert_eq!(m.count, 0);
        let s = t.axes[t.separating_axis.unwrap()];
        assert!(s.separation > 0.0);
        assert_eq!((s.owner, s.edge), (ShapeId::A, 1), "A's right face separates");
        assert!(t.reference.is_none());
    }

    #[test]
    fn on_a_near_tie_the_article_keeps_a_and_the_default_yields_when_a_would_lose_depth() {
        // B, slightly wider than A, rests on it tilted by 1 mrad: A's top face separation is
        // -0.05 - 1.2e-3, B's bottom face -0.05 - 1e-3, so B's is better by only 0.2 mm.
        let a = Polygon::make_box(Vec2::ONE).unwrap();
        let b = Polygon::make_box(Vec2::new(1.2, 1.0)).unwrap();
        let run = |rule, tilt| {
            let mut t = ClipTrace::default();
            let xb = Transform::new(Vec2::new(0.0, 1.95), tilt);
            let m = collide_polygons_traced(&a, &Transform::IDENTITY, &b, &xb, 0.0, rule, Some(&mut t));
            (t, m)
        };
        let (plain, mp) = run(ReferenceFaceRule::Plain, 1e-3);
        assert!(plain.flip && !plain.bias_changed_choice, "the plain comparison takes B's marginally better face");
        let (relative, mr) = run(ReferenceFaceRule::Relative, 1e-3);
        assert!(!relative.flip && relative.bias_changed_choice, "the article's bias keeps A's face");
        assert!(relative.yielded.is_none());
        // Within the absolute tolerance too, but A's side planes (x = ±1) cut B's corner at
        // x = -1.2, 0.2 mm deeper, off: A's face yields to B's, which clips A's corners whole.
        let (absolute, ma) = run(ReferenceFaceRule::Absolute, 1e-3);
        assert!(absolute.flip, "the default takes B's face");
        let lost = absolute.yielded.expect("A's face yielded");
        assert!((lost - 0.2e-3).abs() < 2e-5, "{lost}");
        assert!((ma.max_penetration() - mp.max_penetration()).abs() < 1e-6);
        // The deepest point is as deep as the overlap along the normal (B's face separation);
        // along A's normal the overlap is 0.2 mm more than any point of the article's answer.
        let along = |t: &ClipTrace| -t.axes[t.winning_axis().unwrap()].separation;
        assert!((ma.max_penetration() - along(&absolute)).abs() < 1e-6);
        assert!((along(&relative) - mr.max_penetration() - 0.2e-3).abs() < 2e-5);
        // Level, nothing is cut off: the tolerance keeps A's face.
        let (level, _) = run(ReferenceFaceRule::Absolute, 0.0);
        assert!(!level.flip && level.yielded.is_none());
    }

    #[test]
    fn every_stage_draws_on_its_layers() {
        let (a, b) = boxes();
        let mut t = ClipTrace::default();
        collide_polygons_traced(
            &a,
            &Transform::IDENTITY,
            &b,
            &Transform::new(Vec2::new(0.9, 1.3), 0.4),
            0.0,
            ReferenceFaceRule::default(),
            Some(&mut t),
        );
        for stage in 0..CLIP_STAGES.len() {
            let mut d = DebugList::new(LayerSet::ALL);
            t.draw(stage, &mut d, 0.5);
            assert!(!d.cmds.is_empty(), "stage {stage} drew nothing");
            let layers: Vec<Layer> = d.cmds.iter().map(|c| c.layer()).collect();
            match stage {
                0 => assert!(layers.iter().all(|&l| l == Layer::SatAxis)),
                2..=4 => assert!(layers.contains(&Layer::ClipPlane)),
                6 => assert!(layers.contains(&Layer::Contact) && layers.contains(&Layer::Normal)),
                _ => assert!(layers.contains(&Layer::RefFace) && layers.contains(&Layer::IncidentFace)),
            }
        }
        let mut d = DebugList::new(LayerSet::ALL);
        t.draw_projection(0, &mut d);
        assert!(d.count(Layer::SatAxis) >= 3);
        // Disabled layers record nothing.
        let mut none = DebugList::new(LayerSet(0));
        t.draw(0, &mut none, 0.5);
        assert!(none.cmds.is_empty());
    }
}
