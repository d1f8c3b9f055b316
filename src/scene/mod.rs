//! Scene files: a versioned, human-writable RON format describing solver settings, a
//! camera, optional water, bodies and body generators (pyramid, stack, rain); 3D world files
//! (`World3d(...)`, module `world3d`) with hull bodies, joints and water.
//!
//! Loading validates everything while parsing: shapes go through the engine constructors,
//! numbers must be finite and in range, and every error reads `file:line:column: message`,
//! naming the body or generator it belongs to. Saving writes every body explicitly and
//! reads back to a world with the same [`crate::engine::World::state_hash`].

mod build;
mod cloud;
mod context;
mod error;
mod fields;
mod format;
mod generators;
mod hulls;
pub mod input_limits;
mod joint_arms;
mod joint_build;
mod joint_refs;
mod joint_save;
mod jointed;
mod joints;
mod kind;
pub mod limits;
mod lists;
mod locate;
mod override_ranges;
mod overrides;
mod pair;
mod parts;
mod parts3d;
mod preset;
mod ron_file;
mod save;
mod shapes;
mod slice;
pub mod spans;
mod toi;
mod water;
mod world3d;
mod world3d_build;
mod world3d_fields;

pub use cloud::{CloudSpec, MAX_CLOUD_POINTS};
pub use error::SceneError;
pub use fields::FORMAT_VERSION;
pub use format::{BodySpec, Camera, Scene};
pub use generators::{pyramid_positions, Generator, PyramidGrid, MAX_GENERATED_BODIES};
pub use hulls::{HullPlacement, HullShape, HullShapeDesc, HullsSpec, PartPlace, WorldNarrowphase, MAX_HULL_POINTS};
pub use joints::{BodyRef, FrameSpec, JointSpec};
pub use kind::{FileKind, RECORDING_EXTENSION, RECORDING_MAGIC};
pub use override_ranges::{solver_valid, world3_valid, Valid};
pub use overrides::{set_solver_field, set_world3_field, solver_field_names, world3_field_names};
pub use pair::{PairShape, PairSpec};
pub use parts::{PartSpec, MAX_PARTS};
pub use parts3d::Part3Spec;
pub use preset::PresetFile;
pub use ron_file::read_text;
pub use save::{save, scene_from_world};
pub use shapes::{ShapeDesc, ShapeSpec};
pub use slice::{Knife, SliceSpec};
pub use toi::{ToiBody, ToiPose, ToiSpec};
pub use water::WaterSpec;
pub use world3d::{
    is_world3d_text, leading_name, Body3Spec, BodyRef as Body3Ref, Camera3, Joint3Spec, WaterSpec as Water3Spec,
    World3dScene,
};

use std::path::Path;

/// Reads and parses the scene file at `path`.
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    parse(&ron_file::read_text(path)?, &path.display().to_string())
}

/// Parses scene text; `file_name` only labels errors. Joint body references are checked once
/// the whole scene is known; a bad one is reported at its position by a second parse.
pub fn parse(text: &str, file_name: &str) -> Result<Scene, SceneError> {
    let scene = parse_once(text, file_name, None)?;
    match scene.check_references() {
        Ok(()) => Ok(scene),
        Err(issue) => match parse_once(text, file_name, Some(issue.clone())) {
            Err(e) => Err(e),
            // Unreachable unless the parser skipped the item; still report the issue.
            Ok(_) => Err(SceneError::Parse {
                file: file_name.to_string(),
                line: 1,
                column: 1,
                message: format!("{} {}: {}", issue.list, issue.index, issue.message),
            }),
        },
    }
}

fn parse_once(text: &str, file_name: &str, issue: Option<joint_refs::RefIssue>) -> Result<Scene, SceneError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    context::reset();
    if let Some(i) = issue {
        context::inject(i.list, i.index, i.field, i.message);
    }
    let result = save::ron_options().from_str::<Scene>(text);
    let ctx = context::take_error();
    let blamed = context::take_field();
    result.map_err(|mut e| {
        let at = blamed.and_then(|field| locate::field_before(text, e.position.line, e.position.col, &field));
        if let Some((line, col)) = at {
            e.position = ron::error::Position { line, col };
        }
        SceneError::from_ron(file_name, e, ctx)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_scenes_use_defaults() {
        let s = parse("\u{feff}(version: 1)", "min.ron").unwrap();
        assert_eq!(s.settings, crate::engine::solver::SolverParams::default());
        assert_eq!((s.camera, s.bodies.len(), s.generators.len()), (None, 0, 0));
        assert_eq!(s.build_world().bodies.len(), 0);
    }

    #[test]
    fn settings_and_camera_are_partial_and_options_implicit() {
        let s = parse("Scene(version: 1, settings: (hz: 120, friction_override: 0.25), camera: (height: 8))", "s.ron")
            .unwrap();
        assert_eq!((s.settings.hz, s.settings.substeps), (120.0, 4));
        assert_eq!(s.settings.friction_override, Some(0.25));
        assert_eq!(s.camera, Some(Camera { height: 8.0, ..Camera::default() }));
        let back = parse(&s.to_ron_string().unwrap(), "s.ron").unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn errors_in_settings_point_at_the_field() {
        let text = "Scene(\n  version: 1,\n  settings: (\n    gravity: (0, inf),\n    hz: 60,\n  ),\n)";
        let err = parse(text, "g.ron").unwrap_err().to_string();
        assert_eq!(err, "g.ron:4:14: settings: `gravity.y` must be a finite number, got inf");
    }
}
