//! QuickHull on degenerate and nearly degenerate clouds: right vertex/edge/face counts, Euler's
//! V − E + F = 2, every input point inside, no duplicate vertices, planar convex faces.

use glam::Vec3;
use manifold_lab::engine::hull3d::shapes::{random_cloud, random_sphere_points};
use manifold_lab::engine::hull3d::{Hull, HullError, HullOptions};
use manifold_lab::engine::rng::SplitMix64;
use std::collections::HashSet;

/// Checks the invariants every hull must meet and returns (V, E, F).
pub fn check_hull(h: &Hull, input: &[Vec3]) -> (usize, usize, usize) {
    let tol = HullOptions::default().tolerance(input);
    let (v, e, f) = (h.positions().len(), h.edges().len(), h.faces().len());
    assert_eq!(v + f, e + 2, "Euler: V {v} E {e} F {f}");
    h.validate(4.0 * tol).unwrap();
    for p in input {
        let d = h.max_plane_distance(*p);
        assert!(d <= 4.0 * tol, "input point {p:?} is {d} outside (tolerance {tol})");
    }
    let unique: HashSet<[u32; 3]> = h.positions().iter().map(|p| p.to_array().map(f32::to_bits)).collect();
    assert_eq!(unique.len(), v, "duplicate vertices");
    for p in h.positions() {
        assert!(input.contains(p), "hull vertices are input points");
    }
    for (i, face) in h.faces().iter().enumerate() {
        for &k in face {
            assert!(h.planes()[i].distance(h.positions()[k]).abs() <= 4.0 * tol, "face {i} is not planar");
        }
    }
    (v, e, f)
}

fn grid(n: usize) -> Vec<Vec3> {
    let mut pts = Vec::new();
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let s = |t: usize| -1.0 + 2.0 * t as f32 / (n - 1) as f32;
                pts.push(Vec3::new(s(i), s(j), s(k)));
            }
        }
    }
    pts
}

