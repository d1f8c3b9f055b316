//! Files through the App's actions: each kind opens where it belongs, bad files keep what was
//! open, the recent list persists, hot reload keeps the view and survives a broken save.

use super::kind::FileKind;
use super::recent::RecentFiles;
use super::watch::FileWatcher;
use super::DialogKind;
use crate::app::input::keys::key_action;
use crate::app::lab::LabKind;
use crate::app::state::{Action, App, RunMode};
use glam::Vec2;
use macroquad::miniquad::{KeyCode, KeyMods};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// A fresh folder for one test.
fn tmp(name: &str) -> PathBuf {
    let d = manifest("target/tmp/files_tests").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn app(scene: &str) -> App {
    App::from_path(&manifest(scene)).expect("shipped scene loads")
}

const SCENE: &str = r#"// A small scene the tests rewrite.
Scene(
    version: 1,
    name: "reload",
    bodies: [
        (name: "ground", kind: Static, position: (0.0, -1.0), shape: Box(half_extents: (20.0, 1.0))),
        (name: "left", position: (-2.0, 1.0), shape: Box(half_extents: (0.5, 0.5))),
        (name: "right", position: (2.0, 1.0), shape: Circle(radius: 0.5)),
    ],
)
"#;

#[test]
fn every_kind_opens_where_it_belongs() {
    let mut a = app("scenes/default.ron");
    let cases: &[(&str, Option<LabKind>)] = &[
        ("scenes/pairs/box_circle.ron", Some(LabKind::Manifold)),
        ("scenes/hulls/cube_on_cube.ron", Some(LabKind::HullSat)),
        ("scenes/hull/diamond.ron", Some(LabKind::QuickHull)),
        ("scenes/toi/thin_wall.ron", Some(LabKind::Toi)),
        ("scenes/slice/square.ron", Some(LabKind::Slice)),
        ("scenes/world3d/stack.ron", Some(LabKind::World3d)),
        ("scenes/pyramid.ron", None),
    ];
    for (file, lab) in cases {
        let path = manifest(file);
        a.apply(Action::OpenFile(path.clone()));
        assert_eq!(a.error, None, "{file}");
        assert_eq!(a.lab.as_ref().map(|l| l.kind()), *lab, "{file}");
        assert_eq!(a.open_file_path().as_deref(), Some(path.as_path()), "{file}");
    }
    assert_eq!(a.scene.name, crate::app::state::App::from_path(&manifest("scenes/pyramid.ron")).unwrap().scene.name);
}

#[test]
fn a_recording_opens_on_the_timeline_even_without_its_extension() {
    let dir = tmp("recording");
    let mut a = app("scenes/vertical_stack.ron");
    for _ in 0..25 {
        a.apply(Action::Step);
    }
    let rec = a.recording().unwrap();
    let (with_ext, without) = (dir.join("run.mlrec"), dir.join("run.txt"));
    rec.save(&with_ext).unwrap();
    rec.save(&without).unwrap();
    for path in [with_ext, without] {
        let mut b = app("scenes/pyramid.ron");
        b.apply(Action::OpenFile(path.clone()));
        assert_eq!(b.error, None, "{}", path.display());
        assert_eq!(b.timeline.line.current_branch().newest(), 25);
        assert_eq!(b.world.state_hash(), a.world.state_hash());
        assert_eq!(b.mode, RunMode::Paused);
    }
}

#[test]
fn bad_files_give_located_errors_and_keep_what_was_open() {
    let dir = tmp("bad");
    let unknown = dir.join("unknown.ron");
    std::fs::write(&unknown, "// comment\n\n  Thing(version: 1)\n").unwrap();
    let garbage = dir.join("garbage.ron");
    std::fs::write(&garbage, "[1, 2, 3]").unwrap();
    let broken_pair = dir.join("pair.ron");
    let pair = std::fs::read_to_string(manifest("scenes/pairs/box_circle.ron")).unwrap();
    std::fs::write(&broken_pair, pair.replacen("version: 1", "version: 1,\n    bogus: 3", 1)).unwrap();
    let truncated = dir.join("cut.mlrec");
    std::fs::write(&truncated, "MLREC 1\n(steps: 3,").unwrap();

    let mut a = app("scenes/vertical_stack.ron");
    for _ in 0..10 {
        a.apply(Action::Step);
    }
    let hash = a.world.state_hash();
    let expect: &[(&Path, &str)] = &[
        (&unknown, "unknown.ron:3:3: `Thing`"),
        (&garbage, "garbage.ron:1:1:"),
        (&broken_pair, "pair.ron:"),
        (&truncated, "cut.mlrec:"),
        (&dir.join("missing.ron"), "missing.ron"),
    ];
    for (path, needle) in expect {
        a.apply(Action::OpenFile(path.to_path_buf()));
        let e = a.error.take().unwrap_or_else(|| panic!("{} opened", path.display()));
        assert!(e.contains(needle), "{e}");
        assert!(a.lab.is_none());
        assert_eq!(a.world.state_hash(), hash);
        assert_eq!(a.scene_path.as_deref(), Some(manifest("scenes/vertical_stack.ron").as_path()));
    }
    // A broken pair with a lab open keeps the lab.
    a.apply(Action::OpenFile(manifest("scenes/pairs/box_circle.ron")));
    a.apply(Action::OpenFile(broken_pair.clone()));
    assert!(a.error.take().is_some());
    assert_eq!(a.lab.as_ref().map(|l| l.kind()), Some(LabKind::Manifold));
    assert_eq!(a.open_file_path(), Some(manifest("scenes/pairs/box_circle.ron")));
}

#[test]
fn each_kind_opens_in_its_place() {
    use manifold_lab::scene::FileKind as K;
    let labs = [
        (K::Pair, LabKind::Manifold),
        (K::Hulls, LabKind::HullSat),
        (K::Cloud, LabKind::QuickHull),
        (K::Toi, LabKind::Toi),
        (K::Slice, LabKind::Slice),
        (K::World3d, LabKind::World3d),
    ];
    for (k, lab) in labs {
        assert_eq!(FileKind::from(k), FileKind::Lab(lab));
    }
    assert_eq!(FileKind::from(K::Scene), FileKind::Scene);
    assert_eq!(FileKind::from(K::Recording), FileKind::Recording);
}

#[test]
fn the_recent_list_keeps_opened_and_saved_files_between_runs() {
    let dir = tmp("recent");
    let store = dir.join("config/recent.json");
    let mut a = app("scenes/default.ron");
    a.files.recent = Some(RecentFiles::load(&store).0);
    let files = ["scenes/pyramid.ron", "scenes/pairs/box_circle.ron", "scenes/toi/thin_wall.ron", "scenes/pyramid.ron"];
    for f in files {
        a.apply(Action::OpenFile(manifest(f)));
    }
    // A file that fails to open is not listed.
    a.apply(Action::OpenFile(dir.join("missing.ron")));
    assert!(a.error.take().is_some());
    a.apply(Action::CloseLab);
    let saved = dir.join("saved.ron");
    a.apply(Action::SaveScene(saved.clone()));
    assert_eq!(a.error, None);
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap();
    let want = vec![
        canon(&saved),
        canon(&manifest("scenes/pyramid.ron")),
        canon(&manifest("scenes/toi/thin_wall.ron")),
        canon(&manifest("scenes/pairs/box_circle.ron")),
    ];
    assert_eq!(a.files.recent.as_ref().unwrap().files, want);
    // The next run reads the same list.
    let (again, warning) = RecentFiles::load(&store);
    assert_eq!((again.files.clone(), warning), (want.clone(), None));
    // Forgetting one, then all.
    a.apply(Action::ForgetRecent(Some(want[1].clone())));
    assert_eq!(RecentFiles::load(&store).0.files.len(), 3);
    a.apply(Action::ForgetRecent(None));
    assert!(RecentFiles::load(&store).0.files.is_empty());
    // Many files: the oldest fall off.
    let mut r = RecentFiles::load(&store).0;
    for k in 0..20 {
        r.add(&dir.join(format!("f{k}.ron"))).unwrap();
    }
    assert_eq!(r.files.len(), super::recent::MAX_RECENT);
    assert!(r.files[0].ends_with("f19.ron"));
}

#[test]
fn a_damaged_recent_list_starts_empty_with_a_located_reason() {
    let dir = tmp("recent_bad");
    let store = dir.join("recent.json");
    std::fs::write(&store, "{\n  \"files\": [\n    3\n").unwrap();
    let (r, warning) = RecentFiles::load(&store);
    assert!(r.files.is_empty());
    let w = warning.unwrap();
    assert!(w.contains("recent.json:3:"), "{w}");
    // It is written again whole on the next change.
    let mut r = r;
    r.add(&manifest("scenes/pyramid.ron")).unwrap();
    assert_eq!(RecentFiles::load(&store), (r, None));
}

#[test]
fn the_config_folder_follows_its_environment_variable() {
    let dir = tmp("config_var");
    // Only this test sets the variable.
    std::env::set_var(super::recent::CONFIG_DIR_VAR, &dir);
    assert_eq!(super::recent::config_dir(), Some(dir.clone()));
    std::env::remove_var(super::recent::CONFIG_DIR_VAR);
    assert_ne!(super::recent::config_dir(), Some(dir));
}

#[test]
fn ctrl_o_and_ctrl_s_ask_for_a_file_then_ctrl_s_saves_there() {
    let ctrl = KeyMods { ctrl: true, ..Default::default() };
    let ctrl_shift = KeyMods { ctrl: true, shift: true, ..Default::default() };
    assert_eq!(key_action(KeyCode::O, ctrl), Some(Action::ShowDialog(DialogKind::Open)));
    assert_eq!(key_action(KeyCode::S, ctrl), Some(Action::SaveCurrent));
    assert_eq!(key_action(KeyCode::S, ctrl_shift), Some(Action::ShowDialog(DialogKind::SaveAs)));
    assert_eq!(key_action(KeyCode::S, KeyMods::default()), Some(Action::Step));

    let dir = tmp("ctrl_s");
    let mut a = app("scenes/vertical_stack.ron");
    a.apply(Action::SaveCurrent);
    assert_eq!(a.files.dialog_request, Some((1, DialogKind::SaveAs)));
    a.apply(Action::ShowDialog(DialogKind::Open));
    assert_eq!(a.files.dialog_request, Some((2, DialogKind::Open)));
    // The dialog picked a file: the world is saved there, and Ctrl+S writes there again.
    let out = dir.join("stack.ron");
    a.apply(Action::SaveScene(out.clone()));
    for _ in 0..20 {
        a.apply(Action::Step);
    }
    a.apply(Action::SaveCurrent);
    assert_eq!(a.files.dialog_request, Some((2, DialogKind::Open)));
    let saved = crate::app::state::App::from_path(&out).unwrap();
    let ys = |w: &manifold_lab::engine::World| w.bodies.iter().map(|b| b.xf.p.y).collect::<Vec<_>>();
    assert_eq!(ys(&saved.world), ys(&a.world));
}

/// Writes `SCENE` with `left` at `x` and the bodies in the given order of names.
fn scene_text(x: f32, right_first: bool) -> String {
    let s = SCENE.replace("(-2.0, 1.0)", &format!("({x:.1}, 1.0)"));
    if !right_first {
        return s;
    }
    let lines: Vec<&str> = s.lines().collect();
    let (l, r) = (
        lines.iter().position(|l| l.contains("\"left\"")).unwrap(),
        lines.iter().position(|l| l.contains("\"right\"")).unwrap(),
    );
    let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    v.swap(l, r);
    v.join("\n")
}

#[test]
fn reload_updates_the_world_and_keeps_camera_selection_and_pause() {
    let dir = tmp("reload");
    let path = dir.join("scene.ron");
    std::fs::write(&path, scene_text(-2.0, false)).unwrap();
    let mut a = App::from_path(&path).unwrap();
    for _ in 0..30 {
        a.apply(Action::Step);
    }
    a.apply(Action::SelectNamed("left".into()));
    a.apply(Action::SetCamera { center: Vec2::new(3.0, 4.0), height: 7.0 });
    assert_eq!(a.mode, RunMode::Paused);

    // The file changes: `left` moves and comes after `right`.
    std::fs::write(&path, scene_text(-4.0, true)).unwrap();
    a.apply(Action::ReloadFile);
    assert_eq!(a.error, None);
    let left = a.world.bodies.iter().position(|b| b.name == "left").unwrap();
    assert_eq!(left, 2);
    assert_eq!(a.world.bodies[left].xf.p, Vec2::new(-4.0, 1.0));
    assert_eq!(a.selection, vec![left]);
    assert_eq!((a.camera.center, a.camera.height), (Vec2::new(3.0, 4.0), 7.0));
    assert_eq!(a.mode, RunMode::Paused);
    assert_eq!(a.world.step_count, 0);
    assert_eq!(a.timeline.line.current_branch().newest(), 0);

    // Asked to, the reload runs the new scene to the step that was shown: the same state as a
    // fresh run of the new file.
    for _ in 0..30 {
        a.apply(Action::Step);
    }
    a.apply(Action::SetReloadResimulate(true));
    std::fs::write(&path, scene_text(-5.0, true)).unwrap();
    a.apply(Action::ReloadFile);
    assert_eq!(a.error, None);
    let mut fresh = App::from_path(&path).unwrap();
    for _ in 0..30 {
        fresh.step_once();
    }
    assert_eq!(a.world.step_count, 30);
    assert_eq!(a.world.state_hash(), fresh.world.state_hash());
    assert_eq!(a.timeline.line.current_branch().newest(), 30);
    assert_eq!(a.mode, RunMode::Paused);

    // A running world stays running.
    a.apply(Action::Play);
    std::fs::write(&path, scene_text(-6.0, false)).unwrap();
    a.apply(Action::ReloadFile);
    assert!(a.is_running());
}

#[test]
fn a_broken_save_keeps_the_world_and_shows_where() {
    let dir = tmp("reload_broken");
    let path = dir.join("scene.ron");
    std::fs::write(&path, scene_text(-2.0, false)).unwrap();
    let mut a = App::from_path(&path).unwrap();
    for _ in 0..12 {
        a.apply(Action::Step);
    }
    let hash = a.world.state_hash();
    let broken = scene_text(-2.0, false).replace("radius: 0.5", "radius: -0.5");
    std::fs::write(&path, &broken).unwrap();
    a.apply(Action::ReloadFile);
    let e = a.error.take().expect("a broken file is an error");
    let line = broken.lines().position(|l| l.contains("-0.5")).unwrap() + 1;
    assert!(e.contains(&format!("scene.ron:{line}:")), "{e}");
    assert_eq!((a.world.state_hash(), a.world.step_count), (hash, 12));
    // Not UTF-8, and then gone.
    std::fs::write(&path, b"Scene(\xff)").unwrap();
    a.apply(Action::ReloadFile);
    assert!(a.error.take().unwrap().contains("scene.ron:1:"));
    std::fs::remove_file(&path).unwrap();
    a.apply(Action::ReloadFile);
    assert!(a.error.take().is_some());
    assert_eq!(a.world.state_hash(), hash);
    // Fixed: it reloads.
    std::fs::write(&path, scene_text(-3.0, false)).unwrap();
    a.apply(Action::ReloadFile);
    assert_eq!(a.error, None);
    assert_eq!(a.world.bodies[1].xf.p, Vec2::new(-3.0, 1.0));
}

#[test]
fn our_own_save_does_not_reload() {
    let dir = tmp("own_save");
    let path = dir.join("scene.ron");
    std::fs::write(&path, scene_text(-2.0, false)).unwrap();
    let mut a = App::from_path(&path).unwrap();
    for _ in 0..10 {
        a.apply(Action::Step);
    }
    a.apply(Action::SaveScene(path.clone()));
    for _ in 0..5 {
        a.apply(Action::Step);
    }
    let hash = a.world.state_hash();
    a.apply(Action::ReloadFile);
    assert_eq!((a.world.state_hash(), a.world.step_count), (hash, 15));
}

#[test]
fn a_lab_preset_reloads_in_its_lab() {
    let dir = tmp("reload_lab");
    let path = dir.join("pair.ron");
    let text = std::fs::read_to_string(manifest("scenes/pairs/box_circle.ron")).unwrap();
    std::fs::write(&path, &text).unwrap();
    let mut a = app("scenes/default.ron");
    a.apply(Action::OpenFile(path.clone()));
    assert_eq!(a.error, None);
    std::fs::write(&path, text.replacen("version: 1", "version: 1,\n    bogus: 1", 1)).unwrap();
    a.apply(Action::ReloadFile);
    assert!(a.error.take().is_some());
    assert_eq!(a.lab.as_ref().map(|l| l.kind()), Some(LabKind::Manifold));
    let renamed = text.replacen("name: \"", "name: \"Edited ", 1);
    std::fs::write(&path, renamed).unwrap();
    a.apply(Action::ReloadFile);
    assert_eq!(a.error, None);
    assert_eq!(a.open_file_path(), Some(path));
}

/// Polls `f` until it is true, for at most `limit` (a generous bound, not a timing claim).
fn eventually(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn the_watcher_fires_when_the_file_is_written() {
    let dir = tmp("watch");
    let path = dir.join("scene.ron");
    std::fs::write(&path, scene_text(-2.0, false)).unwrap();
    let mut w = FileWatcher::new(&path).unwrap();
    assert!(!w.poll());
    // A write to another file in the folder is not this file's change.
    std::fs::write(dir.join("other.ron"), "x").unwrap();
    std::fs::write(&path, scene_text(-3.0, false)).unwrap();
    assert!(eventually(Duration::from_secs(20), || w.poll()), "no change seen");

    // Through the app: hot reload on, the file replaced the way editors save (write a new
    // file, rename it over the old one), and the world follows.
    let mut a = App::from_path(&path).unwrap();
    a.files.hot_reload = true;
    a.poll_files();
    assert_eq!(a.files.watching(), Some(path.clone()));
    let tmp_file = dir.join(".scene.ron.swp");
    std::fs::write(&tmp_file, scene_text(-7.0, false)).unwrap();
    std::fs::rename(&tmp_file, &path).unwrap();
    let reloaded = eventually(Duration::from_secs(20), || {
        a.poll_files();
        a.world.bodies[1].xf.p.x == -7.0
    });
    assert!(reloaded, "the world was not reloaded");
    assert_eq!(a.error, None);
}
