//! How far a body's contacts look ahead. Box2D v3's contacts look a fixed speculative distance
//! ahead; here each body's also look ahead by its last step's motion, up to the continuous
//! threshold ([`CONTINUOUS_SAFETY_FACTOR`] of its smallest extent), above which the world's
//! continuous pass sweeps it instead. The broadphase fattens proxies by this reach and the
//! narrowphase gives each pair the relative motion of its bodies ([`pair_reach`]).

use super::body::{Body, BodyKind};
use super::math::cross;

/// A body is swept when it moves more than this fraction of its smallest extent in a step.
pub const CONTINUOUS_SAFETY_FACTOR: f32 = 0.5;

/// How far any point of `b` moved over its last step: the centre's displacement plus the
/// furthest point's turn.
pub(crate) fn last_step_motion(b: &Body, max_extent: f32) -> f32 {
    let turn = cross(b.q0.x_axis(), b.xf.q.x_axis());
    (b.center - b.center0).length() + turn.abs() * max_extent
}

/// How much further than the speculative margin the contacts of `b` look ahead: the distance
/// it moved over its last step (its likely motion over the next one), up to the continuous
/// threshold, half its smallest extent. Below that threshold a body is not swept, so without
/// this reach a body moving more than the margin per step is only seen once it overlaps: a
/// ball falling at 10 m/s (0.17 m a step at 60 Hz) sinks up to 0.17 m into the ground before
/// its contact exists, and bounces back from there. With it, the contact exists before the
/// impact and its speculative constraint stops the body at the surface in the sub-step of
/// impact. Above the threshold the continuous pass moves the body back to its time of impact.
pub fn speculative_reach(b: &Body) -> f32 {
    if b.kind == BodyKind::Static || (b.center == b.center0 && b.q0 == b.xf.q) {
        return 0.0;
    }
    let (min_extent, max_extent) = b.extents();
    last_step_motion(b, max_extent).min(CONTINUOUS_SAFETY_FACTOR * min_extent)
}

/// A body's motion over its last step, as [`pair_reach`] reads it: computed once per body
/// per step rather than once per contact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Motion {
    /// How far the centre of mass moved over the last step.
    pub displacement: glam::Vec2,
    /// `displacement`'s length.
    pub distance: f32,
    /// The body's speculative reach ([`speculative_reach`]).
    pub reach: f32,
}

impl Motion {
    pub fn of(b: &Body, reach: f32) -> Motion {
        let displacement = b.center - b.center0;
        Motion { displacement, distance: displacement.length(), reach }
    }
}

/// How much further than the speculative margin the contact between `a` and `b` looks ahead,
/// given their reaches: their relative motion over the last step (the difference of their
/// displacements, plus each one's turn, the part of its reach its displacement does not
/// explain), never more than the two reaches. Bodies falling side by side add no speculative
/// points between them.
pub fn pair_reach(a: &Motion, b: &Motion) -> f32 {
    if a.reach + b.reach == 0.0 {
        return 0.0;
    }
    let turns = (a.reach - a.distance).max(0.0) + (b.reach - b.distance).max(0.0);
    ((b.displacement - a.displacement).length() + turns).min(a.reach + b.reach)
}
