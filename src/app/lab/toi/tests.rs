//! The time-of-impact lab without a window: opening presets, the five methods' results, poses
//! dragged and turned with the same gestures a mouse makes, refused sweeps, bad files and
//! saving.

use super::{act, Pose, ToiAction, ToiLab};
use crate::app::lab::test_support::{drag_world, lab_app, Held};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::engine::collide::toi::{ToiMethod, ToiState};
use manifold_lab::scene;

fn toi_app(preset: &str) -> App {
    lab_app(LabKind::Toi, preset)
}

/// A left drag (Ctrl held with `rotate`) through the app's gesture code.
fn drag(app: &mut App, from: Vec2, to: Vec2, rotate: bool) {
    drag_world(app, from, to, Held { rotate, shift: false }, 8);
}

fn lab(app: &App) -> &ToiLab {
    app.lab_as::<ToiLab>().expect("the time-of-impact lab is open")
}

#[test]
fn the_spinning_plank_is_seen_only_by_the_rotating_methods() {
    let app = toi_app("scenes/toi/spinning_plank.ron");
    let l = lab(&app);
    for (m, r) in ToiMethod::ALL.iter().zip(&l.results) {
        let expected = if m.handles_rotation() { ToiState::Hit } else { ToiState::Separated };
        assert_eq!(r.state, expected, "{m:?}");
    }
    assert!(l.trace.steps.len() >= 2, "the shown method's iterations are traced");
    // The default preset opens without a file too.
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind: LabKind::Toi, file: None });
    assert!(app.lab_as::<ToiLab>().is_some(), "{:?}", app.error);
    // It opens on the default method, the certified root finder.
    assert_eq!(lab(&app).method(), ToiMethod::Certified);
}

#[test]
fn the_plain_root_finder_steps_over_a_hit_the_certified_one_finds() {
    let app = toi_app("scenes/toi/root_finder_steps_over.ron");
    let l = lab(&app);
    let state = |m: ToiMethod| l.results[ToiMethod::ALL.iter().position(|&x| x == m).unwrap()].state;
    assert_eq!(state(ToiMethod::RootFinder), ToiState::Separated);
    assert_eq!(state(ToiMethod::Certified), ToiState::Hit);
    assert_eq!(state(ToiMethod::ConservativeAdvancement), ToiState::Hit);
    assert_eq!((l.method(), l.result().state), (ToiMethod::Certified, ToiState::Hit));
}

#[test]
fn dragging_moves_the_pose_grabbed_and_turning_keeps_the_centre() {
    let mut app = toi_app("scenes/toi/box_onto_box.ron");
    let (start, end) = (lab(&app).spec.b.start, lab(&app).spec.b.end_pose());
    // B's end ghost moves by the drag; its start stays.
    let grab = end.position + Vec2::new(0.1, 0.1);
    drag(&mut app, grab, grab + Vec2::new(0.0, 1.5), false);
    let b = &lab(&app).spec.b;
    assert!((b.end_pose().position - (end.position + Vec2::new(0.0, 1.5))).length() < 1e-3);
    assert_eq!(b.start, start);
    // Ctrl+drag on the start turns it about its centre (B is a box: centre = origin).
    let c = start.position;
    drag(&mut app, c + Vec2::new(0.3, 0.0), c + Vec2::new(0.0, 0.3), true);
    let b = &lab(&app).spec.b;
    assert!((b.start.angle - (start.angle + std::f32::consts::FRAC_PI_2)).abs() < 0.02, "{}", b.start.angle);
    assert!((b.start.position - c).length() < 1e-3);
    // The end keeps its turn relative to the start.
    assert!((b.end_pose().angle - b.start.angle - (end.angle - start.angle)).abs() < 1e-5);
}

