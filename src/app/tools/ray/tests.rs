//! The ray tool through the app's actions and pointer code: hit fractions and normals against
//! analytic values (a box and a circle of the pointer test scene), the drag gesture, the tree
//! nodes recorded, hand moves while paused, and bad rays.

use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::state::{Action, App};
use crate::app::tools::{
    ray::{RayAction, RayTool},
    slice::{SliceAction, SliceTool},
};
use glam::Vec2;
use std::path::Path;

/// The pointer test scene, paused: a floor, `square` (3×3 box at (−5, 0)), `ball` (radius 1.5
/// at (5, 2)), `plank`.
fn pointer_app() -> App {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/input/pointer.ron");
    let mut app = App::from_path(&path).expect("the scene loads");
    app.apply(Action::Pause);
    app
}

fn index(app: &App, name: &str) -> usize {
    app.world.bodies.iter().position(|b| b.name == name).unwrap()
}

#[test]
fn a_ray_at_the_box_and_the_ball_hits_at_the_analytic_fractions() {
    let mut app = pointer_app();
    let (square, ball) = (index(&app, "square"), index(&app, "ball"));
    app.apply(Action::from(RayAction::SetOn(true)));
    assert!(app.tool::<RayTool>().on && app.notice.as_deref().is_some_and(|n| n.contains("Ray tool")));
    // y = 1 from x = −10 to 10: the square's left face at x = −6.5 (t = 3.5/20), then the
    // ball where (x − 5)² + 1 = 2.25, x = 5 − √1.25.
    app.apply(Action::from(RayAction::Cast { from: Vec2::new(-10.0, 1.0), to: Vec2::new(10.0, 1.0) }));
    let t = app.tool::<RayTool>().trace(&app.tool_view()).expect("a ray is cast");
    let closest = t.closest.expect("the square is hit");
    assert_eq!(closest.body, square);
    assert!((closest.fraction - 0.175).abs() < 1e-5, "{}", closest.fraction);
    assert!(closest.normal.distance(Vec2::new(-1.0, 0.0)) < 1e-5);
    assert!(closest.point.distance(Vec2::new(-6.5, 1.0)) < 1e-4);
    assert_eq!(t.hits.len(), 2, "{:?}", t.hits);
    assert_eq!(t.hits[0], closest);
    let h = t.hits[1];
    let x = 5.0 - 1.25f32.sqrt();
    assert_eq!(h.body, ball);
    assert!((h.fraction - (x + 10.0) / 20.0).abs() < 1e-5, "{}", h.fraction);
    let n = (Vec2::new(x, 1.0) - Vec2::new(5.0, 2.0)) / 1.5;
    assert!(h.normal.distance(n) < 1e-4, "{} vs {n}", h.normal);
    // The query went through the tree: it tested the root and entered some nodes.
    assert!(!t.visited.is_empty() && t.visited.iter().any(|&(_, entered)| entered));
    assert_eq!(t.visited.len() as u32, t.stats.nodes_visited);
    // The same closest hit as the world's own query.
    assert_eq!(app.world.ray_cast(Vec2::new(-10.0, 1.0), Vec2::new(20.0, 0.0)), Some(closest));
    // A ray that misses everything.
    app.apply(Action::from(RayAction::Cast { from: Vec2::new(-10.0, 20.0), to: Vec2::new(10.0, 20.0) }));
    let t = app.tool::<RayTool>().trace(&app.tool_view()).unwrap();
    assert!(t.closest.is_none() && t.hits.is_empty());
}

#[test]
fn the_ray_follows_a_body_moved_by_hand() {
    let mut app = pointer_app();
    let square = index(&app, "square");
    app.apply(Action::from(RayAction::SetOn(true)));
    app.apply(Action::from(RayAction::Cast { from: Vec2::new(-10.0, 0.0), to: Vec2::new(0.0, 0.0) }));
    assert!((app.tool::<RayTool>().trace(&app.tool_view()).unwrap().closest.unwrap().fraction - 0.35).abs() < 1e-5);
    // Moved right by 2 m while paused: the face is at x = −4.5.
    app.apply(Action::SetPose { body: square, position: Vec2::new(-3.0, 0.0), angle: 0.0 });
    let h = app.tool::<RayTool>().trace(&app.tool_view()).unwrap().closest.unwrap();
    assert_eq!(h.body, square);
    assert!((h.fraction - 0.55).abs() < 1e-5, "{}", h.fraction);
    // Turned 45°: the corner points at the ray's start, at x = −3 − 1.5·√2.
    app.apply(Action::SetPose { body: square, position: Vec2::new(-3.0, 0.0), angle: std::f32::consts::FRAC_PI_4 });
    let h = app.tool::<RayTool>().trace(&app.tool_view()).unwrap().closest.unwrap();
    let x = -3.0 - 1.5 * std::f32::consts::SQRT_2;
    assert!((h.fraction - (x + 10.0) / 10.0).abs() < 1e-4, "{}", h.fraction);
}

