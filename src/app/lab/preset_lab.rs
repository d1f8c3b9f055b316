//! What the labs whose whole input is one preset file share (the slicing, time-of-impact and
//! hull construction labs): opening a preset (the lab's default when none is given) on an
//! empty, paused world, saving the current configuration named after its file, and Restart
//! reading the file again.

use super::{preset_name, LabType};
use crate::app::state::{App, RunMode};
use manifold_lab::scene::PresetFile;
use std::path::{Path, PathBuf};

/// A lab built from one preset file.
pub trait PresetLab: LabType {
    type Spec: PresetFile + Clone;
    /// The preset opened when no file is given (relative to the working directory).
    const DEFAULT_PRESET: &'static str;

    /// The lab on `spec`, read from `path` if it came from a file.
    fn from_spec(spec: Self::Spec, path: Option<PathBuf>) -> Self;
    /// The file the lab was opened from.
    fn preset_path(&self) -> Option<&Path>;
    /// The configuration as it stands, as a preset named `name`.
    fn current_spec(&self, name: String) -> Self::Spec;
    /// Recomputes what the lab shows from its configuration.
    fn recompute(&mut self);
}

/// Opens `file` (or the default preset) for a `LabType::open`.
pub fn open<L: PresetLab>(app: &mut App, file: Option<&Path>) -> Result<L, String> {
    let path = file.map_or_else(|| PathBuf::from(L::DEFAULT_PRESET), Path::to_path_buf);
    let spec = L::Spec::load(&path).map_err(|e| e.to_string())?;
    app.world = manifold_lab::engine::World::new(Default::default());
    app.mode = RunMode::Paused;
    Ok(L::from_spec(spec, Some(path)))
}

/// Saves the lab's configuration to `path`, named after the file; the notice or the error is
/// shown.
pub fn save<L: PresetLab>(lab: &L, app: &mut App, path: &Path) {
    let spec = lab.current_spec(preset_name(path));
    L::report_save(app, path, spec.save(path));
}

/// Restart: the lab's file read again, or (a lab not from a file) its view recomputed.
pub fn restart<L: PresetLab>(lab: &mut L, app: &mut App) {
    match lab.preset_path().map(Path::to_path_buf) {
        Some(p) => lab.reload(app, &p),
        None => lab.recompute(),
    }
}
