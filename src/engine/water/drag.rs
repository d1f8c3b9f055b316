//! Drag on submerged edges: the standard per-edge model of 2D buoyancy demos (as in the
//! iforce2d Box2D buoyancy tutorial), written as pressure drag. Each submerged edge whose
//! outward normal `n` faces its velocity relative to the water (`v_n = v_rel·n > 0`) is
//! pushed back along `−n` by `ρ · linear_drag · v_n² · length`. Pressure acts normal to a
//! face, so an edge meeting the flow at an angle is also pushed sideways: that component is
//! the lift (the flat plate's "Newtonian" lift), and no separate lift term is added.
//! Circles' arcs get the same law per arc piece; rotation moves a circle's boundary only
//! tangentially, so it adds no drag there.
//!
//! The force is applied over a whole step, so a quadratic law could overshoot (a light
//! chip meeting the water fast would bounce backwards). The total force and torque are
//! scaled down, when needed, so that over `dt` they reverse no facing edge's normal velocity.

use super::buoyancy::DragArrow;
use crate::engine::body::Body;
use crate::engine::math::{cross, cross_sv};
use glam::Vec2;

/// A submerged part of a body's boundary, with its outward unit normal and its normal
/// velocity relative to the water.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DragEdge {
    /// Midpoint, world space.
    pub point: Vec2,
    pub normal: Vec2,
    pub length: f32,
    /// `(v_body(point) − v_water(point)) · normal`.
    pub normal_speed: f32,
}

/// Sums the pressure drag of `edges` on `body` (water `density`, drag `coefficient`),
/// scaled so that over `dt` no facing edge's normal velocity reverses; the arrows of the
/// facing edges go to `arrows`. Returns the force and the torque about the centre of mass.
pub fn edge_drag(
    edges: &[DragEdge],
    density: f32,
    coefficient: f32,
    body: &Body,
    dt: f32,
    arrows: &mut Vec<DragArrow>,
) -> (Vec2, f32) {
    let first = arrows.len();
    let (mut force, mut torque) = (Vec2::ZERO, 0.0f32);
    for e in edges.iter().filter(|e| e.normal_speed > 0.0 && e.length > 0.0) {
        let f = -(density * coefficient * e.normal_speed * e.normal_speed * e.length) * e.normal;
        force += f;
        torque += cross(e.point - body.center, f);
        arrows.push(DragArrow { point: e.point, force: f });
    }
    if !(force.is_finite() && torque.is_finite()) {
        arrows.truncate(first);
        return (Vec2::ZERO, 0.0);
    }
    // The velocity change over the step at each facing edge, along its normal, is linear in
    // the scale: keep every edge's normal speed from changing sign.
    let dv = dt * body.inv_mass * force;
    let dw = dt * body.inv_inertia * torque;
    let mut scale = 1.0f32;
    for e in edges.iter().filter(|e| e.normal_speed > 0.0 && e.length > 0.0) {
        let change = (dv + cross_sv(dw, e.point - body.center)).dot(e.normal);
        if change < -e.normal_speed {
            scale = scale.min(e.normal_speed / -change);
        }
    }
    if scale < 1.0 {
        for a in &mut arrows[first..] {
            a.force *= scale;
        }
    }
    (scale * force, scale * torque)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shape::Shape;
    use crate::engine::{BodyDef, BodyKind, Material};

    fn plate(density: f32) -> Body {
        Body::new(&BodyDef {
            material: Material { density, ..Material::DEFAULT },
            ..BodyDef::new(BodyKind::Dynamic, Shape::make_box(Vec2::new(0.5, 0.05)).unwrap(), Vec2::ZERO)
        })
    }

    fn bottom(speed: f32) -> DragEdge {
        DragEdge { point: Vec2::new(0.0, -0.05), normal: Vec2::NEG_Y, length: 1.0, normal_speed: speed }
    }

    #[test]
    fn a_face_moving_into_the_water_is_pushed_back_by_rho_c_v2_l() {
        let body = plate(1.0);
        let mut arrows = Vec::new();
        let (f, t) = edge_drag(&[bottom(2.0)], 1.0, 0.5, &body, 1e-4, &mut arrows);
        assert!((f - Vec2::new(0.0, 2.0)).length() < 1e-6, "{f}");
        assert!(t.abs() < 1e-6);
        assert_eq!(arrows.len(), 1);
        // The back face (moving away from the water) feels nothing.
        let (f, _) = edge_drag(&[bottom(-2.0)], 1.0, 0.5, &body, 1e-4, &mut arrows);
        assert_eq!(f, Vec2::ZERO);
    }

    #[test]
    fn an_oblique_edge_gets_lift_across_the_flow() {
        let body = plate(1.0);
        let n = Vec2::new(1.0, -1.0).normalize();
        // Moving along +x: the edge faces the flow and is pushed along −n, which also lifts.
        let e = DragEdge { point: Vec2::ZERO, normal: n, length: 1.0, normal_speed: Vec2::X.dot(n) };
        let (f, _) = edge_drag(&[e], 1.0, 1.0, &body, 1e-4, &mut Vec::new());
        assert!(f.x < 0.0 && f.y > 0.0 && (f.x + f.y).abs() < 1e-6, "{f}");
    }

    #[test]
    fn a_light_body_is_stopped_not_reversed() {
        // Mass 0.01 kg at 10 m/s: the raw drag over 1/60 s would reverse it a hundred times.
        let body = plate(0.1);
        let mut arrows = Vec::new();
        let (f, _) = edge_drag(&[bottom(10.0)], 1.0, 1.0, &body, 1.0 / 60.0, &mut arrows);
        let dv = f.y * body.inv_mass / 60.0;
        assert!((dv - 10.0).abs() < 1e-3, "stops exactly: {dv}");
        assert!((arrows[0].force - f).length() < 1e-4);
        let (f, t) = edge_drag(&[bottom(f32::MAX)], 1.0, 1.0, &body, 1.0 / 60.0, &mut arrows);
        assert_eq!((f, t), (Vec2::ZERO, 0.0), "overflow is dropped, not spread");
    }
}
