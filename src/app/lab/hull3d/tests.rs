//! The 3D hull lab without a window: opening it, moving and turning a hull with the same
//! gestures a mouse makes, selecting an axis, saving, and bad files keeping the lab.

use super::{act, AxisSort, Hull3dAction, Hull3dLab, SatMode};
use crate::app::lab::test_support::{drag_screen, lab_app, manifest, Held};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::{Quat, Vec2, Vec3};
use manifold_lab::engine::hull3d::AxisKind;
use manifold_lab::scene::{self, HullShapeDesc};

fn hull_app(file: &str) -> App {
    lab_app(LabKind::HullSat, file)
}

/// Feeds a left drag (screen points) through the lab's gesture code and applies the actions.
fn drag(app: &mut App, from: Vec2, to: Vec2, rotate: bool) {
    drag_screen(app, from, to, Held { rotate, shift: false }, 8);
}

#[test]
fn opening_the_lab_shows_the_article_result() {
    let app = hull_app("scenes/hulls/article_tetrahedron_cube.ron");
    let lab = app.lab_as::<Hull3dLab>().expect("the 3D lab is open");
    let c = lab.view.result.expect("the article's hulls overlap");
    assert!((c.separation + 0.488567).abs() < 1e-4, "{}", c.separation);
    let winner = lab.view.trace.winner.unwrap();
    // The article prints `type: 2, index: [ 1, 2 ]`: edge 1 of A's `edges`, edge 2 of B's.
    let kind = lab.view.trace.axes[winner].kind;
    assert_eq!(kind, AxisKind::Edges { edge_a: 1, edge_b: 2 });
    assert_eq!(kind.name(), "edges 1 x 2");
    assert_eq!((lab.view.hulls[0].edges()[1], lab.view.hulls[1].edges()[2]), ([0, 2], [2, 3]));
    assert_eq!(lab.view.best[2], Some(winner), "the best edge pair is the winner");
    assert!(lab.view.best[0].is_some() && lab.view.best[1].is_some());
    assert!(!lab.view.crossings.is_empty(), "some edge pairs are Minkowski faces");
    // The default file opens without a path too.
    let mut app = App::new(scene::Scene::new("empty"), None);
    // (cargo runs tests in the package directory, where the default file's relative path points)
    app.apply(Action::OpenLab { kind: LabKind::HullSat, file: None });
    assert!(app.lab_as::<Hull3dLab>().is_some(), "{:?}", app.error);
}

#[test]
fn dragging_a_hull_moves_it_under_the_cursor_and_ctrl_drag_turns_it() {
    let mut app = hull_app("scenes/hulls/separated.ron");
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    let b = lab.view.hulls[1].centroid();
    let (from, _) = lab.camera.project(&app.viewport, b).unwrap();
    let to = from + Vec2::new(-60.0, 25.0);
    let before = lab.poses[1];
    drag(&mut app, from, to, false);
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    assert_ne!(lab.poses[1].p, before.p, "B moved");
    assert_eq!(lab.poses[1].q, before.q, "and did not turn");
    let (o, dir) = lab.camera.ray(&app.viewport, to);
    assert!(crate::app::view3d::camera::ray_hull(o, dir, &lab.view.hulls[1]).is_some(), "B is under the cursor");
    assert!((lab.poses[1].p - before.p).dot(lab.camera.forward()).abs() < 1e-3, "in the view plane");
    // Ctrl+drag turns B about its centre.
    let c0 = lab.view.hulls[1].centroid();
    drag(&mut app, to, to + Vec2::new(40.0, 10.0), true);
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    assert!(lab.poses[1].q.angle_between(before.q) > 0.2, "B turned");
    assert!(lab.view.hulls[1].centroid().distance(c0) < 1e-3, "about its centre");
    // Dragging empty space orbits the camera instead.
    let yaw = lab.camera.yaw;
    let corner = app.viewport.min + Vec2::new(20.0, 20.0);
    drag(&mut app, corner, corner + Vec2::new(50.0, 0.0), false);
    assert!((app.lab_as::<Hull3dLab>().unwrap().camera.yaw - yaw).abs() > 0.1);
}

