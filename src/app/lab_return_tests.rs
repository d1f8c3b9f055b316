//! Into a lab and back to the scene, with scripted actions: "Back to the scene" returns to the
//! exact state and timeline that were left (`lab_return`).

use super::lab::LabKind;
use super::state::{Action, App, RunMode};
use super::timeline::TimelineAction;
use crate::app::tools::inspector::ContactRef;
use crate::app::tools::inspector::{ContactInspector, InspectorAction};
use glam::Vec2;
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// What "the same scene" means: the world's state, its step, the timeline (branches, each
/// one's newest step and keyframes, the cursor), the history, the selection, the view.
#[derive(Debug, PartialEq)]
struct Seen {
    hash: u64,
    step: u64,
    cursor: u64,
    branch: usize,
    branches: Vec<(u64, Vec<u64>)>,
    history: usize,
    selection: Vec<usize>,
    camera: (Vec2, f32),
    mode: RunMode,
    pinned: Option<ContactRef>,
}

fn seen(app: &App) -> Seen {
    let t = &app.timeline.line;
    let branches = t.branches().iter().map(|b| (b.newest(), b.keyframes().map(|(s, _)| *s).collect())).collect();
    Seen {
        hash: app.world.state_hash(),
        step: app.world.step_count,
        cursor: t.cursor(),
        branch: t.current(),
        branches,
        history: app.history.len(),
        selection: app.selection.clone(),
        camera: (app.camera.center, app.camera.height),
        mode: app.mode,
        pinned: app.tool::<ContactInspector>().pinned,
    }
}

/// The pyramid run 40 steps, edited at step 12 (a pose), scrubbed back to step 30 and
/// stepped twice from there (a branch), a body selected, the view zoomed, a contact pinned.
fn scene_left_mid_run() -> App {
    let mut app = App::from_path(&manifest("scenes/pyramid.ron")).unwrap();
    for k in 0..40 {
        if k == 12 {
            let b = &app.world.bodies[5];
            let (position, angle) = (b.xf.p + Vec2::new(0.0, 0.3), b.angle);
            app.apply(Action::SetPose { body: 5, position, angle });
        }
        app.apply(Action::Step);
    }
    app.apply(Action::Timeline(TimelineAction::Seek(30)));
    app.apply(Action::SetPose { body: 7, position: app.world.bodies[7].xf.p + Vec2::new(0.1, 0.0), angle: 0.2 });
    app.apply(Action::Step);
    app.apply(Action::Step);
    app.apply(Action::Select(Some(9)));
    app.apply(Action::ZoomAt { screen: Vec2::new(700.0, 300.0), factor: 1.7 });
    let c = *app.world.contacts.iter().find(|c| c.manifold.count > 0).expect("a touching pair");
    app.apply(Action::from(InspectorAction::Pin(Some(ContactRef {
        a: c.a,
        b: c.b,
        point: 0,
        shape_pair: c.shape_pair,
    }))));
    assert!(app.error.is_none(), "{:?}", app.error);
    app
}

#[test]
fn back_from_a_contact_opened_in_the_manifold_lab_returns_to_the_scene_as_left() {
    let mut app = scene_left_mid_run();
    let before = seen(&app);
    assert_eq!((before.step, before.cursor, before.branches.len()), (32, 32, 2), "{before:?}");
    assert!(before.history > 0 && before.branches.iter().all(|b| !b.1.is_empty()));
    let pinned = app.tool::<ContactInspector>().pinned.unwrap();
    app.apply(Action::OpenContactInLab { a: pinned.a, b: pinned.b, shape_pair: pinned.shape_pair });
    assert!(app.lab.is_some() && app.error.is_none(), "{:?}", app.error);
    assert_ne!(seen(&app), before, "the lab shows its own two bodies");
    // Work in the lab: move a shape, step, zoom.
    app.apply(Action::SetPose { body: 1, position: Vec2::new(3.0, 3.0), angle: 0.5 });
    app.apply(Action::Step);
    app.apply(Action::ZoomAt { screen: Vec2::new(500.0, 400.0), factor: 0.5 });
    app.apply(Action::CloseLab);
    assert!(app.lab.is_none());
    assert_eq!(seen(&app), before);
    // And it carries on from there: B steps back through the kept history, a step goes on.
    app.apply(Action::StepBack);
    assert_eq!(app.world.step_count, 31);
    app.apply(Action::Step);
    app.apply(Action::Step);
    assert_eq!((app.world.step_count, app.timeline.line.cursor()), (33, 33));
}

#[test]
fn back_from_any_lab_returns_to_the_scene_as_left() {
    for kind in [LabKind::Toi, LabKind::HullSat, LabKind::World3d, LabKind::Tree, LabKind::Slice] {
        let mut app = scene_left_mid_run();
        app.apply(Action::Play);
        let before = seen(&app);
        app.apply(Action::OpenLab { kind, file: None });
        assert!(app.lab.is_some(), "{kind:?}: {:?}", app.error);
        app.update(0.25);
        app.apply(Action::Step);
        app.apply(Action::CloseLab);
        assert_eq!(seen(&app), before, "{kind:?}");
    }
}

#[test]
fn a_lab_opened_from_a_lab_returns_to_the_first_scene() {
    let mut app = scene_left_mid_run();
    let before = seen(&app);
    app.apply(Action::OpenLab { kind: LabKind::Manifold, file: None });
    app.apply(Action::OpenFile(manifest("scenes/toi/box_onto_box.ron")));
    assert!(app.error.is_none(), "{:?}", app.error);
    app.apply(Action::CloseLab);
    assert_eq!(seen(&app), before);
}

#[test]
fn a_bad_lab_file_keeps_the_scene_and_a_scene_loaded_in_a_lab_is_the_new_one() {
    let mut app = scene_left_mid_run();
    let before = seen(&app);
    app.apply(Action::OpenLab { kind: LabKind::Manifold, file: Some(manifest("tests/broken/negative_radius.ron")) });
    assert!(app.error.take().is_some() && app.lab.is_none());
    assert_eq!(seen(&app), before, "a lab that did not open changed nothing");
    // A scene loaded from inside a lab replaces the one left: Back has nothing older to return to.
    app.apply(Action::OpenLab { kind: LabKind::Toi, file: None });
    app.apply(Action::LoadScene(manifest("scenes/vertical_stack.ron")));
    assert!(app.lab.is_none() && app.left_scene.is_none());
    app.apply(Action::Step);
    let stack = seen(&app);
    app.apply(Action::OpenLab { kind: LabKind::QuickHull, file: None });
    app.apply(Action::CloseLab);
    assert_eq!(seen(&app), stack);
}

#[test]
fn a_lab_opened_without_a_scene_goes_back_to_the_scene_as_loaded() {
    let mut app = App::from_path(&manifest("scenes/pyramid.ron")).unwrap();
    let loaded = app.world.state_hash();
    for _ in 0..5 {
        app.apply(Action::Step);
    }
    // As `--lab` does: the lab is shown with no scene left behind it.
    let lab = LabKind::Manifold.open(&mut app, None).unwrap();
    app.enter_lab(lab);
    app.apply(Action::CloseLab);
    assert_eq!((app.world.state_hash(), app.world.step_count), (loaded, 0));
    assert_eq!((app.timeline.line.cursor(), app.timeline.line.current_branch().newest()), (0, 0));
}
