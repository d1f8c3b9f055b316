//! The time-of-impact lab (004 article, "Continuous collision"): two shapes, each with a start
//! and an end pose; the five methods (linear cast against the Minkowski difference, GJK ray
//! cast, conservative advancement with rotation, Box2D's root finder, and the certified root
//! finder, the default, whose advances the motion bound accepts) walked iteration by
//! iteration, compared in a table, and the linear cast shown in configuration space.

mod draw;
mod from_event;
mod input;
pub mod iterations;
mod panels;
#[cfg(feature = "peers")]
pub mod peers;
#[cfg(test)]
mod tests;

use super::preset_lab;
use super::{Lab, LabAction, LabEntry, LabKind, LabType};
use crate::app::camera::ScreenRect;
use crate::app::input::PointerFrame;
use crate::app::panels::UiState;
use crate::app::stage::Stage;
use crate::app::state::Action;
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::collide::toi::{ToiMethod, ToiOutput, ToiTrace};
use manifold_lab::engine::debug::DebugDraw;
use manifold_lab::engine::math::Aabb;
use manifold_lab::scene::{self, ShapeDesc, ShapeSpec, ToiPose, ToiSpec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub use from_event::event_spec;

/// Where the presets live.
pub const TOI_DIR: &str = "scenes/toi";
const DEFAULT_PRESET: &str = "scenes/toi/spinning_plank.ron";

/// Which pose of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pose {
    Start,
    End,
}

pub struct ToiLab {
    pub spec: ToiSpec,
    pub path: Option<PathBuf>,
    /// The iteration shown (`None` = the last).
    pub step: Option<usize>,
    /// Every method's result on the current sweep, and the shown method's trace.
    pub results: Vec<ToiOutput>,
    pub trace: ToiTrace,
    /// Box2D v3's and parry2d's answers drawn over ours and tabled beside it.
    pub peers: bool,
    gesture: Option<input::Gesture>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToiAction {
    /// Load a preset (`scenes/toi/*.ron`); a bad file keeps the lab as it is.
    Load(PathBuf),
    /// Save the current sweep as a preset.
    Save(PathBuf),
    SetMethod(ToiMethod),
    /// Show iteration `k` of the method (`None` = the last).
    SetStep(Option<usize>),
    /// Place shape 0 (A) or 1 (B) at its start or end pose. An end that would turn the shape
    /// by half a turn or more from its start is refused (the sweep blends rotations).
    SetPose {
        body: usize,
        pose: Pose,
        position: Vec2,
        angle: f32,
    },
    /// Replace shape 0 (A) or 1 (B), keeping its motion.
    SetShape {
        body: usize,
        shape: ShapeDesc,
    },
    /// Show Box2D v3's `b2TimeOfImpact` and parry2d's nonlinear shape cast on the same sweep.
    ShowPeers(bool),
}

pub fn act(a: ToiAction) -> Action {
    Action::Lab(LabAction::Toi(a))
}

impl ToiLab {
    fn new(spec: ToiSpec, path: Option<PathBuf>) -> ToiLab {
        let mut lab =
            ToiLab { spec, path, step: None, results: Vec::new(), trace: ToiTrace::new(), peers: false, gesture: None };
        lab.recompute();
        lab
    }

    /// The lab on a sweep that comes from no file (a time-of-impact event of the world).
    pub fn on_spec(spec: ToiSpec) -> ToiLab {
        ToiLab::new(spec, None)
    }

    /// Runs every method on the sweep, tracing the shown one.
    fn recompute(&mut self) {
        self.results = ToiMethod::ALL.iter().map(|&m| self.spec.run(m, None)).collect();
        let mut trace = ToiTrace::new();
        self.spec.run(self.spec.method, Some(&mut trace));
        self.trace = trace;
    }

    /// The method whose iterations are shown (the preset's `method`).
    pub fn method(&self) -> ToiMethod {
        self.spec.method
    }

    /// The result of the shown method.
    pub fn result(&self) -> &ToiOutput {
        let i = ToiMethod::ALL.iter().position(|&m| m == self.spec.method).unwrap_or(0);
        &self.results[i]
    }

    pub fn body(&self, i: usize) -> &scene::ToiBody {
        if i == 0 {
            &self.spec.a
        } else {
            &self.spec.b
        }
    }

    fn body_mut(&mut self, i: usize) -> &mut scene::ToiBody {
        if i == 0 {
            &mut self.spec.a
        } else {
            &mut self.spec.b
        }
    }

