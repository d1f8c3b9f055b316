//! Panels of the tree lab: proxy count, moving fraction, insertion and balancing, and the
//! tree's and the query's numbers.

use super::proxies::{Proxies, TreeQuery, MAX_PROXIES};
use super::{act, TreeAction};
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::broadphase::{Balancing, InsertionStrategy};
use manifold_lab::engine::number::Num;

pub fn controls(ui: &mut egui::Ui, app: &Stage, t: &Proxies, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Proxies").default_open(true).show(ui, |ui| {
        let mut count = t.count();
        let mut settings = t.tree.settings;
        let changed = ui
            .add(egui::Slider::new(&mut count, 10..=MAX_PROXIES).logarithmic(true).text("proxies"))
            .changed()
            | egui::ComboBox::from_label("insert")
                .selected_text(settings.insertion.label())
                .show_ui(ui, |ui| {
                    InsertionStrategy::ALL
                        .iter()
                        .any(|s| ui.selectable_value(&mut settings.insertion, *s, s.label()).changed())
                })
                .inner
                .unwrap_or(false)
            | egui::ComboBox::from_label("balance")
                .selected_text(settings.balancing.label())
                .show_ui(ui, |ui| {
                    Balancing::ALL.iter().any(|b| ui.selectable_value(&mut settings.balancing, *b, b.label()).changed())
                })
                .inner
                .unwrap_or(false);
        if changed {
            out.push(act(TreeAction::Spawn { count, settings }));
        }
        let mut f = t.moving_fraction * 100.0;
        if ui.add(egui::Slider::new(&mut f, 0.0..=100.0).text("% moving")).changed() {
            out.push(act(TreeAction::Moving(f / 100.0)));
        }
        let label = crate::app::input::keys::label(if app.is_running() { "Pause" } else { "Run" }, &Action::TogglePlay);
        if ui.button(label).clicked() {
            out.push(Action::TogglePlay);
        }
    });
    egui::CollapsingHeader::new("Tree view").default_open(true).show(ui, |ui| {
        let height = t.tree.metrics().height.max(0) as u32;
        let (mut lo, mut hi) = (app.tree_depth.0.min(height), app.tree_depth.1.min(height));
        let changed = ui.add(egui::Slider::new(&mut lo, 0..=height).text("from depth")).changed()
            | ui.add(egui::Slider::new(&mut hi, 0..=height).text("to depth")).changed();
        if changed {
            let max = if hi >= height { u32::MAX } else { hi };
            out.push(Action::SetTreeView { min_depth: lo, max_depth: max, tight: app.tree_tight });
        }
        ui.label(RichText::new("Drag: query box. Shift+drag: ray. Ctrl+drag: circle. Right drag: pan.").small());
        if t.query.is_some() && ui.button("Clear query").clicked() {
            out.push(act(TreeAction::ClearQuery));
        }
    });
}

pub fn details(ui: &mut egui::Ui, t: &Proxies) {
    let m = t.tree.metrics();
    ui.heading("Tree");
    egui::Grid::new("tree_lab_stats").num_columns(2).show(ui, |ui| {
        let mut row = |k: &str, v: String| {
            ui.label(k);
            ui.label(RichText::new(v).monospace());
            ui.end_row();
        };
        row("proxies", m.proxy_count.to_string());
        row("nodes", m.node_count.to_string());
        row("height", m.height.to_string());
        row("area ratio", format!("{:.2}", Num(m.area_ratio)));
        row("reinserted", t.reinserted.to_string());
        row("update", format!("{:.3} ms", Num(t.step_ms)));
    });
    ui.heading("Query");
    match t.query {
        None => {
            ui.label("none: drag in the view");
        }
        Some(q) => {
            ui.label(match q {
                TreeQuery::Box(_) => "AABB query",
                TreeQuery::Ray { .. } => "ray cast (all crossings)",
                TreeQuery::Circle { .. } => "circle query (the article's sphere query)",
            });
            ui.label(format!("nodes visited {}", t.query_stats.nodes_visited));
            ui.label(format!("leaves hit {}", t.query_stats.leaves_hit));
            ui.label(RichText::new("white: entered · grey: culled · yellow: hit").small());
        }
    }
}
