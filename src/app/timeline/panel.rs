//! The timeline bar along the bottom: a scrubber over every step, branch and compare pickers,
//! record and check buttons, small plots of per-step counters (click one to jump there) and
//! the diff against the compared branch. One panel for every world the timeline keeps: the
//! 2D scene and the 3D dynamics lab show it through a [`View`] of their [`Scrub`].

use super::{track, Scrub, TimelineAction as T};
use crate::app::input::keys;
use crate::app::panels::{note, UiState, Widgets};
use crate::app::state::{Action, App};
use egui_macroquad::egui::{self, Color32, RichText, Sense, Stroke};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::timeline::diff::BodyDiff;
use manifold_lab::engine::timeline::{Counter, StepStats, Timed};

/// Height of one counter plot, points.
const PLOT_H: f32 = 30.0;
/// Buckets a plot draws per point of its width at most (longer runs keep each bucket's largest
/// value, so spikes show): on a software renderer a plot's triangles cost as much as a scene's
/// shapes, and a bucket every two points already shows every bend.
const PLOT_BUCKETS_PER_POINT: f32 = 0.5;
/// The plots' area colours: at the value, and at the baseline.
const PLOT_TOP: Color32 = Color32::from_rgb(110, 190, 255);
const PLOT_BOTTOM: Color32 = Color32::from_rgba_premultiplied(20, 38, 56, 90);
const RED: Color32 = Color32::from_rgb(235, 60, 60);
const TEXT: Color32 = Color32::from_gray(200);

/// What the panel shows of a timeline: the shared part and what the app around it offers.
pub struct View<'a, W> {
    pub scrub: &'a Scrub<W>,
    /// The shown world's bodies that differ most from the ghost.
    pub diff: Vec<BodyDiff>,
    /// Whether one step back can be taken (the ⏮ and ◀ buttons).
    pub can_back: bool,
    /// Recording on or off; `None` hides the Record button.
    pub recording: Option<bool>,
    /// The Profiler window open or not; `None` hides its button.
    pub profiler: Option<bool>,
    /// Whether the GIF export is offered.
    pub export: bool,
    /// The peer engines stepped beside the world, for the divergence plots (2D only).
    pub peers: Option<&'a crate::app::tools::compare::CompareTool>,
}

/// The 2D scene's view of its timeline.
fn scene_view(app: &App) -> View<'_, manifold_lab::engine::World> {
    let t = &app.timeline;
    View {
        scrub: &t.scrub,
        diff: t.diff(&app.world),
        can_back: app.timeline_back_target().is_some(),
        recording: Some(t.recorder.is_some()),
        profiler: Some(t.profiler),
        export: true,
        peers: Some(app.tools.get()),
    }
}

/// Shows the timeline panel: the scene's, or the open lab's if it keeps one (labs without a
/// timeline show none); returns its screen rect. The plots' backgrounds are left to the frame
/// loop (pushed on `backdrops`).
pub fn show(ctx: &egui::Context, app: &App, out: &mut Vec<Action>, st: &mut UiState) -> Option<egui::Rect> {
    match &app.lab {
        Some(lab) => lab.timeline_panel(ctx, app, out, st),
        None => show_view(ctx, &scene_view(app), out, st),
    }
}

/// Shows the panel for `v`.
pub fn show_view<W: Timed>(
    ctx: &egui::Context,
    v: &View<'_, W>,
    out: &mut Vec<Action>,
    st: &mut UiState,
) -> Option<egui::Rect> {
    let r = egui::TopBottomPanel::bottom("timeline").show(ctx, |ui| {
        bar(ui, v, out, &mut st.widgets);
        ui.horizontal(|ui| {
            let diff_w = 230.0;
            let plots_w = (ui.available_width() - diff_w - 12.0).max(200.0);
            ui.allocate_ui(egui::vec2(plots_w, PLOT_H), |ui| plots(ui, v.scrub, out, &mut st.backdrops));
            ui.separator();
            ui.vertical(|ui| {
                // Every line of the diff is cut to the room left (whole on hover).
                ui.set_max_width(ui.available_width());
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                diff(ui, v)
            });
        });
        if let Some(peers) = v.peers {
            divergence(ui, v.scrub, peers, out, &mut st.backdrops);
        }
        ui.min_rect()
    });
    st.overflow("timeline", r.inner, r.response.rect);
    Some(r.response.rect)
}