#[test]
fn dragging_with_the_tool_on_casts_the_ray_and_selects_nothing() {
    let mut app = pointer_app();
    app.apply(Action::from(RayAction::SetOn(true)));
    let mut st = InputState::default();
    let screen = |app: &App, p: Vec2| app.camera.world_to_screen(&app.viewport, p);
    let (a, b) = (Vec2::new(-9.0, 0.5), Vec2::new(-2.0, 0.5));
    let frames = [
        PointerFrame { pos: screen(&app, a), left_pressed: true, left_down: true, ..Default::default() },
        PointerFrame { pos: screen(&app, 0.5 * (a + b)), left_down: true, ..Default::default() },
        PointerFrame { pos: screen(&app, b), left_down: true, ..Default::default() },
        PointerFrame { pos: screen(&app, b), left_released: true, ..Default::default() },
    ];
    for f in frames {
        for act in pointer_actions(&mut app, &mut st, &f, false) {
            assert!(!matches!(act, Action::Select(_) | Action::SetPose { .. } | Action::StartPull { .. }), "{act:?}");
            app.apply(act);
        }
    }
    let (from, to) = app.tool::<RayTool>().ray.expect("the drag left a ray");
    let px = app.camera.scale(&app.viewport);
    assert!(from.distance(a) < 2.0 * px && to.distance(b) < 2.0 * px, "{from} {to}");
    assert_eq!(
        app.tool::<RayTool>().trace(&app.tool_view()).unwrap().closest.map(|h| h.body),
        Some(index(&app, "square"))
    );
    assert!(app.selection.is_empty());
    // A click (no drag) clears the ray.
    let p = screen(&app, Vec2::new(0.0, -3.0));
    for f in [
        PointerFrame { pos: p, left_pressed: true, left_down: true, ..Default::default() },
        PointerFrame { pos: p, left_released: true, ..Default::default() },
    ] {
        for act in pointer_actions(&mut app, &mut st, &f, false) {
            app.apply(act);
        }
    }
    assert_eq!(app.tool::<RayTool>().ray, None);
}

#[test]
fn one_drag_tool_at_a_time_the_key_and_bad_rays() {
    use macroquad::miniquad::{KeyCode, KeyMods};
    let mut app = pointer_app();
    assert_eq!(
        crate::app::input::keys::key_action(KeyCode::Y, KeyMods::default()),
        Some(Action::from(RayAction::Toggle))
    );
    app.apply(Action::from(RayAction::Toggle));
    assert!(app.tool::<RayTool>().on);
    app.apply(Action::from(SliceAction::SetOn(true)));
    assert!(app.tool::<SliceTool>().on && !app.tool::<RayTool>().on);
    app.apply(Action::from(RayAction::Toggle));
    assert!(app.tool::<RayTool>().on && !app.tool::<SliceTool>().on);
    app.apply(Action::from(RayAction::Cast { from: Vec2::NAN, to: Vec2::ZERO }));
    assert!(app.error.take().is_some() && app.tool::<RayTool>().ray.is_none());
    app.apply(Action::from(RayAction::Cast { from: Vec2::ONE, to: Vec2::ONE }));
    assert!(app.error.take().is_some());
    // In a lab the tool stays off.
    app.apply(Action::OpenLab { kind: crate::app::lab::LabKind::Manifold, file: None });
    app.apply(Action::from(RayAction::SetOn(true)));
    assert!(!app.tool::<RayTool>().on && app.tool::<RayTool>().trace(&app.tool_view()).is_none());
}
