//! A frame of real input as the gestures see it (`input::pointer_samples`): the button's edges
//! where the events put them, then the pointer where it is now. A drag ends where the button
//! came up, in 2D and in the 3D labs, however the events fall into frames.

use crate::app::input::{pointer_actions, pointer_samples, ButtonEdge, Gesture, InputState, PointerFrame};
use crate::app::lab::hull3d::Hull3dLab;
use crate::app::lab::world3d::World3dLab;
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::Vec2;
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn edge(down: bool, pos: Vec2) -> ButtonEdge {
    ButtonEdge { down, pos }
}

/// The pointer where a frame ends: at `pos`, the button `down` or not.
fn now(pos: Vec2, down: bool) -> PointerFrame {
    PointerFrame { pos, left_down: down, ..Default::default() }
}

/// One frame of real input through the gestures, each sample's actions applied in turn.
fn frame(app: &mut App, st: &mut InputState, was_down: bool, edges: &[ButtonEdge], end: PointerFrame) {
    for f in pointer_samples(was_down, edges, end) {
        for a in pointer_actions(app, st, &f, false) {
            app.apply(a);
        }
    }
}

fn screen(app: &App, w: Vec2) -> Vec2 {
    app.camera.world_to_screen(&app.viewport, w)
}

#[test]
fn samples_put_each_edge_where_it_happened_and_end_where_the_pointer_is() {
    let (a, r, m) = (Vec2::new(10.0, 20.0), Vec2::new(50.0, 60.0), Vec2::new(300.0, 400.0));
    let mut end = now(m, false);
    end.wheel = 2.0;
    let s = pointer_samples(false, &[edge(true, a), edge(false, r)], end);
    assert_eq!(s.len(), 3);
    assert_eq!((s[0].pos, s[0].left_pressed, s[0].left_down, s[0].left_released), (a, true, true, false));
    assert_eq!((s[1].pos, s[1].left_pressed, s[1].left_down, s[1].left_released), (r, false, false, true));
    assert_eq!((s[2].pos, s[2].left_pressed, s[2].left_down, s[2].left_released), (m, false, false, false));
    // The wheel is counted once, in the last sample.
    assert_eq!(s.iter().map(|f| f.wheel).collect::<Vec<_>>(), vec![0.0, 0.0, 2.0]);
    // No edge: one sample, as the frame ends.
    assert_eq!(pointer_samples(true, &[], now(m, true)), vec![now(m, true)]);
    // An edge that changes nothing is dropped; a release the window made without an event
    // (the pointer left the window) still ends the drag, where the pointer is.
    let s = pointer_samples(true, &[edge(true, a)], now(m, false));
    assert_eq!(s.len(), 1);
    assert!(s[0].left_released && !s[0].left_down && s[0].pos == m);
}

#[test]
fn a_paused_drag_ends_where_the_button_came_up_not_where_the_pointer_went_next() {
    let mut app = App::from_path(&manifest("scenes/pyramid.ron")).unwrap();
    app.apply(Action::Pause);
    let top = (0..app.world.bodies.len())
        .max_by(|&i, &j| app.world.bodies[i].center.y.total_cmp(&app.world.bodies[j].center.y));
    let top = top.unwrap();
    let start = app.world.bodies[top].center;
    let (a, r, m) = (start, start + Vec2::new(3.0, -3.0), Vec2::new(start.x, -5.0));
    let mut st = InputState::default();
    // Pressed in one frame, held and moved in the next, released and moved into the ground
    // before the third frame was drawn.
    let a_px = screen(&app, a);
    frame(&mut app, &mut st, false, &[edge(true, a_px)], now(a_px, true));
    let r_px = screen(&app, r);
    frame(&mut app, &mut st, true, &[], now(r_px, true));
    let m_px = screen(&app, m);
    frame(&mut app, &mut st, true, &[edge(false, r_px)], now(m_px, false));
    let at = app.world.bodies[top].center;
    assert!(at.distance(r) < 0.01, "the box is at {at}, released at {r}, the pointer went on to {m}");
    assert_eq!(st.gesture, Gesture::None);
    // A whole drag inside one slow frame: pressed, moved, released and moved on.
    let back = start + Vec2::new(-2.0, -1.5);
    let edges = [edge(true, screen(&app, r)), edge(false, screen(&app, back))];
    frame(&mut app, &mut st, false, &edges, now(m_px, false));
    let at = app.world.bodies[top].center;
    assert!(at.distance(back) < 0.01, "the box is at {at}, released at {back}");
}

#[test]
fn in_the_3d_hull_lab_the_hull_stays_where_it_was_released() {
    let mut app = App::new(manifold_lab::scene::Scene::new("empty"), None);
    let file = manifest("scenes/hulls/separated.ron");
    app.apply(Action::OpenLab { kind: LabKind::HullSat, file: Some(file) });
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    let (a, _) = lab.camera.project(&app.viewport, lab.view.hulls[1].centroid()).unwrap();
    let r = a + Vec2::new(-60.0, 25.0);
    let far = a + Vec2::new(900.0, -700.0);
    let mut st = InputState::default();
    frame(&mut app, &mut st, false, &[edge(true, a)], now(a, true));
    frame(&mut app, &mut st, true, &[], now(r, true));
    let held = app.lab_as::<Hull3dLab>().unwrap().poses[1];
    frame(&mut app, &mut st, true, &[edge(false, r)], now(far, false));
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    assert!(lab.poses[1].p.distance(held.p) < 1e-5, "moved from {} to {} after the release", held.p, lab.poses[1].p);
    // The whole drag inside one frame puts it in the same place.
    app.apply(Action::Restart);
    let edges = [edge(true, a), edge(false, r)];
    frame(&mut app, &mut st, false, &edges, now(far, false));
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    assert!(lab.poses[1].p.distance(held.p) < 1e-4, "{} vs {}", lab.poses[1].p, held.p);
}

#[test]
fn in_the_3d_dynamics_lab_a_paused_drag_places_the_hull_at_the_release() {
    let mut app = App::new(manifold_lab::scene::Scene::new("empty"), None);
    let file = manifest("scenes/world3d/stack.ron");
    app.apply(Action::OpenLab { kind: LabKind::World3d, file: Some(file) });
    app.apply(Action::Pause);
    fn lab(app: &App) -> &World3dLab {
        app.lab_as::<World3dLab>().unwrap()
    }
    let cube = lab(&app).world.body_named("cube 5").unwrap();
    let start = lab(&app).world.bodies[cube].center;
    let (a, _) = lab(&app).camera.project(&app.viewport, start).unwrap();
    let (picked, grab) = crate::app::lab::world3d::input::pick(lab(&app), &app.viewport, a).unwrap();
    assert_eq!(picked, cube);
    let grab_local = lab(&app).world.bodies[cube].pose.inverse_transform_point(grab);
    let r = a + Vec2::new(0.0, -80.0);
    let mut st = InputState::default();
    // Press, move and release inside one frame, then the pointer moves far away.
    frame(&mut app, &mut st, false, &[edge(true, a), edge(false, r)], now(a + Vec2::new(500.0, 300.0), false));
    let l = lab(&app);
    assert!(l.world.mouse.is_none(), "released");
    let grabbed = l.world.bodies[cube].pose.transform_point(grab_local);
    let (at, _) = l.camera.project(&app.viewport, grabbed).unwrap();
    assert!(at.distance(r) < 1.0, "the grabbed point is at {at} on screen, released at {r}");
}
