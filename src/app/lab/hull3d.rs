//! The 3D hull SAT lab (seed article 001): two convex hulls from a `scenes/hulls/*.ron` file,
//! posed by dragging and trackball rotation, with every SAT axis, the best face axis of A and
//! of B, the best edge pair, the winner, the contact manifold, the MTV and both Gauss maps.
//! State and actions live here; camera math in `hull3d_camera`, gestures in `hull3d_input`,
//! drawing in `hull3d_draw`/`hull3d_gauss`, panels in `hull3d_panels`.

use super::hull3d_camera::OrbitCamera;
use super::{LabKind, LabState};
use crate::app::camera::ScreenRect;
use crate::app::state::{Action, App};
use glam::{Quat, Vec3};
use manifold_lab::engine::hull3d::gauss::{minkowski_edge_pairs, GaussMap};
use manifold_lab::engine::hull3d::sat::{collide_with, SatConfig, SeparatingAxis};
use manifold_lab::engine::hull3d::{contact_manifold, AxisKind, ContactManifold3, Hull, HullContact, Pose3, SatTrace3};
use manifold_lab::scene::{self, HullPlacement, HullShape, HullsSpec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the hull presets live.
pub const HULL_DIR: &str = "scenes/hulls";
/// The file opened by `--lab hull3d` without a file: the article's tetrahedron and cube.
pub const DEFAULT_HULLS: &str = "scenes/hulls/article_tetrahedron_cube.ron";

/// Which SAT variant the lab runs (the engine's `SatConfig` presets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SatMode {
    /// Every axis scored, edge axes oriented away from A.
    #[default]
    Robust,
    /// Article 001's code, quirks included (faces with the other hull behind are skipped).
    Article,
    /// Robust plus Gauss-map pruning of the edge pairs.
    Fast,
}

impl SatMode {
    pub const ALL: [SatMode; 3] = [SatMode::Robust, SatMode::Article, SatMode::Fast];

    pub fn config(self) -> SatConfig {
        match self {
            SatMode::Robust => SatConfig::ROBUST,
            SatMode::Article => SatConfig::ARTICLE,
            SatMode::Fast => SatConfig::FAST,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SatMode::Robust => "robust",
            SatMode::Article => "article 001",
            SatMode::Fast => "fast (Gauss pruning)",
        }
    }
}

/// How the axis list is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AxisSort {
    /// In the order the SAT tested them.
    #[default]
    TestOrder,
    /// Largest separation first (the winner on top; skipped axes last).
    Separation,
}

/// What the SAT found for the current poses (recomputed on every change).
pub struct Hull3dView {
    /// Both hulls in world space.
    pub hulls: [Hull; 2],
    pub trace: SatTrace3,
    pub result: Result<HullContact, SeparatingAxis>,
    pub manifold: Option<ContactManifold3>,
    /// Indices in `trace.axes` of the best scored face axis of A, of B, and edge pair.
    pub best: [Option<usize>; 3],
    /// A's Gauss map and −B's.
    pub gauss: [GaussMap; 2],
    /// Edge pairs whose arcs cross (Minkowski faces), with the crossing point.
    pub crossings: Vec<([usize; 2], Vec3)>,
}

