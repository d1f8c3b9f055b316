//! The contact inspector's egui: a tooltip beside the hovered contact point, a window for the
//! pinned one with the button that opens its pair in the Manifold lab, and a ring on both in
//! the view.

use super::{contact_info, ContactInfo, ContactInspector, ContactRef, InspectorAction};
use crate::app::render::batch::Batch;
use crate::app::render::draw::mq_color;
use crate::app::state::Action;
use crate::app::tools::ToolView;
use egui_macroquad::egui::{self, RichText};
use glam::Vec2;
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::number::Num;

/// The tooltip of the hovered contact point and the pinned contact's window.
pub fn show(ctx: &egui::Context, insp: &ContactInspector, v: &ToolView, out: &mut Vec<Action>) {
    if v.in_lab {
        return;
    }
    let hover = insp.hover.filter(|h| Some(*h) != insp.pinned);
    if let Some((r, info)) = hover.and_then(|r| Some((r, contact_info(v.world, r)?))) {
        let ppp = ctx.pixels_per_point();
        let sp = v.camera.world_to_screen(&v.viewport, info.point) / ppp;
        egui::Area::new(egui::Id::new("contact_tooltip"))
            .order(egui::Order::Tooltip)
            .fixed_pos(egui::pos2(sp.x + 14.0, sp.y + 14.0))
            .interactable(false)
            .fade_in(false)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    info_grid(ui, r, &info);
                    ui.label(RichText::new("Click to pin; open it in the Manifold lab from there.").small().weak());
                });
            });
    }
    let Some(r) = insp.pinned else { return };
    let mut open = true;
    // First shown beside the point, on the side of the view with more room, so it hides
    // neither the point nor the contacts next to it; one window per pinned point, so a new
    // pin opens where it belongs.
    let ppp = ctx.pixels_per_point();
    let (at, pivot) = contact_info(v.world, r).map_or((Vec2::new(320.0, 80.0), egui::Align2::LEFT_TOP), |i| {
        let sp = v.camera.world_to_screen(&v.viewport, i.point);
        let mid = v.viewport.min.x + 0.5 * v.viewport.size.x;
        if sp.x < mid {
            (sp / ppp + Vec2::new(48.0, 0.0), egui::Align2::LEFT_CENTER)
        } else {
            (sp / ppp - Vec2::new(48.0, 0.0), egui::Align2::RIGHT_CENTER)
        }
    });
    egui::Window::new("Contact")
        .id(egui::Id::new(("contact_window", r.a, r.b, r.point)))
        .open(&mut open)
        .resizable(false)
        .pivot(pivot)
        .default_pos(egui::pos2(at.x, at.y))
        .show(ctx, |ui| match contact_info(v.world, r) {
            Some(info) => {
                info_grid(ui, r, &info);
                if ui
                    .button("Open in Manifold lab")
                    .on_hover_text(
                        "The two shapes in the poses that made this manifold; Save keeps them as a pair file",
                    )
                    .clicked()
                {
                    out.push(Action::OpenContactInLab { a: r.a, b: r.b, shape_pair: r.shape_pair });
                }
            }
            None => {
                ui.label(RichText::new("This contact point is gone (the bodies parted).").weak());
            }
        });
    if !open {
        out.push(InspectorAction::Pin(None).into());
    }
}

/// The numbers of one contact point.
fn info_grid(ui: &mut egui::Ui, r: ContactRef, info: &ContactInfo) {
    ui.label(RichText::new(format!("{} – {}", info.names.0, info.names.1)).strong());
    if let Some(shapes) = &info.shapes {
        ui.label(shapes);
    }
    egui::Grid::new(("contact_info", r.a, r.b, r.point)).num_columns(2).show(ui, |ui| {
        let mut row = |name: &str, v: String| {
            ui.label(name);
            ui.label(RichText::new(v).monospace());
            ui.end_row();
        };
        row("point", format!("{} at ({:.3}, {:.3})", r.point, Num(info.point.x), Num(info.point.y)));
        for (name, value) in feature_rows(info) {
            row(name, value);
        }
        row("separation", format!("{:+.5} m", Num(info.separation)));
        row("normal, A to B", format!("({:.4}, {:.4})", Num(info.normal.x), Num(info.normal.y)));
        row("normal impulse", format!("{:.5} N·s", Num(info.normal_impulse)));
        row("tangent impulse", format!("{:+.5} N·s", Num(info.tangent_impulse)));
        row("age", format!("{} steps{}", info.age, if info.awake { "" } else { " (asleep)" }));
        row(
            "manifold",
            match info.recycled_from {
                Some(n) => format!("recycled from step {n} poses"),
                None => "computed at the last step".into(),
            },
        );
    });
}

/// The feature id's rows: packed, with its kind; the reference face (the same for every
/// point of the manifold); the point's own features.
pub fn feature_rows(info: &ContactInfo) -> [(&'static str, String); 3] {
    [
        ("feature id", format!("{:08x} ({} contact)", info.feature_id, info.features.kind)),
        ("reference face", info.features.reference_text()),
        ("features", info.features.point_text()),
    ]
}

/// Rings on the hovered and the pinned contact points.
pub fn draw_marker(insp: &ContactInspector, v: &ToolView, batch: &mut Batch) {
    if v.in_lab {
        return;
    }
    let px = v.px();
    for (r, color) in [(insp.hover, palette::SELECTED), (insp.pinned, palette::JOINT)] {
        if let Some(info) = r.and_then(|r| contact_info(v.world, r)) {
            ring(batch, info.point, px, mq_color(color));
        }
    }
}

fn ring(batch: &mut Batch, p: Vec2, px: f32, c: macroquad::prelude::Color) {
    batch.ring(p, 8.0 * px, 2.0, c);
}
