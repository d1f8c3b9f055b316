//! The 3D lab on the shared timeline, without a window: the same `TimelineAction`s as a 2D
//! scene's seek to states equal to a fresh run's, step back goes on along the timeline once
//! the kept states are gone, an edit at a past step branches (compared, ghosted, diffed), and
//! switching branch swaps the comparison.

use super::timeline_3d::{draw_ghost, state_json};
use super::{act, World3dAction, World3dLab};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use crate::app::timeline::TimelineAction as T;
use glam::Vec3;
use manifold_lab::engine::debug3::{DebugList3, Layer3, LayerSet3};
use manifold_lab::engine::world3d::World3;
use manifold_lab::scene;
use std::path::Path;

fn lab_app(file: &str) -> App {
    let mut app = App::new(scene::Scene::new("empty"), None);
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    app.apply(Action::OpenLab { kind: LabKind::World3d, file: Some(file) });
    assert!(app.error.is_none(), "{:?}", app.error);
    app
}

fn lab(app: &App) -> &World3dLab {
    app.lab_as::<World3dLab>().expect("the 3D dynamics lab is open")
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.apply(Action::Step);
    }
}

/// The hashes of the file's world stepped `n` times, outside the app.
fn fresh_hashes(app: &App, n: usize) -> Vec<u64> {
    let mut w: World3 = lab(app).spec.build_world().unwrap();
    let mut out = vec![w.state_hash()];
    for _ in 0..n {
        w.step();
        out.push(w.state_hash());
    }
    out
}

#[test]
fn timeline_actions_scrub_the_3d_world_to_a_fresh_runs_states() {
    let mut app = lab_app("scenes/world3d/tumble.ron");
    steps(&mut app, 30);
    let fresh = fresh_hashes(&app, 30);
    let at = |app: &App| (lab(app).world.step_count, lab(app).world.state_hash());
    for (a, want) in [
        (T::Seek(10), 10),
        (T::SeekBy(5), 15),
        (T::SeekBy(-3), 12),
        (T::SeekStart, 0),
        (T::SeekEnd, 30),
        (T::Seek(99), 30),
    ] {
        app.apply(Action::Timeline(a.clone()));
        assert_eq!(at(&app), (want, fresh[want as usize]), "{a:?}");
        assert_eq!(lab(&app).timeline.line.cursor(), want);
    }
    assert!(app.error.is_none(), "{:?}", app.error);
    // At a past step the kept states are gone; a step back goes along the timeline, and
    // stepping on follows the known future without branching.
    app.apply(Action::Timeline(T::Seek(8)));
    assert_eq!(lab(&app).history.len(), 0);
    assert!(lab(&app).can_step_back());
    app.apply(Action::StepBack);
    assert_eq!(at(&app), (7, fresh[7]));
    steps(&mut app, 4);
    assert_eq!(at(&app), (11, fresh[11]));
    assert_eq!((lab(&app).timeline.line.branches().len(), lab(&app).timeline.line.current_branch().newest()), (1, 30));
    assert!(app.error.is_none(), "following the known future is no divergence: {:?}", app.error);
    let s = state_json(lab(&app));
    assert_eq!((s["cursor"].as_u64(), s["newest"].as_u64(), s["branches"].as_u64()), (Some(11), Some(30), Some(1)));
    // The determinism check runs on the 3D world from the panel's Check.
    app.apply(Action::Timeline(T::CheckDeterminism));
    assert!(app.notice.as_deref().is_some_and(|n| n.starts_with("deterministic over 30 steps")), "{:?}", app.notice);
}

#[test]
fn a_3d_edit_at_a_past_step_branches_with_ghosts_and_a_diff() {
    let mut app = lab_app("scenes/world3d/stack.ron");
    steps(&mut app, 40);
    let old_end = lab(&app).world.state_hash();
    app.apply(Action::Timeline(T::Seek(20)));
    // An edit there: gravity sideways.
    let mut p = lab(&app).world.params.clone();
    p.gravity = Vec3::new(6.0, -10.0, 0.0);
    app.apply(act(World3dAction::SetParams(p)));
    let t = &lab(&app).timeline;
    assert_eq!((t.line.branches().len(), t.line.current(), t.compare), (2, 1, Some(0)));
    assert!(app.notice.as_deref().is_some_and(|n| n.contains("branch 1 started")), "{:?}", app.notice);
    steps(&mut app, 12);
    let l = lab(&app);
    let ghost = l.timeline.ghost().expect("branch 0 at step 32");
    assert_eq!(ghost.step_count, 32);
    let diff = l.timeline.diff(&l.world);
    assert!(!diff.is_empty() && diff[0].position > 0.0, "{diff:?}");
    // The edit changed the gravity, not the poses: the states part one step after it.
    assert_eq!(l.timeline.line.first_divergence(0, 1), Some(21));
    // The ghost's moved hulls are drawn as outlines on the hull layer.
    let mut list = DebugList3::new(LayerSet3::of(&[Layer3::Shape]));
    draw_ghost(l, &mut list);
    let s = state_json(l);
    assert!(s["ghost_hulls"].as_u64().unwrap() > 0, "{s}");
    assert!(list.count(Layer3::Shape) >= 12 * s["ghost_hulls"].as_u64().unwrap() as usize, "12 edges per cube");
    // Switching to the old branch compares with the new one; its future is intact.
    app.apply(Action::Timeline(T::SelectBranch(0)));
    assert_eq!((lab(&app).timeline.line.current(), lab(&app).timeline.compare), (0, Some(1)));
    app.apply(Action::Timeline(T::SeekEnd));
    assert_eq!(lab(&app).world.state_hash(), old_end);
    assert!(lab(&app).timeline.ghost().is_none(), "branch 1 does not reach step 40");
    app.apply(Action::Timeline(T::Compare(None)));
    assert_eq!(lab(&app).timeline.compare, None);
    app.apply(Action::Timeline(T::Compare(Some(7))));
    assert_eq!(app.error.as_deref(), Some("no branch 7"));
}

