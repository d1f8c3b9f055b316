//! The row kernels compiled with AVX2 enabled, on [`Avx`] lanes (Box2D v3's `BOX2D_AVX2`
//! build, chosen here at run time): eight lanes per instruction instead of two SSE2 halves,
//! the same operations on each lane, so the same bits. Called only where the processor has
//! AVX2 (`ContactRows::use_avx2`).

use super::{BodyCell, ContactRow, RowBounce};
use crate::engine::solver::lanes::Avx;

/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn warm_start_row(r: &ContactRow, states: &[BodyCell]) {
    super::warm_start_row::<Avx>(r, states)
}

/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn solve_row<const USE_BIAS: bool, const IMPACTS: bool>(
    r: &mut ContactRow,
    e: &mut RowBounce,
    states: &[BodyCell],
    inv_h: f32,
    max_push: f32,
    elapsed: f32,
) {
    super::solve_row::<Avx, USE_BIAS, IMPACTS>(r, e, states, inv_h, max_push, elapsed)
}
