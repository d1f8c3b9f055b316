//! What the labs whose whole input is one preset file share (the slicing, time-of-impact and
//! hull construction labs): opening a preset (the lab's default when none is given) on an
//! empty, paused world, saving the current configuration named after its file, and Restart
//! reading the file again.

use super::{preset_name, LabType};
use crate::app::stage::Stage;
use crate::app::state::RunMode;
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
pub fn open<L: PresetLab>(app: &mut Stage, file: Option<&Path>) -> Result<L, String> {
    let path = file.map_or_else(|| PathBuf::from(L::DEFAULT_PRESET), Path::to_path_buf);
    let spec = L::Spec::load(&path).map_err(|e| e.to_string())?;
    app.world = manifold_lab::engine::World::new(Default::default());
    app.mode = RunMode::Paused;
    Ok(L::from_spec(spec, Some(path)))
}

/// Saves the lab's configuration to `path`, named after the file; the notice or the error is
/// shown.
pub fn save<L: PresetLab>(lab: &L, app: &mut Stage, path: &Path) {
    let spec = lab.current_spec(preset_name(path));
    L::report_save(app, path, spec.save(path));
}

/// Restart: the lab's file read again, or (a lab not from a file) its view recomputed.
pub fn restart<L: PresetLab>(lab: &mut L, app: &mut Stage) {
    match lab.preset_path().map(Path::to_path_buf) {
        Some(p) => lab.reload(app, &p),
        None => lab.recompute(),
    }
}

/// The `PresetLab` impl of a lab type with fields `spec` (a preset with a `name`) and `path`,
/// built by `new(spec, path)` and refreshed by `recompute`, whose folder's `DEFAULT_PRESET`
/// names its default file: `preset_lab!(SliceLab, SliceSpec)`.
macro_rules! preset_lab {
    ($lab:ty, $spec:ty) => {
        impl $crate::app::lab::preset_lab::PresetLab for $lab {
            type Spec = $spec;
            const DEFAULT_PRESET: &'static str = DEFAULT_PRESET;

            fn from_spec(spec: $spec, path: Option<std::path::PathBuf>) -> $lab {
                <$lab>::new(spec, path)
            }

            fn preset_path(&self) -> Option<&std::path::Path> {
                self.path.as_deref()
            }

            fn current_spec(&self, name: String) -> $spec {
                let mut s = self.spec.clone();
                s.name = name;
                s
            }

            fn recompute(&mut self) {
                <$lab>::recompute(self)
            }
        }
    };
}

/// The `Lab` methods a preset lab shares, inside its `impl Lab`: its kind, its file, Restart
/// reading the file again, its folder's `panels::controls` and `panels::details`, and framing
/// its content with `margin` around it: `preset_lab_methods!(Slice, 0.6);`.
macro_rules! preset_lab_methods {
    ($kind:ident, $margin:expr) => {
        fn kind(&self) -> LabKind {
            LabKind::$kind
        }

        fn file(&self) -> Option<&std::path::Path> {
            self.path.as_deref()
        }

        fn intercept(&mut self, app: &mut $crate::app::stage::Stage, action: &Action) -> bool {
            let restart = matches!(action, Action::Restart);
            if restart {
                $crate::app::lab::preset_lab::restart(self, app);
            }
            restart
        }

        fn controls(
            &self,
            ui: &mut egui::Ui,
            _app: &$crate::app::stage::Stage,
            files: &mut UiState,
            out: &mut Vec<Action>,
        ) {
            panels::controls(ui, self, files, out);
        }

        fn details(&self, ui: &mut egui::Ui, _app: &$crate::app::stage::Stage, out: &mut Vec<Action>) {
            panels::details(ui, self, out);
        }

        fn frame(&mut self, app: &mut $crate::app::stage::Stage) {
            if let Some(b) = self.content_bounds(app) {
                let vp = app.viewport;
                app.camera.frame(&vp, b.expanded($margin));
            }
        }
    };
}

pub(crate) use {preset_lab, preset_lab_methods};
