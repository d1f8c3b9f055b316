//! The 3D dynamics lab without a window: opening it, running, stepping, stepping back and
//! restarting through the app's own actions; pulling a hull with the same gestures a mouse
//! makes; layers; and a bad file keeping the scene.

use super::{act, World3dAction, World3dLab};
use crate::app::history::History;
use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::{Vec2, Vec3};
use manifold_lab::engine::debug3::{DebugList3, Layer3};
use manifold_lab::engine::world3d::DrawOptions3;
use manifold_lab::scene;
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn lab_app(file: &str) -> App {
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind: LabKind::World3d, file: Some(manifest(file)) });
    assert!(app.error.is_none(), "{:?}", app.error);
    app
}

fn lab(app: &App) -> &World3dLab {
    app.lab_as::<World3dLab>().expect("the 3D dynamics lab is open")
}

fn hash(app: &App) -> u64 {
    lab(app).world.state_hash()
}

#[test]
fn opening_runs_the_scene_with_its_camera() {
    let mut app = lab_app("scenes/world3d/stack.ron");
    let l = lab(&app);
    assert_eq!(l.world.bodies.len(), l.spec.bodies.len());
    assert!((l.camera.yaw - 25f32.to_radians()).abs() < 1e-5, "the file's camera");
    assert!(app.is_running(), "opens running, as a 2D scene does");
    // Real time steps the world: half a second at 60 Hz in frames of 1/60 s.
    for _ in 0..30 {
        app.update(1.0 / 60.0);
    }
    let steps = lab(&app).world.step_count;
    assert!((29..=31).contains(&steps), "{steps} steps in half a second");
    // The default scene opens without a file too (tests run in the package directory).
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind: LabKind::World3d, file: None });
    assert!(app.lab_as::<World3dLab>().is_some(), "{:?}", app.error);
}

#[test]
fn step_back_and_restart_return_to_earlier_states() {
    let mut app = lab_app("scenes/world3d/tumble.ron");
    let start = hash(&app);
    let mut hashes = vec![start];
    for _ in 0..5 {
        app.apply(Action::Step);
        hashes.push(hash(&app));
    }
    assert!(!app.is_running(), "Step pauses");
    assert_eq!(lab(&app).world.step_count, 5);
    assert_eq!(lab(&app).history.len(), 5);
    for k in (0..5).rev() {
        app.apply(Action::StepBack);
        assert_eq!(hash(&app), hashes[k], "back to step {k}");
    }
    app.apply(Action::StepBack);
    assert!(app.notice.as_deref().is_some_and(|n| n.contains("No earlier step")), "{:?}", app.notice);
    // Stepping again from the restored state repeats the same steps.
    app.apply(Action::Step);
    assert_eq!(hash(&app), hashes[1], "deterministic from a snapshot");
    app.apply(Action::Play);
    for _ in 0..20 {
        app.update(1.0 / 60.0);
    }
    app.apply(Action::Restart);
    assert_eq!(hash(&app), start, "restart rebuilds the file's world");
    assert_eq!(lab(&app).world.step_count, 0);
    assert_eq!(lab(&app).history.len(), 0);
}

#[test]
fn history_is_bounded() {
    let l = World3dLab::load(&manifest("scenes/world3d/stack.ron")).unwrap();
    let cap = History::capacity_for(&l.world);
    assert!((100..=600).contains(&cap), "{cap} states of a 20-body world");
    let mut h = History::default();
    for _ in 0..cap + 25 {
        h.push(&l.world);
    }
    assert_eq!(h.len(), cap);
}

fn frame(pos: Vec2, pressed: bool, down: bool) -> PointerFrame {
    PointerFrame { pos, left_pressed: pressed, left_down: down, left_released: !down, ..Default::default() }
}

