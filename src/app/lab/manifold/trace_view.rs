//! The SAT + clipping trace of two bodies drawn stage by stage, and the numbers behind it:
//! the manifold lab's view and the world view's selected pair.

use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::collide::clip_trace::{ClipTrace, ShapeId, CLIP_STAGES};
use manifold_lab::engine::collide::polygon::{collide_polygons_traced, ReferenceFaceRule};
use manifold_lab::engine::collide::{collide_with, Manifold};
use manifold_lab::engine::debug::{palette, DebugDraw, Layer};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::World;

/// The last clipping stage (the manifold).
pub const LAST_STAGE: usize = CLIP_STAGES.len() - 1;

/// The SAT + clipping trace between bodies `a` and `b`, when both are polygons, with the
/// world's speculative margin (0 in a lab opened on a pair file without one).
pub fn trace_pair(world: &World, a: usize, b: usize, rule: ReferenceFaceRule) -> Option<ClipTrace> {
    let (ba, bb) = (world.bodies.get(a)?, world.bodies.get(b)?);
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (&ba.shape, &bb.shape) else { return None };
    let mut t = ClipTrace::default();
    collide_polygons_traced(pa, &ba.xf, pb, &bb.xf, world.params.speculative_margin, rule, Some(&mut t));
    Some(t)
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

/// Draws a manifold without a trace (pairs with a circle): points, depths and the normal.
pub fn draw_plain_manifold(m: &Manifold, d: &mut dyn DebugDraw, scale: f32) {
    for p in m.points() {
        d.point(Layer::Contact, p.point, 10.0, palette::CONTACT_WARM);
        d.arrow(Layer::Normal, p.point, p.point + scale * m.normal, palette::NORMAL);
        d.text(
            Layer::Contact,
            p.point - 0.3 * scale * m.normal,
            &format!("depth {:.3}", Num(p.penetration)),
            palette::TEXT,
        );
    }
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

/// Draws the pair's trace at `stage` (polygons) or its plain manifold (circles).
pub fn draw_pair(
    world: &World,
    a: usize,
    b: usize,
    d: &mut dyn DebugDraw,
    stage: usize,
    rule: ReferenceFaceRule,
    axis: Option<usize>,
) {
    let scale = axis_scale(world, a, b);
    match trace_pair(world, a, b, rule) {
        Some(t) => {
            t.draw(stage, d, scale);
            if let Some(k) = axis {
                t.draw_projection(k, d);
            }
        }
        None => {
            if let Some(m) = manifold_of(world, a, b, rule) {
                draw_plain_manifold(&m, d, scale);
            }
        }
    }
}
