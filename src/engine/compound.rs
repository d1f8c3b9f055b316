//! Multi-part bodies (003 article, "Architecture": "Some physics engines can attach multiple
//! shapes to a body, which are referred to as fixtures"; Box2D v3's model: a body owns shapes,
//! each with its own material and filter, and contacts are between shapes).
//!
//! A body with one shape keeps it in `Body::shape` at the body origin, with the body's material
//! and filter, and `Body::parts` empty: the single-shape path reads nothing new. A body with
//! several shapes lists them all in `Body::parts`, each a [`Part`] with its own local offset and
//! angle, material and filter; its shape `k` sits at `body.xf · part.local()` in the world.
//!
//! The body's mass, centre of mass and inertia combine the parts' by the parallel-axis theorem
//! (Box2D v3's `b2UpdateBodyMassData`): each part's mass `m_k` and centroid `c_k` (body frame)
//! give `M = Σ m_k`, `C = Σ m_k c_k / M`, and `I = Σ (I_k + m_k |c_k|²) − M |C|²`, where `I_k`
//! is the part's inertia about its own centroid.

use super::material::Material;
use super::math::{Aabb, Transform};
use super::shape::extents::shape_extents;
use super::shape::{MassData, Shape};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Most shapes a body may hold (the scene format's per-body cap). A contact stores its two
/// shape indices in four bits each (`Contact::shape_pair`), so `Contact` keeps its five cache
/// lines: every pass over the contacts is bound by memory.
pub const MAX_PARTS: usize = 16;

/// One shape of a multi-part body (Box2D's `b2Shape`, the article's fixture).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The shape in its own frame.
    pub shape: Shape,
    /// Where the shape's frame sits in the body frame.
    #[serde(default)]
    pub offset: Vec2,
    #[serde(default)]
    pub angle: f32,
    #[serde(default)]
    pub material: Material,
    /// Collision filter of this shape (Box2D's `b2Filter` per shape).
    #[serde(default = "default_category")]
    pub category_bits: u32,
    #[serde(default = "default_mask")]
    pub mask_bits: u32,
}

fn default_category() -> u32 {
    super::body::DEFAULT_CATEGORY
}

fn default_mask() -> u32 {
    super::body::DEFAULT_MASK
}

impl Part {
    /// A shape at `offset` and `angle` in the body frame, with the default material and filter.
    pub fn new(shape: Shape, offset: Vec2, angle: f32) -> Part {
        Part {
            shape,
            offset,
            angle,
            material: Material::DEFAULT,
            category_bits: default_category(),
            mask_bits: default_mask(),
        }
    }

    /// The shape's frame in the body frame.
    #[inline]
    pub fn local(&self) -> Transform {
        Transform::new(self.offset, self.angle)
    }

    /// The part's mass data with its centroid in the body frame (inertia about that centroid).
    pub fn mass_data(&self) -> MassData {
        let md = self.shape.mass_data(self.material.density.max(0.0));
        MassData { center: self.local().apply(md.center), ..md }
    }

    /// Box2D's `b2ShouldShapesCollide` for two shapes.
    pub fn should_collide(category_a: u32, mask_a: u32, category_b: u32, mask_b: u32) -> bool {
        category_a & mask_b != 0 && category_b & mask_a != 0
    }
}

/// The body transform composed with a part's local transform: the shape's world transform.
#[inline]
pub fn compose(body: &Transform, local: &Transform) -> Transform {
    Transform { p: body.apply(local.p), q: body.q * local.q }
}

/// The parts' combined mass data by the parallel-axis theorem (see the module docs).
pub fn combined_mass(parts: &[Part]) -> MassData {
    let mds: Vec<MassData> = parts.iter().map(Part::mass_data).collect();
    let mass: f32 = mds.iter().map(|m| m.mass).sum();
    let area: f32 = mds.iter().map(|m| m.area).sum();
    let center = if mass > 0.0 {
        mds.iter().map(|m| m.mass * m.center).sum::<Vec2>() / mass
    } else {
        mds.iter().map(|m| m.center).sum::<Vec2>() / mds.len().max(1) as f32
    };
    let about_origin: f32 = mds.iter().map(|m| m.inertia + m.mass * m.center.length_squared()).sum();
    let inertia = (about_origin - mass * center.length_squared()).max(0.0);
    MassData { mass, center, inertia, area }
}

