//! Joints, islands and sleep at the app's layer: clicks select joints, `SetJoint` edits them
//! live (and wakes them), the Sleep settings, Wake and filter edits act on the world.

use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::state::{Action, App};
use crate::app::tools::joints::JointParam;
use glam::Vec2;
use manifold_lab::engine::BodyKind;
use manifold_lab::scene;
use std::path::Path;

fn shipped(name: &str) -> App {
    App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).expect("shipped scene loads")
}

/// A 2 m arm hinged at its left end to a static post, level; gravity pulls it down.
fn arm_app() -> App {
    let text = r#"Scene(
        version: 1,
        settings: (gravity: (0.0, -10.0), hz: 60.0, substeps: 4),
        bodies: [
            (name: "post", kind: Static, position: (0.0, 0.0), shape: Box(half_extents: (0.5, 0.5))),
            (name: "arm", position: (1.5, 0.0), shape: Box(half_extents: (1.0, 0.1))),
        ],
        joints: [Revolute(a: "post", b: "arm", anchor: (0.5, 0.0))],
    )"#;
    App::new(scene::parse(text, "arm.ron").expect("test scene parses"), None)
}

fn click(app: &mut App, world: Vec2) {
    let pos = app.camera.world_to_screen(&app.viewport, world);
    let mut st = InputState::default();
    for f in [
        PointerFrame { pos, left_pressed: true, left_down: true, ..Default::default() },
        PointerFrame { pos, left_released: true, ..Default::default() },
    ] {
        for a in pointer_actions(app, &mut st, &f, false) {
            app.apply(a);
        }
    }
}

fn set(app: &mut App, param: JointParam) {
    app.apply(Action::SetJoint { joint: 0, param });
}

#[test]
fn clicking_an_anchor_selects_its_joint_and_a_link_body_selects_the_body() {
    let mut app = shipped("chain.ron");
    app.apply(Action::Pause);
    let (pa, _) = app.world.joints()[5].base().world_anchors(&app.world.bodies);
    // A few pixels off the anchor still picks it.
    let px = app.camera.scale(&app.viewport);
    click(&mut app, pa + Vec2::new(3.0 * px, -2.0 * px));
    assert_eq!(app.selected_joint(), Some(5));
    assert!(app.selection.is_empty(), "a joint click selects no body");
    let (a, b) = app.world.joints()[5].bodies();
    let report = crate::app::report::state_json(&app, &crate::app::panels::UiState::default(), 0, &Default::default());
    assert_eq!(report["selected_joint"]["index"], 5);
    assert_eq!(report["selected_joint"]["kind"], "Revolute");
    assert_eq!(report["selected_joint"]["body_a"], app.world.bodies[a].name.as_str());
    assert_eq!(report["selected_joint"]["body_b"], app.world.bodies[b].name.as_str());

    // The middle of a link, away from both its anchors, is the body.
    let link = app.world.bodies.iter().position(|b| b.name == "link_10").expect("a link named link_10");
    let middle = app.world.bodies[link].center;
    click(&mut app, middle);
    assert_eq!(app.selection, vec![link]);
    assert_eq!(app.selected_joint(), None, "selecting a body ends the joint selection");
}

#[test]
fn a_motor_edited_live_holds_the_arm_then_drives_it_and_the_reaction_shows() {
    let mut app = arm_app();
    app.apply(Action::Pause);
    app.apply(Action::SelectJoint(Some(0)));
    set(&mut app, JointParam::EnableMotor(true));
    set(&mut app, JointParam::MaxMotor(1000.0));
    set(&mut app, JointParam::MotorSpeed(0.0));
    assert_eq!(app.error, None);
    for _ in 0..60 {
        app.apply(Action::Step);
    }
    let arm = &app.world.bodies[1];
    assert!(arm.angle.abs() < 0.02, "a motor at speed 0 holds the arm level, angle {}", arm.angle);
    // The hinge carries the arm's weight (m g = 0.4 kg · 10) and the motor its moment about
    // the hinge (m g · 1 m).
    let weight = arm.mass * 10.0;
    let r = app.world.joint_reaction(0).expect("joint 0 exists");
    assert!((r.force.y - weight).abs() < 0.05 * weight, "reaction {:?}, weight {weight}", r.force);
    assert!((r.torque.abs() - weight).abs() < 0.05 * weight, "reaction torque {}, expected {weight}", r.torque);
    let (err, _) = app.world.joint_error(0).unwrap();
    assert!(err < 0.01, "hinge error {err} m");

    set(&mut app, JointParam::MotorSpeed(2.0));
    for _ in 0..30 {
        app.apply(Action::Step);
    }
    let w = app.world.bodies[1].angular_velocity;
    assert!((w - 2.0).abs() < 0.05, "the motor turns the arm at 2 rad/s, got {w}");
}

