//! Per-hull data for the local-frame SAT ([`super::sat_local`]), derived once when the hull is
//! built: the vertices and the face planes as structure-of-arrays chunks of four, so a support
//! query ("project each vertex … onto the separating axis with the dot product", article 001)
//! is three multiply-adds and a min per four vertices in SIMD lanes ([`F4`]); each edge's unit
//! direction; the bounding radius; and vertex adjacency for hill-climbing supports on large
//! hulls (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013).

use super::hull::Plane;
use super::lanes::{splat3, F4};
use glam::{Mat3, Vec3};
use serde::{Deserialize, Serialize};

/// Hulls with more vertices than this find supports by hill climbing over the vertex adjacency
/// instead of testing every vertex.
pub const HILL_CLIMB_MIN_VERTICES: usize = 128;

/// Four vertices: `[xs, ys, zs]`.
pub type Chunk = [F4; 3];
/// Four face planes: `[nxs, nys, nzs, ds]`.
pub type PlaneChunk = [F4; 4];

/// Derived data of one hull (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HullAccel {
    /// The vertices four at a time; the last chunk is padded with copies of the last vertex, so
    /// minima and maxima over the chunks are minima and maxima over the vertices.
    pub(crate) chunks: Vec<Chunk>,
    /// The face planes four at a time, padded like `chunks`.
    pub(crate) planes: Vec<PlaneChunk>,
    /// The largest `d − n·v` of a face's own vertex `v` below its plane (planes pass through the
    /// outermost vertex of nearly planar faces).
    pub(crate) flatness: f32,
    /// Unit direction `p0 − p1` of each edge `[p0, p1]` (the article's `tv0`).
    pub(crate) edge_dirs: Vec<Vec3>,
    /// The largest distance of a vertex from the centroid.
    pub(crate) radius: f32,
    /// Neighbours of vertex `v`: `neighbors[offsets[v]..offsets[v + 1]]`.
    pub(crate) offsets: Vec<u32>,
    pub(crate) neighbors: Vec<u32>,
}

impl HullAccel {
    pub(crate) fn new(
        positions: &[Vec3],
        edges: &[[usize; 2]],
        faces: &[Vec<usize>],
        face_planes: &[Plane],
        centroid: Vec3,
    ) -> HullAccel {
        let mut chunks = Vec::new();
        pack_chunks(positions, &mut chunks);
        let mut planes = Vec::new();
        pack_planes(face_planes, &mut planes);
        let flatness = faces
            .iter()
            .zip(face_planes)
            .flat_map(|(f, p)| f.iter().map(move |&v| -p.distance(positions[v])))
            .fold(0.0, f32::max);
        let edge_dirs = edges.iter().map(|&[i, j]| (positions[i] - positions[j]).normalize_or_zero()).collect();
        let radius = positions.iter().map(|v| v.distance(centroid)).fold(0.0, f32::max);
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); positions.len()];
        for &[i, j] in edges {
            lists[i].push(j as u32);
            lists[j].push(i as u32);
        }
        let mut offsets = Vec::with_capacity(positions.len() + 1);
        let mut neighbors = Vec::with_capacity(2 * edges.len());
        offsets.push(0);
        for l in lists {
            neighbors.extend(l);
            offsets.push(neighbors.len() as u32);
        }
        HullAccel { chunks, planes, flatness, edge_dirs, radius, offsets, neighbors }
    }

    /// Overwrites the moved data (chunks, edge directions) with `src`'s moved by `m`, `t`.
    pub(crate) fn set_transformed(&mut self, src: &HullAccel, m: &Mat3, t: Vec3) {
        transform_chunks(&src.chunks, m, t, &mut self.chunks);
        transform_planes(&src.planes, m, t, &mut self.planes);
        (self.radius, self.flatness) = (src.radius, src.flatness);
        for (o, d) in self.edge_dirs.iter_mut().zip(&src.edge_dirs) {
            *o = *m * *d;
        }
    }

    /// The neighbours of vertex `v`.
    #[inline]
    pub(crate) fn neighbors_of(&self, v: usize) -> &[u32] {
        &self.neighbors[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }
}

/// Packs `points` into chunks of four (padding with the last point).
pub(crate) fn pack_chunks(points: &[Vec3], out: &mut Vec<Chunk>) {
    out.clear();
    let Some(&last) = points.last() else { return };
    for c in points.chunks(4) {
        let p = |k: usize| c.get(k).copied().unwrap_or(last);
        let (p0, p1, p2, p3) = (p(0), p(1), p(2), p(3));
        out.push([F4([p0.x, p1.x, p2.x, p3.x]), F4([p0.y, p1.y, p2.y, p3.y]), F4([p0.z, p1.z, p2.z, p3.z])]);
    }
}

