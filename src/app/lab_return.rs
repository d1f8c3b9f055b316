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
use crate::app::lab::hull3d::Hull3dLab;
use crate::app::lab::manifold::ManifoldLab;
use crate::app::lab::pair::PairFile;
use crate::app::lab::toi::{event_spec, ToiLab};
use crate::app::lab::world3d::fixture::contact_hulls;
use crate::app::lab::world3d::pin::{fixture_path, PairRef3};
use crate::app::lab::world3d::World3dLab;
use crate::app::tools::inspector::{body_label, contact_pair};
use crate::app::tools::joints::state::JointSelection;
use crate::app::tools::Tools;
use manifold_lab::engine::number::Num;
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
    tools: Tools,
}

impl App {
    /// Keeps the scene as it is, for Back to the scene, when no lab is open (a lab opened from
    /// a lab returns to the scene the first one left). Returns whether it kept it.
    pub(super) fn leave_scene(&mut self) -> bool {
        if self.lab.is_some() {
            return false;
        }
        let timeline = std::mem::replace(&mut self.timeline, AppTimeline::new(&self.stage.world));
        self.left_scene = Some(LeftScene {
            world: self.world.clone(),
            history: std::mem::take(&mut self.history),
            timeline,
            selection: self.selection.clone(),
            joint_selection: self.joint_selection,
            camera: self.camera,
            mode: self.mode,
            follow: self.follow,
            tools: std::mem::take(&mut self.tools),
        });
        true
    }

    /// Puts the kept scene back as it was left; false when none was kept.
    fn return_to_scene(&mut self) -> bool {
        let Some(s) = self.left_scene.take() else { return false };
        (self.world, self.history, self.timeline) = (s.world, s.history, s.timeline);
        (self.selection, self.joint_selection) = (s.selection, s.joint_selection);
        (self.camera, self.mode, self.follow) = (s.camera, s.mode, s.follow);
        self.tools = s.tools;
        true
    }

    /// Opens a lab on `file` (its default preset when `None`); a bad file keeps what was open.
    pub(super) fn open_lab(&mut self, kind: LabKind, file: Option<&Path>) {
        self.left_lab = None;
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
        self.tools = Tools::default();
        self.selection.clear();
        self.joint_selection = None;
        self.history.clear();
        self.error = None;
        self.frame_content();
    }

    /// Back to the scene: as it was left, or as loaded when the app opened in the lab.
    pub(super) fn close_lab(&mut self) {
        if let Some(lab) = self.left_lab.take().filter(|_| self.lab.is_some()) {
            self.lab = Some(lab);
            return;
        }
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

    /// Opens the time-of-impact lab on the world's event of `body` at step `step` (see
    /// `engine::world::toi_events`), in the poses the continuous pass swept, as
    /// [`App::open_contact_in_lab`] opens a contact.
    pub(crate) fn open_toi_event_in_lab(&mut self, step: u64, body: usize) {
        if self.lab.is_some() {
            self.error = Some("time-of-impact events are inspected in a scene: leave the lab first".into());
            return;
        }
        let Some(e) = self.world.toi_events.events().find(|e| e.step == step && e.body == body).copied() else {
            self.error = Some(format!("no time-of-impact event of body {body} at step {step} is kept"));
            return;
        };
        let names = (body_label(&self.world, e.body), body_label(&self.world, e.other));
        let spec = event_spec(&e, (&names.0, &names.1));
        self.leave_scene();
        self.world = World::new(Default::default());
        self.mode = RunMode::Paused;
        let lab = ToiLab::on_spec(spec);
        let t = lab.result().t;
        self.enter_lab(Box::new(lab));
        self.notice = Some(format!(
            "Opened the impact of {} on {} (step {step}, t = {:.5}) in the time-of-impact lab; the lab finds t = {:.5}",
            names.0,
            names.1,
            Num(e.fraction),
            Num(t)
        ));
    }

    /// Opens the Manifold lab on the contact between `a` and `b`, in its poses.
    pub(crate) fn open_contact_in_lab(&mut self, a: usize, b: usize, shape_pair: u8) {
        if self.lab.is_some() {
            self.error = Some("contacts are inspected in a scene: leave the lab first".into());
            return;
        }
        let pair = match contact_pair(&self.world, a, b, shape_pair) {
            Ok(p) => p,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        let recycled;
        let note = match (pair.exact, pair.recycled_from) {
            (true, Some(n)) => {
                recycled = format!(
                    "recycled from step {n} poses: the lab shows the manifold computed then; the world kept its \
                     points and has updated only the separations since"
                );
                recycled.as_str()
            }
            (true, None) => "its manifold is the world's",
            (false, _) => "the bodies have moved since its manifold was found: start-of-step poses",
        };
        let name = pair.spec.name.clone();
        let file = PairFile { spec: pair.spec, path: None };
        self.leave_scene();
        file.restart(self);
        self.mode = RunMode::Paused;
        self.enter_lab(Box::new(ManifoldLab::on_pair(file)));
        self.notice = Some(format!("Opened {name} in the Manifold lab ({note}); Save keeps it as a pair file"));
    }

    /// Opens the 3D hull lab on the 3D dynamics lab's contact `pair`, in the poses that made it
    /// (`world3d::fixture`); Back returns to the 3D lab as it was.
    pub(crate) fn open_contact3_in_hull_lab(&mut self, pair: PairRef3) {
        let Some(lab) = self.lab_as::<World3dLab>() else {
            self.error = Some("3D contacts are inspected in the 3D dynamics lab".into());
            return;
        };
        let hulls = match contact_hulls(lab, pair) {
            Ok(h) => h,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        let path = fixture_path(&lab.world, pair);
        let note = if hulls.exact { "its narrowphase gives the world's contact" } else { "start-of-step poses" };
        let name = hulls.spec.name.clone();
        let hull_lab = Hull3dLab::on_spec(hulls.spec, path);
        self.left_lab = self.lab.take();
        self.mode = RunMode::Paused;
        self.enter_lab(Box::new(hull_lab));
        self.notice = Some(format!("Opened {name} in the 3D hull lab ({note}); Save keeps it as a hull pair file"));
    }
}
