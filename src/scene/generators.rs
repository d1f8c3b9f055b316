//! Generators: compact descriptions that expand into many dynamic bodies.

use super::fields;
use super::format::{default_density, default_friction};
use super::jointed::{self, Style, RAGDOLL_BONES};
use super::joints::BodyRef;
use super::shapes::ShapeSpec;
use crate::engine::compound::{self, Part};
use crate::engine::rng::SplitMix64;
use crate::engine::shape::Shape;
use crate::engine::{BodyDef, BodyKind};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Most bodies all generators of one scene may create together (the scene's limit,
/// explicit bodies included, is the same: `limits::MAX_BODIES`).
pub const MAX_GENERATED_BODIES: u64 = super::limits::MAX_BODIES as u64;

/// A recipe for many dynamic bodies. Generated bodies are named `{prefix}{index}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Generator {
    /// Box2D's large pyramid: row `i` (from the bottom) holds `base - i` boxes, centred on
    /// `origin.x`, the bottom row resting on `origin.y`. With `grid`, a grid of such pyramids
    /// (Box2D's many_pyramids), the first at `origin`.
    Pyramid {
        #[serde(deserialize_with = "fields::base")]
        base: u32,
        #[serde(default = "half", deserialize_with = "fields::half_size")]
        half_size: f32,
        #[serde(default, deserialize_with = "fields::origin")]
        origin: Vec2,
        /// Space between neighbouring boxes, horizontally and vertically.
        #[serde(default, deserialize_with = "fields::gap")]
        gap: f32,
        #[serde(default = "pyramid_prefix")]
        prefix: String,
        #[serde(default = "default_density", deserialize_with = "fields::generator_density")]
        density: f32,
        #[serde(default = "default_friction", deserialize_with = "fields::friction")]
        friction: f32,
        #[serde(default, deserialize_with = "fields::restitution")]
        restitution: f32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grid: Option<PyramidGrid>,
    },
    /// A vertical column of `count` copies of `shape`; `origin` is the bottom body's origin.
    Stack {
        #[serde(deserialize_with = "fields::count")]
        count: u32,
        shape: ShapeSpec,
        #[serde(default, deserialize_with = "fields::origin")]
        origin: Vec2,
        #[serde(default, deserialize_with = "fields::gap")]
        gap: f32,
        #[serde(default = "stack_prefix")]
        prefix: String,
        #[serde(default = "default_density", deserialize_with = "fields::generator_density")]
        density: f32,
        #[serde(default = "default_friction", deserialize_with = "fields::friction")]
        friction: f32,
        #[serde(default, deserialize_with = "fields::restitution")]
        restitution: f32,
    },
    /// A `columns` x `rows` grid from `origin` (bottom left), cycling through `shapes`, each
    /// position moved by up to `jitter` and turned by up to `angle_jitter` radians, drawn
    /// deterministically from `seed`.
    Rain {
        #[serde(deserialize_with = "fields::columns")]
        columns: u32,
        #[serde(deserialize_with = "fields::rows")]
        rows: u32,
        #[serde(default, deserialize_with = "fields::origin")]
        origin: Vec2,
        #[serde(default = "unit_spacing", deserialize_with = "fields::spacing")]
        spacing: Vec2,
        #[serde(deserialize_with = "fields::shapes")]
        shapes: Vec<ShapeSpec>,
        #[serde(default)]
        seed: u64,
        #[serde(default, deserialize_with = "fields::jitter")]
        jitter: f32,
        #[serde(default, deserialize_with = "fields::angle_jitter")]
        angle_jitter: f32,
        #[serde(default = "rain_prefix")]
        prefix: String,
        #[serde(default = "default_density", deserialize_with = "fields::generator_density")]
        density: f32,
        #[serde(default = "default_friction", deserialize_with = "fields::friction")]
        friction: f32,
        #[serde(default, deserialize_with = "fields::restitution")]
        restitution: f32,
        /// `false` creates every body asleep (Box2D's `isAwake = false`, its smash benchmark).
        #[serde(default = "awake", skip_serializing_if = "is_awake")]
        awake: bool,
    },
    /// `count` links of `link` laid from `origin` along `direction`, hinged at their shared
    /// ends (revolute joints with `friction_torque` of joint friction); `start` and `end` name
    /// bodies hinged to the chain's two ends (Box2D's chain and bridge samples). A link's
    /// pivots are its capsule segment's ends, or its extent along x.
    Chain {
        #[serde(deserialize_with = "fields::count")]
        count: u32,
        #[serde(default, deserialize_with = "fields::origin")]
        origin: Vec2,
        #[serde(default = "jointed::unit_x", deserialize_with = "fields::direction")]
        direction: Vec2,
        link: ShapeSpec,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<BodyRef>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        end: Option<BodyRef>,
        #[serde(default, deserialize_with = "fields::friction_torque")]
        friction_torque: f32,
        #[serde(default = "jointed::chain_prefix")]
        prefix: String,
        #[serde(default = "default_density", deserialize_with = "fields::generator_density")]
        density: f32,
        #[serde(default = "default_friction", deserialize_with = "fields::friction")]
        friction: f32,
        #[serde(default, deserialize_with = "fields::restitution")]
        restitution: f32,
    },
    /// Box2D's joint grid benchmark: `size × size` circles hinged to their neighbours, the
    /// middle `anchors` of the top row static, the circles not colliding with each other.
    JointGrid {
        #[serde(default = "jointed::grid_size", deserialize_with = "fields::size")]
        size: u32,
        #[serde(default, deserialize_with = "fields::origin")]
        origin: Vec2,
        #[serde(default = "jointed::grid_radius", deserialize_with = "fields::radius")]
        radius: f32,
        #[serde(default = "jointed::grid_spacing", deserialize_with = "fields::pitch")]
        spacing: f32,
        #[serde(default = "jointed::grid_anchors")]
        anchors: u32,
        #[serde(default = "jointed::grid_prefix")]
        prefix: String,
        #[serde(default = "default_density", deserialize_with = "fields::generator_density")]
        density: f32,
        #[serde(default = "default_friction", deserialize_with = "fields::friction")]
        friction: f32,
    },
    /// Static square tiles in rows (Box2D's rain ground): `rows` rows of `columns` boxes of
    /// `half_size`, the first at `origin`, `pitch.x` apart along a row and rows `pitch.y`
    /// apart, each run of 16 tiles one static body of 16 shapes (bodies hold at most 16).
    Tiles {
        #[serde(deserialize_with = "fields::columns")]
        columns: u32,
        #[serde(deserialize_with = "fields::rows")]
        rows: u32,
        #[serde(default = "half", deserialize_with = "fields::half_size")]
        half_size: f32,
        #[serde(default, deserialize_with = "fields::origin")]
        origin: Vec2,
        #[serde(default = "unit_spacing", deserialize_with = "fields::spacing")]
        pitch: Vec2,
        #[serde(default = "tiles_prefix")]
        prefix: String,
        #[serde(default = "default_friction", deserialize_with = "fields::friction")]
        friction: f32,
    },
    /// A capsule ragdoll (after Box2D's human sample) standing with its feet at `origin`,
    /// `scale` × 1.5 m tall, its hinges limited and with `friction_torque` of joint friction.
    Ragdoll {
        #[serde(default, deserialize_with = "fields::origin")]
        origin: Vec2,
        #[serde(default = "jointed::unit_scale", deserialize_with = "fields::scale")]
        scale: f32,
        #[serde(default = "jointed::ragdoll_friction", deserialize_with = "fields::friction_torque")]
        friction_torque: f32,
        /// Starting velocity of every bone.
        #[serde(default, deserialize_with = "fields::linear_velocity")]
        velocity: Vec2,
        #[serde(default = "jointed::ragdoll_prefix")]
        prefix: String,
        #[serde(default = "default_density", deserialize_with = "fields::generator_density")]
        density: f32,
        #[serde(default = "default_friction", deserialize_with = "fields::friction")]
        friction: f32,
    },
}

