//! Joint pictures through `DebugDraw` (after Box2D v3's `b2DrawJoint` and friends), on
//! `Layer::Joint`: anchors and the lines from each centre of mass to its anchor, revolute
//! reference lines and limit arcs, slider axes with limit ticks, springs as zig-zags, motor
//! directions as arrows; the reaction force as an arrow on `Layer::Reaction`.

use super::{AngleJoint, DistanceJoint, Joint, MouseJoint, PrismaticJoint, RevoluteJoint, WheelJoint};
use crate::engine::body::Body;
use crate::engine::debug::{palette, Color, DebugDraw, Layer};
use crate::engine::math::{left_perp, Transform};
use glam::Vec2;

/// Sizes of joint pictures.
#[derive(Clone, Copy, Debug)]
pub struct JointStyle {
    /// Radius of revolute circles and arcs, length of axis lines and ticks, metres.
    pub size: f32,
    /// Metres of arrow per newton of reaction force.
    pub force_scale: f32,
    pub highlight: bool,
}

/// A zig-zag spring from `a` to `b`, `width` wide.
pub fn draw_spring(d: &mut dyn DebugDraw, a: Vec2, b: Vec2, width: f32, color: Color) {
    let along = b - a;
    let n = left_perp(along.normalize_or_zero()) * (0.5 * width);
    let coils = 8;
    let mut prev = a;
    for k in 1..=2 * coils {
        let t = k as f32 / (2 * coils + 1) as f32;
        let side = if k % 2 == 1 { n } else { -n };
        let p = a + t * along + side;
        d.segment(Layer::Joint, prev, p, color);
        prev = p;
    }
    d.segment(Layer::Joint, prev, b, color);
}

/// An arc of `radius` about `center` from angle `from` to `to` (radians, world).
pub fn draw_arc(d: &mut dyn DebugDraw, center: Vec2, radius: f32, from: f32, to: f32, color: Color) {
    let steps = (((to - from).abs() / 0.2).ceil() as usize).clamp(2, 48);
    let mut prev = center + radius * Vec2::from_angle(from);
    for k in 1..=steps {
        let p = center + radius * Vec2::from_angle(from + (to - from) * k as f32 / steps as f32);
        d.segment(Layer::Joint, prev, p, color);
        prev = p;
    }
}

fn ticks(d: &mut dyn DebugDraw, origin: Vec2, axis: Vec2, at: &[(f32, Color)], size: f32) {
    let perp = left_perp(axis) * (0.5 * size);
    for &(t, c) in at {
        let p = origin + t * axis;
        d.segment(Layer::Joint, p - perp, p + perp, c);
    }
}

/// A motor arrow: along `axis` for a slider, or a curved arrow about `center` for a turn.
fn motor_turn(d: &mut dyn DebugDraw, center: Vec2, radius: f32, start: f32, speed: f32) {
    if speed == 0.0 {
        return;
    }
    let sweep = 1.2 * speed.signum();
    draw_arc(d, center, radius, start, start + sweep, palette::JOINT_MOTOR);
    let tip = center + radius * Vec2::from_angle(start + sweep);
    let tangent = left_perp(Vec2::from_angle(start + sweep)) * speed.signum();
    d.arrow(Layer::Joint, tip - 0.3 * radius * tangent, tip + 0.05 * radius * tangent, palette::JOINT_MOTOR);
}

impl Joint {
    /// Draws the joint at the bodies' poses.
    pub fn draw(&self, d: &mut dyn DebugDraw, bodies: &[Body], inv_h: f32, style: &JointStyle) {
        let (fa, fb) = self.base().world_frames(bodies);
        let (a, b) = self.bodies();
        let color = if style.highlight { palette::SELECTED } else { palette::JOINT };
        let size = style.size;
        if d.wants(Layer::Joint) {
            d.segment(Layer::Joint, bodies[a].center, fa.p, color.with_alpha(0.5));
            d.segment(Layer::Joint, bodies[b].center, fb.p, color.with_alpha(0.5));
            self.draw_kind(d, &fa, &fb, bodies, color, size);
        }
        if d.wants(Layer::Reaction) {
            let r = self.reaction(bodies, inv_h);
            if r.force != Vec2::ZERO {
                d.arrow(Layer::Reaction, fb.p, fb.p + style.force_scale * r.force, palette::REACTION);
            }
            if r.torque != 0.0 {
                let sweep = (style.force_scale * r.torque).clamp(-3.0, 3.0);
                draw_reaction_arc(d, fb.p, 0.6 * size, sweep);
            }
        }
    }

