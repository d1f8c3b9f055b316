//! The worker team every parallel stage of a step shares (broadphase, narrowphase, solver,
//! integration; Box2D v3's `b2SolverStage` blocks and its spinning workers, `solver.c`): each
//! stage's items cut into blocks that the calling thread and the team's threads claim.
//!
//! A step runs some eighty stages (each sub-step's warm start, solve and relax passes over six
//! or so colours), each a few dozen microseconds long, so waking a sleeping thread per stage
//! would cost as much as the stage. As in Box2D v3 the workers therefore spin while a step
//! is solved and sleep between steps (`team`).

use super::team::{ActiveSpan, Team};

/// Fewer bodies than this in a block of per-body work are not worth sending to another thread.
pub const BODY_BLOCK: usize = 64;

/// Fewer contacts than this in a block of per-contact work are not worth sending to another
/// thread.
pub const CONTACT_BLOCK: usize = 32;

/// Blocks per thread in one colour, so that a thread that finishes early takes another.
const BLOCKS_PER_THREAD: usize = 4;

/// The solver's threads: none of its own for one thread, else a [`Team`] of `threads - 1`
/// workers beside the calling thread. A copy of a world gets no team of its own until it
/// steps (a team is not shared between worlds).
#[derive(Debug, Default)]
pub struct Workers {
    team: Option<Team>,
}

impl Clone for Workers {
    fn clone(&self) -> Self {
        Workers::default()
    }
}

impl Workers {
    /// Makes sure the team has `threads` threads in all (1 or less: no team). If the system
    /// refuses to start threads, the solver runs on the calling thread, which gives the same
    /// result.
    pub fn ensure(&mut self, threads: usize) {
        if threads <= 1 {
            self.team = None;
            return;
        }
        if self.threads() == threads {
            return;
        }
        self.team = Team::new(threads - 1);
    }

    /// Threads that solve a colour, the calling one included.
    pub fn threads(&self) -> usize {
        self.team.as_ref().map_or(1, |t| t.workers() + 1)
    }

    /// Runs `op` with the workers spinning, ready for the colours' blocks, and lets them sleep
    /// again afterwards.
    pub fn run<R>(&self, op: impl FnOnce() -> R) -> R {
        match &self.team {
            Some(team) => team.active(op),
            None => op(),
        }
    }

    /// Keeps the workers spinning until the span is dropped (nothing without a team).
    pub fn span(&self) -> Option<ActiveSpan> {
        self.team.as_ref().map(Team::span)
    }

    /// Calls `f(start, chunk)` on consecutive chunks of `items` (`chunk` starting at index
    /// `start`) that together cover it once: in blocks of at least `min_block` on the team's
    /// threads, or as one chunk on this thread when there are too few items or no team.
    pub fn for_each_chunk<T: Send>(&self, items: &mut [T], min_block: usize, f: &(impl Fn(usize, &mut [T]) + Sync)) {
        let items = SendPtr(items.as_mut_ptr(), items.len());
        self.for_each_range(items.1, min_block, &|r| {
            // SAFETY: the ranges are disjoint and within `items`, which stays exclusively
            // borrowed until every range is done.
            f(r.start, unsafe { items.slice(r) })
        });
    }

    /// [`Workers::for_each_chunk`] over two slices of one length, chunked alike.
    pub fn for_each_chunk2<A: Send, B: Send>(
        &self,
        a: &mut [A],
        b: &mut [B],
        min_block: usize,
        f: &(impl Fn(usize, &mut [A], &mut [B]) + Sync),
    ) {
        assert_eq!(a.len(), b.len(), "for_each_chunk2 needs slices of one length");
        let a = SendPtr(a.as_mut_ptr(), a.len());
        let b = SendPtr(b.as_mut_ptr(), b.len());
        self.for_each_range(a.1, min_block, &|r| {
            // SAFETY: as in `for_each_chunk`, for each of the two slices.
            f(r.start, unsafe { a.slice(r.clone()) }, unsafe { b.slice(r) })
        });
    }

