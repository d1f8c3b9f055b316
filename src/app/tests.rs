//! App logic without a window: actions, gestures and error handling.

use super::state::{Action, App, RunMode};
use crate::app::input::{pointer_actions, Gesture, InputState, PointerFrame};
use glam::Vec2;
use manifold_lab::engine::debug::Layer;
use manifold_lab::engine::solver::SolverParams;
use manifold_lab::scene::PresetFile;
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn stack_app() -> App {
    App::from_path(&manifest("scenes/vertical_stack.ron")).expect("shipped scene loads")
}

#[test]
fn a_broken_scene_keeps_the_current_one_and_reports_file_line_column() {
    let mut app = stack_app();
    let before = app.world.state_hash();
    let bodies = app.world.bodies.len();
    let bad = manifest("tests/broken/negative_radius.ron");
    app.apply(Action::LoadScene(bad.clone()));
    let err = app.error.clone().expect("the error is shown");
    assert!(err.contains("negative_radius.ron:"), "{err}");
    assert!(err.contains("radius"), "{err}");
    assert_eq!(app.world.bodies.len(), bodies);
    assert_eq!(app.world.state_hash(), before);
    assert_eq!(app.scene_path.as_deref(), Some(manifest("scenes/vertical_stack.ron").as_path()));
    app.apply(Action::DismissError);
    assert!(app.error.is_none());
    // A missing file is an error too.
    app.apply(Action::LoadScene(manifest("scenes/does_not_exist.ron")));
    assert!(app.error.as_deref().unwrap().contains("does_not_exist.ron"));
}

#[test]
fn step_pause_and_step_back() {
    let mut app = stack_app();
    let h0 = app.world.state_hash();
    app.apply(Action::Step);
    assert_eq!(app.mode, RunMode::Paused);
    assert_eq!(app.world.step_count, 1);
    let h1 = app.world.state_hash();
    assert_ne!(h0, h1);
    app.apply(Action::Step);
    app.apply(Action::StepBack);
    assert_eq!(app.world.state_hash(), h1);
    app.apply(Action::StepBack);
    assert_eq!(app.world.state_hash(), h0);
    app.apply(Action::StepBack);
    assert!(app.notice.is_some(), "nothing left to go back to");
    // Paused: real time does not advance the world; running does.
    app.update(1.0);
    assert_eq!(app.world.step_count, 0);
    app.apply(Action::Play);
    app.update(0.05);
    assert!(app.world.step_count >= 2);
}

#[test]
fn restart_rebuilds_the_scene_and_keeps_live_solver_edits() {
    let mut app = stack_app();
    let h0 = app.world.state_hash();
    let params = SolverParams { iterations: 7, ..app.world.params.clone() };
    app.apply(Action::SetParams(params));
    for _ in 0..5 {
        app.apply(Action::Step);
    }
    app.apply(Action::Restart);
    assert_eq!(app.world.state_hash(), h0);
    assert_eq!(app.world.params.iterations, 7);
}

#[test]
fn invalid_solver_params_are_refused() {
    let mut app = stack_app();
    let bad = SolverParams { hz: f32::NAN, ..Default::default() };
    app.apply(Action::SetParams(bad));
    assert!(app.error.as_deref().unwrap().contains("hz"));
    assert_eq!(app.world.params.hz, 60.0);
}

fn press(pos: Vec2) -> PointerFrame {
    PointerFrame { pos, left_pressed: true, left_down: true, ..Default::default() }
}

fn hold(pos: Vec2) -> PointerFrame {
    PointerFrame { pos, left_down: true, ..Default::default() }
}

fn release(pos: Vec2) -> PointerFrame {
    PointerFrame { pos, left_released: true, ..Default::default() }
}

fn run(app: &mut App, st: &mut InputState, f: PointerFrame) {
    for a in pointer_actions(app, st, &f, false) {
        app.apply(a);
    }
}

