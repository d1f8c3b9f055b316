//! The Compare tool: the scene stepped in Box2D v3 and rapier2d in lockstep with ours
//! (`manifold_lab::peers`), each peer's bodies drawn as outlines in its own colour over ours,
//! the divergence (largest and mean position difference over the dynamic bodies) plotted per
//! step with the first step past the tolerance, each engine's step time and contacts, the
//! selected body's pose in every engine and what each translation skipped.
//!
//! The peers start from the world as it is when one is turned on. A jump along the timeline
//! (scrub, step back) re-simulates them from that start to the step shown; a restart or a new
//! scene starts them again; edits in the window (a drag, a slice) are not mirrored: Resync
//! starts the peers again from the world as it is.

mod panel;
#[cfg(test)]
mod tests;
pub mod timeline_plot;

use super::{Place, Tool, ToolContext, ToolEntry, ToolKind, ToolType, ToolView, WorldChange};
use crate::app::render::draw::MqDraw;
use crate::app::state::Action;
use egui_macroquad::egui;
use manifold_lab::engine::debug::{Color, DebugDraw, Layer};
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::world::draw::outline_body_at;
use manifold_lab::engine::{BodyKind, World};
use manifold_lab::peers::{mirror, Engine, PeerPose, PeerWorld};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The longest re-simulation after a jump, in steps; further jumps resync instead.
pub const MAX_RESIMULATED: u64 = 20_000;
/// The peers, in the panel's order.
pub const PEERS: [Engine; 2] = [Engine::Box2d, Engine::Rapier];

/// Each peer's outline colour.
pub fn peer_color(e: Engine) -> Color {
    match e {
        Engine::Box2d => Color::rgb(255, 150, 60),
        _ => Color::rgb(90, 200, 255),
    }
}

/// [`peer_color`] for egui.
pub fn peer_color32(e: Engine) -> egui::Color32 {
    color32(peer_color(e))
}

/// A drawing colour for egui (opaque).
pub fn color32(c: Color) -> egui::Color32 {
    egui::Color32::from_rgb((c.r * 255.0) as u8, (c.g * 255.0) as u8, (c.b * 255.0) as u8)
}

/// The divergence from ours after one step, over the dynamic bodies: the largest and the mean
/// distance of a body's origin from ours (metres) and of its angle from ours (radians, the
/// shorter way round).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub step: u64,
    pub max: f32,
    pub mean: f32,
    pub angle_max: f32,
    pub angle_mean: f32,
}

/// One peer engine running beside ours.
pub struct PeerRun {
    pub engine: Engine,
    pub world: Box<dyn PeerWorld>,
    /// Its bodies are drawn.
    pub shown: bool,
    /// Its last step's wall time, ms.
    pub step_ms: f64,
    pub samples: Vec<Sample>,
}

impl PeerRun {
    /// The first step whose largest difference passed `tolerance`.
    pub fn first_divergence(&self, tolerance: f32) -> Option<u64> {
        self.samples.iter().find(|s| s.max > tolerance).map(|s| s.step)
    }
}

#[derive(Default)]
pub struct CompareTool {
    pub runs: Vec<PeerRun>,
    /// The world the peers started from (for re-simulating after a jump).
    origin: Option<World>,
    pub tolerance: f32,
    /// Our last step's wall time, ms.
    pub ours_ms: f64,
    /// Our touching contacts after the last step (the peers count theirs alike).
    pub ours_contacts: usize,
    /// The peers' outlines the last drawing drew (the report's `outlines_drawn`).
    drawn: std::cell::Cell<usize>,
}

/// What the Compare tool can be asked to do: `Tool(Compare(SetPeer(Box2d, true)))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CompareAction {
    /// Run a peer engine beside ours (from the world as it is) or stop it.
    SetPeer(PeerEngine, bool),
    /// Draw a running peer's bodies or not.
    ShowPeer(PeerEngine, bool),
    /// Start every running peer again from the world as it is.
    Resync,
    /// The position difference (metres) from which a peer counts as diverged.
    SetTolerance(f32),
}

/// A peer engine, as scripts name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PeerEngine {
    Box2d,
    Rapier,
}

impl PeerEngine {
    pub fn engine(self) -> Engine {
        match self {
            PeerEngine::Box2d => Engine::Box2d,
            PeerEngine::Rapier => Engine::Rapier,
        }
    }
}

/// The difference of two angles the shorter way round, in `[0, π]`.
pub fn angle_difference(a: f32, b: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    ((a - b + PI).rem_euclid(TAU) - PI).abs()
}

/// The dynamic bodies' divergence between our poses and `peer`'s after `step`.
fn divergence(world: &World, peer: &[PeerPose], step: u64) -> Sample {
    let (mut max, mut sum, mut angle_max, mut angle_sum, mut n) = (0.0f32, 0.0, 0.0f32, 0.0, 0usize);
    for (b, p) in world.bodies.iter().zip(peer).filter(|(b, _)| b.kind == BodyKind::Dynamic) {
        let (d, a) = (b.xf.p.distance(p.position), angle_difference(b.angle, p.angle));
        (max, sum, angle_max, angle_sum, n) = (max.max(d), sum + d, angle_max.max(a), angle_sum + a, n + 1);
    }
    let per = 1.0 / n.max(1) as f32;
    Sample { step, max, mean: sum * per, angle_max, angle_mean: angle_sum * per }
}

impl CompareTool {
    pub fn running(&self, e: Engine) -> Option<&PeerRun> {
        self.runs.iter().find(|r| r.engine == e)
    }

