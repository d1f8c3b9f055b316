//! egui panels: controls on the left, the selection on the right, a status bar at the bottom.
//! Widgets never change the app directly; they push `Action`s.

use super::state::{Action, App, BodyEdit, RunMode};
use crate::app::input::keys;
use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::collide::ReferenceFaceRule;
use manifold_lab::engine::debug::Layer;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::solver::{PositionCorrection, SolverParams};
use manifold_lab::engine::{BodyKind, Material};
use std::collections::HashMap;
use std::path::PathBuf;

/// Text fields and lists the panels keep between frames.
#[derive(Default)]
pub struct UiState {
    pub open_path: String,
    pub save_path: String,
    pub scene_files: Vec<PathBuf>,
    /// The `.ron` files of each preset folder a lab asked for, read once.
    preset_files: HashMap<String, Vec<PathBuf>>,
    /// Each preset folder's save-path field.
    save_paths: HashMap<String, String>,
    /// How far the controls panel is scrolled (points), reported for tests.
    pub controls_scroll: f32,
    /// Frames drawn in the last second, for the status bar (set by the frame loop).
    pub fps: usize,
    /// The Open and Save dialogs.
    pub dialogs: super::files::dialog::Dialogs,
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
        UiState { save_path: "saved.ron".into(), scene_files: ron_files(scene_dir), ..Default::default() }
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
        status_bar(ui, app, fps);
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
                if ui.button("Back to the scene").clicked() {
                    out.push(Action::CloseLab);
                }
                lab.controls(ui, app, ui_state, out);
            } else {
                simulation(ui, app, out, &mut ui_state.widgets);
                super::files::dialog::files_section(ui, app, out);
                crate::app::tools::panel::tools(ui, app, out);
                scenes(ui, app, ui_state, out);
                labs(ui, out);
                solver(ui, &app.world.params, out);
                crate::app::tools::panel::water(ui, app, out);
                layers(ui, app, out);
                broadphase(ui, app, out);
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
                crate::app::tools::sweep::controls(ui, app, out);
                match app.selected_joint() {
                    Some(k) => crate::app::tools::joints::panel::joint_details(ui, app, k, out),
                    None => selection(ui, app, out),
                }
            }
        })
    });
    let scrolled = &right.inner;
    let content = egui::Rect::from_min_size(scrolled.inner_rect.min, scrolled.content_size);
    ui_state.overflow("details panel", content, scrolled.inner_rect);
    ui_state.dialogs.show(ctx, app, out);
    crate::app::tools::inspector::ui::show(ctx, app, out);
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

fn simulation(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>, widgets: &mut Widgets) {
    egui::CollapsingHeader::new("Simulation").default_open(true).show(ui, |ui| {
        run_buttons(ui, app.is_running(), app.can_step_back(), out, widgets);
        let mut speed = app.speed;
        if ui.add(egui::Slider::new(&mut speed, 0.05..=4.0).logarithmic(true).text("speed ×")).changed() {
            out.push(Action::SetSpeed(speed));
        }
        ui.horizontal(|ui| {
            let frame = keys::label("Frame all", &Action::FrameAll);
            keys::button(ui, frame, &[("fit the view to the scene", &Action::FrameAll)], true, out);
            let mut follow = app.follow;
            if ui.checkbox(&mut follow, "follow selection").on_hover_text("Keep the selected body centred").changed() {
                out.push(Action::Follow(follow));
            }
        });
    });
}

fn scenes(ui: &mut egui::Ui, app: &App, st: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Scenes").default_open(true).show(ui, |ui| {
        for path in &st.scene_files {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let current = app.scene_path.as_ref() == Some(path);
            if ui.selectable_label(current, name).clicked() {
                out.push(Action::LoadScene(path.clone()));
            }
        }
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut st.open_path).hint_text("any .ron path").desired_width(180.0));
            if ui.button("Open").clicked() && !st.open_path.trim().is_empty() {
                out.push(Action::OpenFile(PathBuf::from(st.open_path.trim())));
            }
        });
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut st.save_path).desired_width(180.0));
            if ui.button("Save").on_hover_text("Writes the current world as a scene").clicked()
                && !st.save_path.trim().is_empty()
            {
                out.push(Action::SaveScene(PathBuf::from(st.save_path.trim())));
            }
        });
    });
}

fn labs(ui: &mut egui::Ui, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Labs").default_open(true).show(ui, |ui| {
        for &kind in super::lab::LABS {
            let entry = kind.entry();
            if ui.button(entry.name).on_hover_text(entry.description).clicked() {
                out.push(Action::OpenLab { kind, file: None });
            }
        }
    });
}

