//! Files: opening any file the app knows by what it holds (`kind`), the recent-files list
//! kept between runs (`recent`), the Open and Save dialogs (`dialog`), files dropped on the
//! window, and hot reload of the open file (`watch`, `reload`).

pub mod dialog;
pub mod kind;
pub mod recent;
pub mod reload;
pub mod watch;

#[cfg(test)]
mod tests;

use super::state::{Action, App};
use kind::FileKind;
use recent::RecentFiles;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Which dialog a key or button asks the window to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DialogKind {
    Open,
    /// Save the world as a scene file.
    SaveAs,
    /// Export a range of the timeline as a GIF or PNG sequence.
    Export,
}

/// The app's file state.
#[derive(Default)]
pub struct FileState {
    /// The recent-files list; `None` when the app keeps none (tests, headless runs).
    pub recent: Option<RecentFiles>,
    /// Whether the open file is watched (the window turns this on).
    pub hot_reload: bool,
    /// Whether a reload runs the new scene to the step that was shown.
    pub resimulate: bool,
    /// The watch on the open file.
    pub(super) watcher: Option<watch::FileWatcher>,
    /// A file that could not be watched (not tried again every frame).
    pub(super) unwatchable: Option<PathBuf>,
    /// The open file's text as last read or written here: a change event that leaves it the
    /// same (our own save, an editor touching the file) reloads nothing.
    pub(super) known_text: Option<(PathBuf, String)>,
    /// The dialog the window should show, numbered so each request opens it once.
    pub dialog_request: Option<(u64, DialogKind)>,
    /// Where Ctrl+S writes the scene once the Save dialog has been used.
    pub save_target: Option<PathBuf>,
}

impl App {
    /// Opens `path` where its kind belongs; a bad file is a located error and what was open
    /// stays. Success puts the file first in the recent list.
    pub(super) fn open_file(&mut self, path: &Path) {
        let kind = match FileKind::of(path) {
            Ok(k) => k,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        self.error = None;
        match kind {
            FileKind::Recording => self.open_recording(path),
            _ => self.apply(kind.open_action(path.to_path_buf())),
        }
        if self.error.is_none() {
            self.notice = Some(format!("Opened {} ({})", path.display(), kind.label()));
            self.remember(path);
        }
    }

    /// Puts `path` first in the recent list (if the app keeps one).
    pub(super) fn remember(&mut self, path: &Path) {
        if let Some(Err(e)) = self.files.recent.as_mut().map(|r| r.add(path)) {
            self.notice = Some(format!("the recent-files list was not saved: {e}"));
        }
    }

    /// The file the app shows and would reload: the open lab's preset, or the scene file.
    pub fn open_file_path(&self) -> Option<PathBuf> {
        match &self.lab {
            Some(lab) => lab.file().map(Path::to_path_buf),
            None => self.scene_path.clone(),
        }
    }

    /// Ctrl+S: writes the world to the file chosen in the Save dialog, or asks for one.
    pub(super) fn save_current(&mut self) {
        if self.lab.is_some() {
            self.notice = Some("In a lab, save the preset with the lab's Save button".into());
            return;
        }
        match self.files.save_target.clone() {
            Some(path) => self.apply(Action::SaveScene(path)),
            None => self.request_dialog(DialogKind::SaveAs),
        }
    }

    pub(super) fn request_dialog(&mut self, kind: DialogKind) {
        let n = self.files.dialog_request.map_or(1, |(n, _)| n + 1);
        self.files.dialog_request = Some((n, kind));
    }

    /// After a scene was saved to `path`: Ctrl+S writes there from now on, the file is
    /// remembered, and if it is the watched file its new text is known (no reload).
    pub(super) fn scene_saved(&mut self, path: &Path) {
        self.files.save_target = Some(path.to_path_buf());
        self.remember(path);
        if self.open_file_path().as_deref() == Some(path) {
            self.files.known_text = std::fs::read_to_string(path).ok().map(|t| (path.to_path_buf(), t));
        }
    }

    pub(super) fn forget_recent(&mut self, path: Option<&Path>) {
        let Some(r) = self.files.recent.as_mut() else { return };
        let done = match path {
            Some(p) => r.remove(p),
            None => r.clear(),
        };
        if let Err(e) = done {
            self.error = Some(e);
        }
    }

    /// The file actions.
    pub(super) fn apply_files(&mut self, action: Action) {
        match action {
            Action::OpenFile(path) => self.open_file(&path),
            Action::ReloadFile => self.reload_file(),
            Action::SetReloadResimulate(on) => self.files.resimulate = on,
            Action::SaveCurrent => self.save_current(),
            Action::ShowDialog(kind) => self.request_dialog(kind),
            Action::ForgetRecent(path) => self.forget_recent(path.as_deref()),
            _ => {}
        }
    }
}

impl FileState {
    /// The file being watched for hot reload, if any.
    pub fn watching(&self) -> Option<PathBuf> {
        self.watcher.as_ref().map(|w| w.path().to_path_buf())
    }
}
