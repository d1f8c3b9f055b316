//! The polygon–circle trace (000 article, "AABB to Circle" through the change of basis of
//! "OBBs and Orientation"): the circle's centre taken into the polygon's frame, every face's
//! separation and the face of greatest separation, the Voronoi region of the centre (the
//! face, a vertex, or inside the polygon) and the manifold, drawn in world space.

use super::manifold::Manifold;
use super::pair_trace::{draw_result, result_summary, PairStep, PairTrace};
use crate::engine::debug::{palette, DebugDraw, Layer};
use crate::engine::math::{right_perp, Transform};
use crate::engine::number::Num;
use crate::engine::shape::Polygon;
use glam::Vec2;

/// Where the circle's centre lies against the polygon's face of greatest separation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CircleRegion {
    /// Inside the polygon: pushed out through the closest face.
    Inside,
    /// In the face's region (both `u` projections non-negative): the face normal.
    Face,
    /// In the region of polygon vertex `index` (at this world point): the normal runs from it.
    Vertex(usize, Vec2),
}

/// One face with the centre's separation from it (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceSeparation {
    pub v1: Vec2,
    pub v2: Vec2,
    pub normal: Vec2,
    pub separation: f32,
}

/// One step of [`super::polygon_circle::collide_polygon_circle_with`].
#[derive(Clone, Debug, PartialEq)]
pub enum PolygonCircleStep {
    /// The circle's centre (world) in the polygon's frame `xf`: `local = xf⁻¹ · center`.
    Basis { xf: Transform, center: Vec2, local: Vec2 },
    /// Every face's separation from the centre; `best` has the greatest. `separated` when it
    /// exceeds the radius plus the margin (`reach`).
    Faces { faces: Vec<FaceSeparation>, best: usize, center: Vec2, reach: f32, separated: bool },
    /// The centre's Voronoi region against the best face (`face`, world); `u` are the
    /// centre's projections from each end along the face; `distance` from the feature.
    Region { region: CircleRegion, face: [Vec2; 2], center: Vec2, u: (f32, f32), distance: f32, separated: bool },
    /// The manifold returned; `at` places "no contact".
    Done(Manifold, Vec2),
}

/// The trace of one polygon–circle manifold.
pub type PolygonCircleTrace = PairTrace<PolygonCircleStep>;
crate::engine::trace::recorded_steps!(PolygonCircleTrace, PolygonCircleStep);

/// The faces step: each face of `poly` in world space with the separation of `c` (the
/// centre in the polygon's frame), computed as the function does.
pub fn faces_step(poly: &Polygon, xf: &Transform, c: Vec2, best: usize, reach: f32) -> PolygonCircleStep {
    let faces: Vec<FaceSeparation> = (0..poly.count)
        .map(|i| FaceSeparation {
            v1: xf.apply(poly.vertices[i]),
            v2: xf.apply(poly.vertices[(i + 1) % poly.count]),
            normal: xf.q.apply(poly.normals[i]),
            separation: poly.normals[i].dot(c - poly.vertices[i]),
        })
        .collect();
    let separated = faces[best].separation > reach;
    PolygonCircleStep::Faces { faces, best, center: xf.apply(c), reach, separated }
}

/// The region step, from the function's local values (face ends `v`, centre `c`).
pub fn region_step(
    xf: &Transform,
    v: [Vec2; 2],
    c: Vec2,
    region: CircleRegion,
    u: (f32, f32),
    distance: f32,
    separated: bool,
) -> PolygonCircleStep {
    PolygonCircleStep::Region { region, face: v.map(|p| xf.apply(p)), center: xf.apply(c), u, distance, separated }
}