/// The scrubber row: the step buttons (each enabled when it can move), the track (a click or
/// a drag shows that step) and the branch, record and check controls.
fn bar<W: Timed>(ui: &mut egui::Ui, v: &View<'_, W>, out: &mut Vec<Action>, widgets: &mut Widgets) {
    let t = v.scrub;
    let b = t.line.current_branch();
    let (first, newest, cursor) = (b.first_reachable(), b.newest(), t.line.cursor());
    let tl = Action::Timeline;
    ui.horizontal(|ui| {
        let (back, on) = (v.can_back, cursor < newest);
        let by = |n| tl(T::SeekBy(n));
        keys::button(ui, "⏮", &[("first step", &tl(T::SeekStart))], back, out);
        keys::button(ui, "◀", &[("one step back", &by(-1)), ("ten steps", &by(-10))], back, out);
        keys::button(ui, "▶", &[("one step on", &by(1)), ("ten steps", &by(10))], on, out);
        keys::button(ui, "⏭", &[("newest step", &tl(T::SeekEnd))], on, out);
        ui.label(RichText::new(format!("{cursor} / {newest}")).monospace());
        // The controls from the right edge leftwards, so they always show whole; the track takes
        // the width left between them and the step buttons.
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            keyframe_info(ui, t);
            controls(ui, v, out);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                let (resp, asked) = track::track(ui, ui.available_width().max(60.0), first, newest, cursor);
                note(widgets, ui, "timeline_track", resp.rect);
                let under = resp.hover_pos().map(|p| track::step_at(resp.rect, p.x, first, newest));
                resp.on_hover_text(match under {
                    Some(s) if newest > first => format!("step {s}: click or drag to show any step"),
                    _ => "no other step yet".into(),
                });
                if let Some(s) = asked {
                    out.push(tl(T::Seek(s)));
                }
            });
        });
    });
}

/// Record, Check, GIF, Profiler and the branch pickers, laid out right to left.
fn controls<W: Timed>(ui: &mut egui::Ui, v: &View<'_, W>, out: &mut Vec<Action>) {
    let t = v.scrub;
    if let Some(on) = v.profiler {
        if ui.selectable_label(on, "Profiler").on_hover_text("step time by phase, counters").clicked() {
            out.push(Action::Timeline(T::ShowProfiler(!on)));
        }
    }
    if v.export && ui.button("GIF").on_hover_text("export a range of steps as an animated GIF or PNGs").clicked() {
        out.push(Action::ShowDialog(crate::app::files::DialogKind::Export));
    }
    let check = ui.button("Check").on_hover_text(
        t.last_check.as_deref().unwrap_or("run the determinism check: twice from the start and once restored"),
    );
    if check.clicked() {
        out.push(Action::Timeline(T::CheckDeterminism));
    }
    if let Some(recording) = v.recording {
        let label = if recording { RichText::new("⏹ Stop").color(RED) } else { RichText::new("⏺ Record") };
        if ui.button(label).on_hover_text("record the run to recording.mlrec").clicked() {
            out.push(Action::Timeline(T::Record(!recording)));
        }
    }
    branch_picker(ui, t, out);
}

/// Keyframes, the re-simulation bound and the memory they take.
fn keyframe_info<W: Timed>(ui: &mut egui::Ui, t: &Scrub<W>) {
    let mb = t.line.keyframe_bytes() as f64 / 1e6;
    ui.label(
        RichText::new(format!(
            "{} kf · ≤{:.0} ms · {mb:.1} MB",
            t.line.keyframe_count(),
            Num(t.line.segment_ms()),
            mb = Num(mb)
        ))
        .small(),
    )
    .on_hover_text(format!(
        "a keyframe once the steps since the last took {:.0} ms (about every {:.0} steps here; \
         pinned at edits), {:.1} MB of a {:.0} MB budget; other steps are re-simulated",
        Num(t.line.segment_ms()),
        Num(t.line.mean_spacing()),
        Num(mb),
        Num(t.line.budget() as f64 / 1e6)
    ));
}

