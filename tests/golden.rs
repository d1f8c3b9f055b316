//! Golden scenes: every shipped scene loads, steps without NaN, and reaches the recorded state
//! hash. After an intended change to the simulation, rerun with `UPDATE_GOLDEN=1` to record
//! the new hashes, and say why in the commit.

use manifold_lab::scene;
use std::collections::BTreeMap;
use std::path::Path;

const STEPS: u32 = 120;
const HASH_FILE: &str = "tests/golden/hashes.txt";

fn shipped_scenes() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir("scenes")
        .expect("scenes/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

fn recorded() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(HASH_FILE).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_string(), it.next()?.to_string()))
        })
        .collect()
}

#[test]
fn shipped_scenes_match_their_recorded_hashes() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let scenes = shipped_scenes();
    assert!(scenes.len() >= 6, "expected the shipped scenes, found {scenes:?}");
    let mut actual = BTreeMap::new();
    for path in &scenes {
        let s = scene::load(path).unwrap_or_else(|e| panic!("{e}"));
        let mut w = s.build_world();
        for _ in 0..STEPS {
            w.step();
        }
        for b in &w.bodies {
            assert!(b.center.is_finite() && b.angle.is_finite(), "{}: body {} is not finite", path.display(), b.name);
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        actual.insert(name, format!("{:016x}", w.state_hash()));
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let mut text = format!("# scene  state hash after {STEPS} steps (UPDATE_GOLDEN=1 cargo test --test golden)\n");
        for (k, v) in &actual {
            text.push_str(&format!("{k} {v}\n"));
        }
        std::fs::write(Path::new(HASH_FILE), text).unwrap();
        return;
    }
    let expected = recorded();
    for (name, hash) in &actual {
        let want = expected
            .get(name)
            .unwrap_or_else(|| panic!("no recorded hash for {name}: run `UPDATE_GOLDEN=1 cargo test --test golden`"));
        assert_eq!(hash, want, "{name} diverged from its recorded state");
    }
}

#[test]
fn every_scene_runs_the_same_twice() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    for path in shipped_scenes() {
        let s = scene::load(&path).unwrap();
        if s.build_world().bodies.len() > 1000 {
            continue; // the large pyramid is covered by the golden hash above
        }
        let run = || {
            let mut w = s.build_world();
            for _ in 0..60 {
                w.step();
            }
            w.state_hash()
        };
        assert_eq!(run(), run(), "{} is not deterministic", path.display());
    }
}