#[test]
fn editing_a_sleeping_joint_wakes_its_bodies() {
    let mut app = arm_app();
    app.apply(Action::Pause);
    set(&mut app, JointParam::EnableMotor(true));
    set(&mut app, JointParam::MaxMotor(1000.0));
    for _ in 0..120 {
        app.apply(Action::Step);
    }
    assert!(!app.world.bodies[1].awake, "the held arm fell asleep");
    assert_eq!(app.world.awake_body_count(), 0);
    set(&mut app, JointParam::MotorSpeed(-1.0));
    assert!(app.world.bodies[1].awake, "changing the motor woke the arm");
    app.apply(Action::Step);
    assert!(app.world.bodies[1].angular_velocity < -0.5);
}

#[test]
fn bad_joint_edits_are_refused_with_a_message() {
    let mut app = arm_app();
    let before = app.world.joints()[0].clone();
    set(&mut app, JointParam::Limits { lower: 0.5, upper: -0.5 });
    assert!(app.error.as_deref().is_some_and(|e| e.contains("lower")), "{:?}", app.error);
    set(&mut app, JointParam::Length(2.0));
    assert!(app.error.as_deref().is_some_and(|e| e.contains("revolute joint has no length")), "{:?}", app.error);
    app.apply(Action::SetJoint { joint: 7, param: JointParam::MotorSpeed(1.0) });
    assert!(app.error.as_deref().is_some_and(|e| e.contains("no joint #7")));
    app.apply(Action::SelectJoint(Some(3)));
    assert_eq!(app.selected_joint(), None);
    assert_eq!(app.world.joints()[0], before);
}

#[test]
fn the_selection_follows_its_joint_when_an_earlier_one_breaks() {
    let text = r#"Scene(
        version: 1,
        bodies: [
            (name: "ceiling", kind: Static, position: (0.0, 5.0), shape: Box(half_extents: (4.0, 0.2))),
            (name: "left", position: (-2.0, 3.0), shape: Box(half_extents: (0.3, 0.3))),
            (name: "right", position: (2.0, 3.0), shape: Box(half_extents: (0.3, 0.3))),
        ],
        joints: [
            Distance(a: "ceiling", b: "left", anchor_a: (-2.0, 4.8), anchor_b: (-2.0, 3.3), break_force: 0.5),
            Distance(a: "ceiling", b: "right", anchor_a: (2.0, 4.8), anchor_b: (2.0, 3.3)),
        ],
    )"#;
    let mut app = App::new(scene::parse(text, "break.ron").unwrap(), None);
    app.apply(Action::SelectJoint(Some(1)));
    app.apply(Action::Step);
    assert_eq!(app.world.joints().len(), 1, "the weak joint broke");
    assert_eq!(app.world.broken_joints, 1);
    assert_eq!(app.selected_joint(), Some(0), "the selection moved with the right joint");
    assert_eq!(app.world.joints()[0].bodies(), (0, 2));
    // Breaking the selected one ends the selection.
    app.apply(Action::SetJoint { joint: 0, param: JointParam::BreakForce(Some(0.5)) });
    app.apply(Action::Step);
    assert_eq!(app.selected_joint(), None);
}

