//! The shape-cast tool through the app's actions and pointer code, in the pointer test scene
//! (a floor, `square` 3×3 at (−5, 0), `ball` radius 1.5 at (5, 2), `plank`): the fallback
//! circle against the square's face at the closed-form fraction, the selected body's shape
//! cast without itself, the drag gesture, and the tree nodes recorded.

use super::{Fallback, ShapeCastAction, ShapeCastTool};
use crate::app::lab::test_support::{drag_world, manifest, Held};
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::engine::collide::toi::default_target;
use manifold_lab::engine::math::Transform;

fn pointer_app() -> App {
    let mut app = App::from_path(&manifest("tests/input/pointer.ron")).expect("the scene loads");
    app.apply(Action::Pause);
    app
}

fn index(app: &App, name: &str) -> usize {
    app.world.bodies.iter().position(|b| b.name == name).unwrap()
}

#[test]
fn the_fallback_circle_stops_at_the_square_face() {
    let mut app = pointer_app();
    let square = index(&app, "square");
    app.apply(Action::from(ShapeCastAction::SetOn(true)));
    assert!(app.tool::<ShapeCastTool>().on);
    // A circle of radius 0.4 from (−10, 0) to (0, 0): the square's left face is at x = −6.5,
    // met when the centre is the target distance from it.
    app.apply(Action::from(ShapeCastAction::Cast { from: Vec2::new(-10.0, 0.0), to: Vec2::ZERO }));
    let (t, _) = app.tool::<ShapeCastTool>().trace(&app.tool_view()).expect("a cast");
    let h = t.closest.expect("the square is hit");
    assert_eq!(h.body, square);
    let expected = (3.5 - default_target(0.4)) / 10.0;
    assert!((h.fraction - expected).abs() < 1e-5, "{} vs {expected}", h.fraction);
    assert!(h.normal.distance(Vec2::new(-1.0, 0.0)) < 1e-4, "{}", h.normal);
    assert!(!t.visited.is_empty() && t.visited.len() as u32 == t.stats.nodes_visited);
    // The box fallback, half width 0.5: further from the face by 0.5 − 0.4 less the target's change.
    app.apply(Action::from(ShapeCastAction::SetFallback(Fallback::Box)));
    app.apply(Action::from(ShapeCastAction::Cast { from: Vec2::new(-10.0, 0.0), to: Vec2::ZERO }));
    let h = app.tool::<ShapeCastTool>().trace(&app.tool_view()).unwrap().0.closest.unwrap();
    let expected = (3.0 - default_target(0.0)) / 10.0;
    assert!((h.fraction - expected).abs() < 1e-5, "{} vs {expected}", h.fraction);
    // Over everything: no hit.
    app.apply(Action::from(ShapeCastAction::Cast { from: Vec2::new(-10.0, 20.0), to: Vec2::new(10.0, 20.0) }));
    assert!(app.tool::<ShapeCastTool>().trace(&app.tool_view()).unwrap().0.closest.is_none());
}

#[test]
fn a_drag_casts_the_selected_body_shape_without_it() {
    let mut app = pointer_app();
    let (ball, plank) = (index(&app, "ball"), index(&app, "plank"));
    app.apply(Action::Select(Some(plank)));
    app.apply(Action::from(ShapeCastAction::SetOn(true)));
    // From the plank's own place straight right: the plank's shape, not the plank, meets the ball.
    let (from, to) = (Vec2::new(0.0, 2.5), Vec2::new(9.0, 2.5));
    drag_world(&mut app, from, to, Held::default(), 6);
    let tool = app.tool::<ShapeCastTool>();
    let (path, shape) = (tool.path.expect("the drag cast"), tool.shape.expect("a shape"));
    assert!(path.0.distance(from) < 0.05 && path.1.distance(to) < 0.05, "{path:?}");
    assert_eq!(shape.body, Some(plank));
    assert_eq!(shape.shape, app.world.bodies[plank].shape);
    let (t, xf) = tool.trace(&app.tool_view()).unwrap();
    let h = t.closest.expect("the ball is hit");
    assert_eq!(h.body, ball);
    // The same answer as the world's query without the tree's help.
    let expected = app.world.shape_cast(&shape.shape, &xf, path.1 - path.0, Some(plank));
    assert_eq!(Some(h), expected);
    assert_eq!(xf, Transform::new(path.0, shape.angle));
    // A click (no drag) clears it.
    drag_world(&mut app, Vec2::new(-8.0, 6.0), Vec2::new(-8.0, 6.0), Held::default(), 1);
    assert!(app.tool::<ShapeCastTool>().path.is_none());
}