/// Static tiles of Box2D's rain ground, [`compound::MAX_PARTS`] to a body.
fn tile_bodies(columns: u32, rows: u32, half_size: f32, origin: Vec2, pitch: Vec2, style: &Style) -> Vec<BodyDef> {
    let Ok(tile) = Shape::make_box(Vec2::splat(half_size)) else { return Vec::new() };
    let mut defs = Vec::new();
    let mut y = origin.y;
    for _ in 0..rows {
        // Box2D's loop: x starts at the row's left end and adds the pitch box by box.
        let mut x = origin.x;
        let mut parts = Vec::with_capacity(compound::MAX_PARTS);
        for k in 0..columns {
            let mut part = Part::new(tile, Vec2::new(x, y), 0.0);
            part.material = style.material;
            parts.push(part);
            if parts.len() == compound::MAX_PARTS || k + 1 == columns {
                let mut def = style.def(defs.len(), BodyKind::Static, tile, Vec2::ZERO, 0.0);
                def.parts = std::mem::take(&mut parts);
                if def.parts.len() == 1 {
                    // One tile: a body of one shape at the tile.
                    def.position = def.parts.remove(0).offset;
                }
                defs.push(def);
            }
            x += pitch.x;
        }
        y += pitch.y;
    }
    defs
}

