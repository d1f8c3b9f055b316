//! Hot reload: the open scene file changed on disk, so the world is built again from it,
//! keeping what the user was looking at: the camera, the selection (by body name), the
//! pause state and, when asked, the step (the new scene is simulated up to it). A file saved
//! with an error shows the located error and keeps the world. A lab's preset file reloads the
//! lab the same way, keeping the camera.

use super::watch::FileWatcher;
use crate::app::state::{Action, App};
use manifold_lab::scene;
use std::path::Path;

impl App {
    /// Reads the open file again (see the module doc).
    pub(in crate::app) fn reload_file(&mut self) {
        let Some(path) = self.open_file_path() else {
            self.notice = Some("No file is open to reload".into());
            return;
        };
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                self.error = Some(format!("{}: {e} (the world was kept)", path.display()));
                return;
            }
        };
        if self.files.known_text.as_ref().is_some_and(|(p, t)| *p == path && *t == text) {
            return;
        }
        match self.lab.as_ref().map(|l| l.kind()) {
            Some(kind) => self.reload_lab(kind, &path),
            None => self.reload_scene(&path),
        }
        if self.error.is_none() {
            self.files.known_text = Some((path, text));
        }
    }

    fn reload_scene(&mut self, path: &Path) {
        let scene = match scene::load(path) {
            Ok(s) => s,
            Err(e) => {
                self.error = Some(format!("{e}\n(reload failed: the world was kept)"));
                return;
            }
        };
        let names: Vec<String> =
            self.selection.iter().filter_map(|&i| self.world.bodies.get(i)).map(|b| b.name.clone()).collect();
        let (camera, mode, step, follow) = (self.camera, self.mode, self.world.step_count, self.follow);
        self.world = scene.build_world();
        self.world.refresh_contacts();
        self.scene = scene;
        self.scene_path = Some(path.to_path_buf());
        self.history.clear();
        self.joint_selection = None;
        self.tools.world_changed(crate::app::tools::WorldChange::Loaded, &self.stage.world);
        self.timeline = crate::app::timeline::AppTimeline::new(&self.world);
        self.selection = names
            .iter()
            .filter(|n| !n.is_empty())
            .filter_map(|n| self.world.bodies.iter().position(|b| b.name == *n))
            .collect();
        let resimulated = self.files.resimulate && step > 0;
        if resimulated {
            for _ in 0..step {
                self.step_once();
            }
        }
        (self.camera, self.mode, self.follow) = (camera, mode, follow);
        self.error = None;
        self.notice = Some(match resimulated {
            true => format!("Reloaded {} and ran it to step {step}", path.display()),
            false => format!("Reloaded {}", path.display()),
        });
    }

    fn reload_lab(&mut self, kind: crate::app::lab::LabKind, path: &Path) {
        let camera = self.camera;
        match kind.open(self, Some(path)) {
            Ok(lab) => {
                self.enter_lab(lab);
                self.camera = camera;
                self.notice = Some(format!("Reloaded {}", path.display()));
            }
            Err(e) => self.error = Some(format!("{e}\n(reload failed: the lab was kept)")),
        }
    }

    /// Once per frame in the window: keeps the watch on the open file and reloads it when it
    /// changed. Does nothing unless hot reload is on.
    pub fn poll_files(&mut self) {
        if !self.files.hot_reload {
            self.files.watcher = None;
            return;
        }
        let target = self.open_file_path();
        if self.files.watcher.as_ref().map(|w| w.path()) != target.as_deref() {
            self.files.watcher = None;
            if let Some(path) = target.filter(|p| self.files.unwatchable.as_ref() != Some(p)) {
                match FileWatcher::new(&path) {
                    Ok(w) => {
                        // Only changes from now on reload.
                        let text = std::fs::read(&path).map(|b| String::from_utf8_lossy(&b).into_owned());
                        if self.files.known_text.as_ref().is_none_or(|(p, _)| *p != path) {
                            self.files.known_text = text.ok().map(|t| (path.clone(), t));
                        }
                        self.files.watcher = Some(w);
                    }
                    Err(e) => {
                        self.notice = Some(format!("hot reload is off: {e}"));
                        self.files.unwatchable = Some(path);
                    }
                }
            }
        }
        if self.files.watcher.as_mut().is_some_and(|w| w.poll()) {
            self.apply(Action::ReloadFile);
        }
    }
}