fn solver(ui: &mut egui::Ui, current: &SolverParams, out: &mut Vec<Action>) {
    let mut p = current.clone();
    egui::CollapsingHeader::new("Solver").default_open(true).show(ui, |ui| {
        ui.add(egui::Slider::new(&mut p.iterations, 1..=50).text("iterations"));
        ui.add(egui::Slider::new(&mut p.substeps, 1..=16).text("sub-steps"));
        ui.add(egui::Slider::new(&mut p.hz, 15.0..=240.0).text("hz"));
        ui.horizontal(|ui| {
            ui.label("gravity");
            ui.add(egui::DragValue::new(&mut p.gravity.x).speed(0.1).prefix("x "));
            ui.add(egui::DragValue::new(&mut p.gravity.y).speed(0.1).prefix("y "));
        });
        ui.checkbox(&mut p.warm_starting, "warm starting");
        ui.checkbox(&mut p.recycle_contacts, "recycle contacts").on_hover_text(
            "Box2D v3: a contact whose bodies moved under 5 cm and turned under 11° since its manifold was \
             computed keeps that manifold and only updates its separations",
        );
        ui.checkbox(&mut p.continuous, "continuous collision")
            .on_hover_text("Fast bodies are swept against static ones (and bullets against all) so they cannot tunnel");
        egui::ComboBox::from_label("correction").selected_text(p.position_correction.label()).show_ui(ui, |ui| {
            for m in PositionCorrection::ALL {
                ui.selectable_value(&mut p.position_correction, m, m.label());
            }
        });
        match p.position_correction {
            PositionCorrection::Projection => {
                ui.add(egui::Slider::new(&mut p.percent, 0.0..=1.0).text("percent"));
                ui.add(egui::Slider::new(&mut p.slop, 0.0..=0.1).text("slop m"));
            }
            PositionCorrection::Baumgarte => {
                ui.add(egui::Slider::new(&mut p.baumgarte, 0.0..=1.0).text("beta"));
                ui.add(egui::Slider::new(&mut p.slop, 0.0..=0.1).text("slop m"));
                ui.add(egui::Slider::new(&mut p.max_push_velocity, 0.0..=10.0).text("max push m/s"));
            }
            PositionCorrection::Soft => {
                ui.add(egui::Slider::new(&mut p.contact_hertz, 1.0..=120.0).text("contact hz"));
                ui.add(egui::Slider::new(&mut p.contact_damping_ratio, 0.0..=20.0).text("damping ratio"));
                ui.add(egui::Slider::new(&mut p.relax_iterations, 0..=10).text("relax iterations"));
                ui.add(egui::Slider::new(&mut p.max_push_velocity, 0.0..=10.0).text("max push m/s"));
                crate::app::tools::solver_graph::threads_slider(ui, &mut p);
                crate::app::tools::solver_graph::avx2_checkbox(ui, &mut p);
            }
        }
        override_slider(ui, &mut p.friction_override, "friction override", 0.0..=2.0);
        override_slider(ui, &mut p.restitution_override, "restitution override", 0.0..=1.0);
        ui.add(egui::Slider::new(&mut p.restitution_threshold, 0.0..=5.0).text("bounce m/s"));
        ui.add(egui::Slider::new(&mut p.speculative_margin, 0.0..=0.1).text("speculative m"));
        // The rule's name cut to the room beside the label (whole in the tooltip and the list).
        let rule = p.reference_face.label();
        ui.horizontal(|ui| {
            let combo = ui.allocate_ui(egui::vec2(140.0, ui.spacing().interact_size.y), |ui| {
                egui::ComboBox::from_id_salt("reference face").selected_text(rule).truncate().show_ui(ui, |ui| {
                    for r in ReferenceFaceRule::ALL {
                        ui.selectable_value(&mut p.reference_face, r, r.label());
                    }
                })
            });
            combo
                .inner
                .response
                .on_hover_text(format!("{rule}: how a polygon pair's reference face (and so its normal) is chosen"));
            ui.label("reference face");
        });
        crate::app::tools::sleep::sleep_section(ui, &mut p);
        if ui.button("Defaults").clicked() {
            p = SolverParams::default();
        }
    });
    if p != *current {
        out.push(Action::SetParams(p));
    }
}