/// Copies of a pyramid in `columns` × `rows`, `pitch` apart (Box2D's many_pyramids: each row
/// of pyramids on its own ground, `pitch.y` above the last).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PyramidGrid {
    #[serde(deserialize_with = "fields::columns")]
    pub columns: u32,
    #[serde(deserialize_with = "fields::rows")]
    pub rows: u32,
    #[serde(deserialize_with = "fields::spacing")]
    pub pitch: Vec2,
}

impl PyramidGrid {
    /// How many pyramids.
    pub fn count(&self) -> u64 {
        u64::from(self.columns) * u64::from(self.rows)
    }

    /// Each pyramid's origin, bottom row first, left to right.
    pub fn origins(&self, origin: Vec2) -> impl Iterator<Item = Vec2> + '_ {
        (0..self.rows).flat_map(move |r| {
            (0..self.columns).map(move |c| origin + Vec2::new(c as f32 * self.pitch.x, r as f32 * self.pitch.y))
        })
    }
}

fn awake() -> bool {
    true
}

fn is_awake(awake: &bool) -> bool {
    *awake
}

fn half() -> f32 {
    0.5
}

fn unit_spacing() -> Vec2 {
    Vec2::ONE
}

fn pyramid_prefix() -> String {
    "pyramid_".to_string()
}

fn stack_prefix() -> String {
    "stack_".to_string()
}

fn tiles_prefix() -> String {
    "tiles_".to_string()
}

fn rain_prefix() -> String {
    "rain_".to_string()
}

impl Generator {
    /// How many bodies [`Generator::bodies`] creates (computed without overflow).
    pub fn body_count(&self) -> u64 {
        match self {
            Generator::Pyramid { base, grid, .. } => {
                u64::from(*base) * (u64::from(*base) + 1) / 2 * grid.as_ref().map_or(1, PyramidGrid::count)
            }
            Generator::Stack { count, .. } => u64::from(*count),
            Generator::Rain { columns, rows, shapes, .. } => {
                if shapes.is_empty() {
                    0
                } else {
                    u64::from(*columns) * u64::from(*rows)
                }
            }
            Generator::Chain { count, .. } => u64::from(*count),
            Generator::JointGrid { size, .. } => u64::from(*size) * u64::from(*size),
            Generator::Ragdoll { .. } => RAGDOLL_BONES,
            Generator::Tiles { columns, rows, .. } => {
                u64::from(*columns).div_ceil(compound::MAX_PARTS as u64) * u64::from(*rows)
            }
        }
    }

