//! Convex polygons (boxes included): CCW vertices with precomputed outward edge normals,
//! support points and mass properties.

use super::hull::{convex_hull, HullError};
use super::MassData;
use crate::engine::math::{cross, right_perp, Transform};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The most vertices a polygon may have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// The largest rounding radius a polygon may have (metres), like a circle's largest radius.
pub const MAX_ROUNDING_RADIUS: f32 = 1e4;

/// A convex polygon in its body's local frame. Vertex `i` and `i+1` bound edge `i`, whose
/// outward unit normal is `normals[i]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Polygon {
    pub vertices: [Vec2; MAX_POLYGON_VERTICES],
    pub normals: [Vec2; MAX_POLYGON_VERTICES],
    pub count: usize,
    pub centroid: Vec2,
    /// Set when the polygon is a box, so it can be written back as one.
    pub box_half_extents: Option<Vec2>,
    /// Rounding radius (Box2D's `b2Polygon.radius`): the shape is the polygon swept by a disk
    /// of this radius, its corners arcs. 0 for a sharp polygon.
    #[serde(default)]
    pub radius: f32,
}

/// Why a polygon definition was rejected.
#[derive(Clone, Debug, PartialEq)]
pub enum PolygonError {
    Hull(HullError),
    NotConvex { index: usize },
    BadBox { half_extents: Vec2 },
    BadRadius { radius: f32 },
}

impl std::fmt::Display for PolygonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolygonError::Hull(e) => e.fmt(f),
            PolygonError::NotConvex { index } => write!(
                f,
                "the polygon is not strictly convex: point {index} is inside the hull, collinear or a duplicate \
                 (give the points of a convex polygon, or use Hull(points: ...) to wrap any point cloud)"
            ),
            PolygonError::BadBox { half_extents } => write!(
                f,
                "box half extents must be finite and between {} and 1e5 (like a circle's radius), got ({}, {})",
                super::MIN_EXTENT,
                half_extents.x,
                half_extents.y
            ),
            PolygonError::BadRadius { radius } => {
                write!(f, "polygon radius must be finite and between 0 and {MAX_ROUNDING_RADIUS}, got {radius}")
            }
        }
    }
}

impl Polygon {
    /// A polygon from points that must already form a strictly convex polygon (either winding).
    pub fn new(points: &[Vec2]) -> Result<Polygon, PolygonError> {
        let hull = convex_hull(points).map_err(PolygonError::Hull)?;
        if hull.len() != points.len() {
            // Find the first input point the hull dropped.
            let index =
                points.iter().enumerate().position(|(i, p)| !hull.contains(p) || points[..i].contains(p)).unwrap_or(0);
            return Err(PolygonError::NotConvex { index });
        }
        Polygon::from_hull(&hull)
    }

    /// The convex hull of any point cloud, built by the 2D QuickHull (article 001's hull
    /// construction, [`super::quickhull2`]; the hull lab steps through the same run). It
    /// returns the monotone chain's polygon: CCW from the lowest-leftmost vertex, duplicates
    /// welded and collinear points dropped with the same tolerance.
    pub fn hull(points: &[Vec2]) -> Result<Polygon, PolygonError> {
        let hull = super::quickhull2::quickhull_2d(points, None).map_err(PolygonError::Hull)?;
        Polygon::from_hull(&hull)
    }

    fn from_hull(hull: &[Vec2]) -> Result<Polygon, PolygonError> {
        if hull.len() > MAX_POLYGON_VERTICES {
            return Err(PolygonError::Hull(HullError::TooManyVertices {
                count: hull.len(),
                max: MAX_POLYGON_VERTICES,
            }));
        }
        let mut poly = Polygon {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count: hull.len(),
            centroid: Vec2::ZERO,
            box_half_extents: None,
            radius: 0.0,
        };
        poly.vertices[..hull.len()].copy_from_slice(hull);
        for i in 0..poly.count {
            let e = poly.vertices[(i + 1) % poly.count] - poly.vertices[i];
            poly.normals[i] = right_perp(e).normalize();
        }
        poly.centroid = poly.mass_data(1.0).center;
        Ok(poly)
    }

    /// An axis-aligned box centred on the origin (an OBB once its body rotates).
    pub fn make_box(half_extents: Vec2) -> Result<Polygon, PolygonError> {
        let h = half_extents;
        let ok = h.is_finite()
            && h.x >= super::MIN_EXTENT
            && h.y >= super::MIN_EXTENT
            && h.x < super::hull::MAX_COORDINATE
            && h.y < super::hull::MAX_COORDINATE;
        if !ok {
            return Err(PolygonError::BadBox { half_extents });
        }
        let mut poly = Polygon::from_hull(&[
            Vec2::new(-h.x, -h.y),
            Vec2::new(h.x, -h.y),
            Vec2::new(h.x, h.y),
            Vec2::new(-h.x, h.y),
        ])?;
        // Exact axis normals (no rounding from normalize).
        poly.normals[..4].copy_from_slice(&[Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X]);
        poly.centroid = Vec2::ZERO;
        poly.box_half_extents = Some(h);
        Ok(poly)
    }

