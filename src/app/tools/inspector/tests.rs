//! The contact inspector through the app's actions and pointer code: the pure lookup, hover
//! and click on a contact point, and the Manifold lab opened on a contact reproducing the
//! world's manifold (points within 1e-5, same normal), then saved as a pair file.

use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::lab::manifold::{manifold_of, ManifoldLab};
use crate::app::lab::pair::PairAction;
use crate::app::lab::LabAction;
use crate::app::state::{Action, App};
use crate::app::tools::inspector::{contact_at, contact_pair, find_contact, same_manifold, ContactRef};
use crate::app::tools::inspector::{ContactInspector, InspectorAction};
use glam::Vec2;
use manifold_lab::engine::body::{BodyDef, BodyKind};
use manifold_lab::engine::collide::collide;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::solver::recycle::RECYCLE_DISTANCE;
use manifold_lab::engine::World;
use manifold_lab::scene;
use manifold_lab::scene::PresetFile;
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// A box resting on a floor: two contact points at x = ±0.5 on y = 0 (roughly).
fn box_on_floor() -> World {
    let mut w = World::new(Default::default());
    w.create_body(&BodyDef::new(BodyKind::Static, Shape::make_box(Vec2::new(5.0, 0.5)).unwrap(), Vec2::new(0.0, -0.5)));
    w.create_body(&BodyDef::new(
        BodyKind::Dynamic,
        Shape::make_box(Vec2::new(0.5, 0.5)).unwrap(),
        Vec2::new(0.0, 0.49),
    ));
    w.refresh_contacts();
    w
}

#[test]
fn the_lookup_finds_the_nearest_point_within_the_radius() {
    let w = box_on_floor();
    assert_eq!(w.contacts.len(), 1);
    let pts: Vec<Vec2> = w.contacts[0].points().iter().map(|p| p.point).collect();
    assert_eq!(pts.len(), 2);
    for (k, p) in pts.iter().enumerate() {
        let r = contact_at(&w.contacts, *p + Vec2::new(0.03, 0.02), 0.05);
        assert_eq!(r, Some(ContactRef { a: 0, b: 1, point: k, shape_pair: 0 }));
    }
    // Out of reach, and between the two points: nothing.
    assert_eq!(contact_at(&w.contacts, pts[0] + Vec2::new(0.06, 0.0), 0.05), None);
    assert_eq!(contact_at(&w.contacts, 0.5 * (pts[0] + pts[1]), 0.05), None);
    // Within reach of both: the nearer one.
    let near_second = pts[1] + 0.3 * (pts[0] - pts[1]);
    assert_eq!(contact_at(&w.contacts, near_second, 10.0).map(|r| r.point), Some(1));
    assert_eq!(contact_at(&w.contacts, Vec2::NAN, 10.0), None);
    assert_eq!(contact_at(&[], Vec2::ZERO, 10.0), None);
}

/// For every awake contact of a few steps of `scene`, the Manifold lab opened on it finds the
/// world's manifold again, or, for a recycled contact, the manifold recorded at the poses it
/// was computed at (and says so), of which the world's keeps the normal, points' features and
/// count, with separations moved by less than the recycling distance. Returns the contacts
/// checked and how many of them were recycled.
fn every_contact_reopens_exactly(scene: &str, steps: usize, recycle: bool) -> (usize, usize) {
    let mut app = App::from_path(&manifest(scene)).expect("the scene loads");
    let mut p = app.world.params.clone();
    p.recycle_contacts = recycle;
    app.world.set_params(p);
    for _ in 0..steps {
        app.apply(Action::Step);
    }
    let world = app.world.clone();
    let (mut checked, mut recycled) = (0, 0);
    for c in world.contacts.iter().filter(|c| c.awake) {
        app.apply(Action::CloseLab);
        app.world = world.clone();
        app.apply(Action::OpenContactInLab { a: c.a, b: c.b, shape_pair: c.shape_pair });
        assert!(app.error.is_none(), "{scene}: {:?}", app.error);
        assert!(app.lab_as::<ManifoldLab>().is_some(), "the Manifold lab is open");
        let notice = app.notice.clone().unwrap_or_default();
        let m = manifold_of(&app.world, 0, 1, Default::default()).expect("the lab holds two bodies");
        let what = format!("{scene} contact {}-{}: lab {m:?} world {:?}", c.a, c.b, c.manifold);
        if c.recycled > 0 {
            let origin = c.origin.expect("a recycled contact has its record");
            assert!(notice.contains(&format!("recycled from step {} poses", origin.step)), "{notice}");
            assert!(origin.step < world.step_count, "recorded at an earlier step");
            assert!(same_manifold(&m, &origin.manifold, 1e-5), "{what}");
            // The world kept the recorded normal exactly; the lab's poses are rebuilt from angles.
            assert_eq!(c.manifold.normal, origin.manifold.normal, "{what}");
            assert!(m.normal.distance(c.manifold.normal) <= 1e-5, "{what}");
            for (p, q) in m.points().iter().zip(c.manifold.points()) {
                assert_eq!(p.id, q.id, "{what}");
                assert!((p.penetration - q.penetration).abs() < RECYCLE_DISTANCE, "{what}");
            }
            recycled += 1;
        } else {
            assert!(notice.contains("is the world's"), "{notice}");
            assert!(same_manifold(&m, &c.manifold, 1e-5), "{what}");
        }
        assert_eq!(m.count, c.manifold.count);
        checked += 1;
    }
    (checked, recycled)
}

