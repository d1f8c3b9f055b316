//! The shipped scenes (`scenes/*.ron`), for tests that run each of them.

use std::path::PathBuf;

/// Every `scenes/*.ron`, sorted by name. Run from the crate's directory.
pub fn shipped_scenes() -> Vec<PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .expect("scenes/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}
