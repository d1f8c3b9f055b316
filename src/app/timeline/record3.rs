//! Recordings of 3D worlds: the `.mlrec` format of 2D recordings (`record`), with
//! `kind: World3d` in the header, the 3D settings (`World3Params`) as `params`, the settings
//! and water edits stamped with their step as `edits`, and the world file (`World3d(...)`)
//! after the `--- scene ---` line. A replay builds the world, applies each edit before its
//! step and reproduces the recorded state hash. The header is checked as a 2D one is
//! (`record_check`): ranges of the settings and of every edit, at their `file:line:column`.

use super::record::{Parts, RecordingKind, MAGIC, VERSION};
use super::record_check::{check_common, HeaderText};
use manifold_lab::engine::world3d::{Water3, World3, World3Params};
use manifold_lab::scene::{self, PresetFile, World3dScene};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A change to a 3D world a recording replays (what the lab's Solver and Water panels make).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit3 {
    SetParams(World3Params),
    SetWater(Vec<Water3>),
}

/// An edit and the step it was made at (before that step's simulation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stamped3 {
    pub step: u64,
    pub edit: Edit3,
}

/// The header of a 3D recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header3 {
    pub kind: RecordingKind,
    pub steps: u64,
    /// The state hash at `steps`, hex.
    pub final_hash: String,
    #[serde(default)]
    pub scene_path: Option<PathBuf>,
    /// The settings at step 0.
    pub params: World3Params,
    #[serde(default)]
    pub edits: Vec<Stamped3>,
}

/// A whole 3D recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording3 {
    pub header: Header3,
    pub scene: World3dScene,
}

impl Edit3 {
    fn apply(&self, w: &mut World3) {
        match self {
            Edit3::SetParams(p) => w.params = p.clone(),
            Edit3::SetWater(water) => w.set_water(water.clone()),
        }
    }

    fn validate(&self) -> Result<(), String> {
        match self {
            Edit3::SetParams(p) => p.validate(),
            Edit3::SetWater(water) => water.iter().try_for_each(Water3::validate),
        }
    }
}

impl Recording3 {
    /// Steps the world of `scene` `steps` times (with `edits` applied on the way) and records
    /// the run.
    pub fn record(scene: World3dScene, scene_path: Option<PathBuf>, steps: u64, edits: Vec<Stamped3>) -> Recording3 {
        let params = scene.settings.clone();
        let mut r = Recording3 {
            header: Header3 {
                kind: RecordingKind::World3d,
                steps,
                final_hash: String::new(),
                scene_path,
                params,
                edits,
            },
            scene,
        };
        let hash = r.replay_with(None, &mut |_| {}).map_or(0, |w| w.state_hash());
        r.header.final_hash = format!("{hash:016x}");
        r
    }

    pub fn to_text(&self) -> Result<String, String> {
        let pretty = ron::ser::PrettyConfig::new().depth_limit(3);
        let header = ron::ser::to_string_pretty(&self.header, pretty).map_err(|e| e.to_string())?;
        let scene = self.scene.to_ron_string().map_err(|e| e.to_string())?;
        Ok(format!("{MAGIC} {VERSION}\n{header}\n--- scene ---\n{scene}\n"))
    }

    /// Parses 3D recording text; `file` labels errors.
    pub fn parse(text: &str, file: &str) -> Result<Recording3, String> {
        let parts = Parts::split(text, file)?;
        if parts.kind(file)? != RecordingKind::World3d {
            return Err(format!("{file}:2:1: a 2D scene's recording, not a 3D world's"));
        }
        let header: Header3 = parts.header(file)?;
        check(&header, &HeaderText { text: parts.header_text, file, lines_before: 1 })?;
        let scene = World3dScene::parse(parts.scene_text, file).map_err(|e| parts.locate(e))?;
        Ok(Recording3 { header, scene })
    }

