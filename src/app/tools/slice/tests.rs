//! The slice tool and the water panel's actions without a window: `Action::Slice` (pieces,
//! masses, indices, the selection, the status line, undo), the knife gesture through the
//! same pointer code as a mouse, scripts played headless, and live water edits.

use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::script::{play_headless, ScriptPlayer, ScriptStep};
use crate::app::state::{Action, App};
use crate::app::tools::{
    slice::{SliceAction, SliceTool},
    water::{WaterAction, WaterView},
};
use glam::Vec2;
use manifold_lab::engine::water::{Surface, WaterParams};
use manifold_lab::scene;
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// The pointer test scene, paused: a floor, `square` (3×3 box), `ball`, `plank`.
fn pointer_app() -> App {
    let mut app = App::from_path(&manifest("tests/input/pointer.ron")).expect("the scene loads");
    app.apply(Action::Pause);
    app
}

fn index(app: &App, name: &str) -> usize {
    app.world.bodies.iter().position(|b| b.name == name).unwrap_or_else(|| panic!("no body {name}"))
}

#[test]
fn a_slice_splits_the_box_keeps_the_mass_and_the_selection_follows() {
    let mut app = pointer_app();
    let (square, ball, plank) = (index(&app, "square"), index(&app, "ball"), index(&app, "plank"));
    let (mass, area) = (app.world.bodies[square].mass, 9.0);
    app.apply(Action::ToggleSelect(ball));
    app.apply(Action::ToggleSelect(plank));
    let before = app.world.state_hash();
    let n = app.world.bodies.len();
    // A slanted line across the square, both ends outside it.
    app.apply(Action::Slice { from: Vec2::new(-8.0, -0.5), to: Vec2::new(-2.0, 0.5) });
    let report = app.tool::<SliceTool>().last.clone().expect("a report is kept");
    assert_eq!(app.world.bodies.len(), n + 1);
    assert_eq!(report.sliced.len(), 1);
    let pieces = &report.sliced[0].pieces;
    assert_eq!(pieces.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["square#a", "square#b"]);
    // The first piece takes the square's index, the second is appended.
    assert_eq!((pieces[0].index, pieces[1].index), (square, n));
    for p in pieces {
        assert_eq!(app.world.bodies[p.index].name, p.name);
    }
    let masses: f32 = pieces.iter().map(|p| app.world.bodies[p.index].mass).sum();
    assert!((masses - mass).abs() < 1e-4 * mass, "pieces weigh {masses}, the square {mass}");
    let areas: f32 = pieces.iter().map(|p| p.area).sum();
    assert!((areas - area).abs() < 1e-4, "pieces cover {areas} m²");
    // Nothing else moved, so the selection keeps its bodies.
    assert_eq!(app.selection, [ball, plank]);
    assert_eq!(app.notice.as_deref(), Some(report.summary().as_str()));
    assert!(report.summary().contains("sliced 1 bodies into 2 pieces"), "{}", report.summary());
    // B undoes the slice.
    app.apply(Action::StepBack);
    assert_eq!(app.world.bodies.len(), n);
    assert_eq!(app.world.state_hash(), before);
}

#[test]
fn circles_are_refused_and_a_miss_changes_nothing() {
    let mut app = pointer_app();
    let ball = index(&app, "ball");
    let c = app.world.bodies[ball].center;
    let (n, kept) = (app.world.bodies.len(), app.history.len());
    app.apply(Action::Slice { from: c - Vec2::new(3.0, 0.2), to: c + Vec2::new(3.0, 0.2) });
    assert_eq!(app.world.bodies.len(), n);
    let summary = app.notice.clone().unwrap();
    assert!(summary.contains("1 refused") && summary.contains("circles"), "{summary}");
    assert_eq!(app.history.len(), kept, "nothing to undo");
    // A line that misses everything, and bad lines.
    app.apply(Action::Slice { from: Vec2::new(-9.0, 9.0), to: Vec2::new(9.0, 9.0) });
    assert_eq!(app.world.bodies.len(), n);
    assert!(app.notice.as_deref().unwrap().starts_with("sliced 0 bodies"));
    app.apply(Action::Slice { from: Vec2::ONE, to: Vec2::ONE });
    assert!(app.error.take().unwrap().contains("two different finite ends"));
    app.apply(Action::Slice { from: Vec2::NAN, to: Vec2::ONE });
    assert!(app.error.take().is_some());
    assert_eq!(app.world.bodies.len(), n);
}

