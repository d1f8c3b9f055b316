//! The scene panels of the tools (003 article: "Dynamically Slicing Shapes"; "Dynamic AABB
//! Tree" → "Queries"; "Buoyancy, Rigid Bodies and Water Surface"): the Tools section (the
//! slice and ray tools' toggles and what they did), the water's parameters edited live, and
//! what the water does to a selected body.

use super::ray::{RayAction, RayTool};
use super::slice::{SliceAction, SliceTool};
use super::water::{WaterAction, WaterView, BUOYANCY_SCALE_RANGE};
use super::{Place, ToolType, ToolView, Tools};
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::number::Num;
use manifold_lab::engine::water::{Surface, WaterParams, Wave};
use manifold_lab::engine::World;

/// The Tools section: every tool's part of it, in the table's order.
pub fn tools(ui: &mut egui::Ui, tools: &Tools, v: &ToolView, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Tools").default_open(true).show(ui, |ui| {
        for t in tools.iter() {
            t.panel(Place::Tools, ui, v, out);
        }
    });
}

/// The slice tool's toggle and what the last slice did.
pub fn slice(ui: &mut egui::Ui, tool: &SliceTool, out: &mut Vec<Action>) {
    let label = if tool.on { "✂ Slice: on" } else { "✂ Slice" };
    let toggle: Action = SliceAction::Toggle.into();
    let tip = crate::app::input::keys::tip(SliceTool::ENTRY.description, &toggle);
    if ui.selectable_label(tool.on, label).on_hover_text(tip).clicked() {
        out.push(toggle);
    }
    if tool.on {
        ui.label(
            RichText::new("Drag a line across bodies: each dynamic polygon it fully crosses splits in two. B undoes.")
                .small(),
        );
    }
    let Some(r) = &tool.last else { return };
    ui.label(RichText::new(r.summary()).small().weak());
    for s in &r.sliced {
        for p in &s.pieces {
            let simplified = if p.simplified_area > 0.0 {
                format!(", simplified −{:.4} m²", Num(p.simplified_area))
            } else {
                "".into()
            };
            let text = format!("{} #{}: {:.3} m², {:.3} kg{simplified}", p.name, p.index, Num(p.area), Num(p.mass));
            ui.label(RichText::new(text).small().monospace());
        }
    }
}

/// The ray tool's toggle and what its ray hits.
pub fn ray(ui: &mut egui::Ui, tool: &RayTool, v: &ToolView, out: &mut Vec<Action>) {
    let label = if tool.on { "🔍 Ray: on" } else { "🔍 Ray" };
    let toggle: Action = RayAction::Toggle.into();
    let tip = crate::app::input::keys::tip(RayTool::ENTRY.description, &toggle);
    if ui.selectable_label(tool.on, label).on_hover_text(tip).clicked() {
        out.push(toggle);
    }
    if tool.on && tool.ray.is_none() {
        ui.label(RichText::new("Drag a ray: its hits, normals, fractions and the tree nodes it visits.").small());
    }
    let Some(t) = tool.trace(v) else { return };
    let nodes = format!("{} tree nodes tested, {} leaves reached", t.stats.nodes_visited, t.stats.leaves_hit);
    ui.label(RichText::new(nodes).small().weak());
    match t.closest {
        Some(h) => {
            let name = crate::app::tools::inspector::body_label(v.world, h.body);
            ui.label(RichText::new(format!("closest: {name} at t = {:.4}", Num(h.fraction))).small());
        }
        None => {
            ui.label(RichText::new("the ray hits nothing").small());
        }
    }
    for h in t.hits.iter().take(8) {
        let text = format!(
            "#{} t {:.4} at ({:.3}, {:.3}) n ({:.3}, {:.3})",
            h.body,
            Num(h.fraction),
            Num(h.point.x),
            Num(h.point.y),
            Num(h.normal.x),
            Num(h.normal.y)
        );
        ui.label(RichText::new(text).small().monospace());
    }
    if ui.small_button("Clear ray").clicked() {
        out.push(RayAction::Clear.into());
    }
}

/// The Water section: the water's parameters, applied live (`Action::SetWater`), or a button
/// that adds still water to a scene without any.
pub fn water(ui: &mut egui::Ui, tool: &WaterView, world: &World, out: &mut Vec<Action>) {
    let current = world.water().map(|w| w.params.clone());
    egui::CollapsingHeader::new("Water").default_open(current.is_some()).show(ui, |ui| {
        let Some(current) = current else {
            ui.label(RichText::new("This scene has no water.").small());
            if ui.button("Add still water").clicked() {
                let (x0, x1) = world.bounds().map_or((-10.0, 10.0), |b| (b.min.x, b.max.x));
                let level = world.bounds().map_or(0.0, |b| 0.5 * (b.min.y + b.max.y));
                out.push(Action::SetWater(Some(WaterParams::flat(level, (x0.min(x1 - 1.0), x1)))));
            }
            return;
        };
        let mut p = current.clone();
        egui::Grid::new("water").num_columns(2).show(ui, |ui| {
            let row = number_row;
            row(ui, "level", &mut p.level, 0.02, (-1e4, 1e4));
            row(ui, "density", &mut p.density, 0.02, (0.01, 100.0));
            row(ui, "linear drag", &mut p.linear_drag, 0.05, (0.0, 100.0));
            row(ui, "angular drag", &mut p.angular_drag, 0.05, (0.0, 100.0));
            ui.label("region");
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(&mut p.region.0).speed(0.05).max_decimals(2));
                ui.add(egui::DragValue::new(&mut p.region.1).speed(0.05).max_decimals(2));
            });
            ui.end_row();
            bottom(ui, world, &mut p);
        });
        surface(ui, &mut p.surface);
        if p != current {
            out.push(Action::SetWater(Some(p)));
        }
        let mut scale = tool.arrow_scale;
        let slider = egui::Slider::new(&mut scale, BUOYANCY_SCALE_RANGE.0..=BUOYANCY_SCALE_RANGE.1)
            .logarithmic(true)
            .text("arrow m/N");
        if ui.add(slider).on_hover_text("Length of the buoyancy and drag arrows per newton").changed() {
            out.push(WaterAction::SetArrowScale(scale).into());
        }
        let n = world.water().map_or(0, |w| w.reports.len());
        ui.label(
            RichText::new(format!("{n} bodies in the water · {:.3} ms/step", Num(world.profile.water_ms))).small(),
        );
        if ui.button("Remove water").clicked() {
            out.push(Action::SetWater(None));
        }
    });
}

