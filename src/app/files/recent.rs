//! The recent-files list, kept between runs as a small JSON file in the user's config folder
//! (`$XDG_CONFIG_HOME/manifold-lab/recent.json` on Linux; `MANIFOLD_LAB_CONFIG_DIR` names
//! another folder, which tests use). A missing or damaged list is an empty one.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The environment variable naming the config folder instead of the user's.
pub const CONFIG_DIR_VAR: &str = "MANIFOLD_LAB_CONFIG_DIR";
/// Files kept in the list at most.
pub const MAX_RECENT: usize = 12;
const FILE_NAME: &str = "recent.json";

/// The app's config folder: `MANIFOLD_LAB_CONFIG_DIR` if set, else the platform's (XDG on
/// Linux).
pub fn config_dir() -> Option<PathBuf> {
    match std::env::var_os(CONFIG_DIR_VAR) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => directories::ProjectDirs::from("", "", "manifold-lab").map(|d| d.config_dir().to_path_buf()),
    }
}

/// The list, newest first, and the file it is kept in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RecentFiles {
    pub files: Vec<PathBuf>,
    #[serde(skip)]
    store: Option<PathBuf>,
}

impl RecentFiles {
    /// The list kept in the config folder (empty when there is none).
    pub fn load_default() -> (RecentFiles, Option<String>) {
        match config_dir() {
            Some(dir) => RecentFiles::load(&dir.join(FILE_NAME)),
            None => (RecentFiles::default(), None),
        }
    }

    /// The list kept at `store`. A file that cannot be read as the list gives an empty list
    /// and the reason (file:line:column), which the app shows as a notice.
    pub fn load(store: &Path) -> (RecentFiles, Option<String>) {
        let empty = RecentFiles { files: Vec::new(), store: Some(store.to_path_buf()) };
        let text = match std::fs::read_to_string(store) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (empty, None),
            Err(e) => return (empty, Some(format!("{}: {e}", store.display()))),
        };
        match serde_json::from_str::<RecentFiles>(&text) {
            Ok(mut r) => {
                r.store = Some(store.to_path_buf());
                r.files.truncate(MAX_RECENT);
                (r, None)
            }
            Err(e) => {
                let why = format!(
                    "{}:{}:{}: {e} (the recent-files list starts empty)",
                    store.display(),
                    e.line(),
                    e.column()
                );
                (empty, Some(why))
            }
        }
    }

    /// Puts `path` first (absolute, once) and writes the list.
    pub fn add(&mut self, path: &Path) -> Result<(), String> {
        let path = absolute(path);
        self.files.retain(|p| *p != path);
        self.files.insert(0, path);
        self.files.truncate(MAX_RECENT);
        self.save()
    }

    pub fn remove(&mut self, path: &Path) -> Result<(), String> {
        self.files.retain(|p| p != path);
        self.save()
    }

    pub fn clear(&mut self) -> Result<(), String> {
        self.files.clear();
        self.save()
    }

    /// Writes the list (through a temporary file, so a crash never leaves half a list).
    fn save(&self) -> Result<(), String> {
        let Some(store) = &self.store else { return Ok(()) };
        let err = |e: std::io::Error| format!("{}: {e}", store.display());
        if let Some(dir) = store.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        let tmp = store.with_extension("json.tmp");
        std::fs::write(&tmp, text).map_err(err)?;
        std::fs::rename(&tmp, store).map_err(err)
    }
}

/// `path` made absolute (and with `.` and `..` resolved when it exists), so the list works
/// from any working folder and names each file once.
fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_path_buf())
}

/// How a listed file is shown: relative to the working folder when inside it.
pub fn display_name(path: &Path) -> String {
    let cwd = std::env::current_dir().ok().and_then(|d| std::fs::canonicalize(d).ok());
    match cwd.as_deref().and_then(|d| path.strip_prefix(d).ok()) {
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    }
}
