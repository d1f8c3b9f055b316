//! Buttons and keys agree: every keyed button shows its keys from the one table
//! (`keys::BINDINGS`); Back, B and the timeline's buttons share one answer to "can a step back
//! be taken"; a click on the timeline's track shows the step there.

use crate::app::input::keys::{hint, BINDINGS};
use crate::app::state::{Action, App};
use crate::app::timeline::TimelineAction as T;
use crate::app::tools::inspector::{ContactRef, InspectorAction};
use crate::app::tools::ToolAction;
use crate::app::ui_tests::Harness;
use egui_macroquad::egui::Pos2;
use std::path::Path;

fn stack_app() -> App {
    App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vertical_stack.ron")).unwrap()
}

/// The stack run `n` steps, paused.
fn stepped(n: u64) -> App {
    let mut app = stack_app();
    for _ in 0..n {
        app.apply(Action::Step);
    }
    app
}

#[test]
fn every_keyed_button_shows_its_keys() {
    // Mid-timeline and running: every button is enabled and Pause shows.
    let mut app = stepped(6);
    app.apply(Action::Timeline(T::Seek(3)));
    app.apply(Action::Play);
    let buttons = [
        "⏸ Pause",
        "Step",
        "Back",
        "Restart",
        "Frame all (F)",
        "Open…",
        "Save as…",
        "Save",
        "✂ Slice",
        "🔍 Ray",
        "📏 Ruler",
        "⏮",
        "◀",
        "▶",
        "⏭",
    ];
    let mut h = Harness::new();
    let (mut clicked, mut tooltips) = (Vec::new(), Vec::new());
    for text in buttons {
        let actions = h.click_exact(&app, text);
        let action = actions.first().unwrap_or_else(|| panic!("{text} made no action")).clone();
        let keys = hint(&action).unwrap_or_else(|| panic!("{text} makes {action:?}, which has no key"));
        let shown = h.hover(&app, text);
        let tip = shown.iter().find(|t| t.contains(&format!("({keys})")));
        assert!(tip.is_some(), "{text} ({action:?}) does not show {keys}: {shown:?}");
        tooltips.extend(shown);
        clicked.push(action);
    }
    // A pinned contact's card has Unpin (Esc).
    let mut pinned = stepped(30);
    let c = pinned.world.contacts[0];
    let r = ContactRef { a: c.a, b: c.b, point: 0, shape_pair: c.shape_pair };
    pinned.apply(Action::Tool(ToolAction::Inspector(InspectorAction::Pin(Some(r)))));
    assert!(pinned.error.is_none(), "{:?}", pinned.error);
    clicked.extend(h.click_exact(&pinned, "Unpin"));
    tooltips.extend(h.hover(&pinned, "Unpin"));
    // Every key is on a button: its action is one's click, or its keys are in one's tooltip
    // (Shift+Left on ◀).
    for b in BINDINGS {
        let on_a_tip = tooltips.iter().any(|t| t.contains(&format!("({})", b.label)));
        assert!(clicked.contains(&b.action) || on_a_tip, "{} ({:?}) is on no button", b.label, b.action);
    }
}

/// Whether `StepBack` changes what is shown (the step or the state).
fn steps_back(app: &mut App) -> bool {
    let before = (app.world.step_count, app.world.state_hash());
    app.apply(Action::StepBack);
    (app.world.step_count, app.world.state_hash()) != before
}

#[test]
fn back_is_enabled_exactly_when_b_steps_back() {
    let mut h = Harness::new();
    let back_clicks = |h: &mut Harness, app: &App| {
        let back = h.widget(app, "back");
        h.click_at(app, back.center()).contains(&Action::StepBack)
    };
    let mut app = stack_app();
    // Each state: what the Back button offers is what B does.
    let mut check = |app: &mut App, want: bool, what: &str| {
        assert_eq!(app.can_step_back(), want, "{what}");
        assert_eq!(back_clicks(&mut h, app), want, "the Back button {what}");
        assert_eq!(steps_back(app), want, "B {what}");
    };
    check(&mut app, false, "at the first step");
    for _ in 0..4 {
        app.apply(Action::Step);
    }
    check(&mut app, true, "after four steps (kept states)");
    // Scrubbed to a past step, the kept states are gone but the timeline reaches back.
    app.apply(Action::Timeline(T::Seek(2)));
    assert_eq!(app.history.len(), 0);
    check(&mut app, true, "at a past step");
    assert_eq!(app.world.step_count, 1);
    app.apply(Action::Timeline(T::SeekStart));
    check(&mut app, false, "back at the first step");
}

#[test]
fn a_click_on_the_timeline_track_seeks_there() {
    let app = stepped(40);
    let mut h = Harness::new();
    let track = h.widget(&app, "timeline_track");
    // The first and last steps sit a handle's radius in from the ends.
    let at = |f: f32| Pos2::new(track.min.x + 7.0 + f * (track.width() - 14.0), track.center().y);
    assert_eq!(h.click_at(&app, at(0.25)), vec![Action::Timeline(T::Seek(10))]);
    assert_eq!(h.click_at(&app, at(0.0)), vec![Action::Timeline(T::Seek(0))]);
    assert_eq!(h.click_at(&app, at(0.6)), vec![Action::Timeline(T::Seek(24))]);
    // On the cursor's own step a click asks nothing; dragging the handle still scrubs.
    assert!(h.click_at(&app, at(1.0)).is_empty());
    let drag = h.drag(&app, at(1.0), at(0.5));
    assert_eq!(drag.last(), Some(&Action::Timeline(T::Seek(20))), "{drag:?}");
    // With one step only there is nothing to seek.
    let fresh = stack_app();
    let track = h.widget(&fresh, "timeline_track");
    assert!(h.click_at(&fresh, track.center()).is_empty());
}
