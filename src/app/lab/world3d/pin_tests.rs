//! The 3D contact inspector's pin, its pair opened in the hull lab and saved as a fixture,
//! through the app's own actions and the lab's gestures: the hull lab's narrowphase gives the
//! world's contact bit for bit, and the saved file reads back to the same poses.

use super::fixture::{contact_hulls, find_pair, same_contact};
use super::pin::{ContactKey3, PinStatus};
use super::{act, World3dAction, World3dLab};
use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::lab::hull3d::Hull3dLab;
use crate::app::lab::test_support::lab_app;
use crate::app::lab::LabKind;
use crate::app::state::{Action, App, RunMode};
use glam::Vec2;
use manifold_lab::engine::world3d::Contact3;
use manifold_lab::scene::{HullsSpec, PresetFile};

fn lab(app: &App) -> &World3dLab {
    app.lab_as::<World3dLab>().expect("the 3D dynamics lab is open")
}

/// The stack after `steps` steps, paused.
fn stack(steps: usize) -> App {
    let mut app = lab_app(LabKind::World3d, "scenes/world3d/stack.ron");
    app.mode = RunMode::Paused;
    for _ in 0..steps {
        app.apply(Action::Step);
    }
    app
}

/// A contact point drawn in the view, as (contact, point, screen position): the first that no
/// other point of another pair covers.
fn point_in_view(app: &App) -> (usize, usize, Vec2) {
    let l = lab(app);
    let vp = app.viewport;
    let all: Vec<(usize, usize, Vec2)> = (l.world.contacts.iter().enumerate())
        .flat_map(|(c, x)| x.points.iter().enumerate().map(move |(k, p)| (c, k, p.position)))
        .filter_map(|(c, k, p)| l.camera.project(&vp, p).filter(|(s, _)| vp.contains(*s)).map(|(s, _)| (c, k, s)))
        .collect();
    *all.iter()
        .find(|&&(c, _, s)| all.iter().all(|&(d, _, t)| d == c || t.distance(s) > 20.0))
        .expect("a point in view")
}

/// A click (press and release) at `at` through the app's gesture code.
fn click(app: &mut App, at: Vec2) {
    let mut st = InputState::default();
    for (pressed, down) in [(false, false), (true, true), (false, false)] {
        let f = PointerFrame {
            pos: at,
            left_pressed: pressed,
            left_down: down,
            left_released: !down && !pressed,
            ..Default::default()
        };
        for a in pointer_actions(app, &mut st, &f, false) {
            app.apply(a);
        }
    }
}

fn pinned_contact(app: &App) -> Contact3 {
    let l = lab(app);
    let (c, _) = l.pinned_point().expect("the pinned point is live");
    l.world.contacts[c].clone()
}

#[test]
fn a_click_pins_the_hovered_point_which_follows_the_steps_until_it_ends() {
    let mut app = stack(30);
    let (c, k, at) = point_in_view(&app);
    let key = ContactKey3::of(&lab(&app).world, c, k).unwrap();
    click(&mut app, at);
    assert_eq!(lab(&app).pinned.map(|p| p.key), Some(key), "a click on the point pins it");
    assert_eq!(lab(&app).world.mouse, None, "and grabs no hull");
    // It stays through steps, found by its pair and feature id wherever the list puts it.
    for _ in 0..20 {
        app.apply(Action::Step);
    }
    let l = lab(&app);
    let (c2, k2) = l.pinned_point().expect("a resting contact lasts");
    assert_eq!(ContactKey3::of(&l.world, c2, k2), Some(key));
    let report = crate::app::lab::world3d::pin::report(l);
    assert_eq!(report["status"], "live");
    assert_eq!(report["rows"]["age"], format!("{} steps", l.world.contacts[c2].points[k2].persisted));
    // Lift body B far away while paused: the contact ends, and the card says after which step.
    let b = key.pair.b;
    let point = l.world.bodies[b].center;
    app.apply(act(World3dAction::Grab { body: b, point }));
    app.apply(act(World3dAction::PullTo(point + glam::Vec3::new(0.0, 30.0, 0.0))));
    let l = lab(&app);
    assert_eq!(key.status(&l.world), PinStatus::Ended);
    let report = crate::app::lab::world3d::pin::report(l);
    assert_eq!((report["status"].as_str(), report["last_seen"].as_u64()), (Some("ended"), Some(50)));
    // Esc unpins; so does a second click on a pinned point.
    app.apply(Action::Unpin);
    assert_eq!(lab(&app).pinned, None);
    let mut app = stack(30);
    let (_, _, at) = point_in_view(&app);
    click(&mut app, at);
    assert!(lab(&app).pinned.is_some());
    click(&mut app, at);
    assert_eq!(lab(&app).pinned, None, "a second click unpins");
    // Shift reaches the hull under the point instead.
    let mut st = InputState::default();
    let f = PointerFrame { pos: at, left_pressed: true, left_down: true, shift: true, ..Default::default() };
    let actions = pointer_actions(&mut app, &mut st, &f, false);
    assert!(actions.iter().any(|a| matches!(a, Action::Lab(_))) && lab(&app).pinned.is_none());
}

