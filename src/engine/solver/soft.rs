//! Soft constraint coefficients (Box2D v3 "soft step": a constraint behaves like a damped
//! spring of stiffness `hertz` and `damping_ratio`, solved implicitly over a sub-step `h`).

/// Coefficients for an implicit spring-damper constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softness {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl Default for Softness {
    fn default() -> Self {
        Softness::RIGID
    }
}

impl Softness {
    /// A rigid constraint: no bias, full mass.
    pub const RIGID: Softness = Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };

    pub fn new(hertz: f32, damping_ratio: f32, h: f32) -> Softness {
        if hertz <= 0.0 || !hertz.is_finite() {
            return Softness::RIGID;
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * damping_ratio + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stiff_limit_approaches_rigid_mass() {
        let s = Softness::new(1.0e6, 1.0, 1.0 / 240.0);
        assert!(s.mass_scale > 0.99 && s.impulse_scale < 0.01);
        let soft = Softness::new(1.0, 1.0, 1.0 / 240.0);
        assert!(soft.mass_scale < 0.1);
        assert_eq!(Softness::new(0.0, 1.0, 0.01), Softness::RIGID);
    }
}
