//! From QuickHull's triangles to the article's hull data: coplanar triangles merged into convex
//! polygon faces, vertices left on a straight edge or inside a face removed, outward normals by
//! Newell's method, planes through each face's outermost vertex, unique edges with their two
//! faces.

use super::hull::{edges_of_polygons, newell_plane, supporting_plane, vertex_average, Hull, HullError};
use glam::{DVec3, Vec3};
use std::collections::{HashMap, HashSet};

/// A QuickHull triangle (counter-clockwise from outside) and its plane.
pub(crate) struct Triangle {
    pub v: [usize; 3],
    pub n: DVec3,
    pub d: f64,
}

/// Triangles whose vertices all lie within this many tolerances of a seed triangle's plane
/// join its face (corners perturbed by ±tol make a quad up to ~2 tol from planar).
const MERGE_TOLERANCES: f64 = 2.0;

/// Builds the hull from the final QuickHull triangles over the input `points` (`pts` in f64).
pub(crate) fn assemble_polygons(
    points: &[Vec3],
    pts: &[DVec3],
    tris: &[Triangle],
    tol: f64,
) -> Result<Hull, HullError> {
    let mut faces = merge_coplanar(pts, tris, tol * MERGE_TOLERANCES);
    remove_degree_two_vertices(&mut faces);
    // Keep used vertices, in input order.
    let mut used: Vec<usize> = faces.iter().flatten().copied().collect::<HashSet<_>>().into_iter().collect();
    used.sort_unstable();
    let remap: HashMap<usize, usize> = used.iter().enumerate().map(|(new, &old)| (old, new)).collect();
    let positions: Vec<Vec3> = used.iter().map(|&i| points[i]).collect();
    let faces: Vec<Vec<usize>> = faces.into_iter().map(|f| f.into_iter().map(|v| remap[&v]).collect()).collect();
    let centroid = vertex_average(&positions);
    let mut normals = Vec::with_capacity(faces.len());
    let mut planes = Vec::with_capacity(faces.len());
    for f in &faces {
        let (n, c) = newell_plane(&positions, f);
        if n == Vec3::ZERO || n.dot(c - centroid) <= 0.0 {
            return Err(HullError::Numerical("a merged face is degenerate or faces inward"));
        }
        normals.push(n);
        planes.push(supporting_plane(&positions, f, n));
    }
    let (edges, edge_faces) = edges_of_polygons(&faces)?;
    let (v, e, f) = (positions.len(), edges.len(), faces.len());
    if v + f != e + 2 {
        return Err(HullError::Euler { v, e, f });
    }
    Ok(Hull::assemble(positions, edges, edge_faces, faces, normals, planes, centroid))
}

/// Groups triangles into faces: from the largest unassigned triangle, grow across edges to
/// neighbours whose three vertices are within `merge_tol` of the seed's plane (a fixed plane, so
/// a gently curved surface is not chained into one face). Each group's boundary loop is a face;
/// a group whose boundary is not one simple loop falls back to its triangles.
fn merge_coplanar(pts: &[DVec3], tris: &[Triangle], merge_tol: f64) -> Vec<Vec<usize>> {
    let mut by_edge = HashMap::new();
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            by_edge.insert((tri.v[k], tri.v[(k + 1) % 3]), t);
        }
    }
    let area = |t: &Triangle| {
        let [a, b, c] = t.v.map(|i| pts[i]);
        (b - a).cross(c - a).length()
    };
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by(|&x, &y| area(&tris[y]).total_cmp(&area(&tris[x])).then(x.cmp(&y)));
    let mut assigned = vec![false; tris.len()];
    let mut faces = Vec::new();
    for &seed in &order {
        if assigned[seed] {
            continue;
        }
        assigned[seed] = true;
        let (n, d) = (tris[seed].n, tris[seed].d);
        let mut group = vec![seed];
        let mut k = 0;
        while k < group.len() {
            let t = group[k];
            k += 1;
            for e in 0..3 {
                let v = tris[t].v;
                if let Some(&h) = by_edge.get(&(v[(e + 1) % 3], v[e])) {
                    if !assigned[h] && tris[h].v.iter().all(|&i| (n.dot(pts[i]) - d).abs() <= merge_tol) {
                        assigned[h] = true;
                        group.push(h);
                    }
                }
            }
        }
        match boundary_loop(tris, &group) {
            Some(face) => faces.push(face),
            None => faces.extend(group.iter().map(|&t| tris[t].v.to_vec())),
        }
    }
    faces
}

/// The boundary of a set of triangles as one counter-clockwise loop, if it is one.
fn boundary_loop(tris: &[Triangle], group: &[usize]) -> Option<Vec<usize>> {
    if group.len() == 1 {
        return Some(tris[group[0]].v.to_vec());
    }
    let directed: HashSet<(usize, usize)> =
        group.iter().flat_map(|&t| (0..3).map(move |k| (tris[t].v[k], tris[t].v[(k + 1) % 3]))).collect();
    let mut next = HashMap::new();
    for &(a, b) in &directed {
        if !directed.contains(&(b, a)) && next.insert(a, b).is_some() {
            return None;
        }
    }
    let start = *next.keys().min()?;
    let mut face = vec![start];
    let mut at = next[&start];
    while at != start {
        if face.len() > next.len() {
            return None;
        }
        face.push(at);
        at = *next.get(&at)?;
    }
    (face.len() == next.len()).then_some(face)
}

/// Removes vertices that belong to exactly two faces (they sit on the straight edge the two
/// faces share), dropping faces that fall below three vertices, until none is left.
fn remove_degree_two_vertices(faces: &mut Vec<Vec<usize>>) {
    loop {
        let mut count: HashMap<usize, usize> = HashMap::new();
        for f in faces.iter() {
            for &v in f {
                *count.entry(v).or_default() += 1;
            }
        }
        let Some(v) = count.iter().filter(|(_, &c)| c <= 2).map(|(&v, _)| v).min() else {
            return;
        };
        for f in faces.iter_mut() {
            f.retain(|&w| w != v);
        }
        faces.retain(|f| f.len() >= 3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundary_of_two_triangles_is_a_quad() {
        let pts = [DVec3::ZERO, DVec3::X, DVec3::new(1.0, 1.0, 0.0), DVec3::Y];
        let t = |v: [usize; 3]| Triangle { v, n: DVec3::Z, d: 0.0 };
        let tris = [t([0, 1, 2]), t([0, 2, 3])];
        let faces = merge_coplanar(&pts, &tris, 1e-9);
        assert_eq!(faces, vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn degree_two_vertex_is_removed() {
        // A square pyramid's base split by a midpoint 4 on edge 0-1 shared with a side face.
        let mut faces =
            vec![vec![0, 4, 1, 2, 3], vec![4, 0, 5], vec![1, 4, 5], vec![2, 1, 5], vec![3, 2, 5], vec![0, 3, 5]];
        // Merge the two side triangles touching 4 as one face to make 4 a degree-2 vertex.
        faces.remove(1);
        faces[1] = vec![1, 4, 0, 5];
        remove_degree_two_vertices(&mut faces);
        assert!(faces.iter().all(|f| !f.contains(&4)));
        assert_eq!(faces[0], vec![0, 1, 2, 3]);
    }
}