#[test]
fn removed_bodies_renumber_the_selection() {
    // A body too small to leave a piece, before a big one.
    let text = r#"Scene(version: 1, settings: (gravity: (0.0, 0.0)), bodies: [
        (name: "crumb", position: (0.0, 0.0), shape: Box(half_extents: (0.03, 0.03))),
        (name: "slab", position: (3.0, 0.0), shape: Box(half_extents: (1.0, 1.0))),
    ])"#;
    let mut app = App::new(scene::parse(text, "crumb.ron").unwrap(), None);
    app.apply(Action::Select(Some(0)));
    app.apply(Action::ToggleSelect(1));
    app.apply(Action::Slice { from: Vec2::new(-1.0, -1.0), to: Vec2::new(1.0, 1.0) });
    let report = app.tool::<SliceTool>().last.clone().unwrap();
    assert_eq!(report.removed, [0]);
    assert_eq!(report.removed_small, 2);
    assert_eq!(app.world.bodies.len(), 1);
    assert_eq!(app.selection, [0], "the slab moved down to index 0 and stays selected");
    assert_eq!(app.world.bodies[0].name, "slab");
    assert!(app.notice.as_deref().unwrap().contains("2 too small removed"));
    app.apply(Action::StepBack);
    assert_eq!(app.world.bodies.len(), 2);
}

/// Frames of a left drag (world points) through the app's gesture code.
fn drag(app: &mut App, st: &mut InputState, from: Vec2, to: Vec2) -> Vec<Option<(Vec2, Vec2)>> {
    let screen = |app: &App, w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let mut drafts = Vec::new();
    // Press, four moves, the last move onto `to`, release there.
    for k in 0..=6 {
        let t = (k as f32 / 5.0).min(1.0);
        let f = PointerFrame {
            pos: screen(app, from.lerp(to, t)),
            left_pressed: k == 0,
            left_down: k < 6,
            left_released: k == 6,
            ..Default::default()
        };
        for a in pointer_actions(app, st, &f, false) {
            app.apply(a);
        }
        drafts.push(app.tool::<SliceTool>().draft);
    }
    drafts
}

#[test]
fn the_knife_gesture_draws_a_line_and_slices_on_release() {
    let mut app = pointer_app();
    let mut st = InputState::default();
    let n = app.world.bodies.len();
    app.apply(Action::from(SliceAction::Toggle));
    assert!(app.tool::<SliceTool>().on);
    let (from, to) = (Vec2::new(-7.5, 1.0), Vec2::new(-2.5, -1.0));
    let drafts = drag(&mut app, &mut st, from, to);
    // The line is drawn while dragging, from the press to the pointer.
    let (a, b) = drafts[3].expect("a draft while dragging");
    assert!((a - from).length() < 0.05 && (b - from.lerp(to, 0.6)).length() < 0.05, "{a} {b}");
    assert_eq!(drafts[6], None, "released");
    assert_eq!(app.world.bodies.len(), n + 1, "the square was cut");
    assert!(app.selection.is_empty(), "a knife drag selects nothing");
    // A click with the tool is no cut; K again leaves the tool, and drags move bodies again.
    let square = index(&app, "square#a");
    let c = app.world.bodies[square].center;
    drag(&mut app, &mut st, c, c);
    assert_eq!(app.world.bodies.len(), n + 1);
    app.apply(Action::from(SliceAction::Toggle));
    assert!(!app.tool::<SliceTool>().on);
    drag(&mut app, &mut st, c, c + Vec2::new(0.0, 2.0));
    assert_eq!(app.world.bodies.len(), n + 1);
    assert_eq!(app.selection, [square]);
    assert!((app.world.bodies[square].center - (c + Vec2::new(0.0, 2.0))).length() < 0.05);
}

#[test]
fn the_tool_stays_out_of_labs() {
    let mut app = pointer_app();
    app.apply(Action::from(SliceAction::SetOn(true)));
    app.apply(Action::OpenLab { kind: crate::app::lab::LabKind::Toi, file: None });
    assert!(!app.tool::<SliceTool>().on, "opening a lab leaves the tool");
    app.apply(Action::from(SliceAction::SetOn(true)));
    assert!(!app.tool::<SliceTool>().on);
    app.apply(Action::Slice { from: Vec2::new(-9.0, 0.0), to: Vec2::new(9.0, 0.0) });
    assert!(app.error.take().unwrap().contains("leave the lab"));
}

