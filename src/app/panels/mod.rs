//! egui panels: controls on the left, the selection on the right, a status bar at the bottom.
//! Widgets never change the app directly; they push `Action`s.

mod selection;
mod shapes;
mod solver;
pub mod solver_rows;
mod status;
mod world;

use crate::app::input::keys;
use crate::app::state::{Action, App};
use crate::app::tools::Place;
use egui_macroquad::egui::{self, Color32, RichText};
use std::collections::HashMap;
use std::path::PathBuf;

/// Text fields and lists the panels keep between frames.
#[derive(Default)]
pub struct UiState {
    pub open_path: String,
    pub save_path: String,
    pub scene_files: Vec<PathBuf>,
    /// Box2D v3's benchmark scenes (`scenes/benchmark/`), listed under their own heading.
    pub benchmark_files: Vec<PathBuf>,
    /// The `.ron` files of each preset folder a lab asked for, read once.
    preset_files: HashMap<String, Vec<PathBuf>>,
    /// Each preset folder's save-path field.
    save_paths: HashMap<String, String>,
    /// How far the controls panel is scrolled (points), reported for tests.
    pub controls_scroll: f32,
    /// Frames drawn in the last second, for the status bar (set by the frame loop).
    pub fps: usize,
    /// The Open and Save dialogs.
    pub dialogs: crate::app::files::dialog::Dialogs,
    /// Rectangles (points) the panels leave for the frame loop to fill, opaque, with
    /// `PLOT_BACKGROUND` before egui paints over them (`view::clear_frame`): cheaper than
    /// egui's textured, blended fill.
    pub backdrops: Vec<egui::Rect>,
    /// Where some widgets were last drawn (the Back button, the timeline's track).
    pub widgets: Widgets,
    /// The view labels the last frame placed (the frame loop keeps them: their tooltips, the
    /// report).
    pub labels: Vec<crate::app::render::labels::ViewLabels>,
    /// Texts egui drew past their clip rectangle in the last frame, where the frame loop looks
    /// (`report` runs), and panels whose content was wider than the panel.
    pub text_cuts: Vec<crate::app::render::text_fit::TextCut>,
    pub overflows: Vec<crate::app::render::text_fit::TextCut>,
    /// Whether `build` looks for cut texts (a frame loop that reports sets it).
    pub find_text_cuts: bool,
}

impl UiState {
    /// Notes the panel `name` if its `content` runs past its `room` sideways (what runs past
    /// is not drawn at all, so no text shape shows the cut).
    pub fn overflow(&mut self, name: &str, content: egui::Rect, room: egui::Rect) {
        if content.max.x > room.max.x + 1.0 {
            let text = format!("{name}: content {:.0} wide in {:.0}", content.width(), room.width());
            self.overflows.push(crate::app::render::text_fit::TextCut { text, rect: content, clip: room });
        }
    }

    /// Keeps what egui cut this frame, texts and panels, in pixels (for the report).
    pub fn note_text_cuts(&mut self, ctx: &egui::Context) {
        self.text_cuts = crate::app::render::text_fit::cut_texts_in(ctx);
        let ppp = ctx.pixels_per_point();
        self.text_cuts.extend(self.overflows.iter().map(|c| c.scaled(ppp)));
    }

    pub fn new(scene_dir: &str) -> UiState {
        UiState {
            save_path: "saved.ron".into(),
            scene_files: ron_files(scene_dir),
            benchmark_files: ron_files(&format!("{scene_dir}/benchmark")),
            ..Default::default()
        }
    }

    /// The presets of a lab's folder (read when first asked for), and the text of its
    /// save-path field (`saved.ron` in that folder at first).
    pub fn presets(&mut self, dir: &str) -> (&[PathBuf], &mut String) {
        let files = self.preset_files.entry(dir.to_string()).or_insert_with(|| ron_files(dir));
        let save = self.save_paths.entry(dir.to_string()).or_insert_with(|| format!("{dir}/saved.ron"));
        (files, save)
    }
}

