//! The slicing lab without a window: every preset opens and its pieces add up, the edge
//! cases come out as their presets say, the step slider stays in bounds, the polygon and the
//! knife follow the same gestures a mouse makes, bad files and saving.

use super::{act, SliceAction, SliceLab};
use crate::app::lab::test_support::{drag_world, lab_app, manifest, Held};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::engine::debug::{DebugList, DrawCmd, Layer, LayerSet};
use manifold_lab::engine::geometry::{is_convex_ccw, EdgeCase};
use manifold_lab::engine::trace::Trace;
use manifold_lab::scene::{self, ShapeDesc};

fn slice_app(preset: &str) -> App {
    lab_app(LabKind::Slice, preset)
}

/// A left drag (Ctrl held with `rotate`) through the app's gesture code.
fn drag(app: &mut App, from: Vec2, to: Vec2, rotate: bool) {
    drag_world(app, from, to, Held { rotate, shift: false }, 8);
}

fn lab(app: &App) -> &SliceLab {
    app.lab_as::<SliceLab>().expect("the slicing lab is open")
}

fn cases(app: &App) -> Vec<EdgeCase> {
    lab(app).trace.edges().iter().map(|s| s.case).collect()
}

#[test]
fn every_preset_opens_and_its_pieces_add_up() {
    let mut n = 0;
    for entry in std::fs::read_dir(manifest("scenes/slice")).unwrap() {
        let path = entry.unwrap().path();
        let app = slice_app(path.to_str().unwrap());
        let l = lab(&app);
        let a = l.areas();
        assert!(a.relative_error() < 1e-5, "{}: {a:?}", path.display());
        assert_eq!(Trace::steps(&l.trace), l.trace.input.len(), "one step per edge");
        let split = l.trace.result.clone().unwrap();
        for part in [&split.behind, &split.front] {
            assert!(part.is_empty() || is_convex_ccw(part, 1e-6), "{}: {part:?}", path.display());
        }
        n += 1;
    }
    assert!(n >= 7, "the shipped presets: {n}");
    // The default preset opens without a file too.
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind: LabKind::Slice, file: None });
    assert!(app.lab_as::<SliceLab>().is_some(), "{:?}", app.error);
}

#[test]
fn the_edge_cases_are_what_their_presets_say() {
    use EdgeCase::*;
    let app = slice_app("scenes/slice/square.ron");
    assert_eq!(cases(&app), [OutOut, OutIn, InIn, InOut], "each case once");
    let steps = lab(&app).trace.edges();
    assert!(steps[1].intersection.is_some() && steps[3].intersection.is_some());
    assert!(steps[0].intersection.is_none() && steps[2].intersection.is_none());
    // Through two corners: no strict crossing, both corners in both pieces.
    let app = slice_app("scenes/slice/through_vertex.ron");
    let l = lab(&app);
    assert!(l.trace.edges().iter().all(|s| s.intersection.is_none()));
    let split = l.trace.result.clone().unwrap();
    assert_eq!((split.behind.len(), split.front.len()), (3, 3));
    assert!((l.areas().behind - 2.0).abs() < 1e-5 && (l.areas().front - 2.0).abs() < 1e-5);
    // Along an edge and missing: all behind, nothing in front.
    for preset in ["scenes/slice/along_edge.ron", "scenes/slice/miss.ron"] {
        let app = slice_app(preset);
        assert!(cases(&app).iter().all(|c| *c == InIn), "{preset}: {:?}", cases(&app));
        let a = lab(&app).areas();
        assert_eq!(a.front, 0.0, "{preset}");
        assert!((a.behind - a.original).abs() < 1e-5, "{preset}");
    }
}

#[test]
fn the_step_slider_stays_within_the_walk() {
    let mut app = slice_app("scenes/slice/octagon.ron");
    let last = lab(&app).last_step();
    assert_eq!(last, 7);
    assert_eq!(lab(&app).shown_step(), last, "the finished split is shown first");
    app.apply(act(SliceAction::SetStep(Some(2))));
    assert_eq!(lab(&app).shown_step(), 2);
    app.apply(act(SliceAction::SetStep(Some(99))));
    assert_eq!(lab(&app).shown_step(), last);
    // A triangle has fewer edges: the shown step follows.
    app.apply(act(SliceAction::SetStep(Some(6))));
    app.apply(act(SliceAction::SetShape(ShapeDesc::Polygon {
        points: vec![Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(0.0, 1.0)],
        radius: 0.0,
    })));
    assert_eq!(lab(&app).shown_step(), 2);
    app.apply(act(SliceAction::SetStep(None)));
    assert_eq!(lab(&app).step, None);
    // Drawing edge k: the edge in its case colour, the case labels of the edges so far.
    app.apply(act(SliceAction::SetStep(Some(1))));
    let mut d = DebugList::new(LayerSet::ALL);
    app.lab.as_ref().unwrap().draw(&app, &mut d);
    let labels = d
        .cmds
        .iter()
        .filter(|c| matches!(c, DrawCmd::Text { layer: Layer::Label, text, .. } if text.contains("–")))
        .count();
    assert!(labels >= 2, "edges 0 and 1 are labelled with their cases");
}

