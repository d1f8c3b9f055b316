//! Support shared by the benches (each declares `mod support;`): the alternating timed
//! comparison of the summaries, Box2D v3 worlds through its C API, a world of ours mirrored into Box2D and rapier, the alternating ms-per-step
//! timing of whole engines, and the time-of-impact cases with Box2D's answers that the tests
//! use too (`tests/support/`). A bench split into several files keeps its parts in
//! `benches/NAME_parts/`.

#![allow(dead_code)] // each bench uses a part of it

#[path = "../../tests/support/box2d_toi.rs"]
pub mod box2d_toi;
pub mod box2d_world;
pub mod compare;
pub mod mirror;
pub mod timing;
#[path = "../../tests/support/toi.rs"]
pub mod toi;
