//! Ready-made hulls: boxes (with a fixed face/edge numbering), the Platonic solids the article's
//! demo offers as presets, n-sided prisms (cylinder-like), and seeded random point clouds.

use super::hull::{Hull, HullError};
use glam::Vec3;

/// A box with half extents `h`, centred at the origin. Vertex `i` has the sign of bit 0, 1, 2
/// of `i` on x, y, z; faces are −x, +x, −y, +y, −z, +z in that order.
pub fn cuboid(h: Vec3) -> Hull {
    let positions: Vec<Vec3> =
        (0..8).map(|i| Vec3::new(sign(i & 1) * h.x, sign(i & 2) * h.y, sign(i & 4) * h.z)).collect();
    let faces = vec![
        vec![0, 4, 6, 2],
        vec![1, 3, 7, 5],
        vec![0, 1, 5, 4],
        vec![2, 6, 7, 3],
        vec![0, 2, 3, 1],
        vec![4, 5, 7, 6],
    ];
    Hull::from_polygons(positions, faces).expect("a box with positive extents is a valid hull")
}

fn sign(bit: usize) -> f32 {
    if bit != 0 {
        1.0
    } else {
        -1.0
    }
}

/// A cube with half extent `h`.
pub fn cube(h: f32) -> Hull {
    cuboid(Vec3::splat(h))
}

/// A regular tetrahedron with circumradius `r`.
pub fn tetrahedron(r: f32) -> Hull {
    let s = r / 3f32.sqrt();
    let pts =
        [Vec3::new(1.0, 1.0, 1.0), Vec3::new(1.0, -1.0, -1.0), Vec3::new(-1.0, 1.0, -1.0), Vec3::new(-1.0, -1.0, 1.0)];
    hull_of(&pts.map(|p| p * s))
}

/// A regular octahedron with circumradius `r`.
pub fn octahedron(r: f32) -> Hull {
    let pts = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
    hull_of(&pts.map(|p| p * r))
}

/// A regular icosahedron with circumradius `r`.
pub fn icosahedron(r: f32) -> Hull {
    let phi = (1.0 + 5f32.sqrt()) / 2.0;
    let mut pts = Vec::with_capacity(12);
    for a in [-1.0, 1.0] {
        for b in [-phi, phi] {
            pts.push(Vec3::new(0.0, a, b));
            pts.push(Vec3::new(a, b, 0.0));
            pts.push(Vec3::new(b, 0.0, a));
        }
    }
    let k = r / Vec3::new(0.0, 1.0, phi).length();
    let pts: Vec<Vec3> = pts.into_iter().map(|p| p * k).collect();
    hull_of(&pts)
}

/// A right prism along z with a regular `sides`-gon of circumradius `radius` as cross-section
/// (a cylinder for large `sides`), from `-half_height` to `half_height`.
pub fn prism(sides: usize, radius: f32, half_height: f32) -> Hull {
    assert!(sides >= 3, "a prism needs at least 3 sides");
    let mut pts = Vec::with_capacity(2 * sides);
    for z in [-half_height, half_height] {
        for k in 0..sides {
            let t = std::f32::consts::TAU * k as f32 / sides as f32;
            pts.push(Vec3::new(radius * t.cos(), radius * t.sin(), z));
        }
    }
    hull_of(&pts)
}

fn hull_of(pts: &[Vec3]) -> Hull {
    Hull::from_points(pts).expect("a preset solid is a valid hull")
}

/// The engine's generator ([`crate::engine::rng::SplitMix64`]), under the name this module
/// has always given it.
pub use crate::engine::rng::SplitMix64;

/// `n` points uniform in a ball of radius `radius`, from `seed`.
pub fn random_cloud(seed: u64, n: usize, radius: f32) -> Vec<Vec3> {
    let mut rng = SplitMix64(seed);
    (0..n).map(|_| rng.unit_vector() * radius * rng.f32(0.0, 1.0).cbrt()).collect()
}

/// `n` points on a sphere of radius `radius` (all of them hull vertices), from `seed`.
pub fn random_sphere_points(seed: u64, n: usize, radius: f32) -> Vec<Vec3> {
    let mut rng = SplitMix64(seed);
    (0..n).map(|_| rng.unit_vector() * radius).collect()
}

/// The hull of [`random_cloud`]`(seed, n, radius)`.
pub fn random_hull(seed: u64, n: usize, radius: f32) -> Result<Hull, HullError> {
    Hull::from_points(&random_cloud(seed, n, radius))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vef(h: &Hull) -> (usize, usize, usize) {
        (h.positions().len(), h.edges().len(), h.faces().len())
    }

    #[test]
    fn presets_have_the_right_counts() {
        assert_eq!(vef(&cube(1.0)), (8, 12, 6));
        assert_eq!(vef(&tetrahedron(1.0)), (4, 6, 4));
        assert_eq!(vef(&octahedron(1.0)), (6, 12, 8));
        assert_eq!(vef(&icosahedron(1.0)), (12, 30, 20));
        assert_eq!(vef(&prism(7, 1.0, 0.5)), (14, 21, 9));
        assert_eq!(vef(&prism(32, 1.0, 0.5)), (64, 96, 34));
        for h in [cube(1.0), tetrahedron(1.0), octahedron(2.0), icosahedron(1.0), prism(12, 1.0, 2.0)] {
            h.validate(1e-5).unwrap();
        }
    }

    #[test]
    fn cuboid_faces_are_numbered_by_axis() {
        let b = cuboid(Vec3::new(1.0, 2.0, 3.0));
        let expect = [-Vec3::X, Vec3::X, -Vec3::Y, Vec3::Y, -Vec3::Z, Vec3::Z];
        for (n, e) in b.normals().iter().zip(expect) {
            assert!((*n - e).length() < 1e-6);
        }
        assert!((b.planes()[5].d - 3.0).abs() < 1e-6);
    }

    #[test]
    fn random_clouds_are_seeded() {
        assert_eq!(random_cloud(7, 10, 1.0), random_cloud(7, 10, 1.0));
        assert_ne!(random_cloud(7, 10, 1.0), random_cloud(8, 10, 1.0));
        let h = random_hull(3, 200, 1.0).unwrap();
        h.validate(1e-4).unwrap();
    }
}
