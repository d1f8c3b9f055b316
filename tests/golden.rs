//! Golden scenes: every shipped scene loads, steps without NaN, never gains mechanical energy
//! unless a motor drives it, and reaches the recorded state hash. After an intended change to
//! the simulation, rerun with `UPDATE_GOLDEN=1` to record the new hashes, and say why in the
//! commit.

use manifold_lab::engine::solver::Joint;
use manifold_lab::engine::World;
use manifold_lab::scene;
use std::collections::BTreeMap;
use std::path::Path;

const STEPS: u32 = 120;
const HASH_FILE: &str = "tests/golden/hashes.txt";
/// The hashes of the engine before contact recycling, which `recycle_contacts = false` must
/// reproduce exactly (updated only for a change of the solver itself, noted in the file).
const NO_RECYCLING_FILE: &str = "tests/golden/hashes_without_recycling.txt";

fn shipped_scenes() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir("scenes")
        .expect("scenes/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

fn recorded(file: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_string(), it.next()?.to_string()))
        })
        .collect()
}

/// Kinetic energy plus gravity's potential energy of the dynamic bodies, J (f64 sums).
fn mechanical_energy(w: &World) -> f64 {
    let g = w.params.gravity;
    let body = |b: &manifold_lab::engine::Body| {
        b.kinetic_energy() as f64 - (b.mass * b.gravity_scale * g.dot(b.center)) as f64
    };
    w.bodies.iter().filter(|b| b.is_dynamic()).map(body).sum()
}

/// Whether a joint motor can do work on the world.
fn driven(w: &World) -> bool {
    w.joints().iter().any(|j| match j {
        Joint::Revolute(r) => r.enable_motor,
        Joint::Prismatic(p) => p.enable_motor,
        Joint::Wheel(wh) => wh.enable_motor,
        Joint::Distance(d) => d.enable_motor,
        _ => false,
    })
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
        // Contacts, joints, restitution ≤ 1, damping and water only take energy out (or trade
        // it): the total may not rise by more than the work of lifting everything 1 mm.
        let (start, driven) = (mechanical_energy(&w), driven(&w));
        let slack = 1e-3 * w.bodies.iter().map(|b| (b.mass * w.params.gravity.length()) as f64).sum::<f64>() + 1e-3;
        for step in 0..STEPS {
            w.step();
            let e = mechanical_energy(&w);
            assert!(driven || e <= start + slack, "{}: energy rose {} J by step {step}", path.display(), e - start);
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
    let expected = recorded(HASH_FILE);
    for (name, hash) in &actual {
        let want = expected
            .get(name)
            .unwrap_or_else(|| panic!("no recorded hash for {name}: run `UPDATE_GOLDEN=1 cargo test --test golden`"));
        assert_eq!(hash, want, "{name} diverged from its recorded state");
    }
    no_stale_entries(HASH_FILE, &expected, &scenes);
}

/// Fails on a recorded entry whose scene no longer exists: a renamed or deleted scene must
/// take its hash with it, or the file would keep vouching for nothing.
fn no_stale_entries(file: &str, recorded: &BTreeMap<String, String>, scenes: &[std::path::PathBuf]) {
    let names: Vec<String> = scenes.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    let stale: Vec<&String> = recorded.keys().filter(|k| !names.contains(k)).collect();
    assert!(stale.is_empty(), "{file} records scenes that are not shipped: {stale:?}");
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

#[test]
fn without_recycling_every_scene_steps_exactly_as_before_recycling() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let expected = recorded(NO_RECYCLING_FILE);
    assert!(expected.len() >= 6, "the frozen hashes are there");
    no_stale_entries(NO_RECYCLING_FILE, &expected, &shipped_scenes());
    for path in shipped_scenes() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(want) = expected.get(&name) else { continue }; // scenes added since
        let s = scene::load(&path).unwrap();
        let mut w = s.build_world();
        w.params.recycle_contacts = false;
        for _ in 0..STEPS {
            w.step();
        }
        assert_eq!(w.profile.manifolds_recycled, 0);
        assert_eq!(&format!("{:016x}", w.state_hash()), want, "{name}: recycling off must not change anything");
    }
}
