//! What a recording holds besides the scene: each branch's edits stamped with the step they
//! were made at. A new branch (an edit at a past step, `Timeline::edited`) inherits its
//! parent's edits up to the fork. Shared by the 2D scene's recordings (actions, `record`) and
//! the 3D lab's (settings and water edits, `record3`).

use manifold_lab::engine::timeline::{Timed, Timeline};

/// An edit with the step it was made at (before that step's simulation).
pub trait Stamp: Clone {
    fn step(&self) -> u64;
}

impl Stamp for super::record::Stamped {
    fn step(&self) -> u64 {
        self.step
    }
}

impl Stamp for super::record3::Stamped3 {
    fn step(&self) -> u64 {
        self.step
    }
}

/// Each branch's edits, by branch index.
#[derive(Clone, Debug)]
pub struct BranchLogs<T> {
    logs: Vec<Vec<T>>,
}

impl<T: Stamp> Default for BranchLogs<T> {
    fn default() -> Self {
        BranchLogs { logs: vec![Vec::new()] }
    }
}

impl<T: Stamp> BranchLogs<T> {
    /// Records `edit` on the timeline's current branch.
    pub fn push<W: Timed>(&mut self, line: &Timeline<W>, edit: T) {
        self.sync(line);
        self.logs[line.current()].push(edit);
    }

    /// Gives every new branch its log: the parent's edits up to the fork.
    fn sync<W: Timed>(&mut self, line: &Timeline<W>) {
        while self.logs.len() < line.branches().len() {
            let inherited = self.up_to(line, self.logs.len(), u64::MAX);
            self.logs.push(inherited);
        }
    }

    /// The edits of `branch` made at steps up to `end`.
    pub fn up_to<W: Timed>(&self, line: &Timeline<W>, branch: usize, end: u64) -> Vec<T> {
        match self.logs.get(branch) {
            Some(log) => log.iter().filter(|e| e.step() <= end).cloned().collect(),
            None => match line.branch(branch).and_then(|b| b.parent) {
                Some((p, s)) => self.up_to(line, p, s.min(end)),
                None => Vec::new(),
            },
        }
    }
}
