//! What a file holds, told by its content: the top-level RON name (`Scene(`, `Pair(`, ...) or,
//! for a recording, its magic line or its `.mlrec` extension. The window opens each kind where
//! it belongs and `check` validates it with its own parser, both from this one answer.

use super::leading_name;
use std::path::Path;

/// Every kind of file the app opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `Scene(...)` (or a nameless struct): the 2D world.
    Scene,
    /// `MLREC 1` first: a recording of a run.
    Recording,
    /// `Pair(...)`: two shapes, the narrowphase labs' preset.
    Pair,
    /// `Hulls(...)`: two 3D hulls, the 3D hull lab's preset.
    Hulls,
    /// `Cloud(...)`: a point cloud, the hull lab's preset.
    Cloud,
    /// `Toi(...)`: two moving shapes, the time-of-impact lab's preset.
    Toi,
    /// `Slice(...)`: a shape and a knife, the slice lab's preset.
    Slice,
    /// `World3d(...)`: the 3D world.
    World3d,
}

/// The first word of a recording.
pub const RECORDING_MAGIC: &str = "MLREC";

/// The extension of recordings.
pub const RECORDING_EXTENSION: &str = "mlrec";

/// The kinds told by their top-level RON name.
const NAMED: [FileKind; 7] = [
    FileKind::Scene,
    FileKind::Pair,
    FileKind::Hulls,
    FileKind::Cloud,
    FileKind::Toi,
    FileKind::Slice,
    FileKind::World3d,
];

impl FileKind {
    /// The top-level RON name of files of this kind (`MLREC` for recordings).
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Scene => "Scene",
            FileKind::Recording => RECORDING_MAGIC,
            FileKind::Pair => "Pair",
            FileKind::Hulls => "Hulls",
            FileKind::Cloud => "Cloud",
            FileKind::Toi => "Toi",
            FileKind::Slice => "Slice",
            FileKind::World3d => "World3d",
        }
    }

    /// What the file at `path` holds; an error names the file, line and column.
    pub fn of(path: &Path) -> Result<FileKind, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let by_extension = path.extension().is_some_and(|x| x.eq_ignore_ascii_case(RECORDING_EXTENSION));
        if by_extension || bytes.starts_with(RECORDING_MAGIC.as_bytes()) {
            return Ok(FileKind::Recording);
        }
        // A file that is not UTF-8 is a scene for the purpose of the error: the scene loader
        // locates the bad byte.
        let Ok(text) = std::str::from_utf8(&bytes) else { return Ok(FileKind::Scene) };
        FileKind::of_text(text, &path.display().to_string())
    }

    /// What RON `text` holds; `file` labels errors.
    pub fn of_text(text: &str, file: &str) -> Result<FileKind, String> {
        let names = || NAMED.map(FileKind::name).join(", ");
        let Some((name, line, column)) = leading_name(text) else {
            return Err(format!(
                "{file}:1:1: not a file manifold-lab opens: expected one of {} followed by `(`, or a \
                 recording (`{RECORDING_MAGIC} 1`)",
                names()
            ));
        };
        // RON allows the struct name to be left out: such a file is read as a scene.
        if name.is_empty() {
            return Ok(FileKind::Scene);
        }
        NAMED.into_iter().find(|k| k.name() == name).ok_or_else(|| {
            format!("{file}:{line}:{column}: `{name}` is not a kind of file manifold-lab opens (expected {})", names())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_told_by_their_leading_name() {
        assert_eq!(FileKind::of_text("/* x */ Pair(", "f"), Ok(FileKind::Pair));
        assert_eq!(FileKind::of_text("\u{feff}// c\nScene (", "f"), Ok(FileKind::Scene));
        assert_eq!(FileKind::of_text("(version: 1)", "f"), Ok(FileKind::Scene));
        for k in NAMED {
            assert_eq!(FileKind::of_text(&format!("{}(version: 1)", k.name()), "f"), Ok(k));
        }
        assert!(FileKind::of_text("", "f").unwrap_err().starts_with("f:1:1:"));
        let e = FileKind::of_text("\n\n  Nope(", "f").unwrap_err();
        assert!(e.starts_with("f:3:3:") && e.contains("Toi"), "{e}");
    }
}