    fn draw_kind(&self, d: &mut dyn DebugDraw, fa: &Transform, fb: &Transform, bodies: &[Body], c: Color, size: f32) {
        match self {
            Joint::Revolute(j) => draw_revolute(d, j, fa, fb, c, size),
            Joint::Prismatic(j) => draw_prismatic(d, j, fa, fb, c, size),
            Joint::Distance(j) => draw_distance(d, j, fa, fb, c, size),
            Joint::Weld(_) => {
                for (f, fc) in [(fa, c), (fb, palette::JOINT_REFERENCE)] {
                    let (x, y) = (f.q.x_axis() * size, f.q.y_axis() * (0.5 * size));
                    d.polygon(
                        Layer::Joint,
                        &[f.p - x - y, f.p + x - y, f.p + x + y, f.p - x + y],
                        fc.with_alpha(0.0),
                        fc,
                    );
                }
            }
            Joint::Wheel(j) => draw_wheel(d, j, fa, fb, c, size),
            Joint::Angle(j) => draw_angle(d, j, fa, fb, c, size, bodies),
        }
    }
}

/// The revolute joint: both frames' x axes, the limit's arc and ends, the spring's target and the motor's turn.
fn draw_revolute(d: &mut dyn DebugDraw, j: &RevoluteJoint, fa: &Transform, fb: &Transform, c: Color, size: f32) {
    let axis = fa.q.x_axis();
    d.circle(Layer::Joint, fb.p, size, Color::rgb(0, 0, 0).with_alpha(0.0), c);
    d.segment(Layer::Joint, fa.p, fa.p + size * axis, c.with_alpha(0.6));
    d.segment(Layer::Joint, fb.p, fb.p + size * fb.q.x_axis(), palette::JOINT_REFERENCE);
    if j.enable_limit {
        let base = fa.q.angle();
        draw_arc(d, fb.p, 0.8 * size, base + j.lower_angle, base + j.upper_angle, palette::JOINT_LIMIT);
        for (t, lc) in [(j.lower_angle, palette::JOINT_LOWER), (j.upper_angle, palette::JOINT_UPPER)] {
            d.segment(Layer::Joint, fb.p, fb.p + size * Vec2::from_angle(base + t), lc);
        }
    }
    if j.enable_spring && j.hertz > 0.0 {
        let target = fa.q.angle() + j.target_angle;
        d.segment(Layer::Joint, fb.p, fb.p + 1.2 * size * Vec2::from_angle(target), palette::JOINT_SPRING);
    }
    if j.enable_motor {
        motor_turn(d, fb.p, 1.3 * size, fb.q.angle(), j.motor_speed);
    }
    d.segment(Layer::Joint, fa.p, fb.p, c);
}

/// The prismatic joint: its axis, the limit's ticks, the spring to its target and the motor's push.
fn draw_prismatic(d: &mut dyn DebugDraw, j: &PrismaticJoint, fa: &Transform, fb: &Transform, c: Color, size: f32) {
    let axis = fa.q.x_axis();
    d.segment(Layer::Joint, fa.p, fb.p, c.with_alpha(0.6));
    if j.enable_limit {
        let (lo, hi) = (fa.p + j.lower_translation * axis, fa.p + j.upper_translation * axis);
        d.segment(Layer::Joint, lo, hi, c);
        ticks(
            d,
            fa.p,
            axis,
            &[(j.lower_translation, palette::JOINT_LOWER), (j.upper_translation, palette::JOINT_UPPER)],
            size,
        );
    } else {
        d.segment(Layer::Joint, fa.p - 2.0 * size * axis, fa.p + 2.0 * size * axis, c);
    }
    if j.enable_spring && j.hertz > 0.0 {
        draw_spring(d, fa.p + j.target_translation * axis, fb.p, 0.5 * size, palette::JOINT_SPRING);
    }
    if j.enable_motor && j.motor_speed != 0.0 {
        let dir = axis * j.motor_speed.signum();
        d.arrow(Layer::Joint, fb.p, fb.p + 1.5 * size * dir, palette::JOINT_MOTOR);
    }
    d.point(Layer::Joint, fa.p, 5.0, c);
    d.point(Layer::Joint, fb.p, 5.0, palette::JOINT_REFERENCE);
}

/// The distance joint: a rod or a spring between the anchors, the limit's ticks along it.
fn draw_distance(d: &mut dyn DebugDraw, j: &DistanceJoint, fa: &Transform, fb: &Transform, c: Color, size: f32) {
    let along = (fb.p - fa.p).normalize_or_zero();
    if j.is_soft() && j.hertz > 0.0 {
        draw_spring(d, fa.p, fb.p, 0.5 * size, palette::JOINT_SPRING);
    } else {
        d.segment(Layer::Joint, fa.p, fb.p, c);
    }
    if j.enable_limit {
        let mut at = vec![(j.min_length, palette::JOINT_LOWER)];
        if j.max_length < 1.0e6 {
            at.push((j.max_length, palette::JOINT_UPPER));
        }
        ticks(d, fa.p, along, &at, size);
    }
    d.point(Layer::Joint, fa.p, 5.0, c);
    d.point(Layer::Joint, fb.p, 5.0, c);
}

