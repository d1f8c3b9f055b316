//! Drawing the time-of-impact lab: both shapes at their start poses, the end poses as ghosts
//! with a turn handle, faint poses along the sweeps, the shown method's iteration (the trace),
//! the pose at the time of impact with its contact point and normal; and for the linear cast,
//! configuration space: the Minkowski difference A − B at the start rotations and the ray of
//! the relative motion into it.

use super::input::handle;
use super::ToiLab;
use crate::app::input::HANDLE_RADIUS_PX;
use crate::app::stage::Stage;
use glam::Vec2;
use manifold_lab::engine::collide::minkowski::MinkowskiDifference;
use manifold_lab::engine::collide::support::{draw_proxy, Proxy};
use manifold_lab::engine::debug::{palette, Color, DebugDraw, Layer};
use manifold_lab::engine::math::Aabb;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;

/// Poses drawn along each sweep between start and end.
const GHOSTS: usize = 6;
/// The label of the relative translation's ray, and its distance past the ray's tip.
pub const RAY_LABEL: &str = "dB - dA";
const RAY_LABEL_GAP: f32 = 0.3;

fn color(body: usize) -> Color {
    if body == 0 {
        palette::MINKOWSKI_EDGE_A
    } else {
        palette::MINKOWSKI_EDGE_B
    }
}

pub fn draw(lab: &ToiLab, app: &Stage, d: &mut dyn DebugDraw) {
    let input = lab.spec.input();
    let px = app.camera.scale(&app.viewport);
    for (body, proxy, sweep) in [(0, &input.proxy_a, &input.sweep_a), (1, &input.proxy_b, &input.sweep_b)] {
        let c = color(body);
        for k in 1..GHOSTS {
            let xf = sweep.transform(k as f32 / GHOSTS as f32);
            draw_proxy(d, Layer::Shape, proxy, &xf, c.with_alpha(0.0), c.with_alpha(0.18));
        }
        draw_proxy(d, Layer::Shape, proxy, &sweep.transform(0.0), c.with_alpha(0.3), c);
        draw_proxy(d, Layer::Shape, proxy, &sweep.transform(1.0), c.with_alpha(0.08), c.with_alpha(0.6));
        d.arrow(Layer::Motion, sweep.c1, sweep.c2, c.with_alpha(0.7));
        let b = lab.body(body);
        let label = if body == 0 { "A" } else { "B" };
        d.text(Layer::Label, b.start.transform().apply(b.shape.shape().mass_data(1.0).center), label, c);
        let h = handle(lab, body, px);
        let center = sweep.transform(1.0).apply(sweep.local_center);
        d.segment(Layer::Handle, center, h, c.with_alpha(0.6));
        d.circle(Layer::Handle, h, HANDLE_RADIUS_PX * px, c.with_alpha(0.2), c);
    }
    if lab.trace.steps() > 0 {
        let last = lab.trace.steps() - 1;
        lab.trace.draw_step(lab.step.unwrap_or(last).min(last), d);
    }
    let r = lab.result();
    if r.is_hit() {
        let (xa, xb) = input.transforms(r.t);
        for (proxy, xf) in [(&input.proxy_a, xa), (&input.proxy_b, xb)] {
            draw_proxy(d, Layer::Contact, proxy, &xf, palette::WINNER.with_alpha(0.0), palette::WINNER);
        }
        d.point(Layer::Contact, r.point, 10.0, palette::WINNER);
        d.arrow(Layer::Normal, r.point, r.point + 0.6 * r.normal, palette::NORMAL);
        d.text(Layer::Contact, r.point - 0.4 * r.normal, &format!("impact at t = {:.4}", Num(r.t)), palette::WINNER);
    }
}

/// The difference at the start rotations (the casts hold them) and the ray of the relative
/// motion: the shapes touch when the ray `t·(dB − dA)` from the origin enters A − B.
fn config(lab: &ToiLab) -> (MinkowskiDifference, Vec2) {
    let input = lab.spec.input();
    let (xa, xb) = input.transforms(0.0);
    let pa = Proxy::from_shape(&lab.spec.a.shape.shape(), &xa, Vec2::ZERO);
    let pb = Proxy::from_shape(&lab.spec.b.shape.shape(), &xb, Vec2::ZERO);
    let ray = input.sweep_b.translation() - input.sweep_a.translation();
    (MinkowskiDifference::new(&pa, &pb), ray)
}

/// A relative translation shorter than this part of the difference's size is no motion: the
/// ray would be a dot at the origin, and its label would name the distance arrow beside it.
const NEGLIGIBLE_RAY: f32 = 1e-4;

/// Whether the relative translation `ray` is too short to draw against `md`.
fn negligible(md: &MinkowskiDifference, ray: Vec2) -> bool {
    let size = md.vertices.iter().fold(md.radius, |m, v| m.max(v.abs().max_element()));
    let length = ray.length();
    length.is_nan() || length <= NEGLIGIBLE_RAY * size.max(f32::MIN_POSITIVE)
}

/// Whether the shapes move relative to each other (else the linear cast has no ray).
pub fn has_ray(lab: &ToiLab) -> bool {
    let (md, ray) = config(lab);
    !negligible(&md, ray)
}

/// Configuration space's extent: the difference, the origin and the ray.
pub fn config_bounds(lab: &ToiLab) -> Aabb {
    let (md, ray) = config(lab);
    let r = Vec2::splat(md.radius + 0.3);
    let mut bb = Aabb::new(-r, r).union(&Aabb::new(ray - r, ray + r));
    for v in &md.vertices {
        bb = bb.union(&Aabb::new(*v - r, *v + r));
    }
    bb
}

/// The difference, the ray from the origin (none without relative motion), and where the
/// linear cast hit it: the point and the edge of A − B it entered through. The ray's label
/// sits past its tip, on the ray's line, so it names the ray and not the distance arrow that
/// also starts at the origin.
pub fn draw_config(lab: &ToiLab, d: &mut dyn DebugDraw) {
    let (md, ray) = config(lab);
    md.draw(d, Vec2::ZERO, 1.0);
    if !negligible(&md, ray) {
        d.arrow(Layer::Motion, Vec2::ZERO, ray, palette::SEARCH_DIRECTION);
        let past_tip = ray + RAY_LABEL_GAP * ray.normalize();
        d.text(Layer::Motion, past_tip, RAY_LABEL, palette::SEARCH_DIRECTION);
    }
    let r = lab.result();
    if r.is_hit() {
        let hit = r.t * ray;
        let nearest = md.edges.iter().min_by(|a, b| {
            let dist = |e: &manifold_lab::engine::collide::minkowski::MinkowskiEdge| {
                let s = e.end - e.start;
                let u = ((hit - e.start).dot(s) / s.length_squared().max(1e-12)).clamp(0.0, 1.0);
                (e.start + u * s).distance(hit)
            };
            dist(a).total_cmp(&dist(b))
        });
        if let Some(e) = nearest {
            d.segment(Layer::Polytope, e.start, e.end, palette::WINNER);
            d.text(Layer::Polytope, 0.5 * (e.start + e.end) + 0.3 * e.normal, &e.label(), palette::WINNER);
        }
        d.point(Layer::Contact, hit, 9.0, palette::WINNER);
        d.text(Layer::Contact, hit - 0.3 * ray.normalize_or_zero(), &format!("t = {:.4}", Num(r.t)), palette::WINNER);
    }
}
