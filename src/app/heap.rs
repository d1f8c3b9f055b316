//! Keeps freed heap memory for reuse while the window runs (called before it opens).
//!
//! A software renderer (Mesa's llvmpipe, what a machine without a GPU draws with) allocates
//! and frees its vertex and bin storage every frame. glibc serves large blocks with fresh
//! `mmap`s and returns the top of the heap with `brk` as soon as it is free, so every frame
//! paid for zeroed pages again: a profile of the window drawing the default scene spent about
//! 40 % of the main thread in the kernel's page-fault path. Raising both thresholds keeps
//! those blocks in the heap.

/// glibc's largest accepted `M_MMAP_THRESHOLD` on 64-bit targets (32 MiB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 32 << 20;

/// Sets the allocator's thresholds (Linux with glibc; elsewhere nothing).
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes allocator parameters (under the allocator's own lock).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 2 * MMAP_THRESHOLD);
    }
}
