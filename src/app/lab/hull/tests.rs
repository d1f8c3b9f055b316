//! The hull lab without a window: every preset opens (the collinear one with its error shown),
//! clicks add points, drags move them and Shift+clicks delete them through the app's gesture
//! code, the slider and Play stay in bounds, bad files keep the lab, saving round-trips.

use super::{act, HullAction, HullLab};
use crate::app::lab::test_support::{drag_world, lab_app, manifest, Held};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::engine::debug::{DebugList, Layer, LayerSet};
use manifold_lab::engine::shape::hull::convex_hull;
use manifold_lab::engine::trace::Trace;
use manifold_lab::scene;
use manifold_lab::scene::PresetFile;

fn hull_app(preset: &str) -> App {
    lab_app(LabKind::QuickHull, preset)
}

/// A left press at `from`, a drag to `to` and a release, through the app's gesture code.
fn gesture(app: &mut App, from: Vec2, to: Vec2, shift: bool) {
    drag_world(app, from, to, Held { rotate: false, shift }, 6);
}

fn lab(app: &App) -> &HullLab {
    app.lab_as::<HullLab>().expect("the hull lab is open")
}

#[test]
fn every_preset_opens_and_its_hull_is_the_monotone_chains() {
    let mut n = 0;
    for entry in std::fs::read_dir(manifest("scenes/hull")).unwrap() {
        let path = entry.unwrap().path();
        let app = hull_app(path.to_str().unwrap());
        let l = lab(&app);
        assert_eq!(l.trace.result.clone(), Some(convex_hull(&l.spec.points)), "{}", path.display());
        assert_eq!(l.error().is_some(), path.ends_with("collinear.ron"), "{}", path.display());
        n += 1;
    }
    assert!(n >= 5, "the shipped presets: {n}");
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind: LabKind::QuickHull, file: None });
    assert!(app.lab_as::<HullLab>().is_some(), "{:?}", app.error);
}

#[test]
fn click_adds_drag_moves_shift_click_deletes() {
    let mut app = hull_app("scenes/hull/grid.ron");
    let n = lab(&app).spec.points.len();
    assert_eq!(lab(&app).trace.result.clone().unwrap().unwrap().len(), 4, "a grid's hull is its corners");
    // A click outside the grid adds a point there, which becomes a vertex.
    let far = Vec2::new(0.0, 2.2);
    gesture(&mut app, far, far, false);
    assert_eq!(lab(&app).spec.points.len(), n + 1);
    assert!((lab(&app).spec.points[n] - far).length() < 1e-3);
    assert_eq!(lab(&app).trace.result.clone().unwrap().unwrap().len(), 5);
    // Dragging it back inside the grid: the hull is the corners again.
    gesture(&mut app, far, Vec2::new(0.1, 0.1), false);
    assert!((lab(&app).spec.points[n] - Vec2::new(0.1, 0.1)).length() < 1e-3);
    assert_eq!(lab(&app).trace.result.clone().unwrap().unwrap().len(), 4);
    // Shift+click deletes it.
    gesture(&mut app, Vec2::new(0.1, 0.1), Vec2::new(0.1, 0.1), true);
    assert_eq!(lab(&app).spec.points.len(), n);
    // Bad input is refused with a notice, never a panic.
    app.apply(act(HullAction::AddPoint(Vec2::new(f32::NAN, 0.0))));
    app.apply(act(HullAction::MovePoint { index: 999, to: Vec2::ZERO }));
    app.apply(act(HullAction::DeletePoint(999)));
    assert_eq!(lab(&app).spec.points.len(), n);
    assert!(app.notice.is_some());
}

#[test]
fn slider_play_and_clearing_stay_in_bounds() {
    let mut app = hull_app("scenes/hull/scatter.ron");
    let steps = Trace::steps(&lab(&app).trace);
    assert!(steps >= 4, "{steps}");
    app.apply(act(HullAction::SetStep(Some(10_000))));
    assert_eq!(lab(&app).shown_step(), steps - 1);
    app.apply(act(HullAction::Play(true)));
    assert_eq!(lab(&app).shown_step(), 0);
    for _ in 0..(4 * steps) {
        app.update(0.7);
    }
    assert!(!lab(&app).player.playing && lab(&app).step.is_none(), "Play stops on the finished hull");
    // Every step draws its layers: the hull so far, the chosen edge, the new cone, the labels.
    app.apply(act(HullAction::SetStep(Some(2))));
    let mut d = DebugList::new(LayerSet::ALL);
    crate::app::lab::Lab::draw(lab(&app), &app, &mut d);
    for layer in [Layer::Shape, Layer::Polytope, Layer::RefFace, Layer::Simplex, Layer::Label] {
        assert!(d.count(layer) > 0, "{layer:?} is drawn at step 3");
    }
    app.apply(act(HullAction::Clear));
    assert_eq!(Trace::steps(&lab(&app).trace), 0);
    assert!(lab(&app).error().is_some(), "an empty cloud has no hull, and says so");
    let mut d = DebugList::new(LayerSet::ALL);
    crate::app::lab::Lab::draw(lab(&app), &app, &mut d);
}

#[test]
fn bad_files_keep_the_lab_and_saving_round_trips() {
    let mut app = hull_app("scenes/hull/circle.ron");
    let before = lab(&app).spec.clone();
    let dir = std::env::temp_dir().join(format!("hull_lab_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Cloud(\n    version: 1,\n    points: [(0.0, 0.0), (1e9, 0.0)],\n)").unwrap();
    app.apply(act(HullAction::Load(bad.clone())));
    let e = app.error.clone().expect("a located error");
    assert!(e.contains("bad.ron:3:") && e.contains("point 1"), "{e}");
    assert_eq!(lab(&app).spec, before);
    let saved = dir.join("saved.ron");
    app.apply(act(HullAction::Save(saved.clone())));
    let back = scene::CloudSpec::load(&saved).unwrap();
    assert_eq!(back.points, before.points);
    std::fs::remove_dir_all(&dir).ok();
}