#[test]
fn a_sweep_of_half_a_turn_or_more_is_refused() {
    let mut app = toi_app("scenes/toi/box_onto_box.ron");
    let before = lab(&app).spec.clone();
    let p = before.b.start.position;
    app.apply(act(ToiAction::SetPose { body: 1, pose: Pose::End, position: p, angle: before.b.start.angle + 3.2 }));
    assert_eq!(lab(&app).spec, before);
    assert!(app.notice.is_some());
    app.apply(act(ToiAction::SetPose { body: 1, pose: Pose::End, position: p, angle: f32::NAN }));
    assert_eq!(lab(&app).spec, before);
}

#[test]
fn methods_steps_bad_files_and_saving() {
    let mut app = toi_app("scenes/toi/box_onto_box.ron");
    app.apply(act(ToiAction::SetStep(Some(1))));
    app.apply(act(ToiAction::SetMethod(ToiMethod::ConservativeAdvancement)));
    assert_eq!((lab(&app).method(), lab(&app).step), (ToiMethod::ConservativeAdvancement, None));
    assert_eq!(lab(&app).result().state, ToiState::Hit);
    // A broken preset is a located error and the lab keeps its sweep.
    let dir = std::env::temp_dir().join(format!("manifold_lab_toi_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Toi(version: 1,\n a: (shape: Circle(radius: 1.0), start: (position: (0, 0))),\n b: (shape: Circle(radius: -1.0), start: (position: (3, 0))),\n)").unwrap();
    app.apply(act(ToiAction::Load(bad)));
    let err = app.error.take().expect("the error is shown");
    assert!(err.contains("bad.ron:3:") && err.contains("radius"), "{err}");
    assert!(lab(&app).path.as_deref().is_some_and(|p| p.ends_with("box_onto_box.ron")));
    // Saving writes the current sweep and method; loading it back gives the same results.
    app.apply(act(ToiAction::SetPose { body: 0, pose: Pose::End, position: Vec2::new(0.5, 0.2), angle: 0.3 }));
    let saved = dir.join("saved.ron");
    app.apply(act(ToiAction::Save(saved.clone())));
    assert!(app.error.is_none(), "{:?}", app.error);
    let results = lab(&app).results.clone();
    app.apply(act(ToiAction::Load(saved)));
    assert_eq!(lab(&app).method(), ToiMethod::ConservativeAdvancement);
    assert_eq!(lab(&app).results, results);
    let _ = std::fs::remove_dir_all(dir);
}

/// The distance from `p` to segment `a b`.
fn to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let e = b - a;
    let u = ((p - a).dot(e) / e.length_squared().max(1e-12)).clamp(0.0, 1.0);
    p.distance(a + u * e)
}

