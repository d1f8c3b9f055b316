//! The rotation sweep: B turns through 360° about its centre while SAT and GJK+EPA report
//! depth and normal angle at each step, to find where they disagree.

use super::view::MinkowskiView;
use manifold_lab::engine::World;

/// One sample of the sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepSample {
    /// B's angle, degrees.
    pub angle: f32,
    pub sat_depth: f32,
    pub epa_depth: f32,
    /// Normal directions, degrees.
    pub sat_normal: f32,
    pub epa_normal: f32,
    pub disagrees: bool,
}

/// Samples `n` angles of body 1 (B) over a full turn, keeping its centre of mass in place.
pub fn rotation_sweep(world: &World, n: usize) -> Vec<SweepSample> {
    let mut w = world.clone();
    let Some(b) = w.bodies.get(1) else { return Vec::new() };
    let (center, start) = (b.center, b.angle);
    (0..n)
        .filter_map(|i| {
            let angle = start + std::f32::consts::TAU * i as f32 / n as f32;
            let body = &mut w.bodies[1];
            let q = manifold_lab::engine::math::Rot::from_angle(angle);
            body.set_transform(center - q.apply(body.local_center), angle);
            let v = MinkowskiView::compute(&w)?;
            let deg = |n: glam::Vec2| n.y.atan2(n.x).to_degrees();
            let (epa_depth, epa_normal) = match &v.epa {
                Some((_, p)) => (p.depth, deg(p.normal)),
                None => (-v.gjk_out.distance, f32::NAN),
            };
            let sat_depth = if v.sat.count > 0 { v.sat.max_penetration() } else { -v.gjk_out.distance };
            let sat_normal = if v.sat.count > 0 { deg(v.sat.normal) } else { f32::NAN };
            Some(SweepSample {
                angle: (angle - start).to_degrees(),
                sat_depth,
                epa_depth,
                sat_normal,
                epa_normal,
                disagrees: v.disagrees(),
            })
        })
        .collect()
}
