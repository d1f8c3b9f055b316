//! How two worlds at the same step differ, body by body.

use crate::engine::World;
use serde::Serialize;

/// One body's difference between two worlds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BodyDiff {
    /// Index in the first world.
    pub body: usize,
    pub name: String,
    /// Distance between the centres of mass, metres.
    pub position: f32,
    /// Angle difference, radians (absolute).
    pub angle: f32,
    /// Length of the linear velocity difference, m/s.
    pub velocity: f32,
    /// Absolute angular velocity difference, rad/s.
    pub angular_velocity: f32,
}

impl BodyDiff {
    /// One number to sort by: metres, radians and velocities over one step summed (a body
    /// 1 m off and one 1 rad off rank alike).
    pub fn score(&self) -> f32 {
        self.position + self.angle + (self.velocity + self.angular_velocity) / 60.0
    }
}

/// Bodies of `a` that differ from their match in `b` (the body of the same index when both
/// worlds have as many bodies, else the first body of the same name), most different first.
/// Bodies without a match are listed with infinite differences.
pub fn diff_worlds(a: &World, b: &World) -> Vec<BodyDiff> {
    let same_layout = a.bodies.len() == b.bodies.len();
    let mut out: Vec<BodyDiff> = a
        .bodies
        .iter()
        .enumerate()
        .filter_map(|(i, ba)| {
            let bb = if same_layout { b.bodies.get(i) } else { b.bodies.iter().find(|x| x.name == ba.name) };
            let d = match bb {
                Some(bb) => BodyDiff {
                    body: i,
                    name: ba.name.clone(),
                    position: ba.center.distance(bb.center),
                    angle: (ba.angle - bb.angle).abs(),
                    velocity: (ba.linear_velocity - bb.linear_velocity).length(),
                    angular_velocity: (ba.angular_velocity - bb.angular_velocity).abs(),
                },
                None => BodyDiff {
                    body: i,
                    name: ba.name.clone(),
                    position: f32::INFINITY,
                    angle: f32::INFINITY,
                    velocity: f32::INFINITY,
                    angular_velocity: f32::INFINITY,
                },
            };
            (d.score() > 0.0 || d.score().is_nan()).then_some(d)
        })
        .collect();
    out.sort_by(|x, y| y.score().total_cmp(&x.score()));
    out
}