#[test]
fn the_ray_and_its_label_are_drawn_only_with_relative_motion() {
    use crate::app::lab::Lab;
    use manifold_lab::engine::debug::{DebugList, DrawCmd, Layer, LayerSet};
    let config_space = |app: &App| {
        let mut d = DebugList::new(LayerSet::ALL);
        super::draw::draw_config(lab(app), &mut d);
        d.cmds
    };
    let ray_label = |cmds: &[DrawCmd]| {
        cmds.iter().find_map(|c| match c {
            DrawCmd::Text { text, p, .. } if text == super::draw::RAY_LABEL => Some(*p),
            _ => None,
        })
    };
    let arrows = |cmds: &[DrawCmd]| -> Vec<(Layer, Vec2, Vec2)> {
        cmds.iter()
            .filter_map(|c| match c {
                DrawCmd::Arrow { layer, from, to, .. } => Some((*layer, *from, *to)),
                _ => None,
            })
            .collect()
    };
    // The plank turns in place: no relative translation, so no ray and no ray label beside
    // the distance arrow at the origin; the inset's title says why.
    let mut app = toi_app("scenes/toi/spinning_plank.ron");
    app.apply(act(ToiAction::SetMethod(ToiMethod::LinearCast)));
    let cmds = config_space(&app);
    assert_eq!(ray_label(&cmds), None);
    assert!(arrows(&cmds).iter().all(|a| a.0 != Layer::Motion), "no ray without motion");
    assert!(arrows(&cmds).iter().any(|a| a.0 == Layer::Normal), "the distance arrow is still drawn");
    let title = lab(&app).inset(&app).map(|t| t.1).unwrap_or_default();
    assert!(title.contains("no relative motion"), "{title}");
    // With motion, the label names the ray: on its line past its tip, nearer to it than to any
    // other arrow.
    let mut app = toi_app("scenes/toi/box_onto_box.ron");
    app.apply(act(ToiAction::SetMethod(ToiMethod::LinearCast)));
    let cmds = config_space(&app);
    let at = ray_label(&cmds).expect("the ray is labelled");
    let all = arrows(&cmds);
    let &(_, from, ray) = all.iter().find(|a| a.0 == Layer::Motion).expect("the ray is drawn");
    assert_eq!(from, Vec2::ZERO);
    assert!(ray.perp_dot(at).abs() < 1e-4 * ray.length() * at.length() && at.dot(ray) > ray.length_squared());
    let nearest = all.iter().min_by(|x, y| to_segment(at, x.1, x.2).total_cmp(&to_segment(at, y.1, y.2))).unwrap();
    assert_eq!(nearest.0, Layer::Motion, "the label is nearest the ray");
    assert!(lab(&app).inset(&app).is_some_and(|t| t.1.contains("the ray")));
}

/// Conservative advancement on the spinning plank: configuration space shows A − B at each
/// iteration's poses, whose separation is the trace's distance there (the difference built
/// from support vertices agrees with GJK), whose shape changes from one iteration to the
/// next (the plank turns), drawn over one faint outline per earlier iteration.
#[test]
fn the_rotating_sweep_shows_the_difference_at_each_iteration() {
    use super::iterations::difference_at;
    use crate::app::lab::Lab;
    use manifold_lab::engine::debug::{DebugList, DrawCmd, Layer, LayerSet};
    let mut app = toi_app("scenes/toi/spinning_plank.ron");
    app.apply(act(ToiAction::SetMethod(ToiMethod::ConservativeAdvancement)));
    let steps = lab(&app).trace.steps.clone();
    assert!(steps.len() >= 3, "{} iterations", steps.len());
    let (_, title) = lab(&app).inset(&app).expect("configuration space is shown");
    assert!(title.contains("iteration"), "{title}");
    let edge_lengths = |md: &manifold_lab::engine::collide::minkowski::MinkowskiDifference| {
        md.edges.iter().map(|e| (e.end - e.start).length()).collect::<Vec<_>>()
    };
    for (k, s) in steps.iter().enumerate() {
        let md = difference_at(lab(&app), s);
        assert!(
            (md.signed_distance() - s.distance).abs() < 1e-4,
            "iteration {k}: {} vs {}",
            md.signed_distance(),
            s.distance
        );
        app.apply(act(ToiAction::SetStep(Some(k))));
        let mut d = DebugList::new(LayerSet::of(&[Layer::Minkowski, Layer::Motion]));
        lab(&app).draw_inset(&app, &mut d);
        let outlines = d.on(Layer::Minkowski).filter(|c| matches!(c, DrawCmd::Polygon { .. })).count();
        assert_eq!(outlines, k + 1, "iteration {k}: the earlier ones faint and the shown one");
        let label = d.on(Layer::Motion).find_map(|c| match c {
            DrawCmd::Text { text, .. } => Some(text.clone()),
            _ => None,
        });
        assert!(label.is_some_and(|t| t.starts_with(&format!("{}/{}: t = ", k + 1, steps.len()))));
    }
    // The plank turns between the first and the last iteration: the difference's edges turn
    // with it, so its outline is not the first one moved.
    let (first, last) = (difference_at(lab(&app), &steps[0]), difference_at(lab(&app), steps.last().unwrap()));
    let turned =
        first.edges.iter().zip(&last.edges).any(|(a, b)| (a.end - a.start).angle_between(b.end - b.start).abs() > 0.05);
    assert!(turned || edge_lengths(&first) != edge_lengths(&last), "the difference changes shape");
}