/// Packs `planes` into chunks of four (padding with the last plane).
pub(crate) fn pack_planes(planes: &[Plane], out: &mut Vec<PlaneChunk>) {
    out.clear();
    let Some(&last) = planes.last() else { return };
    for c in planes.chunks(4) {
        let p = |k: usize| c.get(k).copied().unwrap_or(last);
        let (p0, p1, p2, p3) = (p(0), p(1), p(2), p(3));
        out.push([
            F4([p0.n.x, p1.n.x, p2.n.x, p3.n.x]),
            F4([p0.n.y, p1.n.y, p2.n.y, p3.n.y]),
            F4([p0.n.z, p1.n.z, p2.n.z, p3.n.z]),
            F4([p0.d, p1.d, p2.d, p3.d]),
        ]);
    }
}

/// Packed plane `i`.
#[inline]
pub(crate) fn plane(planes: &[PlaneChunk], i: usize) -> Plane {
    let [x, y, z, d] = &planes[i / 4];
    let l = i % 4;
    Plane { n: Vec3::new(x.0[l], y.0[l], z.0[l]), d: d.0[l] }
}

/// `out[k]` = plane `k` of `src` moved by `m`, `t`: `n′ = m n`, `d′ = d + n′·t`.
pub(crate) fn transform_planes(src: &[PlaneChunk], m: &Mat3, t: Vec3, out: &mut Vec<PlaneChunk>) {
    out.clear();
    let (cx, cy, cz) = (m.x_axis, m.y_axis, m.z_axis);
    let tt = splat3(t);
    for [x, y, z, d] in src {
        let row = |a: f32, b: f32, c: f32| x.mul(F4::splat(a)).add(y.mul(F4::splat(b))).add(z.mul(F4::splat(c)));
        let n = [row(cx.x, cy.x, cz.x), row(cx.y, cy.y, cz.y), row(cx.z, cy.z, cz.z)];
        let dd = d.add(F4::dot3(n[0], n[1], n[2], tt));
        out.push([n[0], n[1], n[2], dd]);
    }
}

/// Signed distances of `p` to the packed planes, four at a time.
pub(crate) fn plane_distances(planes: &[PlaneChunk], p: Vec3, out: &mut Vec<[f32; 4]>) {
    let pp = splat3(p);
    out.resize(planes.len(), [0.0; 4]);
    for (o, [x, y, z, d]) in out.iter_mut().zip(planes) {
        *o = F4::dot3(*x, *y, *z, pp).sub(*d).0;
    }
}

/// `out[k] = m · src[k] + t` for every packed point.
pub(crate) fn transform_chunks(src: &[Chunk], m: &Mat3, t: Vec3, out: &mut Vec<Chunk>) {
    out.clear();
    let (cx, cy, cz) = (m.x_axis, m.y_axis, m.z_axis);
    for [x, y, z] in src {
        let row = |a: f32, b: f32, c: f32, o: f32| {
            x.mul(F4::splat(a)).add(y.mul(F4::splat(b))).add(z.mul(F4::splat(c))).add(F4::splat(o))
        };
        out.push([row(cx.x, cy.x, cz.x, t.x), row(cx.y, cy.y, cz.y, t.y), row(cx.z, cy.z, cz.z, t.z)]);
    }
}

/// `n · p` for the four points of a chunk.
#[inline(always)]
fn dots(c: &Chunk, n: [F4; 3]) -> F4 {
    F4::dot3(c[0], c[1], c[2], n)
}

/// The least `n · p` over the packed points.
#[inline]
pub(crate) fn min_dot(chunks: &[Chunk], n: Vec3) -> f32 {
    let n = splat3(n);
    let mut m = F4::INFINITY;
    for c in chunks {
        m = m.min(dots(c, n));
    }
    m.min_element()
}

/// The least and greatest `n · p` over the packed points.
#[inline]
pub(crate) fn min_max_dot(chunks: &[Chunk], n: Vec3) -> (f32, f32) {
    let n = splat3(n);
    let (mut lo, mut hi) = (F4::INFINITY, F4::NEG_INFINITY);
    for c in chunks {
        let d = dots(c, n);
        lo = lo.min(d);
        hi = hi.max(d);
    }
    (lo.min_element(), hi.max_element())
}

