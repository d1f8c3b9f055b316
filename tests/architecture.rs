//! The one architectural rule the design guide sets for the library: the engine and the scene
//! format need no window and no command line. No file under `src/engine/` or `src/scene/` may
//! mention macroquad, egui or clap, in any letter case: not in a `use`, not in a path, not in
//! a doc or comment. Comments are not exempted: telling them apart needs a Rust lexer (string
//! literals, nested block comments, doc attributes), and a comment naming a window crate is
//! usually the first step of a dependency; the rule reads simplest as "no mention at all".
//! The library root must declare only `engine` and `scene`, so nothing else can join the
//! library beside them. And the engine is layered: no module below the 2D world (bodies,
//! shapes, collision, broadphase, solver, ...) imports from `engine/world/`.

use std::path::{Path, PathBuf};

/// Crates the library must not know about: the window, its panels and the command line.
const FORBIDDEN: [&str; 3] = ["macroquad", "egui", "clap"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file below `dir`, recursively, sorted.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Each mention of a forbidden crate in `text`: (line number from 1, crate, the line).
fn mentions(text: &str) -> Vec<(usize, &'static str, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        for name in FORBIDDEN {
            if lower.contains(name) {
                found.push((i + 1, name, line.trim().to_string()));
            }
        }
    }
    found
}

#[test]
fn engine_and_scene_never_mention_the_window_or_the_command_line() {
    let mut scanned = 0;
    let mut violations = Vec::new();
    for dir in ["src/engine", "src/scene", "src/peers"] {
        for path in files_below(&root().join(dir)) {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            scanned += 1;
            // The peers translate the engine's world; the engine and scenes never reach them.
            if !dir.ends_with("peers") && text.contains("peers::") {
                violations.push(format!("{}: uses the peer engines", path.display()));
            }
            let shown = path.strip_prefix(root()).unwrap().display().to_string();
            for (line, name, content) in mentions(&text) {
                violations.push(format!("{shown}:{line}: mentions {name}: {content}"));
            }
        }
    }
    // An empty walk (a moved folder) must not pass for a clean one.
    assert!(scanned >= 60, "only {scanned} files found under src/engine and src/scene");
    assert!(violations.is_empty(), "the library must not depend on the app's crates:\n{}", violations.join("\n"));
}

#[test]
fn the_check_finds_uses_paths_and_comments_in_any_case() {
    let sample = "use glam::Vec2;\n\
                  use macroquad::prelude::*;\n\
                  fn panel(ui: &mut egui::Ui) {}\n\
                  #[derive(clap::Parser)]\n\
                  // drawn by Macroquad's batcher\n\
                  const NAME: &str = \"EGUI\";\n\
                  let v = Vec2::ZERO; // nothing here\n";
    let found: Vec<(usize, &str)> = mentions(sample).into_iter().map(|(l, n, _)| (l, n)).collect();
    assert_eq!(found, vec![(2, "macroquad"), (3, "egui"), (4, "clap"), (5, "macroquad"), (6, "egui")]);
    assert!(mentions("use glam::Vec2;\nuse serde::Serialize;\n").is_empty());
}

#[test]
fn the_library_root_declares_only_engine_peers_and_scene() {
    let text = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    assert!(mentions(&text).is_empty(), "src/lib.rs: {:?}", mentions(&text));
    let modules: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod ")))
        .map(|l| l.trim_end_matches(';').trim())
        .collect();
    assert_eq!(
        modules,
        vec!["engine", "peers", "scene"],
        "the library is the engine, the peer engines' translation and the scene format"
    );
    assert!(!text.contains("extern crate") && !text.contains("#[path"), "src/lib.rs pulls in other code");
}

/// The engine's modules above the 2D world, which may use it: the world itself, the timeline
/// and the determinism check (and the engine root, which re-exports `World`).
const ABOVE_THE_WORLD: [&str; 4] =
    ["src/engine/world/", "src/engine/timeline/", "src/engine/determinism.rs", "src/engine/mod.rs"];