fn override_slider(ui: &mut egui::Ui, v: &mut Option<f32>, label: &str, range: std::ops::RangeInclusive<f32>) {
    ui.horizontal(|ui| {
        let mut on = v.is_some();
        if ui.checkbox(&mut on, "").changed() {
            *v = if on { Some(*range.start()) } else { None };
        }
        match v {
            Some(x) => {
                ui.add(egui::Slider::new(x, range).text(label));
            }
            None => {
                ui.label(RichText::new(label).weak());
            }
        }
    });
}

fn layers(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Debug layers").default_open(true).show(ui, |ui| {
        for layer in Layer::WORLD {
            let mut on = app.layers.contains(layer);
            if ui.checkbox(&mut on, layer.label()).changed() {
                out.push(Action::SetLayer(layer, on));
            }
        }
        ui.label(
            RichText::new("contacts: yellow new · blue warm-started · red held 10+ steps · grey speculative")
                .small()
                .weak(),
        );
    });
}

/// The pair-finding method, the tree's settings, what of the tree is drawn, and its numbers.
fn broadphase(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    use manifold_lab::engine::broadphase::{Balancing, InsertionStrategy, PairFinding};
    let bp = &app.world.broadphase;
    egui::CollapsingHeader::new("Broadphase").default_open(false).show(ui, |ui| {
        let (mut mode, mut settings) = (bp.mode, bp.tree.settings);
        egui::ComboBox::from_label("pairs").selected_text(mode.label()).show_ui(ui, |ui| {
            for m in PairFinding::ALL {
                ui.selectable_value(&mut mode, m, m.label());
            }
        });
        egui::ComboBox::from_label("insert").selected_text(settings.insertion.label()).show_ui(ui, |ui| {
            for s in InsertionStrategy::ALL {
                ui.selectable_value(&mut settings.insertion, s, s.label());
            }
        });
        egui::ComboBox::from_label("balance").selected_text(settings.balancing.label()).show_ui(ui, |ui| {
            for b in Balancing::ALL {
                ui.selectable_value(&mut settings.balancing, b, b.label());
            }
        });
        ui.add(egui::Slider::new(&mut settings.margin, 0.0..=1.0).text("fat margin m"));
        if mode != bp.mode || settings != bp.tree.settings {
            out.push(Action::SetBroadphase { mode, settings });
        }
        let m = bp.tree.metrics();
        let height = m.height.max(0) as u32;
        let (mut lo, mut hi) = (app.tree_depth.0.min(height), app.tree_depth.1.min(height));
        let mut tight = app.tree_tight;
        let changed = ui.add(egui::Slider::new(&mut lo, 0..=height).text("from depth")).changed()
            | ui.add(egui::Slider::new(&mut hi, 0..=height).text("to depth")).changed()
            | ui.checkbox(&mut tight, "tight AABBs inside fat ones").changed();
        if changed {
            let max = if hi >= height { u32::MAX } else { hi };
            out.push(Action::SetTreeView { min_depth: lo, max_depth: max, tight });
        }
        let st = &bp.stats;
        egui::Grid::new("tree_stats").num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.label(RichText::new(v).monospace());
                ui.end_row();
            };
            row("nodes", m.node_count.to_string());
            row("height", m.height.to_string());
            row("area ratio", format!("{:.2}", Num(m.area_ratio)));
            row("pairs", st.pairs.to_string());
            row("moved", st.moved.to_string());
            row("reinserted", st.reinserted.to_string());
            row("queries", st.queries.to_string());
            row("nodes visited", st.query.nodes_visited.to_string());
            row("leaves hit", st.query.leaves_hit.to_string());
            row("broadphase", format!("{:.3} ms", Num(app.world.profile.broadphase_ms)));
        });
        if bp.mode == PairFinding::SortAndSweep {
            ui.label(RichText::new("Step through one sweep in the right panel.").small());
        }
    });
}

