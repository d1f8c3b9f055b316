//! Pair files (`scenes/pairs/*.ron`): two shapes and their poses, the input of the narrowphase
//! labs. A surprising configuration saved from a lab becomes a regression case.
//!
//! ```ron
//! Pair(
//!     version: 1,
//!     name: "Box on box",
//!     description: "...",
//!     a: (shape: Box(half_extents: (1.0, 1.0)), position: (0.0, 0.0)),
//!     b: (shape: Circle(radius: 0.5), position: (0.4, 1.3), angle: 0.3),
//! )
//! ```

use super::fields;
use super::kind::FileKind;
use super::preset::PresetFile;
use super::shapes::ShapeSpec;
use crate::engine::body::{BodyDef, BodyKind};
use crate::engine::solver::SolverParams;
use crate::engine::World;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// One shape of a pair, placed in the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairShape {
    pub shape: ShapeSpec,
    #[serde(deserialize_with = "fields::position")]
    pub position: Vec2,
    #[serde(default, deserialize_with = "fields::angle")]
    pub angle: f32,
}

/// Two shapes for the narrowphase labs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Pair", deny_unknown_fields)]
pub struct PairSpec {
    #[serde(deserialize_with = "fields::version")]
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub a: PairShape,
    pub b: PairShape,
    /// Speculative margin of the manifold (metres, 0 when absent): points up to this far
    /// apart are kept, as the world keeps them (`SolverParams::speculative_margin`). A pair
    /// taken from a running world carries the world's margin so its manifold is the world's.
    #[serde(default, skip_serializing_if = "is_zero", deserialize_with = "fields::margin")]
    pub margin: f32,
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

impl PairSpec {
    pub fn new(name: &str, a: PairShape, b: PairShape) -> PairSpec {
        PairSpec {
            version: fields::FORMAT_VERSION,
            name: name.to_string(),
            description: String::new(),
            a,
            b,
            margin: 0.0,
        }
    }

    /// A world holding A (body 0) and B (body 1) as kinematic bodies at rest, without gravity:
    /// the labs move them only when the user drags them. The world's speculative margin is the
    /// pair's.
    pub fn build_world(&self) -> World {
        let mut world =
            World::new(SolverParams { gravity: Vec2::ZERO, speculative_margin: self.margin, ..Default::default() });
        for (name, s) in [("A", &self.a), ("B", &self.b)] {
            let mut def = BodyDef::new(BodyKind::Kinematic, s.shape.shape(), s.position);
            def.name = name.to_string();
            def.angle = s.angle;
            world.create_body(&def);
        }
        world
    }

    /// The pair as its world currently places the two bodies, with the world's margin.
    pub fn from_world(world: &World, name: &str) -> Option<PairSpec> {
        let shape = |i: usize| {
            let b = world.bodies.get(i)?;
            Some(PairShape { shape: ShapeSpec::from_shape(&b.shape), position: b.xf.p, angle: b.angle })
        };
        let mut p = PairSpec::new(name, shape(0)?, shape(1)?);
        p.margin = world.params.speculative_margin;
        Some(p)
    }
}

impl PresetFile for PairSpec {
    const KIND: FileKind = FileKind::Pair;
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"Pair(
    version: 1,
    name: "test",
    a: (shape: Box(half_extents: (1.0, 0.5)), position: (0.0, 0.0)),
    b: (shape: Polygon(points: [(-0.5, -0.4), (0.6, -0.4), (0.0, 0.7)]), position: (0.3, 0.8), angle: 0.77),
)"#;

    #[test]
    fn parses_builds_and_round_trips() {
        let p = PairSpec::parse(TEXT, "t.ron").unwrap();
        let w = p.build_world();
        assert_eq!(w.bodies.len(), 2);
        assert_eq!(w.bodies[1].angle, 0.77);
        let text = p.to_ron_string().unwrap();
        let back = PairSpec::parse(&text, "back.ron").unwrap();
        assert_eq!(back, p);
        let again = PairSpec::from_world(&back.build_world(), "test").unwrap();
        assert_eq!(again.a.position, p.a.position);
        assert_eq!(again.b.angle, p.b.angle);
        // No margin: 0, and none written; a margin is kept and becomes the world's.
        assert_eq!(p.margin, 0.0);
        assert!(!text.contains("margin"));
        let with =
            PairSpec::parse(&TEXT.replace("    version: 1,", "    version: 1,\n    margin: 0.02,"), "w.ron").unwrap();
        assert_eq!(with.build_world().params.speculative_margin, 0.02);
        assert_eq!(PairSpec::parse(&with.to_ron_string().unwrap(), "w2.ron").unwrap(), with);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let bad = TEXT.replace("Box(half_extents: (1.0, 0.5))", "Box(half_extents: (1.0, -0.5))");
        let e = PairSpec::parse(&bad, "bad.ron").unwrap_err().to_string();
        assert!(e.starts_with("bad.ron:4:"), "{e}");
        assert!(e.contains("half extents"), "{e}");
        let nan = TEXT.replace("angle: 0.77", "angle: NaN");
        let e = PairSpec::parse(&nan, "nan.ron").unwrap_err().to_string();
        assert!(e.starts_with("nan.ron:5:") && e.contains("angle"), "{e}");
        let bad_margin = TEXT.replace("    version: 1,", "    version: 1,\n    margin: -0.1,");
        let e = PairSpec::parse(&bad_margin, "m.ron").unwrap_err().to_string();
        assert!(e.starts_with("m.ron:3:") && e.contains("margin"), "{e}");
        let missing = TEXT.replace("position: (0.3, 0.8), ", "");
        assert!(PairSpec::parse(&missing, "m.ron").unwrap_err().to_string().contains("position"));
    }
}
