//! `World::shape_cast`: a shape moved along a straight path through the world, stopped at the
//! first body it meets (004 article, "Continuous Linear": a linear sweep is a ray cast from
//! the origin into the Minkowski difference, [`linear_cast()`]); the candidates come from the
//! dynamic tree cast with the shape's swept box (003 article, "Queries"; Box2D v3's
//! `b2World_CastShape`), each leaf's body cast against and the cast clipped at the closest
//! hit so far. The traced form also records the tree nodes the query tested, for drawing.

use crate::engine::broadphase::tree_query::QueryStats;
use crate::engine::broadphase::tree_shape_cast::BoxCast;
use crate::engine::collide::toi::{linear_cast, Sweep, ToiInput, ToiState};
use crate::engine::math::{Aabb, Transform};
use crate::engine::shape::Shape;
use crate::engine::world::World;
use glam::Vec2;
use serde::Serialize;

/// Where a cast shape first meets a body.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ShapeCastHit {
    pub body: usize,
    /// The fraction of the translation at which the shape touches `body` (0 when it starts
    /// overlapping it).
    pub fraction: f32,
    /// The point of contact there, and the normal from `body` to the shape (zero when the shape
    /// starts overlapping).
    pub point: Vec2,
    pub normal: Vec2,
}

/// A shape cast with its work shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShapeCastTrace {
    pub closest: Option<ShapeCastHit>,
    /// The nodes the tree cast tested, in order, with whether the swept box may reach each;
    /// empty when the world keeps no tree.
    pub visited: Vec<(Aabb, bool)>,
    pub stats: QueryStats,
}

/// `shape` at `xf` against body `b` (standing still), moved by `translation` up to
/// `max_fraction`: the linear cast's hit, if any.
fn cast_against(
    world: &World,
    b: usize,
    shape: &Shape,
    xf: &Transform,
    translation: Vec2,
    max_fraction: f32,
) -> Option<ShapeCastHit> {
    let body = &world.bodies[b];
    let lc = shape.mass_data(1.0).center;
    let end = Transform { p: xf.p + translation, q: xf.q };
    let mut input = ToiInput::from_shapes(
        &body.shape,
        Sweep::stationary(body.local_center, &body.xf),
        shape,
        Sweep::between(lc, xf, &end),
    );
    input.t_max = max_fraction;
    let out = linear_cast(&input, None);
    match out.state {
        ToiState::Hit => Some(ShapeCastHit { body: b, fraction: out.t, point: out.point, normal: out.normal }),
        ToiState::Overlapped => Some(ShapeCastHit { body: b, fraction: 0.0, point: xf.p, normal: Vec2::ZERO }),
        ToiState::Separated | ToiState::IterationLimit => None,
    }
}

/// Whether `h` is nearer than `best` (ties to the lower body index).
fn nearer(h: &ShapeCastHit, best: &Option<ShapeCastHit>) -> bool {
    best.is_none_or(|b| h.fraction < b.fraction || (h.fraction == b.fraction && h.body < b.body))
}

impl World {
    /// The first body that `shape`, placed at `xf` and moved by `translation` (without turning),
    /// meets; `skip` is left out (the body whose shape is cast). Candidates come from the tree
    /// (every body when the world keeps none), as of the last step.
    pub fn shape_cast(
        &self,
        shape: &Shape,
        xf: &Transform,
        translation: Vec2,
        skip: Option<usize>,
    ) -> Option<ShapeCastHit> {
        self.shape_cast_traced(shape, xf, translation, skip).closest
    }