/// Appends the signed distances `n·p − d` of the packed points to `plane` (four at a time) to
/// `out` and returns the least of them: one row of the face–vertex distance matrix, whose
/// minimum is the face axis's separation.
#[inline]
pub(crate) fn push_plane_row(chunks: &[Chunk], plane: &Plane, out: &mut Vec<F4>) -> f32 {
    let (n, d) = (splat3(plane.n), F4::splat(plane.d));
    let start = out.len();
    out.resize(start + chunks.len(), F4::INFINITY);
    let mut m = F4::INFINITY;
    for (o, c) in out[start..].iter_mut().zip(chunks) {
        let v = dots(c, n).sub(d);
        m = m.min(v);
        *o = v;
    }
    m.min_element()
}

/// The first of the `count` packed points with the least `n · p` (the value [`min_dot`] gives).
pub(crate) fn argmin_dot(chunks: &[Chunk], count: usize, n: Vec3) -> usize {
    let (n, mut best) = (splat3(n), (f32::INFINITY, 0));
    for (k, c) in chunks.iter().enumerate() {
        let d = dots(c, n).0;
        for (l, v) in d.iter().enumerate() {
            let i = 4 * k + l;
            if i < count && *v < best.0 {
                best = (*v, i);
            }
        }
    }
    best.1
}

/// Packed point `i`.
#[inline]
pub(crate) fn vertex(chunks: &[Chunk], i: usize) -> Vec3 {
    let [x, y, z] = &chunks[i / 4];
    let l = i % 4;
    Vec3::new(x.0[l], y.0[l], z.0[l])
}

/// The vertex with the least `n · p`, by hill climbing from `start` over the vertex adjacency:
/// on a convex polytope a vertex with no better neighbour is a global minimum of a linear
/// function, so this visits a few vertices instead of all of them.
pub(crate) fn hill_climb_min(positions: &[Vec3], accel: &HullAccel, n: Vec3, start: usize) -> (usize, f32) {
    let mut best = start.min(positions.len() - 1);
    let mut value = n.dot(positions[best]);
    loop {
        let mut moved = false;
        for &u in accel.neighbors_of(best) {
            let d = n.dot(positions[u as usize]);
            if d < value {
                (best, value, moved) = (u as usize, d, true);
            }
        }
        if !moved {
            return (best, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::shapes;

    #[test]
    fn packed_supports_match_a_plain_scan() {
        let h = shapes::random_hull(11, 40, 1.0).unwrap();
        let a = &h.accel;
        assert_eq!(a.chunks.len(), h.positions().len().div_ceil(4));
        for k in 0..50 {
            let n = Vec3::new((k as f32 * 0.7).sin(), (k as f32 * 1.3).cos(), 0.3 - 0.01 * k as f32).normalize();
            let plain = h.positions().iter().map(|p| n.dot(*p)).fold(f32::INFINITY, f32::min);
            assert_eq!(min_dot(&a.chunks, n), plain);
            let i = argmin_dot(&a.chunks, h.positions().len(), n);
            assert_eq!(n.dot(h.positions()[i]), plain);
            let (j, v) = hill_climb_min(h.positions(), a, n, k % h.positions().len());
            assert!(v <= plain + 1e-6 && n.dot(h.positions()[j]) == v);
            let (lo, hi) = min_max_dot(&a.chunks, n);
            assert_eq!(lo, plain);
            assert_eq!(hi, h.positions().iter().map(|p| n.dot(*p)).fold(f32::NEG_INFINITY, f32::max));
        }
        assert_eq!(vertex(&a.chunks, 5), h.positions()[5]);
        assert_eq!(plane(&a.planes, 3), h.planes()[3]);
        let mut d = Vec::new();
        plane_distances(&a.planes, Vec3::new(0.1, 0.2, 0.3), &mut d);
        let flat = d.as_flattened();
        for (i, p) in h.planes().iter().enumerate() {
            assert!((flat[i] - p.distance(Vec3::new(0.1, 0.2, 0.3))).abs() < 1e-6);
        }
        assert!(a.flatness >= 0.0 && a.flatness < 1e-4);
    }

    #[test]
    fn every_vertex_of_a_cube_has_three_neighbours() {
        let c = shapes::cube(1.0);
        assert!((0..8).all(|v| c.accel.neighbors_of(v).len() == 3));
    }
}