#[test]
fn open_in_hull_lab_gives_the_worlds_contact_and_back_returns_to_the_3d_lab() {
    let mut app = stack(40);
    let (c, k, at) = point_in_view(&app);
    click(&mut app, at);
    let key = ContactKey3::of(&lab(&app).world, c, k).unwrap();
    let contact = pinned_contact(&app);
    // The poses that made the contact: those of the state kept before the last step.
    let before = lab(&app).history.last().unwrap().clone();
    let (step, hash) = (lab(&app).world.step_count, lab(&app).world.state_hash());
    app.apply(Action::OpenContact3InHullLab(key.pair));
    assert!(app.error.is_none(), "{:?}", app.error);
    let h = app.lab_as::<Hull3dLab>().expect("the hull lab is open");
    for (i, body) in [(0, key.pair.a), (1, key.pair.b)] {
        let (got, want) = (h.poses[i], before.bodies[body].pose);
        assert_eq!((got.p.to_array(), got.q.to_array()), (want.p.to_array(), want.q.to_array()), "hull {i}");
        assert_eq!(h.local[i], *before.bodies[body].hull_at(0));
    }
    // The world's narrowphase in the lab is the world's contact, bit for bit ...
    assert!(same_contact(h.narrow.as_ref().unwrap(), &contact), "{:?} vs {contact:?}", h.narrow);
    // ... and the lab's traced SAT (the world's SAT mode) finds the same depth on its winner.
    let found = h.view.result.as_ref().expect("the hulls overlap");
    assert!(
        (found.separation - contact.sat.separation).abs() < 1e-5,
        "{} vs {}",
        found.separation,
        contact.sat.separation
    );
    assert_eq!(h.mode, crate::app::lab::hull3d::SatMode::of(lab_sat(&before)));
    let rows = crate::app::lab::hull3d::panels::narrow_rows(h);
    assert!(rows.iter().any(|(n, v)| *n == "axis" && *v == contact.sat.kind.name()), "{rows:?}");
    // The hull lab's own Save keeps the quaternions and the world's narrowphase.
    let path = std::env::temp_dir().join(format!("i3d_hull_save_{}.ron", std::process::id()));
    app.apply(crate::app::lab::hull3d::act(crate::app::lab::hull3d::Hull3dAction::Save(path.clone())));
    let saved = HullsSpec::load(&path).unwrap();
    let h = app.lab_as::<Hull3dLab>().unwrap();
    assert_eq!((saved.a.pose(), saved.b.pose(), saved.world), (h.poses[0], h.poses[1], h.spec.world));
    std::fs::remove_file(&path).ok();
    // Back returns to the 3D lab as it was, its pin kept.
    app.apply(Action::CloseLab);
    let l = lab(&app);
    assert_eq!((l.world.step_count, l.world.state_hash()), (step, hash));
    assert_eq!(l.pinned.map(|p| p.key), Some(key));
}

fn lab_sat(w: &manifold_lab::engine::world3d::World3) -> manifold_lab::engine::world3d::SatChoice {
    w.params.sat
}

#[test]
fn a_saved_fixture_reads_back_to_the_same_poses_and_contact() {
    let mut app = stack(25);
    let (c, k, _) = point_in_view(&app);
    let key = ContactKey3::of(&lab(&app).world, c, k).unwrap();
    let contact = find_pair(&lab(&app).world, key.pair).unwrap().clone();
    let made = contact_hulls(lab(&app), key.pair).unwrap();
    assert!(made.exact);
    let dir = std::env::temp_dir().join(format!("i3d_fixture_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pair.ron");
    app.apply(act(World3dAction::SaveFixture { pair: key.pair, path: path.clone() }));
    assert!(app.error.is_none(), "{:?}", app.error);
    assert!(app.notice.as_deref().unwrap().contains("the world's contact"), "{:?}", app.notice);
    let back = HullsSpec::load(&path).unwrap();
    assert_eq!(back, made.spec);
    for (x, y) in [(&back.a, &made.spec.a), (&back.b, &made.spec.b)] {
        let (p, q) = (x.pose(), y.pose());
        assert_eq!((p.p.to_array(), p.q.to_array()), (q.p.to_array(), q.q.to_array()), "bit for bit");
    }
    // Opened from the file, the hull lab's narrowphase is the world's contact.
    app.apply(Action::OpenLab { kind: LabKind::HullSat, file: Some(path.clone()) });
    let h = app.lab_as::<Hull3dLab>().expect("the hull lab opens the file");
    assert!(same_contact(h.narrow.as_ref().unwrap(), &contact));
    // A file that cannot be written is an error naming it.
    let mut app = stack(25);
    let bad = dir.join("no such dir").join("pair.ron");
    app.apply(act(World3dAction::SaveFixture { pair: key.pair, path: bad.clone() }));
    let e = app.error.clone().expect("an error");
    assert!(e.starts_with("could not save the fixture") && e.contains(&bad.display().to_string()), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_hull_of_a_body_of_several_is_saved_with_its_place_in_the_body() {
    let mut app = lab_app(LabKind::World3d, "scenes/world3d/compound.ron");
    app.mode = RunMode::Paused;
    let mut found = None;
    for _ in 0..200 {
        app.apply(Action::Step);
        let w = &lab(&app).world;
        found = w.contacts.iter().find(|c| !w.bodies[c.a].parts.is_empty() || !w.bodies[c.b].parts.is_empty()).cloned();
        if found.is_some() {
            break;
        }
    }
    let c = found.expect("a contact of a body of several hulls");
    let pair = super::pin::PairRef3 { a: c.a, b: c.b, parts: c.parts };
    let made = contact_hulls(lab(&app), pair).unwrap();
    assert!(made.exact, "the world's contact from the saved shapes and places");
    let part = if lab(&app).world.bodies[c.a].parts.is_empty() { &made.spec.b } else { &made.spec.a };
    assert!(part.part.is_some());
    let back = HullsSpec::parse(&made.spec.to_ron_string().unwrap(), "pair.ron").unwrap();
    assert_eq!(back, made.spec);
    app.apply(Action::OpenContact3InHullLab(pair));
    let h = app.lab_as::<Hull3dLab>().expect("the hull lab is open");
    assert!(same_contact(h.narrow.as_ref().unwrap(), &c));
}
