//! Shared helpers: seeded random hull pairs and their parry3d twins.

use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::shapes::random_cloud;
use manifold_lab::engine::hull3d::{Hull, Pose3};
use manifold_lab::engine::rng::SplitMix64;
use parry3d::math::{Pose, Rotation, Vector};
use parry3d::shape::ConvexPolyhedron;

/// One random pair: local hulls, poses, world hulls, and parry's shapes and poses.
pub struct Pair {
    pub a: Hull,
    pub b: Hull,
    pub pose_a: Pose3,
    pub pose_b: Pose3,
    pub parry_a: ConvexPolyhedron,
    pub parry_b: ConvexPolyhedron,
}

impl Pair {
    /// World-space hulls.
    pub fn world(&self) -> (Hull, Hull) {
        (self.a.transformed(&self.pose_a), self.b.transformed(&self.pose_b))
    }
}

pub fn parry_pose(p: &Pose3) -> Pose {
    Pose::from_parts(Vector::new(p.p.x, p.p.y, p.p.z), Rotation::from_xyzw(p.q.x, p.q.y, p.q.z, p.q.w))
}

pub fn parry_hull(h: &Hull) -> ConvexPolyhedron {
    let pts: Vec<Vector> = h.positions().iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    ConvexPolyhedron::from_convex_hull(&pts).expect("parry accepts our hull's vertices")
}

pub fn random_pose(rng: &mut SplitMix64, spread: f32) -> Pose3 {
    let axis = rng.unit_vector();
    let p = rng.unit_vector() * rng.f32(0.0, spread);
    Pose3::new(p, Quat::from_axis_angle(axis, rng.f32(0.0, std::f32::consts::TAU)))
}

/// A seeded pair of hulls of 4..=`max_points` cloud points, radius 0.3..1.5, centres within
/// `spread` of the origin (so many overlap and many do not).
pub fn random_pair(seed: u64, max_points: usize, spread: f32) -> Pair {
    let mut rng = SplitMix64(seed);
    let hull = |rng: &mut SplitMix64| loop {
        let n = 4 + (rng.next_u64() % (max_points as u64 - 3)) as usize;
        let r = rng.f32(0.3, 1.5);
        // Squash some clouds into slabs and needles for thin faces and long edges.
        let squash = Vec3::new(rng.f32(0.2, 1.0), rng.f32(0.2, 1.0), 1.0);
        let pts: Vec<Vec3> = random_cloud(rng.next_u64(), n, r).into_iter().map(|p| p * squash).collect();
        if let Ok(h) = Hull::from_points(&pts) {
            return h;
        }
    };
    let (a, b) = (hull(&mut rng), hull(&mut rng));
    let (pose_a, pose_b) = (random_pose(&mut rng, spread), random_pose(&mut rng, spread));
    let (parry_a, parry_b) = (parry_hull(&a), parry_hull(&b));
    Pair { a, b, pose_a, pose_b, parry_a, parry_b }
}

/// The overlap of A's and B's projections on `n` (f64): how far B must move along `n`.
pub fn overlap_along(a: &Hull, b: &Hull, n: Vec3) -> f64 {
    let n = n.as_dvec3().normalize();
    let max_a = a.positions().iter().map(|p| p.as_dvec3().dot(n)).fold(f64::MIN, f64::max);
    let min_b = b.positions().iter().map(|p| p.as_dvec3().dot(n)).fold(f64::MAX, f64::min);
    max_a - min_b
}

/// Whether `(n, depth)` holds as an MTV claim, up to `slack` (half the disputed difference, so
/// an imprecise normal with a right depth still counts as right).
pub fn claim_holds(a: &Hull, b: &Hull, n: Vec3, depth: f32, slack: f32) -> bool {
    overlap_along(a, b, n) <= (depth + slack) as f64
}
