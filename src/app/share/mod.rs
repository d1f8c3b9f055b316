//! Sharing: a range of the timeline exported from the window as an animated GIF or a PNG
//! sequence (`job`, `panel`), and the same writers for `screenshot --gif` / `--png-dir`
//! (`writer`).

pub mod job;
pub mod panel;
pub mod writer;