#[test]
fn poses_axes_sorting_and_camera_actions() {
    let mut app = hull_app("scenes/hulls/separated.ron");
    assert!(app.lab_as::<Hull3dLab>().unwrap().view.result.is_err(), "separated preset");
    app.apply(act(Hull3dAction::SetPose { hull: 1, position: Vec3::new(1.0, 0.2, 0.0), rotation: Quat::IDENTITY }));
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    assert!(lab.view.result.is_ok(), "moved into A");
    assert!(lab.view.manifold.as_ref().is_some_and(|m| !m.points.is_empty()));
    // Non-finite poses are ignored.
    app.apply(act(Hull3dAction::SetPose { hull: 1, position: Vec3::NAN, rotation: Quat::IDENTITY }));
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().poses[1].p, Vec3::new(1.0, 0.2, 0.0));
    app.apply(act(Hull3dAction::SelectAxis(Some(3))));
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().axis, Some(3));
    app.apply(act(Hull3dAction::SortAxes(AxisSort::Separation)));
    app.apply(act(Hull3dAction::SetSat(SatMode::Article)));
    app.apply(act(Hull3dAction::ShowGaussMaps(false)));
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    assert_eq!((lab.sort, lab.mode, lab.show_gauss), (AxisSort::Separation, SatMode::Article, false));
    let d = lab.camera.distance;
    app.apply(Action::ZoomAt { screen: app.viewport.center(), factor: 2.0 });
    assert!((app.lab_as::<Hull3dLab>().unwrap().camera.distance - d / 2.0).abs() < 1e-3);
    app.apply(act(Hull3dAction::Orbit { yaw: 0.3, pitch: 0.0 }));
    app.apply(Action::FrameAll);
    app.apply(act(Hull3dAction::SetShape { hull: 0, shape: HullShapeDesc::Icosahedron { radius: 0.7 } }));
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().local[0].faces().len(), 20);
    app.apply(Action::Restart);
    assert_eq!(
        app.lab_as::<Hull3dLab>().unwrap().poses[1].p,
        Vec3::new(2.3, 0.4, 0.0),
        "restart restores the file's poses"
    );
}

#[test]
fn bad_files_keep_the_lab_and_saving_round_trips() {
    let mut app = hull_app("scenes/hulls/cube_on_cube.ron");
    let dir = std::env::temp_dir().join(format!("manifold_lab_hull3d_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("flat_hulls.ron");
    std::fs::write(
        &bad,
        "Hulls(version: 1,\n a: (shape: Cube(half: 1)),\n b: (shape: Points([(0,0,0), (1,0,0), (0,1,0), (1,1,0)])),\n)",
    )
    .unwrap();
    app.apply(act(Hull3dAction::Load(bad)));
    let err = app.error.take().expect("the error is shown");
    assert!(err.contains("flat_hulls.ron:3:") && err.contains("coplanar"), "{err}");
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().spec.name, "Cube on cube", "the lab kept its pair");
    app.apply(act(Hull3dAction::SetShape {
        hull: 1,
        shape: HullShapeDesc::Prism { sides: 2, radius: 1.0, height: 1.0 },
    }));
    assert!(app.error.take().is_some_and(|e| e.contains("sides")));

    app.apply(act(Hull3dAction::SetPose {
        hull: 1,
        position: Vec3::new(0.4, 1.3, 0.1),
        rotation: Quat::from_rotation_y(0.3),
    }));
    let saved = dir.join("saved_hulls_app.ron");
    app.apply(act(Hull3dAction::Save(saved.clone())));
    assert!(app.error.is_none(), "{:?}", app.error);
    let before = app.lab_as::<Hull3dLab>().unwrap().view.hulls.clone();
    app.apply(act(Hull3dAction::Load(saved)));
    let after = &app.lab_as::<Hull3dLab>().unwrap().view.hulls;
    for (h, g) in before.iter().zip(after) {
        for (p, q) in h.positions().iter().zip(g.positions()) {
            assert!(p.distance(*q) < 1e-4, "{p} vs {q}");
        }
    }
    // Outside the lab, its actions are errors, and closing it returns to the scene.
    app.apply(Action::CloseLab);
    assert!(app.lab_as::<Hull3dLab>().is_none());
    app.apply(act(Hull3dAction::Orbit { yaw: 0.1, pitch: 0.0 }));
    assert!(app.error.is_some());
}

#[test]
fn layers_switch_what_the_engine_records_and_survive_a_new_pair() {
    use manifold_lab::engine::debug3::{DebugList3, Layer3};
    use manifold_lab::engine::hull3d::SatDrawOptions3;
    let mut app = hull_app("scenes/hulls/cube_on_cube.ron");
    let record = |app: &App| {
        let lab = app.lab_as::<Hull3dLab>().unwrap();
        let mut list = DebugList3::new(lab.layers);
        lab.view.draw(&SatDrawOptions3 { selected: lab.axis, ..Default::default() }, &mut list);
        list
    };
    let on = record(&app);
    assert_eq!(on.count(Layer3::Contact), 4);
    assert_eq!(on.count(Layer3::Mtv), 2, "the arrow and its label");
    // Scripts switch a layer in plain RON, as the panel's checkbox does.
    let off: Action = ron::from_str("Lab(Hull3d(SetLayer(Mtv, false)))").unwrap();
    app.apply(off);
    app.apply(act(Hull3dAction::SelectAxis(Some(0))));
    let list = record(&app);
    assert_eq!((list.count(Layer3::Mtv), list.count(Layer3::Contact)), (0, 4));
    assert!(list.count(Layer3::Projection) > 0, "the selected axis is drawn");
    app.apply(act(Hull3dAction::Load(manifest("scenes/hulls/article_tetrahedron_cube.ron"))));
    assert!(!app.lab_as::<Hull3dLab>().unwrap().layers.contains(Layer3::Mtv), "a new pair keeps the layers");
}

#[test]
fn sorting_by_separation_lists_the_largest_first_and_skipped_axes_last() {
    let mut app = hull_app("scenes/hulls/article_tetrahedron_cube.ron");
    app.apply(act(Hull3dAction::SetSat(SatMode::Article)));
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    let axes = &lab.view.trace.axes;
    assert!(axes.iter().any(|a| a.skipped.is_some()), "the article's mode skips faces");
    assert_eq!(AxisSort::TestOrder.order(axes), (0..axes.len()).collect::<Vec<_>>());
    let order = AxisSort::Separation.order(axes);
    let mut seen = order.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..axes.len()).collect::<Vec<_>>(), "a permutation");
    let seps: Vec<f32> = order.iter().map(|&i| axes[i].separation).collect();
    let scored = seps.iter().take_while(|s| !s.is_nan()).count();
    assert!(seps[scored..].iter().all(|s| s.is_nan()), "skipped axes last: {seps:?}");
    assert!(seps[..scored].windows(2).all(|w| w[0] >= w[1]), "largest first: {seps:?}");
    assert_eq!(order[0], lab.view.trace.winner.unwrap(), "the winner on top");
}