impl Hull3dView {
    pub fn compute(local: &[Hull; 2], poses: &[Pose3; 2], mode: SatMode) -> Hull3dView {
        let hulls = [local[0].transformed(&poses[0]), local[1].transformed(&poses[1])];
        let mut trace = SatTrace3::default();
        let result = collide_with(&hulls[0], &hulls[1], &mode.config(), Some(&mut trace));
        let manifold = result.as_ref().ok().map(|c| contact_manifold(&hulls[0], &hulls[1], c, None));
        // The largest separation of each family, ties to the first tested (as the SAT does),
        // so the best of the winning family is the winner itself.
        let best_of = |family: fn(&AxisKind) -> bool| {
            (0..trace.axes.len()).filter(|&i| trace.axes[i].skipped.is_none() && family(&trace.axes[i].kind)).fold(
                None,
                |best: Option<usize>, i| match best {
                    Some(b) if trace.axes[b].separation >= trace.axes[i].separation => Some(b),
                    _ => Some(i),
                },
            )
        };
        let mut best = [
            best_of(|k| matches!(k, AxisKind::FaceA { .. })),
            best_of(|k| matches!(k, AxisKind::FaceB { .. })),
            best_of(|k| matches!(k, AxisKind::Edges { .. })),
        ];
        // On exact ties the engine may keep a later pair (the one realizing the separation):
        // the winner always stands for its family.
        if let Some(w) = trace.winner {
            let family = match trace.axes[w].kind {
                AxisKind::FaceA { .. } => 0,
                AxisKind::FaceB { .. } => 1,
                AxisKind::Edges { .. } => 2,
            };
            best[family] = Some(w);
        }
        let gauss = [GaussMap::of(&hulls[0]), GaussMap::of(&hulls[1]).negated()];
        let crossings = minkowski_edge_pairs(&hulls[0], &hulls[1]);
        Hull3dView { hulls, trace, result, manifold, best, gauss, crossings }
    }

    /// Index in `trace.axes` of the deciding axis: the winner, or the separating axis.
    pub fn decisive(&self) -> Option<usize> {
        self.trace.winner.or_else(|| self.trace.axes.iter().rposition(|a| a.separating))
    }
}

/// The 3D lab: the pair as loaded, the current poses, the camera and the derived view.
pub struct Hull3dLab {
    pub spec: HullsSpec,
    pub local: [Hull; 2],
    pub poses: [Pose3; 2],
    pub camera: OrbitCamera,
    pub mode: SatMode,
    pub sort: AxisSort,
    pub show_gauss: bool,
    /// Height of the ground grid (below the loaded hulls).
    pub ground: f32,
    pub view: Hull3dView,
}

impl Hull3dLab {
    pub fn new(spec: HullsSpec, vp: &ScreenRect) -> Hull3dLab {
        let local = [spec.a.shape.hull().clone(), spec.b.shape.hull().clone()];
        let poses = [spec.a.pose(), spec.b.pose()];
        let view = Hull3dView::compute(&local, &poses, SatMode::Robust);
        let ground = view.hulls.iter().flat_map(|h| h.positions()).map(|p| p.y).fold(f32::INFINITY, f32::min);
        let mut lab = Hull3dLab {
            spec,
            local,
            poses,
            camera: OrbitCamera::default(),
            mode: SatMode::Robust,
            sort: AxisSort::TestOrder,
            show_gauss: true,
            ground: (ground - 0.25).floor(),
            view,
        };
        lab.frame(vp);
        lab
    }

    fn recompute(&mut self) {
        self.view = Hull3dView::compute(&self.local, &self.poses, self.mode);
    }

    /// Points the camera at both hulls.
    pub fn frame(&mut self, vp: &ScreenRect) {
        let pts: Vec<Vec3> = self.view.hulls.iter().flat_map(|h| h.positions().iter().copied()).collect();
        let (lo, hi) = pts.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let center = 0.5 * (lo + hi);
        let radius = pts.iter().map(|p| p.distance(center)).fold(0.0, f32::max);
        self.camera.frame(vp, center, radius);
    }

    /// The pair as currently posed, for saving.
    pub fn current_spec(&self, name: &str) -> HullsSpec {
        let place = |p: &HullPlacement, pose| HullPlacement::new(p.shape.clone(), pose);
        let mut s = HullsSpec::new(name, place(&self.spec.a, self.poses[0]), place(&self.spec.b, self.poses[1]));
        s.description = self.spec.description.clone();
        s
    }

