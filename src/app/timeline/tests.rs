//! The timeline through the App's actions: scrub, keys, branch, ghost and diff, recordings.

use super::record::Recording;
use super::TimelineAction as T;
use crate::app::input::keys::key_action;
use crate::app::state::{Action, App, RunMode};
use glam::Vec2;
use macroquad::miniquad::{KeyCode, KeyMods};
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn app(scene: &str) -> App {
    App::from_path(&manifest(scene)).expect("shipped scene loads")
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.apply(Action::Step);
    }
}

#[test]
fn seeking_any_step_shows_the_state_of_a_fresh_run() {
    let mut a = app("scenes/pyramid.ron");
    steps(&mut a, 50);
    let mut fresh = app("scenes/pyramid.ron").stage.world;
    let mut hashes = vec![fresh.state_hash()];
    for _ in 0..50 {
        fresh.step();
        hashes.push(fresh.state_hash());
    }
    for k in [0u64, 1, 7, 33, 49, 50] {
        a.apply(Action::Timeline(T::Seek(k)));
        assert_eq!((a.world.step_count, a.world.state_hash()), (k, hashes[k as usize]), "step {k}");
    }
    a.apply(Action::Timeline(T::SeekStart));
    assert_eq!(a.world.step_count, 0);
    a.apply(Action::Timeline(T::SeekBy(5)));
    assert_eq!(a.world.step_count, 5);
    a.apply(Action::Timeline(T::SeekBy(-10)));
    assert_eq!(a.world.step_count, 0);
    a.apply(Action::Timeline(T::SeekEnd));
    assert_eq!((a.world.step_count, a.world.state_hash()), (50, hashes[50]));
    assert_eq!(a.mode, RunMode::Paused);
    // Past the newest step is clamped, not an error.
    a.apply(Action::Timeline(T::Seek(10_000)));
    assert_eq!(a.world.step_count, 50);
    assert!(a.error.is_none());
}

#[test]
fn stepping_back_past_the_history_goes_along_the_timeline_and_forward_follows_it() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 20);
    let end = a.world.state_hash();
    a.apply(Action::Timeline(T::Seek(10)));
    a.apply(Action::StepBack);
    assert_eq!(a.world.step_count, 9);
    steps(&mut a, 11);
    assert_eq!(a.world.state_hash(), end);
    assert_eq!(a.timeline.line.branches().len(), 1, "re-stepping a known future is no branch");
}

#[test]
fn home_end_and_arrows_move_along_the_timeline_and_f_still_frames() {
    let none = KeyMods::default();
    let shift = KeyMods { shift: true, ..Default::default() };
    assert_eq!(key_action(KeyCode::Home, none), Some(Action::Timeline(T::SeekStart)));
    assert_eq!(key_action(KeyCode::End, none), Some(Action::Timeline(T::SeekEnd)));
    assert_eq!(key_action(KeyCode::Left, none), Some(Action::Timeline(T::SeekBy(-1))));
    assert_eq!(key_action(KeyCode::Right, shift), Some(Action::Timeline(T::SeekBy(10))));
    assert_eq!(key_action(KeyCode::F, none), Some(Action::FrameAll));
}

#[test]
fn an_edit_at_a_past_step_branches_with_ghost_and_diff() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 40);
    let old_end = a.world.state_hash();
    a.apply(Action::Timeline(T::Seek(20)));
    let top = a.world.bodies.len() - 1;
    let p = a.world.bodies[top].xf.p + Vec2::new(1.5, 0.0);
    a.apply(Action::SetPose { body: top, position: p, angle: 0.3 });
    assert_eq!(a.timeline.line.current(), 1);
    assert_eq!(a.timeline.compare, Some(0), "the old branch is the ghost");
    assert!(a.notice.as_deref().unwrap_or("").contains("branch 1"));
    steps(&mut a, 10);
    let ghost = a.timeline.ghost().expect("the old branch reaches step 30");
    assert_eq!(ghost.step_count, 30);
    let diff = a.timeline.diff(&a.world);
    assert_eq!(diff[0].body, top, "the moved body differs most");
    assert_eq!(a.timeline.line.first_divergence(1, 0), Some(20));
    // The old future is kept: switching back shows it, and its end is unchanged.
    a.apply(Action::Timeline(T::SelectBranch(0)));
    assert_eq!(a.timeline.compare, Some(1));
    a.apply(Action::Timeline(T::SeekEnd));
    assert_eq!((a.world.step_count, a.world.state_hash()), (40, old_end));
    a.apply(Action::Timeline(T::SelectBranch(7)));
    assert!(a.error.is_some());
}

#[test]
fn a_branch_replayed_from_its_recording_matches() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 30);
    a.apply(Action::Timeline(T::Seek(12)));
    a.apply(Action::StartPull { body: 2, point: a.world.bodies[2].center });
    for k in 0..8 {
        a.apply(Action::PullTo(a.world.bodies[2].center + Vec2::new(0.3 * k as f32, 0.2)));
        a.apply(Action::Step);
    }
    a.apply(Action::EndPull);
    let mut params = a.world.params.clone();
    params.gravity = Vec2::new(0.0, -5.0);
    a.apply(Action::SetParams(params));
    steps(&mut a, 15);
    assert_eq!(a.timeline.line.current(), 1);
    let rec = a.recording().unwrap();
    assert_eq!(rec.header.steps, 35);
    assert_eq!(rec.header.actions.first().map(|s| s.step), Some(12));
    let text = rec.to_text().unwrap();
    let back = Recording::parse(&text, "branch.mlrec").unwrap();
    assert_eq!(back, rec);
    let replayed = back.replay(None);
    assert_eq!(replayed.world.state_hash(), a.world.state_hash());
    assert_eq!(replayed.world.state_hash(), back.final_hash());
    // The replay's timeline holds every step to scrub.
    assert_eq!(replayed.timeline.line.current_branch().newest(), 35);
}

