//! The Compare section of the right panel: a switch and an outline switch per peer, the
//! tolerance, each engine's step time, contacts and divergence with its first step past the
//! tolerance (click: the timeline goes there), the divergence plot, the selected body in
//! every engine, and what each translation skipped.

use super::{CompareAction, CompareTool, PeerEngine, PeerRun, PEERS};
use crate::app::panels::note_in_ctx;
use crate::app::state::Action;
use crate::app::timeline::TimelineAction;
use crate::app::tools::ToolView;
use egui_macroquad::egui::{self, RichText};
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints};
use manifold_lab::peers::Engine;

use super::peer_color32 as color32;

fn script_name(e: Engine) -> PeerEngine {
    if e == Engine::Box2d {
        PeerEngine::Box2d
    } else {
        PeerEngine::Rapier
    }
}

pub fn compare(ui: &mut egui::Ui, tool: &CompareTool, v: &ToolView, out: &mut Vec<Action>) {
    // Closed until a peer runs, so the selection stays in sight; open while one does.
    let header = egui::CollapsingHeader::new("Compare engines").default_open(false);
    let shown = header.open(if tool.runs.is_empty() { None } else { Some(true) }).show(ui, |ui| {
        for e in PEERS {
            let run = tool.running(e);
            ui.horizontal(|ui| {
                let mut on = run.is_some();
                let label = RichText::new(e.label()).color(color32(e));
                let check = ui.checkbox(&mut on, label);
                note_in_ctx(ui, if e == Engine::Box2d { "compare_box2d" } else { "compare_rapier" }, check.rect);
                if check.on_hover_text("Step this engine beside ours, from the world as it is").changed() {
                    out.push(CompareAction::SetPeer(script_name(e), on).into());
                }
                if let Some(r) = run {
                    let mut shown = r.shown;
                    if ui.checkbox(&mut shown, "outlines").changed() {
                        out.push(CompareAction::ShowPeer(script_name(e), shown).into());
                    }
                }
            });
        }
        if tool.runs.is_empty() {
            if manifold_lab::peers::mirror(Engine::Box2d, v.world).is_none() {
                ui.label(RichText::new("Built without the peers feature.").small());
            }
            return;
        }
        numbers(ui, tool, out);
        plot(ui, tool);
        selected(ui, tool, v);
        for r in &tool.runs {
            for line in r.world.skipped().lines() {
                ui.label(RichText::new(format!("not in {}: {line}", r.engine.label())).small().weak());
            }
        }
        if ui
            .button("Resync")
            .on_hover_text("Start the peers again from the world as it is (after a drag or a slice)")
            .clicked()
        {
            out.push(CompareAction::Resync.into());
        }
    });
    note_in_ctx(ui, "compare_header", shown.header_response.rect);
}

/// Per engine: ms per step, contacts, divergence now and the first step past the tolerance.
fn numbers(ui: &mut egui::Ui, tool: &CompareTool, out: &mut Vec<Action>) {
    let tolerance = tool.tolerance();
    egui::Grid::new("compare_numbers").num_columns(4).spacing([4.0, 2.0]).show(ui, |ui| {
        ui.label("");
        ui.label("ms · cont.").on_hover_text("the last step's time, and the touching contacts after it");
        ui.label("Δ m");
        ui.label("parts");
        ui.end_row();
        ui.label("ours");
        ui.label(format!("{:.2} · {}", tool.ours_ms, tool.ours_contacts));
        ui.end_row();
        for r in &tool.runs {
            row(ui, r, tolerance, out);
        }
    });
    ui.label(
        RichText::new(format!(
            "cont.: touching contacts; Δ: largest distance of a dynamic body from ours; parts: first step \
             past {tolerance} m"
        ))
        .small(),
    );
}

fn row(ui: &mut egui::Ui, r: &PeerRun, tolerance: f32, out: &mut Vec<Action>) {
    ui.label(RichText::new(r.engine.label()).color(color32(r.engine)));
    ui.label(format!("{:.2} · {}", r.step_ms, r.world.contact_count()));
    ui.label(r.samples.last().map_or("-".into(), |s| format!("{:.3}", s.max)));
    match r.first_divergence(tolerance) {
        Some(step) => {
            if ui.link(step.to_string()).on_hover_text("The first step past the tolerance: show it").clicked() {
                out.push(Action::Timeline(TimelineAction::Seek(step)));
            }
        }
        None => {
            ui.label("never");
        }
    }
    ui.end_row();
}

/// The largest difference per step, one line per peer, with the tolerance.
fn plot(ui: &mut egui::Ui, tool: &CompareTool) {
    Plot::new("compare_divergence").height(110.0).legend(Legend::default()).include_y(0.0).x_axis_label("step").show(
        ui,
        |p| {
            for r in &tool.runs {
                let pts: Vec<[f64; 2]> = r.samples.iter().map(|s| [s.step as f64, s.max as f64]).collect();
                p.line(Line::new(PlotPoints::from(pts)).color(color32(r.engine)).name(r.engine.label()));
            }
            p.hline(HLine::new(tool.tolerance() as f64).name("tolerance"));
        },
    );
}

/// The selected body's position and angle in every engine.
fn selected(ui: &mut egui::Ui, tool: &CompareTool, v: &ToolView) {
    let Some(&i) = v.selection.first() else { return };
    let Some(b) = v.world.bodies.get(i) else { return };
    ui.label(
        RichText::new(format!("{} in each engine", if b.name.is_empty() { "selected body" } else { &b.name })).strong(),
    );
    let line = |name: &str, p: glam::Vec2, a: f32| format!("{name}: ({:.3}, {:.3}) {:.3} rad", p.x, p.y, a);
    ui.label(RichText::new(line("ours", b.xf.p, b.angle)).small());
    for r in &tool.runs {
        if let Some(p) = r.world.poses().get(i) {
            ui.label(RichText::new(line(r.engine.label(), p.position, p.angle)).small().color(color32(r.engine)));
        }
    }
}