fn selection(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    ui.heading("Selection");
    if app.selection.is_empty() {
        ui.label("Click a body to select it. Drag to move it (paused: place; running: pull).");
        ui.label("Click a joint's anchor to select the joint.");
        ui.label("Drag the round handle, or Ctrl+drag, to rotate. Shift+click selects a second body.");
        return;
    }
    for &i in &app.selection {
        let Some(b) = app.world.bodies.get(i) else { continue };
        let title = if b.name.is_empty() { format!("body #{i}") } else { format!("{} (#{i})", b.name) };
        egui::CollapsingHeader::new(RichText::new(title).strong()).id_salt(i).default_open(true).show(ui, |ui| {
            let mut e = BodyEdit::of(b);
            egui::Grid::new(("body", i)).num_columns(2).show(ui, |ui| {
                ui.label("kind");
                egui::ComboBox::from_id_salt(("kind", i)).selected_text(format!("{:?}", e.kind)).show_ui(ui, |ui| {
                    for k in [BodyKind::Static, BodyKind::Kinematic, BodyKind::Dynamic] {
                        ui.selectable_value(&mut e.kind, k, format!("{k:?}"));
                    }
                });
                ui.end_row();
                ui.label("position");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut e.position.x).speed(0.01).max_decimals(3));
                    ui.add(egui::DragValue::new(&mut e.position.y).speed(0.01).max_decimals(3));
                });
                ui.end_row();
                ui.label("angle °");
                // Shown in (−180°, 180°]; the body keeps its unwrapped angle until edited.
                let mut deg = wrap_degrees(e.angle.to_degrees());
                if ui.add(egui::DragValue::new(&mut deg).speed(0.5).max_decimals(2)).changed() {
                    e.angle = deg.to_radians();
                }
                ui.end_row();
                ui.label("velocity");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut e.linear_velocity.x).speed(0.05).max_decimals(3));
                    ui.add(egui::DragValue::new(&mut e.linear_velocity.y).speed(0.05).max_decimals(3));
                });
                ui.end_row();
                ui.label("ω rad/s");
                ui.add(egui::DragValue::new(&mut e.angular_velocity).speed(0.05).max_decimals(3));
                ui.end_row();
                material_rows(ui, &mut e.material);
                ui.label("bullet");
                ui.checkbox(&mut e.bullet, "").on_hover_text("Swept against dynamic bodies too (continuous collision)");
                ui.end_row();
                ui.label("mass");
                ui.label(format!("{:.3} kg", Num(b.mass)));
                ui.end_row();
                ui.label("inertia");
                ui.label(format!("{:.4} kg·m²", Num(b.inertia)));
                ui.end_row();
                ui.label("contacts");
                let n = app.world.contacts.iter().filter(|c| c.a == i || c.b == i).count();
                ui.label(n.to_string());
                ui.end_row();
            });
            crate::app::tools::panel::buoyancy(ui, app, i);
            if e != BodyEdit::of(b) {
                out.push(Action::EditBody { body: i, edit: e });
            }
            crate::app::tools::sleep::body_extras(ui, app, i, out);
        });
    }
    if let [a, b] = app.selection[..] {
        ui.separator();
        pair_details(ui, app, a, b);
    }
    if ui.button("Clear selection").clicked() {
        out.push(Action::Select(None));
    }
}

/// The manifold of the two selected bodies (first selected = A).
fn pair_details(ui: &mut egui::Ui, app: &App, a: usize, b: usize) {
    use super::lab::manifold::{manifold_numbers, manifold_of, trace_numbers, trace_pair};
    ui.heading("Pair manifold");
    ui.label(RichText::new(format!("A = #{a}, B = #{b}; drawn in the view")).small());
    if let Some(m) = manifold_of(&app.world, a, b, app.world.params.reference_face) {
        manifold_numbers(ui, &m);
    }
    if let Some(t) = trace_pair(&app.world, a, b, app.world.params.reference_face) {
        trace_numbers(ui, &t, None);
    }
}

/// Steps slower than this are flagged in the status bar: the scene cannot run live.
const SLOW_STEP_MS: f32 = 100.0;