/// The lab's Box2D answer is `b2TimeOfImpact` called directly, on an input built here from
/// Box2D's own box (`b2MakeBox`) and the preset's sweeps; and on box onto box (B's face 3.5 m
/// from A's, closed at 9 m per unit of time, no turn) the three engines give the closed forms:
/// Box2D and ours stop a linear slop short, t = (3.5 − 0.005)/9; parry at touching, t = 3.5/9.
#[cfg(feature = "peers")]
#[test]
fn the_peers_are_b2_time_of_impact_called_directly_and_agree_on_a_straight_sweep() {
    use boxdd_sys::ffi as b2;
    let mut app = toi_app("scenes/toi/box_onto_box.ron");
    app.apply(act(ToiAction::ShowPeers(true)));
    let l = lab(&app);
    assert!(l.peers);
    let p = super::peers::answers(&l.spec.input());
    let v = |x: f32, y: f32| b2::b2Vec2 { x, y };
    let q = b2::b2Rot { c: 1.0, s: 0.0 };
    // SAFETY: plain C functions on stack data.
    let out = unsafe {
        let proxy = |h: f32| {
            let b = b2::b2MakeBox(h, h);
            b2::b2MakeProxy(b.vertices.as_ptr(), b.count, b.radius)
        };
        let sweep = |c1, c2| b2::b2Sweep { localCenter: v(0.0, 0.0), c1, c2, q1: q, q2: q };
        b2::b2TimeOfImpact(&b2::b2TOIInput {
            proxyA: proxy(1.0),
            proxyB: proxy(0.5),
            sweepA: sweep(v(0.0, 0.0), v(0.0, 0.0)),
            sweepB: sweep(v(-5.0, 0.3), v(4.0, 0.3)),
            maxFraction: 1.0,
        })
    };
    assert_eq!(p.box2d.state, ToiState::Hit);
    assert_eq!(p.box2d.t, out.fraction);
    assert_eq!(p.box2d.normal, Vec2::new(out.normal.x, out.normal.y));
    assert_eq!(p.box2d.point, Vec2::new(out.point.x, out.point.y));
    // Closed forms; Box2D's tolerance is a quarter slop in distance, 9 m per unit of time.
    let slop_short = (3.5 - 0.005) / 9.0;
    assert!((p.box2d.t - slop_short).abs() < 0.00125 / 9.0, "Box2D {} vs {slop_short}", p.box2d.t);
    let parry = p.parry.expect("parry takes two boxes");
    // parry's nonlinear cast ends "out of iterations" on this sweep, its time "a conservative
    // approximation" by its own documentation: the closed form says how close.
    assert!(matches!(parry.state, ToiState::Hit | ToiState::IterationLimit), "{parry:?}");
    assert!((parry.t - 3.5 / 9.0).abs() < 1e-4, "parry {} vs {}", parry.t, 3.5 / 9.0);
    for r in [lab(&app).result(), &p.box2d, &parry] {
        assert!((r.t - slop_short).abs() < 0.0075 / 9.0, "{r:?}");
        // The normal points from A to B: −x, B comes from the left; the point is on A's face.
        assert!(r.normal.distance(Vec2::NEG_X) < 1e-3, "{r:?}");
        assert!((r.point.x + 1.0).abs() < 0.01 && (-0.2..=1.0).contains(&r.point.y), "{r:?}");
    }
    let report = crate::app::lab::Lab::report(lab(&app), &app.stage).expect("the lab reports");
    assert_eq!(report["peers"]["box2d"]["t"], serde_json::json!(p.box2d.t));
}
