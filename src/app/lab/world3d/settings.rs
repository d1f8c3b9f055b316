//! The 3D dynamics lab's Solver and Water sections: every `World3Params` field and every
//! water basin (article 003, "Buoyancy, Rigid Bodies and Water Surface": level, density, drag
//! and the waves, or the simulated surface's columns) edited live, as the 2D scene's Solver and Water panels do and with their
//! widgets (`panels::solver_rows`, `tools::panel::number_row`). A change is one action,
//! `SetParams` or `SetWater`, checked by the engine's `validate` when applied.

use super::{act, World3dAction, World3dLab};
use crate::app::panels::solver_rows as rows;
use crate::app::panels::{note, UiState};
use crate::app::state::Action;
use crate::app::tools::panel::number_row;
use egui_macroquad::egui::{self, RichText};
use glam::{Vec2, Vec3};
use manifold_lab::engine::world3d::height_field::{HeightField3, MAX_COLUMNS_PER_SIDE};
use manifold_lab::engine::world3d::{Gyroscopic, Region, SatChoice, Surface3, Water3, Wave, World3Params};

/// The speed caps' slider range, m/s and rad/s (inside `world3_valid`: above 0, up to 10⁴).
pub const SPEED_CAP: std::ops::RangeInclusive<f32> = 1.0..=1.0e4;

/// The Solver section: the step, the soft contacts and joints, the speed caps, the gyroscopic
/// term and the SAT mode with its cache.
pub fn solver(ui: &mut egui::Ui, lab: &World3dLab, st: &mut UiState, out: &mut Vec<Action>) {
    let current = &lab.world.params;
    let mut p = current.clone();
    // Closed at first, below the layers: the view's switches stay in sight.
    let section = egui::CollapsingHeader::new("Solver").default_open(false).show(ui, |ui| {
        rows::rate(ui, &mut p.hz, &mut p.substeps, &mut p.iterations);
        let mut g = p.gravity.to_array();
        rows::gravity(ui, &mut g);
        p.gravity = g.into();
        ui.checkbox(&mut p.warm_starting, "warm starting");
        rows::softness(ui, &mut p.contact_hertz, &mut p.contact_damping_ratio, &mut p.relax_iterations);
        rows::max_push(ui, &mut p.max_push_velocity);
        rows::bounce_and_margin(ui, &mut p.restitution_threshold, &mut p.speculative_margin);
        rows::joint_softness(ui, &mut p.joint_hertz, &mut p.joint_damping_ratio);
        ui.add(egui::Slider::new(&mut p.max_linear_speed, SPEED_CAP).logarithmic(true).text("max speed m/s"));
        ui.add(egui::Slider::new(&mut p.max_angular_speed, SPEED_CAP).logarithmic(true).text("max spin rad/s"));
        egui::ComboBox::from_label("gyroscopic").selected_text(p.gyroscopic.label()).show_ui(ui, |ui| {
            for g in Gyroscopic::ALL {
                ui.selectable_value(&mut p.gyroscopic, g, g.label());
            }
        });
        sat(ui, &mut p, st);
        if ui.button("Defaults").clicked() {
            p = World3Params::default();
        }
    });
    note(&mut st.widgets, ui, "solver3", section.header_response.rect);
    if p != *current {
        out.push(act(World3dAction::SetParams(p)));
    }
}

/// The SAT mode, one click each, and its separating-axis cache.
fn sat(ui: &mut egui::Ui, p: &mut World3Params, st: &mut UiState) {
    ui.horizontal(|ui| {
        ui.label("SAT");
        for m in SatChoice::ALL {
            let r = ui.selectable_value(&mut p.sat, m, m.label()).on_hover_text(m.description());
            note(&mut st.widgets, ui, m.widget(), r.rect);
        }
    });
    let cache = ui.checkbox(&mut p.sat_cache, "SAT cache").on_hover_text("Test each pair's last separating axis first");
    note(&mut st.widgets, ui, "sat_cache", cache.rect);
}

