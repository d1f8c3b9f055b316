//! The 3D world (`engine::world3d`): dynamics (`world3d_parts/dynamics.rs`), buoyancy
//! (`world3d_parts/water.rs`), the shipped `scenes/world3d/` files (`world3d_parts/scenes.rs`) and
//! the hard limits with their fuzz test (`world3d_parts/limits.rs`).
//!
//! Run with `cargo test --test world3d -- --nocapture` to see the measured figures.

#[path = "world3d_parts/common.rs"]
mod common;
#[path = "world3d_parts/dynamics.rs"]
mod dynamics;
#[path = "world3d_parts/limits.rs"]
mod limits;
#[path = "world3d_parts/scenes.rs"]
mod scenes;
mod support;
#[path = "world3d_parts/water.rs"]
mod water;
