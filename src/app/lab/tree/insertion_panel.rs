//! The tree lab's "Insertion" section: the insert-one and move-one buttons and the slider over
//! the recorded steps, with the candidates' costs listed.

use super::insertion::Insertion;
use super::{act, TreeAction};
use crate::app::lab::widgets::step_slider;
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;

pub fn controls(ui: &mut egui::Ui, ins: Option<&Insertion>, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Insertion steps").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            if ui.button("Insert one").on_hover_text("Insert a proxy at a random place, recorded").clicked() {
                out.push(act(TreeAction::InsertOne));
            }
            if ui.button("Move one").on_hover_text("Move a random proxy and reinsert it, recorded").clicked() {
                out.push(act(TreeAction::MoveOne));
            }
        });
        let Some(ins) = ins else {
            ui.label(RichText::new("Candidates are drawn violet with their cost, the cheapest gold.").small());
            return;
        };
        ui.label(RichText::new(&ins.what).strong());
        let t = &ins.trace;
        let last = Trace::steps(t).saturating_sub(1);
        let shown = ins.step.unwrap_or(last).min(last);
        if let Some(k) = step_slider(ui, shown, Trace::steps(t), |k| t.step_label(k)) {
            out.push(act(TreeAction::SetInsertStep(Some(k))));
        }
        if let Some((node, cost)) = t.chosen() {
            ui.label(RichText::new(format!("chosen sibling {node}, cost {cost:.2}", cost = Num(cost))).monospace());
        }
        ui.label(format!("{} candidates visited", t.candidates().count()));
    });
}
