//! The one architectural rule the design guide sets for the library: the engine and the scene
//! format need no window and no command line. No file under `src/engine/` or `src/scene/` may
//! mention macroquad, egui or clap, in any letter case: not in a `use`, not in a path, not in
//! a doc or comment. Comments are not exempted: telling them apart needs a Rust lexer (string
//! literals, nested block comments, doc attributes), and a comment naming a window crate is
//! usually the first step of a dependency; the rule reads simplest as "no mention at all".
//! The library root must declare only `engine` and `scene`, so nothing else can join the
//! library beside them.

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
    for dir in ["src/engine", "src/scene"] {
        for path in files_below(&root().join(dir)) {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            scanned += 1;
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
fn the_library_root_declares_only_engine_and_scene() {
    let text = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    assert!(mentions(&text).is_empty(), "src/lib.rs: {:?}", mentions(&text));
    let modules: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod ")))
        .map(|l| l.trim_end_matches(';').trim())
        .collect();
    assert_eq!(modules, vec!["engine", "scene"], "the library is the engine and the scene format");
    assert!(!text.contains("extern crate") && !text.contains("#[path"), "src/lib.rs pulls in other code");
}