#[test]
fn scripts_slice_headless_by_action_and_by_drag() {
    let text = r#"[
        Do(Pause),
        Do(Slice(from: (-8.0, 0.2), to: (-2.0, 0.2))),
        Do(Tool(Slice(SetOn(true)))),
        Drag(from: (-3.0, 6.0), to: (3.0, 2.0), frames: 5),
        Wait(2),
    ]"#;
    let steps: Vec<ScriptStep> = ron::from_str(text).unwrap();
    let mut app = App::from_path(&manifest("tests/input/pointer.ron")).unwrap();
    let n = app.world.bodies.len();
    let frames = play_headless(&mut app, ScriptPlayer::new(steps)).unwrap();
    assert_eq!(frames, 1 + 1 + 1 + 7 + 2);
    assert!(app.error.is_none(), "{:?}", app.error);
    let names: Vec<&str> = app.world.bodies.iter().map(|b| b.name.as_str()).collect();
    for piece in ["square#a", "square#b", "plank#a", "plank#b"] {
        assert!(names.contains(&piece), "{names:?}");
    }
    assert_eq!(app.world.bodies.len(), n + 2);
    assert_eq!(app.world.step_count, 0, "paused: the script's frames did not step");
}

fn water_app(scene: &str) -> App {
    App::from_path(&manifest(scene)).unwrap()
}

#[test]
fn water_edits_apply_live_and_bad_ones_are_refused() {
    let mut app = water_app("scenes/buoyancy.ron");
    let boxed = index(&app, "half_density_box");
    // It starts with its bottom on the surface: let it settle in.
    for _ in 0..60 {
        app.step_once();
    }
    let water = app.world.water().unwrap().params.clone();
    let force = app.world.buoyancy(boxed).expect("the box touches the water").force;
    // Twice the density: twice the buoyant force on the same submerged part, at once.
    app.apply(Action::SetWater(Some(WaterParams { density: 2.0 * water.density, ..water.clone() })));
    let doubled = app.world.buoyancy(boxed).unwrap().force;
    assert!((doubled - 2.0 * force).length() < 1e-4 * force.length(), "{force} -> {doubled}");
    // A level below the box: it leaves the water.
    app.apply(Action::SetWater(Some(WaterParams { level: -3.0, ..water.clone() })));
    assert!(app.world.buoyancy(boxed).is_none());
    // Invalid numbers are refused with the field's name; the water stays.
    app.apply(Action::SetWater(Some(WaterParams { linear_drag: -1.0, ..water.clone() })));
    assert!(app.error.take().unwrap().contains("`linear_drag`"));
    assert_eq!(app.world.water().unwrap().params.level, -3.0);
    app.apply(Action::SetWater(None));
    assert!(app.world.water().is_none() && app.world.buoyancy(boxed).is_none());
    app.apply(Action::from(WaterAction::SetArrowScale(f32::NAN)));
    app.apply(Action::from(WaterAction::SetArrowScale(100.0)));
    assert_eq!(app.tool::<WaterView>().arrow_scale, crate::app::tools::water::BUOYANCY_SCALE_RANGE.1);
}

#[test]
fn a_new_level_carries_the_simulated_waves_and_a_new_surface_starts_at_rest() {
    let mut app = water_app("scenes/waves.ron");
    for _ in 0..90 {
        app.step_once();
    }
    let w = app.world.water().unwrap().clone();
    let moving = w.state.velocities.iter().any(|v| v.abs() > 1e-3);
    assert!(moving, "the ball's splash moves the columns");
    app.apply(Action::SetWater(Some(WaterParams { level: w.params.level + 1.0, ..w.params.clone() })));
    let raised = app.world.water().unwrap();
    for (h0, h1) in w.state.heights.iter().zip(&raised.state.heights) {
        assert!((h1 - h0 - 1.0).abs() < 1e-5);
    }
    assert_eq!(raised.state.velocities, w.state.velocities);
    app.apply(Action::SetWater(Some(WaterParams { surface: Surface::Flat, ..w.params.clone() })));
    assert!(app.world.water().unwrap().state.heights.is_empty());
    assert!(app.world.bodies.iter().all(|b| b.kind != manifold_lab::engine::BodyKind::Dynamic || b.awake));
}
