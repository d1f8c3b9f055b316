//! `manifold-lab check`: validates every kind of file the app opens (scenes, 3D worlds, the
//! labs' presets, recordings), each told by its content as the window's Open tells it
//! (`scene::FileKind`) and read by its own parser, so a file checks exactly when it opens.

use super::world3d;
use crate::app::timeline::record::{kind_of, Recording, RecordingKind};
use crate::app::timeline::record3::Recording3;
use manifold_lab::scene::PresetFile;
use manifold_lab::scene::{self, FileKind};
use std::path::{Path, PathBuf};

/// Checks `files`: a line per file (`ok    FILE (what it holds)` or `error FILE:LINE:COLUMN:
/// message`); exit code 1 if any file is bad.
pub fn check(files: &[PathBuf]) -> i32 {
    let mut bad = 0;
    for f in files {
        match check_file(f) {
            Ok(what) => println!("ok    {} ({what})", f.display()),
            Err(e) => {
                println!("error {e}");
                bad += 1;
            }
        }
    }
    if bad > 0 {
        eprintln!("{bad} of {} files have errors", files.len());
        1
    } else {
        0
    }
}

/// What a good file holds, in a few words, or its located error.
fn check_file(path: &Path) -> Result<String, String> {
    let kind = FileKind::of(path)?;
    let located = |e: scene::SceneError| e.to_string();
    let preset = |lab: &str| format!("{} preset of the {lab} lab", kind.name());
    Ok(match kind {
        FileKind::Scene => {
            let w = scene::load(path).map_err(located)?.build_world();
            format!("{} bodies", w.bodies.len())
        }
        FileKind::World3d => world3d::check(path)?,
        FileKind::Pair => scene::PairSpec::load(path).map(|_| preset("Manifold and Minkowski")).map_err(located)?,
        FileKind::Hulls => scene::HullsSpec::load(path).map(|_| preset("3D hull SAT")).map_err(located)?,
        FileKind::Cloud => {
            let c = scene::CloudSpec::load(path).map_err(located)?;
            format!("{}, {} points", preset("hull"), c.points.len())
        }
        FileKind::Toi => scene::ToiSpec::load(path).map(|_| preset("time of impact")).map_err(located)?,
        FileKind::Slice => scene::SliceSpec::load(path).map(|_| preset("slicing")).map_err(located)?,
        FileKind::Recording => {
            let text = scene::read_text(path).map_err(located)?;
            let file = path.display().to_string();
            match kind_of(&text, &file)? {
                RecordingKind::Scene => {
                    let r = Recording::parse(&text, &file)?;
                    format!("recording: {} steps, {} edits", r.header.steps, r.header.actions.len())
                }
                RecordingKind::World3d => {
                    let r = Recording3::parse(&text, &file)?;
                    format!("3D recording: {} steps, {} edits", r.header.steps, r.header.edits.len())
                }
            }
        }
    })
}
