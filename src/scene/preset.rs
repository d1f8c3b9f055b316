//! One way to read and write every lab preset format (`Pair`, `Hulls`, `Cloud`, `Toi`, `Slice`,
//! `World3d`): a type names its top-level RON name through its [`FileKind`], and the trait gives
//! it parsing with errors at file:line:column, loading, pretty writing and saving. A format
//! that must locate errors its own way (the 3D world blames the field it was reading) overrides
//! [`PresetFile::parse`] alone.

use super::error::SceneError;
use super::kind::FileKind;
use super::ron_file;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

/// A preset file format: a RON struct under the top-level name of its [`FileKind`].
pub trait PresetFile: Sized + Serialize + DeserializeOwned {
    /// What files of this format hold; its name is the top-level RON name.
    const KIND: FileKind;

    /// Parses preset text; `file_name` only labels errors.
    fn parse(text: &str, file_name: &str) -> Result<Self, SceneError> {
        ron_file::parse_ron(text, file_name)
    }

    /// Reads the preset at `path`.
    fn load(path: &Path) -> Result<Self, SceneError> {
        Self::parse(&ron_file::read_text(path)?, &path.display().to_string())
    }

    /// The preset as pretty RON under its top-level name.
    fn to_ron_string(&self) -> Result<String, SceneError> {
        ron_file::to_ron_string(self, Self::KIND.name())
    }

    /// Writes the preset to `path`.
    fn save(&self, path: &Path) -> Result<(), SceneError> {
        ron_file::write_text(self.to_ron_string(), path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{CloudSpec, HullsSpec, PairSpec, SliceSpec, ToiSpec, World3dScene};
    use std::fmt::Debug;
    use std::path::PathBuf;

    /// Every shipped preset in `scenes/<dir>` parses, is told as its kind, and reads back equal
    /// from what it writes; returns how many files it checked.
    fn every_shipped_preset_round_trips<T: PresetFile + PartialEq + Debug>(dir: &str) -> usize {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes").join(dir);
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in &files {
            assert_eq!(FileKind::of(path), Ok(T::KIND), "{}", path.display());
            let spec = T::load(path).unwrap_or_else(|e| panic!("{e}"));
            let text = spec.to_ron_string().unwrap();
            assert!(text.starts_with(T::KIND.name()), "{text}");
            let back = T::parse(&text, "back.ron").unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
            assert_eq!(back, spec, "{}", path.display());
        }
        files.len()
    }

    #[test]
    fn every_shipped_preset_of_every_format_round_trips() {
        assert!(every_shipped_preset_round_trips::<PairSpec>("pairs") >= 5);
        assert!(every_shipped_preset_round_trips::<HullsSpec>("hulls") >= 5);
        assert!(every_shipped_preset_round_trips::<CloudSpec>("hull") >= 5);
        assert!(every_shipped_preset_round_trips::<ToiSpec>("toi") >= 3);
        assert!(every_shipped_preset_round_trips::<SliceSpec>("slice") >= 3);
        assert!(every_shipped_preset_round_trips::<World3dScene>("world3d") >= 3);
    }

    #[test]
    fn saving_writes_what_loading_reads() {
        let dir = std::env::temp_dir().join(format!("preset-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes/pairs/box_on_box.ron");
        let spec = PairSpec::load(&src).unwrap();
        let out = dir.join("saved.ron");
        spec.save(&out).unwrap();
        assert_eq!(PairSpec::load(&out).unwrap(), spec);
        let e = PairSpec::load(&dir.join("missing.ron")).unwrap_err().to_string();
        assert!(e.contains("missing.ron"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