#[test]
fn dragging_moves_the_knife_ends_the_knife_and_the_polygon() {
    let mut app = slice_app("scenes/slice/square.ron");
    let k0 = lab(&app).spec.knife;
    // An end follows the pointer; the other stays.
    drag(&mut app, k0.to, k0.to + Vec2::new(0.0, 0.8), false);
    let k = lab(&app).spec.knife;
    assert!((k.to - (k0.to + Vec2::new(0.0, 0.8))).length() < 1e-3 && k.from == k0.from, "{k:?}");
    // The line between the ends moves both.
    let mid = 0.5 * (k.from + k.to);
    drag(&mut app, mid, mid + Vec2::new(0.0, -0.3), false);
    let k1 = lab(&app).spec.knife;
    assert!((k1.from - (k.from + Vec2::new(0.0, -0.3))).length() < 1e-3);
    assert!(((k1.to - k1.from) - (k.to - k.from)).length() < 1e-4);
    // The polygon moves by the drag and turns by Ctrl+drag about its centroid; the walk follows.
    let before = lab(&app).trace.clone();
    let grab = Vec2::new(-0.7, -0.8);
    drag(&mut app, grab, grab + Vec2::new(0.5, 0.0), false);
    assert!((lab(&app).spec.position - Vec2::new(0.5, 0.0)).length() < 1e-3);
    assert_ne!(lab(&app).trace, before);
    let c = lab(&app).spec.position;
    drag(&mut app, c + Vec2::new(0.6, 0.0), c + Vec2::new(0.0, 0.6), true);
    let s = &lab(&app).spec;
    assert!((s.angle - std::f32::consts::FRAC_PI_2).abs() < 0.02, "{}", s.angle);
    assert!((s.position - c).length() < 1e-3, "a box turns about its centre");
    assert!(lab(&app).areas().relative_error() < 1e-5);
    // Nothing under the pointer: the lab lets the app pan and zoom.
    drag(&mut app, Vec2::new(8.0, 8.0), Vec2::new(9.0, 8.0), false);
    assert!((lab(&app).spec.position - c).length() < 1e-3);
}

#[test]
fn bad_files_bad_shapes_and_saving() {
    let mut app = slice_app("scenes/slice/square.ron");
    let dir = std::env::temp_dir().join(format!("manifold_lab_slice_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Slice(version: 1,\n shape: Circle(radius: 1.0),\n knife: (from: (0, 0), to: (1, 0)),\n)")
        .unwrap();
    app.apply(act(SliceAction::Load(bad)));
    let err = app.error.take().expect("the error is shown");
    assert!(err.contains("bad.ron:") && err.contains("cuts polygons"), "{err}");
    assert!(lab(&app).path.as_deref().is_some_and(|p| p.ends_with("square.ron")));
    app.apply(act(SliceAction::SetShape(ShapeDesc::Circle { radius: 1.0 })));
    assert!(app.error.take().unwrap().contains("cuts polygons"));
    app.apply(act(SliceAction::SetShape(ShapeDesc::Box { half_extents: Vec2::new(-1.0, 1.0), radius: 0.0 })));
    assert!(app.error.take().is_some());
    let knife = lab(&app).spec.knife;
    app.apply(act(SliceAction::SetKnife { from: Vec2::ONE, to: Vec2::ONE }));
    app.apply(act(SliceAction::SetPose { position: Vec2::NAN, angle: 0.0 }));
    assert_eq!(lab(&app).spec.knife, knife);
    assert!(lab(&app).spec.position.is_finite());
    // Saved and loaded back: the same walk.
    app.apply(act(SliceAction::SetPose { position: Vec2::new(0.2, 0.1), angle: 0.4 }));
    let saved = dir.join("saved.ron");
    app.apply(act(SliceAction::Save(saved.clone())));
    assert!(app.error.is_none(), "{:?}", app.error);
    let trace = lab(&app).trace.clone();
    app.apply(Action::Restart);
    assert_ne!(lab(&app).trace, trace, "restart goes back to the preset");
    app.apply(act(SliceAction::Load(saved)));
    assert_eq!(lab(&app).trace, trace);
    let _ = std::fs::remove_dir_all(dir);
}
