//! Panels of the Minkowski lab: the GJK/EPA step slider and play button, the numbers of each
//! method side by side, and the rotation sweep plotted with egui_plot.

use super::sweep::SweepSample;
use super::view::{MinkowskiView, DEPTH_TOLERANCE, NORMAL_TOLERANCE};
use super::{act, MinkowskiAction};
use crate::app::lab::widgets::step_slider;
use crate::app::state::Action;
use egui_macroquad::egui::{self, Color32, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints, Points};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace;

const RED: Color32 = Color32::from_rgb(255, 100, 100);
const GREEN: Color32 = Color32::from_rgb(120, 230, 140);

/// The step slider (GJK iterations, then EPA expansions) and play.
pub fn controls(ui: &mut egui::Ui, v: &MinkowskiView, step: Option<usize>, playing: bool, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Steps").default_open(true).show(ui, |ui| {
        let last = v.steps().saturating_sub(1);
        if let Some(k) = step_slider(ui, step.unwrap_or(last), v.steps(), |k| v.step_label(k)) {
            out.push(act(MinkowskiAction::SetStep(Some(k))));
        }
        let label = if playing { "Stop" } else { "Play the steps" };
        if ui.button(label).clicked() {
            out.push(act(MinkowskiAction::Play(!playing)));
        }
    });
}

/// The numbers: GJK, EPA, the Minkowski difference's closest feature, SAT, their agreement,
/// and the rotation sweep.
pub fn details(ui: &mut egui::Ui, v: &MinkowskiView, sweep: &[SweepSample], out: &mut Vec<Action>) {
    ui.heading("GJK");
    let o = &v.gjk_out;
    ui.label(format!("{} iterations, ended: {:?}", o.iterations, o.end));
    if o.overlap {
        ui.label("overlap");
    } else {
        ui.label(format!("distance {:.4}", Num(o.distance)));
        ui.label(format!(
            "closest A ({:.3}, {:.3})  B ({:.3}, {:.3})",
            Num(o.point_a.x),
            Num(o.point_a.y),
            Num(o.point_b.x),
            Num(o.point_b.y)
        ));
    }
    if let Some((t, p)) = &v.epa {
        ui.heading("EPA");
        ui.label(format!("{} expansions, ended: {:?}", t.len(), p.end));
        ui.label(format!("depth {:.4}  normal ({:.4}, {:.4})", Num(p.depth), Num(p.normal.x), Num(p.normal.y)));
    }
    ui.heading("Minkowski difference");
    let c = &v.difference.closest;
    ui.label(format!("{} edges; signed distance {:+.4}", v.difference.edges.len(), Num(c.signed_distance)));
    if let Some(e) = c.edge.and_then(|i| v.difference.edges.get(i)) {
        ui.label(format!("closest feature: {}", e.label()));
    }
    ui.label(RichText::new("edges: red from A, green from B").small());
    ui.heading("SAT vs GJK + EPA");
    let sat_depth = if v.sat.count > 0 { format!("{:.4}", Num(v.sat.max_penetration())) } else { "apart".into() };
    ui.label(format!("SAT depth {sat_depth}  normal ({:.4}, {:.4})", Num(v.sat.normal.x), Num(v.sat.normal.y)));
    match v.disagreement() {
        Some((dd, da)) => {
            let color = if v.disagrees() { RED } else { GREEN };
            ui.label(
                RichText::new(format!("Δdepth {dd:.5} m · Δnormal {:.3}°", Num(da.to_degrees()), dd = Num(dd)))
                    .color(color),
            );
        }
        None => {
            let color = if v.disagrees() { RED } else { GREEN };
            ui.label(RichText::new("only one method reports overlap").color(color));
        }
    }
    ui.label(
        RichText::new(format!("tolerances: {DEPTH_TOLERANCE} m, {:.1}°", Num(NORMAL_TOLERANCE.to_degrees())))
            .small()
            .weak(),
    );
    ui.separator();
    if ui.button("Rotation sweep (turn B through 360°)").clicked() {
        out.push(act(MinkowskiAction::RunSweep));
    }
    if !sweep.is_empty() {
        sweep_plots(ui, sweep);
    }
}

fn sweep_plots(ui: &mut egui::Ui, s: &[SweepSample]) {
    let bad = s.iter().filter(|x| x.disagrees).count();
    let color = if bad > 0 { RED } else { GREEN };
    ui.label(RichText::new(format!("{bad} of {} angles disagree", s.len())).color(color));
    let line = |f: &dyn Fn(&SweepSample) -> f32| -> PlotPoints {
        s.iter().filter(|x| f(x).is_finite()).map(|x| [x.angle as f64, f(x) as f64]).collect()
    };
    let marks: PlotPoints = s.iter().filter(|x| x.disagrees).map(|x| [x.angle as f64, x.sat_depth as f64]).collect();
    Plot::new("sweep_depth").height(140.0).legend(Legend::default()).show(ui, |p| {
        p.line(Line::new(line(&|x| x.sat_depth)).name("SAT depth"));
        p.line(Line::new(line(&|x| x.epa_depth)).name("GJK/EPA depth"));
        p.points(Points::new(marks).radius(3.0).color(RED).name("disagree"));
    });
    Plot::new("sweep_normal").height(140.0).legend(Legend::default()).show(ui, |p| {
        p.points(Points::new(line(&|x| x.sat_normal)).radius(1.5).name("SAT normal °"));
        p.points(Points::new(line(&|x| x.epa_normal)).radius(1.0).name("EPA normal °"));
    });
}

/// The "Other engines" switch and, when on, Box2D's and parry's distance beside ours.
pub fn peers_section(
    ui: &mut egui::Ui,
    world: &manifold_lab::engine::World,
    v: &MinkowskiView,
    on: bool,
    out: &mut Vec<Action>,
) {
    if !cfg!(feature = "peers") {
        return;
    }
    ui.separator();
    let mut show = on;
    let hover = "b2ShapeDistance and parry2d's distance and closest points for this pair, drawn over ours";
    if ui.checkbox(&mut show, "Box2D v3 and parry2d").on_hover_text(hover).changed() {
        out.push(act(MinkowskiAction::ShowPeers(show)));
    }
    #[cfg(feature = "peers")]
    if on {
        super::peers::section(ui, world, v);
    }
    #[cfg(not(feature = "peers"))]
    let _ = (world, v);
}