/// The Water section: each basin's numbers and waves, a basin added or removed.
pub fn water(ui: &mut egui::Ui, lab: &World3dLab, st: &mut UiState, out: &mut Vec<Action>) {
    let current = &lab.world.water;
    let mut waters = current.clone();
    let section = egui::CollapsingHeader::new("Water").default_open(false).show(ui, |ui| {
        let mut remove = None;
        for (i, w) in waters.iter_mut().enumerate() {
            let name = if w.name.is_empty() { format!("water {i}") } else { w.name.clone() };
            ui.label(RichText::new(name).strong());
            basin(ui, i, w);
            surface(ui, i, w, lab, st);
            if ui.small_button("Remove this water").clicked() {
                remove = Some(i);
            }
            ui.separator();
        }
        if let Some(i) = remove {
            waters.remove(i);
        }
        if ui.button("Add still water").clicked() {
            let level = lab.content_box().map_or(0.0, |[lo, hi]| 0.5 * (lo.y + hi.y));
            waters.push(Water3::flat(level));
        }
    });
    note(&mut st.widgets, ui, "water3", section.header_response.rect);
    if waters != *current {
        out.push(act(World3dAction::SetWater(waters)));
    }
}

/// A simulated surface's settings when switched on from the panel: waves at 2.5 m/s over
/// cells of about 1/6 m, a weak spring, damping that settles them in a few seconds.
fn default_simulated(region: Region) -> Surface3 {
    let size = region.max - region.min;
    let columns = |len: f32| ((len * 6.0).round() as u32).clamp(2, 128);
    let (nx, nz) = (columns(size.x), columns(size.y));
    let dx = size.x / nx as f32;
    Surface3::Simulated { columns: (nx, nz), stiffness: 2.0, spread: 6.25 / (dx * dx), damping: 0.6 }
}

/// The basin's surface: analytic (level and waves) or simulated (spring columns the bodies
/// push), and the simulated one's grid, stiffness, spread and damping. A simulated surface
/// needs a region: a basin without one gets the moving bodies' box grown by 2 m.
fn surface(ui: &mut egui::Ui, i: usize, w: &mut Water3, lab: &World3dLab, st: &mut UiState) {
    ui.horizontal(|ui| {
        ui.label("surface");
        // Radio buttons: the unselected choice must read as a choice, not as plain text.
        let analytic = ui.radio(w.surface == Surface3::Analytic, "analytic");
        if analytic.clicked() {
            w.surface = Surface3::Analytic;
        }
        let simulated = ui.radio(w.surface != Surface3::Analytic, "simulated");
        if simulated.clicked() && w.surface == Surface3::Analytic {
            let region = w.region.unwrap_or_else(|| {
                let [lo, hi] = lab.content_box().unwrap_or([Vec3::splat(-3.0), Vec3::splat(3.0)]);
                Region { min: Vec2::new(lo.x, lo.z) - 2.0, max: Vec2::new(hi.x, hi.z) + 2.0 }
            });
            w.region = Some(region);
            w.surface = default_simulated(region);
        }
        if i == 0 {
            // The first basin's switch, by name in `--state-out` (what a real-X test clicks).
            note(&mut st.widgets, ui, "water_analytic", analytic.rect);
            note(&mut st.widgets, ui, "water_simulated", simulated.rect);
        }
    });
    let Surface3::Simulated { columns, stiffness, spread, damping } = &mut w.surface else { return };
    ui.horizontal(|ui| {
        ui.label("columns");
        ui.add(egui::DragValue::new(&mut columns.0).range(2..=MAX_COLUMNS_PER_SIDE).prefix("x "));
        ui.add(egui::DragValue::new(&mut columns.1).range(2..=MAX_COLUMNS_PER_SIDE).prefix("z "));
    });
    egui::Grid::new(("surface3", i)).num_columns(2).show(ui, |ui| {
        number_row(ui, "stiffness 1/s²", stiffness, 0.1, (0.0, 1e4));
        number_row(ui, "spread 1/s²", spread, 1.0, (0.0, 1e6));
        let r = number_row(ui, "damping 1/s", damping, 0.02, (0.0, 1e3));
        if i == 0 {
            note(&mut st.widgets, ui, "water_damping", r.rect);
        }
    });
}

