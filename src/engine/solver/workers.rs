//! Solving one graph colour on several threads (Box2D v3's `b2SolverStage` blocks, with rayon
//! in place of Box2D's own task system).
//!
//! No two constraints of a colour share a body that moves (`solver::graph`), so a colour's rows
//! can be cut into blocks and the blocks solved in any order, on any thread: each moving body
//! is read and written by exactly one row, and bodies that do not move are only read. Every
//! row therefore computes the same bits as on one thread, and the result of a step does not
//! depend on the number of threads (Box2D v3 makes the same guarantee). Colours still run one
//! after the other, and the overflow set stays on the calling thread.
//!
//! The rows reach the bodies through [`BodyCell`]s: shared references to the solver states
//! that permit writes, with the colouring as the proof that no two threads touch one body.

use rayon::prelude::*;
use std::cell::UnsafeCell;
use std::sync::Arc;

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
    /// [`BodyCell::get`] and [`BodyCell::set_velocity`].
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

/// Fewer rows than this in a block are not worth sending to another thread.
pub const MIN_BLOCK_ROWS: usize = 8;

/// Blocks per thread in one colour, so that a thread that finishes early takes another.
const BLOCKS_PER_THREAD: usize = 4;

/// The solver's threads: none of its own for one thread, else a rayon pool of `threads`.
#[derive(Clone, Debug, Default)]
pub struct Workers {
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Workers {
    /// Makes sure the pool has `threads` threads (1 or less: no pool). If the system refuses
    /// to start threads, the solver runs on the calling thread, which gives the same result.
    pub fn ensure(&mut self, threads: usize) {
        if threads <= 1 {
            self.pool = None;
            return;
        }
        if self.pool.as_ref().is_some_and(|p| p.current_num_threads() == threads) {
            return;
        }
        self.pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|k| format!("solver-{k}"))
            .build()
            .ok()
            .map(Arc::new);
    }

    /// Threads that solve a colour.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }

    /// Runs `op` inside the pool, so that the colours' parallel loops start from one of its
    /// threads (cheaper than sending each colour to the pool from outside).
    pub fn run<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(pool) => pool.install(op),
            None => op(),
        }
    }

    /// Calls `f` on every row of one colour: in blocks on the pool's threads when there are
    /// enough rows, else in order on this thread. The rows must share no moving body.
    pub fn for_each_in_color<T: Send>(&self, rows: &mut [T], f: &(impl Fn(&mut T) + Sync)) {
        let threads = self.threads();
        if threads <= 1 || rows.len() < 2 * MIN_BLOCK_ROWS {
            rows.iter_mut().for_each(f);
            return;
        }
        let blocks = (threads * BLOCKS_PER_THREAD).min(rows.len() / MIN_BLOCK_ROWS).max(1);
        let block = rows.len().div_ceil(blocks);
        rows.par_chunks_mut(block).for_each(|chunk| chunk.iter_mut().for_each(f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_has_the_asked_threads_and_one_means_none() {
        let mut w = Workers::default();
        assert_eq!(w.threads(), 1);
        w.ensure(3);
        assert_eq!(w.threads(), 3);
        w.ensure(2);
        assert_eq!(w.threads(), 2);
        w.ensure(1);
        assert_eq!(w.threads(), 1);
    }

    #[test]
    fn every_row_is_visited_once_on_any_thread_count() {
        for threads in [1, 2, 3] {
            let mut w = Workers::default();
            w.ensure(threads);
            for n in [0, 1, 15, 16, 17, 100, 1000] {
                let mut rows = vec![0u32; n];
                w.run(|| w.for_each_in_color(&mut rows, &|r: &mut u32| *r += 1));
                assert!(rows.iter().all(|&r| r == 1), "{threads} threads, {n} rows");
            }
        }
    }
}