    fn set_pose(&mut self, app: &mut Stage, body: usize, pose: Pose, position: Vec2, angle: f32) {
        if body > 1 || !position.is_finite() || !angle.is_finite() {
            return;
        }
        let b = self.body_mut(body);
        let new = ToiPose { position, angle };
        let (start, end) = match pose {
            Pose::Start => (new, b.end.map(|e| ToiPose { angle: e.angle - b.start.angle + angle, ..e })),
            Pose::End => (b.start, Some(new)),
        };
        if (end.unwrap_or(start).angle - start.angle).abs() >= std::f32::consts::PI {
            app.notice = Some("a sweep turns by less than half a turn".into());
            return;
        }
        (b.start, b.end) = (start, end);
        self.recompute();
    }
}

impl LabType for ToiLab {
    type Action = ToiAction;
    const ENTRY: LabEntry = LabEntry {
        name: "Time of impact",
        description: "Two shapes, each moving from a start to an end pose: the five time-of-impact methods \
                      iteration by iteration, the linear cast in configuration space, all compared.",
        file: Some(manifold_lab::scene::FileKind::Toi),
    };

    fn open(app: &mut Stage, file: Option<&Path>) -> Result<Self, String> {
        preset_lab::open(app, file)
    }

    fn apply(&mut self, app: &mut Stage, action: ToiAction) {
        match action {
            ToiAction::Load(path) => self.reload(app, &path),
            ToiAction::Save(path) => preset_lab::save(self, app, &path),
            ToiAction::SetMethod(m) => {
                // The linear cast shares the view with configuration space.
                if (m == ToiMethod::LinearCast) != (self.spec.method == ToiMethod::LinearCast) {
                    app.frame_after_layout();
                }
                (self.spec.method, self.step) = (m, None);
                self.recompute();
            }
            ToiAction::SetStep(k) => self.step = k,
            ToiAction::ShowPeers(on) => self.peers = on,
            ToiAction::SetPose { body, pose, position, angle } => self.set_pose(app, body, pose, position, angle),
            ToiAction::SetShape { body, shape } => match ShapeSpec::new(shape) {
                Ok(s) if body < 2 => {
                    self.body_mut(body).shape = s;
                    self.recompute();
                }
                Ok(_) => app.error = Some(format!("no shape {body}: 0 is A, 1 is B")),
                Err(e) => app.error = Some(e),
            },
        }
    }
}

preset_lab::preset_lab!(ToiLab, ToiSpec);

impl Lab for ToiLab {
    preset_lab::preset_lab_methods!(Toi, 0.5);

    /// Both shapes at their start and end poses.
    fn content_bounds(&self, _app: &Stage) -> Option<Aabb> {
        [&self.spec.a, &self.spec.b]
            .into_iter()
            .flat_map(|b| {
                let shape = b.shape.shape();
                [b.start, b.end_pose()].map(|p| shape.compute_aabb(&p.transform()))
            })
            .reduce(|x, y| x.union(&y))
    }

    /// The world view on the left; configuration space on the right: the linear cast's ray
    /// into A − B, or the other methods' A − B at the shown iteration.
    fn viewport(&self, free: ScreenRect) -> (ScreenRect, Option<ScreenRect>) {
        if self.spec.method != ToiMethod::LinearCast && self.trace.steps.is_empty() {
            return (free, None);
        }
        let half = Vec2::new((0.6 * free.size.x).floor(), free.size.y);
        let left = ScreenRect { min: free.min, size: half };
        let right =
            ScreenRect { min: free.min + Vec2::new(half.x, 0.0), size: Vec2::new(free.size.x - half.x, half.y) };
        (left, Some(right))
    }

    fn draw(&self, app: &Stage, d: &mut dyn DebugDraw) {
        draw::draw(self, app, d);
        #[cfg(feature = "peers")]
        if self.peers {
            peers::draw(self, app, d);
        }
    }

    fn inset(&self, _app: &Stage) -> Option<(Aabb, &'static str)> {
        if self.spec.method != ToiMethod::LinearCast {
            let title = "A - B at iteration k";
            return (!self.trace.steps.is_empty()).then(|| (iterations::bounds(self), title));
        }
        let title = if draw::has_ray(self) { "linear cast: the ray into A - B" } else { "A - B (no relative motion)" };
        Some((draw::config_bounds(self), title))
    }

    fn draw_inset(&self, _app: &Stage, d: &mut dyn DebugDraw) {
        if self.spec.method == ToiMethod::LinearCast {
            draw::draw_config(self, d);
        } else {
            iterations::draw(self, d);
        }
    }

    fn pointer(&mut self, app: &Stage, f: &PointerFrame, over_ui: bool) -> Option<Vec<Action>> {
        input::pointer(self, app, f, over_ui)
    }

    fn uses_world(&self) -> bool {
        false
    }

    /// The shown method's iterations: `steps`, `step`, `caption`; with the peers shown, their
    /// answers under `peers`.
    fn report(&self, _app: &Stage) -> Option<serde_json::Value> {
        #[allow(unused_mut)]
        let mut r = super::trace_report(&self.trace, self.step.unwrap_or(usize::MAX));
        #[cfg(feature = "peers")]
        if self.peers {
            r["peers"] = peers::report(&self.spec.input());
        }
        Some(r)
    }
}
