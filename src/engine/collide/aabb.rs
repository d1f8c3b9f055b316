//! The 000 article's "AABB to AABB": the overlap on each axis from the half extents and the
//! translation between the centres (`a_extent + b_extent − |t|`), the contact area by "min
//! the maxes, max the mins", and the normal along the axis of least overlap, pointing towards
//! B. The engine's boxes go through SAT + clipping (`polygon`); this construction is the
//! article's shortcut for two axis-aligned boxes, which the Manifold lab shows beside it.
//!
//! The article's text picks the axis of *least* overlap and points the normal towards B; its
//! printed code compares `x_overlap > y_overlap` and flips both signs. This follows the text,
//! which is also what SAT gives.

use super::manifold::Manifold;
use super::pair_trace::{PairStep, PairTrace};
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::Aabb;
use crate::engine::number::Num;
use crate::engine::trace::{NoTrace, Recorder};
use glam::Vec2;

/// The article's answer for two overlapping AABBs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbContact {
    /// Overlap along x and along y.
    pub overlap: Vec2,
    /// The contact area: from the max of the mins to the min of the maxes.
    pub area: Aabb,
    /// Along the axis of least overlap, towards B.
    pub normal: Vec2,
    pub penetration: f32,
}

/// One step of [`collide_aabbs_with`].
#[derive(Clone, Debug, PartialEq)]
pub enum AabbStep {
    /// The overlap on `axis` (0 = x, 1 = y): `a_extent + b_extent − |t|`.
    Overlap { axis: usize, a: Aabb, b: Aabb, extents: [f32; 2], t: f32, overlap: f32 },
    /// The contact area: max of the mins, min of the maxes.
    Area(Aabb),
    /// The axis of least overlap gives the normal (towards B) and the depth.
    Normal { at: Vec2, normal: Vec2, penetration: f32 },
}

/// The trace of the article's AABB construction.
pub type AabbTrace = PairTrace<AabbStep>;
crate::engine::trace::recorded_steps!(AabbTrace, AabbStep);

/// The article's contact between AABBs `a` and `b`, `None` unless they overlap on both axes.
pub fn collide_aabbs(a: &Aabb, b: &Aabb) -> Option<AabbContact> {
    collide_aabbs_with(a, b, &mut NoTrace)
}

/// [`collide_aabbs`] recording its steps.
pub fn collide_aabbs_with<R: Recorder<AabbStep>>(a: &Aabb, b: &Aabb, rec: &mut R) -> Option<AabbContact> {
    let t = b.center() - a.center();
    let (ea, eb) = (a.extents(), b.extents());
    let overlap = ea + eb - t.abs();
    for axis in 0..2 {
        if R::ENABLED {
            let (a, b, extents) = (*a, *b, [ea[axis], eb[axis]]);
            rec.record(AabbStep::Overlap { axis, a, b, extents, t: t[axis], overlap: overlap[axis] });
        }
        if overlap[axis] <= 0.0 {
            return None;
        }
    }
    let area = Aabb::new(a.min.max(b.min), a.max.min(b.max));
    let (normal, penetration) = if overlap.x < overlap.y {
        (if t.x < 0.0 { -Vec2::X } else { Vec2::X }, overlap.x)
    } else {
        (if t.y < 0.0 { -Vec2::Y } else { Vec2::Y }, overlap.y)
    };
    if R::ENABLED {
        rec.record(AabbStep::Area(area));
        rec.record(AabbStep::Normal { at: area.center(), normal, penetration });
    }
    Some(AabbContact { overlap, area, normal, penetration })
}

/// The AABB of world `vertices` when they are exactly its four corners (a box at angle 0).
pub fn axis_aligned_box(vertices: &[Vec2]) -> Option<Aabb> {
    let min = vertices.iter().copied().fold(Vec2::splat(f32::MAX), Vec2::min);
    let max = vertices.iter().copied().fold(Vec2::splat(f32::MIN), Vec2::max);
    let corner = |v: &Vec2| (v.x == min.x || v.x == max.x) && (v.y == min.y || v.y == max.y);
    (vertices.len() == 4 && vertices.iter().all(corner)).then_some(Aabb::new(min, max))
}

const AXES: [&str; 2] = ["x", "y"];

