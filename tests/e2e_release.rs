//! Real releases, end to end: a drag ends where the button came up, even when the pointer
//! moves on before the next frame is drawn (`xdotool mouseup` and `mousemove` sent together),
//! and at a low frame rate (`--frame-delay`), where a whole drag can fall inside one frame.
//! In a 2D scene (a paused drag places the body), in the 3D hull lab and in the 3D dynamics
//! lab. Positions are read back from `--state-out`.

mod support;

use serde_json::Value;
use support::live_app::{body, f, lock, pair, xdotool, LiveApp, View};

/// The low frame rate tried: a pause of this many milliseconds after every frame.
const SLOW_FRAME_MS: &str = "200";

fn start(name: &str, args: &[&str], slow: bool) -> LiveApp {
    let mut all: Vec<&str> = args.to_vec();
    if slow {
        all.extend(["--frame-delay", SLOW_FRAME_MS]);
    }
    LiveApp::start(&format!("release_{name}_{}", if slow { "slow" } else { "fast" }), &all)
}

fn px(p: [f32; 2]) -> [String; 2] {
    p.map(|x| format!("{}", x.round() as i64))
}

/// Moves in eight steps, a frame apart at least, with the button held.
fn held_moves(app: &LiveApp, from: [f32; 2], to: [f32; 2]) {
    for k in 1..=8 {
        let t = k as f32 / 8.0;
        app.move_to([from[0] + t * (to[0] - from[0]), from[1] + t * (to[1] - from[1])]);
        app.settle(1);
    }
    app.settle(2);
}

/// Releases at the current position and moves to `away` at once, in one `xdotool` call.
fn release_and_move(app: &LiveApp, away: [f32; 2]) {
    let [x, y] = px(away);
    xdotool(&["mouseup", "1", "mousemove", "--window", &app.window, &x, &y]);
}

/// A whole drag from `from` to `to`, released there, then a move to `away`: one `xdotool`
/// call, so at a low frame rate it all falls inside one or two frames.
fn burst_drag(app: &LiveApp, from: [f32; 2], to: [f32; 2], away: [f32; 2]) {
    let w = app.window.clone();
    let ([fx, fy], [tx, ty], [ax, ay]) = (px(from), px(to), px(away));
    xdotool(&[
        "mousemove",
        "--window",
        &w,
        &fx,
        &fy,
        "mousedown",
        "1",
        "mousemove",
        "--window",
        &w,
        &tx,
        &ty,
        "mouseup",
        "1",
        "mousemove",
        "--window",
        &w,
        &ax,
        &ay,
    ]);
}

fn distance(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f32>().sqrt()
}

/// The highest body of a 2D scene's state.
fn top_body(s: &Value) -> String {
    let bodies = s["bodies"].as_array().unwrap();
    let top = bodies.iter().max_by(|a, b| f(&a["center"][1]).total_cmp(&f(&b["center"][1]))).unwrap();
    top["name"].as_str().unwrap().to_owned()
}

#[test]
fn a_2d_drag_ends_where_the_button_came_up() {
    let _one = lock();
    for slow in [false, true] {
        let app = start("pyramid", &["scenes/pyramid.ron"], slow);
        let v = View::of(&app.state());
        app.move_to(v.vp_center());
        app.key("space");
        let s = app.settle(2);
        assert_eq!(s["running"], false, "Space pauses");
        let paused_at = s["step"].clone();
        let name = top_body(&s);
        let start = pair(&body(&s, &name)["center"]);
        let a = v.to_screen(start);
        // Up and to the right, into empty space; then away, down into the ground.
        let r = [a[0] + 140.0, a[1] + 40.0];
        let away = [a[0] - 60.0, v.vp_min[1] + v.vp_size[1] - 15.0];
        let want = |r: [f32; 2]| {
            let (wa, wr) = (v.to_world(a), v.to_world(r));
            [start[0] + wr[0] - wa[0], start[1] + wr[1] - wa[1]]
        };
        // Dragged frame by frame, released and moved on at once.
        app.move_to(a);
        app.settle(2);
        xdotool(&["mousedown", "1"]);
        app.settle(2);
        held_moves(&app, a, r);
        release_and_move(&app, away);
        let s = app.settle(3);
        let at = pair(&body(&s, &name)["center"]);
        let tol = 1.5 * v.scale();
        let fps = if slow { "at a low frame rate" } else { "" };
        assert!(distance(&at, &want(r)) < tol, "{name} at {at:?}, released at {:?} {fps}", want(r));
        // The whole drag in one burst: from there back to the left.
        let a = v.to_screen(at);
        let r2 = [a[0] - 220.0, a[1] + 10.0];
        let from = at;
        burst_drag(&app, a, r2, away);
        let s = app.settle(3);
        let at = pair(&body(&s, &name)["center"]);
        let (wa, wr) = (v.to_world(a), v.to_world(r2));
        let want = [from[0] + wr[0] - wa[0], from[1] + wr[1] - wa[1]];
        assert!(distance(&at, &want) < tol, "{name} at {at:?} after a burst drag, released at {want:?} {fps}");
        assert_eq!((&s["running"], &s["step"]), (&Value::Bool(false), &paused_at), "the drags never stepped");
    }
}