#[test]
fn dragging_a_hull_pulls_it_towards_the_cursor() {
    let mut app = lab_app("scenes/world3d/stack.ron");
    let cube = lab(&app).world.body_named("cube 5").unwrap();
    let start = lab(&app).world.bodies[cube].center;
    let (from, _) = lab(&app).camera.project(&app.viewport, start).unwrap();
    let to = from + Vec2::new(0.0, -120.0);
    let mut st = InputState::default();
    let mut apply = |app: &mut App, f: PointerFrame| {
        for a in pointer_actions(app, &mut st, &f, false) {
            app.apply(a);
        }
    };
    apply(&mut app, frame(from, true, true));
    assert_eq!(lab(&app).selected, Some(cube), "the press selects the hull under the cursor");
    assert!(lab(&app).world.mouse.is_some(), "and grabs it");
    for k in 1..=60 {
        apply(&mut app, frame(from.lerp(to, (k as f32 / 20.0).min(1.0)), false, true));
        app.update(1.0 / 60.0);
    }
    let l = lab(&app);
    let spring = l.world.mouse.as_ref().expect("still held");
    let grabbed = spring.anchor(&l.world.bodies[cube]);
    let (at, _) = l.camera.project(&app.viewport, grabbed).unwrap();
    assert!(at.distance(to) < 25.0, "the grabbed point follows the cursor: {at} vs {to}");
    assert!(l.world.bodies[cube].center.y > start.y + 0.5, "the cube was lifted off the tower");
    apply(&mut app, frame(to, false, false));
    assert!(lab(&app).world.mouse.is_none(), "releasing lets go");
    // A press on empty sky orbits instead.
    let yaw = lab(&app).camera.yaw;
    let sky = app.viewport.min + Vec2::new(10.0, 10.0);
    apply(&mut app, frame(sky, true, true));
    apply(&mut app, frame(sky + Vec2::new(40.0, 0.0), false, true));
    apply(&mut app, frame(sky + Vec2::new(40.0, 0.0), false, false));
    assert!((lab(&app).camera.yaw - yaw).abs() > 0.1, "orbited");
    assert_eq!(lab(&app).selected, Some(cube), "the selection stays");
}

#[test]
fn a_static_body_is_selected_but_not_pulled() {
    let mut app = lab_app("scenes/world3d/stack.ron");
    app.apply(act(World3dAction::Grab { body: 0, point: Vec3::ZERO }));
    assert_eq!(lab(&app).selected, Some(0));
    assert!(lab(&app).world.mouse.is_none(), "the ground cannot be pulled");
    app.apply(act(World3dAction::Grab { body: 999, point: Vec3::ZERO }));
    app.apply(act(World3dAction::PullTo(Vec3::NAN)));
    assert_eq!(lab(&app).selected, None, "a body that does not exist is not selected");
}

#[test]
fn layers_switch_what_the_engine_draws() {
    let mut app = lab_app("scenes/world3d/float.ron");
    for _ in 0..30 {
        app.apply(Action::Step);
    }
    app.apply(act(World3dAction::SetLayer(Layer3::SatAxis, true)));
    app.apply(act(World3dAction::SetLayer(Layer3::Water, false)));
    let l = lab(&app);
    let mut list = DebugList3::new(l.layers);
    l.world.debug_draw(&mut list, &DrawOptions3::default());
    assert_eq!(list.count(Layer3::Water), 0, "water switched off");
    assert!(list.count(Layer3::Submerged) > 0, "the submerged cut of the floating hulls");
    assert!(list.count(Layer3::Buoyancy) > 0, "centres of buoyancy and forces");
    assert!(l.submerged_fraction(l.world.body_named("half_density_cube").unwrap()) > 0.1);
}

#[test]
fn a_bad_file_keeps_the_scene_and_names_line_and_column() {
    let mut app = lab_app("scenes/world3d/float.ron");
    app.apply(Action::Step);
    let before = hash(&app);
    let bad = manifest("tests/broken3d/unknown_body.ron");
    app.apply(act(World3dAction::Load(bad.clone())));
    let e = app.error.clone().expect("an error is shown");
    assert!(e.starts_with(&format!("{}:9:", bad.display())), "{e}");
    assert!(e.contains("unknown body `bx`"), "{e}");
    assert_eq!(hash(&app), before, "the current world stays");
    assert!(lab(&app).path.ends_with("float.ron"));
    // A good file loads and clears the error.
    app.apply(act(World3dAction::Load(manifest("scenes/world3d/orientation_joint.ron"))));
    assert!(app.error.is_none());
    assert_eq!(lab(&app).world.joints.len(), 5, "two welds (ball + orientation each) and one orientation joint");
    // Opening the lab on a bad file fails with the same message.
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind: LabKind::World3d, file: Some(bad) });
    assert!(app.lab.is_none() && app.error.as_deref().is_some_and(|e| e.contains(":9:")));
}