impl PairStep for AabbStep {
    fn title(&self) -> &'static str {
        match self {
            AabbStep::Overlap { axis: 0, .. } => "article: overlap on x",
            AabbStep::Overlap { .. } => "article: overlap on y",
            AabbStep::Area(_) => "article: contact area, max of the mins to min of the maxes",
            AabbStep::Normal { .. } => "article: the axis of least overlap",
        }
    }

    fn summary(&self) -> String {
        match self {
            AabbStep::Overlap { axis, extents, t, overlap, .. } => format!(
                "{} overlap = {:.3} + {:.3} − |{:.3}| = {:.4}",
                AXES[*axis],
                Num(extents[0]),
                Num(extents[1]),
                Num(*t),
                Num(*overlap)
            ),
            AabbStep::Area(r) => {
                format!("area ({:.3}, {:.3}) to ({:.3}, {:.3})", Num(r.min.x), Num(r.min.y), Num(r.max.x), Num(r.max.y))
            }
            AabbStep::Normal { normal, penetration, .. } => {
                format!("normal ({:.0}, {:.0}), depth {:.4}", Num(normal.x), Num(normal.y), Num(*penetration))
            }
        }
    }

    fn draw(&self, d: &mut dyn DebugDraw, scale: f32, current: bool) {
        match self {
            AabbStep::Overlap { axis, a, b, overlap, .. } => {
                if current {
                    draw_overlap(d, *axis, a, b, *overlap, scale);
                }
            }
            AabbStep::Area(r) => {
                d.aabb(Layer::ClipPlane, *r, palette::CLIP_PLANE);
                if current {
                    d.point(Layer::ClipPlane, r.min, 8.0, palette::CLIP_PLANE);
                    d.point(Layer::ClipPlane, r.max, 8.0, palette::CLIP_PLANE);
                    let below = Vec2::new(0.0, 0.4 * scale);
                    d.text(Layer::ClipPlane, r.min - below, "max of the mins", palette::CLIP_PLANE);
                    d.text(Layer::ClipPlane, r.max + below, "min of the maxes", palette::CLIP_PLANE);
                }
            }
            AabbStep::Normal { at, normal, penetration } => {
                if current {
                    d.arrow(Layer::Normal, *at, *at + 2.0 * scale * *normal, palette::NORMAL);
                    let label = format!(
                        "article: normal ({:.0}, {:.0}), depth {:.3}",
                        Num(normal.x),
                        Num(normal.y),
                        Num(*penetration)
                    );
                    d.text(Layer::Normal, *at + 2.4 * scale * *normal, &label, palette::NORMAL);
                }
            }
        }
    }

    fn result(&self) -> Option<&Manifold> {
        None
    }
}

/// Both boxes' intervals on `axis`, drawn beside the pair, with their overlap.
fn draw_overlap(d: &mut dyn DebugDraw, axis: usize, a: &Aabb, b: &Aabb, overlap: f32, scale: f32) {
    let on_axis = |lo: f32, hi: f32, off: f32| {
        let at = |v: f32| if axis == 0 { Vec2::new(v, off) } else { Vec2::new(off, v) };
        (at(lo), at(hi))
    };
    // Below the pair for x, left of it for y.
    let base = if axis == 0 { a.min.y.min(b.min.y) } else { a.min.x.min(b.min.x) } - scale;
    for (k, (r, c)) in [(a, palette::SHAPE_A), (b, palette::SHAPE_B)].into_iter().enumerate() {
        let (p, q) = on_axis(r.min[axis], r.max[axis], base - 0.3 * scale * k as f32);
        d.segment(Layer::SatAxis, p, q, c);
    }
    let (lo, hi) = (a.min[axis].max(b.min[axis]), a.max[axis].min(b.max[axis]));
    let (p, q) = on_axis(lo, hi, base - 0.6 * scale);
    let color = if overlap > 0.0 { palette::WINNER } else { palette::SEPARATING };
    d.segment(Layer::SatAxis, p, q, color);
    let label = format!("{} overlap {:.3}", AXES[axis], Num(overlap));
    let off = if axis == 0 { Vec2::new(0.0, -0.5 * scale) } else { Vec2::new(-2.0 * scale, 0.0) };
    d.text(Layer::SatAxis, 0.5 * (p + q) + off, &label, color);
}

