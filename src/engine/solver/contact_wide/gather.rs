//! Gathering a row's bodies into lanes and scattering their new velocities back (Box2D v3's
//! `b2GatherBodies` and `b2ScatterBodies`): transposes of the bodies' 32-byte states, SSE2 four
//! bodies at a time on x86_64 ([`Wide`]) or AVX eight at a time ([`Avx`]); field by field
//! elsewhere.

use super::{BodyCell, Vector, Wide, LANES};

/// The solver state of one body per lane (Box2D v3's `b2BodyStateW`).
pub(super) struct Bodies<V> {
    pub(super) vx: V,
    pub(super) vy: V,
    pub(super) w: V,
    /// Bit `k` set: lane `k`'s body does not move (its `SolverBody::flags` are 0, not
    /// `MOVES`), so its velocity is not written back. A mask rather than the flags' lanes: one
    /// vector register fewer held through the row.
    pub(super) still: u32,
    pub(super) dpx: V,
    pub(super) dpy: V,
    pub(super) qc: V,
    pub(super) qs: V,
}

/// Lanes that can gather and scatter a row's bodies.
pub(super) trait Gather: Vector {
    fn gather(states: &[BodyCell], idx: &[u32; LANES]) -> Bodies<Self>;
    /// Writes the velocities back to the bodies that move. A body that does not move (and the
    /// dummy body of empty lanes) may sit in many rows of a colour, solved on several threads,
    /// so it is only read; zero inverse masses leave its velocity unchanged anyway.
    fn scatter(states: &[BodyCell], idx: &[u32; LANES], b: &Bodies<Self>);
}

/// Pointer to the state of body `i`. Unchecked: a row's bodies are checked against the states
/// when it is prepared (`RowSetup::fill`), and the states do not change length before the
/// passes over the rows are done (`ContactRows::check`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn body(states: &[BodyCell], i: u32) -> *mut f32 {
    debug_assert!((i as usize) < states.len());
    // SAFETY: see above.
    unsafe { states.get_unchecked(i as usize).as_ptr() as *mut f32 }
}

#[cfg(target_arch = "x86_64")]
mod sse {
    //! SSE2 (baseline on x86_64): a body's hot state is two aligned 16-byte vectors,
    //! `[vx vy w flags]` and `[dpx dpy dqc dqs]`; four bodies' vectors are transposed into
    //! lanes, each half of the row in turn.
    use super::{body, Bodies, BodyCell, Gather, Wide, LANES};
    use crate::engine::solver::state::MOVES;
    use std::arch::x86_64::*;

