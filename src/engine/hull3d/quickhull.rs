//! QuickHull in 3D (Barber, Dobkin & Huhdanpaa 1996; Gregorius, "Implementing QuickHull",
//! GDC 2014), the construction behind article 001's "A convex hull can be described from its
//! vertices alone … [the rest] can all be derived from the set of vertices".
//!
//! Robustness: input is f32 but every predicate runs in f64, and a point counts as outside a
//! face only when it is more than `tolerance` above its plane, so duplicated, coplanar and
//! nearly coplanar points are absorbed instead of creating slivers. The triangles are then
//! merged into polygon faces and collinear vertices removed (module `merge`).
//!
//! Generic over a [`Recorder`] of [`QuickHullStep3`]: [`quickhull_traced`] with a trace records
//! every step for the construct stage of the hull3d lab; with `None` nothing is recorded.

use super::hull::{check_points, Hull, HullError};
use super::merge::{assemble_polygons, Triangle};
use super::quickhull_trace::{QuickHullStep3, QuickHullTrace3};
use crate::engine::trace::{NoTrace, Recorder};
use glam::{DVec3, Vec3};
use std::collections::HashMap;

/// QuickHull settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullOptions {
    /// Plane tolerance relative to the cloud's scale, `Σ_axis max |coordinate|` (as in
    /// Gregorius's QuickHull). Points within it of the hull are treated as on it.
    pub relative_tolerance: f32,
}

impl Default for HullOptions {
    fn default() -> Self {
        HullOptions { relative_tolerance: 1.0e-5 }
    }
}

impl HullOptions {
    /// The absolute plane tolerance for `points`.
    pub fn tolerance(&self, points: &[Vec3]) -> f32 {
        let m = points.iter().fold(Vec3::ZERO, |m, p| m.max(p.abs()));
        (self.relative_tolerance * (m.x + m.y + m.z)).max(f32::MIN_POSITIVE)
    }
}

/// The hull of `points`: positions are a subset of the input (in input order, no duplicates),
/// faces are convex polygons with outward normals.
pub fn quickhull(points: &[Vec3], options: &HullOptions) -> Result<Hull, HullError> {
    run(points, options, &mut NoTrace)
}

/// [`quickhull`], recording every step into `trace` (cleared first) when one is given.
pub fn quickhull_traced(
    points: &[Vec3],
    options: &HullOptions,
    trace: Option<&mut QuickHullTrace3>,
) -> Result<Hull, HullError> {
    match trace {
        None => run(points, options, &mut NoTrace),
        Some(t) => {
            t.clear(points);
            let result = run(points, options, t);
            t.result = Some(result.clone());
            result
        }
    }
}

fn run<R: Recorder<QuickHullStep3>>(points: &[Vec3], options: &HullOptions, rec: &mut R) -> Result<Hull, HullError> {
    check_points(points)?;
    let tol32 = options.tolerance(points);
    let tol = tol32 as f64;
    let pts: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
    let simplex = initial_simplex(&pts, tol, tol32)?;
    let mut qh = QuickHull { pts: &pts, tol, faces: Vec::new(), edge_face: HashMap::new() };
    let [a, b, c, d] = simplex;
    for tri in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
        qh.add_face(tri);
    }
    let first: Vec<usize> = (0..qh.faces.len()).collect();
    let others: Vec<usize> = (0..pts.len()).filter(|i| !simplex.contains(i)).collect();
    let inside = qh.assign(&others, &first, R::ENABLED);
    if R::ENABLED {
        let outside = first.iter().map(|&f| qh.faces[f].outside.len()).sum();
        let vertices = simplex.map(|i| points[i]);
        rec.record(QuickHullStep3::Simplex { vertices, outside, dropped: inside.iter().map(|&i| points[i]).collect() });
    }
    let mut stack: Vec<usize> = first;
    while let Some(f) = stack.pop() {
        if !qh.faces[f].alive || qh.faces[f].outside.is_empty() {
            continue;
        }
        let eye = qh.farthest_outside(f);
        if let Some(new_faces) = qh.add_point(f, eye, points, rec) {
            stack.extend(new_faces.iter().copied().filter(|&g| !qh.faces[g].outside.is_empty()));
        }
        if qh.faces[f].alive {
            // The horizon was not a simple loop: drop the point (it is at most a few tolerances
            // out) and keep the face's other points.
            qh.faces[f].outside.retain(|&p| p != eye);
            if R::ENABLED {
                rec.record(QuickHullStep3::Pinched { face: qh.faces[f].v.map(|i| points[i]), eye: points[eye] });
            }
            stack.push(f);
        }
    }
    let tris: Vec<Triangle> =
        qh.faces.iter().filter(|f| f.alive).map(|f| Triangle { v: f.v, n: f.n, d: f.d }).collect();
    let hull = assemble_polygons(points, &pts, &tris, tol)?;
    if R::ENABLED {
        let faces = hull.faces().iter().map(|f| f.iter().map(|&i| hull.positions()[i]).collect()).collect();
        rec.record(QuickHullStep3::Merged { triangles: tris.len(), faces });
    }
    Ok(hull)
}

