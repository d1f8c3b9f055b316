//! The joints of one graph colour, solved in blocks on the solver's threads (Box2D v3's joint
//! blocks: `b2WarmStartJointsTask` and `b2SolveJointsTask` run per colour beside the contact
//! blocks). No two joints of a colour share a moving body, nor does a joint share one with a
//! contact of its colour (`graph`), so each joint loads its two bodies' states, solves on those
//! copies (`BodyPair`) and stores back the velocities of the bodies that move, in any order on
//! any thread, with the same bits as one thread.

use std::cell::UnsafeCell;

use super::body_cell::{moves, BodyCell};
use super::joints::{BodyPair, Joint};
use crate::engine::parallel::Workers;

/// One joint, writable through a shared reference by the one thread that solves it.
#[repr(transparent)]
pub struct JointCell(UnsafeCell<Joint>);

// SAFETY: a colour lists each joint once, and its blocks are disjoint ranges of that list, so
// each joint is reached by one thread at a time (see the module documentation).
unsafe impl Sync for JointCell {}

impl JointCell {
    /// The joints as cells, for as long as the exclusive borrow lasts (as `Cell::from_mut`).
    pub fn from_mut(joints: &mut [Joint]) -> &[JointCell] {
        // SAFETY: `JointCell` is a transparent `UnsafeCell<Joint>`, which has the layout of
        // `Joint`, and the exclusive borrow rules out any other access meanwhile.
        unsafe { &*(joints as *mut [Joint] as *const [JointCell]) }
    }
}

/// Joints in a block sent to another thread, at least (a joint's solve is a few times a
/// contact row's).
const MIN_BLOCK_JOINTS: usize = 4;

/// Calls `op` on each joint of `list` (indices into `joints`) with copies of its bodies'
/// states, then stores their velocities. With `workers` (a colour's joints, which must share
/// no moving body) in blocks on the workers when there are enough joints; without (the
/// overflow's) in order on this thread. `list` holds each joint at most once.
pub(crate) fn for_each_joint(
    workers: Option<&Workers>,
    list: &[u32],
    joints: &[JointCell],
    states: &[BodyCell],
    op: &(dyn Fn(&mut Joint, &mut BodyPair) + Sync),
) {
    let block = |r: std::ops::Range<usize>| {
        for &k in &list[r] {
            // SAFETY: joint `k` is in no other block of this list (see `JointCell`).
            let joint = unsafe { &mut *joints[k as usize].0.get() };
            let (a, b) = joint.bodies();
            let mut pair = BodyPair { a: *states[a].get(), b: *states[b].get() };
            op(joint, &mut pair);
            for (i, s) in [(a, &pair.a), (b, &pair.b)] {
                if moves(s) {
                    // SAFETY: a moving body belongs to this joint alone in its colour (see
                    // `BodyCell`); bodies that do not move are only read.
                    unsafe {
                        let p = states[i].as_ptr();
                        (*p).v = s.v;
                        (*p).w = s.w;
                    }
                }
            }
        }
    };
    match workers {
        Some(w) => w.for_each_range(list.len(), MIN_BLOCK_JOINTS, &block),
        None => block(0..list.len()),
    }
}