#[test]
fn paused_drag_places_the_body_under_the_cursor() {
    let mut app = stack_app();
    app.apply(Action::Pause);
    let top = app.world.bodies.len() - 1;
    let grab = app.world.bodies[top].center + Vec2::new(0.2, 0.1);
    let to = Vec2::new(4.0, 3.0);
    let screen = |app: &App, w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let mut st = InputState::default();
    let p = screen(&app, grab);
    run(&mut app, &mut st, press(p));
    assert_eq!(app.selection, vec![top]);
    assert!(matches!(st.gesture, Gesture::DragPose { .. }));
    let p = screen(&app, to);
    run(&mut app, &mut st, hold(p));
    let p = screen(&app, to);
    run(&mut app, &mut st, release(p));
    let b = &app.world.bodies[top];
    // The grabbed point (0.2, 0.1 from the centre) follows the cursor.
    assert!((b.xf.apply(Vec2::new(0.2, 0.1)) - to).length() < 0.01, "{:?}", b.center);
    assert_eq!(st.gesture, Gesture::None);
}

#[test]
fn running_drag_pulls_with_a_mouse_joint_and_releases() {
    let mut app = stack_app();
    let top = app.world.bodies.len() - 1;
    let grab = app.world.bodies[top].center;
    let screen = |app: &App, w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let mut st = InputState::default();
    let p = screen(&app, grab);
    run(&mut app, &mut st, press(p));
    assert!(app.world.mouse_joint.is_some());
    let target = grab + Vec2::new(3.0, 1.0);
    for _ in 0..60 {
        let p = screen(&app, target);
        run(&mut app, &mut st, hold(p));
        app.world.step();
    }
    assert!((app.world.bodies[top].center - target).length() < 0.3);
    let p = screen(&app, target);
    run(&mut app, &mut st, release(p));
    assert!(app.world.mouse_joint.is_none());
}

#[test]
fn ctrl_drag_rotates_about_the_centre_of_mass() {
    let mut app = stack_app();
    app.apply(Action::Pause);
    let top = app.world.bodies.len() - 1;
    let c = app.world.bodies[top].center;
    let screen = |app: &App, w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let mut st = InputState::default();
    let p = screen(&app, c + Vec2::new(0.4, 0.0));
    let mut f = press(p);
    f.rotate_modifier = true;
    run(&mut app, &mut st, f);
    let p = screen(&app, c + Vec2::new(0.0, 0.4));
    run(&mut app, &mut st, hold(p));
    let b = &app.world.bodies[top];
    assert!((b.angle - std::f32::consts::FRAC_PI_2).abs() < 0.02, "angle {}", b.angle);
    assert!((b.center - c).length() < 1e-4);
}

#[test]
fn a_move_in_the_frame_of_the_release_still_counts() {
    // X delivers the last motion and the button release together when the user flicks or a
    // frame comes late: the drag and the rotation end where the pointer was released.
    let screen = |app: &App, w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let mut app = stack_app();
    app.apply(Action::Pause);
    let top = app.world.bodies.len() - 1;
    let grab = app.world.bodies[top].center;
    let mut st = InputState::default();
    let p = screen(&app, grab);
    run(&mut app, &mut st, press(p));
    let to = grab + Vec2::new(2.0, 1.0);
    let p = screen(&app, to);
    run(&mut app, &mut st, release(p));
    assert!((app.world.bodies[top].center - to).length() < 0.01, "{:?}", app.world.bodies[top].center);
    assert_eq!(st.gesture, Gesture::None);

    let c = app.world.bodies[top].center;
    let p = screen(&app, c + Vec2::new(0.4, 0.0));
    let mut f = press(p);
    f.rotate_modifier = true;
    run(&mut app, &mut st, f);
    let p = screen(&app, c + Vec2::new(0.0, 0.4));
    run(&mut app, &mut st, release(p));
    let b = &app.world.bodies[top];
    assert!((b.angle - std::f32::consts::FRAC_PI_2).abs() < 0.02, "angle {}", b.angle);
    assert_eq!(st.gesture, Gesture::None);
}

#[test]
fn clicking_empty_space_clears_and_shift_click_adds() {
    let mut app = stack_app();
    app.apply(Action::Pause);
    let screen = |app: &App, w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let mut st = InputState::default();
    let a = app.world.bodies[3].center;
    let b = app.world.bodies[5].center;
    let p = screen(&app, a);
    run(&mut app, &mut st, press(p));
    let p = screen(&app, a);
    run(&mut app, &mut st, release(p));
    let p = screen(&app, b);
    let mut f = press(p);
    f.shift = true;
    run(&mut app, &mut st, f);
    assert_eq!(app.selection, vec![3, 5]);
    let p = screen(&app, Vec2::new(8.0, 9.0));
    run(&mut app, &mut st, press(p));
    assert!(app.selection.is_empty());
}

