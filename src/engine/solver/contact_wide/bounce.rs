//! Restitution over a row (Box2D v3's `b2ApplyRestitutionTask`), on the baseline lanes: only
//! rows where a lane has restitution run it, and each lane's points are solved together.

use super::gather::Gather;
use super::{apply, relative_velocity, BodyCell, ContactRow, PointRow, RowBounce, RowTag, Wide, LANES};
use crate::engine::solver::restitution::{bounce_impulses, effective_mass, BouncePoint};

/// Box2D v3's restitution after the sub-steps, for lanes that bounce: approaching faster than
/// `threshold` (at the sub-step of impact, see `contact::apply_restitution`) and pushed this
/// step. Each lane's points are solved together (`solver::restitution`), lane by lane.
pub(super) fn restitution_row(r: &mut ContactRow, e: &RowBounce, t: &RowTag, states: &[BodyCell], threshold: f32) {
    let mut a = Wide::gather(states, &r.a);
    let mut b = Wide::gather(states, &r.b);
    let ContactRow { nx, ny, masses, points, .. } = r;
    let (RowBounce { restitution, approach_rate, .. }, RowTag { contact, counts, .. }) = (e, t);
    let (nx, ny, restitution, approach_rate) = (*nx, *ny, *restitution, *approach_rate);
    let mut vn = [Wide::ZERO; 2];
    for (v, p) in vn.iter_mut().zip(points.iter()) {
        let (dvx, dvy) = relative_velocity(&p.anchors(), &a, &b);
        *v = dvx * nx + dvy * ny;
    }
    let mut total = [points[0].normal_impulse, points[1].normal_impulse];
    for lane in 0..LANES {
        let count = counts[lane] as usize;
        if contact[lane] == u32::MAX || restitution.0[lane] == 0.0 || count == 0 {
            continue;
        }
        let mut bp = [BouncePoint::default(); 2];
        for (k, ((bpk, p), pb)) in bp.iter_mut().zip(points.iter()).zip(&e.points).enumerate().take(count) {
            let before = (pb.relative_velocity.0[lane] + approach_rate.0[lane] * pb.impact_time.0[lane])
                .max(pb.impact_velocity.0[lane]);
            *bpk = BouncePoint {
                bounces: before <= -threshold && p.max_normal_impulse.0[lane] != 0.0,
                vn: vn[k].0[lane],
                target: -restitution.0[lane] * before,
                impulse: p.normal_impulse.0[lane],
                normal_mass: p.normal_mass.0[lane],
            };
        }
        if !bp.iter().any(|p| p.bounces) {
            continue;
        }
        let (n, rn) = (glam::Vec2::new(nx.0[lane], ny.0[lane]), |p: &PointRow| {
            (p.ra_x.0[lane], p.ra_y.0[lane], p.rb_x.0[lane], p.rb_y.0[lane])
        });
        let cross_n = |x: f32, y: f32| x * n.y - y * n.x;
        let (ax1, ay1, bx1, by1) = rn(&points[0]);
        let (ax2, ay2, bx2, by2) = rn(&points[1]);
        let m = &*masses;
        let (k11, k22, k12) = effective_mass(
            m.inv_mass_a.0[lane],
            m.inv_inertia_a.0[lane],
            m.inv_mass_b.0[lane],
            m.inv_inertia_b.0[lane],
            cross_n(ax1, ay1),
            cross_n(bx1, by1),
            cross_n(ax2, ay2),
            cross_n(bx2, by2),
        );
        let x = bounce_impulses(&bp[..count], k11, k22, k12);
        for (t, x) in total.iter_mut().zip(x).take(count) {
            t.0[lane] = x;
        }
    }
    for (p, total) in points.iter_mut().zip(total) {
        let applied = total - p.normal_impulse;
        p.normal_impulse = total;
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        apply(masses, &p.anchors(), &mut a, &mut b, applied * nx, applied * ny);
    }
    Wide::scatter(states, &r.a, &a);
    Wide::scatter(states, &r.b, &b);
}