/// A lab body's position from `--state-out`: `read(state)`.
type Read = fn(&Value) -> Vec<f32>;

/// Drags from `a` to `r` frame by frame, and returns where the body is while still held;
/// then releases and moves to `away` at once and checks the body stayed. Restarts (R) and
/// does the same drag in one burst, and checks it ends in the same place.
fn drag_in_lab(app: &LiveApp, a: [f32; 2], r: [f32; 2], away: [f32; 2], read: Read, what: &str) {
    app.move_to(a);
    app.settle(2);
    xdotool(&["mousedown", "1"]);
    app.settle(2);
    held_moves(app, a, r);
    let held = read(&app.settle(2));
    release_and_move(app, away);
    let released = read(&app.settle(3));
    assert!(distance(&released, &held) < 1e-3, "{what}: held at {held:?}, after the release at {released:?}");
    app.key("r");
    let restarted = read(&app.settle(2));
    assert!(distance(&restarted, &held) > 0.1, "{what}: R put it back");
    burst_drag(app, a, r, away);
    let burst = read(&app.settle(3));
    assert!(distance(&burst, &held) < 1e-3, "{what}: a burst drag ends at {burst:?}, the slow one at {held:?}");
}

fn vec(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(f).collect()
}

#[test]
fn a_3d_hull_stays_where_it_was_released() {
    let _one = lock();
    for slow in [false, true] {
        let app = start("hull3d", &["--lab", "hull3d", "scenes/hulls/separated.ron"], slow);
        let s = app.settle(2);
        let v = View::of(&s);
        let a = pair(&s["lab_state"]["hulls"][1]["screen"]);
        let r = [a[0] - 90.0, a[1] + 50.0];
        let away = [v.vp_min[0] + 40.0, v.vp_min[1] + 40.0];
        let read: Read = |s| vec(&s["lab_state"]["hulls"][1]["position"]);
        drag_in_lab(&app, a, r, away, read, if slow { "hull B, at a low frame rate" } else { "hull B" });
    }
}

#[test]
fn a_paused_3d_body_is_placed_where_it_was_released() {
    let _one = lock();
    for slow in [false, true] {
        let app = start("world3d", &["--lab", "world3d", "scenes/world3d/stack.ron"], slow);
        let v = View::of(&app.state());
        app.move_to([v.vp_min[0] + 5.0, v.vp_min[1] + 5.0]);
        app.key("space");
        app.key("r");
        let s = app.settle(2);
        assert_eq!(s["running"], false, "Space pauses the 3D world");
        let bodies = s["lab_state"]["bodies"].as_array().unwrap();
        let top = bodies.iter().find(|b| b["name"] == "cube 5").expect("cube 5 in stack.ron");
        let index = top["index"].as_u64().unwrap() as usize;
        let a = pair(&top["screen"]);
        let r = [a[0] + 30.0, a[1] - 70.0];
        let away = [a[0] - 200.0, v.vp_min[1] + v.vp_size[1] - 20.0];
        let read: Read = |s| {
            let bodies = s["lab_state"]["bodies"].as_array().unwrap();
            let b = bodies.iter().find(|b| b["name"] == "cube 5").unwrap();
            vec(&b["center"])
        };
        drag_in_lab(&app, a, r, away, read, if slow { "cube 5, at a low frame rate" } else { "cube 5" });
        assert_eq!(app.state()["lab_state"]["bodies"][index]["name"], "cube 5");
    }
}