/// The status bar: counts, timings, fps, then the scene or lab file, a notice and an error.
/// Items too many for one row go on to the next, each whole; a text wider than the bar is cut
/// with an ellipsis and shown whole on hover.
fn status_bar(ui: &mut egui::Ui, app: &App, fps: usize) {
    ui.horizontal_wrapped(|ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        let w = &app.world;
        let mode = match app.mode {
            RunMode::Running => RichText::new("▶ running").color(Color32::from_rgb(120, 220, 120)),
            RunMode::Paused => RichText::new("⏸ paused").color(Color32::from_rgb(250, 200, 80)),
        };
        ui.label(mode);
        if let Some(r) = &app.timeline.recorder {
            ui.label(RichText::new("⏺ REC").color(Color32::from_rgb(235, 60, 60)))
                .on_hover_text(format!("recording (Record pressed at step {})", r.since));
        }
        ui.separator();
        // The tree and 3D labs do not use the 2D world: its counts would only read as zeros.
        if app.shows_world() {
            ui.label(format!("step {}", w.step_count));
            ui.separator();
            ui.label(format!("{} bodies", w.bodies.len()));
            ui.separator();
            let points: usize = w.contacts.iter().map(|c| c.manifold.count).sum();
            ui.label(format!("{} contacts ({} points)", w.contacts.len(), points));
            if w.params.recycle_contacts {
                ui.label(format!("{} recycled", w.profile.manifolds_recycled)).on_hover_text(format!(
                    "Contacts whose manifold was kept from earlier poses at the last step (Box2D v3's contact \
                     recycling); {} computed, {} reused unchanged",
                    w.profile.manifolds, w.profile.manifolds_reused
                ));
            }
            ui.separator();
            crate::app::tools::solver_graph::graph_counts(ui, w);
            if w.broadphase.stats.deferred > 0 {
                let limit = manifold_lab::engine::broadphase::MAX_PAIRS;
                ui.label(
                    RichText::new(format!("⚠ pair limit ({limit}) reached")).color(Color32::from_rgb(255, 170, 60)),
                )
                .on_hover_text(format!(
                    "Bodies overlap in piles: {} pair queries were put off to the next steps.",
                    w.broadphase.stats.deferred
                ));
                ui.separator();
            }
            if app.lab.is_none() {
                crate::app::tools::sleep::world_counts(ui, w);
            }
            let step_ms = app.median_step_ms();
            if step_ms > SLOW_STEP_MS {
                // One step per frame at most: the window stays responsive, the scene runs slowly.
                ui.label(
                    RichText::new(format!("⚠ step {step_ms:.0} ms", step_ms = Num(step_ms)))
                        .color(Color32::from_rgb(255, 170, 60)),
                )
                .on_hover_text(format!(
                    "Each step takes {step_ms:.0} ms, so this scene runs at {:.1} steps a second instead \
                         of {:.0}: pause (Space) to inspect it, or run it headless with `run`.",
                    Num(1000.0 / step_ms),
                    Num(w.params.hz),
                    step_ms = Num(step_ms)
                ));
            } else {
                ui.label(format!("step {step_ms:.2} ms", step_ms = Num(step_ms)));
            }
            ui.separator();
        }
        ui.label(format!("{fps} fps"));
        status_texts(ui, app);
    });
}

/// The status bar's texts: the scene or lab file, a notice and the first line of an error,
/// each cut with an ellipsis where wider than the bar (whole on hover).
fn status_texts(ui: &mut egui::Ui, app: &App) {
    let shown = match &app.lab {
        Some(lab) => {
            let name = lab.kind().entry().name;
            Some(lab.file().map_or_else(|| format!("{name} lab"), |p| format!("{name} lab · {}", p.display())))
        }
        None => app.scene_path.as_ref().map(|p| p.display().to_string()),
    };
    if let Some(text) = shown {
        ui.separator();
        ui.add(egui::Label::new(RichText::new(text).weak()).truncate());
    }
    if let Some(n) = &app.notice {
        ui.separator();
        ui.add(egui::Label::new(RichText::new(n).color(Color32::from_rgb(150, 200, 255))).truncate());
    }
    if let Some(e) = &app.error {
        ui.separator();
        // One line, cut with an ellipsis at the bar's edge; the whole message on hover and
        // in the error window.
        let first = e.lines().next().unwrap_or_default();
        ui.add(egui::Label::new(RichText::new(first).color(Color32::from_rgb(255, 110, 110))).truncate())
            .on_hover_text(e);
    }
}

/// An angle in degrees brought into (−180, 180].
pub fn wrap_degrees(deg: f32) -> f32 {
    let w = deg.rem_euclid(360.0);
    if w > 180.0 {
        w - 360.0
    } else {
        w
    }
}

/// The body editor's rows for a [`Material`] (in a two-column grid).
fn material_rows(ui: &mut egui::Ui, m: &mut Material) {
    ui.label("density");
    ui.add(egui::DragValue::new(&mut m.density).speed(0.05).range(0.01..=1000.0));
    ui.end_row();
    ui.label("friction");
    ui.add(egui::DragValue::new(&mut m.friction).speed(0.01).range(0.0..=2.0));
    ui.end_row();
    ui.label("restitution");
    ui.add(egui::DragValue::new(&mut m.restitution).speed(0.01).range(0.0..=1.0));
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::wrap_degrees;

    #[test]
    fn angles_wrap_into_one_turn() {
        assert!((wrap_degrees(784.7) - 64.7).abs() < 1e-3);
        assert!((wrap_degrees(-190.0) - 170.0).abs() < 1e-4);
        assert_eq!(wrap_degrees(180.0), 180.0);
        assert!((wrap_degrees(-180.0) - 180.0).abs() < 1e-4);
        assert_eq!(wrap_degrees(0.0), 0.0);
    }
}
