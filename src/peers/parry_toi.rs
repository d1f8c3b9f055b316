//! parry2d's nonlinear shape cast (`cast_shapes_nonlinear`, the crate under rapier2d) on the
//! time-of-impact lab's sweep (the 004 article's "Continuous collision"): each shape's proxy as
//! parry's shape and each sweep as a `NonlinearRigidMotion` (the start pose, the local centre,
//! the translation over the sweep as a velocity and the turn as an angular velocity, time 0 to
//! `t_max`). parry turns at a constant rate where our sweep and Box2D's nlerp the rotation, and
//! it stops at touching (distance 0) where Box2D stops a linear slop before.

use crate::engine::collide::support::Proxy;
use crate::engine::collide::toi::{Sweep, ToiInput, ToiOutput, ToiState};
use glam::Vec2;
use rapier2d::parry::math::{Pose, Vector};
use rapier2d::parry::query::{cast_shapes_nonlinear, NonlinearRigidMotion, ShapeCastStatus};
use rapier2d::parry::shape::{Ball, Capsule, ConvexPolygon, SharedShape};

fn vector(p: Vec2) -> Vector {
    Vector::new(p.x, p.y)
}

fn vec2(p: Vector) -> Vec2 {
    Vec2::new(p.x, p.y)
}

/// Our proxy (points and radius in the body frame) as parry's shape: a ball, a capsule or a
/// rounded-free convex polygon (`None` when parry refuses the polygon).
pub fn shape(p: &Proxy) -> Option<SharedShape> {
    Some(match p.count {
        1 => SharedShape::new(Ball::new(p.radius)),
        2 => SharedShape::new(Capsule::new(vector(p.points[0]), vector(p.points[1]), p.radius)),
        _ => SharedShape::new(ConvexPolygon::from_convex_polyline_unmodified(
            p.points().iter().map(|&q| vector(q)).collect(),
        )?),
    })
}

/// Our sweep over `[0, 1]` as parry's motion over the same unit of time.
pub fn motion(s: &Sweep) -> NonlinearRigidMotion {
    let start = s.transform(0.0);
    NonlinearRigidMotion::new(
        Pose::new(vector(start.p), start.q.angle()),
        vector(s.local_center),
        vector(s.translation()),
        s.rotation(),
    )
}

/// parry's answer as our output: its time, its state (converged or out of iterations: a hit;
/// penetrating at the start: overlapped; no hit: separated at `t_max`), A's witness point and
/// normal in world space at the time of impact. `None` when parry refuses a shape.
pub fn time_of_impact(i: &ToiInput) -> Option<ToiOutput> {
    let (sa, sb) = (shape(&i.proxy_a)?, shape(&i.proxy_b)?);
    let (ma, mb) = (motion(&i.sweep_a), motion(&i.sweep_b));
    let hit = cast_shapes_nonlinear(&ma, sa.as_ref(), &mb, sb.as_ref(), 0.0, i.t_max, true).ok()?;
    let Some(hit) = hit else {
        return Some(ToiOutput {
            state: ToiState::Separated,
            t: i.t_max,
            normal: Vec2::ZERO,
            point: Vec2::ZERO,
            iterations: 0,
        });
    };
    let state = match hit.status {
        ShapeCastStatus::Converged => ToiState::Hit,
        ShapeCastStatus::PenetratingOrWithinTargetDist => ToiState::Overlapped,
        ShapeCastStatus::OutOfIterations | ShapeCastStatus::Failed => ToiState::IterationLimit,
    };
    let at = ma.position_at_time(hit.time_of_impact);
    let (point, normal) = (at.transform_point(hit.witness1), at.rotation * hit.normal1);
    Some(ToiOutput { state, t: hit.time_of_impact, normal: vec2(normal), point: vec2(point), iterations: 0 })
}
