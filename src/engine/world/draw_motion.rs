//! Motion drawn in the world: one arrow per body on each motion layer (003 article, "Protip:
//! How to be a Physics Dev – Debug Rendering": the better the debug draw, the better the
//! physics developer). From each dynamic or kinematic body's centre of mass: its linear
//! velocity, its angular velocity as an arc arrow around the centre, and the forces of the
//! last step from [`World::all_body_forces`] (weight, contacts, joints, buoyancy, the mouse's
//! pull), each on its own `Layer` so a checkbox shows one kind at a time.
//!
//! Arrows are `DrawOptions::motion` metres per unit long. One shorter than [`ArrowCap::MIN_PX`]
//! pixels is left out (a body at rest draws no velocity); one longer than
//! [`ArrowCap::MAX_PX`] is cut there and crossed by a break mark, two slanted ticks, as a
//! technical drawing marks a dimension not to scale.

use super::motion::BodyForces;
use super::World;
use crate::engine::body::{Body, BodyKind};
use crate::engine::debug::{palette, Color, DebugDraw, DrawOptions, Layer};
use crate::engine::math::left_perp;
use crate::engine::solver::joints::draw::arc_arrow;
use glam::Vec2;
use std::f32::consts::PI;

/// The shortest and longest arrow drawn, and the break mark's size, world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArrowCap {
    pub min: f32,
    pub max: f32,
    pub mark: f32,
}

impl ArrowCap {
    /// Shorter arrows are skipped, pixels.
    pub const MIN_PX: f32 = 3.0;
    /// Longer arrows are cut to this and marked, pixels.
    pub const MAX_PX: f32 = 240.0;
    /// Half the length of a break mark's tick, pixels.
    pub const MARK_PX: f32 = 6.0;
    /// The longest arc an angular velocity sweeps, radians (past it, a break mark).
    pub const MAX_SWEEP: f32 = 1.75 * PI;

    /// The limits in world units for a view of `opts.pixel_size` per pixel; without one (a
    /// headless drawing), 1 mm, 10 m and 5 cm.
    pub fn for_view(opts: &DrawOptions) -> ArrowCap {
        let px = opts.pixel_size;
        if px > 0.0 {
            ArrowCap { min: Self::MIN_PX * px, max: Self::MAX_PX * px, mark: Self::MARK_PX * px }
        } else {
            ArrowCap { min: 1e-3, max: 10.0, mark: 0.05 }
        }
    }

    /// Draws `v` from `from` on `layer`: nothing when shorter than `min` (or not finite), cut to
    /// `max` with a break mark when longer. Returns whether it drew.
    pub fn arrow(&self, d: &mut dyn DebugDraw, layer: Layer, from: Vec2, v: Vec2, color: Color) -> bool {
        let len = v.length();
        if !(len >= self.min && len.is_finite()) {
            return false;
        }
        if len <= self.max {
            d.arrow(layer, from, from + v, color);
            return true;
        }
        let dir = v / len;
        d.arrow(layer, from, from + self.max * dir, color);
        self.break_mark(d, layer, from + 0.7 * self.max * dir, dir, color);
        true
    }

    /// Two parallel ticks slanted across a line of direction `dir` at `at`.
    fn break_mark(&self, d: &mut dyn DebugDraw, layer: Layer, at: Vec2, dir: Vec2, color: Color) {
        let (s, side) = (self.mark, left_perp(dir));
        for k in [-0.4, 0.4] {
            let c = at + k * s * dir;
            d.segment(layer, c - s * side - 0.5 * s * dir, c + s * side + 0.5 * s * dir, color);
        }
    }

    /// Body `b`'s angular velocity as an arc arrow around its centre of mass, at 0.6 of its
    /// bounding radius, from its angle line, sweeping `scale · ω` radians (the rim moves
    /// `ω·r`; the arc is `scale · ω·r` long), at most [`Self::MAX_SWEEP`] with a break mark.
    pub fn spin(&self, d: &mut dyn DebugDraw, b: &Body, scale: f32, color: Color) -> bool {
        let radius = (0.6 * b.bounding_radius()).clamp(self.min, self.max);
        let sweep = scale * b.angular_velocity;
        if !(sweep.abs() * radius >= self.min && sweep.is_finite()) {
            return false;
        }
        let capped = sweep.clamp(-Self::MAX_SWEEP, Self::MAX_SWEEP);
        arc_arrow(d, Layer::AngularVelocity, b.center, radius, b.angle, capped, color);
        if capped != sweep {
            let at = b.angle + 0.7 * capped;
            let tangent = left_perp(Vec2::from_angle(at)) * sweep.signum();
            self.break_mark(d, Layer::AngularVelocity, b.center + radius * Vec2::from_angle(at), tangent, color);
        }
        true
    }
}

