//! A team of spinning worker threads that run one stage at a time (Box2D v3's solver workers:
//! `b2SolverStage`, `b2ExecuteMainStage`, `b2SolverTask` in `solver.c`).
//!
//! The calling thread publishes a stage (a block count and a function of the block index),
//! claims blocks itself beside the workers, and returns when every block is done. Blocks are
//! claimed from one atomic word that holds the stage's generation, its block count and the
//! next free block, so a worker that arrives late, still looking at a finished stage, can
//! never claim a block of the next one. While the team is [`Team::active`] the workers spin
//! between stages (a stage is tens of microseconds; waking a sleeping thread costs about as
//! much); otherwise they sleep.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// Bits of the stage word: generation (24) | block count (20) | next block (20).
const BLOCK_BITS: u32 = 20;
const BLOCK_MASK: u64 = (1 << BLOCK_BITS) - 1;
const GEN_MASK: u64 = (1 << 24) - 1;
/// Spins between looks at the stage word before yielding the core to another thread (keeps
/// a machine with more threads than cores moving).
const SPINS_BEFORE_YIELD: u32 = 256;

fn generation(word: u64) -> u64 {
    word >> (2 * BLOCK_BITS)
}

fn count(word: u64) -> usize {
    ((word >> BLOCK_BITS) & BLOCK_MASK) as usize
}

fn next(word: u64) -> usize {
    (word & BLOCK_MASK) as usize
}

fn pack(generation: u64, count: usize, next: usize) -> u64 {
    ((generation & GEN_MASK) << (2 * BLOCK_BITS)) | ((count as u64) << BLOCK_BITS) | next as u64
}

/// The current stage's work, on the publishing thread's stack.
struct Job<'a> {
    run: &'a (dyn Fn(usize) + Sync),
}

/// What the threads share.
struct Shared {
    /// Generation, block count and next unclaimed block of the current stage.
    stage: AtomicU64,
    /// Blocks of the current stage finished.
    done: AtomicUsize,
    /// The current stage's `Job`, valid while a block of it is unfinished.
    job: AtomicPtr<()>,
    /// Workers spin while set, sleep while clear.
    active: AtomicBool,
    quit: AtomicBool,
    /// A block panicked; the publishing thread panics in turn.
    poisoned: AtomicBool,
    /// A thread is publishing a stage (one at a time).
    publishing: AtomicBool,
}

impl Shared {
    /// Claims and runs blocks of stage `generation` until none is left.
    fn work(&self, generation_: u64) {
        loop {
            let word = self.stage.load(Ordering::Acquire);
            if generation(word) != generation_ || next(word) >= count(word) {
                return;
            }
            if self.stage.compare_exchange_weak(word, word + 1, Ordering::AcqRel, Ordering::Relaxed).is_err() {
                continue;
            }
            // SAFETY: the claimed block is unfinished, so the publisher is still waiting in
            // `Team::stage` and its `Job` is alive; the acquire on the claim saw the job's store.
            let job = unsafe { &*(self.job.load(Ordering::Relaxed) as *const Job) };
            if catch_unwind(AssertUnwindSafe(|| (job.run)(next(word)))).is_err() {
                self.poisoned.store(true, Ordering::Relaxed);
            }
            self.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// Worker threads beside the calling one; see the module documentation.
pub struct Team {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Team {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Team").field("workers", &self.handles.len()).finish()
    }
}

impl Team {
    /// A team of `workers` threads; `None` if the system would not start them.
    pub fn new(workers: usize) -> Option<Team> {
        let shared = Arc::new(Shared {
            stage: AtomicU64::new(0),
            done: AtomicUsize::new(0),
            job: AtomicPtr::new(std::ptr::null_mut()),
            active: AtomicBool::new(false),
            quit: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
            publishing: AtomicBool::new(false),
        });
        let mut team = Team { shared, handles: Vec::with_capacity(workers) };
        for k in 0..workers {
            let shared = Arc::clone(&team.shared);
            let handle = thread::Builder::new().name(format!("solver-{k}")).spawn(move || worker(&shared)).ok()?;
            team.handles.push(handle);
        }
        Some(team)
    }

    /// Worker threads, the calling thread not counted.
    pub fn workers(&self) -> usize {
        self.handles.len()
    }

    /// Runs `op` with the workers spinning, then lets them sleep (unless an enclosing call
    /// keeps them active).
    pub fn active<R>(&self, op: impl FnOnce() -> R) -> R {
        struct Idle<'a>(&'a AtomicBool);
        impl Drop for Idle<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Relaxed);
            }
        }
        if self.shared.active.swap(true, Ordering::Relaxed) {
            return op();
        }
        let _idle = Idle(&self.shared.active);
        for h in &self.handles {
            h.thread().unpark();
        }
        op()
    }

    /// Keeps the workers spinning until the returned span is dropped, as [`Team::active`] does
    /// for one closure; for a stretch of code that borrows what owns the team (a whole step,
    /// whose parallel passes would otherwise each wake the workers again).
    pub fn span(&self) -> ActiveSpan {
        if self.shared.active.swap(true, Ordering::Relaxed) {
            return ActiveSpan(None);
        }
        for h in &self.handles {
            h.thread().unpark();
        }
        ActiveSpan(Some(Arc::clone(&self.shared)))
    }

    /// Runs `run(k)` for every block `k` in `0..blocks`, each exactly once, on this thread and
    /// the workers, and returns when all are done.
    pub fn stage(&self, blocks: usize, run: &(dyn Fn(usize) + Sync)) {
        assert!(blocks as u64 <= BLOCK_MASK, "too many blocks in one stage");
        let s = &*self.shared;
        assert!(!s.publishing.swap(true, Ordering::Acquire), "two threads published stages on one team");
        let job = Job { run };
        s.job.store(&job as *const Job as *mut (), Ordering::Relaxed);
        s.done.store(0, Ordering::Relaxed);
        let generation_ = (generation(s.stage.load(Ordering::Relaxed)) + 1) & GEN_MASK;
        s.stage.store(pack(generation_, blocks, 0), Ordering::Release);
        s.work(generation_);
        let mut spins = 0;
        while s.done.load(Ordering::Acquire) < blocks {
            spin_or_yield(&mut spins);
        }
        s.publishing.store(false, Ordering::Release);
        if s.poisoned.swap(false, Ordering::Relaxed) {
            panic!("a block of a solver stage panicked");
        }
    }
}