#[test]
fn the_articles_mode_reproduces_the_article_and_skips_faces_the_robust_mode_scores() {
    let mut app = hull_app("scenes/hulls/article_tetrahedron_cube.ron");
    let robust = app.lab_as::<Hull3dLab>().unwrap().view.trace.clone();
    assert!(robust.axes.iter().all(|a| a.skipped != Some(manifold_lab::engine::hull3d::trace::AxisSkip::Behind)));
    app.apply(act(Hull3dAction::SetSat(SatMode::Article)));
    let lab = app.lab_as::<Hull3dLab>().unwrap();
    assert_eq!(lab.mode, SatMode::Article);
    let article = &lab.view.trace;
    let behind = article
        .axes
        .iter()
        .filter(|a| a.skipped == Some(manifold_lab::engine::hull3d::trace::AxisSkip::Behind))
        .count();
    assert!(behind > 0, "the article's `continue` skips faces with the other hull behind");
    // Article 001 prints the winning edge pair [1, 2] at separation −0.488567.
    let c = lab.view.result.expect("overlap");
    assert!((c.separation + 0.488567).abs() < 1e-4, "{}", c.separation);
    assert_eq!(article.axes[article.winner.unwrap()].kind, AxisKind::Edges { edge_a: 1, edge_b: 2 });
}

