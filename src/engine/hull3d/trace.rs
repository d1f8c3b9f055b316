//! What the hull SAT tested, as plain data for a step-by-step view: every axis (article 001's
//! "Each face normal must be tested as a separating axis. Each edge must be tested against all
//! the non-parallel edges in the other hull") with its separation, which one separated (early
//! out) or which one won.
//!
//! The SAT is generic over a [`Recorder`] of [`SatStep3`] (the protocol of `engine::trace`),
//! whose `ENABLED` constant guards every recording, so the untraced path (a `None` trace
//! dispatches to `NoTrace`) compiles to no extra work.

use crate::engine::trace::Recorder;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Which family an axis belongs to (the article's `TYPE_A`, `TYPE_B`, `TYPE_E`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AxisKind {
    /// Face `face` of A: its outward normal, B's vertices projected on it.
    FaceA { face: usize },
    /// Face `face` of B: its outward normal, A's vertices projected on it.
    FaceB { face: usize },
    /// Edge `edge_a` of A × edge `edge_b` of B, oriented as configured.
    Edges { edge_a: usize, edge_b: usize },
}

impl AxisKind {
    /// A short name, as the lab shows it: `A face 3`, `B face 0`, `edges 1 x 2`.
    pub fn name(&self) -> String {
        match self {
            AxisKind::FaceA { face } => format!("A face {face}"),
            AxisKind::FaceB { face } => format!("B face {face}"),
            AxisKind::Edges { edge_a, edge_b } => format!("edges {edge_a} x {edge_b}"),
        }
    }

    /// The family: 0 for faces of A, 1 for faces of B, 2 for edge pairs.
    pub fn family(&self) -> usize {
        match self {
            AxisKind::FaceA { .. } => 0,
            AxisKind::FaceB { .. } => 1,
            AxisKind::Edges { .. } => 2,
        }
    }
}

/// Why an axis was looked at but not scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AxisSkip {
    /// The other hull lies entirely behind this face (the article's `continue`).
    Behind,
    /// The edges are (nearly) parallel: `|ea × eb|` below the configured tolerance.
    Parallel,
    /// The edge pair does not form a face of the Minkowski difference (Gauss-map pruning).
    NotMinkowskiFace,
}

/// One tested axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AxisRecord {
    pub kind: AxisKind,
    /// The unit axis (zero for skipped parallel pairs).
    pub axis: Vec3,
    /// The separation along it (negative = overlap depth); NaN when skipped.
    pub separation: f32,
    /// For face axes, the other hull's deepest vertex (the article's `support`).
    pub support: Option<usize>,
    pub skipped: Option<AxisSkip>,
    /// This axis separates the hulls (the SAT stopped here).
    pub separating: bool,
}

/// Every axis of one hull–hull SAT, in test order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SatTrace3 {
    pub axes: Vec<AxisRecord>,
    /// Index in `axes` of the winning axis (largest separation) when the hulls overlap.
    pub winner: Option<usize>,
}

impl SatTrace3 {
    pub fn clear(&mut self) {
        self.axes.clear();
        self.winner = None;
    }

    /// The axis that separated the hulls, if the SAT found one.
    pub fn separating_axis(&self) -> Option<&AxisRecord> {
        self.axes.iter().rev().find(|a| a.separating)
    }

    /// The axes that were scored (not skipped).
    pub fn scored(&self) -> impl Iterator<Item = &AxisRecord> {
        self.axes.iter().filter(|a| a.skipped.is_none())
    }
}

/// What the SAT tells its [`Recorder`]: each axis as it is tested, then the winner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SatStep3 {
    Axis(AxisRecord),
    Winner(AxisKind),
}

impl Recorder<SatStep3> for SatTrace3 {
    const ENABLED: bool = true;
    fn record(&mut self, step: SatStep3) {
        match step {
            SatStep3::Axis(record) => self.axes.push(record),
            SatStep3::Winner(kind) => {
                self.winner = self.axes.iter().position(|a| a.kind == kind && a.skipped.is_none())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hull3d::sat::{collide_with, SatConfig};
    use crate::engine::hull3d::{shapes, Pose3};
    use glam::Quat;

    #[test]
    fn every_axis_is_recorded_and_the_winner_marked() {
        let a = shapes::cube(1.0);
        let b = shapes::cube(1.0).transformed(&Pose3::new(Vec3::new(1.5, 0.2, 0.1), Quat::from_rotation_z(0.3)));
        let mut t = SatTrace3::default();
        let c = collide_with(&a, &b, &SatConfig::ROBUST, Some(&mut t)).unwrap();
        assert_eq!(t.axes.len(), 6 + 6 + 12 * 12);
        assert!(t.separating_axis().is_none());
        let w = t.axes[t.winner.unwrap()];
        assert_eq!(w.separation, c.separation);
        assert!(t.scored().all(|r| r.separation <= w.separation));
        // Gauss-map pruning marks the pairs it skips.
        collide_with(&a, &b, &SatConfig::FAST, Some(&mut t)).unwrap();
        assert!(t.axes.iter().any(|r| r.skipped == Some(AxisSkip::NotMinkowskiFace)));
    }

    #[test]
    fn separation_stops_at_the_separating_axis() {
        let a = shapes::cube(1.0);
        let b = shapes::cube(1.0).transformed(&Pose3::from_translation(Vec3::new(2.5, 0.0, 0.0)));
        let mut t = SatTrace3::default();
        let sep = collide_with(&a, &b, &SatConfig::ROBUST, Some(&mut t)).unwrap_err();
        let last = t.axes.last().unwrap();
        assert!(last.separating && t.winner.is_none());
        assert_eq!((last.kind, last.separation), (AxisKind::FaceA { face: 1 }, 0.5));
        assert_eq!(sep.axis, Vec3::X);
    }
}