#[test]
fn paused_a_dragged_hull_is_placed_on_the_cursor() {
    let mut app = lab_app("scenes/world3d/stack.ron");
    app.apply(Action::Pause);
    let body = lab(&app).world.bodies.iter().position(|b| b.is_dynamic()).unwrap();
    let grab = lab(&app).world.bodies[body].center + Vec3::new(0.1, 0.1, 0.0);
    app.apply(act(World3dAction::Grab { body, point: grab }));
    let target = grab + Vec3::new(1.5, 2.0, -0.5);
    app.apply(act(World3dAction::PullTo(target)));
    let l = lab(&app);
    let (b, m) = (&l.world.bodies[body], l.world.mouse.as_ref().unwrap());
    assert!(m.anchor(b).distance(target) < 1e-4, "the grabbed point is on the target");
    assert_eq!((b.linear_velocity, b.angular_velocity), (Vec3::ZERO, Vec3::ZERO));
    assert_eq!(l.world.step_count, 0, "placing does not step");
}

/// Steps `n` times through the app.
fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.apply(Action::Step);
    }
}

#[test]
fn solver_settings_set_live_step_as_the_same_settings_from_the_file() {
    use manifold_lab::engine::world3d::{Gyroscopic, SatChoice};
    let mut app = lab_app("scenes/world3d/tumble.ron");
    steps(&mut app, 10);
    let mut p = lab(&app).world.params.clone();
    (p.iterations, p.relax_iterations, p.substeps) = (3, 2, 2);
    (p.gyroscopic, p.sat, p.sat_cache) = (Gyroscopic::Catto, SatChoice::Robust, false);
    (p.contact_hertz, p.gravity) = (20.0, Vec3::new(1.0, -5.0, 0.5));
    // The same ten steps with the defaults, then twenty with the new settings, outside the app.
    let mut reference = lab(&app).spec.build_world().unwrap();
    (0..10).for_each(|_| reference.step());
    let untouched = {
        let mut w = reference.clone();
        (0..20).for_each(|_| w.step());
        w.state_hash()
    };
    reference.params = p.clone();
    (0..20).for_each(|_| reference.step());
    app.apply(act(World3dAction::SetParams(p.clone())));
    assert!(app.error.is_none(), "{:?}", app.error);
    steps(&mut app, 20);
    assert_eq!(hash(&app), reference.state_hash(), "applied from the next step on");
    assert_ne!(hash(&app), untouched, "the settings change the motion");
    // Step back and restart keep them, as a 2D restart keeps its solver settings.
    app.apply(Action::StepBack);
    assert_eq!(lab(&app).world.params, p);
    app.apply(Action::Restart);
    assert_eq!((lab(&app).world.params.clone(), lab(&app).world.step_count), (p, 0));
}

#[test]
fn bad_settings_and_water_are_refused_with_the_field_named() {
    let mut app = lab_app("scenes/world3d/float.ron");
    let before = lab(&app).world.clone();
    let mut p = before.params.clone();
    p.iterations = 0;
    app.apply(act(World3dAction::SetParams(p)));
    assert!(app.error.as_deref().is_some_and(|e| e.contains("`iterations`")), "{:?}", app.error);
    let mut water = before.water.clone();
    water[1].waves[0].wavelength = 0.0;
    app.apply(act(World3dAction::SetWater(water)));
    assert!(app.error.as_deref().is_some_and(|e| e.contains("`wavelength`")), "{:?}", app.error);
    assert_eq!((&lab(&app).world.params, &lab(&app).world.water), (&before.params, &before.water));
}

#[test]
fn water_set_live_floats_the_bodies_as_the_same_water_from_the_file() {
    let mut app = lab_app("scenes/world3d/float.ron");
    let cube = lab(&app).world.bodies.iter().position(|b| b.name == "half_density_cube").unwrap();
    let mut water = lab(&app).world.water.clone();
    water[0].level += 0.4;
    water[1].waves.clear();
    let mut reference = lab(&app).world.clone();
    let mut as_loaded = reference.clone();
    reference.set_water(water.clone());
    app.apply(act(World3dAction::SetWater(water.clone())));
    steps(&mut app, 300);
    (0..300).for_each(|_| reference.step());
    (0..300).for_each(|_| as_loaded.step());
    assert_eq!(hash(&app), reference.state_hash());
    // The cube floats: raised with the level it was raised by.
    let (y, y0) = (lab(&app).world.bodies[cube].center.y, as_loaded.bodies[cube].center.y);
    assert!((y - y0 - 0.4).abs() < 0.03, "the cube floats at {y}, {y0} in the file's water");
    // Step back keeps the water as set; restart rebuilds the file's.
    app.apply(Action::StepBack);
    assert_eq!(lab(&app).world.water, water);
    app.apply(Action::Restart);
    assert_ne!(lab(&app).world.water, water);
}

