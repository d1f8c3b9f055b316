//! The trace of two bodies (any pair kind) drawn step by step, and the numbers behind it:
//! the manifold lab's view and the world view's selected pair.

use super::traces::{trace_bodies, PairTrace};
use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::collide::clip_trace::{ClipTrace, ShapeId};
use manifold_lab::engine::collide::polygon::ReferenceFaceRule;
use manifold_lab::engine::collide::{collide_with, Manifold};
use manifold_lab::engine::debug::{palette, DebugDraw, Layer};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;
use manifold_lab::engine::World;

/// The last clipping stage (the manifold) of two polygons that are not both axis-aligned.
#[cfg(test)]
pub const LAST_STAGE: usize = manifold_lab::engine::collide::clip_trace::CLIP_STAGES.len() - 1;

/// The trace between bodies `a` and `b`, whatever their shapes, with the world's speculative
/// margin (0 in a lab opened on a pair file without one).
pub fn trace_pair(world: &World, a: usize, b: usize, rule: ReferenceFaceRule) -> Option<PairTrace> {
    trace_bodies(world, a, b, rule, axis_scale(world, a, b))
}

/// The manifold between two bodies (any shapes), A → B, with the world's speculative margin
/// (as the world's own contacts are found) and the reference-face `rule`.
pub fn manifold_of(world: &World, a: usize, b: usize, rule: ReferenceFaceRule) -> Option<Manifold> {
    let (ba, bb) = (world.bodies.get(a)?, world.bodies.get(b)?);
    Some(collide_with(&ba.shape, &ba.xf, &bb.shape, &bb.xf, world.params.speculative_margin, rule))
}

/// Length of drawn axes: a fraction of the pair's size.
pub fn axis_scale(world: &World, a: usize, b: usize) -> f32 {
    let r = |i: usize| world.bodies.get(i).map(|b| b.bounding_radius()).unwrap_or(1.0);
    (0.35 * r(a).min(r(b))).clamp(0.05, 5.0)
}

fn shape_color(id: ShapeId) -> Color32 {
    let c = match id {
        ShapeId::A => manifold_lab::engine::debug::palette::SHAPE_A,
        ShapeId::B => manifold_lab::engine::debug::palette::SHAPE_B,
    };
    Color32::from_rgb((c.r * 255.0) as u8, (c.g * 255.0) as u8, (c.b * 255.0) as u8)
}

/// The numbers of a manifold: normal, points, depths, feature ids.
pub fn manifold_numbers(ui: &mut egui::Ui, m: &Manifold) {
    if m.count == 0 {
        ui.label(RichText::new("no contact (count 0)").weak());
        return;
    }
    ui.label(format!("normal A to B ({:.4}, {:.4})", Num(m.normal.x), Num(m.normal.y)));
    egui::Grid::new("manifold_points").num_columns(3).striped(true).show(ui, |ui| {
        ui.label(RichText::new("point").strong());
        ui.label(RichText::new("depth").strong());
        ui.label(RichText::new("feature id").strong());
        ui.end_row();
        for p in m.points() {
            ui.label(format!("({:.3}, {:.3})", Num(p.point.x), Num(p.point.y)));
            ui.label(format!("{:.4}", Num(p.penetration)));
            ui.label(RichText::new(format!("{:08x}", p.id.0)).monospace());
            ui.end_row();
        }
    });
}