#[test]
fn corrupt_recordings_give_located_errors() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 5);
    a.apply(Action::SetPose { body: 1, position: Vec2::new(0.5, 3.0), angle: 0.0 });
    let text = a.recording().unwrap().to_text().unwrap();
    let f = "r.mlrec";
    let err = |t: &str| Recording::parse(t, f).expect_err("rejected");
    assert!(err("").starts_with("r.mlrec:1:1"));
    assert!(err(&text.replacen("MLREC 1", "MLREC 9", 1)).contains("version 9 is not supported"));
    // Truncated anywhere: an error, never a panic.
    for cut in (0..text.len()).step_by(97).filter(|&c| text.is_char_boundary(c)) {
        let e = err(&text[..cut]);
        assert!(e.starts_with("r.mlrec"), "{e}");
    }
    // A bad value in the header is located at its line.
    let bad = text.replacen("steps: 5", "steps: -5", 1);
    let e = err(&bad);
    let line = bad.lines().position(|l| l.contains("steps: -5")).unwrap() + 1;
    assert!(e.starts_with(&format!("r.mlrec:{line}:")), "{e}");
    // A bad scene is located in the file, past the header.
    let bad = text.replacen("version: 1,", "version: 1, bogus: 3,", 1);
    let e = err(&bad);
    let line = bad.lines().position(|l| l.contains("bogus")).unwrap() + 1;
    assert!(e.starts_with(&format!("r.mlrec:{line}:")), "{e}");
    // Flipped bytes.
    let mut bytes = text.clone().into_bytes();
    for i in (0..bytes.len()).step_by(53) {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        if let Ok(t) = String::from_utf8(b) {
            let _ = Recording::parse(&t, f);
        }
    }
    bytes[3] = 0xff;
    let path = std::env::temp_dir().join("manifold_lab_flipped.mlrec");
    std::fs::write(&path, &bytes).unwrap();
    assert!(Recording::load(&path).unwrap_err().contains("not UTF-8"));
}

#[test]
fn a_parameter_edit_at_the_head_keeps_one_branch_that_seeks_reproduce() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 10);
    let mut p = a.world.params.clone();
    p.iterations += 1;
    a.apply(Action::SetParams(p.clone()));
    a.apply(Action::SetParams(p));
    steps(&mut a, 3);
    assert_eq!(a.timeline.line.branches().len(), 1);
    assert_eq!(a.timeline.line.current_branch().newest(), 13);
    a.apply(Action::Timeline(T::Seek(11)));
    assert_eq!(a.timeline.line.world_at(0, 13, None).unwrap().state_hash(), {
        steps(&mut a, 2);
        a.world.state_hash()
    });
}

#[test]
fn the_check_button_reports_deterministic() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 30);
    a.apply(Action::Timeline(T::CheckDeterminism));
    assert!(a.notice.as_deref().unwrap().starts_with("deterministic over 30 steps"), "{:?}", a.notice);
    assert!(a.timeline.last_check.as_deref().unwrap().ends_with("deterministic\n"));
}

#[test]
fn restarting_starts_a_new_timeline_and_recording_marks_the_status() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 10);
    a.apply(Action::Timeline(T::Record(true)));
    assert!(a.timeline.recorder.is_some());
    a.apply(Action::Restart);
    assert_eq!(a.timeline.line.current_branch().newest(), 0);
    assert!(a.timeline.recorder.is_none());
}

#[test]
fn opening_a_recording_puts_it_on_the_timeline_and_a_bad_one_keeps_the_world() {
    let mut a = app("scenes/vertical_stack.ron");
    steps(&mut a, 8);
    a.apply(Action::SetPose { body: 4, position: Vec2::new(2.0, 6.0), angle: 0.2 });
    steps(&mut a, 4);
    let path = std::env::temp_dir().join("manifold_lab_open.mlrec");
    a.apply(Action::Timeline(T::SaveRecording(path.clone())));
    assert!(a.error.is_none(), "{:?}", a.error);
    let mut b = app("scenes/pyramid.ron");
    b.apply(Action::LoadScene(path.clone()));
    assert!(b.error.is_none(), "{:?}", b.error);
    assert_eq!((b.world.step_count, b.world.state_hash()), (12, a.world.state_hash()));
    b.apply(Action::Timeline(T::Seek(3)));
    assert_eq!(b.world.step_count, 3);
    let bad = std::env::temp_dir().join("manifold_lab_bad.mlrec");
    std::fs::write(&bad, "MLREC 1\n(steps: 1").unwrap();
    let before = b.world.state_hash();
    b.apply(Action::LoadScene(bad));
    assert!(b.error.as_deref().unwrap().contains("manifold_lab_bad.mlrec"), "{:?}", b.error);
    assert_eq!(b.world.state_hash(), before);
    assert_eq!(b.timeline.line.current_branch().newest(), 12, "the open timeline stays");
}
