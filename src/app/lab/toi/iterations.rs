//! Configuration space at each iteration of a rotating sweep (004 article, "Continuous
//! Angular/Linear": "the various iterations of the MD are shown on the right … the **shape**
//! of the MD changes under rotation of either body, unlike with linear only motion where it
//! just translates"). For the methods that follow rotation (and the GJK ray cast), the inset
//! shows the Minkowski difference A − B at the poses of the shown iteration `t_k`, its closest
//! point to the origin and the separation there, over the outlines of the differences of the
//! earlier iterations, and the path of the closest point from iteration to iteration. The
//! step slider (the lab's step protocol) walks them.

use super::ToiLab;
use glam::Vec2;
use manifold_lab::engine::collide::minkowski::MinkowskiDifference;
use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::collide::toi::ToiStep;
use manifold_lab::engine::debug::{palette, DebugDraw, Layer};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::number::Num;

/// The difference A − B at the poses of iteration `step`.
pub fn difference_at(lab: &ToiLab, step: &ToiStep) -> MinkowskiDifference {
    let pa = Proxy::from_shape(&lab.spec.a.shape.shape(), &step.xf_a, Vec2::ZERO);
    let pb = Proxy::from_shape(&lab.spec.b.shape.shape(), &step.xf_b, Vec2::ZERO);
    MinkowskiDifference::new(&pa, &pb)
}

/// The shown iteration's index (the last when none is chosen).
pub fn shown(lab: &ToiLab) -> Option<usize> {
    let last = lab.trace.steps.len().checked_sub(1)?;
    Some(lab.step.unwrap_or(last).min(last))
}

/// Every iteration's difference and the origin, so the view stays put while the slider walks.
pub fn bounds(lab: &ToiLab) -> Aabb {
    let mut bb = Aabb::new(Vec2::splat(-0.5), Vec2::splat(0.5));
    for s in &lab.trace.steps {
        let md = difference_at(lab, s);
        let r = Vec2::splat(md.radius + 0.3);
        for v in &md.vertices {
            bb = bb.union(&Aabb::new(*v - r, *v + r));
        }
    }
    bb
}

/// The earlier iterations faint, the shown one whole with its closest point and separation,
/// and the closest point's path up to it.
pub fn draw(lab: &ToiLab, d: &mut dyn DebugDraw) {
    let Some(k) = shown(lab) else { return };
    let steps = &lab.trace.steps;
    let mds: Vec<MinkowskiDifference> = steps[..=k].iter().map(|s| difference_at(lab, s)).collect();
    if d.wants(Layer::Minkowski) {
        for (i, md) in mds[..k].iter().enumerate() {
            let alpha = 0.15 + 0.35 * (i + 1) as f32 / (k + 1) as f32;
            if md.vertices.len() >= 3 {
                d.polygon(
                    Layer::Minkowski,
                    &md.vertices,
                    palette::MINKOWSKI.with_alpha(0.0),
                    palette::MINKOWSKI.with_alpha(alpha),
                );
            }
        }
    }
    let md = &mds[k];
    md.draw(d, Vec2::ZERO, 1.0);
    if d.wants(Layer::SatAxis) && k > 0 {
        let path: Vec<Vec2> = mds.iter().map(|m| m.closest.point).collect();
        for w in path.windows(2) {
            d.segment(Layer::SatAxis, w[0], w[1], palette::SEARCH_DIRECTION.with_alpha(0.7));
        }
    }
    let s = &steps[k];
    let label = format!("{}/{}: t = {:.4}, d = {:.4} m", k + 1, steps.len(), Num(s.t), Num(s.distance));
    let top = md.vertices.iter().fold(Vec2::new(0.0, 0.5), |m, v| m.max(*v)) + Vec2::new(0.0, md.radius + 0.25);
    let left = md.vertices.iter().fold(0.0f32, |m, v| m.min(v.x)) - md.radius;
    d.text(Layer::Motion, Vec2::new(left, top.y), &label, palette::TEXT);
}
