//! Panels of the 3D hull lab: presets, shapes, saving, the SAT variant and the layers on the
//! left; the result, the three best axes, the contact points and every tested axis (sortable,
//! click to draw, or walk them with the step slider) on the right.

use super::{act, AxisSort, Hull3dAction, Hull3dLab, SatMode, HULL_DIR};
use crate::app::lab::widgets::{presets, step_slider, PresetChoice};
use crate::app::panels::UiState;
use crate::app::state::Action;
use egui_macroquad::egui::{self, Color32, RichText};
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::debug::Color;
use manifold_lab::engine::debug3::Layer3;
use manifold_lab::engine::hull3d::sat_draw::{hull_color, EDGE_PAIR};
use manifold_lab::engine::hull3d::trace::AxisSkip;
use manifold_lab::engine::hull3d::{AxisKind, SAT_LAYERS};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::trace::Trace3;
use manifold_lab::scene::HullShapeDesc;

fn c32(c: Color) -> Color32 {
    Color32::from_rgb((c.r * 255.0) as u8, (c.g * 255.0) as u8, (c.b * 255.0) as u8)
}

/// Shapes offered for A and B.
pub fn shape_presets() -> Vec<(&'static str, HullShapeDesc)> {
    vec![
        ("Cube", HullShapeDesc::Cube { half: 0.5 }),
        ("Box 1.6 × 0.6 × 1", HullShapeDesc::Cuboid { half_extents: glam::Vec3::new(0.8, 0.3, 0.5) }),
        ("Tetrahedron", HullShapeDesc::Tetrahedron { radius: 0.8 }),
        ("Octahedron", HullShapeDesc::Octahedron { radius: 0.8 }),
        ("Icosahedron", HullShapeDesc::Icosahedron { radius: 0.8 }),
        ("Prism, 8 sides", HullShapeDesc::Prism { sides: 8, radius: 0.6, height: 1.2 }),
        ("Cylinder, 24 sides", HullShapeDesc::Prism { sides: 24, radius: 0.6, height: 1.2 }),
        ("Random cloud, 20", HullShapeDesc::Random { count: 20, radius: 0.8, seed: 3 }),
        ("Random cloud, 80", HullShapeDesc::Random { count: 80, radius: 0.8, seed: 11 }),
    ]
}

