//! Drawing the views: `draw` is the one `DebugDraw` implementation (batched by `batch`,
//! anti-aliased with `materials`), `view` draws the world, the lab and the insets, `grid` the
//! metric grid and its exact labels, and `labels` places every text label through
//! `label_layout` (inside its view, off the others, elided with a tooltip), fitting text with
//! `text_fit`; `rect_grid` is the placement's overlap grid.

pub mod batch;
pub mod draw;
pub mod grid;
#[cfg(test)]
mod grid_tests;
pub mod label_layout;
pub mod labels;
pub mod materials;
pub mod rect_grid;
pub mod text_fit;
pub mod view;