#[test]
fn wheel_zooms_at_the_cursor_and_layers_toggle() {
    let mut app = stack_app();
    let cursor = app.viewport.center() + Vec2::new(100.0, -50.0);
    let before = app.camera.screen_to_world(&app.viewport, cursor);
    let h = app.camera.height;
    let mut st = InputState::default();
    run(&mut app, &mut st, PointerFrame { pos: cursor, wheel: 1.0, ..Default::default() });
    assert!(app.camera.height < h);
    assert!((app.camera.screen_to_world(&app.viewport, cursor) - before).length() < 1e-3);
    app.apply(Action::SetLayer(Layer::Aabb, true));
    assert!(app.layers.contains(Layer::Aabb));
    app.apply(Action::SetLayer(Layer::Aabb, false));
    assert!(!app.layers.contains(Layer::Aabb));
}

#[test]
fn save_writes_a_scene_that_loads_back_to_the_same_world() {
    let mut app = stack_app();
    for _ in 0..10 {
        app.apply(Action::Step);
    }
    let path = std::env::temp_dir().join(format!("manifold_lab_app_save_{}.ron", std::process::id()));
    app.apply(Action::SaveScene(path.clone()));
    assert!(app.error.is_none(), "{:?}", app.error);
    let hash = app.world.state_hash();
    app.apply(Action::LoadScene(path.clone()));
    assert!(app.error.is_none(), "{:?}", app.error);
    assert_eq!(app.world.state_hash(), hash);
    let _ = std::fs::remove_file(path);
}

#[test]
fn labs_open_on_their_default_pairs_and_close_back_to_the_scene() {
    use super::lab::hull3d::Hull3dLab;
    use super::lab::manifold::{act, ManifoldAction, ManifoldLab};
    use super::lab::pair::PairAction;
    use super::lab::tree::TreeLab;
    use super::lab::{LabKind, LABS};
    let mut app = stack_app();
    let scene_hash = app.world.state_hash();
    for &kind in LABS {
        let mut a = stack_app();
        a.apply(Action::OpenLab { kind, file: None });
        assert!(a.error.is_none(), "{:?}", a.error);
        assert_eq!(a.lab.as_ref().map(|l| l.kind()), Some(kind));
        match kind {
            LabKind::Tree => assert!(a.lab_as::<TreeLab>().unwrap().proxies.count() > 1000),
            // The 3D lab keeps its hulls outside the 2D world.
            LabKind::HullSat => assert!(a.lab_as::<Hull3dLab>().is_some_and(|h| h.view.result.is_ok())),
            // So do the time-of-impact lab its sweeps and the slicing lab its polygon.
            LabKind::Toi | LabKind::Slice | LabKind::QuickHull => {
                assert!(!a.shows_world() && a.mode == RunMode::Paused)
            }
            // The 3D dynamics lab runs its own world, as a 2D scene runs.
            LabKind::World3d => {
                let lab = a.lab_as::<super::lab::world3d::World3dLab>().unwrap();
                assert!(!a.shows_world() && a.is_running() && !lab.world.bodies.is_empty());
            }
            // The pair labs show their pair in the app's world. Every lab has its arm (no
            // wildcard), so a new lab does not compile here until its expectation is written.
            LabKind::Manifold | LabKind::Minkowski => {
                assert_eq!(a.world.bodies.len(), 2);
                assert_eq!(a.mode, RunMode::Paused);
            }
        }
    }
    let pair = Some(manifest("scenes/pairs/corner_into_face.ron"));
    app.apply(Action::OpenLab { kind: LabKind::Manifold, file: pair });
    app.apply(act(ManifoldAction::SetStage(99)));
    assert_eq!(app.lab_as::<ManifoldLab>().unwrap().stage, super::lab::manifold::LAST_STAGE);
    // A bad pair file keeps the lab as it was.
    app.apply(act(ManifoldAction::Pair(PairAction::Load(manifest("tests/broken/negative_radius.ron")))));
    assert!(app.error.take().is_some());
    assert_eq!(app.lab_as::<ManifoldLab>().unwrap().pair.spec.name, "Corner into face");
    // Another lab's action is refused while this one is open.
    app.apply(super::lab::tree::act(super::lab::tree::TreeAction::ClearQuery));
    assert!(app.error.take().is_some_and(|e| e.contains("tree")));
    app.apply(Action::CloseLab);
    assert!(app.lab.is_none());
    assert_eq!(app.world.state_hash(), scene_hash);
}