#[test]
fn a_scripts_settings_and_water_pass_the_action_check() {
    let app = lab_app("scenes/world3d/float.ron");
    let w = &lab(&app).world;
    let mut p = w.params.clone();
    (p.max_linear_speed, p.max_angular_speed, p.hz) = (1.0e4, 1.0e4, 240.0);
    for a in [act(World3dAction::SetParams(p)), act(World3dAction::SetWater(w.water.clone()))] {
        assert_eq!(crate::app::action::check::check(&a), Ok(()), "{a:?}");
    }
}

/// A body of several hulls is picked by any of them and dragged as one: a press on the chair's
/// back (its second hull, not the first) selects and grabs the chair, and pulling lifts it.
#[test]
fn a_chair_of_cuboids_is_picked_by_its_back_and_dragged_whole() {
    let mut app = lab_app("scenes/world3d/compound.ron");
    let chair = lab(&app).world.body_named("chair").unwrap();
    let body = &lab(&app).world.bodies[chair];
    assert_eq!(body.hull_count(), 6);
    // The back (hull 1) spans y 0.05..0.85 and z −0.5..−0.4 about the seat's centre.
    let on_back = body.pose.transform_point(Vec3::new(0.0, 0.8, -0.45));
    let start = body.center;
    let (from, _) = lab(&app).camera.project(&app.viewport, on_back).unwrap();
    let to = from + Vec2::new(0.0, -100.0);
    let mut st = InputState::default();
    let mut apply = |app: &mut App, f: PointerFrame| {
        for a in pointer_actions(app, &mut st, &f, false) {
            app.apply(a);
        }
    };
    apply(&mut app, frame(from, true, true));
    assert_eq!(lab(&app).selected, Some(chair), "the press on the back selects the chair");
    let spring = lab(&app).world.mouse.as_ref().expect("and grabs it");
    let body = &lab(&app).world.bodies[chair];
    let grabbed = body.pose.inverse_transform_point(spring.anchor(body));
    assert!(body.hull_at(1).contains_point(grabbed, 1e-3), "on the back: {grabbed}");
    assert!(!body.hull_at(0).contains_point(grabbed, 1e-3), "not on the seat: {grabbed}");
    for k in 1..=40 {
        apply(&mut app, frame(from.lerp(to, (k as f32 / 20.0).min(1.0)), false, true));
        app.update(1.0 / 60.0);
    }
    let now = &lab(&app).world.bodies[chair];
    assert!(now.center.y > start.y + 0.3, "the whole chair was lifted: {} from {}", now.center.y, start.y);
    apply(&mut app, frame(to, false, false));
    assert!(lab(&app).world.mouse.is_none());
}

#[test]
fn the_water_panels_switch_makes_a_basin_simulated_live_and_back() {
    use manifold_lab::engine::world3d::Surface3;
    let mut app = lab_app("scenes/world3d/float.ron");
    assert!(lab(&app).world.surfaces.iter().all(Option::is_none));
    let mut water = lab(&app).world.water.clone();
    water[0].surface = Surface3::Simulated { columns: (36, 36), stiffness: 2.0, spread: 200.0, damping: 0.6 };
    app.apply(act(World3dAction::SetWater(water.clone())));
    let field = lab(&app).world.surfaces[0].clone().expect("the calm tank is simulated now");
    assert_eq!((field.nx(), field.nz()), (36, 36));
    assert!(lab(&app).world.surfaces[1].is_none(), "the wave tank stays analytic");
    steps(&mut app, 60);
    let moved = lab(&app).world.surfaces[0].clone().unwrap();
    assert_ne!(moved.heights, field.heights, "the floating bodies push the columns");
    // A new damping keeps the columns' motion; a new grid starts still.
    if let Surface3::Simulated { damping, .. } = &mut water[0].surface {
        *damping = 2.0;
    }
    app.apply(act(World3dAction::SetWater(water.clone())));
    let kept = lab(&app).world.surfaces[0].clone().unwrap();
    assert_eq!((kept.heights, kept.settings.damping), (moved.heights, 2.0));
    // Unstable settings are refused with the field named; the world keeps what it had.
    let mut bad = water.clone();
    bad[0].surface = Surface3::Simulated { columns: (36, 36), stiffness: 2.0, spread: f32::NAN, damping: 0.6 };
    app.apply(act(World3dAction::SetWater(bad)));
    assert!(app.error.as_deref().is_some_and(|e| e.contains("`spread`")), "{:?}", app.error);
    water[0].surface = Surface3::Analytic;
    app.apply(act(World3dAction::SetWater(water)));
    assert!(lab(&app).world.surfaces[0].is_none());
}
