//! Gauss maps (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013): each
//! face of a hull is a point on the unit sphere (its normal), each edge a great arc between its
//! two faces' normals. An edge of A and an edge of B form a face of the Minkowski difference
//! `A − B` exactly when A's arc crosses the arc of B's *negated* Gauss map; only those pairs can
//! give the edge–edge axis the article's `queryEdgeDirections` is looking for.

use super::hull::Hull;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// One edge as a great arc on the unit sphere.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaussArc {
    /// The hull edge this arc stands for.
    pub edge: usize,
    /// The unit normals of the edge's two faces (`edge_faces[edge]` order).
    pub from: Vec3,
    pub to: Vec3,
}

/// A hull's Gauss map, as plain data for a view.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GaussMap {
    /// Face normals: `points[i]` is face `i`.
    pub points: Vec<Vec3>,
    pub arcs: Vec<GaussArc>,
}

impl GaussMap {
    pub fn of(hull: &Hull) -> GaussMap {
        let points = hull.normals().to_vec();
        let arcs = hull
            .edge_faces()
            .iter()
            .enumerate()
            .map(|(edge, &[f, g])| GaussArc { edge, from: points[f], to: points[g] })
            .collect();
        GaussMap { points, arcs }
    }

    /// The Gauss map of the point-reflected hull (−B): every point and arc negated.
    pub fn negated(&self) -> GaussMap {
        GaussMap {
            points: self.points.iter().map(|p| -*p).collect(),
            arcs: self.arcs.iter().map(|a| GaussArc { edge: a.edge, from: -a.from, to: -a.to }).collect(),
        }
    }
}

/// `segments + 1` points along the shorter great arc from `from` to `to` (for drawing).
pub fn arc_points(from: Vec3, to: Vec3, segments: usize) -> Vec<Vec3> {
    let segments = segments.max(1);
    let angle = from.angle_between(to);
    let s = angle.sin();
    (0..=segments)
        .map(|k| {
            let t = k as f32 / segments as f32;
            if s < 1e-6 {
                from.lerp(to, t).normalize_or_zero()
            } else {
                (from * ((1.0 - t) * angle).sin() + to * (t * angle).sin()) / s
            }
        })
        .collect()
}

/// Whether the arcs `a–b` and `c–d` cross (Gregorius's `IsMinkowskiFace`), given `b × a` and
/// `d × c`. For an edge of A with face normals `a, b` and an edge of B with face normals `n, m`,
/// call it with `c = −n, d = −m`: a crossing means the pair forms a Minkowski face.
#[inline]
pub fn is_minkowski_face(a: Vec3, b: Vec3, b_x_a: Vec3, c: Vec3, d: Vec3, d_x_c: Vec3) -> bool {
    // c and d on opposite sides of plane(a, b) (most pairs fail here), a and b on opposite
    // sides of plane(c, d), and both arcs in the same hemisphere.
    let cba = c.dot(b_x_a);
    let dba = d.dot(b_x_a);
    if cba * dba >= 0.0 {
        return false; // (a NaN falls through and fails `cba * bdc > 0` below)
    }
    let adc = a.dot(d_x_c);
    let bdc = b.dot(d_x_c);
    adc * bdc < 0.0 && cba * bdc > 0.0
}

/// [`is_minkowski_face`] with a margin, for arcs that cross at (or numerically near) an
/// endpoint: `None` when the arcs clearly do not cross, `Some(true)` when they strictly do,
/// `Some(false)` when they cross only within `margin` (a degenerate Minkowski face, which the
/// SAT scores with full support projections instead of trusting the edges as supports).
#[inline]
pub fn classify_arc_pair(a: Vec3, b: Vec3, b_x_a: Vec3, c: Vec3, d: Vec3, d_x_c: Vec3, margin: f32) -> Option<bool> {
    let cba = c.dot(b_x_a);
    let dba = d.dot(b_x_a);
    if cba * dba >= margin {
        return None; // (a NaN falls through and fails below)
    }
    let adc = a.dot(d_x_c);
    let bdc = b.dot(d_x_c);
    if adc * bdc < margin && cba * bdc > -margin {
        Some(cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0)
    } else {
        None
    }
}

/// The `[edge of A, edge of B]` pairs whose arcs cross (A's map against −B's), with the crossing
/// point on the sphere (the edge axis direction), for a Gauss-map view.
pub fn minkowski_edge_pairs(a: &Hull, b: &Hull) -> Vec<([usize; 2], Vec3)> {
    let (ga, gb) = (GaussMap::of(a), GaussMap::of(b).negated());
    let mut out = Vec::new();
    for arc_a in &ga.arcs {
        let ba = arc_a.to.cross(arc_a.from);
        for arc_b in &gb.arcs {
            let dc = arc_b.to.cross(arc_b.from);
            if is_minkowski_face(arc_a.from, arc_a.to, ba, arc_b.from, arc_b.to, dc) {
                // The crossing lies on both great circles: along ±(ba × dc), on arc a's side.
                let mut p = ba.cross(dc).normalize_or_zero();
                if p.dot(arc_a.from + arc_a.to) < 0.0 {
                    p = -p;
                }
                out.push(([arc_a.edge, arc_b.edge], p));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;

    #[test]
    fn cube_gauss_map_is_an_octahedron_of_points() {
        let g = GaussMap::of(&shapes::cube(1.0));
        assert_eq!((g.points.len(), g.arcs.len()), (6, 12));
        for arc in &g.arcs {
            assert!(arc.from.dot(arc.to).abs() < 1e-6, "cube arcs are quarter circles");
            let pts = arc_points(arc.from, arc.to, 8);
            assert!(pts.iter().all(|p| (p.length() - 1.0).abs() < 1e-5));
            assert!((pts[8] - arc.to).length() < 1e-5);
        }
    }

    #[test]
    fn crossing_arcs_are_detected() {
        // Arc along the equator from +x to +y, and its negated twin arc crossing it at 45°.
        let (a, b) = (Vec3::X, Vec3::Y);
        let d = Vec3::new(1.0, 1.0, 1.0).normalize();
        let c = Vec3::new(1.0, 1.0, -1.0).normalize();
        assert!(is_minkowski_face(a, b, b.cross(a), c, d, d.cross(c)));
        assert!(!is_minkowski_face(a, b, b.cross(a), -c, -d, (-d).cross(-c)));
    }
}