/// Workers kept spinning (see [`Team::span`]); they may sleep again when it is dropped,
/// unless an enclosing span or `Team::active` keeps them active.
pub struct ActiveSpan(Option<Arc<Shared>>);

impl Drop for ActiveSpan {
    fn drop(&mut self) {
        if let Some(shared) = &self.0 {
            shared.active.store(false, Ordering::Relaxed);
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        self.shared.quit.store(true, Ordering::Relaxed);
        for h in self.handles.drain(..) {
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

fn spin_or_yield(spins: &mut u32) {
    *spins += 1;
    if (*spins).is_multiple_of(SPINS_BEFORE_YIELD) {
        thread::yield_now();
    } else {
        std::hint::spin_loop();
    }
}

/// A worker: waits for each new stage (spinning while the team is active, else asleep) and
/// helps finish it.
fn worker(s: &Shared) {
    let mut seen = generation(s.stage.load(Ordering::Acquire));
    let mut spins = 0;
    loop {
        if s.quit.load(Ordering::Relaxed) {
            return;
        }
        let word = s.stage.load(Ordering::Acquire);
        if generation(word) != seen {
            seen = generation(word);
            s.work(seen);
            spins = 0;
        } else if s.active.load(Ordering::Relaxed) {
            spin_or_yield(&mut spins);
        } else {
            thread::park();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_runs_once_per_stage_over_many_stages() {
        for workers in [1, 2, 3] {
            let team = Team::new(workers).unwrap();
            let hits: Vec<AtomicUsize> = (0..64).map(|_| AtomicUsize::new(0)).collect();
            team.active(|| {
                for stage in 0..2000 {
                    let blocks = stage % 64;
                    team.stage(blocks, &|k| {
                        hits[k].fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
            // Outside `active` the workers sleep and the caller does the work alone.
            team.stage(64, &|k| {
                hits[k].fetch_add(1, Ordering::Relaxed);
            });
            for (k, h) in hits.iter().enumerate() {
                let want = (0..2000).filter(|s| s % 64 > k).count() + 1;
                assert_eq!(h.load(Ordering::Relaxed), want, "{workers} workers, block {k}");
            }
        }
    }

    #[test]
    fn a_panicking_block_is_reported_to_the_caller() {
        let team = Team::new(1).unwrap();
        let r = catch_unwind(AssertUnwindSafe(|| {
            team.active(|| {
                team.stage(16, &|k| {
                    if k == 7 {
                        panic!("block 7");
                    }
                })
            })
        }));
        assert!(r.is_err());
        // The team still works afterwards.
        let n = AtomicUsize::new(0);
        team.active(|| {
            team.stage(16, &|_| {
                n.fetch_add(1, Ordering::Relaxed);
            })
        });
        assert_eq!(n.load(Ordering::Relaxed), 16);
    }

    #[test]
    fn a_nested_activation_leaves_the_workers_active() {
        let team = Team::new(1).unwrap();
        team.active(|| {
            team.active(|| {});
            assert!(team.shared.active.load(Ordering::Relaxed));
        });
        assert!(!team.shared.active.load(Ordering::Relaxed));
    }

    #[test]
    fn a_span_keeps_the_workers_active_until_dropped_and_nests() {
        let team = Team::new(1).unwrap();
        let span = team.span();
        team.active(|| {});
        let inner = team.span();
        drop(inner);
        assert!(team.shared.active.load(Ordering::Relaxed), "inner activations leave the span's");
        // Stages run as usual while the span holds the workers.
        let sum = AtomicUsize::new(0);
        team.stage(8, &|k| {
            sum.fetch_add(k, Ordering::Relaxed);
        });
        assert_eq!(sum.load(Ordering::Relaxed), 28);
        drop(span);
        assert!(!team.shared.active.load(Ordering::Relaxed));
    }

    #[test]
    fn the_stage_word_packs_and_wraps() {
        let w = pack(GEN_MASK, 5, 3);
        assert_eq!((generation(w), count(w), next(w)), (GEN_MASK, 5, 3));
        assert_eq!(generation(pack(GEN_MASK + 1, 0, 0)), 0);
    }
}
