//! Recordings (`.mlrec`): a run from its scene's first step, with every world edit stamped
//! with the step it was made at, so a replay reproduces the run and its state hash.
//!
//! The file is text in three parts:
//! ```text
//! MLREC 1                                   magic and format version
//! (steps: 240, final_hash: "…", scene_path: Some("scenes/default.ron"),
//!  params: (…), actions: [(step: 12, action: SetPose(…)), …])
//! --- scene ---
//! Scene(version: 1, …)                      the scene as loaded, in scene syntax
//! ```
//! Errors name the file, line and column: the header is checked as scene files are
//! (`record_check`), the scene by the scene loader. The header's `kind` tells a 2D scene's
//! recording (`Scene`, the default: files without it are 2D) from a 3D world's (`World3d`,
//! `record3`), which has the same three parts.

use super::super::state::{Action, App};
use super::record_check::{self, HeaderText};
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::scene::{self, Scene, SceneError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const MAGIC: &str = scene::RECORDING_MAGIC;
pub const VERSION: u32 = 1;
const SCENE_MARK: &str = "--- scene ---";

/// An action and the step it was applied at (before that step's simulation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stamped {
    pub step: u64,
    pub action: Action,
}

/// What a recording replays: a 2D scene or a 3D world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecordingKind {
    #[default]
    Scene,
    World3d,
}

/// What the header holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always `Scene` here (see [`RecordingKind`]).
    #[serde(default)]
    pub kind: RecordingKind,
    /// The step the recording ends at.
    pub steps: u64,
    /// The state hash at that step, hex.
    pub final_hash: String,
    #[serde(default)]
    pub scene_path: Option<PathBuf>,
    /// The solver parameters at step 0 (live edits made before the run started).
    pub params: SolverParams,
    pub actions: Vec<Stamped>,
}

/// A whole recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub header: Header,
    pub scene: Scene,
}

/// Whether `path` names a recording (by its extension).
pub fn is_recording(path: &Path) -> bool {
    path.extension().is_some_and(|x| x.eq_ignore_ascii_case(scene::RECORDING_EXTENSION))
}

/// A recording's text cut into its parts, shared by 2D and 3D recordings.
pub struct Parts<'a> {
    pub header_text: &'a str,
    pub scene_text: &'a str,
    /// File lines before the scene's first line: the magic, the header and the mark.
    pub offset: usize,
}

impl<'a> Parts<'a> {
    /// Checks the magic and version and finds the header and the scene.
    pub fn split(text: &'a str, file: &str) -> Result<Parts<'a>, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
        let mut words = first.split_whitespace();
        if words.next() != Some(MAGIC) {
            return Err(format!("{file}:1:1: not a manifold-lab recording (expected `{MAGIC} {VERSION}` first)"));
        }
        match words.next().map(str::parse::<u32>) {
            Some(Ok(VERSION)) => {}
            Some(Ok(v)) => {
                return Err(format!("{file}:1:7: recording version {v} is not supported (this is {VERSION})"))
            }
            _ => return Err(format!("{file}:1:7: expected the format version, a number")),
        }
        let Some(at) = rest
            .find(&format!("\n{SCENE_MARK}\n"))
            .map(|i| i + 1)
            .or_else(|| rest.starts_with(&format!("{SCENE_MARK}\n")).then_some(0))
        else {
            let lines = text.lines().count();
            return Err(format!("{file}:{lines}:1: missing the `{SCENE_MARK}` line and the scene (truncated?)"));
        };
        let (header_text, scene_part) = rest.split_at(at);
        let offset = 1 + header_text.lines().count() + 1;
        Ok(Parts { header_text, scene_text: &scene_part[SCENE_MARK.len() + 1..], offset })
    }

    /// The header as `H`; a syntax error is located in the file.
    pub fn header<H: serde::de::DeserializeOwned>(&self, file: &str) -> Result<H, String> {
        ron::from_str(self.header_text)
            .map_err(|e| format!("{file}:{}:{}: {}", e.position.line.max(1) + 1, e.position.col.max(1), e.code))
    }

    /// The header's `kind` (a 2D scene's when it has none).
    pub fn kind(&self, file: &str) -> Result<RecordingKind, String> {
        #[derive(Deserialize)]
        struct Probe {
            #[serde(default)]
            kind: RecordingKind,
        }
        self.header::<Probe>(file).map(|p| p.kind)
    }

    /// A scene error placed at its line in the whole file.
    pub fn locate(&self, e: SceneError) -> String {
        match e {
            SceneError::Parse { file, line, column, message } => {
                format!("{file}:{}:{column}: {message}", line + self.offset)
            }
            other => other.to_string(),
        }
    }
}

/// The kind of the recording `text` holds.
pub fn kind_of(text: &str, file: &str) -> Result<RecordingKind, String> {
    Parts::split(text, file)?.kind(file)
}

/// The recording state of the window: on since `since` (a step).
pub struct Recorder {
    pub since: u64,
}

