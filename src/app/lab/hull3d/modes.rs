//! The 3D hull lab's choices: which SAT variant it runs and how it orders the axis list (what
//! the SAT found is the engine's `SatView3`).

use manifold_lab::engine::hull3d::sat::SatConfig;
use manifold_lab::engine::hull3d::trace::AxisRecord;
use manifold_lab::engine::world3d::SatChoice;
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

    /// The mode a 3D world's SAT choice runs (the same `SatConfig`).
    pub fn of(sat: SatChoice) -> SatMode {
        match sat {
            SatChoice::Fast => SatMode::Fast,
            SatChoice::Robust => SatMode::Robust,
            SatChoice::Article => SatMode::Article,
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

impl AxisSort {
    /// The order the axis list shows `axes` in: as tested, or largest separation first with
    /// the skipped axes (no separation) last, ties in test order.
    pub fn order(self, axes: &[AxisRecord]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..axes.len()).collect();
        if self == AxisSort::Separation {
            let key = |i: usize| {
                let s = axes[i].separation;
                if s.is_nan() {
                    f32::NEG_INFINITY
                } else {
                    s
                }
            };
            order.sort_by(|&i, &j| key(j).total_cmp(&key(i)));
        }
        order
    }
}
