//! The Profiler window: the last steps' time stacked by phase (egui_plot bars), counters with
//! hover values, minimum / median / maximum per phase, and a button that moves the timeline to
//! the slowest step.

use super::TimelineAction as T;
use crate::app::state::{Action, App};
use egui_macroquad::egui::{self, Color32, RichText};
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints, VLine};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::timeline::profile::profile_window;
use manifold_lab::engine::timeline::{Phase, StepStats};

/// Steps the profiler shows, ending at the newest step of the current branch.
pub const PROFILE_STEPS: u64 = 300;

const PHASE_COLORS: [Color32; Phase::COUNT] = [
    Color32::from_rgb(90, 160, 240),
    Color32::from_rgb(240, 170, 60),
    Color32::from_rgb(120, 200, 110),
    Color32::from_rgb(220, 90, 200),
    Color32::from_rgb(80, 200, 210),
];

/// The counters plotted under the phases: label and value of a step.
/// A counter's value at a step.
type CounterValue = fn(&StepStats) -> f64;

const COUNTERS: [(&str, CounterValue); 4] = [
    ("contacts", |s| s.contacts as f64),
    ("pairs", |s| s.pairs as f64),
    ("awake bodies", |s| s.awake_bodies as f64),
    ("TOI events", |s| s.toi_events as f64),
];

/// Shows the window when it is open (scenes only).
pub fn show(ctx: &egui::Context, app: &App, out: &mut Vec<Action>) {
    if !app.timeline.profiler || app.lab.is_some() {
        return;
    }
    let mut open = true;
    egui::Window::new("Profiler")
        .open(&mut open)
        .default_width(520.0)
        .default_pos(egui::pos2(320.0, 60.0))
        // Taller than a small window: it scrolls instead of running off the screen.
        .vscroll(true)
        .show(ctx, |ui| body(ui, app, out));
    if !open {
        out.push(Action::Timeline(T::ShowProfiler(false)));
    }
}

fn body(ui: &mut egui::Ui, app: &App, out: &mut Vec<Action>) {
    let b = app.timeline.line.current_branch();
    let (origin, stats) = (b.origin(), b.stats());
    let w = profile_window(stats, origin, b.newest(), PROFILE_STEPS);
    let cursor = app.timeline.line.cursor();
    ui.horizontal(|ui| {
        ui.label(format!("steps {}–{}", w.first, w.last));
        let slow = ui.add_enabled(w.slowest.is_some(), egui::Button::new("Jump to slowest step"));
        let slow = match w.slowest {
            Some((s, ms)) => slow.on_hover_text(format!("step {s}: {ms:.3} ms", ms = Num(ms))),
            None => slow,
        };
        if slow.clicked() {
            out.push(Action::Timeline(T::JumpToSlowest));
        }
    });
    let steps: Vec<u64> = if w.first > w.last { Vec::new() } else { (w.first..=w.last).collect() };
    let at = |s: u64| &stats[(s - origin) as usize];
    // Stacked bars: each phase on top of the ones before it.
    let mut charts: Vec<BarChart> = Vec::new();
    for (k, phase) in Phase::ALL.iter().enumerate() {
        let bars: Vec<Bar> = steps.iter().map(|&s| Bar::new(s as f64, at(s).phases[k] as f64).width(1.0)).collect();
        let mut chart = BarChart::new(bars).name(phase.label()).color(PHASE_COLORS[k]);
        let below: Vec<&BarChart> = charts.iter().collect();
        chart = chart.stack_on(&below);
        charts.push(chart);
    }
    Plot::new("profiler_phases")
        .height(150.0)
        .legend(Legend::default().background_alpha(0.5))
        .allow_scroll(false)
        .y_axis_label("ms")
        .show(ui, |p| {
            for c in charts {
                p.bar_chart(c);
            }
            p.vline(VLine::new(cursor as f64).name("cursor").color(Color32::from_rgb(235, 60, 60)));
        });
    egui::Grid::new("profiler_spread").striped(true).show(ui, |ui| {
        ui.label(RichText::new("ms").strong());
        for h in ["min", "median", "max"] {
            ui.label(RichText::new(h).strong());
        }
        ui.end_row();
        let rows = Phase::ALL.iter().map(|p| (p.label(), w.phases[*p as usize])).chain([("step", w.total)]);
        for (label, s) in rows {
            ui.label(label);
            for v in [s.min, s.median, s.max] {
                ui.label(format!("{v:.3}", v = Num(v)));
            }
            ui.end_row();
        }
    });
    for (k, (label, value)) in COUNTERS.iter().enumerate() {
        let now = stats.get((cursor.saturating_sub(origin)) as usize).map_or(0.0, value);
        let title = format!("{label}: {now:.0} at step {cursor}", now = Num(now));
        ui.add(egui::Label::new(RichText::new(title).small()).truncate());
        let pts: PlotPoints = steps.iter().map(|&s| [s as f64, value(at(s))]).collect();
        Plot::new(("profiler_counter", k))
            .height(40.0)
            .allow_scroll(false)
            .show_axes([false, true])
            .label_formatter(move |_, p| format!("{label}\nstep {:.0}: {:.0}", Num(p.x), Num(p.y)))
            .show(ui, |p| {
                p.line(Line::new(pts).name(*label).color(PHASE_COLORS[k]));
                p.vline(VLine::new(cursor as f64).name("cursor").color(Color32::from_rgb(235, 60, 60)));
            });
    }
}

#[cfg(test)]
#[path = "profiler_tests.rs"]
mod tests;
