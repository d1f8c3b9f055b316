//! The time-of-impact trace: every iteration of a method as plain data (the time examined,
//! both poses, the closest or witness points and their distance, the separating axis, the
//! method's bound and the advance it took), and a picture of iteration `k`: both shapes at
//! `t_k` over faint ghosts of the sweep's ends, the points, the axis and the distance.

use super::{ToiInput, ToiMethod, ToiOutput, ToiState};
use crate::engine::collide::support::draw_proxy;
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::{left_perp, Transform};
use crate::engine::number::Num;
use crate::engine::trace::Trace;
use glam::Vec2;
use serde::Serialize;

/// What an iteration did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ToiStepKind {
    /// A distance query at `t` (conservative advancement, the root finder's outer loop, the
    /// linear cast's start) or a ray-cast iteration at `t`.
    Distance,
    /// Root finder: the deepest points on the separating axis at `t` (its `t2`), found to be
    /// closer than the target, so the root of their separation is searched in `[t1, t2]`.
    PushBack,
    /// The final configuration, with the state reached.
    Done(ToiState),
}

/// One iteration. Points and axis are in world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ToiStep {
    pub kind: ToiStepKind,
    /// The time this iteration examines.
    pub t: f32,
    pub xf_a: Transform,
    pub xf_b: Transform,
    /// Closest points of the rounded shapes (for `PushBack`, the witness points on the axis).
    pub point_a: Vec2,
    pub point_b: Vec2,
    /// Distance between the rounded shapes (negative when they overlap); for `PushBack`, the
    /// separation of the witness points along the axis less the radii.
    pub distance: f32,
    /// The separating axis or normal, unit, from A to B (zero if none).
    pub axis: Vec2,
    /// The method's bound: conservative advancement's closing-speed bound (metres per unit
    /// `t`: relative speed along the axis plus |ω|·r_max of each shape); the ray casts'
    /// closing speed along the axis; the root finder's separation of the witness pair at
    /// `t1` (the bracket's left end, metres).
    pub bound: f32,
    /// How far this iteration moved the safe time forward.
    pub advance: f32,
}

/// Every iteration of one time-of-impact run, with its input and result.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ToiTrace {
    pub method: Option<ToiMethod>,
    pub input: Option<ToiInput>,
    pub steps: Vec<ToiStep>,
    pub result: Option<ToiOutput>,
}

crate::engine::trace::recorded_steps!(ToiTrace, ToiStep);

impl ToiTrace {
    pub fn new() -> ToiTrace {
        ToiTrace::default()
    }

    /// Empties the trace for a new run of `method` on `input`.
    pub fn clear(&mut self, method: ToiMethod, input: &ToiInput) {
        self.method = Some(method);
        self.input = Some(*input);
        self.steps.clear();
        self.result = None;
    }
}

impl Trace for ToiTrace {
    fn steps(&self) -> usize {
        self.steps.len()
    }

    fn step_label(&self, k: usize) -> String {
        let Some(step) = self.steps.get(k.min(self.steps.len().saturating_sub(1))) else { return String::new() };
        let what = match step.kind {
            ToiStepKind::Distance => "distance".to_string(),
            ToiStepKind::PushBack => "push back".to_string(),
            ToiStepKind::Done(state) => format!("{state:?}"),
        };
        format!("iteration {} of {}: {what} at t = {:.4}", k + 1, self.steps.len(), Num(step.t))
    }

    /// Draws iteration `k` (clamped to the last): the sweep's start and end poses faint and
    /// the path of each centre (`Layer::Motion`), both shapes at `t_k` (`Layer::Motion`; A red,
    /// B green as the article's Minkowski edges), the closest points and the gap between them
    /// (`Layer::Contact`), the separating axis through them (`Layer::SatAxis`), and a label
    /// with `k`, `t` and the distance.
    fn draw_step(&self, k: usize, d: &mut dyn DebugDraw) {
        let (Some(input), Some(last)) = (&self.input, self.steps.len().checked_sub(1)) else { return };
        let k = k.min(last);
        let step = &self.steps[k];
        let (ca, cb) = (palette::MINKOWSKI_EDGE_A, palette::MINKOWSKI_EDGE_B);
        if d.wants(Layer::Motion) {
            let t_max = input.t_max.clamp(0.0, 1.0);
            for (proxy, sweep, color) in [(&input.proxy_a, &input.sweep_a, ca), (&input.proxy_b, &input.sweep_b, cb)] {
                for t in [0.0, t_max] {
                    draw_proxy(
                        d,
                        Layer::Motion,
                        proxy,
                        &sweep.transform(t),
                        color.with_alpha(0.0),
                        color.with_alpha(0.3),
                    );
                }
                d.segment(Layer::Motion, sweep.c1, sweep.c1 + t_max * sweep.translation(), color.with_alpha(0.5));
            }
            draw_proxy(d, Layer::Motion, &input.proxy_a, &step.xf_a, ca.with_alpha(0.25), ca);
            draw_proxy(d, Layer::Motion, &input.proxy_b, &step.xf_b, cb.with_alpha(0.25), cb);
            let what = match step.kind {
                ToiStepKind::Distance => String::new(),
                ToiStepKind::PushBack => " (push back)".to_string(),
                ToiStepKind::Done(state) => format!(" {state:?}"),
            };
            let label =
                format!("{}/{}: t = {:.5}, d = {:.5} m{what}", k + 1, last + 1, Num(step.t), Num(step.distance));
            let top = step.xf_a.p.max(step.xf_b.p) + Vec2::new(0.0, 0.5);
            d.text(Layer::Motion, top, &label, palette::TEXT);
        }
        if d.wants(Layer::Contact) {
            d.point(Layer::Contact, step.point_a, 6.0, palette::CONTACT_NEW);
            d.point(Layer::Contact, step.point_b, 6.0, palette::CONTACT_NEW);
            d.segment(Layer::Contact, step.point_a, step.point_b, palette::CONTACT_NEW);
        }
        if d.wants(Layer::SatAxis) && step.axis != Vec2::ZERO {
            let mid = 0.5 * (step.point_a + step.point_b);
            let reach = 0.5 * (step.xf_a.p - step.xf_b.p).length().max(1.0);
            let color = palette::SEARCH_DIRECTION;
            d.segment(Layer::SatAxis, mid - reach * step.axis, mid + reach * step.axis, color.with_alpha(0.6));
            d.arrow(Layer::SatAxis, step.point_a, step.point_a + 0.5 * reach * step.axis, color);
            let across = 0.1 * reach * left_perp(step.axis);
            d.segment(Layer::SatAxis, step.point_a - across, step.point_a + across, color);
            d.segment(Layer::SatAxis, step.point_b - across, step.point_b + across, color);
        }
    }
}