    /// [`Workers::for_each_chunk`] over three slices of one length, chunked alike.
    pub fn for_each_chunk3<A: Send, B: Send, C: Send>(
        &self,
        (a, b, c): (&mut [A], &mut [B], &mut [C]),
        min_block: usize,
        f: &(impl Fn(usize, &mut [A], &mut [B], &mut [C]) + Sync),
    ) {
        assert!(a.len() == b.len() && b.len() == c.len(), "for_each_chunk3 needs slices of one length");
        let (a, b, c) =
            (SendPtr(a.as_mut_ptr(), a.len()), SendPtr(b.as_mut_ptr(), b.len()), SendPtr(c.as_mut_ptr(), c.len()));
        self.for_each_range(a.1, min_block, &|r| {
            // SAFETY: as in `for_each_chunk`, for each of the three slices.
            f(r.start, unsafe { a.slice(r.clone()) }, unsafe { b.slice(r.clone()) }, unsafe { c.slice(r) })
        });
    }

    /// Calls `f` on disjoint ranges covering `0..len`, as `for_each_chunk` cuts them.
    pub fn for_each_range(&self, len: usize, min_block: usize, f: &(dyn Fn(std::ops::Range<usize>) + Sync)) {
        let min_block = min_block.max(1);
        let team = match &self.team {
            Some(team) if len >= 2 * min_block => team,
            _ => return f(0..len),
        };
        let blocks = (self.threads() * BLOCKS_PER_THREAD).min(len / min_block).max(1);
        let block = len.div_ceil(blocks);
        team.stage(len.div_ceil(block), &|k| f(k * block..((k + 1) * block).min(len)));
    }
}

/// A slice's start and length, sent to the team's threads (each gets disjoint ranges of it).
struct SendPtr<T>(*mut T, usize);

impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SendPtr<T> {}

// SAFETY: only used by the `for_each_chunk` functions, whose ranges are disjoint.
unsafe impl<T: Send> Send for SendPtr<T> {}
unsafe impl<T: Send> Sync for SendPtr<T> {}

impl<T> SendPtr<T> {
    /// The items of `r`.
    ///
    /// # Safety
    /// `r` lies within the slice, the slice is still exclusively borrowed by the caller, and
    /// no other call holds an overlapping range at the same time.
    unsafe fn slice<'a>(self, r: std::ops::Range<usize>) -> &'a mut [T] {
        debug_assert!(r.start <= r.end && r.end <= self.1);
        unsafe { std::slice::from_raw_parts_mut(self.0.add(r.start), r.end - r.start) }
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
                let add = |_: usize, chunk: &mut [u32]| chunk.iter_mut().for_each(|r| *r += 1);
                w.run(|| w.for_each_chunk(&mut rows, 8, &add));
                w.for_each_chunk(&mut rows, 8, &add);
                assert!(rows.iter().all(|&r| r == 2), "{threads} threads, {n} rows");
            }
        }
    }

    #[test]
    fn chunks_cover_the_items_once_with_their_start_indices() {
        for threads in [1, 2, 3] {
            let mut w = Workers::default();
            w.ensure(threads);
            for n in [0, 1, 7, 63, 64, 65, 1000] {
                let mut a = vec![0usize; n];
                let mut b = vec![0u8; n];
                w.run(|| {
                    w.for_each_chunk(&mut a, 4, &|start, chunk| {
                        for (i, x) in (start..).zip(chunk) {
                            *x += i + 1;
                        }
                    });
                    w.for_each_chunk2(&mut a, &mut b, 4, &|start, xs, ys| {
                        for ((i, x), y) in (start..).zip(xs).zip(ys) {
                            assert_eq!(*x, i + 1);
                            *y += 1;
                        }
                    });
                });
                assert!(a.iter().enumerate().all(|(i, &x)| x == i + 1), "{threads} threads, {n} items");
                assert!(b.iter().all(|&y| y == 1), "{threads} threads, {n} items");
            }
        }
    }
}
