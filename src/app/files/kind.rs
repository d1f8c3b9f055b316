//! What a file holds (`scene::FileKind`, told by its content) and where the app opens it: a
//! scene in the world, a lab's preset in its lab, a recording on the timeline.

use crate::app::lab::{LabKind, LABS};
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
    /// A scene or a recording, or the first lab of the `labs!` table that opens the kind.
    fn from(k: scene::FileKind) -> FileKind {
        match k {
            scene::FileKind::Scene => FileKind::Scene,
            scene::FileKind::Recording => FileKind::Recording,
            kind => {
                LABS.iter().copied().find(|lab| lab.entry().file == Some(kind)).map_or(FileKind::Scene, FileKind::Lab)
            }
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