#[cfg(test)]
mod tests {
    use super::super::polygon::collide_polygons;
    use super::*;
    use crate::engine::math::Transform;
    use crate::engine::shape::Polygon;
    use crate::engine::trace::Trace;
    use proptest::prelude::*;

    proptest! {
        /// The article's construction and SAT + clipping agree on two axis-aligned boxes:
        /// the same normal and depth, and the clipped points are the contact area's two
        /// corners across the normal, moved to its middle along it.
        #[test]
        fn the_articles_aabb_answer_is_the_sat_answer(
            ha in (0.1f32..2.0, 0.1f32..2.0), hb in (0.1f32..2.0, 0.1f32..2.0),
            pa in (-1.0f32..1.0, -1.0f32..1.0), pb in (-3.0f32..3.0, -3.0f32..3.0),
        ) {
            let (a, b) = (Polygon::make_box(ha.into()).unwrap(), Polygon::make_box(hb.into()).unwrap());
            let (xa, xb) = (Transform::new(pa.into(), 0.0), Transform::new(pb.into(), 0.0));
            let boxes = [(&a, &xa), (&b, &xb)].map(|(p, xf)| axis_aligned_box(&p.world_vertices(xf).collect::<Vec<_>>()));
            let (ba, bb) = (boxes[0].unwrap(), boxes[1].unwrap());
            let m = collide_polygons(&a, &xa, &b, &xb, 0.0);
            let article = collide_aabbs(&ba, &bb);
            // Near a tie between the axes (or touching) the two may choose differently.
            let o = ba.extents() + bb.extents() - (bb.center() - ba.center()).abs();
            let t = bb.center() - ba.center();
            prop_assume!((o.x - o.y).abs() > 1e-3 && o.abs().min_element() > 1e-4 && t.abs().min_element() > 1e-4);
            prop_assert_eq!(article.is_some(), m.count > 0);
            let Some(c) = article else { return Ok(()) };
            prop_assert_eq!(m.normal, c.normal);
            prop_assert!((m.max_penetration() - c.penetration).abs() < 1e-5);
            let across = Vec2::new(c.normal.y.abs(), c.normal.x.abs());
            let middle = c.area.center().dot(c.normal.abs());
            // The area is as deep as the overlap unless one box spans the other along the
            // normal (a cross): then the points sit midway between the faces, not in it.
            let spans = (2.0 * c.area.extents().dot(c.normal.abs()) - c.penetration).abs() > 1e-5;
            for p in m.points() {
                prop_assert!(spans || (p.point.dot(c.normal.abs()) - middle).abs() < 1e-5);
                let s = p.point.dot(across);
                prop_assert!((s - c.area.min.dot(across)).abs() < 1e-5 || (s - c.area.max.dot(across)).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn the_articles_steps_on_a_box_resting_on_a_wider_one() {
        let a = Aabb::new(Vec2::new(-2.0, -0.5), Vec2::new(2.0, 0.5));
        let b = Aabb::new(Vec2::new(-0.5, 0.4), Vec2::new(0.5, 1.4));
        let mut t = AabbTrace::new(0.3);
        let c = collide_aabbs_with(&a, &b, &mut t).unwrap();
        // x: 2 + 0.5 − 0 = 2.5; y: 0.5 + 0.5 − 0.9 = 0.1, the least: the normal is up.
        assert!((c.overlap - Vec2::new(2.5, 0.1)).abs().max_element() < 1e-6);
        assert_eq!(c.normal, Vec2::Y);
        assert_eq!(c.area, Aabb::new(Vec2::new(-0.5, 0.4), Vec2::new(0.5, 0.5)));
        assert_eq!(t.steps(), 4);
        assert!(t.step_label(2).contains("max of the mins"));
        // Apart on x: the x step is the last.
        let mut t = AabbTrace::new(0.3);
        assert!(collide_aabbs_with(&a, &Aabb::new(Vec2::new(2.5, 0.0), Vec2::new(3.0, 1.0)), &mut t).is_none());
        assert_eq!(t.steps(), 1);
        // A turned box is not axis-aligned.
        let turned: Vec<Vec2> =
            Polygon::make_box(Vec2::ONE).unwrap().world_vertices(&Transform::new(Vec2::ZERO, 0.1)).collect();
        assert!(axis_aligned_box(&turned).is_none());
    }
}