fn branch_name<W: Timed>(t: &Scrub<W>, i: usize) -> String {
    t.line.branch(i).map_or_else(
        || format!("#{i}"),
        |b| match b.parent {
            Some((p, s)) => format!("{} (from {} @ {s}, to {})", b.name, p, b.newest()),
            None => format!("{} (to {})", b.name, b.newest()),
        },
    )
}

/// The branch shown and the branch compared with it, added right to left (the compared one
/// first, so the branch shown reads first).
fn branch_picker<W: Timed>(ui: &mut egui::Ui, t: &Scrub<W>, out: &mut Vec<Action>) {
    let n = t.line.branches().len();
    if n < 2 {
        return;
    }
    let current = t.line.current();
    let shown = t.compare.map_or("no ghost".to_string(), |c| format!("ghost {c}"));
    egui::ComboBox::from_id_salt("compare").selected_text(shown).width(80.0).show_ui(ui, |ui| {
        if ui.selectable_label(t.compare.is_none(), "none").clicked() {
            out.push(Action::Timeline(T::Compare(None)));
        }
        for i in (0..n).filter(|&i| i != current) {
            if ui.selectable_label(t.compare == Some(i), branch_name(t, i)).clicked() {
                out.push(Action::Timeline(T::Compare(Some(i))));
            }
        }
    });
    egui::ComboBox::from_id_salt("branch").selected_text(format!("branch {current}")).width(80.0).show_ui(ui, |ui| {
        for i in 0..n {
            if ui.selectable_label(i == current, branch_name(t, i)).clicked() && i != current {
                out.push(Action::Timeline(T::SelectBranch(i)));
            }
        }
    });
}

/// One small plot per counter, side by side, each on a backdrop; a click jumps to the step
/// under the pointer.
fn plots<W: Timed>(ui: &mut egui::Ui, t: &Scrub<W>, out: &mut Vec<Action>, backdrops: &mut Vec<egui::Rect>) {
    let b = t.line.current_branch();
    let stats = b.stats();
    let (origin, cursor) = (b.origin(), t.line.cursor());
    let n = W::COUNTERS.len() as f32;
    ui.horizontal(|ui| {
        let w = (ui.available_width() - 6.0 * (n - 1.0)) / n;
        for &c in W::COUNTERS {
            {
                let now = b.stats_at(cursor).map_or(0.0, |s| c.value(s));
                let (rect, resp) = ui.allocate_exact_size(egui::vec2(w, PLOT_H), Sense::click());
                backdrops.push(rect.intersect(ui.clip_rect()));
                draw_plot(ui.painter(), rect, stats, c, origin, cursor);
                let text = format!("{} {}", c.label(), short(now));
                let title = plot_title(ui, text.clone(), w - 8.0);
                let elided = title.elided;
                ui.painter().galley(rect.min + egui::vec2(4.0, 2.0), title, TEXT);
                if let Some(p) = resp.interact_pointer_pos().filter(|_| resp.clicked()) {
                    let f = ((p.x - rect.min.x) / rect.width()).clamp(0.0, 1.0);
                    let step = origin + (f * (stats.len().saturating_sub(1)) as f32).round() as u64;
                    out.push(Action::Timeline(T::Seek(step)));
                }
                if let Some(p) = resp.hover_pos() {
                    let f = ((p.x - rect.min.x) / rect.width()).clamp(0.0, 1.0);
                    let i = (f * (stats.len().saturating_sub(1)) as f32).round() as usize;
                    if let Some(s) = stats.get(i) {
                        let title = if elided { format!("{text}\n") } else { String::new() };
                        resp.on_hover_text(format!("{title}step {}: {}", origin + i as u64, short(c.value(s))));
                    }
                }
            }
        }
    });
}

/// The Compare tool's divergence plots along the same steps, while a peer runs.
fn divergence<W: Timed>(
    ui: &mut egui::Ui,
    t: &Scrub<W>,
    peers: &crate::app::tools::compare::CompareTool,
    out: &mut Vec<Action>,
    backdrops: &mut Vec<egui::Rect>,
) {
    use crate::app::tools::compare::timeline_plot;
    let b = t.line.current_branch();
    let steps = timeline_plot::Steps { origin: b.origin(), newest: b.newest(), cursor: t.line.cursor() };
    timeline_plot::strip(ui, peers, steps, out, backdrops);
}