impl PairStep for PolygonCircleStep {
    fn title(&self) -> &'static str {
        match self {
            PolygonCircleStep::Basis { .. } => "change of basis: the centre in the polygon's frame",
            PolygonCircleStep::Faces { .. } => "face of greatest separation",
            PolygonCircleStep::Region { region: CircleRegion::Inside, .. } => "centre inside: the closest face",
            PolygonCircleStep::Region { region: CircleRegion::Face, .. } => "Voronoi region: the face",
            PolygonCircleStep::Region { region: CircleRegion::Vertex(..), .. } => "Voronoi region: a vertex",
            PolygonCircleStep::Done(..) => "manifold",
        }
    }

    fn summary(&self) -> String {
        match self {
            PolygonCircleStep::Basis { local, .. } => {
                format!("centre in A's frame ({:.3}, {:.3})", Num(local.x), Num(local.y))
            }
            PolygonCircleStep::Faces { faces, best, reach, separated, .. } => format!(
                "face {best} separation {:.4} vs r + margin {:.4}{}",
                Num(faces[*best].separation),
                Num(*reach),
                if *separated { ": apart" } else { "" }
            ),
            PolygonCircleStep::Region { region, u, distance, .. } => {
                let which = match region {
                    CircleRegion::Inside => "inside".to_string(),
                    CircleRegion::Face => "face".to_string(),
                    CircleRegion::Vertex(i, _) => format!("vertex {i}"),
                };
                format!("{which}: u1 {:.3}, u2 {:.3}, distance {:.4}", Num(u.0), Num(u.1), Num(*distance))
            }
            PolygonCircleStep::Done(m, _) => result_summary(m),
        }
    }

    fn draw(&self, d: &mut dyn DebugDraw, scale: f32, current: bool) {
        match self {
            PolygonCircleStep::Basis { xf, center, local } => draw_basis(d, xf, *center, *local, scale, current),
            PolygonCircleStep::Faces { faces, best, center, separated, .. } => {
                draw_faces(d, faces, *best, *center, *separated, scale, current)
            }
            PolygonCircleStep::Region { region, face, center, .. } => {
                draw_region(d, *region, *face, *center, scale, current)
            }
            PolygonCircleStep::Done(m, at) => {
                if current {
                    draw_result(m, d, scale, *at);
                }
            }
        }
    }

    fn result(&self) -> Option<&Manifold> {
        match self {
            PolygonCircleStep::Done(m, _) => Some(m),
            _ => None,
        }
    }

    fn result_mut(&mut self) -> Option<&mut Manifold> {
        match self {
            PolygonCircleStep::Done(m, _) => Some(m),
            _ => None,
        }
    }
}

/// The polygon's frame (its x and y axes at its origin) and the centre's coordinates in it.
fn draw_basis(d: &mut dyn DebugDraw, xf: &Transform, center: Vec2, local: Vec2, scale: f32, current: bool) {
    let (ex, ey) = (xf.q.apply(Vec2::X), xf.q.apply(Vec2::Y));
    let color = palette::SHAPE_A;
    d.arrow(Layer::SatAxis, xf.p, xf.p + 2.0 * scale * ex, color);
    d.arrow(Layer::SatAxis, xf.p, xf.p + 2.0 * scale * ey, color);
    d.point(Layer::SatAxis, center, 7.0, palette::SHAPE_B);
    if !current {
        return;
    }
    // The centre's coordinates: its feet on the frame's axes.
    let (fx, fy) = (xf.p + local.x * ex, xf.p + local.y * ey);
    d.segment(Layer::SatAxis, center, fx, palette::WINNER.with_alpha(0.6));
    d.segment(Layer::SatAxis, center, fy, palette::WINNER.with_alpha(0.6));
    d.text(Layer::SatAxis, xf.p + 2.2 * scale * ex, "x_A", color);
    d.text(Layer::SatAxis, xf.p + 2.2 * scale * ey, "y_A", color);
    let label = format!("centre in A's frame ({:.3}, {:.3})", Num(local.x), Num(local.y));
    d.text(Layer::SatAxis, center + Vec2::new(0.0, 0.6 * scale), &label, palette::WINNER);
}

/// Each face's normal and separation; the greatest's from the centre to the face's line.
fn draw_faces(
    d: &mut dyn DebugDraw,
    faces: &[FaceSeparation],
    best: usize,
    center: Vec2,
    separated: bool,
    scale: f32,
    current: bool,
) {
    for (i, f) in faces.iter().enumerate() {
        if i != best && !current {
            continue;
        }
        let mid = 0.5 * (f.v1 + f.v2);
        let color = if i != best {
            palette::SHAPE_A.with_alpha(0.55)
        } else if separated {
            palette::SEPARATING
        } else {
            palette::WINNER
        };
        d.arrow(Layer::SatAxis, mid, mid + scale * f.normal, color);
        if current {
            let at = mid + 1.3 * scale * f.normal;
            d.text(Layer::SatAxis, at, &format!("{i}: {:+.3}", Num(f.separation)), color);
        }
        if i == best {
            d.segment(Layer::SatAxis, center, center - f.separation * f.normal, color);
        }
    }
}

