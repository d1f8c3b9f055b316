//! Joints released by a break: when a joint breaks or is removed, the joints still linking its
//! two bodies to the rest of their structure (through dynamic bodies; `World::release_joints`
//! finds them) give back what the missing joint balanced without turning it into motion.
//!
//! * Their accumulated impulses are dropped. Warm started, the tension a taut chain carried
//!   would be applied again at the next step with nothing left to hold it at the cut, and the
//!   chain would snap back (Box2D v3 keeps them: `b2DestroyJointInternal`).
//! * For the steps of [`RELEASE_TIME`] they correct their position error overdamped: the same
//!   stiffness (`SolverParams::joint_hertz`, so a load is held at the same stretch) with the
//!   damping ratio whose bias rate `ω / (2ζ + hω)` (Box2D v3's `b2MakeSoft`) closes an error
//!   with the time constant [`RELEASE_TAU`]. A loaded soft joint's stretch is spring energy:
//!   corrected at the joint softness (60 Hz, damping ratio 2) the stretch of a whole chain
//!   springs back at once, and the single relax iteration per sub-step (`world/solve`) cannot
//!   take the chain's slow motion out again, so the chain whips. Closed over a second, the
//!   gaps only lift what hangs beyond them by their width.

use super::super::soft::Softness;

/// How long joints stay released after a break nearby, seconds.
pub const RELEASE_TIME: f32 = 3.0;

/// The time constant with which a released joint closes its position error, seconds.
pub const RELEASE_TAU: f32 = 1.0;

/// The softness of a released joint: `hertz` (already clamped to the sub-step) with the
/// damping ratio whose bias rate is `1 / RELEASE_TAU`, or the joint damping ratio when that is
/// larger (such a joint already closes its errors more slowly).
pub fn released_softness(hertz: f32, damping_ratio: f32, h: f32) -> Softness {
    let omega = 2.0 * std::f32::consts::PI * hertz;
    // ω / (2ζ + hω) = 1/τ  ⇔  ζ = ω (τ − h) / 2.
    let zeta = (0.5 * omega * (RELEASE_TAU - h)).max(damping_ratio);
    Softness::new(hertz, zeta, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn released_joints_keep_their_stiffness_and_close_errors_with_the_release_time_constant() {
        let h = 1.0 / 240.0;
        let (normal, released) = (Softness::new(60.0, 2.0, h), released_softness(60.0, 2.0, h));
        assert!((released.bias_rate * RELEASE_TAU - 1.0).abs() < 1e-4, "{released:?}");
        assert!(released.bias_rate < 0.05 * normal.bias_rate, "{released:?} vs {normal:?}");
        // The stretch held under a load `λ` per sub-step is `λ · impulse_scale / (mass_scale ·
        // bias_rate)` per unit mass (the biased row's fixed point): the same for both.
        let stretch = |s: Softness| s.impulse_scale / (s.mass_scale * s.bias_rate);
        let (a, b) = (stretch(normal), stretch(released));
        assert!((a - b).abs() <= 1e-3 * a, "{a} vs {b}");
        // Rigid joints (no hertz) stay rigid, and a joint damped more than the release keeps its damping.
        assert_eq!(released_softness(0.0, 2.0, h), Softness::RIGID);
        assert_eq!(released_softness(60.0, 1.0e4, h), Softness::new(60.0, 1.0e4, h));
    }
}
