//! A record of the world's continuous collision (004 article, "Continuous": "the system
//! estimates the point and time of the collision so that when frame 2 does arrive the objects
//! are not intersecting"): every time a fast body is moved back to its time of impact
//! (`world/ccd.rs`), the pass keeps what it found, the body and what it hit, the body's pose at
//! the start of the step, at the end of the sub-steps and at impact, the fraction of the step,
//! and the point and normal of impact. The log holds the events of the last
//! [`crate::engine::solver::SolverParams::toi_event_steps`] steps, for drawing
//! ([`World::draw_toi_events`], `Layer::ToiEvent`) and for opening one in the time-of-impact lab
//! with the poses the world swept. It is a record only: nothing in the step reads it.

use super::World;
use crate::engine::collide::support::{draw_proxy, Proxy};
use crate::engine::collide::toi::{local_proxy, Sweep};
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::Transform;
use crate::engine::number::Num;
use crate::engine::shape::hull::convex_hull;
use crate::engine::shape::Shape;
use glam::Vec2;
use serde::Serialize;
use std::collections::VecDeque;

/// One time of impact the continuous pass acted on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ToiEvent {
    /// The step it happened in (the world's `step_count` after that step).
    pub step: u64,
    /// The swept body and the body it hit (`other` stood still at `other_xf` during the sweep).
    pub body: usize,
    pub other: usize,
    /// The shapes as they were swept: the body's (its shrunk core when `core`) and the other's.
    pub shape: Shape,
    pub other_shape: Shape,
    /// The body's core in its body frame when the impact was found with it (the whole shape
    /// touched at the start of the step): see `world/ccd.rs`.
    pub core: Option<Proxy>,
    /// The body's local centre of mass, about which the sweep turns.
    pub local_center: Vec2,
    /// The body origin at the start of the step, where the sub-steps left it, and at impact.
    pub start: Transform,
    pub end: Transform,
    pub impact: Transform,
    pub other_xf: Transform,
    /// The fraction of the step at which the body was stopped.
    pub fraction: f32,
    /// The point of impact and the normal there, from `other` to `body`.
    pub point: Vec2,
    pub normal: Vec2,
    /// The distance between the swept cores that counted as impact, and the tolerance on it
    /// (Box2D's, or for a held core half its distance at the start: see `world/ccd.rs`).
    pub target: f32,
    pub tolerance: f32,
    /// The end of the interval searched: the earliest impact on another body found before
    /// this one (1 when none was).
    pub t_max: f32,
}

impl ToiEvent {
    /// The body's sweep over the step, as the continuous pass swept it (in world space).
    pub fn sweep(&self) -> Sweep {
        Sweep::between(self.local_center, &self.start, &self.end)
    }

    /// The proxy that was swept: the core when the impact was found with it, else the shape.
    pub fn swept_proxy(&self) -> Proxy {
        self.core.unwrap_or_else(|| local_proxy(&self.shape))
    }
}

/// The events of the last steps, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToiEventLog {
    events: VecDeque<ToiEvent>,
}

impl ToiEventLog {
    /// Adds an event.
    pub fn push(&mut self, e: ToiEvent) {
        self.events.push_back(e);
    }

    /// Forgets the events older than the last `steps` steps before `step` (all when 0).
    pub fn keep_steps(&mut self, step: u64, steps: u32) {
        while self.events.front().is_some_and(|e| e.step + u64::from(steps) <= step) {
            self.events.pop_front();
        }
    }

