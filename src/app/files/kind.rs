//! What a file holds (`scene::FileKind`, told by its content) and where the app opens it: a
//! scene in the world, a lab's preset in its lab, a recording on the timeline.

use crate::app::lab::LabKind;
use crate::app::state::Action;
use manifold_lab::scene;
use std::path::{Path, PathBuf};

/// Where a file opens.
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

impl From<scene::FileKind> for FileKind {
    fn from(k: scene::FileKind) -> FileKind {
        use scene::FileKind as K;
        match k {
            K::Scene => FileKind::Scene,
            K::Recording => FileKind::Recording,
            K::Pair => FileKind::Lab(LabKind::Manifold),
            K::Hulls => FileKind::Lab(LabKind::Hull3d),
            K::Cloud => FileKind::Lab(LabKind::Hull),
            K::Toi => FileKind::Lab(LabKind::Toi),
            K::Slice => FileKind::Lab(LabKind::Slice),
            K::World3d => FileKind::Lab(LabKind::World3d),
        }
    }
}

impl FileKind {
    /// Where the file at `path` opens; an error names the file, line and column.
    pub fn of(path: &Path) -> Result<FileKind, String> {
        scene::FileKind::of(path).map(FileKind::from)
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
