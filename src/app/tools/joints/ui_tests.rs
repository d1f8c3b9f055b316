//! The Joint panel, the Sleep section and the body editor's sleep row, clicked through egui
//! (see `ui_tests` for the harness).

use crate::app::state::{Action, App};
use crate::app::tools::joints::JointParam;
use crate::app::ui_tests::{find_text, Harness};
use std::path::Path;

fn shipped(name: &str) -> App {
    App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap()
}

#[test]
fn the_joint_panel_edits_the_selected_joint_and_shows_its_reaction() {
    let mut app = shipped("chain.ron");
    app.apply(Action::Pause);
    app.apply(Action::Step);
    app.apply(Action::SelectJoint(Some(3)));
    let mut h = Harness::new();
    let (_, full) = h.frame(&app, Vec::new());
    for text in ["Joint #3 · Revolute", "link_2 (#", "reaction force", "error", "  max torque"] {
        assert!(find_text(&full.shapes, text).is_some(), "the panel shows {text:?}");
    }
    // The chain's joints carry friction as a motor at speed 0: unticking it turns it off.
    let off = h.click(&app, "motor");
    assert!(off.contains(&Action::SetJoint { joint: 3, param: JointParam::EnableMotor(false) }), "{off:?}");
    let collide = h.click(&app, "collide connected");
    assert!(collide.contains(&Action::SetJoint { joint: 3, param: JointParam::CollideConnected(true) }));
    let breaks = h.click(&app, "break force");
    assert!(breaks.iter().any(|a| matches!(a, Action::SetJoint { joint: 3, param: JointParam::BreakForce(Some(_)) })));
    assert!(h.click(&app, "link_3 (#").contains(&Action::Select(Some(app.world.joints()[3].bodies().1))));
    assert!(h.click(&app, "Clear selection").contains(&Action::SelectJoint(None)));
}

#[test]
fn the_sleep_section_and_the_wake_button_make_their_actions() {
    let mut app = shipped("sleep.ron");
    app.apply(Action::Pause);
    for _ in 0..90 {
        app.apply(Action::Step);
    }
    let mut h = Harness::new();
    let sleep = h.click(&app, "islands sleep");
    assert!(sleep.iter().any(|a| matches!(a, Action::SetParams(p) if !p.sleep)), "{sleep:?}");
    // The status bar counts awake bodies, islands and joints.
    let (_, full) = h.frame(&app, Vec::new());
    let awake = format!("{}/", app.world.awake_body_count());
    assert!(find_text(&full.shapes, &awake).is_some(), "status bar shows {awake:?}");
    assert!(find_text(&full.shapes, &format!("{} islands", app.world.island_count())).is_some());
    // A sleeping body's editor offers Wake.
    let pile = app.world.bodies.iter().position(|b| b.name.starts_with("pile1_")).unwrap();
    assert!(!app.world.bodies[pile].awake);
    app.apply(Action::Select(Some(pile)));
    let mut h = Harness::new();
    assert!(h.click(&app, "Wake").contains(&Action::WakeBody(pile)));
}