/// The `.ron` files of a folder, sorted.
fn ron_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Applies the app's type scale (readable at 720p and 1080p).
pub fn style(ctx: &egui::Context, screen_height: f32) {
    ctx.set_pixels_per_point((screen_height / 760.0).clamp(1.0, 1.6));
    ctx.style_mut(|s| {
        use egui::{FontId, TextStyle};
        s.text_styles.insert(TextStyle::Body, FontId::proportional(14.0));
        s.text_styles.insert(TextStyle::Button, FontId::proportional(14.0));
        s.text_styles.insert(TextStyle::Heading, FontId::proportional(17.0));
        s.text_styles.insert(TextStyle::Monospace, FontId::monospace(13.0));
        s.text_styles.insert(TextStyle::Small, FontId::proportional(11.5));
        s.spacing.item_spacing = egui::vec2(6.0, 5.0);
        // The frame loop clears the whole window, the panels' area included (`view::clear_frame`).
        s.visuals.panel_fill = egui::Color32::TRANSPARENT;
    });
}

/// Builds all panels and returns the screen area (in points) they leave free for the world.
pub fn build(ctx: &egui::Context, app: &App, ui_state: &mut UiState, out: &mut Vec<Action>) -> egui::Rect {
    let fps = ui_state.fps;
    ui_state.overflows.clear();
    let status = egui::TopBottomPanel::bottom("status").show(ctx, |ui| {
        status::status_bar(ui, app, fps);
        ui.min_rect()
    });
    let bottom = status.response.rect;
    ui_state.overflow("status bar", status.inner, bottom);
    ui_state.backdrops.clear();
    ui_state.widgets.clear();
    let bottom = super::timeline::panel::show(ctx, app, out, ui_state).unwrap_or(bottom);
    super::timeline::profiler::show(ctx, app, out);
    let left = egui::SidePanel::left("controls").resizable(false).exact_width(290.0).show(ctx, |ui| {
        ui.spacing_mut().slider_width = 100.0;
        let scrolled = egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            ui.heading("manifold-lab");
            if let Some(lab) = &app.lab {
                let entry = lab.kind().entry();
                ui.label(RichText::new(entry.name).strong());
                ui.label(RichText::new(entry.description).small());
                let back = if app.left_lab.is_some() { "Back to the 3D lab" } else { "Back to the scene" };
                if ui.button(back).clicked() {
                    out.push(Action::CloseLab);
                }
                lab.controls(ui, app, ui_state, out);
            } else {
                world::simulation(ui, app, out, &mut ui_state.widgets);
                crate::app::files::dialog::files_section(ui, app, out);
                crate::app::tools::panel::tools(ui, &app.tools, &app.tool_view(), out);
                world::scenes(ui, app, ui_state, out);
                world::labs(ui, out);
                solver::solver(ui, &app.world.params, out);
                panel_section(ui, app, Place::Settings, out);
                world::layers(ui, app, out, &mut ui_state.widgets);
                world::broadphase(ui, app, out);
            }
        });
        ui_state.controls_scroll = scrolled.state.offset.y;
        let content = egui::Rect::from_min_size(scrolled.inner_rect.min, scrolled.content_size);
        ui_state.overflow("controls panel", content, scrolled.inner_rect);
    });
    let right = egui::SidePanel::right("selection").resizable(false).exact_width(250.0).show(ctx, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| match &app.lab {
            Some(lab) => lab.details(ui, app, out),
            None => {
                // The sort-and-sweep pair finder's step-by-step view, above the selection.
                panel_section(ui, app, Place::Details, out);
                match app.selected_joint() {
                    Some(k) => crate::app::tools::joints::panel::joint_details(ui, app, k, out),
                    None => selection::selection(ui, app, out),
                }
            }
        })
    });
    let scrolled = &right.inner;
    let content = egui::Rect::from_min_size(scrolled.inner_rect.min, scrolled.content_size);
    ui_state.overflow("details panel", content, scrolled.inner_rect);
    take_noted(ctx, &mut ui_state.widgets);
    ui_state.dialogs.show(ctx, app, out);
    app.tools.iter().for_each(|t| t.window(ctx, &app.tool_view(), out));
    if let Some(lab) = &app.lab {
        lab.windows(ctx, app, out);
    }
    crate::app::render::labels::hover_tooltip(ctx, &ui_state.labels, ctx.pixels_per_point());
    let screen = ctx.screen_rect();
    let free = egui::Rect::from_min_max(
        egui::pos2(left.response.rect.max.x, screen.min.y),
        egui::pos2(right.response.rect.min.x, bottom.min.y),
    );
    error_window(ctx, app, out);
    if ui_state.find_text_cuts {
        ui_state.note_text_cuts(ctx);
    }
    free
}