/// The smallest and largest extent of the body about its centre `center` (body frame): the
/// smallest of the parts' own smallest extents, and the furthest point of any part (Box2D
/// v3's `b2BodySim::minExtent` and `maxExtent`).
pub fn combined_extents(parts: &[Part], center: Vec2) -> (f32, f32) {
    parts.iter().fold((f32::MAX, 0.0f32), |(lo, hi), p| {
        let (min, max) = shape_extents(&p.shape, p.local().apply_inv(center));
        (lo.min(min), hi.max(max))
    })
}

/// The union of the parts' boxes at body transform `xf`.
pub fn combined_aabb(parts: &[Part], xf: &Transform) -> Aabb {
    let mut boxes = parts.iter().map(|p| p.shape.compute_aabb(&compose(xf, &p.local())));
    let first = boxes.next().unwrap_or(Aabb::new(xf.p, xf.p));
    boxes.fold(first, |a, b| a.union(&b))
}

/// The union of the parts' collision filters: what the body-level broadphase filter lets
/// through (each shape pair is filtered again in the narrowphase).
pub fn combined_filter(parts: &[Part]) -> (u32, u32) {
    parts.iter().fold((0, 0), |(c, m), p| (c | p.category_bits, m | p.mask_bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(hx: f32, hy: f32, offset: Vec2, density: f32) -> Part {
        let mut p = Part::new(Shape::make_box(Vec2::new(hx, hy)).unwrap(), offset, 0.0);
        p.material.density = density;
        p
    }

    /// Two boxes by hand: a 2×1 box (half 1, 0.5) at (0, 0) and a 1×1 box (half 0.5) at
    /// (2, 0), density 1. Masses 2 and 1, centre (2/3, 0). Own inertias m(w²+h²)/12:
    /// 2·5/12 and 1·2/12. About the centre: (10/12 + 2·(2/3)²) + (2/12 + 1·(4/3)²) = 11/3.
    #[test]
    fn two_boxes_combine_by_the_parallel_axis_theorem() {
        let md = combined_mass(&[boxed(1.0, 0.5, Vec2::ZERO, 1.0), boxed(0.5, 0.5, Vec2::new(2.0, 0.0), 1.0)]);
        assert!((md.mass - 3.0).abs() < 1e-6);
        assert!((md.center - Vec2::new(2.0 / 3.0, 0.0)).length() < 1e-6);
        assert!((md.inertia - 11.0 / 3.0).abs() < 1e-5, "{}", md.inertia);
    }

    /// A single part at the origin gives the shape's own mass data.
    #[test]
    fn one_part_at_the_origin_is_the_shape() {
        let p = boxed(0.7, 0.3, Vec2::ZERO, 2.5);
        let md = combined_mass(&[p]);
        let own = p.shape.mass_data(2.5);
        assert_eq!((md.mass, md.center, md.inertia), (own.mass, own.center, own.inertia));
    }

    /// A rotated part: a 2×1 box turned 90° at (0, 3) has its long side along y.
    #[test]
    fn a_turned_part_boxes_and_extents() {
        let mut p = boxed(1.0, 0.5, Vec2::new(0.0, 3.0), 1.0);
        p.angle = std::f32::consts::FRAC_PI_2;
        let aabb = combined_aabb(&[p], &Transform::IDENTITY);
        assert!((aabb.min - Vec2::new(-0.5, 2.0)).length() < 1e-5, "{aabb:?}");
        assert!((aabb.max - Vec2::new(0.5, 4.0)).length() < 1e-5, "{aabb:?}");
        let (lo, hi) = combined_extents(&[p], Vec2::new(0.0, 3.0));
        assert!((lo - 0.5).abs() < 1e-5 && (hi - 1.25f32.sqrt()).abs() < 1e-5, "{lo} {hi}");
    }
}