    /// The bodies, in a fixed order (pyramid and rain: bottom row first, left to right).
    /// Generators over [`MAX_GENERATED_BODIES`] or with an invalid shape create nothing.
    pub fn bodies(&self) -> Vec<BodyDef> {
        if self.body_count() > MAX_GENERATED_BODIES {
            return Vec::new();
        }
        if let Some((bodies, _)) = self.jointed(0) {
            return bodies;
        }
        match self {
            Generator::Pyramid { base, half_size, origin, gap, prefix, density, friction, restitution, grid } => {
                let Ok(shape) = Shape::make_box(Vec2::splat(*half_size)) else {
                    return Vec::new();
                };
                let style = Style::new(prefix, *density, *friction, *restitution);
                let origins: Vec<Vec2> = grid.as_ref().map_or_else(|| vec![*origin], |g| g.origins(*origin).collect());
                origins
                    .into_iter()
                    .flat_map(|o| pyramid_positions(*base, *half_size, o, *gap))
                    .enumerate()
                    .map(|(i, p)| style.def(i, BodyKind::Dynamic, shape, p, 0.0))
                    .collect()
            }
            Generator::Stack { count, shape, origin, gap, prefix, density, friction, restitution } => {
                let style = Style::new(prefix, *density, *friction, *restitution);
                let pitch = shape.height() + gap;
                (0..*count)
                    .map(|i| {
                        let p = *origin + Vec2::new(0.0, i as f32 * pitch);
                        style.def(i as usize, BodyKind::Dynamic, shape.shape(), p, 0.0)
                    })
                    .collect()
            }
            Generator::Rain {
                columns,
                rows,
                origin,
                spacing,
                shapes,
                seed,
                jitter,
                angle_jitter,
                prefix,
                density,
                friction,
                restitution,
                awake,
            } => {
                let style = Style::new(prefix, *density, *friction, *restitution);
                let mut rng = SplitMix64::new(*seed);
                let mut defs = Vec::with_capacity(self.body_count() as usize);
                for row in 0..*rows {
                    for col in 0..*columns {
                        let i = defs.len();
                        let grid = *origin + Vec2::new(col as f32 * spacing.x, row as f32 * spacing.y);
                        let offset = rng.vec2(-1.0, 1.0) * *jitter;
                        let turn = rng.f32(-1.0, 1.0);
                        let angle = if *angle_jitter > 0.0 { turn * *angle_jitter } else { 0.0 };
                        let shape = shapes[i % shapes.len()].shape();
                        let mut def = style.def(i, BodyKind::Dynamic, shape, grid + offset, angle);
                        def.awake = *awake;
                        defs.push(def);
                    }
                }
                defs
            }
            Generator::Tiles { columns, rows, half_size, origin, pitch, prefix, friction } => {
                let style = Style::new(prefix, 1.0, *friction, 0.0);
                tile_bodies(*columns, *rows, *half_size, *origin, *pitch, &style)
            }
            Generator::Chain { .. } | Generator::JointGrid { .. } | Generator::Ragdoll { .. } => Vec::new(),
        }
    }
}

/// Centres of a pyramid's boxes, bottom row first, left to right.
pub fn pyramid_positions(base: u32, half_size: f32, origin: Vec2, gap: f32) -> Vec<Vec2> {
    let pitch = 2.0 * half_size + gap;
    let count = u64::from(base) * (u64::from(base) + 1) / 2;
    let mut out = Vec::with_capacity(count.min(MAX_GENERATED_BODIES) as usize);
    for row in 0..base {
        let n = base - row;
        let y = origin.y + half_size + row as f32 * pitch;
        for k in 0..n {
            let x = origin.x + (k as f32 - 0.5 * (n - 1) as f32) * pitch;
            out.push(Vec2::new(x, y));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pyramid_matches_box2d_layout() {
        // Box2D: x = (i + 1) h + 2 (j - i) h - h N, y = (2 i + 1) h.
        let (n, h) = (4u32, 0.5f32);
        let got = pyramid_positions(n, h, Vec2::ZERO, 0.0);
        let mut want = Vec::new();
        for i in 0..n {
            for j in i..n {
                want.push(Vec2::new(
                    (i as f32 + 1.0) * h + 2.0 * (j - i) as f32 * h - h * n as f32,
                    (2 * i + 1) as f32 * h,
                ));
            }
        }
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert!((*g - *w).length() < 1e-6, "{g} vs {w}");
        }
    }

    #[test]
    fn oversized_generators_create_nothing() {
        let g = Generator::Stack {
            count: 200_000,
            shape: ShapeSpec::from_shape(&Shape::circle(0.5).unwrap()),
            origin: Vec2::ZERO,
            gap: 0.0,
            prefix: String::new(),
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
        };
        assert_eq!(g.body_count(), 200_000);
        assert!(g.bodies().is_empty());
    }
}
