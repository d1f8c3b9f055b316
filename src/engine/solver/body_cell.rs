//! Solver states shared between the worker threads during a colour's pass: each row reaches
//! its bodies through a [`BodyCell`], a shared reference that permits writes, with the graph
//! colouring (`solver::graph`) as the proof that no two threads touch one moving body.
//!
//! No two constraints of a colour share a body that moves, so a colour's rows can be cut into
//! blocks and the blocks solved in any order, on any thread: each moving body is read and
//! written by exactly one row, and bodies that do not move are only read. Every row therefore
//! computes the same bits as on one thread, and the result of a step does not depend on the
//! number of threads (Box2D v3 makes the same guarantee). Colours still run one after the
//! other, and the overflow set stays on the calling thread.

use std::cell::UnsafeCell;

use super::state::SolverBody;

/// One body's solver state, writable through a shared reference.
#[repr(transparent)]
pub struct BodyCell(UnsafeCell<SolverBody>);

// SAFETY: rows only write bodies that move, and the graph colouring gives each such body to
// at most one row of a colour, while colours are solved one after another (see the module
// documentation). Bodies that do not move are only read while a colour is solved.
unsafe impl Sync for BodyCell {}

impl BodyCell {
    /// The states as cells, for as long as the exclusive borrow lasts (as `Cell::from_mut`).
    pub fn from_mut(states: &mut [SolverBody]) -> &[BodyCell] {
        // SAFETY: `BodyCell` is a transparent `UnsafeCell<SolverBody>`, which has the layout
        // of `SolverBody`, and the exclusive borrow rules out any other access meanwhile.
        unsafe { &*(states as *mut [SolverBody] as *const [BodyCell]) }
    }

    /// The state. Sound while no other thread writes this body: true of a row's bodies
    /// during its colour (see the module documentation).
    #[inline(always)]
    pub fn get(&self) -> &SolverBody {
        // SAFETY: as above; writes happen only through `set_velocity` by the row that owns
        // the body, after its reads.
        unsafe { &*self.0.get() }
    }

    /// The state's address, for the rows' vector loads and stores, under the same rules as
    /// [`BodyCell::get`] and `BodyCell::set_velocity`.
    #[inline(always)]
    pub fn as_ptr(&self) -> *mut SolverBody {
        self.0.get()
    }

    /// Stores new velocities. Only the row that owns this body in the current colour may call
    /// it, and only for a body that moves.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub fn set_velocity(&self, vx: f32, vy: f32, w: f32) {
        // SAFETY: see the `Sync` implementation: the colouring gives this body to one row.
        let s = unsafe { &mut *self.0.get() };
        s.v.x = vx;
        s.v.y = vy;
        s.w = w;
    }
}

/// Whether any constraint can change this body's velocity (the graph colours only these).
#[inline(always)]
pub fn moves(s: &SolverBody) -> bool {
    s.moves()
}
