//! What the two narrowphase labs share: a pair of shapes from a pair file
//! (`scenes/pairs/*.ron`) placed in the app's world as two bodies, so the ordinary select,
//! drag and rotate gestures move them; loading, saving and replacing shapes; their panel.

use super::widgets::presets_section;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::{Action, RunMode};
use egui_macroquad::egui::{self, RichText};
use glam::Vec2;
use manifold_lab::scene::PresetFile;
use manifold_lab::scene::{self, PairSpec, ShapeDesc};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the pair presets live.
pub const PAIR_DIR: &str = "scenes/pairs";

/// The actions of a pair lab on its pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PairAction {
    /// Load a pair file (a bad file keeps the current pair).
    Load(PathBuf),
    /// Save the two shapes and their current poses as a pair file.
    Save(PathBuf),
    /// Replace the shape of body 0 (A) or 1 (B), keeping its pose.
    SetShape { body: usize, shape: ShapeDesc },
}

/// The pair as loaded (restart returns to it) and its file.
pub struct PairFile {
    pub spec: PairSpec,
    pub path: Option<PathBuf>,
}

impl PairFile {
    /// Loads `file` (or `default`) and puts its two bodies in the app's world, paused.
    pub fn open(app: &mut Stage, file: Option<&Path>, default: &str) -> Result<PairFile, String> {
        let path = file.map_or_else(|| PathBuf::from(default), Path::to_path_buf);
        let spec = scene::PairSpec::load(&path).map_err(|e| e.to_string())?;
        let pair = PairFile { spec, path: Some(path) };
        pair.restart(app);
        app.mode = RunMode::Paused;
        Ok(pair)
    }

    /// Puts the bodies back as loaded.
    pub fn restart(&self, app: &mut Stage) {
        app.world = self.spec.build_world();
        app.history.clear();
        app.selection.clear();
    }

    pub fn apply(&mut self, app: &mut Stage, action: PairAction) {
        match action {
            PairAction::Load(path) => match PairFile::open(app, Some(&path), "") {
                Ok(p) => {
                    *self = p;
                    app.error = None;
                    app.frame_after_layout();
                }
                Err(e) => app.error = Some(e),
            },
            PairAction::Save(path) => {
                let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                match PairSpec::from_world(&app.world, &name) {
                    Some(p) => match p.save(&path) {
                        Ok(()) => app.notice = Some(format!("Saved {}", path.display())),
                        Err(e) => app.error = Some(e.to_string()),
                    },
                    None => app.error = Some("the lab needs two bodies to save a pair".into()),
                }
            }
            PairAction::SetShape { body, shape } => match shape.build() {
                Ok(s) if body < 2 && body < app.world.bodies.len() => {
                    let b = &mut app.world.bodies[body];
                    let (p, a) = (b.xf.p, b.angle);
                    b.shape = s;
                    b.update_mass();
                    b.set_transform(p, a);
                    app.world.forget_manifold_origins(body);
                }
                Ok(_) => app.error = Some(format!("no lab shape {body}: 0 is A, 1 is B")),
                Err(e) => app.error = Some(e),
            },
        }
    }

    /// The Shapes and Pairs sections; `wrap` makes the lab's action from a pair action.
    pub fn panel(&self, ui: &mut egui::Ui, files: &mut UiState, out: &mut Vec<Action>, wrap: fn(PairAction) -> Action) {
        egui::CollapsingHeader::new("Shapes").default_open(true).show(ui, |ui| {
            for (body, name) in [(0usize, "A"), (1, "B")] {
                ui.horizontal(|ui| {
                    ui.label(name);
                    egui::ComboBox::from_id_salt(("lab_shape", body)).selected_text("replace shape…").show_ui(
                        ui,
                        |ui| {
                            for (label, desc) in shape_presets() {
                                if ui.selectable_label(false, label).clicked() {
                                    out.push(wrap(PairAction::SetShape { body, shape: desc }));
                                }
                            }
                        },
                    );
                });
            }
            ui.label(RichText::new("Drag a shape to move it; drag its handle or Ctrl+drag to rotate.").small());
        });
        let (load, save) = (|p| wrap(PairAction::Load(p)), |p| wrap(PairAction::Save(p)));
        presets_section(ui, "Pairs", files, PAIR_DIR, self.path.as_deref(), load, save, out);
    }
}

/// Shapes offered for A and B.
pub fn shape_presets() -> Vec<(&'static str, ShapeDesc)> {
    let regular = |n: usize, r: f32| {
        let points = (0..n)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / n as f32 + std::f32::consts::FRAC_PI_2;
                Vec2::new(a.cos(), a.sin()) * r
            })
            .collect();
        ShapeDesc::Polygon { points, radius: 0.0 }
    };
    vec![
        ("Box 2 × 1", ShapeDesc::Box { half_extents: Vec2::new(1.0, 0.5), radius: 0.0 }),
        ("Square 1 × 1", ShapeDesc::Box { half_extents: Vec2::new(0.5, 0.5), radius: 0.0 }),
        ("Long plank 4 × 0.3", ShapeDesc::Box { half_extents: Vec2::new(2.0, 0.15), radius: 0.0 }),
        ("Rounded box 2 × 1, r 0.2", ShapeDesc::Box { half_extents: Vec2::new(0.8, 0.3), radius: 0.2 }),
        ("Circle r 0.6", ShapeDesc::Circle { radius: 0.6 }),
        ("Triangle", regular(3, 0.8)),
        ("Pentagon", regular(5, 0.7)),
        ("Hexagon", regular(6, 0.7)),
        ("Octagon", regular(8, 0.7)),
        (
            "Sliver",
            ShapeDesc::Polygon {
                points: vec![Vec2::new(-1.2, -0.1), Vec2::new(1.2, -0.05), Vec2::new(1.1, 0.12), Vec2::new(-1.0, 0.1)],
                radius: 0.0,
            },
        ),
    ]
}

/// The `Lab` methods of a lab on a pair file held in its field `pair`, inside its `impl Lab`:
/// its kind, its file, and Restart putting the pair back as loaded:
/// `pair_lab_methods!(Manifold);`.
macro_rules! pair_lab_methods {
    ($kind:ident) => {
        fn kind(&self) -> LabKind {
            LabKind::$kind
        }

        fn file(&self) -> Option<&std::path::Path> {
            self.pair.path.as_deref()
        }

        fn intercept(&mut self, app: &mut $crate::app::stage::Stage, action: &Action) -> bool {
            let restart = matches!(action, Action::Restart);
            if restart {
                self.pair.restart(app);
            }
            restart
        }
    };
}

pub(crate) use pair_lab_methods;
