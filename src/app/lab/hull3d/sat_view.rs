//! What the 3D hull lab shows for the current poses: both hulls in world space, the SAT trace
//! and result, the contact manifold, the best axis of each family, the Gauss maps and their
//! crossings; and the lab's choices of SAT variant and axis order.

use glam::Vec3;
use manifold_lab::engine::hull3d::gauss::{minkowski_edge_pairs, GaussMap};
use manifold_lab::engine::hull3d::sat::{collide_with, SatConfig, SeparatingAxis};
use manifold_lab::engine::hull3d::{contact_manifold, AxisKind, ContactManifold3, Hull, HullContact, Pose3, SatTrace3};
use serde::{Deserialize, Serialize};

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
