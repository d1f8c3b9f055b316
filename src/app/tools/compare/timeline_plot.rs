//! The Compare tool's divergence on the timeline (issue "peer engines"): under the timeline's
//! counter plots, while a peer runs, two plots along the same steps: how far the peers' bodies
//! are from ours (position, metres) and how far their angles are (radians), each peer in its
//! colour, the largest over the dynamic bodies as a bright line and the mean as a faint one,
//! the tolerance as a dashed line. The first step whose largest position difference passes
//! the tolerance is marked on both by a tick in the peer's colour; a click on a tick shows that
//! step, a click elsewhere the step under the pointer (the peers are re-simulated to it).

use super::{peer_color32, CompareTool, PeerRun, Sample};
use crate::app::panels::note_in_ctx;
use crate::app::state::Action;
use crate::app::timeline::TimelineAction;
use egui_macroquad::egui::{self, Color32, Pos2, Rect, Sense, Shape, Stroke};

/// The plots' height, points.
pub const PLOT_H: f32 = 36.0;
/// A click this close to a first-divergence tick (points) shows its step.
const TICK_GRAB: f32 = 6.0;
const TEXT: Color32 = Color32::from_gray(200);

/// What a plot shows of each sample: (largest, mean).
#[derive(Clone, Copy, PartialEq)]
enum Quantity {
    Position,
    Angle,
}

impl Quantity {
    fn of(self, s: &Sample) -> (f32, f32) {
        match self {
            Quantity::Position => (s.max, s.mean),
            Quantity::Angle => (s.angle_max, s.angle_mean),
        }
    }

    /// Its name among the noted widgets (`--state-out`).
    fn widget(self) -> &'static str {
        match self {
            Quantity::Position => "divergence_position",
            Quantity::Angle => "divergence_angle",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Quantity::Position => "Δ position m",
            Quantity::Angle => "Δ angle rad",
        }
    }
}

/// The steps the timeline shows, `origin ..= newest`, mapped across `rect`.
#[derive(Clone, Copy)]
pub struct Steps {
    pub origin: u64,
    pub newest: u64,
    pub cursor: u64,
}

impl Steps {
    fn x(&self, rect: Rect, step: u64) -> f32 {
        let span = self.newest.saturating_sub(self.origin).max(1) as f32;
        rect.min.x + rect.width() * (step.saturating_sub(self.origin) as f32 / span).clamp(0.0, 1.0)
    }

    fn step_at(&self, rect: Rect, x: f32) -> u64 {
        let f = ((x - rect.min.x) / rect.width()).clamp(0.0, 1.0);
        self.origin + (f * self.newest.saturating_sub(self.origin) as f32).round() as u64
    }
}

/// Both plots side by side (nothing while no peer runs); their rects are pushed on `backdrops`.
pub fn strip(ui: &mut egui::Ui, tool: &CompareTool, steps: Steps, out: &mut Vec<Action>, backdrops: &mut Vec<Rect>) {
    if tool.runs.is_empty() {
        return;
    }
    ui.horizontal(|ui| {
        let w = (ui.available_width() - 6.0) / 2.0;
        for q in [Quantity::Position, Quantity::Angle] {
            let (rect, resp) = ui.allocate_exact_size(egui::vec2(w, PLOT_H), Sense::click());
            backdrops.push(rect.intersect(ui.clip_rect()));
            note_in_ctx(ui, q.widget(), rect);
            draw(ui.painter(), rect, tool, q, steps);
            if let Some(p) = resp.interact_pointer_pos().filter(|_| resp.clicked()) {
                out.push(Action::Timeline(TimelineAction::Seek(clicked_step(tool, rect, steps, p.x))));
            }
            if let Some(p) = resp.hover_pos() {
                resp.on_hover_text(hover(tool, q, steps.step_at(rect, p.x)));
            }
        }
    });
}

/// The first-divergence tick under `x`, else the step under it.
fn clicked_step(tool: &CompareTool, rect: Rect, steps: Steps, x: f32) -> u64 {
    let ticks = tool.runs.iter().filter_map(|r| r.first_divergence(tool.tolerance()));
    let near = ticks.min_by(|&a, &b| (steps.x(rect, a) - x).abs().total_cmp(&(steps.x(rect, b) - x).abs()));
    near.filter(|&s| (steps.x(rect, s) - x).abs() <= TICK_GRAB).unwrap_or_else(|| steps.step_at(rect, x))
}