/// Each line of `text`'s non-test code (up to its `#[cfg(test)]` module, comments cut) that
/// reaches into the 2D world: `World`, `engine::world`, or a `super::` path up to `world`.
/// `depth` is how many folders below `src/engine/` the file sits.
fn world_uses(text: &str, depth: usize) -> Vec<(usize, String)> {
    let up = format!("{}world", "super::".repeat(depth + 1));
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let names_world = code.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "World");
        if names_world || code.contains("engine::world") || code.contains(&up) {
            found.push((i + 1, line.trim().to_string()));
        }
    }
    found
}

#[test]
fn no_engine_module_below_the_world_imports_from_it() {
    let engine = root().join("src/engine");
    let mut violations = Vec::new();
    let mut scanned = 0;
    for path in files_below(&engine) {
        let shown = path.strip_prefix(root()).unwrap().display().to_string();
        if ABOVE_THE_WORLD.iter().any(|a| shown.starts_with(a)) {
            continue;
        }
        let depth = path.strip_prefix(&engine).unwrap().components().count() - 1;
        let text = std::fs::read_to_string(&path).unwrap();
        scanned += 1;
        for (line, content) in world_uses(&text, depth) {
            violations.push(format!("{shown}:{line}: {content}"));
        }
    }
    assert!(scanned >= 100, "only {scanned} engine files below the world");
    assert!(violations.is_empty(), "engine modules below the world use it:\n{}", violations.join("\n"));
}

#[test]
fn the_layering_check_finds_every_way_up() {
    let sample = "use crate::engine::world::ccd::X;\n\
                  use crate::engine::{Body, World};\n\
                  use super::world::Thing;\n\
                  fn f(w: &World3) {} // World in a comment\n\
                  use super::super::world_draw;\n\
                  #[cfg(test)]\n\
                  use crate::engine::World;\n";
    let lines: Vec<usize> = world_uses(sample, 1).into_iter().map(|(l, _)| l).collect();
    assert_eq!(lines, vec![1, 2, 5], "depth 1: super::world is a sibling, super::super::world the engine's");
    let lines: Vec<usize> = world_uses(sample, 0).into_iter().map(|(l, _)| l).collect();
    assert_eq!(lines, vec![1, 2, 3, 5], "depth 0: both reach the engine's world");
}

/// The lines of `text` outside comments and inline `#[cfg(test)]` modules that name the type
/// `App` (the whole app), with their line numbers.
fn names_the_app(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break; // inline test modules come last in this code base
        }
        if code.starts_with("//") {
            continue;
        }
        let bytes = code.as_bytes();
        let hit = code.match_indices("App").any(|(k, _)| {
            let before = k.checked_sub(1).map(|j| bytes[j]);
            let after = bytes.get(k + 3).copied();
            let word = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
            !word(before) && !word(after)
        });
        if hit {
            found.push((i + 1, line.to_string()));
        }
    }
    found
}

/// Labs and tools see the app through a narrow context (a lab the `Stage`, a tool `ToolView`
/// and `ToolContext`), never the whole `App`: so neither ties itself to the app's timeline,
/// files or lab table, and the app can change those without touching them.
#[test]
fn labs_and_tools_never_name_the_whole_app() {
    let mut violations = Vec::new();
    let mut scanned = 0;
    for dir in ["src/app/lab", "src/app/tools"] {
        for path in files_below(&root().join(dir)) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == "tests.rs" || name.ends_with("_tests.rs") || name == "test_support.rs" {
                continue;
            }
            scanned += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for (line, code) in names_the_app(&text) {
                violations.push(format!("{}:{line}: {code}", path.display()));
            }
        }
    }
    assert!(scanned > 45, "only {scanned} files scanned");
    assert!(violations.is_empty(), "labs and tools naming App:\n{}", violations.join("\n"));
}

#[test]
fn the_app_check_finds_the_type_and_not_its_neighbours() {
    let sample = "use crate::app::state::{Action, App};\n\
                  // the whole `App` is not here\n\
                  fn f(s: &Stage, apple: u32, app: &mut Stage) {}\n\
                  fn g(x: &App) {}\n\
                  #[cfg(test)]\n\
                  mod tests { use super::App; }\n";
    let lines: Vec<usize> = names_the_app(sample).into_iter().map(|(l, _)| l).collect();
    assert_eq!(lines, vec![1, 4]);
}