    /// Moves `hull` to `pose` (ignored when not finite).
    pub fn set_pose(&mut self, hull: usize, position: Vec3, rotation: Quat) {
        if hull < 2 && position.is_finite() && rotation.is_finite() && rotation.length() > 1e-6 {
            self.poses[hull] = Pose3::new(position, rotation.normalize());
            self.recompute();
        }
    }
}

impl LabState {
    pub fn hull3d(lab: Hull3dLab, path: Option<PathBuf>) -> LabState {
        let mut s = LabState::with(LabKind::Hull3d, None, path, None);
        s.hull3d = Some(Box::new(lab));
        s
    }
}

impl App {
    /// The open 3D hull lab, if any.
    pub fn hull3d(&self) -> Option<&Hull3dLab> {
        self.lab.as_ref().and_then(|l| l.hull3d.as_deref())
    }

    fn hull3d_mut(&mut self) -> Option<&mut Hull3dLab> {
        self.lab.as_mut().and_then(|l| l.hull3d.as_deref_mut())
    }

    fn open_hull3d(&mut self, path: &Path) {
        match scene::load_hulls(path) {
            Ok(spec) => {
                let lab = Hull3dLab::new(spec, &self.viewport);
                self.enter_lab(LabState::hull3d(lab, Some(path.to_path_buf())));
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Carries out the 3D lab's actions, and the view actions while it is open; returns the
    /// action when it is not one of them.
    pub(in crate::app) fn apply_hull3d(&mut self, action: Action) -> Option<Action> {
        let vp = self.viewport;
        match action {
            Action::OpenLab { kind: LabKind::Hull3d, pair } => {
                self.open_hull3d(&pair.unwrap_or_else(|| PathBuf::from(DEFAULT_HULLS)));
                return None;
            }
            Action::LoadHulls(path) => {
                self.open_hull3d(&path);
                return None;
            }
            _ => {}
        }
        let Some(lab) = self.hull3d_mut() else {
            return match action {
                Action::SaveHulls(_)
                | Action::SetHullPose { .. }
                | Action::OrbitHullCamera { .. }
                | Action::SetHullShape { .. }
                | Action::SetHullSat(_)
                | Action::SortHullAxes(_)
                | Action::ShowGaussMaps(_) => {
                    self.error = Some("open the 3D hull lab first".into());
                    None
                }
                other => Some(other),
            };
        };
        match action {
            Action::SetHullPose { hull, position, rotation } => lab.set_pose(hull, position, rotation),
            Action::OrbitHullCamera { yaw, pitch } => lab.camera.orbit(yaw, pitch),
            Action::ZoomAt { screen, factor } => lab.camera.zoom_at(&vp, screen, factor),
            Action::PanPixels(d) => lab.camera.pan_pixels(&vp, d),
            Action::FrameAll => lab.frame(&vp),
            Action::SetHullSat(mode) => {
                lab.mode = mode;
                lab.recompute();
            }
            Action::SortHullAxes(sort) => lab.sort = sort,
            Action::ShowGaussMaps(on) => lab.show_gauss = on,
            Action::Restart => {
                lab.local = [lab.spec.a.shape.hull().clone(), lab.spec.b.shape.hull().clone()];
                lab.poses = [lab.spec.a.pose(), lab.spec.b.pose()];
                lab.recompute();
            }
            Action::SetHullShape { hull, shape } => match HullShape::try_from(shape) {
                Ok(s) if hull < 2 => {
                    lab.local[hull] = s.hull().clone();
                    let place = if hull == 0 { &mut lab.spec.a } else { &mut lab.spec.b };
                    place.shape = s;
                    lab.recompute();
                }
                Ok(_) => self.error = Some(format!("no hull {hull}: 0 is A, 1 is B")),
                Err(e) => self.error = Some(e),
            },
            Action::SaveHulls(path) => {
                let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                match scene::save_hulls(&lab.current_spec(&name), &path) {
                    Ok(()) => self.notice = Some(format!("Saved {}", path.display())),
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            other => return Some(other),
        }
        None
    }
}
