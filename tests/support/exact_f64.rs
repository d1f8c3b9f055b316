//! The exact answer in f64 for the differential test: the Minkowski difference of the two
//! cores built by brute force (the convex hull of every `a_i − b_j`), its signed distance to
//! the origin minus the radii, and the normal from A to B.

use glam::{DVec2, Vec2};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::shape::Shape;

/// A shape's core in world space (f64) and its radius: a point, a segment or a CCW polygon.
pub struct Core {
    pub points: Vec<DVec2>,
    pub radius: f64,
}

impl Core {
    /// The core of `shape` placed at `xf`, transformed in f64.
    pub fn of(shape: &Shape, xf: &Transform) -> Core {
        let (c, sn, p) = (xf.q.c as f64, xf.q.s as f64, xf.p.as_dvec2());
        let world = |v: Vec2| {
            let v = v.as_dvec2();
            DVec2::new(c * v.x - sn * v.y, sn * v.x + c * v.y) + p
        };
        match shape {
            Shape::Circle(circle) => Core { points: vec![p], radius: circle.radius as f64 },
            Shape::Polygon(poly) => {
                Core { points: poly.vertices().iter().map(|&v| world(v)).collect(), radius: poly.radius as f64 }
            }
            Shape::Capsule(cap) => {
                Core { points: vec![world(cap.center1), world(cap.center2)], radius: cap.radius as f64 }
            }
        }
    }
}

/// CCW convex hull (monotone chain), collinear points dropped.
fn hull_f64(mut pts: Vec<DVec2>) -> Vec<DVec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let turn = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut h: Vec<DVec2> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &DVec2>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &p in iter {
            while h.len() >= start + 2 && turn(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    h
}

fn closest_on_segment(a: DVec2, b: DVec2) -> DVec2 {
    let e = b - a;
    let t = if e.length_squared() > 0.0 { (-a.dot(e) / e.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    a + t * e
}

/// The exact answer in f64 from the Minkowski difference of the cores built by brute force
/// (hull of every `a_i − b_j`): signed distance, normal A→B, and for overlapping cores the gap
/// between the least and the next least deep face (a tie makes the normal ambiguous).
pub struct Exact {
    pub sd: f64,
    pub normal: DVec2,
    pub gap: f64,
}

pub fn exact(a: &Core, b: &Core) -> Exact {
    let r = a.radius + b.radius;
    let h = hull_f64(a.points.iter().flat_map(|&x| b.points.iter().map(move |&y| x - y)).collect());
    let apart = |q: DVec2| {
        let d = q.length();
        Exact { sd: d - r, normal: if d > 0.0 { -q / d } else { DVec2::X }, gap: if d > 0.0 { f64::MAX } else { 0.0 } }
    };
    match h.len() {
        1 => apart(h[0]),
        2 => apart(closest_on_segment(h[0], h[1])),
        n => {
            let faces: Vec<(f64, DVec2, DVec2)> = (0..n)
                .map(|i| {
                    let (v, w) = (h[i], h[(i + 1) % n]);
                    let nrm = DVec2::new((w - v).y, -(w - v).x).normalize();
                    (nrm.dot(v), nrm, closest_on_segment(v, w))
                })
                .collect();
            if faces.iter().all(|f| f.0 >= 0.0) {
                let best = faces.iter().min_by(|x, y| x.0.total_cmp(&y.0)).unwrap();
                let gap = faces
                    .iter()
                    .filter(|f| f.1.dot(best.1) < 1.0 - 1e-4)
                    .map(|f| f.0 - best.0)
                    .fold(f64::MAX, f64::min);
                Exact { sd: -best.0 - r, normal: best.1, gap }
            } else {
                let q = faces.iter().map(|f| f.2).min_by(|x, y| x.length().total_cmp(&y.length())).unwrap();
                apart(q)
            }
        }
    }
}
