//! The export window: the range of the timeline, every how many steps, GIF or PNG sequence,
//! and where.

use super::job::{ExportRequest, Format};
use crate::app::state::App;
use egui_macroquad::egui::{self, RichText};
use std::path::PathBuf;

/// The export window's fields, kept between frames.
#[derive(Default)]
pub struct ExportPanel {
    pub open: bool,
    from: u64,
    to: u64,
    every: u64,
    gif: bool,
    path: String,
    /// An export asked for, taken by the frame loop.
    pub pending: Option<ExportRequest>,
}

impl ExportPanel {
    /// Opens the window on the whole reachable range of the shown branch.
    pub fn show_for(&mut self, app: &App) {
        let b = app.timeline.line.current_branch();
        (self.from, self.to) = (b.first_reachable(), b.newest());
        self.every = self.every.max(1);
        if self.path.is_empty() {
            (self.gif, self.path) = (true, "export.gif".into());
        }
        self.open = true;
    }

    pub fn ui(&mut self, ctx: &egui::Context, app: &App) {
        if !self.open {
            return;
        }
        let b = app.timeline.line.current_branch();
        let (first, newest) = (b.first_reachable(), b.newest());
        let mut open = self.open;
        egui::Window::new("Export frames").open(&mut open).collapsible(false).show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("steps");
                ui.add(egui::DragValue::new(&mut self.from).range(first..=newest));
                ui.label("to");
                ui.add(egui::DragValue::new(&mut self.to).range(first..=newest));
                ui.label("every");
                ui.add(egui::DragValue::new(&mut self.every).range(1..=1000));
            });
            ui.horizontal(|ui| {
                if ui.radio(self.gif, "animated GIF").clicked() {
                    self.gif = true;
                    self.path = swap_ext(&self.path, true);
                }
                if ui.radio(!self.gif, "PNG sequence (folder)").clicked() {
                    self.gif = false;
                    self.path = swap_ext(&self.path, false);
                }
            });
            ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(260.0));
            let n = self.from.abs_diff(self.to) / self.every.max(1) + 1;
            ui.label(RichText::new(format!("{n} frames of the window as it is now")).small().weak());
            if ui.button("Export").clicked() && !self.path.trim().is_empty() {
                self.pending = Some(ExportRequest {
                    from: self.from,
                    to: self.to,
                    every: self.every.max(1),
                    format: if self.gif { Format::Gif } else { Format::PngSequence },
                    out: PathBuf::from(self.path.trim()),
                });
                self.open = false;
            }
        });
        self.open &= open;
    }
}

/// `export.gif` ↔ `export` (a folder).
fn swap_ext(path: &str, gif: bool) -> String {
    let p = path.trim().trim_end_matches(".gif");
    if gif {
        format!("{p}.gif")
    } else {
        p.to_string()
    }
}
