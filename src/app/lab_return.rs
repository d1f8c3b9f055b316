//! Into a lab and back: opening a lab from a scene keeps the scene as it was left (the world
//! at its step with its poses and velocities, the step-back history, the timeline with its
//! keyframes, branches and cursor, the selection, the view and the run state), and "Back to
//! the scene" returns to exactly that. A lab opened with no scene behind it (`--lab`) goes back
//! to the scene as loaded.

use super::camera::ViewCamera;
use super::history::History;
use super::lab::{Lab, LabKind};
use super::state::{App, RunMode};
use super::timeline::AppTimeline;
use crate::app::tools::inspector::ContactInspector;
use crate::app::tools::joints::state::JointSelection;
use crate::app::tools::ray::RayTool;
use crate::app::tools::slice::SliceTool;
use crate::app::tools::sweep::SweepView;
use manifold_lab::engine::World;
use std::path::Path;

/// The scene as it was when a lab opened.
pub struct LeftScene {
    world: World,
    history: History,
    timeline: AppTimeline,
    selection: Vec<usize>,
    joint_selection: Option<JointSelection>,
    camera: ViewCamera,
    mode: RunMode,
    follow: bool,
    slice: SliceTool,
    ray: RayTool,
    inspect: ContactInspector,
    sweep_view: Option<SweepView>,
}

impl App {
    /// Keeps the scene as it is, for Back to the scene, when no lab is open (a lab opened from
    /// a lab returns to the scene the first one left). Returns whether it kept it.
    pub(super) fn leave_scene(&mut self) -> bool {
        if self.lab.is_some() {
            return false;
        }
        let timeline = std::mem::replace(&mut self.timeline, AppTimeline::new(&self.world));
        self.left_scene = Some(LeftScene {
            world: self.world.clone(),
            history: std::mem::take(&mut self.history),
            timeline,
            selection: self.selection.clone(),
            joint_selection: self.joint_selection,
            camera: self.camera,
            mode: self.mode,
            follow: self.follow,
            slice: std::mem::take(&mut self.slice),
            ray: std::mem::take(&mut self.ray),
            inspect: std::mem::take(&mut self.inspect),
            sweep_view: self.sweep_view.take(),
        });
        true
    }

    /// Puts the kept scene back as it was left; false when none was kept.
    fn return_to_scene(&mut self) -> bool {
        let Some(s) = self.left_scene.take() else { return false };
        (self.world, self.history, self.timeline) = (s.world, s.history, s.timeline);
        (self.selection, self.joint_selection) = (s.selection, s.joint_selection);
        (self.camera, self.mode, self.follow) = (s.camera, s.mode, s.follow);
        (self.slice, self.ray, self.inspect, self.sweep_view) = (s.slice, s.ray, s.inspect, s.sweep_view);
        true
    }

    /// Opens a lab on `file` (its default preset when `None`); a bad file keeps what was open.
    pub(super) fn open_lab(&mut self, kind: LabKind, file: Option<&Path>) {
        let left = self.leave_scene();
        match kind.open(self, file) {
            Ok(lab) => self.enter_lab(lab),
            Err(e) => {
                if left {
                    self.return_to_scene();
                }
                self.error = Some(e);
            }
        }
    }

    /// Shows `lab`, framed, with a clear selection and history.
    pub fn enter_lab(&mut self, lab: Box<dyn Lab>) {
        self.lab = Some(lab);
        self.slice = Default::default();
        self.ray = Default::default();
        self.inspect = Default::default();
        self.selection.clear();
        self.joint_selection = None;
        self.history.clear();
        self.error = None;
        self.frame_content();
    }

    /// Back to the scene: as it was left, or as loaded when the app opened in the lab.
    pub(super) fn close_lab(&mut self) {
        if self.lab.take().is_none() || self.return_to_scene() {
            return;
        }
        self.world = self.scene.build_world();
        self.world.refresh_contacts();
        self.selection.clear();
        self.joint_selection = None;
        self.history.clear();
        self.reset_camera();
        self.reset_timeline();
    }
}