    pub fn events(&self) -> impl ExactSizeIterator<Item = &ToiEvent> + DoubleEndedIterator {
        self.events.iter()
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    pub fn get(&self, k: usize) -> Option<&ToiEvent> {
        self.events.get(k)
    }

    pub fn clear(&mut self) {
        self.events.clear();
    }

    /// The event whose point of impact is nearest `p`, within `radius`: its index. Ties go to
    /// the newest.
    pub fn event_at(&self, p: Vec2, radius: f32) -> Option<usize> {
        let d = |k: usize| self.events[k].point.distance(p);
        (0..self.events.len()).rev().filter(|&k| d(k) <= radius).min_by(|&i, &j| d(i).total_cmp(&d(j)))
    }
}

/// Points around each rounded core point, for the outline of a swept hull.
const ROUND_SAMPLES: usize = 12;

/// The convex hull of `proxy` at both poses: the region the body swept between them, were it
/// moving without turning (the straight-line hull the article's figures show). Rounded shapes
/// contribute a ring of points around each core point.
pub fn swept_hull(proxy: &Proxy, from: &Transform, to: &Transform) -> Vec<Vec2> {
    let mut pts = Vec::with_capacity(2 * proxy.count * ROUND_SAMPLES.max(1));
    for xf in [from, to] {
        for q in proxy.points() {
            let c = xf.apply(*q);
            if proxy.radius > 0.0 {
                pts.extend((0..ROUND_SAMPLES).map(|k| {
                    let a = std::f32::consts::TAU * k as f32 / ROUND_SAMPLES as f32;
                    c + proxy.radius * Vec2::new(a.cos(), a.sin())
                }));
            } else {
                pts.push(c);
            }
        }
    }
    convex_hull(&pts).unwrap_or_default()
}

impl World {
    /// The recorded time-of-impact events (`Layer::ToiEvent`): for each, the swept hull from the
    /// start pose to the pose at impact (faint), the start pose as a ghost, the pose at impact
    /// outlined, and the point and normal of impact with the fraction beside it.
    pub fn draw_toi_events(&self, d: &mut dyn DebugDraw) {
        if !d.wants(Layer::ToiEvent) {
            return;
        }
        let c = palette::TOI_EVENT;
        for e in self.toi_events.events() {
            let proxy = e.swept_proxy();
            let hull = swept_hull(&proxy, &e.start, &e.impact);
            if hull.len() >= 3 {
                d.polygon(Layer::ToiEvent, &hull, c.with_alpha(0.08), c.with_alpha(0.35));
            }
            draw_proxy(d, Layer::ToiEvent, &proxy, &e.start, c.with_alpha(0.0), c.with_alpha(0.45));
            draw_proxy(d, Layer::ToiEvent, &proxy, &e.impact, c.with_alpha(0.2), c);
            d.point(Layer::ToiEvent, e.point, 7.0, palette::WINNER);
            d.arrow(Layer::ToiEvent, e.point, e.point + 0.5 * e.normal, palette::NORMAL);
            d.text(Layer::ToiEvent, e.point + 0.55 * e.normal, &format!("t={:.3}", Num(e.fraction)), c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::debug::OnLayer;
    use crate::engine::debug::{DebugList, LayerSet};

    fn event(step: u64, point: Vec2) -> ToiEvent {
        let shape = Shape::circle(0.5).unwrap();
        let xf = Transform::new(Vec2::ZERO, 0.0);
        ToiEvent {
            step,
            body: 1,
            other: 0,
            shape,
            other_shape: shape,
            core: None,
            local_center: Vec2::ZERO,
            start: xf,
            end: Transform::new(Vec2::new(4.0, 0.0), 0.0),
            impact: Transform::new(Vec2::new(2.0, 0.0), 0.0),
            other_xf: xf,
            fraction: 0.5,
            point,
            normal: Vec2::X,
            target: 0.495,
            tolerance: 0.00125,
            t_max: 1.0,
        }
    }

    #[test]
    fn the_log_keeps_the_last_steps_and_picks_the_nearest_point() {
        let mut log = ToiEventLog::default();
        for step in 1..=10 {
            log.push(event(step, Vec2::new(step as f32, 0.0)));
        }
        log.keep_steps(10, 3);
        assert_eq!(log.events().map(|e| e.step).collect::<Vec<_>>(), [8, 9, 10]);
        assert_eq!(log.event_at(Vec2::new(9.1, 0.0), 0.2), Some(1));
        assert_eq!(log.event_at(Vec2::new(5.0, 0.0), 0.2), None);
        log.keep_steps(10, 0);
        assert!(log.is_empty());
    }

    #[test]
    fn a_circle_swept_along_x_has_the_stadium_hull() {
        let p = local_proxy(&Shape::circle(0.5).unwrap());
        let hull = swept_hull(&p, &Transform::new(Vec2::ZERO, 0.0), &Transform::new(Vec2::new(3.0, 0.0), 0.0));
        let (lo, hi) = hull.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), q| (lo.min(*q), hi.max(*q)));
        assert!((lo - Vec2::new(-0.5, -0.5)).length() < 1e-4 && (hi - Vec2::new(3.5, 0.5)).length() < 1e-4);
    }

    #[test]
    fn events_draw_only_on_their_layer() {
        let mut w = World::new(Default::default());
        w.toi_events.push(event(1, Vec2::new(2.5, 0.0)));
        let mut off = DebugList::new(LayerSet::of(&[Layer::Shape]));
        w.draw_toi_events(&mut off);
        assert!(off.cmds.is_empty());
        let mut on = DebugList::new(LayerSet::of(&[Layer::ToiEvent]));
        w.draw_toi_events(&mut on);
        assert!(on.cmds.len() > 4 && on.cmds.iter().all(|c| c.layer() == Layer::ToiEvent));
    }
}