#[test]
fn a_paused_drag_at_a_past_step_is_an_edit_that_branches_and_restart_starts_over() {
    let mut app = lab_app("scenes/world3d/stack.ron");
    steps(&mut app, 15);
    app.apply(Action::Timeline(T::Seek(5)));
    let body = lab(&app).world.bodies.iter().rposition(|b| b.is_dynamic()).unwrap();
    let c = lab(&app).world.bodies[body].center;
    app.apply(act(World3dAction::Grab { body, point: c }));
    app.apply(act(World3dAction::PullTo(c + Vec3::new(0.0, 1.0, 0.0))));
    app.apply(act(World3dAction::Release));
    assert_eq!(lab(&app).timeline.line.branches().len(), 2);
    assert_eq!(lab(&app).timeline.line.branch(1).unwrap().parent, Some((0, 5)));
    // Selecting only is no edit.
    app.apply(act(World3dAction::Select(Some(0))));
    assert_eq!(lab(&app).timeline.line.branches().len(), 2);
    app.apply(Action::Restart);
    let t = &lab(&app).timeline;
    assert_eq!((t.line.branches().len(), t.line.cursor(), t.compare), (1, 0, None));
}

/// Record and Stop in the lab (the timeline bar's button) write a 3D recording of the current
/// branch whose replay (`replay`'s code) ends at the lab's state hash, settings and water
/// edits included, the ones made on a branch at a past step as that branch holds them.
#[test]
fn a_recording_made_in_the_lab_replays_to_the_same_hash() {
    let mut app = lab_app("scenes/world3d/float.ron");
    app.apply(Action::Timeline(T::Record(true)));
    assert_eq!(state_json(lab(&app))["recording"], true);
    steps(&mut app, 12);
    let mut p = lab(&app).world.params.clone();
    p.iterations = 3;
    app.apply(act(World3dAction::SetParams(p)));
    steps(&mut app, 10);
    // Back to step 5, the water lowered there: a branch, whose log keeps nothing of step 12.
    app.apply(Action::Timeline(T::Seek(5)));
    let mut water = lab(&app).world.water.clone();
    water[0].level -= 0.2;
    app.apply(act(World3dAction::SetWater(water)));
    steps(&mut app, 15);
    assert_eq!(lab(&app).timeline.line.current(), 1, "a branch");
    let rec = lab(&app).recording().unwrap();
    assert_eq!(rec.header.edits.len(), 1, "the branch's own edit only: {:?}", rec.header.edits);
    let path = std::env::temp_dir().join(format!("i3d_rec_{}.mlrec", std::process::id()));
    app.apply(Action::Timeline(T::SaveRecording(path.clone())));
    assert!(app.error.is_none(), "{:?}", app.error);
    assert!(app.notice.as_deref().unwrap().starts_with("Recorded 20 steps"), "{:?}", app.notice);
    let back = crate::app::timeline::record3::Recording3::load(&path).unwrap();
    let replayed = back.replay_with(None, &mut |_| {}).unwrap();
    assert_eq!(replayed.state_hash(), lab(&app).world.state_hash());
    assert_eq!(back.final_hash(), lab(&app).world.state_hash());
    // Back on the first branch, its edit at step 12 is the one recorded.
    app.apply(Action::Timeline(T::SelectBranch(0)));
    app.apply(Action::Timeline(T::SeekEnd));
    let rec = lab(&app).recording().unwrap();
    assert!(matches!(rec.header.edits.as_slice(), [e] if e.step == 12));
    assert_eq!(rec.replay_with(None, &mut |_| {}).unwrap().state_hash(), lab(&app).world.state_hash());
    // Stop writes the default file; a path that cannot be written is an error.
    let bad = std::env::temp_dir().join("no such dir").join("r.mlrec");
    app.apply(Action::Timeline(T::SaveRecording(bad)));
    assert!(app.error.as_deref().unwrap().starts_with("could not save the recording"), "{:?}", app.error);
    std::fs::remove_file(&path).ok();
}

/// A drag is not recorded: saving a run a drag changed says its replay ends elsewhere.
#[test]
fn a_recording_of_a_dragged_run_says_its_replay_ends_elsewhere() {
    let mut app = lab_app("scenes/world3d/stack.ron");
    app.apply(Action::Timeline(T::Record(true)));
    steps(&mut app, 5);
    let body = (lab(&app).world.bodies.iter()).position(|b| b.is_dynamic()).unwrap();
    let point = lab(&app).world.bodies[body].center;
    app.apply(act(World3dAction::Grab { body, point }));
    app.apply(act(World3dAction::PullTo(point + Vec3::new(0.5, 1.0, 0.0))));
    app.apply(act(World3dAction::Release));
    steps(&mut app, 5);
    let path = std::env::temp_dir().join(format!("i3d_drag_{}.mlrec", std::process::id()));
    app.apply(Action::Timeline(T::SaveRecording(path.clone())));
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("its replay ends elsewhere: a drag is not recorded"), "{notice}");
    std::fs::remove_file(&path).ok();
}
