//! The app's joint selection and joint, sleep and filter edits (the `Action`s `SelectJoint`,
//! `SetJoint`, `WakeBody` and `SetFilter`).

use crate::app::stage::Stage;
use crate::app::tools::joints::{self, JointParam};
use manifold_lab::engine::solver::JointKind;

/// A selected joint: its index, and what it joins, so the selection follows it when a broken
/// joint before it shifts the indices (and ends when it breaks itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JointSelection {
    pub index: usize,
    pub kind: JointKind,
    pub bodies: (usize, usize),
}

impl Stage {
    /// The selected joint's index, if it still exists.
    pub fn selected_joint(&self) -> Option<usize> {
        self.joint_selection.map(|s| s.index)
    }

    pub(crate) fn select_joint(&mut self, k: Option<usize>) {
        self.joint_selection = k.and_then(|k| {
            let j = self.world.joints().get(k)?;
            Some(JointSelection { index: k, kind: j.kind(), bodies: j.bodies() })
        });
        if self.joint_selection.is_some() {
            self.selection.clear();
        } else if let Some(k) = k {
            self.error = Some(format!("no joint #{k} (the world has {})", self.world.joints().len()));
        }
    }

    /// Keeps the joint selection on the same joint after a step (joints break) or a history
    /// change; clears it when that joint is gone.
    pub(crate) fn track_joint_selection(&mut self) {
        let Some(sel) = self.joint_selection else { return };
        let same =
            |k: usize| self.world.joints().get(k).is_some_and(|j| j.kind() == sel.kind && j.bodies() == sel.bodies);
        let found = if same(sel.index) { Some(sel.index) } else { (0..self.world.joints().len()).find(|&k| same(k)) };
        self.joint_selection = found.map(|index| JointSelection { index, ..sel });
    }

    /// Applies one parameter to joint `k` through `World::joint_mut`, which wakes its bodies.
    pub(crate) fn set_joint(&mut self, k: usize, param: &JointParam) {
        let Some(mut changed) = self.world.joints().get(k).cloned() else {
            self.error = Some(format!("no joint #{k} (the world has {})", self.world.joints().len()));
            return;
        };
        match joints::apply(&mut changed, param) {
            Ok(()) => {
                if let Some(j) = self.world.joint_mut(k) {
                    *j = changed;
                }
            }
            Err(e) => self.error = Some(format!("joint #{k}: {e}")),
        }
    }

    /// Sets a body's collision filter bits and wakes it, so its contacts are found again.
    pub(crate) fn set_filter(&mut self, body: usize, category_bits: u32, mask_bits: u32) {
        let Some(b) = self.world.bodies.get_mut(body) else { return };
        if !b.parts.is_empty() {
            // A body of several shapes: every shape gets the filter (the body's is their union).
            for (k, part) in b.parts.clone().into_iter().enumerate() {
                let part = manifold_lab::engine::compound::Part { category_bits, mask_bits, ..part };
                if let Err(e) = self.world.set_part(body, k, part) {
                    self.error = Some(e);
                }
            }
            return;
        }
        b.category_bits = category_bits;
        b.mask_bits = mask_bits;
        self.world.wake_body(body);
    }
}