/// Each peer's numbers at `step` and its first step past the tolerance.
fn hover(tool: &CompareTool, q: Quantity, step: u64) -> String {
    let mut text = format!("step {step}: {} (largest / mean over the dynamic bodies)", q.label());
    for r in &tool.runs {
        let at = r.samples.iter().find(|s| s.step == step).map(|s| q.of(s));
        let now = at.map_or("-".to_string(), |(max, mean)| format!("{max:.4} / {mean:.4}"));
        let first =
            r.first_divergence(tool.tolerance()).map_or("never".into(), |s| format!("step {s} (click its tick)"));
        text += &format!("\n{}: {now}; past {} m at {first}", r.engine.label(), tool.tolerance());
    }
    text
}

/// The plot: every peer's largest (bright) and mean (faint) line, the tolerance (position),
/// the first-divergence ticks, the cursor and the title with the values now.
fn draw(p: &egui::Painter, rect: Rect, tool: &CompareTool, q: Quantity, steps: Steps) {
    let values = tool.runs.iter().flat_map(|r| r.samples.iter().map(|s| q.of(s).0));
    let tolerance = (q == Quantity::Position).then(|| tool.tolerance());
    let top = values.chain(tolerance).fold(1e-6f32, f32::max);
    let y = |v: f32| rect.max.y - 2.0 - (rect.height() - 16.0) * (v / top).clamp(0.0, 1.0);
    if let Some(t) = tolerance {
        let dashes = Shape::dashed_line(&[Pos2::new(rect.min.x, y(t)), Pos2::new(rect.max.x, y(t))], grey(), 4.0, 4.0);
        p.extend(dashes);
    }
    for r in &tool.runs {
        let color = peer_color32(r.engine);
        p.add(Shape::line(line(r, rect, steps, |s| q.of(s).1, &y), Stroke::new(1.0, color.gamma_multiply(0.45))));
        p.add(Shape::line(line(r, rect, steps, |s| q.of(s).0, &y), Stroke::new(1.5, color)));
        if let Some(step) = r.first_divergence(tool.tolerance()) {
            let x = steps.x(rect, step);
            p.line_segment([Pos2::new(x, rect.min.y + 12.0), Pos2::new(x, rect.max.y)], Stroke::new(2.0, color));
            p.add(Shape::convex_polygon(
                vec![
                    Pos2::new(x - 4.0, rect.min.y + 12.0),
                    Pos2::new(x + 4.0, rect.min.y + 12.0),
                    Pos2::new(x, rect.min.y + 18.0),
                ],
                color,
                Stroke::NONE,
            ));
        }
    }
    let x = steps.x(rect, steps.cursor);
    p.line_segment([Pos2::new(x, rect.min.y), Pos2::new(x, rect.max.y)], Stroke::new(1.5, Color32::YELLOW));
    let now: Vec<String> = (tool.runs.iter())
        .filter_map(|r| r.samples.last().map(|s| format!("{} {:.4}", r.engine.cli_name(), q.of(s).0)))
        .collect();
    let title = format!("{}  {}", q.label(), now.join("  "));
    p.text(rect.min + egui::vec2(4.0, 1.0), egui::Align2::LEFT_TOP, title, egui::FontId::proportional(11.0), TEXT);
}

fn grey() -> Stroke {
    Stroke::new(1.0, Color32::from_gray(150))
}

/// One value of each sample as a polyline, at most one point per two points of width (each
/// bucket's largest, so spikes show).
fn line(r: &PeerRun, rect: Rect, steps: Steps, value: impl Fn(&Sample) -> f32, y: &impl Fn(f32) -> f32) -> Vec<Pos2> {
    let per = (r.samples.len() as f32 / (0.5 * rect.width()).max(1.0)).ceil().max(1.0) as usize;
    (r.samples.chunks(per))
        .map(|c| {
            let v = c.iter().map(&value).fold(0.0, f32::max);
            Pos2::new(steps.x(rect, c[c.len() - 1].step), y(v))
        })
        .collect()
}
