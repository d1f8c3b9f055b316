//! Restitution of one contact, its points solved together.
//!
//! Box2D v3 bounces a manifold's points one after the other, once, after the sub-steps: each
//! point's impulse drives its own normal velocity to `-e · v_before`. When both points of a
//! manifold bounce (a box landing flat, or a spinning box whose face reaches a wall with both
//! corners in one sub-step), the second point's impulse changes the first one's velocity
//! again, and a single pass leaves the first point faster than `-e · v_before`: at `e = 1` the
//! body leaves with more energy than it came with. Here the two points that bounce are solved
//! as one 2×2 linear complementarity problem, exactly, by trying its four cases (Box2D v2.4's
//! block solver, `b2SolveVelocityConstraints`, used there for the normal impulses): the
//! accumulated impulse of each point stays non-negative and each point that pushes leaves at
//! its target. With the approach speeds of `v_before` no faster than at the start of the step,
//! the change of kinetic energy `Σ λᵢ (vᵢ⁻ + vᵢ⁺) / 2` then never exceeds what gravity gave.

/// Beyond this condition number of the 2×2 effective mass the two points act as one (they
/// are nearly on a line through the centre of mass, or close together) and are solved one
/// after the other (Box2D v2.4's `b2_maxConditionNumber`).
const MAX_CONDITION: f32 = 1000.0;

/// What restitution needs of one point: whether it bounces, its normal velocity now, its
/// target (`-e · v_before`), its accumulated normal impulse and its normal mass (`1 / k`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BouncePoint {
    pub bounces: bool,
    pub vn: f32,
    pub target: f32,
    pub impulse: f32,
    pub normal_mass: f32,
}

/// The new accumulated normal impulses of a contact's `points` (one or two), given `k12`, the
/// normal velocity of point 2 per unit impulse at point 1 (and `k11`, `k22`: the diagonal of
/// the effective mass, used only when both points bounce). Points that do not bounce keep
/// their impulse.
pub fn bounce_impulses(points: &[BouncePoint], k11: f32, k22: f32, k12: f32) -> [f32; 2] {
    let mut out = [0.0; 2];
    for (o, p) in out.iter_mut().zip(points) {
        *o = p.impulse;
    }
    let both = points.len() == 2 && points[0].bounces && points[1].bounces;
    let det = k11 * k22 - k12 * k12;
    if both && k11 * k11 < MAX_CONDITION * det {
        if let Some(x) = solve_block(&points[0], &points[1], k11, k22, k12, det) {
            return x;
        }
    }
    // One bouncing point, or two acting as one: one after the other, the second seeing the
    // first's impulse through `k12`.
    let mut shift = 0.0;
    for (i, p) in points.iter().enumerate() {
        if !p.bounces {
            continue;
        }
        let vn = p.vn + if i == 1 { shift } else { 0.0 };
        out[i] = (p.impulse - p.normal_mass * (vn - p.target)).max(0.0);
        if i == 0 {
            shift = k12 * (out[0] - p.impulse);
        }
    }
    out
}

/// Total impulses `x ≥ 0` with `w = K x + b ≥ 0` and `xᵢ wᵢ = 0`, where `w` is each point's
/// normal velocity above its target; `None` if no case holds (round-off).
fn solve_block(p1: &BouncePoint, p2: &BouncePoint, k11: f32, k22: f32, k12: f32, det: f32) -> Option<[f32; 2]> {
    let (a1, a2) = (p1.impulse, p2.impulse);
    let b1 = p1.vn - p1.target - (k11 * a1 + k12 * a2);
    let b2 = p2.vn - p2.target - (k12 * a1 + k22 * a2);
    // Both push.
    let x1 = -(k22 * b1 - k12 * b2) / det;
    let x2 = -(k11 * b2 - k12 * b1) / det;
    if x1 >= 0.0 && x2 >= 0.0 {
        return Some([x1, x2]);
    }
    // Only the first pushes; the second leaves at least as fast as its target.
    let x1 = -b1 / k11;
    if x1 >= 0.0 && k12 * x1 + b2 >= 0.0 {
        return Some([x1, 0.0]);
    }
    // Only the second pushes.
    let x2 = -b2 / k22;
    if x2 >= 0.0 && k12 * x2 + b1 >= 0.0 {
        return Some([0.0, x2]);
    }
    // Neither needs to.
    if b1 >= 0.0 && b2 >= 0.0 {
        return Some([0.0, 0.0]);
    }
    None
}

/// The effective-mass entries `(k11, k22, k12)` of two points with anchor cross products
/// `rn = r × n` on bodies with inverse masses `ma`, `mb` and inverse inertias `ia`, `ib`.
#[allow(clippy::too_many_arguments)]
pub fn effective_mass(
    ma: f32,
    ia: f32,
    mb: f32,
    ib: f32,
    rna1: f32,
    rnb1: f32,
    rna2: f32,
    rnb2: f32,
) -> (f32, f32, f32) {
    let k11 = ma + mb + ia * rna1 * rna1 + ib * rnb1 * rnb1;
    let k22 = ma + mb + ia * rna2 * rna2 + ib * rnb2 * rnb2;
    let k12 = ma + mb + ia * rna1 * rna2 + ib * rnb1 * rnb2;
    (k11, k22, k12)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(vn: f32, target: f32) -> BouncePoint {
        BouncePoint { bounces: true, vn, target, impulse: 0.0, normal_mass: 1.0 }
    }

    /// A unit-mass box 2 × 1 (inertia 5/12) whose bottom corners `(±1, -0.5)` meet the ground.
    fn flat_box() -> (f32, f32, f32) {
        effective_mass(0.0, 0.0, 1.0, 12.0 / 5.0, 0.0, -1.0, 0.0, 1.0)
    }

    #[test]
    fn both_points_leave_exactly_at_their_targets() {
        let (k11, k22, k12) = flat_box();
        let mut p = [point(0.0, 1.0), point(0.0, 3.0)];
        p[0].normal_mass = 1.0 / k11;
        p[1].normal_mass = 1.0 / k22;
        let x = bounce_impulses(&p, k11, k22, k12);
        assert!(x[0] > 0.0 && x[1] > 0.0);
        let v1 = k11 * x[0] + k12 * x[1];
        let v2 = k12 * x[0] + k22 * x[1];
        assert!((v1 - 1.0).abs() < 1e-5 && (v2 - 3.0).abs() < 1e-5, "{v1} {v2}");
    }

    #[test]
    fn a_point_that_would_pull_lets_go_and_the_other_alone_reaches_its_target() {
        // Positive coupling: pushing at the second point alone lifts the first past its target.
        let (k11, k22, k12) = effective_mass(0.0, 0.0, 1.0, 1.0, 0.0, 0.2, 0.0, 0.3);
        let mut p = [point(0.0, 0.1), point(0.0, 4.0)];
        p[0].normal_mass = 1.0 / k11;
        p[1].normal_mass = 1.0 / k22;
        let x = bounce_impulses(&p, k11, k22, k12);
        assert_eq!(x[0], 0.0);
        assert!((k22 * x[1] - 4.0).abs() < 1e-5);
        assert!(k12 * x[1] >= 0.1);
    }

    #[test]
    fn one_bouncing_point_is_the_single_point_formula() {
        let p = [point(-2.0, 1.5), BouncePoint { bounces: false, impulse: 0.7, ..point(0.0, 0.0) }];
        assert_eq!(bounce_impulses(&p, 1.0, 1.0, 0.5), [3.5, 0.7]);
    }
}