/// A plot's title on one line, cut with an ellipsis at `width` so that it never runs into the
/// next plot (the whole title shows on hover).
fn plot_title(ui: &egui::Ui, text: String, width: f32) -> std::sync::Arc<egui::Galley> {
    let mut job = egui::text::LayoutJob::simple_singleline(text, egui::FontId::proportional(11.0), TEXT);
    job.wrap = egui::text::TextWrapping::truncate_at_width(width.max(0.0));
    ui.painter().layout_job(job)
}

/// A number in a few characters.
fn short(v: f64) -> String {
    if v == 0.0 || (0.01..10_000.0).contains(&v.abs()) {
        format!("{v:.3}", v = Num(v)).trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.2e}", v = Num(v))
    }
}

fn draw_plot(p: &egui::Painter, rect: egui::Rect, stats: &[StepStats], c: Counter, origin: u64, cursor: u64) {
    if stats.is_empty() {
        return;
    }
    let buckets = stats.len().min((rect.width() * PLOT_BUCKETS_PER_POINT).max(2.0) as usize);
    let per = stats.len() as f64 / buckets as f64;
    let values: Vec<f64> = (0..buckets)
        .map(|k| {
            let (a, b) = ((k as f64 * per) as usize, (((k + 1) as f64 * per) as usize).max(k + 1).min(stats.len()));
            stats[a..b].iter().map(|s| c.value(s)).fold(f64::MIN, f64::max)
        })
        .collect();
    let max = values.iter().copied().fold(0.0, f64::max);
    let min = values.iter().copied().fold(0.0, f64::min);
    let span = (max - min).max(1e-12);
    // An area under the values (bright at the value, fading to the baseline): two vertices and
    // two triangles per bucket, where a feathered line takes four and six.
    let base = rect.max.y - 1.0;
    let y = |v: f64| rect.max.y - 2.0 - (rect.height() - 16.0) * ((v - min) / span) as f32;
    let mut mesh = egui::Mesh::default();
    for (k, &v) in values.iter().enumerate() {
        let x = rect.min.x + rect.width() * (k as f32 + 0.5) / buckets as f32;
        mesh.colored_vertex(egui::pos2(x, y(v)), PLOT_TOP);
        mesh.colored_vertex(egui::pos2(x, base), PLOT_BOTTOM);
        if k > 0 {
            let i = 2 * k as u32;
            mesh.add_triangle(i - 2, i - 1, i);
            mesh.add_triangle(i - 1, i + 1, i);
        }
    }
    p.add(egui::Shape::mesh(mesh));
    let last = (stats.len() - 1).max(1) as f32;
    let x = rect.min.x + rect.width() * (cursor.saturating_sub(origin) as f32 / last).clamp(0.0, 1.0);
    p.line_segment([egui::pos2(x, rect.min.y), egui::pos2(x, rect.max.y)], Stroke::new(1.5, Color32::YELLOW));
}

/// The compared branch: where the hashes first part and the bodies that differ most.
fn diff<W: Timed>(ui: &mut egui::Ui, v: &View<'_, W>) {
    let t = v.scrub;
    let Some(other) = t.compare.filter(|&c| c != t.line.current()) else {
        ui.label(RichText::new("Edit at a past step to start a branch").small().weak());
        return;
    };
    let first = t.line.first_divergence(t.line.current(), other);
    ui.label(
        RichText::new(match first {
            Some(s) => format!("vs branch {other}: states part at step {s}"),
            None => format!("vs branch {other}: same states"),
        })
        .small()
        .strong(),
    );
    if t.ghost().is_none() {
        ui.label(RichText::new(format!("branch {other} does not reach this step")).small().weak());
        return;
    }
    for d in v.diff.iter().take(2) {
        let name = if d.name.is_empty() { format!("#{}", d.body) } else { d.name.clone() };
        let text = format!("{name} Δp {:.3} m Δθ {:.3} Δv {:.2}", Num(d.position), Num(d.angle), Num(d.velocity));
        ui.add(egui::Label::new(RichText::new(text).small()).truncate());
    }
}
