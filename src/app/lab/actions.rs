//! The labs' actions: opening and closing labs, pairs, clipping stages, GJK/EPA steps, the
//! sweep and the tree lab's proxies and queries.

use super::{LabKind, LabState};
use crate::app::state::{Action, App, RunMode};
use manifold_lab::scene;
use std::path::PathBuf;

impl App {
    /// Carries out a lab action (called by `App::apply` for every action it does not handle).
    pub(in crate::app) fn apply_lab(&mut self, action: Action) {
        match action {
            Action::OpenLab { kind: LabKind::Tree, .. } => self.enter_lab(LabState::tree(2000)),
            Action::OpenLab { kind, pair } => {
                let path = pair.unwrap_or_else(|| PathBuf::from(kind.entry().default_pair));
                match scene::load_pair(&path) {
                    Ok(p) => self.enter_lab(LabState::new(kind, p, Some(path))),
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            Action::CloseLab if self.lab.is_some() => {
                self.lab = None;
                self.world = self.scene.build_world();
                self.world.refresh_contacts();
                self.selection.clear();
                self.history.clear();
                self.reset_camera();
            }
            Action::LoadPair(path) => match (scene::load_pair(&path), self.lab.as_ref().map(|l| l.kind)) {
                (Ok(p), Some(kind)) => self.enter_lab(LabState::new(kind, p, Some(path))),
                (Ok(_), None) => self.error = Some("open a lab before loading a pair".into()),
                (Err(e), _) => self.error = Some(e.to_string()),
            },
            Action::SavePair(path) => {
                let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                match scene::PairSpec::from_world(&self.world, &name) {
                    Some(p) => match scene::save_pair(&p, &path) {
                        Ok(()) => self.notice = Some(format!("Saved {}", path.display())),
                        Err(e) => self.error = Some(e.to_string()),
                    },
                    None => self.error = Some("the lab needs two bodies to save a pair".into()),
                }
            }
            Action::SetLabShape { body, shape } => match shape.build() {
                Ok(s) if self.lab.is_some() && body < 2 && body < self.world.bodies.len() => {
                    let b = &mut self.world.bodies[body];
                    let (p, a) = (b.xf.p, b.angle);
                    b.shape = s;
                    b.update_mass();
                    b.set_transform(p, a);
                }
                Ok(_) => self.error = Some("no lab shape to replace".into()),
                Err(e) => self.error = Some(e),
            },
            Action::SetClipStage(k) => {
                if let Some(l) = &mut self.lab {
                    l.stage = k.min(super::manifold::LAST_STAGE);
                }
            }
            Action::SetBias(on) => {
                if let Some(l) = &mut self.lab {
                    l.use_bias = on;
                }
            }
            Action::SelectAxis(k) => {
                if let Some(l) = &mut self.lab {
                    l.axis = k;
                }
            }
            Action::TreeLabSpawn { count, settings } => {
                if let Some(t) = self.lab.as_mut().and_then(|l| l.tree.as_mut()) {
                    t.respawn(count, settings);
                    let (b, vp) = (t.bounds(), self.viewport);
                    self.camera.frame(&vp, b);
                }
            }
            Action::TreeLabMoving(f) => {
                if let Some(t) = self.lab.as_mut().and_then(|l| l.tree.as_mut()) {
                    if f.is_finite() {
                        t.moving_fraction = f.clamp(0.0, 1.0);
                    }
                }
            }
            Action::TreeLabQueryBox { from, to } => {
                if let Some(t) = self.lab.as_mut().and_then(|l| l.tree.as_mut()) {
                    let b = manifold_lab::engine::math::Aabb::new(from.min(to), from.max(to));
                    t.set_query(b.is_valid().then_some(super::tree_lab::TreeQuery::Box(b)));
                }
            }
            Action::TreeLabRay { from, to } => {
                if let Some(t) = self.lab.as_mut().and_then(|l| l.tree.as_mut()) {
                    let ok = from.is_finite() && to.is_finite() && from != to;
                    t.set_query(ok.then_some(super::tree_lab::TreeQuery::Ray { from, to }));
                }
            }
            Action::TreeLabClearQuery => {
                if let Some(t) = self.lab.as_mut().and_then(|l| l.tree.as_mut()) {
                    t.set_query(None);
                }
            }
            Action::SetLabStep(k) => {
                if let Some(l) = &mut self.lab {
                    l.step = k;
                    l.playing = false;
                }
            }
            Action::PlayLabSteps(on) => {
                if let Some(l) = &mut self.lab {
                    l.playing = on;
                    l.play_clock = 0.0;
                    if on {
                        l.step = Some(0);
                    }
                }
            }
            Action::RunSweep => {
                if let Some(l) = &mut self.lab {
                    l.sweep = super::sweep::rotation_sweep(&self.world, 360);
                }
            }
            // Every other action is handled by `App::apply` before it gets here.
            _ => {}
        }
    }

    /// Minkowski lab: while playing, one GJK/EPA step every 0.6 s, stopping at the last.
    pub(in crate::app) fn advance_lab_steps(&mut self, real_dt: f32) {
        let Some(lab) = &mut self.lab else { return };
        if !lab.playing {
            return;
        }
        lab.play_clock += real_dt;
        if lab.play_clock < 0.6 {
            return;
        }
        lab.play_clock = 0.0;
        let last =
            super::minkowski::MinkowskiView::compute(&self.world).map_or(0, |v| v.step_count().saturating_sub(1));
        let next = lab.step.map_or(0, |k| k + 1);
        if next >= last {
            lab.step = None;
            lab.playing = false;
        } else {
            lab.step = Some(next);
        }
    }

    /// Replaces the world by the lab's pair (an empty world for the tree lab), framed; the
    /// tree lab runs, the pair labs pause.
    pub(in crate::app) fn enter_lab(&mut self, lab: LabState) {
        self.world = match &lab.pair {
            Some(p) => p.build_world(),
            None => manifold_lab::engine::World::new(Default::default()),
        };
        self.mode = if lab.tree.is_some() { RunMode::Running } else { RunMode::Paused };
        self.lab = Some(lab);
        self.selection.clear();
        self.history.clear();
        self.error = None;
        self.frame_content();
    }
}
