//! Support shared by the integration tests (each declares `mod support;`) and, through
//! `benches/support/`, by the benches. One place for what several files need: float
//! comparisons, the proptest shape and pose strategies, the SAT reference, the exact f64
//! Minkowski-difference answer, the time-of-impact cases with Box2D's answers, and the X
//! display the window tests share.
//!
//! Convention: `tests/support/` holds what more than one test or bench uses; a test split into
//! several files keeps its parts in `tests/NAME_parts/` (declared with `#[path]`). Benches
//! follow the same rule (`benches/support/`, `benches/NAME_parts/`).

#![allow(dead_code)] // each test crate uses a part of it

pub mod box2d_jointed;
pub mod exact_f64;
pub mod live_app;
pub mod mutate;
pub mod sat;
pub mod scenes;
pub mod strategies;
pub mod toi;
pub mod x_display;

use glam::Vec2;

/// `|a − b| ≤ tol`.
pub fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

/// `|a − b| ≤ tol` for vectors (Euclidean distance).
pub fn vclose(a: Vec2, b: Vec2, tol: f32) -> bool {
    (a - b).length() <= tol
}