#[test]
fn sleep_settings_wake_everything_and_wake_and_filter_act_on_one_body() {
    let mut app = shipped("sleep.ron");
    app.apply(Action::Pause);
    // Two seconds: the piles sleep, the ball still rolls.
    for _ in 0..120 {
        app.apply(Action::Step);
    }
    let w = &app.world;
    let pile = w.bodies.iter().position(|b| b.name.starts_with("pile2_")).expect("pile2 exists");
    assert!(!w.bodies[pile].awake, "pile 2 sleeps after two seconds");
    let dynamic = w.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic).count();
    assert!(w.awake_body_count() < dynamic);

    // Wake one body: its island (its pile) wakes, the other piles sleep on.
    app.apply(Action::WakeBody(pile));
    let island = app.world.island_of(pile).expect("in an island");
    let members = app.world.islands().bodies(island).to_vec();
    assert!(members.len() >= 5 && members.iter().all(|&m| app.world.bodies[m as usize].awake));
    assert!(app.world.awake_body_count() < dynamic);

    // A changed sleep setting wakes every body at once.
    let mut p = app.world.params.clone();
    p.time_to_sleep = 1.0;
    app.apply(Action::SetParams(p));
    assert_eq!(app.world.awake_body_count(), dynamic);

    // Switching sleep off keeps them awake.
    let mut p = app.world.params.clone();
    p.sleep = false;
    app.apply(Action::SetParams(p));
    for _ in 0..120 {
        app.apply(Action::Step);
    }
    assert_eq!(app.world.awake_body_count(), dynamic);

    // A mask that excludes the ground lets the bottom box of pile 2 fall through it.
    let bottom = (0..app.world.bodies.len())
        .filter(|&i| app.world.bodies[i].name.starts_with("pile2_"))
        .min_by(|&a, &b| app.world.bodies[a].center.y.total_cmp(&app.world.bodies[b].center.y))
        .unwrap();
    let ground_category = app.world.bodies[0].category_bits;
    app.apply(Action::SetFilter { body: bottom, category_bits: 2, mask_bits: !ground_category });
    for _ in 0..30 {
        app.apply(Action::Step);
    }
    assert!(
        app.world.bodies[bottom].center.y < -0.5,
        "the box fell through: y = {}",
        app.world.bodies[bottom].center.y
    );
}

#[test]
fn the_view_follows_the_selected_car() {
    let mut app = shipped("car.ron");
    app.apply(Action::Pause);
    app.apply(Action::SelectNamed("chassis".into()));
    app.apply(Action::Follow(true));
    for _ in 0..120 {
        app.apply(Action::Step);
    }
    let chassis = app.world.bodies[app.selection[0]].center;
    assert!(chassis.x > 3.0, "the car drove right: {chassis:?}");
    assert_eq!(app.camera.center, chassis, "the view is centred on it");
    app.apply(Action::Follow(false));
    app.apply(Action::Step);
    assert_eq!(app.camera.center, chassis, "no longer following");
}

#[test]
fn scripts_spell_joint_sleep_and_filter_actions_as_the_readme_does() {
    use crate::app::script::ScriptStep;
    let text = "[
        Do(SelectJoint(Some(5))),
        Do(SetJoint(joint: 5, param: Limits(lower: -0.5, upper: 0.5))),
        Do(SetJoint(joint: 5, param: Spring(hertz: 4.0, damping_ratio: 0.7))),
        Do(SetJoint(joint: 5, param: BreakForce(Some(500.0)))),
        Do(SetJoint(joint: 5, param: MaxTorque(None))),
        Do(WakeBody(3)),
        Do(SetFilter(body: 3, category_bits: 2, mask_bits: 0xFFFFFFFD)),
        Do(Follow(true)),
    ]";
    let steps: Vec<ScriptStep> = ron::from_str(text).expect("the script parses");
    assert_eq!(
        steps[1],
        ScriptStep::Do(Action::SetJoint { joint: 5, param: JointParam::Limits { lower: -0.5, upper: 0.5 } })
    );
    assert_eq!(steps[6], ScriptStep::Do(Action::SetFilter { body: 3, category_bits: 2, mask_bits: !2 }));
    assert_eq!(steps.len(), 8);
}

#[test]
fn joint_filter_and_wake_edits_are_recorded_and_replay() {
    use crate::app::timeline::record::Recording;
    let mut a = arm_app();
    for _ in 0..10 {
        a.apply(Action::Step);
    }
    a.apply(Action::SetJoint { joint: 0, param: JointParam::EnableMotor(true) });
    a.apply(Action::SetJoint { joint: 0, param: JointParam::MotorSpeed(3.0) });
    a.apply(Action::SetJoint { joint: 0, param: JointParam::MaxMotor(500.0) });
    a.apply(Action::SetFilter { body: 1, category_bits: 2, mask_bits: 0xFFFF_FFFD });
    a.apply(Action::WakeBody(1));
    for _ in 0..20 {
        a.apply(Action::Step);
    }
    let rec = a.recording().unwrap();
    assert_eq!(rec.header.actions.len(), 5, "{:?}", rec.header.actions);
    let back = Recording::parse(&rec.to_text().unwrap(), "arm.mlrec").unwrap();
    let replayed = back.replay(None);
    assert_eq!(replayed.world.state_hash(), a.world.state_hash());
    // Without the edits the run differs, so the replay did carry them out.
    let mut plain = arm_app();
    for _ in 0..30 {
        plain.apply(Action::Step);
    }
    assert_ne!(plain.world.state_hash(), a.world.state_hash());
}
