//! Watching the open file for hot reload (the `notify` crate). The file's folder is watched,
//! not the file, because many editors save by writing a new file and renaming it over the
//! old one, which ends a watch on the file itself. Events for the file are settled: the
//! reload waits until no event came for `SETTLE`, so one save that writes in several pieces
//! reloads once, well within half a second.

use notify::{EventKind, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Quiet time after the last event before the file is read again.
pub const SETTLE: Duration = Duration::from_millis(120);

/// A watch on one file.
pub struct FileWatcher {
    path: PathBuf,
    name: std::ffi::OsString,
    _watcher: notify::RecommendedWatcher,
    events: mpsc::Receiver<notify::Result<notify::Event>>,
    /// When the last event for the file arrived, if a reload is due.
    pending: Option<Instant>,
}

impl FileWatcher {
    /// Starts watching `path` (its folder must exist).
    pub fn new(path: &Path) -> Result<FileWatcher, String> {
        let name = path.file_name().ok_or_else(|| format!("{}: not a file", path.display()))?.to_owned();
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let (tx, events) = mpsc::channel();
        let mut watcher = notify::recommended_watcher(move |e| {
            let _ = tx.send(e);
        })
        .map_err(|e| format!("{}: cannot watch for changes: {e}", path.display()))?;
        watcher
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("{}: cannot watch for changes: {e}", dir.display()))?;
        Ok(FileWatcher { path: path.to_path_buf(), name, _watcher: watcher, events, pending: None })
    }

    /// The watched file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the events that arrived; `true` once the file changed and has been quiet for
    /// `SETTLE` since (call once per frame).
    pub fn poll(&mut self) -> bool {
        while let Ok(event) = self.events.try_recv() {
            let Ok(event) = event else { continue };
            let touches = matches!(event.kind, EventKind::Create(_) | EventKind::Modify(_))
                && event.paths.iter().any(|p| p.file_name() == Some(self.name.as_os_str()));
            if touches {
                self.pending = Some(Instant::now());
            }
        }
        match self.pending {
            Some(t) if t.elapsed() >= SETTLE => {
                self.pending = None;
                true
            }
            _ => false,
        }
    }
}