/// The wheel joint: its suspension axis, the spring, the limit's ticks and the motor's turn.
fn draw_wheel(d: &mut dyn DebugDraw, j: &WheelJoint, fa: &Transform, fb: &Transform, c: Color, size: f32) {
    let axis = fa.q.x_axis();
    d.segment(Layer::Joint, fa.p - 2.0 * size * axis, fa.p + 2.0 * size * axis, c.with_alpha(0.6));
    if j.enable_spring && j.hertz > 0.0 {
        draw_spring(d, fa.p, fb.p, 0.5 * size, palette::JOINT_SPRING);
    } else {
        d.segment(Layer::Joint, fa.p, fb.p, c);
    }
    if j.enable_limit {
        ticks(
            d,
            fa.p,
            axis,
            &[(j.lower_translation, palette::JOINT_LOWER), (j.upper_translation, palette::JOINT_UPPER)],
            size,
        );
    }
    if j.enable_motor {
        motor_turn(d, fb.p, size, fb.q.angle(), j.motor_speed);
    }
    d.point(Layer::Joint, fb.p, 5.0, c);
}

/// The article's angle constraint: both frames' x axes at B's anchor, the arc between them and the target direction.
fn draw_angle(
    d: &mut dyn DebugDraw,
    j: &AngleJoint,
    fa: &Transform,
    fb: &Transform,
    c: Color,
    size: f32,
    bodies: &[Body],
) {
    // The article's constraint: both frames' x axes at B's anchor, the arc
    // between them and the target direction.
    let (ca, cb) = (bodies[j.base.body_a].center, bodies[j.base.body_b].center);
    d.segment(Layer::Joint, ca, cb, c.with_alpha(0.35));
    let (from, to) = (fa.q.angle(), fb.q.angle());
    d.segment(Layer::Joint, fb.p, fb.p + size * Vec2::from_angle(from), c);
    d.segment(Layer::Joint, fb.p, fb.p + size * Vec2::from_angle(to), palette::JOINT_REFERENCE);
    d.segment(Layer::Joint, fb.p, fb.p + 1.2 * size * Vec2::from_angle(from + j.target_angle), palette::JOINT_SPRING);
    let rel = crate::engine::math::unwind_angle(to - from);
    draw_arc(d, fb.p, 0.7 * size, from, from + rel, c);
}

/// A curved arrow for a reaction torque, sweeping `sweep` radians.
fn draw_reaction_arc(d: &mut dyn DebugDraw, center: Vec2, radius: f32, sweep: f32) {
    arc_arrow(d, Layer::Reaction, center, radius, 0.0, sweep, palette::REACTION);
}

/// A curved arrow on `layer` about `center`, from angle `start` sweeping `sweep` radians
/// (counter-clockwise when positive), its head at the end; nothing below a milliradian.
pub fn arc_arrow(d: &mut dyn DebugDraw, layer: Layer, center: Vec2, radius: f32, start: f32, sweep: f32, c: Color) {
    if sweep.abs() < 1e-3 {
        return;
    }
    let steps = ((sweep.abs() / 0.2).ceil() as usize).clamp(2, 32);
    let mut prev = center + radius * Vec2::from_angle(start);
    for k in 1..=steps {
        let p = center + radius * Vec2::from_angle(start + sweep * k as f32 / steps as f32);
        if k == steps {
            d.arrow(layer, prev, p, c);
        } else {
            d.segment(layer, prev, p, c);
        }
        prev = p;
    }
}

impl MouseJoint {
    /// The grabbed point, the target and the line between them; its pull on `Layer::Reaction`.
    pub fn draw(&self, d: &mut dyn DebugDraw, bodies: &[Body], inv_h: f32, style: &JointStyle) {
        let anchor = self.anchor(bodies);
        if d.wants(Layer::Joint) {
            draw_spring(d, anchor, self.target, 0.5 * style.size, palette::JOINT);
            d.point(Layer::Joint, self.target, 6.0, palette::JOINT);
            d.point(Layer::Joint, anchor, 5.0, palette::JOINT);
        }
        if d.wants(Layer::Reaction) {
            d.arrow(Layer::Reaction, anchor, anchor + style.force_scale * self.reaction(inv_h), palette::REACTION);
        }
    }
}