    pub fn load(path: &Path) -> Result<Recording3, String> {
        let text = scene::read_text(path).map_err(|e| e.to_string())?;
        Recording3::parse(&text, &path.display().to_string())
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_text()?).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The world replayed up to `steps` (the recording's end by default), telling `progress`
    /// each step reached.
    pub fn replay_with(&self, steps: Option<u64>, progress: &mut dyn FnMut(u64)) -> Result<World3, String> {
        let end = steps.unwrap_or(self.header.steps);
        let mut w = self.scene.build_world()?;
        w.params = self.header.params.clone();
        let mut next = 0;
        loop {
            while let Some(e) = self.header.edits.get(next).filter(|e| e.step <= w.step_count) {
                e.edit.apply(&mut w);
                next += 1;
            }
            if w.step_count >= end {
                return Ok(w);
            }
            progress(w.step_count);
            w.step();
        }
    }

    /// The hash the recording says its end has.
    pub fn final_hash(&self) -> u64 {
        u64::from_str_radix(&self.header.final_hash, 16).unwrap_or(0)
    }
}

/// Checks a 3D header: what every header holds, then each edit's step and ranges.
fn check(header: &Header3, h: &HeaderText) -> Result<(), String> {
    check_common(h, header.steps, &header.final_hash, header.params.validate())?;
    let (start, end) = h.whole();
    let list = scene::spans::value_of(h.text, start, end, "edits").unwrap_or(start);
    let items = scene::spans::list_items(h.text, list);
    let list_end = scene::spans::closing(h.text, list);
    for (k, e) in header.edits.iter().enumerate() {
        let from = items.get(k).copied().unwrap_or(list);
        let to = items.get(k + 1).copied().unwrap_or(list_end);
        if e.step > header.steps {
            let at = h.at(from, to, "step");
            return Err(format!("{at}: edit {k}: step {} is past the end ({})", e.step, header.steps));
        }
        if let Err(msg) = e.edit.validate() {
            let at = h.field_at(from, to, "edit", &msg);
            return Err(format!("{at}: edit {k}: {msg}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::timeline::record::Recording;

    fn stack() -> World3dScene {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/world3d/stack.ron");
        World3dScene::load(&path).unwrap()
    }

    #[test]
    fn edits_replay_at_their_step_to_the_hash_of_the_same_run_made_by_hand() {
        let scene = stack();
        let mut p = scene.settings.clone();
        (p.iterations, p.gravity) = (3, glam::Vec3::new(2.0, -9.0, 0.0));
        let edits = vec![Stamped3 { step: 10, edit: Edit3::SetParams(p.clone()) }];
        let rec = Recording3::record(scene.clone(), None, 30, edits);
        let mut w = scene.build_world().unwrap();
        (0..10).for_each(|_| w.step());
        w.params = p;
        (0..20).for_each(|_| w.step());
        assert_eq!(rec.final_hash(), w.state_hash());
        // Written and read back, it is the same recording and replays to the same hash.
        let back = Recording3::parse(&rec.to_text().unwrap(), "r.mlrec").unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.replay_with(None, &mut |_| {}).unwrap().state_hash(), w.state_hash());
        // A 2D reader refuses it by its kind, and a 3D reader a 2D recording.
        let e = Recording::parse(&rec.to_text().unwrap(), "r.mlrec").unwrap_err();
        assert!(e.starts_with("r.mlrec:2:1: a 3D world's recording"), "{e}");
    }

    #[test]
    fn a_bad_edit_is_refused_at_its_field() {
        let scene = stack();
        let mut p = scene.settings.clone();
        p.iterations = 7;
        let edits = vec![
            Stamped3 { step: 2, edit: Edit3::SetWater(Vec::new()) },
            Stamped3 { step: 4, edit: Edit3::SetParams(p) },
        ];
        let text = Recording3::record(scene, None, 6, edits).to_text().unwrap();
        assert!(Recording3::parse(&text, "r.mlrec").is_ok());
        // The header's last `iterations` is the edit's (the first belongs to the settings at
        // step 0).
        let header_end = text.find("--- scene ---").unwrap();
        let at = text[..header_end].rfind("iterations: 7").unwrap();
        let before = &text[..at];
        let place =
            format!("r.mlrec:{}:{}", before.matches('\n').count() + 1, before.rsplit('\n').next().unwrap().len() + 13);
        let bad = format!("{before}iterations: 0{}", &text[at + 13..]);
        let e = Recording3::parse(&bad, "r.mlrec").unwrap_err();
        assert!(e.starts_with(&format!("{place}: edit 1: `iterations` must be between")), "{e}, expected at {place}");
        let bad = text.replacen("step: 4,", "step: 7,", 1);
        let e = Recording3::parse(&bad, "r.mlrec").unwrap_err();
        assert!(e.contains(": edit 1: step 7 is past the end (6)"), "{e}");
    }
}