/// The best face and its Voronoi boundaries (the lines through its ends along its normal),
/// or the vertex whose region holds the centre.
fn draw_region(d: &mut dyn DebugDraw, region: CircleRegion, face: [Vec2; 2], center: Vec2, scale: f32, current: bool) {
    let n = right_perp((face[1] - face[0]).normalize_or_zero());
    d.segment(Layer::RefFace, face[0], face[1], palette::REFERENCE_FACE);
    let reach = 3.0 * scale;
    for v in face {
        d.segment(Layer::ClipPlane, v - 0.5 * reach * n, v + reach * n, palette::CLIP_PLANE);
    }
    let (label, at) = match region {
        CircleRegion::Vertex(i, v) => {
            d.point(Layer::RefFace, v, 11.0, palette::WINNER);
            d.segment(Layer::RefFace, v, center, palette::WINNER);
            (format!("vertex {i}'s region: the normal runs from it"), v)
        }
        CircleRegion::Face => ("face region: between its Voronoi lines".to_string(), 0.5 * (face[0] + face[1])),
        CircleRegion::Inside => ("centre inside: out through this face".to_string(), 0.5 * (face[0] + face[1])),
    };
    if current {
        d.text(Layer::RefFace, at + 1.5 * scale * n, &label, palette::REFERENCE_FACE);
    }
}

#[cfg(test)]
mod tests {
    use super::super::pair_trace::manifold_bits;
    use super::super::polygon_circle::{collide_polygon_circle, collide_polygon_circle_with};
    use super::*;
    use crate::engine::debug::{DebugList, LayerSet};
    use crate::engine::trace::Trace;
    use proptest::prelude::*;

    fn traced(poly: &Polygon, xf: &Transform, c: Vec2, r: f32, margin: f32) -> (PolygonCircleTrace, Manifold) {
        let mut t = PolygonCircleTrace::new(0.3);
        let m = collide_polygon_circle_with(poly, xf, c, r, margin, &mut t);
        (t, m)
    }

    fn region(t: &PolygonCircleTrace) -> Option<CircleRegion> {
        t.steps.iter().find_map(|s| match s {
            PolygonCircleStep::Region { region, .. } => Some(*region),
            _ => None,
        })
    }

    fn polygon(kind: usize, hx: f32, hy: f32) -> Polygon {
        match kind {
            0 => Polygon::make_box(Vec2::new(hx, hy)).unwrap(),
            _ => {
                let n = kind + 2;
                let pts: Vec<Vec2> = (0..n)
                    .map(|i| {
                        let a = std::f32::consts::TAU * i as f32 / n as f32;
                        Vec2::new(hx * a.cos(), hy * a.sin())
                    })
                    .collect();
                Polygon::new(&pts).unwrap()
            }
        }
    }

    proptest! {
        #[test]
        fn the_trace_returns_the_untraced_manifold_bit_for_bit(
            kind in 0usize..5, hx in 0.2f32..2.0, hy in 0.2f32..2.0,
            px in -2.0f32..2.0, py in -2.0f32..2.0, angle in -4.0f32..4.0,
            cx in -4.0f32..4.0, cy in -4.0f32..4.0, r in 0.05f32..1.5,
            margin in prop_oneof![Just(0.0f32), 0.0f32..0.1],
            rounding in prop_oneof![Just(0.0f32), 0.01f32..0.5],
        ) {
            let poly = polygon(kind, hx, hy).rounded(rounding).unwrap();
            let xf = Transform::new(Vec2::new(px, py), angle);
            let c = Vec2::new(cx, cy);
            let (t, m) = traced(&poly, &xf, c, r, margin);
            let plain = collide_polygon_circle(&poly, &xf, c, r, margin);
            prop_assert_eq!(manifold_bits(&m), manifold_bits(&plain));
            prop_assert_eq!(manifold_bits(&t.result().unwrap()), manifold_bits(&plain));
            // The recorded best face's separation is the one the function compared.
            let PolygonCircleStep::Faces { faces, best, .. } = &t.steps[1] else { panic!("no faces step") };
            prop_assert!(faces.iter().all(|f| f.separation <= faces[*best].separation));
            // The id names the region's feature: a vertex region sets 0x80.
            if plain.count == 1 {
                let vertex = matches!(region(&t), Some(CircleRegion::Vertex(..)));
                prop_assert_eq!(plain.points[0].id.0 >> 8 & 0x80 != 0, vertex);
            }
        }
    }