#[test]
fn lab_shapes_can_be_replaced_dragged_and_saved_as_a_pair() {
    use super::lab::minkowski::{act, MinkowskiAction, MinkowskiLab};
    use super::lab::pair::PairAction;
    use super::lab::LabKind;
    use manifold_lab::scene::ShapeDesc;
    let mut app = stack_app();
    app.apply(Action::OpenLab { kind: LabKind::Minkowski, file: None });
    let set_shape = |body, shape| act(MinkowskiAction::Pair(PairAction::SetShape { body, shape }));
    app.apply(set_shape(1, ShapeDesc::Circle { radius: 0.4 }));
    assert!(matches!(app.world.bodies[1].shape, manifold_lab::engine::shape::Shape::Circle(_)));
    app.apply(set_shape(0, ShapeDesc::Circle { radius: -1.0 }));
    assert!(app.error.take().unwrap().contains("radius"));
    // Drag B with the mouse (the lab is paused, so the pose follows the cursor).
    let screen = |app: &App, w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let mut st = InputState::default();
    let from = app.world.bodies[1].center;
    let to = from + Vec2::new(0.5, -0.25);
    let p = screen(&app, from);
    run(&mut app, &mut st, press(p));
    let p = screen(&app, to);
    run(&mut app, &mut st, hold(p));
    run(&mut app, &mut st, release(p));
    assert!((app.world.bodies[1].center - to).length() < 1e-3);
    let path = std::env::temp_dir().join(format!("manifold_lab_pair_{}.ron", std::process::id()));
    app.apply(act(MinkowskiAction::Pair(PairAction::Save(path.clone()))));
    assert!(app.error.is_none(), "{:?}", app.error);
    let back = manifold_lab::scene::PairSpec::load(&path).unwrap();
    assert_eq!(back.b.position, app.world.bodies[1].xf.p);
    let _ = std::fs::remove_file(path);
    // The sweep samples a full turn.
    app.apply(act(MinkowskiAction::RunSweep));
    assert_eq!(app.lab_as::<MinkowskiLab>().unwrap().sweep.len(), 360);
}

#[test]
fn the_world_view_draws_a_motion_layer_at_the_scale_set() {
    use crate::app::render::view::world_options;
    use manifold_lab::engine::debug::{DebugList, DrawCmd, MotionScales};
    let mut app = App::from_path(&manifest("scenes/buoyancy.ron")).expect("shipped scene loads");
    for _ in 0..60 {
        app.step_once();
    }
    app.apply(Action::SetLayer(Layer::BuoyancyForce, true));
    app.apply(Action::SetMotionScales { force: 0.2, velocity: 0.3 });
    app.apply(Action::SelectNamed("half_density_box".into()));
    let opts = world_options(&app, 0.0);
    assert_eq!(opts.motion, MotionScales { force: 0.2, velocity: 0.3 });
    assert_eq!(opts.selected, app.selection);
    let mut list = DebugList::new(app.layers);
    app.world.debug_draw(&mut list, &opts);
    // The floating box's buoyancy, 0.2 m per newton, from its centre of mass; no other motion
    // layer draws.
    let b = &app.world.bodies[app.selection[0]];
    let buoyancy = app.world.body_forces(app.selection[0]).buoyancy;
    assert!(buoyancy.y > 0.0, "it floats");
    let drawn = list.on(Layer::BuoyancyForce).find_map(|c| match c {
        DrawCmd::Arrow { from, to, .. } if *from == b.center => Some(*to - *from),
        _ => None,
    });
    assert!(drawn.is_some_and(|v| v.distance(0.2 * buoyancy) < 1e-5), "{drawn:?} for {buoyancy:?}");
    let others = Layer::MOTION.iter().filter(|&&l| l != Layer::BuoyancyForce);
    assert_eq!(others.map(|&l| list.count(l)).sum::<usize>(), 0);
}
