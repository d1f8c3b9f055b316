//! Support shared by the benches (each declares `mod support;`): the alternating timed
//! comparison of the summaries, Box2D v3 worlds through its C API, a world of ours mirrored into Box2D and rapier, the alternating ms-per-step
//! timing of whole engines, and the time-of-impact cases with Box2D's answers that the tests
//! use too (`tests/support/`). A bench split into several files keeps its parts in
//! `benches/NAME_parts/`.

#![allow(dead_code)] // each bench uses a part of it

/// Which instruction sets the engines' solvers run on in this build and on this processor.
pub fn instruction_sets() -> String {
    let ours = if manifold_lab::engine::solver::lanes::avx2_detected() { "AVX2" } else { "SSE2 (no AVX2 here)" };
    let box2d = if cfg!(feature = "box2d-avx2") {
        "AVX2 (--features box2d-avx2)"
    } else {
        "SSE2 (its default build; --features box2d-avx2 for AVX2)"
    };
    format!("instruction sets: manifold_lab's contact rows {ours}, Box2D v3 {box2d}")
}

pub mod box2d_world;
pub mod compare;
pub mod mirror;
pub mod timing;
#[path = "../../tests/support/toi.rs"]
pub mod toi;
