//! What a file holds, told by its content (the top-level RON name) or, for recordings, its
//! magic line: each kind opens where it belongs (a scene in the world, a pair in the Manifold
//! lab, a recording on the timeline ...).

use crate::app::lab::LabKind;
use crate::app::state::Action;
use manifold_lab::scene;
use std::path::{Path, PathBuf};

/// The kinds of file the app opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `Scene(...)`: the 2D world.
    Scene,
    /// `MLREC 1`: a recording, replayed onto the timeline.
    Recording,
    /// A lab's preset: `Pair` (Manifold lab), `Hulls` (3D hulls lab), `Cloud` (hull lab),
    /// `Toi`, `Slice`, `World3d`.
    Lab(LabKind),
}

/// Top-level names of lab files and the lab each opens in.
const LAB_FILES: &[(&str, LabKind)] = &[
    ("Pair", LabKind::Manifold),
    ("Hulls", LabKind::Hull3d),
    ("Cloud", LabKind::Hull),
    ("Toi", LabKind::Toi),
    ("Slice", LabKind::Slice),
    ("World3d", LabKind::World3d),
];

impl FileKind {
    /// What the file at `path` holds; an error names the file, line and column.
    pub fn of(path: &Path) -> Result<FileKind, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if crate::app::timeline::record::is_recording(path) || bytes.starts_with(b"MLREC") {
            return Ok(FileKind::Recording);
        }
        // A file that is not UTF-8 is a scene for the purpose of the error: the scene
        // loader locates the bad byte.
        let Ok(text) = std::str::from_utf8(&bytes) else { return Ok(FileKind::Scene) };
        FileKind::of_text(text, &path.display().to_string())
    }

    /// What RON `text` holds; `file` labels errors.
    pub fn of_text(text: &str, file: &str) -> Result<FileKind, String> {
        let Some((name, line, column)) = scene::leading_name(text) else {
            return Err(format!(
                "{file}:1:1: not a file manifold-lab opens: expected `Scene(`, a lab preset (`Pair(`, \
                 `Hulls(`, `Cloud(`, `Toi(`, `Slice(`, `World3d(`) or a recording (`MLREC 1`)"
            ));
        };
        // RON allows the struct name to be left out: such a file is read as a scene.
        if name == "Scene" || name.is_empty() {
            return Ok(FileKind::Scene);
        }
        match LAB_FILES.iter().find(|(n, _)| *n == name) {
            Some(&(_, kind)) => Ok(FileKind::Lab(kind)),
            None => Err(format!(
                "{file}:{line}:{column}: `{name}` is not a kind of file manifold-lab opens (expected Scene, \
                 Pair, Hulls, Cloud, Toi, Slice or World3d)"
            )),
        }
    }

    /// The action that opens a file of this kind at `path`.
    pub fn open_action(self, path: PathBuf) -> Action {
        match self {
            FileKind::Scene | FileKind::Recording => Action::LoadScene(path),
            FileKind::Lab(kind) => Action::OpenLab { kind, file: Some(path) },
        }
    }

    /// Where it opens, for notices.
    pub fn label(self) -> &'static str {
        match self {
            FileKind::Scene => "scene",
            FileKind::Recording => "recording",
            FileKind::Lab(kind) => kind.entry().name,
        }
    }
}
