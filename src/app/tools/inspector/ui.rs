//! The contact inspector's egui: a tooltip beside the hovered contact point, a window for the
//! pinned one with the button that opens its pair in the Manifold lab, and a ring on both in
//! the view. The window and its rows (`pinned_window`, `rows_grid`) are the 3D lab's too.

use super::{contact_info, ContactInfo, ContactInspector, ContactRef, InspectorAction};
use crate::app::camera::ScreenRect;
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
    let at = contact_info(v.world, r).map(|i| v.camera.world_to_screen(&v.viewport, i.point));
    let id = egui::Id::new(("contact_window", r.a, r.b, r.point));
    let open = pinned_window(ctx, id, at, &v.viewport, |ui| match contact_info(v.world, r) {
        Some(info) => {
            info_grid(ui, r, &info);
            if ui
                .button("Open in Manifold lab")
                .on_hover_text("The two shapes in the poses that made this manifold; Save keeps them as a pair file")
                .clicked()
            {
                out.push(Action::OpenContactInLab { a: r.a, b: r.b, shape_pair: r.shape_pair });
            }
            unpin_button(ui, out);
        }
        None => {
            ui.label(RichText::new("This contact point is gone (the bodies parted).").weak());
        }
    });
    if !open {
        out.push(InspectorAction::Pin(None).into());
    }
}

/// The window of a pinned contact (2D or 3D), titled "Contact", with its contents from `add`;
/// false once its close button was pressed. First shown beside the point (`at`, screen
/// pixels), on the side of the view with more room, so it hides neither the point nor the
/// contacts next to it; one window per `id`, so a new pin opens where it belongs.
pub fn pinned_window(
    ctx: &egui::Context,
    id: egui::Id,
    at: Option<Vec2>,
    viewport: &ScreenRect,
    add: impl FnOnce(&mut egui::Ui),
) -> bool {
    let mut open = true;
    let ppp = ctx.pixels_per_point();
    let (at, pivot) = at.map_or((Vec2::new(320.0, 80.0), egui::Align2::LEFT_TOP), |sp| {
        let mid = viewport.min.x + 0.5 * viewport.size.x;
        if sp.x < mid {
            (sp / ppp + Vec2::new(48.0, 0.0), egui::Align2::LEFT_CENTER)
        } else {
            (sp / ppp - Vec2::new(48.0, 0.0), egui::Align2::RIGHT_CENTER)
        }
    });
    egui::Window::new("Contact")
        .id(id)
        .open(&mut open)
        .resizable(false)
        .pivot(pivot)
        .default_pos(egui::pos2(at.x, at.y))
        .show(ctx, add);
    open
}

/// The pinned card's Unpin button, with its key (Esc).
pub fn unpin_button(ui: &mut egui::Ui, out: &mut Vec<Action>) {
    crate::app::input::keys::button(ui, "Unpin", &[("unpin the contact", &Action::Unpin)], true, out);
}

/// Name and value rows in two columns, values in a monospace font (a contact's numbers).
pub fn rows_grid(ui: &mut egui::Ui, id: impl std::hash::Hash, rows: impl IntoIterator<Item = (&'static str, String)>) {
    egui::Grid::new(id).num_columns(2).show(ui, |ui| {
        for (name, v) in rows {
            ui.label(name);
            ui.label(RichText::new(v).monospace());
            ui.end_row();
        }
    });
}

/// The numbers of one contact point.
fn info_grid(ui: &mut egui::Ui, r: ContactRef, info: &ContactInfo) {
    ui.label(RichText::new(format!("{} – {}", info.names.0, info.names.1)).strong());
    if let Some(shapes) = &info.shapes {
        ui.label(shapes);
    }
    let mut rows = vec![("point", format!("{} at ({:.3}, {:.3})", r.point, Num(info.point.x), Num(info.point.y)))];
    rows.extend(feature_rows(info));
    rows.extend([
        ("separation", format!("{:+.5} m", Num(info.separation))),
        ("normal, A to B", format!("({:.4}, {:.4})", Num(info.normal.x), Num(info.normal.y))),
        ("normal impulse", format!("{:.5} N·s", Num(info.normal_impulse))),
        ("tangent impulse", format!("{:+.5} N·s", Num(info.tangent_impulse))),
        ("age", format!("{} steps{}", info.age, if info.awake { "" } else { " (asleep)" })),
        (
            "manifold",
            match info.recycled_from {
                Some(n) => format!("recycled from step {n} poses"),
                None => "computed at the last step".into(),
            },
        ),
    ]);
    rows_grid(ui, ("contact_info", r.a, r.b, r.point), rows);
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