/// The basins for the lab's report: each one's surface as set, and a simulated surface's grid,
/// damping, energy ([`HeightField3::energy`]) and largest column offset from its mean height.
pub fn water_json(lab: &World3dLab) -> serde_json::Value {
    let basins = lab.world.water.iter().enumerate().map(|(k, w)| {
        let field = lab.world.surfaces.get(k).and_then(Option::as_ref).map(|f: &HeightField3| {
            let rest = f.rest_height();
            let offset = f.heights.iter().map(|h| (h - rest).abs()).fold(0.0, f32::max);
            serde_json::json!({
                "columns": [f.nx(), f.nz()],
                "damping": f.settings.damping,
                "energy": f.energy(),
                "max_offset": offset,
            })
        });
        serde_json::json!({ "name": w.name, "surface": w.surface, "field": field })
    });
    serde_json::Value::Array(basins.collect())
}

/// One basin: level, density, drag, and its waves (amplitude, wavelength, direction); a
/// simulated basin shows no wave list, since its columns ignore the analytic waves.
fn basin(ui: &mut egui::Ui, i: usize, w: &mut Water3) {
    egui::Grid::new(("water3", i)).num_columns(2).show(ui, |ui| {
        number_row(ui, "level", &mut w.level, 0.02, (-1e4, 1e4));
        number_row(ui, "density kg/m³", &mut w.density, 5.0, (1.0, 1e5));
        number_row(ui, "linear drag", &mut w.linear_drag, 0.05, (0.0, 100.0));
        number_row(ui, "angular drag", &mut w.angular_drag, 0.05, (0.0, 100.0));
    });
    if w.surface != Surface3::Analytic {
        // The simulated surface makes its own waves from the bodies; the analytic ones wait.
        let kept = match w.waves.len() {
            0 => String::new(),
            n => format!(" ({n} analytic wave{} kept for the analytic surface)", if n == 1 { "" } else { "s" }),
        };
        ui.weak(format!("waves: made by the bodies that push the columns{kept}"));
        return;
    }
    let mut remove = None;
    for (k, wave) in w.waves.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("wave {k}"));
            ui.add(egui::DragValue::new(&mut wave.amplitude).speed(0.01).range(0.0..=10.0).prefix("a "));
            ui.add(egui::DragValue::new(&mut wave.wavelength).speed(0.05).range(0.1..=100.0).prefix("λ "));
            ui.add(egui::DragValue::new(&mut wave.direction_degrees).speed(1.0).range(-360.0..=360.0).suffix("°"));
            if ui.small_button("✖").on_hover_text("Remove this wave").clicked() {
                remove = Some(k);
            }
        });
    }
    if let Some(k) = remove {
        w.waves.remove(k);
    }
    if ui.small_button("Add a wave").clicked() {
        let wave = Wave { amplitude: 0.1, wavelength: 4.0, direction_degrees: 0.0, phase_degrees: 0.0, speed: None };
        w.waves.push(wave);
    }
}

impl SatChoiceUi for SatChoice {
    fn description(self) -> &'static str {
        match self {
            SatChoice::Fast => "Local frame, Gauss-map pruning and the support bound (the default)",
            SatChoice::Robust => {
                "Full supports on every edge pair that forms a Minkowski face or comes within a wide guard band of one"
            }
            SatChoice::Article => "Article 001's code to the letter, on moved hulls",
        }
    }

    fn widget(self) -> &'static str {
        match self {
            SatChoice::Fast => "sat_fast",
            SatChoice::Robust => "sat_robust",
            SatChoice::Article => "sat_article",
        }
    }
}

/// What the panel shows of a SAT mode: its tooltip and its widget's name in `--state-out`.
trait SatChoiceUi {
    fn description(self) -> &'static str;
    fn widget(self) -> &'static str;
}
