//! The ruler at the app's layer: a real drag through the gesture code measures, selects
//! nothing, and turning it on turns the other drag tools off.

use super::{Ruler, RulerAction};
use crate::app::lab::test_support::{drag_world, manifest, Held};
use crate::app::state::{Action, App};
use crate::app::tools::ray::RayTool;
use crate::app::tools::slice::{SliceAction, SliceTool};
use glam::Vec2;

#[test]
fn a_drag_measures_and_one_drag_tool_is_on_at_a_time() {
    let mut app = App::from_path(&manifest("tests/input/pointer.ron")).unwrap();
    app.apply(Action::from(SliceAction::SetOn(true)));
    app.apply(Action::from(RulerAction::SetOn(true)));
    assert!(app.tool::<Ruler>().on && !app.tool::<SliceTool>().on && !app.tool::<RayTool>().on);
    let (a, b) = (Vec2::new(-9.0, 0.5), Vec2::new(-6.0, 4.5));
    drag_world(&mut app, a, b, Held::default(), 6);
    let (from, to) = app.tool::<Ruler>().line.expect("the drag measured");
    let px = app.camera.scale(&app.viewport);
    assert!(from.distance(a) < 2.0 * px && to.distance(b) < 2.0 * px, "{from} {to}");
    assert!(((to - from).length() - 5.0).abs() < 4.0 * px);
    assert!(app.selection.is_empty(), "measuring selects nothing");
    assert_eq!(
        app.world.bodies.len(),
        App::from_path(&manifest("tests/input/pointer.ron")).unwrap().world.bodies.len()
    );
    app.apply(Action::from(RulerAction::Measure { from: Vec2::ZERO, to: Vec2::new(f32::NAN, 0.0) }));
    assert!(app.error.take().is_some());
    app.apply(Action::from(RulerAction::Clear));
    assert_eq!(app.tool::<Ruler>().line, None);
}
