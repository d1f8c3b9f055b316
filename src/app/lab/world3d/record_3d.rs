//! Recording the 3D lab's run from the window: the timeline bar's **Record** button, as in 2D
//! scenes (`timeline::record`). While the run goes on the lab logs each Solver and Water edit
//! with its step, per branch (`timeline::logs`); Stop writes the current branch from step 0 to
//! the cursor as a 3D `.mlrec` (`timeline::record3`: the world file, the settings at step 0,
//! the edits), which `replay` reproduces. A drag (the mouse spring) is not recorded: the
//! recording is checked by replaying it, and a run that a drag changed is saved with a notice
//! that its replay ends elsewhere.

use super::World3dLab;
use crate::app::stage::Stage;
use crate::app::timeline::record::{Recorder, RecordingKind};
use crate::app::timeline::record3::{Edit3, Header3, Recording3, Stamped3};
use std::path::{Path, PathBuf};

/// Where Stop writes the recording (the 2D scenes' file name).
pub const RECORDING_FILE: &str = "recording.mlrec";

impl World3dLab {
    /// Logs a settings or water edit made at the current step.
    pub(super) fn log_edit(&mut self, edit: Edit3) {
        let step = self.world.step_count;
        self.logs.push(&self.timeline.line, Stamped3 { step, edit });
    }

    /// Record (`true`) starts recording; Stop writes the run to [`RECORDING_FILE`].
    pub(super) fn set_recording(&mut self, app: &mut Stage, on: bool) {
        if on {
            self.recorder = Some(Recorder { since: self.timeline.line.cursor() });
        } else if self.recorder.take().is_some() {
            self.save_recording(app, Path::new(RECORDING_FILE));
        }
    }

    /// The current branch from step 0 to the cursor as a 3D recording.
    pub fn recording(&self) -> Result<Recording3, String> {
        let line = &self.timeline.line;
        let branch = line.current_branch();
        if branch.first_reachable() != 0 && branch.origin() != 0 {
            return Err("the run does not start at step 0".into());
        }
        let end = line.cursor();
        let hash = branch.stats_at(end).map_or(self.world.state_hash(), |s| s.hash);
        Ok(Recording3 {
            header: Header3 {
                kind: RecordingKind::World3d,
                steps: end,
                final_hash: format!("{hash:016x}"),
                scene_path: Some(PathBuf::from(&self.path)),
                params: self.start_params.clone(),
                edits: self.logs.up_to(line, line.current(), end),
            },
            scene: self.spec.clone(),
        })
    }

    /// Writes the recording to `path`, replayed first to check it ends where the run did.
    pub(super) fn save_recording(&self, app: &mut Stage, path: &Path) {
        let saved = self.recording().and_then(|r| r.save(path).map(|()| r));
        match saved {
            Ok(r) => {
                let replayed = r.replay_with(None, &mut |_| {}).map(|w| w.state_hash());
                let steps = r.header.steps;
                app.notice = Some(match replayed {
                    Ok(h) if h == r.final_hash() => format!("Recorded {steps} steps to {}", path.display()),
                    _ => format!(
                        "Recorded {steps} steps to {}, but its replay ends elsewhere: a drag is not recorded",
                        path.display()
                    ),
                });
            }
            Err(e) => app.error = Some(format!("could not save the recording: {e}")),
        }
    }
}