#[test]
fn the_lab_opened_on_a_contact_reproduces_the_worlds_manifold() {
    // Boxes (face and vertex contacts, speculative points), and circles and capsules, with
    // recycling (most contacts of a settling pyramid are recycled) and without.
    let (n, recycled) = every_contact_reopens_exactly("scenes/pyramid.ron", 40, true);
    assert!(n >= 20 && recycled >= n / 2, "{recycled} of {n} recycled");
    assert!(every_contact_reopens_exactly("scenes/pyramid.ron", 40, false) >= (20, 0));
    assert!(every_contact_reopens_exactly("scenes/mixed_shapes.ron", 60, true).0 >= 5);
    assert!(every_contact_reopens_exactly("scenes/mixed_shapes.ron", 60, false).0 >= 5);
    // Bodies of several shapes (every dynamic body there has several): each shape pair's
    // contact opens as its two shapes, placed where their bodies put them.
    assert!(every_contact_reopens_exactly("scenes/compound.ron", 30, true).0 >= 2);
    assert!(every_contact_reopens_exactly("scenes/compound.ron", 30, false).0 >= 2);
    // Contacts found without a step (a scene just loaded) use the current poses.
    assert_eq!(every_contact_reopens_exactly("scenes/pyramid.ron", 0, true).1, 0);
    assert!(every_contact_reopens_exactly("scenes/pyramid.ron", 0, true).0 >= 20);
}