/// A grid row: a number's name and a drag value for it within `range` (the water sections of
/// the 2D scene and the 3D dynamics lab).
pub fn number_row(ui: &mut egui::Ui, name: &str, v: &mut f32, speed: f64, range: (f32, f32)) -> egui::Response {
    ui.label(name);
    let r = ui.add(egui::DragValue::new(v).speed(speed).range(range.0..=range.1).max_decimals(3));
    ui.end_row();
    r
}

/// The water's bottom: the basin's floor (found from the static bodies) or a height given.
fn bottom(ui: &mut egui::Ui, world: &World, p: &mut WaterParams) {
    ui.label("bottom");
    ui.horizontal(|ui| {
        let found = world.water_bottom();
        let mut floor = p.bottom.is_none();
        let hint = "On: the top of the static floor under the water (none where the basin is open); off: a height";
        if ui.checkbox(&mut floor, "basin floor").on_hover_text(hint).changed() {
            p.bottom = if floor { None } else { Some(found.unwrap_or(p.level - 5.0)) };
        }
        let top = p.level - 0.01;
        match &mut p.bottom {
            Some(b) => {
                ui.add(egui::DragValue::new(b).speed(0.02).range(-1e4..=top).max_decimals(2));
            }
            None => {
                ui.label(found.map_or("none (open)".to_string(), |b| format!("{:.2}", Num(b))));
            }
        }
    });
    ui.end_row();
}

/// The surface's kind and its numbers.
fn surface(ui: &mut egui::Ui, s: &mut Surface) {
    let name = match s {
        Surface::Flat => "Flat",
        Surface::Waves(_) => "Waves",
        Surface::Simulated { .. } => "Simulated",
    };
    egui::ComboBox::from_label("surface").selected_text(name).show_ui(ui, |ui| {
        if ui.selectable_label(matches!(s, Surface::Flat), "Flat").clicked() {
            *s = Surface::Flat;
        }
        if ui.selectable_label(matches!(s, Surface::Waves(_)), "Waves").clicked() && !matches!(s, Surface::Waves(_)) {
            *s = Surface::Waves(vec![Wave { amplitude: 0.3, wavelength: 6.0, speed: 2.0 }]);
        }
        let simulated = matches!(s, Surface::Simulated { .. });
        if ui.selectable_label(simulated, "Simulated").clicked() && !simulated {
            *s = Surface::Simulated { columns: 121, stiffness: 2.0, spread: 400.0, damping: 0.3 };
        }
    });
    match s {
        Surface::Flat => {}
        Surface::Waves(waves) => {
            for (i, w) in waves.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("wave {i}"));
                    ui.add(egui::DragValue::new(&mut w.amplitude).speed(0.01).range(0.0..=10.0).prefix("a "));
                    ui.add(egui::DragValue::new(&mut w.wavelength).speed(0.05).range(0.1..=100.0).prefix("λ "));
                    ui.add(egui::DragValue::new(&mut w.speed).speed(0.05).range(-50.0..=50.0).prefix("v "));
                });
            }
        }
        Surface::Simulated { columns, stiffness, spread, damping } => {
            ui.add(egui::Slider::new(columns, 2..=1024).logarithmic(true).text("columns"));
            ui.add(egui::Slider::new(stiffness, 0.0..=50.0).text("stiffness 1/s²"));
            ui.add(egui::Slider::new(spread, 0.0..=5000.0).logarithmic(true).text("spread 1/s²"));
            ui.add(egui::Slider::new(damping, 0.0..=10.0).text("damping 1/s"));
        }
    }
}

/// What the water does to selected body `i`: submerged area and fraction, the buoyant force
/// at the centre of buoyancy, the drag and the angular drag.
pub fn buoyancy(ui: &mut egui::Ui, world: &World, i: usize) {
    if world.water().is_none() {
        return;
    }
    let Some(r) = world.buoyancy(i) else {
        ui.label(RichText::new("Not in the water.").small().weak());
        return;
    };
    ui.label(RichText::new("In the water").strong());
    egui::Grid::new(("buoyancy", i)).num_columns(2).show(ui, |ui| {
        let mut row = |name: &str, v: String| {
            ui.label(name);
            ui.label(RichText::new(v).monospace());
            ui.end_row();
        };
        row("submerged", format!("{:.4} m²", Num(r.area)));
        row("fraction", format!("{:.1} %", Num(100.0 * r.fraction)));
        row("buoyancy", format!("({:.2}, {:.2}) N", Num(r.force.x), Num(r.force.y)));
        row("centre", format!("({:.3}, {:.3})", Num(r.centroid.x), Num(r.centroid.y)));
        row("torque", format!("{:.3} N·m", Num(r.torque)));
        row("drag", format!("({:.2}, {:.2}) N", Num(r.drag_force.x), Num(r.drag_force.y)));
        row("drag torque", format!("{:.3} N·m", Num(r.drag_torque)));
        row("angular drag", format!("{:.3} 1/s", Num(r.angular_drag_rate)));
    });
}