struct Face {
    v: [usize; 3],
    n: DVec3,
    d: f64,
    alive: bool,
    outside: Vec<usize>,
}

struct QuickHull<'a> {
    pts: &'a [DVec3],
    tol: f64,
    faces: Vec<Face>,
    /// Directed edge `u → v` → the face that has it (counter-clockwise from outside).
    edge_face: HashMap<(usize, usize), usize>,
}

impl QuickHull<'_> {
    fn distance(&self, f: usize, p: usize) -> f64 {
        self.faces[f].n.dot(self.pts[p]) - self.faces[f].d
    }

    fn add_face(&mut self, v: [usize; 3]) -> usize {
        let [a, b, c] = v.map(|i| self.pts[i]);
        let n = (b - a).cross(c - a).normalize_or_zero();
        let d = n.dot((a + b + c) / 3.0);
        let id = self.faces.len();
        self.faces.push(Face { v, n, d, alive: true, outside: Vec::new() });
        for k in 0..3 {
            self.edge_face.insert((v[k], v[(k + 1) % 3]), id);
        }
        id
    }

    fn remove_face(&mut self, f: usize) {
        self.faces[f].alive = false;
        let v = self.faces[f].v;
        for k in 0..3 {
            let key = (v[k], v[(k + 1) % 3]);
            if self.edge_face.get(&key) == Some(&f) {
                self.edge_face.remove(&key);
            }
        }
    }

    /// Gives each point to the face of `candidates` it is farthest outside of, if any; returns
    /// the points outside none (now inside the hull) when `keep_inside`.
    fn assign(&mut self, points: &[usize], candidates: &[usize], keep_inside: bool) -> Vec<usize> {
        let mut inside = Vec::new();
        for &p in points {
            let mut best = (self.tol, usize::MAX);
            for &f in candidates {
                let d = self.distance(f, p);
                if d > best.0 {
                    best = (d, f);
                }
            }
            if best.1 != usize::MAX {
                self.faces[best.1].outside.push(p);
            } else if keep_inside {
                inside.push(p);
            }
        }
        inside
    }

    fn farthest_outside(&self, f: usize) -> usize {
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for &p in &self.faces[f].outside {
            let d = self.distance(f, p);
            if d > best.0 {
                best = (d, p);
            }
        }
        best.1
    }

    /// Adds `eye` (outside face `f`): removes the faces it sees and fans new triangles from the
    /// horizon to it. `None` (and no change) if the horizon is not one simple loop.
    fn add_point<R: Recorder<QuickHullStep3>>(
        &mut self,
        f: usize,
        eye: usize,
        points: &[Vec3],
        rec: &mut R,
    ) -> Option<Vec<usize>> {
        // The visible faces: connected to `f`, with `eye` more than the tolerance above.
        let mut visible = vec![f];
        let mut seen = std::collections::HashSet::from([f]);
        let mut k = 0;
        while k < visible.len() {
            let g = visible[k];
            k += 1;
            let v = self.faces[g].v;
            for e in 0..3 {
                if let Some(&h) = self.edge_face.get(&(v[(e + 1) % 3], v[e])) {
                    if seen.insert(h) && self.distance(h, eye) > self.tol {
                        visible.push(h);
                    }
                }
            }
        }
        let is_visible: std::collections::HashSet<usize> = visible.iter().copied().collect();
        // The horizon: edges of visible faces whose neighbour is not visible.
        let mut next: HashMap<usize, usize> = HashMap::new();
        for &g in &visible {
            let v = self.faces[g].v;
            for e in 0..3 {
                let (a, b) = (v[e], v[(e + 1) % 3]);
                let across = self.edge_face.get(&(b, a)).copied();
                if across.is_none_or(|h| !is_visible.contains(&h)) && next.insert(a, b).is_some() {
                    return None; // pinched horizon
                }
            }
        }
        // The smallest index starts the loop, so the hull does not depend on hash order.
        let start = *next.keys().min()?;
        let mut loop_ = vec![start];
        let mut at = next[&start];
        while at != start {
            if loop_.len() > next.len() || at == eye {
                return None;
            }
            loop_.push(at);
            at = *next.get(&at)?;
        }
        if loop_.len() != next.len() {
            return None; // more than one loop: the visible region has a hole
        }
        let mut orphans = Vec::new();
        let (face, outside) =
            if R::ENABLED { (self.faces[f].v, self.faces[f].outside.clone()) } else { ([0; 3], Vec::new()) };
        let distance = self.distance(f, eye) as f32;
        for &g in &visible {
            orphans.append(&mut self.faces[g].outside);
            self.remove_face(g);
        }
        let new_faces: Vec<usize> =
            (0..loop_.len()).map(|i| self.add_face([loop_[i], loop_[(i + 1) % loop_.len()], eye])).collect();
        orphans.retain(|&p| p != eye);
        let inside = self.assign(&orphans, &new_faces, R::ENABLED);
        if R::ENABLED {
            let tri = |v: [usize; 3]| v.map(|i| points[i]);
            let at = |v: &[usize]| v.iter().map(|&i| points[i]).collect::<Vec<_>>();
            rec.record(QuickHullStep3::Iteration {
                face: tri(face),
                outside: at(&outside),
                eye: points[eye],
                distance,
                removed: visible.iter().map(|&g| tri(self.faces[g].v)).collect(),
                horizon: at(&loop_),
                cone: new_faces.iter().map(|&g| tri(self.faces[g].v)).collect(),
                dropped: at(&inside),
                hull: self.faces.iter().filter(|g| g.alive).map(|g| tri(g.v)).collect(),
            });
        }
        Some(new_faces)
    }
}

