//! Software prefetch for the passes that walk the contact list. A contact is five cache lines
//! (`Contact` is 320 bytes, 64-aligned), so a pass that reads one or two fields of each
//! contact strides 320 bytes at a time; the hardware prefetcher does not follow that stride
//! far enough ahead, and such a pass waited on memory for most of its time (the pair/contact
//! merge of the narrowphase: two thirds of its samples on the load of `contact.a`). Asking
//! for the contact a few places ahead hides that latency. Hints only: no effect on results.

/// How many contacts ahead a pass asks for the one it will read.
pub const CONTACTS_AHEAD: usize = 8;

/// Asks the memory system for every cache line of `x`.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    prefetch_bytes(x, std::mem::size_of::<T>());
}

/// Asks the memory system for the cache lines of the first `bytes` bytes of `x` (at most
/// its size).
#[inline(always)]
pub fn prefetch_bytes<T>(x: &T, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = x as *const T as *const i8;
        for offset in (0..bytes.min(std::mem::size_of::<T>())).step_by(64) {
            // SAFETY: a prefetch never faults, and `p + offset` stays within `x`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (x, bytes);
}

/// Asks for the first cache line of `items[i]`, if there is one.
#[inline(always)]
pub fn prefetch_head<T>(items: &[T], i: usize) {
    if let Some(x) = items.get(i) {
        prefetch_bytes(x, 1);
    }
}
