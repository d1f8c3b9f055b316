//! The one way headless commands read their input: a 2D scene or a 3D world with its
//! `--set FIELD=VALUE` overrides applied in order, and the report printed as text or JSON.
//! A bad file exits with 1 and a bad override with 2 (a usage error), the same for every
//! command.

use manifold_lab::scene::{self, PresetFile, Scene, World3dScene};
use serde::Serialize;
use std::path::Path;

/// Why a headless command could not start.
#[derive(Debug)]
pub enum LoadError {
    /// The file is missing or invalid (its message names file, line and column).
    File(String),
    /// An override does not name a field or holds a bad value.
    Set(String),
}

impl LoadError {
    /// Prints the error and returns the command's exit code: 1 for the file, 2 for `--set`.
    pub fn report(self) -> i32 {
        match self {
            LoadError::File(e) => {
                eprintln!("{e}");
                1
            }
            LoadError::Set(e) => {
                eprintln!("{e}");
                2
            }
        }
    }
}

/// The 2D scene at `path` with the solver overrides `set` applied in order.
pub fn scene(path: &Path, set: &[String]) -> Result<Scene, LoadError> {
    let mut scene = scene::load(path).map_err(|e| LoadError::File(e.to_string()))?;
    for assignment in set {
        scene::set_solver_field(&mut scene.settings, assignment)
            .map_err(|e| LoadError::Set(format!("--set {assignment}: {e}")))?;
    }
    Ok(scene)
}

/// The 3D world file at `path` with the settings overrides `set` applied in order.
pub fn world3d(path: &Path, set: &[String]) -> Result<World3dScene, LoadError> {
    let mut spec = World3dScene::load(path).map_err(|e| LoadError::File(e.to_string()))?;
    for assignment in set {
        scene::set_world3_field(&mut spec.settings, assignment)
            .map_err(|e| LoadError::Set(format!("--set {assignment}: {e}")))?;
    }
    Ok(spec)
}

/// Prints `report` as pretty JSON; 0, or 1 if it cannot be written.
pub fn print_json<T: Serialize>(report: &T) -> i32 {
    match serde_json::to_string_pretty(report) {
        Ok(s) => {
            println!("{s}");
            0
        }
        Err(e) => {
            eprintln!("cannot write JSON: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)
    }

    #[test]
    fn overrides_apply_in_order_and_a_bad_one_is_a_usage_error() {
        let set = ["hz=30".to_string(), "hz=120".to_string()];
        let s = scene(&shipped("pyramid.ron"), &set).unwrap();
        assert_eq!(s.settings.hz, 120.0);
        assert!(
            matches!(scene(&shipped("pyramid.ron"), &["nope=1".into()]), Err(LoadError::Set(e)) if e.contains("nope"))
        );
        assert!(matches!(scene(&shipped("missing.ron"), &[]), Err(LoadError::File(e)) if e.contains("missing.ron")));
        assert_eq!(LoadError::Set(String::new()).report(), 2);
        assert_eq!(LoadError::File(String::new()).report(), 1);
    }

    #[test]
    fn a_3d_world_takes_its_own_settings() {
        let w = world3d(&shipped("world3d/stack.ron"), &["gravity=(0, -3, 0)".into()]).unwrap();
        assert_eq!(w.settings.gravity.y, -3.0);
        assert!(matches!(world3d(&shipped("world3d/stack.ron"), &["hz=x".into()]), Err(LoadError::Set(_))));
    }
}