#[test]
fn frame_all_brings_both_hulls_into_view_after_orbiting_and_zooming_away() {
    let mut app = hull_app("scenes/hulls/separated.ron");
    app.apply(act(Hull3dAction::Orbit { yaw: 1.1, pitch: 0.4 }));
    app.apply(Action::ZoomAt { screen: app.viewport.center(), factor: 0.05 });
    app.apply(act(Hull3dAction::SetPose { hull: 1, position: Vec3::new(9.0, 3.0, -2.0), rotation: Quat::IDENTITY }));
    let vp = app.viewport;
    let on_screen = |app: &App| {
        let lab = app.lab_as::<Hull3dLab>().unwrap();
        let pts: Vec<Vec2> = lab
            .view
            .hulls
            .iter()
            .flat_map(|h| h.positions().iter().map(|&p| lab.camera.project(&vp, p).map(|(s, _)| s)))
            .collect::<Option<_>>()
            .unwrap_or_default();
        let inside = !pts.is_empty() && pts.iter().all(|s| s.cmpge(vp.min).all() && s.cmple(vp.min + vp.size).all());
        let (lo, hi) = pts.iter().fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        (inside, lo, hi)
    };
    let (_, before_lo, before_hi) = on_screen(&app);
    let turned = app.lab_as::<Hull3dLab>().unwrap().camera;
    app.apply(Action::FrameAll);
    let (inside, lo, hi) = on_screen(&app);
    assert!(inside, "every vertex of both hulls projects inside the view: {lo} {hi} in {vp:?}");
    // Framed, not lost in a corner: the hulls' screen box spans a good part of the view and
    // is centred in it.
    let (size, view) = (hi - lo, vp.size);
    assert!(size.max_element() > 0.3 * view.min_element(), "{size} of {view}");
    assert!((0.5 * (lo + hi)).distance(vp.center()) < 0.15 * view.min_element(), "{lo} {hi}");
    assert!((hi - lo).max_element() > 2.0 * (before_hi - before_lo).max_element(), "zoomed back in");
    // The orbit is kept: framing moves the camera's target and distance, not its direction.
    let camera = app.lab_as::<Hull3dLab>().unwrap().camera;
    assert_eq!((camera.yaw, camera.pitch), (turned.yaw, turned.pitch));
}

#[test]
fn the_clip_stage_walks_the_manifolds_clipping_and_follows_edits() {
    use manifold_lab::engine::hull3d::{ClipStep3, ReduceStep};
    use manifold_lab::engine::trace::Trace3;
    let mut app = hull_app("scenes/hulls/cube_on_cube.ron");
    let lab = |app: &App| {
        let lab = app.lab_as::<Hull3dLab>().unwrap();
        (lab.clip_step, lab.view.clip.clone(), lab.view.manifold.clone().expect("a contact"))
    };
    app.apply(act(Hull3dAction::ClipStep(3)));
    assert_eq!(lab(&app).0, None, "a step needs the stage on");
    app.apply(act(Hull3dAction::Construct(Some(0))));
    app.apply(act(Hull3dAction::Clip(true)));
    let (step, trace, manifold) = lab(&app);
    assert_eq!(step, Some(0));
    assert!(app.lab_as::<Hull3dLab>().unwrap().construct.is_none(), "one stage at a time");
    // The preset's turned cube overhangs one side plane: 5 points, reduced to the manifold's 4.
    assert_eq!(trace.side_plane_count(), 4);
    assert_eq!(trace.classified().map(|(k, r)| (k.len(), r.len())), Some((5, 0)));
    assert_eq!(trace.manifold_points(), manifold.points);
    let captions: Vec<String> = (0..trace.steps())
        .map(|k| {
            app.apply(act(Hull3dAction::ClipStep(k)));
            assert_eq!(lab(&app).0, Some(k));
            trace.step_label(k)
        })
        .collect();
    assert!(captions[0].starts_with("step 1 of 12: reference face "), "{captions:?}");
    assert!(captions[1].contains("the most anti-parallel to the reference normal"));
    assert!(captions[6].contains("5 kept behind the reference face, 0 rejected"));
    assert!(captions[7].contains("1. the deepest"));
    assert!(captions[11].contains("the manifold: 4 of 5 points kept"));
    assert!(matches!(trace.steps.last(), Some(ClipStep3::Reduce(ReduceStep::Kept(k))) if k.len() == 4));
    // Past the end: the last step. Moving B keeps the stage, on a clipping of the new pose.
    app.apply(act(Hull3dAction::ClipStep(99)));
    assert_eq!(lab(&app).0, Some(11));
    let rot = Quat::from_rotation_y(0.3);
    app.apply(act(Hull3dAction::SetPose { hull: 1, position: Vec3::new(0.2, 1.45, -0.1), rotation: rot }));
    let (step, trace, manifold) = lab(&app);
    assert_eq!((step, trace.steps()), (Some(7), 8), "inside the face: 4 points, all kept");
    assert_eq!(trace.manifold_points(), manifold.points);
    app.apply(act(Hull3dAction::Clip(false)));
    assert_eq!(lab(&app).0, None);
}