    /// [`World::shape_cast`] with the tree nodes it tested.
    pub fn shape_cast_traced(
        &self,
        shape: &Shape,
        xf: &Transform,
        translation: Vec2,
        skip: Option<usize>,
    ) -> ShapeCastTrace {
        let mut trace = ShapeCastTrace::default();
        if !(xf.p.is_finite() && translation.is_finite()) {
            return trace;
        }
        let mut best: Option<ShapeCastHit> = None;
        let mut consider = |b: usize, max_fraction: f32| -> f32 {
            if Some(b) == skip {
                return -1.0;
            }
            match cast_against(self, b, shape, xf, translation, max_fraction) {
                Some(h) if nearer(&h, &best) => {
                    best = Some(h);
                    h.fraction
                }
                _ => -1.0,
            }
        };
        if self.broadphase.has_proxies_for(self.bodies.len()) {
            let tree = &self.broadphase.tree;
            let input = BoxCast { aabb: shape.compute_aabb(xf), translation, max_fraction: 1.0 };
            let visited = &mut trace.visited;
            trace.stats = tree.box_cast_visiting(
                &input,
                |id, hit| visited.push((tree.nodes()[id as usize].aabb, hit)),
                |max_fraction, _, body| consider(body as usize, max_fraction),
            );
        } else {
            let swept = BoxCast { aabb: shape.compute_aabb(xf), translation, max_fraction: 1.0 }.swept(1.0);
            for (b, body) in self.bodies.iter().enumerate() {
                if body.shape.compute_aabb(&body.xf).overlaps(&swept) {
                    consider(b, 1.0);
                }
            }
        }
        trace.closest = best;
        trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::body::{BodyDef, BodyKind};
    use crate::engine::collide::toi::default_target;

    /// Walls at x = 3, 6, 9 (their left faces) and a box above the path.
    fn walls() -> World {
        let mut w = World::new(Default::default());
        for x in [3.5, 6.5, 9.5] {
            let wall = Shape::make_box(Vec2::new(0.5, 2.0)).unwrap();
            w.create_body(&BodyDef::new(BodyKind::Static, wall, Vec2::new(x, 0.0)));
        }
        w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::splat(0.5)).unwrap(), Vec2::new(1.0, 4.0)));
        w.sync_broadphase();
        w
    }

    /// A circle of radius 0.5 cast from the origin along +x meets the first wall's face when
    /// its centre is the target distance from it: fraction (3 − target) / 10, normal −x.
    #[test]
    fn a_circle_meets_the_nearest_wall_at_the_closed_form_fraction() {
        let w = walls();
        let circle = Shape::circle(0.5).unwrap();
        let t = w.shape_cast_traced(&circle, &Transform::IDENTITY, Vec2::new(10.0, 0.0), None);
        let h = t.closest.expect("a hit");
        assert_eq!(h.body, 0);
        let expected = (3.0 - default_target(0.5)) / 10.0;
        assert!((h.fraction - expected).abs() < 1e-5, "{} vs {expected}", h.fraction);
        assert!((h.normal - Vec2::new(-1.0, 0.0)).length() < 1e-4, "{:?}", h.normal);
        assert!((h.point.x - 3.0).abs() < 0.01 && h.point.y.abs() < 1e-3, "{:?}", h.point);
        assert!(!t.visited.is_empty() && t.visited.iter().any(|(_, hit)| *hit));
        // Skipping the first wall finds the second; a path above every wall finds the box only.
        assert_eq!(w.shape_cast(&circle, &Transform::IDENTITY, Vec2::new(10.0, 0.0), Some(0)).map(|h| h.body), Some(1));
        let high = Transform::new(Vec2::new(-3.0, 4.0), 0.0);
        assert_eq!(w.shape_cast(&circle, &high, Vec2::new(20.0, 0.0), None).map(|h| h.body), Some(3));
        assert_eq!(w.shape_cast(&circle, &Transform::new(Vec2::new(0.0, 8.0), 0.0), Vec2::X, None), None);
    }

    /// Through the tree or over every body, the same closest hit, for boxes cast in many
    /// directions from many places.
    #[test]
    fn the_tree_cast_finds_what_every_body_cast_finds() {
        let w = walls();
        let mut brute = w.clone();
        brute.broadphase = Default::default();
        let shape = Shape::make_box(Vec2::new(0.3, 0.2)).unwrap();
        for k in 0..64 {
            let a = k as f32 * 0.37;
            let xf = Transform::new(Vec2::new(-2.0 + 0.2 * k as f32, 3.0 * a.sin()), 0.3 * a);
            let d = 12.0 * Vec2::new(a.cos(), (1.7 * a).sin());
            let (x, y) = (w.shape_cast(&shape, &xf, d, None), brute.shape_cast(&shape, &xf, d, None));
            assert_eq!(x.map(|h| h.body), y.map(|h| h.body), "{k}");
            assert_eq!(x.map(|h| h.fraction), y.map(|h| h.fraction), "{k}");
        }
    }
}