/// The error window: the whole message, and a button to dismiss it.
fn error_window(ctx: &egui::Context, app: &App, out: &mut Vec<Action>) {
    if let Some(err) = &app.error {
        egui::Window::new(RichText::new("Error").color(Color32::from_rgb(255, 110, 110)))
            .collapsible(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 12.0))
            .show(ctx, |ui| {
                ui.label(RichText::new(err).monospace());
                ui.label("The current scene was kept.");
                if ui.button("Dismiss").clicked() {
                    out.push(Action::DismissError);
                }
            });
    }
}

/// Play or pause, Step, Back and Restart, each with its keys; Back is enabled exactly when a
/// step back can be taken (`App::can_step_back`). Shared by the scene and the 3D dynamics lab.
pub fn run_buttons(ui: &mut egui::Ui, running: bool, can_back: bool, out: &mut Vec<Action>, widgets: &mut Widgets) {
    ui.horizontal(|ui| {
        let label = if running { "⏸ Pause" } else { "▶ Play" };
        let play = keys::button(ui, label, &[("run or pause", &Action::TogglePlay)], true, out);
        note(widgets, ui, "play", play.rect);
        let step = keys::button(ui, "Step", &[("one step (pauses)", &Action::Step)], true, out);
        note(widgets, ui, "step", step.rect);
        let back = keys::button(ui, "Back", &[("one step back", &Action::StepBack)], can_back, out);
        note(widgets, ui, "back", back.rect);
        keys::button(ui, "Restart", &[("back to the start as loaded", &Action::Restart)], true, out);
    });
}

/// Widgets' rectangles by name, in screen pixels, for tests that click them (`--state-out`).
pub type Widgets = std::collections::BTreeMap<&'static str, egui::Rect>;

/// Notes where widget `name` is on screen.
pub fn note(widgets: &mut Widgets, ui: &egui::Ui, name: &'static str, rect: egui::Rect) {
    widgets.insert(name, rect * ui.ctx().pixels_per_point());
}

/// Notes where widget `name` is on screen from a panel that holds no [`Widgets`] (a tool's
/// section, the timeline's plots): kept in egui's frame data until [`take_noted`].
pub fn note_in_ctx(ui: &egui::Ui, name: &'static str, rect: egui::Rect) {
    let r = rect * ui.ctx().pixels_per_point();
    ui.ctx().data_mut(|d| d.get_temp_mut_or_default::<Widgets>(noted_id()).insert(name, r));
}

fn noted_id() -> egui::Id {
    egui::Id::new("widgets noted in the frame")
}

/// The widgets [`note_in_ctx`] noted this frame, moved into `widgets`.
fn take_noted(ctx: &egui::Context, widgets: &mut Widgets) {
    widgets.extend(ctx.data_mut(|d| d.remove_temp::<Widgets>(noted_id())).unwrap_or_default());
}

/// Every tool's section at `at`, in the table's order.
fn panel_section(ui: &mut egui::Ui, app: &App, at: Place, out: &mut Vec<Action>) {
    let v = app.tool_view();
    app.tools.iter().for_each(|t| t.panel(at, ui, &v, out));
}