/// Four affinely independent points spanning the cloud: the two extremes along the widest axis,
/// the farthest point from their line, and the farthest from that plane; ordered so that the
/// faces `[a,b,c], [a,d,b], [b,d,c], [c,d,a]` face outward.
fn initial_simplex(pts: &[DVec3], tol: f64, tol32: f32) -> Result<[usize; 4], HullError> {
    let mut best = (0.0, 0, 0);
    for axis in 0..3 {
        let (lo, hi) = extremes(pts, |p| p[axis]);
        let w = pts[hi][axis] - pts[lo][axis];
        if w > best.0 {
            best = (w, lo, hi);
        }
    }
    let (_, a, b) = best;
    if pts[a].distance(pts[b]) <= tol {
        return Err(HullError::Coincident { tolerance: tol32 });
    }
    let ab = (pts[b] - pts[a]).normalize();
    let (_, c) = extremes(pts, |p| {
        let d = p - pts[a];
        (d - ab * d.dot(ab)).length()
    });
    let dc = pts[c] - pts[a];
    if (dc - ab * dc.dot(ab)).length() <= tol {
        return Err(HullError::Collinear { tolerance: tol32 });
    }
    let n = (pts[b] - pts[a]).cross(pts[c] - pts[a]).normalize();
    let (lo, hi) = extremes(pts, |p| n.dot(p - pts[a]));
    let (dlo, dhi) = (n.dot(pts[lo] - pts[a]), n.dot(pts[hi] - pts[a]));
    let d = if dhi > -dlo { hi } else { lo };
    if dhi.max(-dlo) <= tol {
        return Err(HullError::Coplanar { tolerance: tol32 });
    }
    // `d` must be below the plane of a, b, c (counter-clockwise seen from outside).
    Ok(if n.dot(pts[d] - pts[a]) > 0.0 { [a, c, b, d] } else { [a, b, c, d] })
}

/// Indices of the minimum and maximum of `key` (first on ties).
fn extremes(pts: &[DVec3], key: impl Fn(DVec3) -> f64) -> (usize, usize) {
    let (mut lo, mut hi) = ((f64::INFINITY, 0), (f64::NEG_INFINITY, 0));
    for (i, p) in pts.iter().enumerate() {
        let k = key(*p);
        if k < lo.0 {
            lo = (k, i);
        }
        if k > hi.0 {
            hi = (k, i);
        }
    }
    (lo.1, hi.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(h: &Hull) -> (usize, usize, usize) {
        (h.positions().len(), h.edges().len(), h.faces().len())
    }

    #[test]
    fn cube_corners_give_quads() {
        let pts: Vec<Vec3> =
            (0..8).map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32)).collect();
        let h = quickhull(&pts, &HullOptions::default()).unwrap();
        assert_eq!(counts(&h), (8, 12, 6));
        assert!(h.faces().iter().all(|f| f.len() == 4));
        h.validate(1e-5).unwrap();
    }

    #[test]
    fn degenerate_clouds_are_rejected() {
        let o = HullOptions::default();
        let flat: Vec<Vec3> = (0..9).map(|i| Vec3::new((i % 3) as f32, (i / 3) as f32, 0.0)).collect();
        assert!(matches!(quickhull(&flat, &o), Err(HullError::Coplanar { .. })));
        let line: Vec<Vec3> = (0..5).map(|i| Vec3::splat(i as f32)).collect();
        assert!(matches!(quickhull(&line, &o), Err(HullError::Collinear { .. })));
        let same = vec![Vec3::ONE; 6];
        assert!(matches!(quickhull(&same, &o), Err(HullError::Coincident { .. })));
        assert_eq!(quickhull(&flat[..3], &o), Err(HullError::TooFewPoints { count: 3 }));
        let mut nan = flat.clone();
        nan[4].y = f32::NAN;
        assert_eq!(quickhull(&nan, &o), Err(HullError::NonFinite { index: 4 }));
        let mut huge = flat;
        huge[2].z = 1e9;
        assert!(matches!(quickhull(&huge, &o), Err(HullError::TooLarge { index: 2, .. })));
        assert!(HullError::Coplanar { tolerance: 1e-5 }.to_string().contains("coplanar"));
    }
}
