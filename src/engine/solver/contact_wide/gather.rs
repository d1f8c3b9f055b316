//! Gathering a row's bodies into lanes and scattering their new velocities back (Box2D v3's
//! `b2GatherBodies` and `b2ScatterBodies`): SSE2 transposes on x86_64, field by field elsewhere.

use super::{BodyCell, Wide, LANES};

/// The solver state of one body per lane (Box2D v3's `b2BodyStateW`).
pub(super) struct Bodies {
    pub(super) vx: Wide,
    pub(super) vy: Wide,
    pub(super) w: Wide,
    /// Bit `k` set: lane `k`'s body does not move (its `SolverBody::flags` are 0, not
    /// `MOVES`), so its velocity is not written back. A mask rather than the flags' lanes: one
    /// vector register fewer held through the row.
    pub(super) still: u32,
    pub(super) dpx: Wide,
    pub(super) dpy: Wide,
    pub(super) qc: Wide,
    pub(super) qs: Wide,
}

#[cfg(target_arch = "x86_64")]
mod sse {
    //! SSE2 (baseline on x86_64) gather and scatter: a body's hot state is two aligned 16-byte
    //! vectors, `[vx vy w flags]` and `[dpx dpy dqc dqs]`; four bodies' vectors are transposed
    //! into lanes, as Box2D v3's `b2GatherBodies` and `b2ScatterBodies` do.
    use super::{Bodies, BodyCell, Wide, LANES};
    use crate::engine::solver::state::MOVES;
    use std::arch::x86_64::*;

    #[inline(always)]
    fn wide(x: __m128) -> Wide {
        // SAFETY: `Wide` is a 16-byte aligned `[f32; 4]`, the layout of `__m128`.
        unsafe { std::mem::transmute::<__m128, Wide>(x) }
    }

    #[inline(always)]
    fn m128(x: Wide) -> __m128 {
        // SAFETY: as above.
        unsafe { std::mem::transmute::<Wide, __m128>(x) }
    }

    /// Rows of a 4×4 matrix to its columns.
    #[inline(always)]
    fn transpose(r0: __m128, r1: __m128, r2: __m128, r3: __m128) -> [__m128; 4] {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let t0 = _mm_unpacklo_ps(r0, r1); // a0 a1 b0 b1
            let t1 = _mm_unpacklo_ps(r2, r3); // a2 a3 b2 b3
            let t2 = _mm_unpackhi_ps(r0, r1); // c0 c1 d0 d1
            let t3 = _mm_unpackhi_ps(r2, r3); // c2 c3 d2 d3
            [_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2)]
        }
    }

    /// Pointer to the state of body `i`. Unchecked: a row's bodies are checked against the
    /// states when it is prepared (`RowSetup::fill`), and the states do not change length
    /// before the passes over the rows are done.
    #[inline(always)]
    fn body(states: &[BodyCell], i: u32) -> *mut f32 {
        debug_assert!((i as usize) < states.len());
        // SAFETY: see above.
        unsafe { states.get_unchecked(i as usize).as_ptr() as *mut f32 }
    }

    #[inline(always)]
    pub(in super::super) fn gather(states: &[BodyCell], idx: &[u32; LANES]) -> Bodies {
        let p = idx.map(|i| body(states, i) as *const f32);
        // SAFETY: each pointer is to a live `SolverBody`, 32-byte aligned and `repr(C)` (two
        // 16-byte halves); no thread writes it meanwhile (see `workers`).
        let (lo, hi) = unsafe {
            (
                [_mm_load_ps(p[0]), _mm_load_ps(p[1]), _mm_load_ps(p[2]), _mm_load_ps(p[3])],
                [
                    _mm_load_ps(p[0].add(4)),
                    _mm_load_ps(p[1].add(4)),
                    _mm_load_ps(p[2].add(4)),
                    _mm_load_ps(p[3].add(4)),
                ],
            )
        };
        let [vx, vy, w, flags] = transpose(lo[0], lo[1], lo[2], lo[3]);
        let [dpx, dpy, qc, qs] = transpose(hi[0], hi[1], hi[2], hi[3]);
        // SAFETY: SSE2 is part of the x86_64 baseline.
        let still =
            unsafe { _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(flags), _mm_setzero_si128()))) };
        Bodies {
            vx: wide(vx),
            vy: wide(vy),
            w: wide(w),
            still: still as u32,
            dpx: wide(dpx),
            dpy: wide(dpy),
            qc: wide(qc),
            qs: wide(qs),
        }
    }

    #[inline(always)]
    pub(in super::super) fn scatter(states: &[BodyCell], idx: &[u32; LANES], b: &Bodies) {
        // Only bodies that move are written, and their flags are `MOVES`.
        let flags = Wide::splat(f32::from_bits(MOVES));
        let rows = transpose(m128(b.vx), m128(b.vy), m128(b.w), m128(flags));
        for (k, (&i, row)) in idx.iter().zip(rows).enumerate() {
            if b.still & (1 << k) == 0 {
                // SAFETY: a body that moves belongs to this row alone in its colour (see
                // `workers`); the store rewrites its first half, `[vx vy w flags]`, with the
                // flags it had (`MOVES`).
                unsafe { _mm_store_ps(body(states, i), row) };
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use sse::{gather, scatter};

/// Gathers each lane's body, field by field (targets without the SSE2 path).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn gather(states: &[BodyCell], idx: &[u32; LANES]) -> Bodies {
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

/// Writes the velocities back to the bodies that move. A body that does not move (and the
/// dummy body of empty lanes) may sit in many rows of a colour, solved on several threads, so
/// it is only read; zero inverse masses leave its velocity unchanged anyway.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn scatter(states: &[BodyCell], idx: &[u32; LANES], b: &Bodies) {
    for (lane, &i) in idx.iter().enumerate() {
        if b.still & (1 << lane) == 0 {
            states[i as usize].set_velocity(b.vx.0[lane], b.vy.0[lane], b.w.0[lane]);
        }
    }
}