    #[test]
    fn a_rounded_box_meets_a_circle_at_its_rounded_surface() {
        let b = Polygon::make_rounded_box(Vec2::ONE, 0.2).unwrap();
        // Above the top face: 1.2 to the surface, the circle's bottom at 1.15.
        let m = collide_polygon_circle(&b, &Transform::IDENTITY, Vec2::new(0.3, 1.65), 0.5, 0.0);
        assert_eq!(m.count, 1);
        assert!((m.points[0].penetration - 0.05).abs() < 1e-5);
        assert!((m.points[0].point - Vec2::new(0.3, 1.175)).length() < 1e-5);
        // Off the corner along the diagonal: the corner's arc, not the sharp corner.
        let dir = Vec2::ONE.normalize();
        let c = Vec2::ONE + (0.2 + 0.5 - 0.01) * dir;
        let m = collide_polygon_circle(&b, &Transform::IDENTITY, c, 0.5, 0.0);
        assert!((m.normal - dir).length() < 1e-5 && (m.points[0].penetration - 0.01).abs() < 1e-5);
        assert_eq!(collide_polygon_circle(&b, &Transform::IDENTITY, Vec2::ONE + 0.71 * dir, 0.5, 0.0).count, 0);
    }

    #[test]
    fn regions_of_the_unit_box() {
        let b = Polygon::make_box(Vec2::ONE).unwrap();
        let id = Transform::IDENTITY;
        let (t, _) = traced(&b, &id, Vec2::new(0.0, 1.4), 0.5, 0.0);
        assert_eq!(region(&t), Some(CircleRegion::Face));
        let (t, m) = traced(&b, &id, Vec2::new(1.3, 1.4), 0.6, 0.0);
        assert!(matches!(region(&t), Some(CircleRegion::Vertex(_, v)) if v == Vec2::ONE), "{:?}", region(&t));
        assert_eq!(m.count, 1);
        let (t, _) = traced(&b, &id, Vec2::new(0.8, 0.1), 0.25, 0.0);
        assert_eq!(region(&t), Some(CircleRegion::Inside));
        // Apart beyond the best face: no region step, the faces step says so.
        let (t, m) = traced(&b, &id, Vec2::new(0.0, 3.0), 0.5, 0.0);
        assert_eq!((m.count, t.steps()), (0, 3));
        assert!(matches!(t.steps[1], PolygonCircleStep::Faces { separated: true, .. }));
    }

    #[test]
    fn the_change_of_basis_undoes_the_polygons_pose() {
        let b = Polygon::make_box(Vec2::ONE).unwrap();
        let xf = Transform::new(Vec2::new(2.0, 1.0), std::f32::consts::FRAC_PI_2);
        // Two metres along the box's own x axis, which points up in the world.
        let (t, _) = traced(&b, &xf, Vec2::new(2.0, 3.0), 0.5, 0.0);
        let PolygonCircleStep::Basis { local, .. } = t.steps[0] else { panic!() };
        assert!((local - Vec2::new(2.0, 0.0)).length() < 1e-6, "{local}");
        for k in 0..t.steps() {
            let mut d = DebugList::new(LayerSet::ALL);
            t.draw_step(k, &mut d);
            assert!(!d.cmds.is_empty(), "step {k}");
            assert_eq!(d.count(Layer::Contact) > 0, k + 1 == t.steps());
        }
    }
}
