//! The run buttons and the timeline bar under real clicks (`xdotool click`, press and release at
//! once): Pause, Step and Play do what they say; a click on
//! the track shows the step there, and at a past step the Back button is live and steps back,
//! as B does. Widget positions come from `--state-out` (`widgets`, in pixels).

mod support;

use serde_json::Value;
use support::live_app::{f, lock, xdotool, LiveApp, View};

/// A widget's rectangle `[x, y, w, h]` in pixels, from the state.
fn widget(s: &Value, name: &str) -> [f32; 4] {
    let r = &s["widgets"][name];
    assert!(r.is_array(), "no widget {name} in the state: {}", s["widgets"]);
    [0, 1, 2, 3].map(|i| f(&r[i]))
}

fn step(s: &Value) -> u64 {
    s["step"].as_u64().unwrap()
}

fn click(app: &LiveApp, at: [f32; 2]) -> Value {
    app.move_to(at);
    app.settle(2);
    xdotool(&["click", "1"]);
    app.settle(3)
}

#[test]
fn real_clicks_on_the_track_seek_and_back_steps_back_at_a_past_step() {
    let _one = lock();
    let app = LiveApp::start("timeline_clicks", &["tests/input/pointer.ron"]);
    app.move_to(View::of(&app.state()).vp_center());
    app.key("space");
    let paused_at = step(&app.settle(1));
    for _ in 0..20 {
        xdotool(&["key", "period"]);
    }
    let s = app.settle(3);
    let newest = paused_at + 20;
    assert_eq!((step(&s), s["running"].as_bool()), (newest, Some(false)), "twenty steps on, paused");
    assert_eq!(s["timeline"]["first"], 0);
    // The step under a point of the track: its ends hold the first and last steps, a handle's
    // radius in (the tolerance covers the rounding of pixels).
    let [x, y, w, h] = widget(&s, "timeline_track");
    let at = |frac: f32| [x + 7.0 + frac * (w - 14.0), y + 0.5 * h];
    for frac in [0.25, 0.5, 0.0, 0.9] {
        let want = (frac * newest as f32).round() as i64;
        let s = click(&app, at(frac));
        let got = step(&s) as i64;
        assert!((got - want).abs() <= 1, "a click at {frac} of the track shows step {got}, not about {want}");
        assert_eq!(s["timeline"]["newest"].as_u64(), Some(newest), "seeking keeps the future");
    }
    // At a past step the kept states are gone, but a step back can still be taken: the Back
    // button says so and does it, once per click.
    let s = click(&app, at(0.5));
    let past = step(&s);
    assert!(past > 0 && past < newest);
    assert_eq!(s["timeline"]["can_step_back"], true);
    let [bx, by, bw, bh] = widget(&s, "back");
    let back = [bx + 0.5 * bw, by + 0.5 * bh];
    let s = click(&app, back);
    assert_eq!(step(&s), past - 1, "Back at a past step");
    let s = click(&app, back);
    assert_eq!(step(&s), past - 2, "and again");
    // B agrees.
    app.key("b");
    assert_eq!(step(&app.settle(2)), past - 3);
    // At the first step nothing is left: the button is greyed and a click does nothing.
    app.key("Home");
    let s = click(&app, back);
    assert_eq!((step(&s), &s["timeline"]["can_step_back"]), (0, &Value::Bool(false)));
}

#[test]
fn real_clicks_on_the_play_and_step_buttons_pause_and_step() {
    let _one = lock();
    let app = LiveApp::start("button_clicks", &["tests/input/pointer.ron"]);
    let s = app.settle(2);
    assert_eq!(s["running"].as_bool(), Some(true), "scenes open running");
    let centre = |r: [f32; 4]| [r[0] + 0.5 * r[2], r[1] + 0.5 * r[3]];
    // The Play/Pause button pauses: the step counter stops.
    let s = click(&app, centre(widget(&s, "play")));
    assert_eq!(s["running"].as_bool(), Some(false), "Pause clicked");
    let paused_at = step(&s);
    assert_eq!(step(&app.settle(5)), paused_at, "paused: no steps");
    // Each click on Step takes exactly one step.
    let at = centre(widget(&s, "step"));
    for k in 1..=3 {
        let s = click(&app, at);
        assert_eq!(step(&s), paused_at + k, "click {k} on Step");
        assert_eq!(s["running"].as_bool(), Some(false));
    }
    // And Play runs again.
    let s = click(&app, centre(widget(&s, "play")));
    assert_eq!(s["running"].as_bool(), Some(true));
    assert!(step(&app.settle(5)) > paused_at + 3, "running again");
}

#[path = "e2e_timeline_parts/compare.rs"]
mod compare;
#[path = "e2e_timeline_parts/world3d.rs"]
mod world3d;