    /// The position difference (metres) past which a peer counts as diverged (1 cm unless set).
    pub fn tolerance(&self) -> f32 {
        if self.tolerance > 0.0 {
            self.tolerance
        } else {
            0.01
        }
    }

    /// Starts every running peer again from `world` (which becomes the origin).
    fn resync(&mut self, world: &World) {
        for r in &mut self.runs {
            r.world = mirror(r.engine, world).expect("a peer");
            r.samples.clear();
        }
        self.origin = (!self.runs.is_empty()).then(|| world.clone());
    }

    fn set_peer(&mut self, world: &World, e: Engine, on: bool) {
        self.runs.retain(|r| r.engine != e);
        if on {
            let run = PeerRun {
                engine: e,
                world: mirror(e, world).expect("a peer"),
                shown: true,
                step_ms: 0.0,
                samples: Vec::new(),
            };
            self.runs.push(run);
            self.runs.sort_by_key(|r| r.engine);
        }
        // Every peer starts from the same world.
        self.resync(world);
    }

    /// One step of every running peer after ours reached `world`.
    pub fn step_peers(&mut self, world: &World, ours_ms: f64) {
        self.ours_ms = ours_ms;
        self.ours_contacts = world.contacts.iter().filter(|c| c.manifold.count > 0).count();
        if self.runs.iter().any(|r| r.world.poses().len() != world.bodies.len()) {
            // Bodies were added or sliced: the peers no longer match body for body.
            self.resync(world);
            return;
        }
        for r in &mut self.runs {
            let t = Instant::now();
            r.world.step();
            r.step_ms = t.elapsed().as_secs_f64() * 1e3;
            r.samples.push(divergence(world, &r.world.poses(), world.step_count));
        }
    }

    /// The world jumped to another step (a scrub, a step back): the peers re-simulated from
    /// their origin to it, or started from it when it lies before the origin or too far.
    fn jumped(&mut self, world: &World) {
        let Some(origin) = &self.origin else { return };
        let (from, to) = (origin.step_count, world.step_count);
        if to < from || to - from > MAX_RESIMULATED || origin.bodies.len() != world.bodies.len() {
            self.resync(world);
            return;
        }
        let mut ours = origin.clone();
        let origin = origin.clone();
        self.resync(&origin);
        for _ in from..to {
            ours.step();
            self.step_peers(&ours, self.ours_ms);
        }
    }
}

impl Tool for CompareTool {
    fn kind(&self) -> ToolKind {
        ToolKind::Compare
    }

    fn draw(&self, v: &ToolView, d: &mut MqDraw) {
        let (mut drawn, wanted) = (0, d.wants(Layer::Shape));
        for r in self.runs.iter().filter(|r| r.shown && wanted) {
            let color = peer_color(r.engine);
            for (b, p) in v.world.bodies.iter().zip(r.world.poses()) {
                if b.kind == BodyKind::Dynamic {
                    outline_body_at(d, Layer::Shape, b, &Transform::new(p.position, p.angle), color);
                    drawn += 1;
                }
            }
        }
        self.drawn.set(drawn);
    }

    fn panel(&self, at: Place, ui: &mut egui::Ui, v: &ToolView, out: &mut Vec<Action>) {
        if at == Place::Details {
            panel::compare(ui, self, v, out);
        }
    }

    fn stepped(&mut self, world: &World, ms: f64) {
        self.step_peers(world, ms);
    }

    fn world_changed(&mut self, how: WorldChange, world: &World) {
        match how {
            WorldChange::Restarted | WorldChange::Loaded => self.resync(world),
            WorldChange::Jumped => self.jumped(world),
            WorldChange::Broadphase => {}
        }
    }

    fn report(&self, _v: &ToolView) -> Option<serde_json::Value> {
        let tolerance = self.tolerance();
        let runs: Vec<serde_json::Value> = (self.runs.iter())
            .map(|r| {
                let last = r.samples.last();
                serde_json::json!({
                    "engine": r.engine.cli_name(),
                    "shown": r.shown,
                    "steps": r.samples.len(),
                    "max": last.map(|s| s.max),
                    "mean": last.map(|s| s.mean),
                    "angle_max": last.map(|s| s.angle_max),
                    "angle_mean": last.map(|s| s.angle_mean),
                    "first_divergence": r.first_divergence(tolerance),
                    "contacts": r.world.contact_count(),
                    "skipped": r.world.skipped().lines(),
                })
            })
            .collect();
        Some(serde_json::json!({
            "peers": runs,
            "tolerance": tolerance,
            "outlines_drawn": self.drawn.get(),
            "ours": { "ms": self.ours_ms, "contacts": self.ours_contacts },
        }))
    }
}

impl ToolType for CompareTool {
    type Action = CompareAction;
    const ENTRY: ToolEntry = ToolEntry {
        name: "compare",
        description: "the scene in Box2D v3 and rapier2d beside ours: their bodies, where they part from ours",
    };

    fn apply(&mut self, cx: &mut ToolContext, action: CompareAction) {
        match action {
            CompareAction::SetPeer(e, on) => self.set_peer(cx.world, e.engine(), on),
            CompareAction::ShowPeer(e, shown) => {
                self.runs.iter_mut().filter(|r| r.engine == e.engine()).for_each(|r| r.shown = shown);
            }
            CompareAction::Resync => self.resync(cx.world),
            CompareAction::SetTolerance(t) if t.is_finite() && t > 0.0 => self.tolerance = t,
            CompareAction::SetTolerance(t) => *cx.error = Some(format!("tolerance must be positive, got {t}")),
        }
    }
}
