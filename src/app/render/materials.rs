//! Two untextured materials for the world's mesh and the panels' backgrounds. macroquad's
//! default material samples a texture and blends every pixel; a shape needs neither, and on a
//! software renderer the sampling and blending are most of a frame's cost.

use macroquad::miniquad::{BlendFactor, BlendState, BlendValue, Equation, PipelineParams};
use macroquad::prelude as mq;

const VERTEX: &str = r#"#version 100
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;
varying lowp vec4 color;
uniform mat4 Model;
uniform mat4 Projection;
void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
}"#;

const FRAGMENT: &str = r#"#version 100
varying lowp vec4 color;
void main() {
    gl_FragColor = color;
}"#;

/// Vertex colours only: `blended` for shapes (alpha), `opaque` for backgrounds.
pub struct Materials {
    pub blended: mq::Material,
    pub opaque: mq::Material,
}

impl Materials {
    /// Compiles both; `None` if the platform refuses the shaders (the default material is
    /// then used).
    pub fn new() -> Option<Materials> {
        let make = |blend: Option<BlendState>| {
            let params = mq::MaterialParams {
                pipeline_params: PipelineParams { color_blend: blend, ..Default::default() },
                ..Default::default()
            };
            mq::load_material(mq::ShaderSource::Glsl { vertex: VERTEX, fragment: FRAGMENT }, params)
        };
        let alpha = BlendState::new(
            Equation::Add,
            BlendFactor::Value(BlendValue::SourceAlpha),
            BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
        );
        Some(Materials { blended: make(Some(alpha)).ok()?, opaque: make(None).ok()? })
    }
}