/// Which of a body's forces a layer draws.
type Pick = fn(&BodyForces) -> Vec2;

/// The force layers, with the number each draws and its colour.
const FORCES: [(Layer, Pick, Color); 5] = [
    (Layer::Gravity, |f| f.gravity, palette::GRAVITY),
    (Layer::ContactForce, |f| f.contact, palette::CONTACT_FORCE),
    (Layer::JointForce, |f| f.joint, palette::JOINT_FORCE),
    (Layer::BuoyancyForce, |f| f.buoyancy, palette::BUOYANCY_FORCE),
    (Layer::AppliedForce, |f| f.applied, palette::APPLIED_FORCE),
];

impl World {
    /// Each moving body's velocity, angular velocity and forces, on the motion layers wanted.
    pub(super) fn draw_motion(&self, d: &mut dyn DebugDraw, opts: &DrawOptions) {
        if !Layer::MOTION.iter().any(|&l| d.wants(l)) {
            return;
        }
        let cap = ArrowCap::for_view(opts);
        let wants_forces = FORCES.iter().any(|(l, ..)| d.wants(*l));
        let forces = if wants_forces { self.all_body_forces() } else { Vec::new() };
        for (i, b) in self.bodies.iter().enumerate() {
            if b.kind == BodyKind::Static || opts.view.is_some_and(|v| !v.contains_point(b.center)) {
                continue;
            }
            if d.wants(Layer::Velocity) {
                cap.arrow(d, Layer::Velocity, b.center, opts.motion.velocity * b.linear_velocity, palette::VELOCITY);
            }
            if d.wants(Layer::AngularVelocity) {
                cap.spin(d, b, opts.motion.velocity, palette::ANGULAR_VELOCITY);
            }
            let Some(f) = forces.get(i) else { continue };
            for (layer, force, color) in FORCES {
                if d.wants(layer) {
                    cap.arrow(d, layer, b.center, opts.motion.force * force(f), color);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::body::BodyDef;
    use crate::engine::debug::{DebugList, DrawCmd, LayerSet, OnLayer};
    use crate::engine::shape::Shape;
    use crate::engine::solver::joints::{JointBase, RevoluteJoint};
    use crate::engine::solver::Joint;
    use crate::engine::water::{Water, WaterParams};

    /// A world with every force at work: a box resting on the ground in water, a pendulum
    /// swinging on a joint, a spinning ball held by the mouse.
    fn busy_world() -> World {
        let mut w = World::new(Default::default());
        let ground = BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(10.0, 0.5)).unwrap(), Vec2::ZERO);
        let g = w.create_body(&ground);
        let dynamic = |s: Shape, at: Vec2| BodyDef::new(BodyKind::Dynamic, s, at);
        w.create_body(&dynamic(Shape::make_box(Vec2::new(0.5, 0.5)).unwrap(), Vec2::new(-3.0, 1.0)));
        let bob = w.create_body(&dynamic(Shape::circle(0.2).unwrap(), Vec2::new(2.0, 5.0)));
        w.add_joint(Joint::Revolute(RevoluteJoint::new(JointBase::at(&w.bodies, g, bob, Vec2::new(0.0, 5.0)))))
            .unwrap();
        let mut ball = dynamic(Shape::circle(0.4).unwrap(), Vec2::new(5.0, 4.0));
        ball.angular_velocity = 3.0;
        let ball = w.create_body(&ball);
        w.set_water(Some(Water::new(WaterParams::flat(1.2, (-5.0, -1.0)))));
        w.start_mouse_joint(ball, Vec2::new(5.0, 4.2));
        for _ in 0..20 {
            w.step();
        }
        w
    }

    #[test]
    fn each_motion_layer_draws_only_its_own_arrows() {
        let w = busy_world();
        for layer in Layer::MOTION {
            let mut list = DebugList::new(LayerSet::of(&[layer]));
            w.debug_draw(&mut list, &DrawOptions::default());
            assert!(!list.cmds.is_empty(), "{layer:?} drew nothing");
            assert!(list.cmds.iter().all(|c| c.layer() == layer), "{layer:?} drew on another layer");
        }
        // All on at once: each layer draws what it drew alone, and the static ground none.
        let mut all = DebugList::new(LayerSet::of(&Layer::MOTION));
        w.debug_draw(&mut all, &DrawOptions::default());
        let arrows_from = |l: Layer| all.on(l).filter(|c| matches!(c, DrawCmd::Arrow { .. })).count();
        assert_eq!(arrows_from(Layer::Gravity), 3, "one weight per dynamic body");
        assert_eq!(arrows_from(Layer::AppliedForce), 1, "the mouse holds one body");
        assert_eq!(arrows_from(Layer::JointForce), 1, "the pendulum's bob");
        assert_eq!(arrows_from(Layer::BuoyancyForce), 1, "the box in the water");
        // Every straight arrow starts at a moving body's centre of mass, never the ground's.
        let straight = all.cmds.iter().filter(|c| c.layer() != Layer::AngularVelocity);
        assert!(straight.into_iter().all(|c| match c {
            DrawCmd::Arrow { from, .. } => w.bodies[1..].iter().any(|b| b.center == *from),
            _ => true,
        }));
        // Off by default: a default drawing has none of them.
        let mut plain = DebugList::new(LayerSet::default());
        w.debug_draw(&mut plain, &DrawOptions::default());
        assert!(plain.cmds.iter().all(|c| !Layer::MOTION.contains(&c.layer())));
    }

    #[test]
    fn arrows_follow_the_scale_skip_tiny_ones_and_mark_absurd_ones() {
        let w = busy_world();
        let weight = |scale: f32, px: f32| {
            let mut list = DebugList::new(LayerSet::of(&[Layer::Gravity]));
            let motion = crate::engine::debug::MotionScales { force: scale, velocity: 0.1 };
            w.debug_draw(&mut list, &DrawOptions { motion, pixel_size: px, ..Default::default() });
            list.cmds
        };
        let box_weight = w.bodies[1].mass * w.params.gravity;
        let cmds = weight(0.01, 0.0);
        let drawn = cmds.iter().find_map(|c| match c {
            DrawCmd::Arrow { from, to, .. } if *from == w.bodies[1].center => Some(*to - *from),
            _ => None,
        });
        assert!(drawn.is_some_and(|v| v.distance(0.01 * box_weight) < 1e-6), "metres per newton: {drawn:?}");
        // 1e-6 m/N: every arrow is shorter than 3 pixels of 1 mm and none is drawn.
        assert!(weight(1e-6, 1e-3).is_empty());
        // 10 m/N at 1 cm per pixel: cut to 240 px = 2.4 m, each with a break mark (2 ticks).
        let big = weight(10.0, 0.01);
        let arrows: Vec<f32> = big
            .iter()
            .filter_map(|c| match c {
                DrawCmd::Arrow { from, to, .. } => Some(from.distance(*to)),
                _ => None,
            })
            .collect();
        assert_eq!(arrows.len(), 3);
        assert!(arrows.iter().all(|l| (l - 2.4).abs() < 1e-4), "{arrows:?}");
        assert_eq!(big.iter().filter(|c| matches!(c, DrawCmd::Segment { .. })).count(), 6);
    }

    #[test]
    fn angular_velocity_is_an_arc_about_the_centre_of_mass() {
        let w = busy_world();
        let ball = &w.bodies[3];
        let mut list = DebugList::new(LayerSet::of(&[Layer::AngularVelocity]));
        w.debug_draw(&mut list, &DrawOptions::default());
        let r = 0.6 * ball.bounding_radius();
        let on_arc = |p: Vec2| (p.distance(ball.center) - r).abs() < 1e-4;
        let ends: Vec<(Vec2, Vec2)> = list
            .cmds
            .iter()
            .filter_map(|c| match c {
                DrawCmd::Segment { a, b, .. } | DrawCmd::Arrow { from: a, to: b, .. } => Some((*a, *b)),
                _ => None,
            })
            .filter(|(a, b)| on_arc(*a) && on_arc(*b))
            .collect();
        assert!(ends.len() >= 2, "the ball's arc: {:?}", list.cmds);
        // The arc turns the way the ball spins: its head ends counter-clockwise of its start
        // for ω > 0.
        let (start, head) = (ends[0].0 - ball.center, ends.last().unwrap().1 - ball.center);
        assert_eq!(crate::engine::math::cross(start, head).signum(), ball.angular_velocity.signum());
    }
}