#[test]
fn a_contact_opened_in_the_lab_saves_as_a_pair_fixture() {
    let mut app = App::from_path(&manifest("scenes/pyramid.ron")).unwrap();
    for _ in 0..25 {
        app.apply(Action::Step);
    }
    let c = *app.world.contacts.iter().find(|c| c.awake && c.manifold.count == 2).expect("a two-point contact");
    app.apply(Action::OpenContactInLab { a: c.a, b: c.b, shape_pair: c.shape_pair });
    let dir = std::env::temp_dir().join(format!("ml-contact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("from_world.ron");
    app.apply(Action::Lab(LabAction::Manifold(crate::app::lab::manifold::ManifoldAction::Pair(PairAction::Save(
        path.clone(),
    )))));
    assert!(app.error.is_none(), "{:?}", app.error);
    let spec = scene::PairSpec::load(&path).expect("the saved pair loads");
    // The margin the contact was found with: the world's, plus the pair's reach while moving.
    assert_eq!(spec.margin, c.margin);
    assert!(spec.margin >= manifold_lab::engine::solver::SolverParams::default().speculative_margin);
    // The fixture alone gives the world's manifold.
    let w = spec.build_world();
    let (a, b) = (&w.bodies[0], &w.bodies[1]);
    let m = collide(&a.shape, &a.xf, &b.shape, &b.xf, spec.margin);
    // (For a recycled contact, the manifold computed at the poses it was recycled from.)
    let want = c.origin.filter(|_| c.recycled > 0).map_or(c.manifold, |o| o.manifold);
    assert!(same_manifold(&m, &want, 1e-5), "{m:?} vs {want:?}");
    // Restart in the lab returns to the contact's poses.
    app.apply(Action::SetPose { body: 1, position: Vec2::new(50.0, 50.0), angle: 1.0 });
    app.apply(Action::Restart);
    assert!(same_manifold(&manifold_of(&app.world, 0, 1, Default::default()).unwrap(), &want, 1e-5));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_contact_requests_are_errors_not_panics() {
    let mut app = App::from_path(&manifest("scenes/pyramid.ron")).unwrap();
    app.apply(Action::OpenContactInLab { a: 0, b: 9999, shape_pair: 0 });
    assert!(app.error.take().is_some_and(|e| e.contains("no contact")));
    assert!(app.lab.is_none());
    app.apply(Action::from(InspectorAction::Pin(Some(ContactRef { a: 0, b: 1, point: 7, shape_pair: 0 }))));
    assert!(app.error.take().is_some());
    assert_eq!(app.tool::<ContactInspector>().pinned, None);
    assert!(contact_pair(&app.world, 5000, 5001, 0).is_err());
}

#[test]
fn hovering_and_clicking_a_contact_point_pins_it_and_does_not_select() {
    let mut app = App::from_path(&manifest("scenes/pyramid.ron")).unwrap();
    app.apply(Action::Pause);
    for _ in 0..10 {
        app.apply(Action::Step);
    }
    let c = *app.world.contacts.iter().find(|c| c.manifold.count == 2).unwrap();
    let p = c.points()[1].point;
    // Close enough that contact dots are many pixels apart.
    app.apply(Action::SetCamera { center: p + Vec2::new(0.3, 0.2), height: 4.0 });
    let screen = app.camera.world_to_screen(&app.viewport, p) + Vec2::new(2.0, -2.0);
    let mut st = InputState::default();
    let hover = PointerFrame { pos: screen, ..Default::default() };
    let acts = pointer_actions(&mut app, &mut st, &hover, false);
    assert!(acts.is_empty());
    let r = ContactRef { a: c.a, b: c.b, point: 1, shape_pair: c.shape_pair };
    assert_eq!(app.tool::<ContactInspector>().hover, Some(r));
    let click = PointerFrame { pos: screen, left_pressed: true, left_down: true, ..Default::default() };
    let acts = pointer_actions(&mut app, &mut st, &click, false);
    assert_eq!(acts, vec![Action::from(InspectorAction::Pin(Some(r)))]);
    for a in acts {
        app.apply(a);
    }
    assert_eq!(app.tool::<ContactInspector>().pinned, Some(r));
    assert!(app.selection.is_empty(), "a click on a contact point selects nothing");
    // Without the Contacts layer, the same click selects the body under it.
    app.apply(Action::SetLayer(manifold_lab::engine::debug::Layer::Contact, false));
    let mut st = InputState::default();
    let acts = pointer_actions(&mut app, &mut st, &click, false);
    assert!(
        !acts
            .iter()
            .any(|a| matches!(a, Action::Tool(crate::app::tools::ToolAction::Inspector(InspectorAction::Pin(_))))),
        "{acts:?}"
    );
    assert_eq!(app.tool::<ContactInspector>().hover, None);
    // The pinned contact is found by pair after more steps.
    app.apply(Action::Step);
    assert!(find_contact(&app.world, r.a, r.b).is_some());
}

/// A contact of a body of several shapes names its two shapes, and its features are decoded
/// for those shapes (a table leg's box on the ground's box: two points, each a vertex).
#[test]
fn a_compound_contact_names_its_shapes() {
    use crate::app::tools::inspector::contact_info;
    let mut app = App::from_path(&manifest("scenes/compound.ron")).expect("the scene loads");
    for _ in 0..60 {
        app.apply(Action::Step);
    }
    let table = app.world.bodies.iter().position(|b| b.name == "table").unwrap();
    let legs: Vec<_> = app.world.contacts.iter().filter(|c| c.b == table).collect();
    assert_eq!(legs.len(), 2, "one contact per leg");
    for c in legs {
        let r = ContactRef { a: c.a, b: c.b, point: 0, shape_pair: c.shape_pair };
        let info = contact_info(&app.world, r).expect("the contact is there");
        assert_eq!(info.shapes, Some(format!("shape 0 – shape {}", c.sb())));
        assert!(c.sb() == 1 || c.sb() == 2, "a leg, not the top");
    }
    let ground = app.world.contacts.iter().find(|c| c.a == 0 && c.b != table).unwrap();
    let single = app.world.bodies[ground.b].parts.is_empty();
    let r = ContactRef { a: ground.a, b: ground.b, point: 0, shape_pair: ground.shape_pair };
    assert_eq!(contact_info(&app.world, r).unwrap().shapes.is_none(), single);
}
