//! The time-of-impact events through the app: the shipped continuous-collision scenes record
//! events, each opens in the time-of-impact lab on the sweep the world made (its cores the
//! target apart at the event's fraction) whose certified method finds that fraction again, and a click on an event's point (with the
//! layer on) opens it through the pointer code.

use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::lab::test_support::manifest;
use crate::app::lab::toi::ToiLab;
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::engine::collide::gjk::gjk;
use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::collide::toi::{ToiMethod, ToiState};
use manifold_lab::engine::debug::Layer;

/// `scene` stepped `steps` times.
fn stepped(scene: &str, steps: usize) -> App {
    let mut app = App::from_path(&manifest(scene)).expect("the scene loads");
    for _ in 0..steps {
        app.apply(Action::Step);
    }
    app
}

/// Every kept event of `scene` after `steps` steps, opened in the lab: the certified method
/// hits at the event's fraction. Returns how many events, and how many were found with the core.
fn every_event_reopens(scene: &str, steps: usize) -> (usize, usize) {
    let app = stepped(scene, steps);
    let world = app.world.clone();
    let events: Vec<_> = world.toi_events.events().copied().collect();
    assert!(events.iter().all(|e| e.step + u64::from(world.params.toi_event_steps) > world.step_count));
    let mut cores = 0;
    for e in &events {
        let mut app = stepped(scene, 0);
        app.world = world.clone();
        app.apply(Action::OpenToiEventInLab { step: e.step, body: e.body });
        assert!(app.error.is_none(), "{:?}", app.error);
        let lab = app.lab_as::<ToiLab>().expect("the time-of-impact lab is open");
        assert_eq!(lab.method(), ToiMethod::Certified);
        let r = lab.result();
        let what = format!(
            "{scene} step {} body {} core {}: lab {r:?}, world t {}",
            e.step,
            e.body,
            e.core.is_some(),
            e.fraction
        );
        assert_eq!(r.state, ToiState::Hit, "{what}");
        // The lab's sweep is the world's: at the world's fraction its cores are the target
        // apart within the world's tolerance, and the lab, running the world's query (its
        // target, tolerance and interval), finds the world's fraction (the world's sweep is
        // taken relative to the body's start, the lab's in world coordinates: rounding only).
        let input = lab.spec.input();
        let (xa, xb) = input.transforms(e.fraction);
        let pa = Proxy::from_shape(&lab.spec.a.shape.shape(), &xa, Vec2::ZERO);
        let pb = Proxy::from_shape(&lab.spec.b.shape.shape(), &xb, Vec2::ZERO);
        let d = gjk(&pa, &pb, None).core_distance;
        assert!((d - e.target).abs() <= e.tolerance + 1e-5, "{what}: distance {d} target {}", e.target);
        assert!((r.t - e.fraction).abs() < 1e-4, "{what}");
        assert!(r.normal.dot(e.normal) > 0.99, "{what}");
        assert!(app.notice.as_deref().unwrap_or("").contains("time-of-impact lab"), "{:?}", app.notice);
        cores += usize::from(e.core.is_some());
    }
    (events.len(), cores)
}

#[test]
fn bullets_record_events_that_the_lab_reproduces() {
    let (n, _) = every_event_reopens("scenes/bullets.ron", 20);
    assert!(n >= 3, "{n} events");
}

#[test]
fn spinning_rods_record_events_that_the_lab_reproduces() {
    let (n, cores) = every_event_reopens("scenes/spinning_rods.ron", 12);
    assert!(n >= 10, "{n} events, {cores} with the core");
}

#[test]
fn the_log_keeps_only_the_last_steps() {
    let mut app = App::from_path(&manifest("scenes/bullets.ron")).unwrap();
    let mut p = app.world.params.clone();
    p.toi_event_steps = 2;
    app.world.set_params(p);
    for _ in 0..20 {
        app.apply(Action::Step);
    }
    assert!(app.world.toi_events.events().all(|e| e.step + 2 > app.world.step_count));
}

#[test]
fn a_click_on_an_event_opens_it_when_its_layer_is_on() {
    let mut app = stepped("scenes/bullets.ron", 20);
    let e = *app.world.toi_events.events().last().expect("an event");
    let at = app.camera.world_to_screen(&app.viewport, e.point);
    let click = |app: &mut App| {
        let mut st = InputState::default();
        for (pressed, down) in [(true, true), (false, false)] {
            let f = PointerFrame {
                pos: at,
                left_pressed: pressed,
                left_down: down,
                left_released: !down,
                ..Default::default()
            };
            for a in pointer_actions(app, &mut st, &f, false) {
                app.apply(a);
            }
        }
    };
    app.layers.set(Layer::ToiEvent, false);
    click(&mut app);
    assert!(app.lab_as::<ToiLab>().is_none(), "the layer is off: no event is picked");
    app.layers.set(Layer::ToiEvent, true);
    click(&mut app);
    let lab = app.lab_as::<ToiLab>().expect("the click opened the event");
    assert!((lab.result().t - e.fraction).abs() < 1e-4);
}
