//! What a body is made of (Box2D v3's `b2SurfaceMaterial` plus the shape's density): one value
//! shared by `BodyDef`, `Body`, the app's body editor and the scene's body spec, so the three
//! numbers and their defaults and rules live in one place.

use serde::{Deserialize, Serialize};

/// Density, friction coefficient and restitution of a body.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Material {
    /// Mass per unit area, kg/m² (a 2D body's mass is density × area).
    pub density: f32,
    /// Coulomb friction coefficient; a contact mixes two as √(μa μb).
    pub friction: f32,
    /// Coefficient of restitution, 0 (no bounce) to 1 (elastic); a contact takes the larger.
    pub restitution: f32,
}

impl Material {
    /// Box2D's defaults: density 1, friction 0.6, no bounce.
    pub const DEFAULT: Material = Material { density: 1.0, friction: 0.6, restitution: 0.0 };

    /// Whether the values are usable for an existing body: all finite, density above zero,
    /// friction and restitution not negative. The error says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let finite = self.density.is_finite() && self.friction.is_finite() && self.restitution.is_finite();
        if !finite || self.density <= 0.0 || self.friction < 0.0 || self.restitution < 0.0 {
            return Err("material values must be finite; density > 0, friction and restitution >= 0".into());
        }
        Ok(())
    }
}

impl Default for Material {
    fn default() -> Self {
        Material::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_accepts_the_default_and_refuses_bad_values() {
        assert!(Material::default().check().is_ok());
        for bad in [
            Material { density: 0.0, ..Material::DEFAULT },
            Material { friction: -0.1, ..Material::DEFAULT },
            Material { restitution: f32::NAN, ..Material::DEFAULT },
            Material { density: f32::INFINITY, ..Material::DEFAULT },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }
}