    /// This polygon rounded by `radius` (Box2D's `b2MakeRoundedBox` for a box): finite, in
    /// `[0, MAX_ROUNDING_RADIUS]`.
    pub fn rounded(self, radius: f32) -> Result<Polygon, PolygonError> {
        if !(0.0..=MAX_ROUNDING_RADIUS).contains(&radius) {
            return Err(PolygonError::BadRadius { radius });
        }
        Ok(Polygon { radius, ..self })
    }

    /// Box2D's `b2MakeRoundedBox(hx, hy, radius)`: the box's core of half extents
    /// `half_extents` swept by a disk of `radius`.
    pub fn make_rounded_box(half_extents: Vec2, radius: f32) -> Result<Polygon, PolygonError> {
        Polygon::make_box(half_extents)?.rounded(radius)
    }

    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }

    /// Index of the vertex furthest along `d` (the support point, 004 article).
    pub fn support_index(&self, d: Vec2) -> usize {
        let mut best = 0;
        let mut best_dot = self.vertices[0].dot(d);
        for i in 1..self.count {
            let v = self.vertices[i].dot(d);
            if v > best_dot {
                best = i;
                best_dot = v;
            }
        }
        best
    }

    /// The sharp polygon whose vertices are this one's pushed out along their normals'
    /// bisectors by Box2D's `sqrt2 · radius` (its constant, 1.412).
    fn pushed_out(&self) -> Polygon {
        const SQRT2: f32 = 1.412;
        let mut out = Polygon { radius: 0.0, ..*self };
        for i in 0..self.count {
            let j = if i == 0 { self.count - 1 } else { i - 1 };
            let mid = (self.normals[j] + self.normals[i]).normalize_or_zero();
            out.vertices[i] = self.vertices[i] + SQRT2 * self.radius * mid;
        }
        out
    }

    /// Whether the point `local` (body frame) lies inside: behind every edge, or for a rounded
    /// polygon within `radius` of its core (Box2D's `b2PointInPolygon`).
    pub fn test_point(&self, local: Vec2) -> bool {
        if self.radius <= 0.0 {
            return (0..self.count).all(|i| self.normals[i].dot(local - self.vertices[i]) <= 0.0);
        }
        self.core_distance_squared(local) <= self.radius * self.radius
    }

    /// Squared distance from `local` to the core polygon (0 inside it).
    pub fn core_distance_squared(&self, local: Vec2) -> f32 {
        let outside = (0..self.count).any(|i| self.normals[i].dot(local - self.vertices[i]) > 0.0);
        if !outside {
            return 0.0;
        }
        (0..self.count)
            .map(|i| {
                let (a, b) = (self.vertices[i], self.vertices[(i + 1) % self.count]);
                let e = b - a;
                let t = ((local - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
                local.distance_squared(a + t * e)
            })
            .fold(f32::MAX, f32::min)
    }

    /// The outline in world space: the core's edges pushed out by the radius, joined by arcs of
    /// `segments` pieces at the corners (the vertices themselves when sharp). For drawing.
    pub fn outline(&self, xf: &Transform, segments: usize) -> Vec<Vec2> {
        if self.radius <= 0.0 {
            return self.world_vertices(xf).collect();
        }
        let segments = segments.max(1);
        let mut out = Vec::with_capacity(self.count * (segments + 1));
        for i in 0..self.count {
            let prev = self.normals[if i == 0 { self.count - 1 } else { i - 1 }];
            let (a0, a1) = (prev.y.atan2(prev.x), self.normals[i].y.atan2(self.normals[i].x));
            let sweep = (a1 - a0).rem_euclid(std::f32::consts::TAU);
            for k in 0..=segments {
                let n = Vec2::from_angle(a0 + sweep * k as f32 / segments as f32);
                out.push(xf.apply(self.vertices[i] + self.radius * n));
            }
        }
        out
    }

    /// Vertices in world space.
    pub fn world_vertices(&self, xf: &Transform) -> impl Iterator<Item = Vec2> + '_ {
        let xf = *xf;
        self.vertices().iter().map(move |&v| xf.apply(v))
    }

    /// Area, centroid and rotational inertia about the centroid for `density`
    /// (triangle fan from the first vertex for precision). A rounded polygon is approximated
    /// as Box2D's `b2ComputePolygonMass` does: each vertex pushed out by `1.412 r` along the
    /// bisector of its two normals (exact area for a box's straight sides, its corners squared).
    pub fn mass_data(&self, density: f32) -> MassData {
        if self.radius > 0.0 {
            return self.pushed_out().mass_data(density);
        }
        let origin = self.vertices[0];
        let mut area = 0.0;
        let mut center = Vec2::ZERO;
        let mut rot_inertia = 0.0;
        const INV3: f32 = 1.0 / 3.0;
        for i in 1..self.count.saturating_sub(1) {
            let e1 = self.vertices[i] - origin;
            let e2 = self.vertices[i + 1] - origin;
            let d = cross(e1, e2);
            let tri_area = 0.5 * d;
            area += tri_area;
            center += tri_area * INV3 * (e1 + e2);
            let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x;
            let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y;
            rot_inertia += 0.25 * INV3 * d * (intx2 + inty2);
        }
        let mass = density * area;
        center /= area;
        let center_world = origin + center;
        // Inertia about the local origin of the fan, shifted to the centroid.
        let inertia_origin = density * rot_inertia;
        let inertia = inertia_origin - mass * center.length_squared();
        MassData { mass, center: center_world, inertia, area }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_mass_matches_analytic() {
        let b = Polygon::make_box(Vec2::new(1.0, 0.5)).unwrap();
        let m = b.mass_data(2.0);
        // 2x1 box, density 2: mass 4, I = m (w^2 + h^2) / 12 = 4 * 5 / 12
        assert!((m.mass - 4.0).abs() < 1e-5);
        assert!((m.inertia - 4.0 * 5.0 / 12.0).abs() < 1e-5);
        assert!(m.center.length() < 1e-6);
    }

    #[test]
    fn rounded_box_point_test_and_outline_follow_the_corner_arcs() {
        let b = Polygon::make_rounded_box(Vec2::new(1.0, 0.5), 0.25).unwrap();
        assert!(b.test_point(Vec2::new(1.2, 0.0)) && !b.test_point(Vec2::new(1.3, 0.0)));
        // The sharp corner of the grown box lies outside the arc.
        assert!(!b.test_point(Vec2::new(1.24, 0.74)));
        assert!(b.test_point(Vec2::new(1.0, 0.5) + 0.24 * Vec2::ONE.normalize()));
        let outline = b.outline(&Transform::IDENTITY, 4);
        assert_eq!(outline.len(), 4 * 5);
        for p in &outline {
            let d = b.core_distance_squared(*p).sqrt();
            assert!((d - 0.25).abs() < 1e-5, "{p} is {d} from the core");
        }
        assert!(matches!(b.rounded(-0.1), Err(PolygonError::BadRadius { .. })));
        assert!(matches!(b.rounded(f32::NAN), Err(PolygonError::BadRadius { .. })));
    }

    #[test]
    fn triangle_centroid_and_inertia() {
        let t = Polygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(3.0, 0.0), Vec2::new(0.0, 3.0)]).unwrap();
        let m = t.mass_data(1.0);
        assert!((m.area - 4.5).abs() < 1e-5);
        assert!((m.center - Vec2::new(1.0, 1.0)).length() < 1e-5);
        // Right isoceles triangle with legs a: polar inertia about centroid = m a^2 / 9.
        assert!((m.inertia - 4.5 * 9.0 / 9.0).abs() < 1e-4, "{}", m.inertia);
    }

    #[test]
    fn clockwise_input_is_reordered_ccw() {
        let p = Polygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0)])
            .unwrap();
        assert_eq!(p.count, 4);
        for i in 0..4 {
            let e = p.vertices[(i + 1) % 4] - p.vertices[i];
            assert!(cross(e, p.vertices[(i + 2) % 4] - p.vertices[i]) > 0.0);
            assert!((p.normals[i].length() - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn non_convex_and_degenerate_polygons_are_rejected() {
        let dart = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.5), Vec2::new(1.0, 2.0)];
        assert_eq!(Polygon::new(&dart), Err(PolygonError::NotConvex { index: 2 }));
        assert!(Polygon::hull(&dart).is_ok());
        assert!(matches!(Polygon::make_box(Vec2::new(0.0, 1.0)), Err(PolygonError::BadBox { .. })));
        assert!(matches!(Polygon::make_box(Vec2::new(f32::NAN, 1.0)), Err(PolygonError::BadBox { .. })));
        let nine: Vec<Vec2> = (0..9).map(|i| Vec2::from_angle(i as f32 * 0.698)).collect();
        assert!(matches!(Polygon::new(&nine), Err(PolygonError::Hull(HullError::TooManyVertices { count: 9, .. }))));
    }
}