    /// Rows of a 4×4 matrix to its columns.
    #[inline(always)]
    pub(super) fn transpose(r0: __m128, r1: __m128, r2: __m128, r3: __m128) -> [__m128; 4] {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let t0 = _mm_unpacklo_ps(r0, r1); // a0 a1 b0 b1
            let t1 = _mm_unpacklo_ps(r2, r3); // a2 a3 b2 b3
            let t2 = _mm_unpackhi_ps(r0, r1); // c0 c1 d0 d1
            let t3 = _mm_unpackhi_ps(r2, r3); // c2 c3 d2 d3
            [_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2)]
        }
    }

    /// Two halves of four lanes as one `Wide`.
    #[inline(always)]
    fn wide(lo: __m128, hi: __m128) -> Wide {
        // SAFETY: `Wide` is a 32-byte aligned `[f32; 8]`, the layout of two `__m128`s.
        unsafe { std::mem::transmute::<[__m128; 2], Wide>([lo, hi]) }
    }

    #[inline(always)]
    fn halves(x: Wide) -> [__m128; 2] {
        // SAFETY: as above.
        unsafe { std::mem::transmute::<Wide, [__m128; 2]>(x) }
    }

    /// Four bodies' `[vx vy w flags]` and `[dpx dpy dqc dqs]`, as lanes; and their still mask.
    #[inline(always)]
    fn gather4(states: &[BodyCell], idx: &[u32]) -> ([__m128; 8], u32) {
        let p: [*const f32; 4] = std::array::from_fn(|k| body(states, idx[k]) as *const f32);
        // SAFETY: each pointer is to a live `SolverBody`, 32-byte aligned and `repr(C)` (two
        // 16-byte halves); no thread writes it meanwhile (see `workers`).
        let (lo, hi) = unsafe { (p.map(|p| _mm_load_ps(p)), p.map(|p| _mm_load_ps(p.add(4)))) };
        let [vx, vy, w, flags] = transpose(lo[0], lo[1], lo[2], lo[3]);
        let [dpx, dpy, qc, qs] = transpose(hi[0], hi[1], hi[2], hi[3]);
        // SAFETY: SSE2 is part of the x86_64 baseline.
        let still =
            unsafe { _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(flags), _mm_setzero_si128()))) };
        ([vx, vy, w, dpx, dpy, qc, qs, flags], still as u32)
    }

    impl Gather for Wide {
        #[inline(always)]
        fn gather(states: &[BodyCell], idx: &[u32; LANES]) -> Bodies<Wide> {
            let (lo, still_lo) = gather4(states, &idx[..4]);
            let (hi, still_hi) = gather4(states, &idx[4..]);
            Bodies {
                vx: wide(lo[0], hi[0]),
                vy: wide(lo[1], hi[1]),
                w: wide(lo[2], hi[2]),
                still: still_lo | still_hi << 4,
                dpx: wide(lo[3], hi[3]),
                dpy: wide(lo[4], hi[4]),
                qc: wide(lo[5], hi[5]),
                qs: wide(lo[6], hi[6]),
            }
        }

        #[inline(always)]
        fn scatter(states: &[BodyCell], idx: &[u32; LANES], b: &Bodies<Wide>) {
            // Only bodies that move are written, and their flags are `MOVES`.
            // SAFETY: SSE2 is part of the x86_64 baseline.
            let flags = unsafe { _mm_set1_ps(f32::from_bits(MOVES)) };
            let (vx, vy, w) = (halves(b.vx), halves(b.vy), halves(b.w));
            for half in 0..2 {
                let rows = transpose(vx[half], vy[half], w[half], flags);
                for (k, row) in rows.into_iter().enumerate() {
                    let lane = 4 * half + k;
                    if b.still & (1 << lane) == 0 {
                        // SAFETY: a body that moves belongs to this row alone in its colour
                        // (see `workers`); the store rewrites its first half,
                        // `[vx vy w flags]`, with the flags it had (`MOVES`).
                        unsafe { _mm_store_ps(body(states, idx[lane]), row) };
                    }
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    //! AVX (run only where AVX2 was detected, inlined into the AVX2 row kernels): eight
    //! bodies' 32-byte states are transposed into lanes at once, as Box2D v3's AVX2
    //! `b2GatherBodies` does; the velocities go back as 16-byte halves.
    use super::{body, Bodies, BodyCell, Gather, LANES};
    use crate::engine::solver::lanes::Avx;
    use crate::engine::solver::state::MOVES;
    use std::arch::x86_64::*;

    impl Gather for Avx {
        #[inline(always)]
        fn gather(states: &[BodyCell], idx: &[u32; LANES]) -> Bodies<Avx> {
            let p = idx.map(|i| body(states, i) as *const f32);
            // SAFETY: each pointer is to a live, 32-byte aligned `SolverBody` (`repr(C)`,
            // 32 bytes) that no thread writes meanwhile (see `workers`); `Avx` code runs only
            // where AVX2 was detected.
            unsafe {
                let r = p.map(|p| _mm256_load_ps(p));
                // Pairs, then quads, interleaved within each 128-bit half...
                let t0 = _mm256_unpacklo_ps(r[0], r[1]); // vx0 vx1 vy0 vy1 | dpx0 dpx1 dpy0 dpy1
                let t1 = _mm256_unpackhi_ps(r[0], r[1]); // w0 w1 f0 f1 | qc0 qc1 qs0 qs1
                let t2 = _mm256_unpacklo_ps(r[2], r[3]);
                let t3 = _mm256_unpackhi_ps(r[2], r[3]);
                let t4 = _mm256_unpacklo_ps(r[4], r[5]);
                let t5 = _mm256_unpackhi_ps(r[4], r[5]);
                let t6 = _mm256_unpacklo_ps(r[6], r[7]);
                let t7 = _mm256_unpackhi_ps(r[6], r[7]);
                let q0 = _mm256_shuffle_ps::<0x44>(t0, t2); // vx 0-3 | dpx 0-3
                let q1 = _mm256_shuffle_ps::<0xEE>(t0, t2); // vy | dpy
                let q2 = _mm256_shuffle_ps::<0x44>(t1, t3); // w | qc
                let q3 = _mm256_shuffle_ps::<0xEE>(t1, t3); // flags | qs
                let q4 = _mm256_shuffle_ps::<0x44>(t4, t6); // the same for bodies 4-7
                let q5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
                let q6 = _mm256_shuffle_ps::<0x44>(t5, t7);
                let q7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
                // ... then the halves of bodies 0-3 and 4-7 joined.
                let flags = _mm256_permute2f128_ps::<0x20>(q3, q7);
                let moving = _mm256_cmpeq_epi32(_mm256_castps_si256(flags), _mm256_setzero_si256());
                Bodies {
                    vx: Avx(_mm256_permute2f128_ps::<0x20>(q0, q4)),
                    vy: Avx(_mm256_permute2f128_ps::<0x20>(q1, q5)),
                    w: Avx(_mm256_permute2f128_ps::<0x20>(q2, q6)),
                    still: _mm256_movemask_ps(_mm256_castsi256_ps(moving)) as u32,
                    dpx: Avx(_mm256_permute2f128_ps::<0x31>(q0, q4)),
                    dpy: Avx(_mm256_permute2f128_ps::<0x31>(q1, q5)),
                    qc: Avx(_mm256_permute2f128_ps::<0x31>(q2, q6)),
                    qs: Avx(_mm256_permute2f128_ps::<0x31>(q3, q7)),
                }
            }
        }

        #[inline(always)]
        fn scatter(states: &[BodyCell], idx: &[u32; LANES], b: &Bodies<Avx>) {
            // SAFETY: `Avx` code runs only where AVX2 was detected. A body that moves belongs
            // to this row alone in its colour (see `workers`); each store rewrites its first
            // half, `[vx vy w flags]`, with the flags it had (`MOVES`: only bodies that move
            // are written).
            unsafe {
                let flags = _mm256_set1_ps(f32::from_bits(MOVES));
                let t0 = _mm256_unpacklo_ps(b.vx.0, b.vy.0); // vx0 vy0 vx1 vy1 | lanes 4, 5
                let t1 = _mm256_unpacklo_ps(b.w.0, flags);
                let t2 = _mm256_unpackhi_ps(b.vx.0, b.vy.0); // lanes 2, 3 | 6, 7
                let t3 = _mm256_unpackhi_ps(b.w.0, flags);
                // Body k in the low half, body k + 4 in the high half.
                let rows = [
                    _mm256_shuffle_ps::<0x44>(t0, t1),
                    _mm256_shuffle_ps::<0xEE>(t0, t1),
                    _mm256_shuffle_ps::<0x44>(t2, t3),
                    _mm256_shuffle_ps::<0xEE>(t2, t3),
                ];
                for (k, row) in rows.into_iter().enumerate() {
                    if b.still & (1 << k) == 0 {
                        _mm_store_ps(body(states, idx[k]), _mm256_castps256_ps128(row));
                    }
                    if b.still & (1 << (k + 4)) == 0 {
                        _mm_store_ps(body(states, idx[k + 4]), _mm256_extractf128_ps::<1>(row));
                    }
                }
            }
        }
    }
}

/// Each lane's body, field by field (targets without the SSE2 path).
#[cfg(not(target_arch = "x86_64"))]
impl Gather for Wide {
    #[inline(always)]
    fn gather(states: &[BodyCell], idx: &[u32; LANES]) -> Bodies<Wide> {
        let mut b = Bodies {
            vx: Wide::ZERO,
            vy: Wide::ZERO,
            w: Wide::ZERO,
            still: 0,
            dpx: Wide::ZERO,
            dpy: Wide::ZERO,
            qc: Wide::ZERO,
            qs: Wide::ZERO,
        };
        for (lane, &i) in idx.iter().enumerate() {
            let s = states[i as usize].get();
            b.vx.0[lane] = s.v.x;
            b.vy.0[lane] = s.v.y;
            b.w.0[lane] = s.w;
            b.still |= u32::from(s.flags == 0) << lane;
            b.dpx.0[lane] = s.dp.x;
            b.dpy.0[lane] = s.dp.y;
            b.qc.0[lane] = s.dq.c;
            b.qs.0[lane] = s.dq.s;
        }
        b
    }

    #[inline(always)]
    fn scatter(states: &[BodyCell], idx: &[u32; LANES], b: &Bodies<Wide>) {
        for (lane, &i) in idx.iter().enumerate() {
            if b.still & (1 << lane) == 0 {
                states[i as usize].set_velocity(b.vx.0[lane], b.vy.0[lane], b.w.0[lane]);
            }
        }
    }
}