impl Recording {
    pub fn to_text(&self) -> Result<String, String> {
        let pretty = ron::ser::PrettyConfig::new().depth_limit(3);
        let header = ron::ser::to_string_pretty(&self.header, pretty).map_err(|e| e.to_string())?;
        let scene = self.scene.to_ron_string().map_err(|e| e.to_string())?;
        Ok(format!("{MAGIC} {VERSION}\n{header}\n{SCENE_MARK}\n{scene}\n"))
    }

    /// Parses recording text; `file` labels errors.
    pub fn parse(text: &str, file: &str) -> Result<Recording, String> {
        let parts = Parts::split(text, file)?;
        if parts.kind(file)? != RecordingKind::Scene {
            return Err(format!("{file}:2:1: a 3D world's recording, not a 2D scene's (replay it with `replay`)"));
        }
        let header: Header = parts.header(file)?;
        record_check::check(&header, &HeaderText { text: parts.header_text, file, lines_before: 1 })?;
        let scene = scene::parse(parts.scene_text, file).map_err(|e| parts.locate(e))?;
        Ok(Recording { header, scene })
    }

    pub fn load(path: &Path) -> Result<Recording, String> {
        let text = scene::read_text(path).map_err(|e| e.to_string())?;
        Recording::parse(&text, &path.display().to_string())
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_text()?).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Replays the recording into a new app, up to `steps` (the recording's end by default),
    /// with every step on the app's timeline.
    pub fn replay(&self, steps: Option<u64>) -> App {
        self.replay_with(steps, &mut |_| {})
    }

    /// `replay`, telling `progress` each step reached.
    pub fn replay_with(&self, steps: Option<u64>, progress: &mut dyn FnMut(u64)) -> App {
        let end = steps.unwrap_or(self.header.steps);
        let mut app = App::new(self.scene.clone(), self.header.scene_path.clone());
        app.world.params = self.header.params.clone();
        app.timeline = super::AppTimeline::new(&app.world);
        let mut next = 0;
        loop {
            let step = app.world.step_count;
            while let Some(a) = self.header.actions.get(next).filter(|a| a.step <= step) {
                app.apply(a.action.clone());
                next += 1;
            }
            if step >= end {
                break;
            }
            progress(step);
            app.step_once();
        }
        app.mode = super::super::state::RunMode::Paused;
        app
    }

    /// The hash the recording says its end has.
    pub fn final_hash(&self) -> u64 {
        u64::from_str_radix(&self.header.final_hash, 16).unwrap_or(0)
    }
}

impl App {
    /// Remembers an edit in the current branch's log.
    pub(super) fn record_action(&mut self, action: &Action, step: u64) {
        let t = &mut self.timeline;
        t.logs.push(&t.scrub.line, Stamped { step, action: action.clone() });
    }

    pub(super) fn set_recording(&mut self, on: bool) {
        if on {
            self.timeline.recorder = Some(Recorder { since: self.timeline.line.cursor() });
        } else if self.timeline.recorder.take().is_some() {
            let path = PathBuf::from("recording.mlrec");
            self.save_recording(&path);
        }
    }

    /// The current branch from its first step to the cursor, as a recording.
    pub fn recording(&self) -> Result<Recording, String> {
        let t = &self.timeline;
        if t.line.current_branch().first_reachable() != 0 && t.line.current_branch().origin() != 0 {
            return Err("the run does not start at step 0".into());
        }
        let end = t.line.cursor();
        let hash = t.line.current_branch().stats_at(end).map(|s| s.hash).unwrap_or(self.world.state_hash());
        let actions = t.logs.up_to(&t.line, t.line.current(), end);
        Ok(Recording {
            header: Header {
                kind: RecordingKind::Scene,
                steps: end,
                final_hash: format!("{hash:016x}"),
                scene_path: self.scene_path.clone(),
                params: t.start_params.clone(),
                actions,
            },
            scene: self.scene.clone(),
        })
    }

    /// Opens a recording: replays it onto the timeline, paused at its end. A bad file is an
    /// error and the open world stays.
    pub fn open_recording(&mut self, path: &Path) {
        match Recording::load(path) {
            Ok(r) => {
                let replayed = r.replay(None);
                (self.lab, self.left_scene, self.left_lab) = (None, None, None);
                self.world = replayed.stage.world;
                self.scene = replayed.scene;
                self.scene_path = replayed.scene_path;
                self.timeline = replayed.timeline;
                self.mode = super::super::state::RunMode::Paused;
                self.history.clear();
                self.selection.clear();
                self.error = None;
                self.notice = Some(format!("Opened {} ({} steps)", path.display(), r.header.steps));
                self.reset_camera();
            }
            Err(e) => self.error = Some(e),
        }
    }

    pub(super) fn save_recording(&mut self, path: &Path) {
        match self.recording().and_then(|r| r.save(path)) {
            Ok(()) => {
                self.notice = Some(format!("Recorded {} steps to {}", self.timeline.line.cursor(), path.display()))
            }
            Err(e) => self.error = Some(e),
        }
    }
}