/// The trace's numbers: every SAT axis (click one to draw its projections), the reference
/// and incident faces, and the clipping outcome. Returns a clicked axis.
pub fn trace_numbers(ui: &mut egui::Ui, t: &ClipTrace, selected_axis: Option<usize>) -> Option<Option<usize>> {
    let mut clicked = None;
    let winner = t.winning_axis();
    ui.label(RichText::new("SAT axes (face normals)").strong());
    egui::Grid::new("sat_axes").num_columns(3).striped(true).show(ui, |ui| {
        ui.label("axis");
        ui.label("separation");
        ui.label("");
        ui.end_row();
        for (i, a) in t.axes.iter().enumerate() {
            let text = RichText::new(format!("{}{}", a.owner.label(), a.edge)).color(shape_color(a.owner));
            if ui
                .selectable_label(selected_axis == Some(i), text)
                .on_hover_text("draw the projections on this axis")
                .clicked()
            {
                clicked = Some(if selected_axis == Some(i) { None } else { Some(i) });
            }
            ui.label(RichText::new(format!("{:+.4}", Num(a.separation))).monospace());
            let note = if Some(i) == t.separating_axis {
                "separating"
            } else if Some(i) == winner {
                "reference"
            } else if t.best.contains(&Some(i)) {
                "best of its shape"
            } else {
                ""
            };
            ui.label(RichText::new(note).small());
            ui.end_row();
        }
    });
    if let (Some(r), Some(inc)) = (t.reference, t.incident) {
        ui.label(format!(
            "reference face {}{} · incident face {}{}",
            r.owner.label(),
            r.edge,
            inc.owner.label(),
            inc.edge
        ));
        let bias = match (t.rule, t.bias_changed_choice) {
            (ReferenceFaceRule::Plain, _) => "no bias: the deeper face wins".to_string(),
            (rule, true) => format!("{} kept A's face over B's slightly deeper one", rule.label()),
            (rule, false) => format!("{} agrees with the plain comparison", rule.label()),
        };
        ui.label(RichText::new(bias).small());
        if let Some(lost) = t.yielded {
            ui.label(
                RichText::new(format!(
                    "the other face's side planes cut {lost:.4} m off the deepest point: this deeper face took over"
                ))
                .small(),
            );
        }
        if let Some((axis, extra)) = t.shortest_way_out().filter(|&(_, e)| e > 1e-4) {
            ui.label(
                RichText::new(format!(
                    "the normal's way out is {extra:.4} m longer than the minimum translation ({}{})",
                    axis.owner.label(),
                    axis.edge
                ))
                .small()
                .color(Color32::from_rgb(230, 120, 90)),
            );
        }
        ui.label(format!("kept {} · rejected {}", t.kept.len(), t.rejected.len()));
        if t.fallback {
            ui.label(RichText::new("clipping removed the segment: deepest incident vertex used").small());
        }
    }
    clicked
}

/// The lab's two bodies in the colours of A and B, labelled.
pub fn draw_bodies(world: &World, d: &mut dyn DebugDraw) {
    use manifold_lab::engine::world::draw::draw_body;
    for (i, c) in [(0, palette::SHAPE_A), (1, palette::SHAPE_B)] {
        if let Some(b) = world.bodies.get(i) {
            draw_body(d, b, c);
            d.text(Layer::Label, b.center, b.name.as_str(), c);
        }
    }
}

/// Draws the pair's trace at `stage` (clamped to its last step); `axis` adds a SAT axis's
/// projections.
pub fn draw_pair(
    world: &World,
    a: usize,
    b: usize,
    d: &mut dyn DebugDraw,
    stage: usize,
    rule: ReferenceFaceRule,
    axis: Option<usize>,
) {
    if let Some(t) = trace_pair(world, a, b, rule) {
        t.draw(stage, d, axis_scale(world, a, b), axis);
    }
}

/// The numbers of any pair's trace: the SAT axes and clipping of a clip trace, the
/// article's AABB construction beside SAT's answer, or each step of a closest-point trace
/// (step `stage` highlighted). Returns a clicked SAT axis.
pub fn pair_numbers(ui: &mut egui::Ui, t: &PairTrace, stage: usize, axis: Option<usize>) -> Option<Option<usize>> {
    if let PairTrace::Boxes(..) = t {
        article_beside_sat(ui, t);
    }
    if let PairTrace::PolygonCapsule { trace, swapped } = t {
        let who = if *swapped { "; the polygon (body B) is traced as A" } else { "" };
        ui.label(
            RichText::new(format!("capsule as a rounded two-gon, radius {:.3}{who}", Num(trace.radii[1]))).small(),
        );
    }
    if let Some(c) = t.clip() {
        return trace_numbers(ui, c, axis);
    }
    let current = stage.min(t.steps().saturating_sub(1));
    for (k, (title, summary)) in t.summaries().into_iter().enumerate() {
        step_row(ui, &format!("{}. {title}", k + 1), &summary, k == current);
    }
    None
}

/// A step's title (highlighted when it is the one shown) over its numbers.
fn step_row(ui: &mut egui::Ui, title: &str, numbers: &str, current: bool) {
    let text = RichText::new(title);
    ui.label(if current { text.strong().color(Color32::from_rgb(255, 235, 80)) } else { text });
    ui.indent(title, |ui| ui.label(RichText::new(numbers).monospace()));
}

/// The 000 article's AABB answer beside SAT + clipping's: the overlaps, the area, the
/// normal and the depth.
fn article_beside_sat(ui: &mut egui::Ui, t: &PairTrace) {
    ui.label(RichText::new("Two axis-aligned boxes: the article's AABB construction").strong());
    for (title, summary) in t.summaries() {
        step_row(ui, title.trim_start_matches("article: "), &summary, false);
    }
    let m = t.result();
    let sat = if m.count == 0 {
        "no contact".to_string()
    } else {
        format!("normal ({:.0}, {:.0}), depth {:.4}", Num(m.normal.x), Num(m.normal.y), Num(m.max_penetration()))
    };
    step_row(ui, "SAT + clipping", &sat, false);
    ui.separator();
}
