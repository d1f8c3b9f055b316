//! The Open and Save dialogs (the `egui-file-dialog` crate, a file browser with a path bar,
//! folders, filters and the user's places) and the Files section of the controls panel: Open
//! and Save buttons, the recent-files list and the hot reload options.

use super::recent::display_name;
use super::DialogKind;
use crate::app::state::{Action, App};
use egui_file_dialog::{DialogState, FileDialog};
use egui_macroquad::egui::{self, RichText};
use std::path::PathBuf;

/// The dialog kept between frames, and what it was opened for.
pub struct Dialogs {
    dialog: FileDialog,
    purpose: Option<DialogKind>,
    /// The last request of the app that was shown (`FileState::dialog_request`).
    shown_request: u64,
    /// The export window (see `share`).
    pub export: crate::app::share::panel::ExportPanel,
}

impl Default for Dialogs {
    fn default() -> Self {
        Dialogs::new()
    }
}

impl Dialogs {
    pub fn new() -> Dialogs {
        let start = std::env::current_dir().unwrap_or_default();
        let dialog = FileDialog::new()
            .initial_directory(start)
            .default_size([720.0, 440.0])
            .add_file_filter_extensions("Scenes, presets and recordings", vec!["ron", "mlrec"])
            .add_file_filter_extensions("Recordings (.mlrec)", vec!["mlrec"])
            .default_file_filter("Scenes, presets and recordings")
            .add_save_extension("Scene (.ron)", "ron")
            .default_save_extension("Scene (.ron)");
        Dialogs { dialog, purpose: None, shown_request: 0, export: Default::default() }
    }

    /// Whether a dialog is open (the window then leaves the keyboard to it).
    pub fn is_open(&self) -> bool {
        self.purpose.is_some()
    }

    /// Opens the dialog the app asked for, shows it, and turns a choice into an action.
    pub fn show(&mut self, ctx: &egui::Context, app: &App, out: &mut Vec<Action>) {
        if let Some((n, kind)) = app.files.dialog_request.filter(|(n, _)| *n != self.shown_request) {
            self.shown_request = n;
            self.open(kind, app);
        }
        self.export.ui(ctx, app);
        let Some(purpose) = self.purpose else { return };
        self.dialog.update(ctx);
        match self.dialog.state() {
            DialogState::Picked(path) => {
                self.purpose = None;
                out.push(match purpose {
                    DialogKind::Open => Action::OpenFile(path),
                    DialogKind::SaveAs | DialogKind::Export => Action::SaveScene(path),
                });
            }
            DialogState::Open => {}
            _ => self.purpose = None,
        }
    }

    fn open(&mut self, kind: DialogKind, app: &App) {
        // Start in the open file's folder.
        let dir = app.open_file_path().and_then(|p| p.parent().map(PathBuf::from)).filter(|d| d.is_dir());
        if let Some(d) = dir {
            self.dialog.config_mut().initial_directory = std::fs::canonicalize(&d).unwrap_or(d);
        }
        match kind {
            DialogKind::Export => return self.export.show_for(app),
            DialogKind::Open => self.dialog.pick_file(),
            DialogKind::SaveAs => {
                let name =
                    app.scene_path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
                self.dialog.config_mut().default_file_name = name.unwrap_or_else(|| "scene.ron".into());
                self.dialog.save_file();
            }
        }
        self.purpose = Some(kind);
    }
}

/// The Files section of the controls panel.
pub fn files_section(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Files").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            use crate::app::input::keys::button;
            let open = Action::ShowDialog(DialogKind::Open);
            button(ui, "Open…", &[("a scene, a lab preset or a recording", &open)], true, out);
            let what = "write the world as a scene (asks where the first time)";
            button(ui, "Save", &[(what, &Action::SaveCurrent)], true, out);
            let save_as = Action::ShowDialog(DialogKind::SaveAs);
            button(ui, "Save as…", &[("write the world as a scene, asking where", &save_as)], true, out);
        });
        if ui.button("Export frames…").on_hover_text("A range of the timeline as an animated GIF or PNGs").clicked() {
            out.push(Action::ShowDialog(DialogKind::Export));
        }
        let mut resim = app.files.resimulate;
        let hover = "When the open file changes on disk it is reloaded, keeping the view, the selection and pause; \
                     with this on, the new scene is also run to the step that was shown";
        if ui.checkbox(&mut resim, "reload runs to the same step").on_hover_text(hover).changed() {
            out.push(Action::SetReloadResimulate(resim));
        }
        if let Some(p) = app.files.watching() {
            ui.label(RichText::new(format!("watching {}", display_name(&p))).small().weak());
        }
        recent_list(ui, app, out);
    });
}

fn recent_list(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    let Some(recent) = app.files.recent.as_ref().filter(|r| !r.files.is_empty()) else { return };
    egui::CollapsingHeader::new("Recent").default_open(false).show(ui, |ui| {
        for path in &recent.files {
            let exists = path.exists();
            let name = display_name(path);
            let text = if exists { RichText::new(name) } else { RichText::new(name).strikethrough().weak() };
            ui.horizontal(|ui| {
                let open = ui.add_enabled(exists, egui::Button::new(text).frame(false));
                if open.on_hover_text(path.display().to_string()).clicked() {
                    out.push(Action::OpenFile(path.clone()));
                }
                if ui.small_button("✕").on_hover_text("remove from the list").clicked() {
                    out.push(Action::ForgetRecent(Some(path.clone())));
                }
            });
        }
        if ui.small_button("Clear the list").clicked() {
            out.push(Action::ForgetRecent(None));
        }
    });
}