fn shuffle(pts: &mut [Vec3], seed: u64) {
    let mut rng = SplitMix64(seed);
    for i in (1..pts.len()).rev() {
        pts.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
}

#[test]
fn cube_with_face_centres_and_edge_midpoints() {
    // The 3×3×3 grid: corners, edge midpoints, face centres and the centre.
    for seed in 0..20 {
        let mut pts = grid(3);
        shuffle(&mut pts, seed);
        let h = Hull::from_points(&pts).unwrap();
        assert_eq!(check_hull(&h, &pts), (8, 12, 6), "seed {seed}");
        assert!(h.faces().iter().all(|f| f.len() == 4));
    }
    let pts = grid(6);
    assert_eq!(check_hull(&Hull::from_points(&pts).unwrap(), &pts), (8, 12, 6));
}

#[test]
fn duplicated_points() {
    let mut pts: Vec<Vec3> = grid(3).into_iter().flat_map(|p| [p, p, p]).collect();
    shuffle(&mut pts, 9);
    assert_eq!(check_hull(&Hull::from_points(&pts).unwrap(), &pts), (8, 12, 6));
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let pts: Vec<Vec3> = (0..40).map(|i| tetra[i % 4]).collect();
    assert_eq!(check_hull(&Hull::from_points(&pts).unwrap(), &pts), (4, 6, 4));
}

#[test]
fn nearly_coplanar_noise_is_absorbed() {
    // Every point of a 5×5×5 grid moved by up to 1e-6 (the tolerance is 3e-5 here).
    for seed in 0..10 {
        let mut rng = SplitMix64(100 + seed);
        let mut pts: Vec<Vec3> = grid(5).into_iter().map(|p| p + rng.unit_vector() * 1e-6).collect();
        shuffle(&mut pts, seed);
        let h = Hull::from_points(&pts).unwrap();
        assert_eq!(check_hull(&h, &pts), (8, 12, 6), "seed {seed}");
    }
    // Random points on the faces of a box, plus its corners.
    let mut rng = SplitMix64(5);
    let mut pts: Vec<Vec3> = (0..600)
        .map(|_| {
            let mut p = Vec3::new(rng.f32(-1.0, 1.0), rng.f32(-2.0, 2.0), rng.f32(-0.5, 0.5));
            let axis = (rng.next_u64() % 3) as usize;
            p[axis] = [1.0, 2.0, 0.5][axis] * if rng.next_u64().is_multiple_of(2) { 1.0 } else { -1.0 };
            p
        })
        .collect();
    for i in 0..8 {
        pts.push(Vec3::new([-1.0, 1.0][i & 1], [-2.0, 2.0][(i >> 1) & 1], [-0.5, 0.5][(i >> 2) & 1]));
    }
    shuffle(&mut pts, 77);
    assert_eq!(check_hull(&Hull::from_points(&pts).unwrap(), &pts), (8, 12, 6));
}

#[test]
fn prism_caps_merge_into_polygons() {
    let n = 16;
    let mut pts = Vec::new();
    let mut rng = SplitMix64(3);
    for k in 0..n {
        let t = std::f32::consts::TAU * k as f32 / n as f32;
        for z in [-1.0, 1.0] {
            pts.push(Vec3::new(t.cos(), t.sin(), z));
        }
        // Points on the side faces and inside the caps.
        let u = std::f32::consts::TAU * (k as f32 + rng.f32(0.0, 1.0)) / n as f32;
        let (a, b) = (Vec3::new(t.cos(), t.sin(), 0.0), Vec3::new(u.cos(), u.sin(), 0.0));
        let s = (u - t) / (std::f32::consts::TAU / n as f32);
        let side = a.lerp(
            Vec3::new((t + std::f32::consts::TAU / n as f32).cos(), (t + std::f32::consts::TAU / n as f32).sin(), 0.0),
            s,
        );
        pts.push(side + Vec3::Z * rng.f32(-1.0, 1.0));
        pts.push(b * rng.f32(0.0, 0.9) + Vec3::Z * if k % 2 == 0 { 1.0 } else { -1.0 });
    }
    shuffle(&mut pts, 4);
    let h = Hull::from_points(&pts).unwrap();
    assert_eq!(check_hull(&h, &pts), (2 * n, 3 * n, n + 2));
    assert_eq!(h.faces().iter().filter(|f| f.len() == n).count(), 2);
}

#[test]
fn square_grid_plus_apex_is_a_pyramid() {
    let mut pts: Vec<Vec3> = grid(4).into_iter().filter(|p| p.z == -1.0).collect();
    pts.push(Vec3::new(0.2, 0.1, 1.0));
    assert_eq!(check_hull(&Hull::from_points(&pts).unwrap(), &pts), (5, 8, 5));
}

#[test]
fn random_clouds_and_spheres() {
    for seed in 0..30 {
        let pts = random_cloud(seed, 4 + (seed as usize * 37) % 300, 1.0 + seed as f32);
        check_hull(&Hull::from_points(&pts).unwrap(), &pts);
    }
    let pts = random_sphere_points(1, 2000, 1.0);
    let (v, _, _) = check_hull(&Hull::from_points(&pts).unwrap(), &pts);
    assert!(v > 1500, "most sphere points are vertices ({v})");
    // A thin slab (thickness 1e-3 ≫ tolerance) is a valid hull, far from the origin too.
    let mut rng = SplitMix64(8);
    let pts: Vec<Vec3> =
        (0..200).map(|_| Vec3::new(rng.f32(99.0, 101.0), rng.f32(-1.0, 1.0), rng.f32(0.0, 1e-2))).collect();
    check_hull(&Hull::from_points(&pts).unwrap(), &pts);
}

#[test]
fn bad_input_is_rejected_with_clear_errors() {
    let flat: Vec<Vec3> = grid(3).into_iter().filter(|p| p.z == 0.0).collect();
    let e = Hull::from_points(&flat).unwrap_err();
    assert!(matches!(e, HullError::Coplanar { .. }));
    println!("{e}");
    // Nearly coplanar (1e-7 off a plane, below the tolerance) is still coplanar.
    let mut near = flat.clone();
    near[4].z = 1e-7;
    assert!(matches!(Hull::from_points(&near), Err(HullError::Coplanar { .. })));
    assert_eq!(Hull::from_points(&flat[..3]), Err(HullError::TooFewPoints { count: 3 }));
    let mut inf = grid(3);
    inf[13].x = f32::INFINITY;
    assert_eq!(Hull::from_points(&inf), Err(HullError::NonFinite { index: 13 }));
    let mut huge = grid(3);
    huge[2].y = -3e7;
    let e = Hull::from_points(&huge).unwrap_err();
    assert!(matches!(e, HullError::TooLarge { index: 2, .. }), "{e}");
    assert!(e.to_string().contains("above the limit"));
}

/// The same points give the same hull, face and edge order included (hash maps inside
/// QuickHull are seeded per instance, so building twice in one process exposes any order
/// that leaks from them; the horizon loop once started at an arbitrary hash-map key).
#[test]
fn quickhull_is_deterministic() {
    let clouds = [
        manifold_lab::engine::hull3d::shapes::icosahedron(1.0).positions().to_vec(),
        random_cloud(7, 40, 1.0),
        grid(4),
    ];
    for pts in clouds {
        let first = Hull::from_points(&pts).unwrap();
        for _ in 0..10 {
            let again = Hull::from_points(&pts).unwrap();
            assert_eq!(again.faces(), first.faces());
            assert_eq!(again.edges(), first.edges());
            assert_eq!(again.positions(), first.positions());
        }
    }
}