pub fn controls(ui: &mut egui::Ui, lab: &Hull3dLab, st: &mut UiState, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Presets").default_open(true).show(ui, |ui| {
        match presets(ui, st, HULL_DIR, Some(&lab.path)) {
            Some(PresetChoice::Load(p)) => out.push(act(Hull3dAction::Load(p))),
            Some(PresetChoice::Save(p)) => out.push(act(Hull3dAction::Save(p))),
            None => {}
        }
    });
    egui::CollapsingHeader::new("Shapes").default_open(true).show(ui, |ui| {
        for (hull, name) in [(0usize, "A"), (1, "B")] {
            ui.horizontal(|ui| {
                ui.label(RichText::new(name).color(c32(hull_color(hull))).strong());
                let kind = if hull == 0 { lab.spec.a.shape.desc().kind() } else { lab.spec.b.shape.desc().kind() };
                egui::ComboBox::from_id_salt(("hull_shape", hull)).selected_text(kind).show_ui(ui, |ui| {
                    for (label, desc) in shape_presets() {
                        if ui.selectable_label(false, label).clicked() {
                            out.push(act(Hull3dAction::SetShape { hull, shape: desc }));
                        }
                    }
                });
            });
        }
    });
    egui::CollapsingHeader::new("View").default_open(true).show(ui, |ui| {
        egui::ComboBox::from_label("SAT").selected_text(lab.mode.label()).show_ui(ui, |ui| {
            for m in SatMode::ALL {
                if ui.selectable_label(lab.mode == m, m.label()).clicked() {
                    out.push(act(Hull3dAction::SetSat(m)));
                }
            }
        });
        let mut gauss = lab.show_gauss;
        if ui.checkbox(&mut gauss, "Gauss maps inset").changed() {
            out.push(act(Hull3dAction::ShowGaussMaps(gauss)));
        }
        egui::CollapsingHeader::new("Layers").default_open(false).show(ui, |ui| {
            egui::Grid::new("hull3d_layers").num_columns(2).show(ui, |ui| {
                for (k, layer) in SAT_LAYERS.into_iter().enumerate() {
                    let mut on = lab.layers.contains(layer);
                    let label = match layer {
                        Layer3::SatAxis => "Deciding axis",
                        Layer3::Normal => "Contact normal",
                        _ => layer.label(),
                    };
                    if ui.checkbox(&mut on, label).changed() {
                        out.push(act(Hull3dAction::SetLayer(layer, on)));
                    }
                    if k % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
        });
        ui.horizontal(|ui| {
            if ui.button(crate::app::input::keys::label("Frame all", &Action::FrameAll)).clicked() {
                out.push(Action::FrameAll);
            }
            if ui
                .button(crate::app::input::keys::label("Restart", &Action::Restart))
                .on_hover_text("Back to the poses as loaded")
                .clicked()
            {
                out.push(Action::Restart);
            }
        });
        ui.label(
            RichText::new(
                "Drag a hull to move it in the view plane; Ctrl/Alt+drag turns it. Drag empty space to \
                 orbit, right/middle drag to pan, wheel to zoom at the cursor.",
            )
            .small(),
        );
    });
}

fn axis_row_color(kind: &AxisKind) -> Color32 {
    match kind {
        AxisKind::FaceA { .. } => c32(palette::SHAPE_A),
        AxisKind::FaceB { .. } => c32(palette::SHAPE_B),
        AxisKind::Edges { .. } => c32(EDGE_PAIR),
    }
}

/// What the world's narrowphase finds on the pair (`Hull3dLab::narrow`): the axis it decided
/// on, its separation and the manifold's points, as the 3D lab's contact card shows them.
pub fn narrow_rows(lab: &Hull3dLab) -> Vec<(&'static str, String)> {
    use manifold_lab::engine::world3d::narrow::HullPair;
    let margin = lab.spec.world.map_or(0.0, |n| n.margin);
    let mut rows = vec![("margin", format!("{:.4} m", Num(margin)))];
    match &lab.narrow {
        Some(HullPair::Touching(sat, m)) => rows.extend([
            ("axis", sat.kind.name()),
            ("separation", format!("{:.4} m", Num(sat.separation))),
            ("points", m.points.len().to_string()),
        ]),
        Some(HullPair::Separated(axis)) => rows.push(("separated by", axis.name())),
        Some(HullPair::NoPoints) => rows.push(("touching", "within the margin, no point kept".into())),
        None => {}
    }
    rows
}

fn summary(ui: &mut egui::Ui, lab: &Hull3dLab) {
    let v = &lab.view;
    match &v.result {
        Ok(c) => {
            let winner = v.trace.winner.map(|k| v.trace.axes[k].kind.name()).unwrap_or_default();
            ui.label(RichText::new(format!("Overlap: winner {winner}")).color(c32(palette::WINNER)).strong());
            egui::Grid::new("hull3d_result").num_columns(2).show(ui, |ui| {
                ui.label("depth");
                ui.label(format!("{:.4}", Num(-c.separation)));
                ui.end_row();
                ui.label("normal, A to B");
                ui.label(format!("({:.3}, {:.3}, {:.3})", Num(c.normal.x), Num(c.normal.y), Num(c.normal.z)));
                ui.end_row();
                ui.label("MTV (move B)");
                ui.label(format!("({:.3}, {:.3}, {:.3})", Num(c.mtv.x), Num(c.mtv.y), Num(c.mtv.z)));
                ui.end_row();
            });
        }
        Err(s) => {
            ui.label(RichText::new(format!("Separated by {}", s.kind.name())).color(c32(palette::SEPARATING)));
            ui.label(format!("gap {:.4} (the SAT stops at the first separating axis)", Num(s.separation)));
        }
    }
    if let Some(n) = lab.spec.world {
        ui.separator();
        ui.label(RichText::new(format!("The 3D world's narrowphase ({} SAT)", n.sat.label())).strong());
        crate::app::tools::inspector::ui::rows_grid(ui, "hull3d_narrow", narrow_rows(lab));
    }
    ui.separator();
    ui.label(RichText::new("Best axis of each family").strong());
    egui::Grid::new("hull3d_best").num_columns(2).show(ui, |ui| {
        for (k, name) in ["face of A", "face of B", "edge pair"].iter().enumerate() {
            let text = match v.best[k] {
                Some(i) => {
                    let r = &v.trace.axes[i];
                    let text = RichText::new(format!("{}: {:+.4}", r.kind.name(), Num(r.separation)));
                    if v.decisive() == Some(i) {
                        text.color(c32(palette::WINNER)).strong()
                    } else {
                        text
                    }
                }
                None => RichText::new("—"),
            };
            let col = [c32(palette::SHAPE_A), c32(palette::SHAPE_B), c32(EDGE_PAIR)][k];
            ui.label(RichText::new(*name).color(col));
            ui.label(text);
            ui.end_row();
        }
    });
    if let Some(m) = &v.manifold {
        ui.separator();
        let kind = if m.reference.is_some() { "face contact, clipped" } else { "edge contact" };
        ui.label(RichText::new(format!("Contact points: {} ({kind})", m.points.len())).strong());
        for p in &m.points {
            let q = p.position;
            ui.label(
                RichText::new(format!(
                    "({:.3}, {:.3}, {:.3})  sep {:+.4}",
                    Num(q.x),
                    Num(q.y),
                    Num(q.z),
                    Num(p.separation)
                ))
                .small(),
            );
        }
    }
    ui.label(
        RichText::new(format!("{} of the edge pairs form Minkowski faces (Gauss-map crossings)", v.crossings.len()))
            .small(),
    );
}

pub fn details(ui: &mut egui::Ui, lab: &Hull3dLab, out: &mut Vec<Action>) {
    ui.heading("3D hull SAT, A to B");
    summary(ui, lab);
    super::clip::section(ui, lab, out);
    ui.separator();
    let trace = &lab.view.trace;
    // The checkbox goes under the count when both do not fit on one row.
    ui.horizontal_wrapped(|ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        ui.label(RichText::new(format!("Axes tested: {}", trace.axes.len())).strong());
        let mut by_sep = lab.sort == AxisSort::Separation;
        if ui.checkbox(&mut by_sep, "sort by separation").changed() {
            let sort = if by_sep { AxisSort::Separation } else { AxisSort::TestOrder };
            out.push(act(Hull3dAction::SortAxes(sort)));
        }
    });
    // The common step slider walks the axes in test order; step k selects axis k.
    let view = &lab.view;
    if let Some(k) = step_slider(ui, lab.axis.unwrap_or(0), view.steps(), |k| view.step_label(k)) {
        out.push(act(Hull3dAction::SelectAxis(Some(k))));
    }
    let order = lab.sort.order(&trace.axes);
    let row_h = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical().id_salt("hull3d_axes").max_height(320.0).auto_shrink([false, true]).show_rows(
        ui,
        row_h,
        order.len(),
        |ui, range| {
            egui::Grid::new("hull3d_axes_grid").num_columns(3).min_col_width(30.0).show(ui, |ui| {
                for &i in &order[range] {
                    let r = &trace.axes[i];
                    let selected = lab.axis == Some(i);
                    if ui.selectable_label(selected, format!("{i}")).clicked() {
                        out.push(act(Hull3dAction::SelectAxis(if selected { None } else { Some(i) })));
                    }
                    let mut name = RichText::new(r.kind.name()).color(axis_row_color(&r.kind));
                    if trace.winner == Some(i) || r.separating {
                        name = name.strong().background_color(Color32::from_rgb(70, 64, 20));
                    }
                    ui.label(name);
                    let sep = match r.skipped {
                        Some(AxisSkip::Behind) => "skipped: behind".to_string(),
                        Some(AxisSkip::Parallel) => "skipped: parallel".to_string(),
                        Some(AxisSkip::NotMinkowskiFace) => "pruned".to_string(),
                        None => format!("{:+.4}", Num(r.separation)),
                    };
                    ui.label(RichText::new(sep).monospace());
                    ui.end_row();
                }
            });
        },
    );
    ui.label(RichText::new("Click a row to draw the axis and both projection intervals.").small());
}
