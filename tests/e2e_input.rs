//! Real input, end to end: the real binary opens its window (under Xvfb in CI) and is driven
//! with real X events through `xdotool` (pointer moves, clicks, drags, wheel notches, keys),
//! the layer where macroquad turns events into gestures. The app writes its state after every
//! frame (`--state-out`), and the tests read it back: camera, selection, poses, step counter.
//!
//! One window at a time (the X pointer is shared), so the tests take a lock.

mod support;

use serde_json::Value;
use std::time::{Duration, Instant};
use support::live_app::{body, f, lock, pair, xdotool, LiveApp, View};

/// Zoom per wheel notch (the figure in docs/using.md).
const NOTCH: f32 = 1.15;

fn pointer_scene() -> LiveApp {
    let app = LiveApp::start("pointer", &["tests/input/pointer.ron"]);
    // Pause with the real Space key so nothing moves by itself.
    app.move_to(View::of(&app.state()).vp_center());
    app.key("space");
    assert_eq!(app.settle(1)["running"], false, "Space pauses");
    app
}

#[test]
fn hovering_the_view_leaves_the_camera_alone() {
    let _one = lock();
    let app = LiveApp::start("hover", &["tests/input/pointer.ron"]);
    let before = app.state();
    let v = View::of(&before);
    // Wander over the view for two seconds, no button, no wheel.
    let t0 = Instant::now();
    let mut k = 0.0f32;
    while t0.elapsed() < Duration::from_secs(2) {
        let c = v.vp_center();
        app.move_to([c[0] + 200.0 * k.cos(), c[1] + 150.0 * (1.3 * k).sin()]);
        k += 0.2;
        std::thread::sleep(Duration::from_millis(30));
    }
    let after = app.settle(3);
    assert_eq!(before["camera_height"], after["camera_height"], "hovering zoomed the view");
    assert_eq!(before["camera_center"], after["camera_center"], "hovering moved the view");
}

#[test]
fn wheel_notches_zoom_by_a_fixed_factor_at_the_cursor() {
    let _one = lock();
    let app = pointer_scene();
    let v0 = View::of(&app.state());
    let cursor = [v0.vp_center()[0] + 180.0, v0.vp_center()[1] - 90.0];
    app.move_to(cursor);
    let anchor = v0.to_world(cursor);
    // Five notches in quick succession (several may land in one frame): zoom in by 1.15^5.
    for _ in 0..5 {
        xdotool(&["click", "4"]);
    }
    let v1 = View::of(&app.settle(3));
    let ratio = v0.height / v1.height;
    assert!((ratio - NOTCH.powi(5)).abs() < 1e-3 * ratio, "zoom in ratio {ratio}, expected {}", NOTCH.powi(5));
    let moved = v1.to_world(cursor);
    let err = ((moved[0] - anchor[0]).powi(2) + (moved[1] - anchor[1]).powi(2)).sqrt();
    assert!(err < 2.0 * v1.scale(), "the point under the cursor moved by {err} m");
    // Seven notches back out: 1.15^-7 relative to here.
    for _ in 0..7 {
        xdotool(&["click", "5"]);
    }
    let v2 = View::of(&app.settle(3));
    let ratio = v1.height / v2.height;
    assert!((ratio - NOTCH.powi(-7)).abs() < 1e-3 * ratio, "zoom out ratio {ratio}");
    // Over the controls panel the wheel scrolls the panel (a line per notch), never the view.
    app.move_to([100.0, 300.0]);
    let before = f(&app.settle(2)["controls_scroll"]);
    for _ in 0..3 {
        xdotool(&["click", "5"]);
    }
    std::thread::sleep(Duration::from_millis(600));
    let s = app.settle(3);
    assert_eq!(View::of(&s).height, v2.height, "the wheel over a panel zoomed the view");
    let scrolled = f(&s["controls_scroll"]) - before;
    assert!(scrolled > 30.0, "three notches scrolled the controls panel by {scrolled} points");
}

#[test]
fn click_selects_drag_moves_ctrl_drag_rotates() {
    let _one = lock();
    let app = pointer_scene();
    let s = app.state();
    let paused_at = s["step"].clone();
    let v = View::of(&s);
    let square = pair(&body(&s, "square")["center"]);
    // Click on the square selects it; a click on empty space clears the selection.
    app.move_to(v.to_screen(square));
    app.settle(2);
    xdotool(&["click", "1"]);
    let s = app.settle(3);
    assert_eq!(s["selected"].as_array().unwrap().len(), 1);
    assert_eq!(s["selected"][0]["name"], "square");
    app.move_to(v.to_screen([0.0, -3.0]));
    app.settle(2);
    xdotool(&["click", "1"]);
    assert!(app.settle(3)["selected"].as_array().unwrap().is_empty(), "a click on nothing clears the selection");

    // Drag the ball (paused: placed) by (+120, +60) pixels: it moves by that in world units.
    let ball = pair(&body(&s, "ball")["center"]);
    let from = v.to_screen([ball[0] + 0.4, ball[1] - 0.3]);
    let to = [from[0] + 120.0, from[1] + 60.0];
    app.drag(from, to, 8);
    let s = app.settle(2);
    let moved = pair(&body(&s, "ball")["center"]);
    let expect = [ball[0] + 120.0 * v.scale(), ball[1] - 60.0 * v.scale()];
    let err = ((moved[0] - expect[0]).powi(2) + (moved[1] - expect[1]).powi(2)).sqrt();
    assert!(err < 1.5 * v.scale(), "ball at {moved:?}, expected {expect:?}");
    assert_eq!(s["selected"][0]["name"], "ball", "dragging selects");

    // Ctrl+drag the plank: the pointer swings 60° about its centre, so does the plank.
    let plank = body(&s, "plank");
    let (c, a0) = (pair(&plank["center"]), f(&plank["angle"]));
    let r = 2.0;
    let at = |deg: f32| v.to_screen([c[0] + r * deg.to_radians().cos(), c[1] + r * deg.to_radians().sin()]);
    xdotool(&["keydown", "ctrl"]);
    app.move_to(at(0.0));
    app.settle(2);
    xdotool(&["mousedown", "1"]);
    app.settle(2);
    for k in 1..=12 {
        app.move_to(at(5.0 * k as f32));
        app.settle(1);
    }
    xdotool(&["mouseup", "1"]);
    xdotool(&["keyup", "ctrl"]);
    let s = app.settle(3);
    let plank = body(&s, "plank");
    let turned = (f(&plank["angle"]) - a0).to_degrees();
    assert!((turned - 60.0).abs() < 2.0, "plank turned {turned}°, expected 60°");
    let c1 = pair(&plank["center"]);
    assert!((c1[0] - c[0]).abs() < 1e-3 && (c1[1] - c[1]).abs() < 1e-3, "rotating keeps the centre");
    assert_eq!(s["step"], paused_at, "Ctrl and the drags never stepped the world");
}

/// A body of two shapes: a click on its second shape (the head, away from the body origin)
/// selects the body, and a drag that starts on the head moves the whole body with the pointer
/// (paused: placed), its shapes together.
#[test]
fn a_click_on_any_shape_selects_a_compound_and_a_drag_moves_it_whole() {
    let _one = lock();
    let app = LiveApp::start("compound", &["tests/input/compound.ron"]);
    app.move_to(View::of(&app.state()).vp_center());
    app.key("space");
    let s = app.settle(1);
    assert_eq!(s["running"], false, "Space pauses");
    let v = View::of(&s);
    let hammer = body(&s, "hammer");
    assert_eq!(hammer["shapes"], 2);
    let c = pair(&hammer["center"]);
    // On the head, 5.5 m above the body origin (-2, -3) and 1 m to the side: outside the first
    // shape (the handle), and away from the centre of mass.
    let head = [-2.0 + 1.0, -3.0 + 5.5];
    app.move_to(v.to_screen(head));
    app.settle(2);
    xdotool(&["click", "1"]);
    let s = app.settle(3);
    assert_eq!(s["selected"].as_array().unwrap().len(), 1);
    assert_eq!(s["selected"][0]["name"], "hammer", "the head selects its body");
    let from = v.to_screen(head);
    let to = [from[0] + 120.0, from[1] + 60.0];
    app.drag(from, to, 8);
    let s = app.settle(2);
    let moved = body(&s, "hammer");
    let expect = [c[0] + 120.0 * v.scale(), c[1] - 60.0 * v.scale()];
    let got = pair(&moved["center"]);
    let err = ((got[0] - expect[0]).powi(2) + (got[1] - expect[1]).powi(2)).sqrt();
    assert!(err < 1.5 * v.scale(), "hammer centre at {got:?}, expected {expect:?}");
    assert!(f(&moved["angle"]).abs() < 1e-4, "a drag does not turn it");
    assert_eq!(s["selected"][0]["name"], "hammer");
}

#[test]
fn keys_step_back_restart_and_play() {
    let _one = lock();
    let app = pointer_scene();
    let s0 = app.state()["step"].as_u64().unwrap();
    app.key("period");
    app.key("period");
    app.key("period");
    assert_eq!(app.settle(1)["step"].as_u64().unwrap(), s0 + 3, "`.` steps once per press");
    app.key("b");
    assert_eq!(app.settle(1)["step"].as_u64().unwrap(), s0 + 2, "B steps back");
    app.key("r");
    let s = app.settle(1);
    assert_eq!(s["step"], 0, "R restarts");
    assert_eq!(s["running"], false, "restart keeps the world paused");
    app.key("space");
    std::thread::sleep(Duration::from_millis(500));
    let s = app.settle(5);
    assert_eq!(s["running"], true);
    assert!(s["step"].as_u64().unwrap() > 3, "Space runs the world");
}

#[test]
fn home_end_and_arrows_scrub_the_timeline() {
    let _one = lock();
    let app = pointer_scene();
    let s0 = app.state()["step"].as_u64().unwrap();
    for _ in 0..6 {
        app.key("period");
    }
    let end = s0 + 6;
    assert_eq!(app.settle(1)["timeline"]["newest"].as_u64().unwrap(), end);
    app.key("Home");
    assert_eq!(app.settle(1)["step"], 0, "Home goes to the first step");
    app.key("Right");
    assert_eq!(app.settle(1)["step"], 1, "→ one step on");
    app.key("End");
    assert_eq!(app.settle(1)["step"].as_u64().unwrap(), end, "End goes to the newest step");
    app.key("Left");
    app.key("Left");
    assert_eq!(app.settle(1)["step"].as_u64().unwrap(), end - 2, "← one step back");
    app.key("shift+Right");
    let s = app.settle(1);
    assert_eq!(s["step"].as_u64().unwrap(), end, "Shift+→ moves ten steps, up to the newest");
    assert_eq!((s["timeline"]["branches"].as_u64(), s["running"].as_bool()), (Some(1), Some(false)));
}

#[test]
fn m_and_a_drag_measure_with_the_ruler_and_select_nothing() {
    let _one = lock();
    let app = pointer_scene();
    let s = app.state();
    let v = View::of(&s);
    app.move_to(v.vp_center());
    app.key("m");
    assert_eq!(app.settle(1)["tools"]["ruler"]["on"], true, "M turns the ruler on");
    let (a, b) = ([v.center[0] - 3.0, v.center[1] - 1.0], [v.center[0] + 1.0, v.center[1] + 2.0]);
    app.drag(v.to_screen(a), v.to_screen(b), 10);
    let s = app.settle(2);
    let line = &s["tools"]["ruler"]["line"];
    let (from, to) = (pair(&line[0]), pair(&line[1]));
    let px = 3.0 * v.scale();
    for (got, want) in [(from, a), (to, b)] {
        assert!((got[0] - want[0]).abs() < px && (got[1] - want[1]).abs() < px, "{line} vs {a:?} {b:?}");
    }
    assert!(s["selected"].as_array().is_none_or(|v| v.is_empty()), "measuring selects nothing: {}", s["selected"]);
    app.key("m");
    assert_eq!(app.settle(1)["tools"]["ruler"]["on"], false);
}

#[test]
fn j_and_a_drag_cast_a_circle_onto_the_square() {
    let _one = lock();
    let app = pointer_scene();
    let s = app.state();
    let v = View::of(&s);
    let square = pair(&body(&s, "square")["center"]);
    let index = s["bodies"].as_array().unwrap().iter().position(|b| b["name"] == "square").unwrap();
    app.move_to(v.vp_center());
    app.key("j");
    assert_eq!(app.settle(1)["tools"]["shape_cast"]["on"], true, "J turns the shape-cast tool on");
    // Nothing selected: a circle of radius 0.4 dragged from the left of the square, right
    // across it at its centre's height.
    let from = v.to_screen([square[0] - 4.0, square[1]]);
    let to = v.to_screen([square[0] + 1.0, square[1]]);
    app.drag(from, to, 10);
    let s = app.settle(2);
    let cast = &s["tools"]["shape_cast"];
    let (a, b) = (pair(&cast["path"][0]), pair(&cast["path"][1]));
    assert_eq!(cast["hit"]["body"].as_u64(), Some(index as u64), "{cast}");
    // Its centre stops the target distance (radius less the linear slop) from the left face,
    // at x = square − 1.5, along the path the drag made.
    let face = square[0] - 1.5;
    let stop = face - (0.4 - 0.005);
    let want = (stop - a[0]) / (b[0] - a[0]);
    let got = f(&cast["hit"]["fraction"]);
    assert!((got - want).abs() < 1e-3, "fraction {got} vs {want}: {cast}");
    let normal = pair(&cast["hit"]["normal"]);
    assert!((normal[0] + 1.0).abs() < 1e-3 && normal[1].abs() < 0.05, "{cast}");
    assert!(s["selected"].as_array().is_none_or(|v| v.is_empty()), "casting selects nothing: {}", s["selected"]);
    app.key("j");
    assert_eq!(app.settle(1)["tools"]["shape_cast"]["on"], false);
}

#[test]
fn k_and_a_drag_slice_the_square() {
    let _one = lock();
    let app = pointer_scene();
    let s = app.state();
    let n = s["body_count"].as_u64().unwrap();
    let v = View::of(&s);
    let square = pair(&body(&s, "square")["center"]);
    app.move_to(v.vp_center());
    app.key("k");
    assert_eq!(app.settle(1)["tools"]["slice"]["on"], true, "K turns the slice tool on");
    // A drag across the square, both ends outside it: it is cut in two.
    let from = v.to_screen([square[0] - 2.5, square[1] + 0.6]);
    let to = v.to_screen([square[0] + 2.5, square[1] - 0.4]);
    app.drag(from, to, 10);
    let s = app.settle(3);
    assert_eq!(s["body_count"].as_u64().unwrap(), n + 1, "the knife cut the square: {}", s["bodies"]);
    body(&s, "square#a");
    body(&s, "square#b");
    // K again: drags move bodies again.
    app.key("k");
    assert_eq!(app.settle(1)["tools"]["slice"]["on"], false);
    let ball = pair(&body(&s, "ball")["center"]);
    app.drag(v.to_screen(ball), v.to_screen([ball[0], ball[1] - 1.0]), 6);
    let s = app.settle(2);
    assert_eq!(s["body_count"].as_u64().unwrap(), n + 1);
    assert_eq!(s["selected"][0]["name"], "ball");
}

#[test]
fn every_lab_opens_framed_on_its_shapes() {
    let _one = lock();
    for lab in ["manifold", "minkowski", "tree", "hull3d", "toi", "world3d", "slice", "hull"] {
        let app = LiveApp::start(&format!("lab_{lab}"), &["--lab", lab]);
        let v = View::of(&app.state());
        // The pointer rests over the view for a second: nothing changes.
        app.move_to(v.vp_center());
        std::thread::sleep(Duration::from_millis(1000));
        let s = app.settle(3);
        let [x, y, w, h] = [0, 1, 2, 3].map(|i| f(&s["content_screen"][i]));
        let (vx, vy) = (v.vp_min[0], v.vp_min[1]);
        let (vw, vh) = (v.vp_size[0], v.vp_size[1]);
        assert!(
            x >= vx - 1.0 && y >= vy - 1.0 && x + w <= vx + vw + 1.0 && y + h <= vy + vh + 1.0,
            "{lab}: shapes at {:?} outside the view {:?}",
            [x, y, w, h],
            [vx, vy, vw, vh]
        );
        assert!(w > 0.3 * vw || h > 0.3 * vh, "{lab}: shapes fill only {w}x{h} of {vw}x{vh} pixels");
    }
}

#[test]
fn a_real_click_on_a_chain_anchor_selects_the_joint() {
    let _one = lock();
    let app = LiveApp::start("chain_joint", &["scenes/chain.ron"]);
    app.move_to(View::of(&app.state()).vp_center());
    app.key("space");
    let s = app.settle(2);
    assert_eq!(s["running"], false, "Space pauses");
    let v = View::of(&s);
    // The anchor between link_9 and link_10: the end of link_9 nearest link_10, from the poses.
    let (l9, l10) = (pair(&body(&s, "link_9")["center"]), pair(&body(&s, "link_10")["center"]));
    let anchor = [0.5 * (l9[0] + l10[0]), 0.5 * (l9[1] + l10[1])];
    app.move_to(v.to_screen(anchor));
    app.settle(2);
    xdotool(&["click", "1"]);
    let s = app.settle(3);
    let joint = &s["selected_joint"];
    assert_eq!(joint["kind"], "Revolute", "a click on an anchor selects its joint: {joint}");
    assert_eq!((joint["body_a"].as_str(), joint["body_b"].as_str()), (Some("link_9"), Some("link_10")));
    assert!(s["selected"].as_array().unwrap().is_empty(), "and no body");
    // A click on the middle of a link selects the link instead.
    app.move_to(v.to_screen(l10));
    app.settle(2);
    xdotool(&["click", "1"]);
    let s = app.settle(3);
    assert_eq!(s["selected_joint"], Value::Null);
    assert_eq!(s["selected"][0]["name"], "link_10");
}

#[test]
fn in_the_3d_lab_a_real_drag_places_a_hull_paused_and_grabs_it_running() {
    let _one = lock();
    let app = LiveApp::start("world3d", &["--lab", "world3d", "scenes/world3d/stack.ron"]);
    let vp = View::of(&app.state());
    app.move_to([vp.vp_min[0] + 5.0, vp.vp_min[1] + 5.0]);
    app.key("space");
    let s = app.settle(2);
    assert_eq!(s["running"], false, "Space pauses the 3D world");
    // The highest dynamic hull that is on screen: nothing above it to catch the drag.
    let inside = |p: [f32; 2]| {
        p[0] > vp.vp_min[0] + 20.0
            && p[0] < vp.vp_min[0] + vp.vp_size[0] - 20.0
            && p[1] > vp.vp_min[1] + 80.0
            && p[1] < vp.vp_min[1] + vp.vp_size[1] - 20.0
    };
    let lab = &s["lab_state"];
    let top = lab["bodies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["dynamic"] == true && !b["screen"].is_null() && inside(pair(&b["screen"])))
        .max_by(|a, b| f(&a["center"][1]).total_cmp(&f(&b["center"][1])))
        .expect("a dynamic hull on screen")
        .clone();
    let index = top["index"].as_u64().unwrap();
    let (from, y0, step) = (pair(&top["screen"]), f(&top["center"][1]), lab["step"].clone());
    app.drag(from, [from[0], from[1] - 60.0], 6);
    let s = app.settle(2);
    let lab = &s["lab_state"];
    assert_eq!(lab["selected"].as_u64(), Some(index), "the pressed hull is selected");
    let moved = &lab["bodies"][index as usize];
    assert!(f(&moved["center"][1]) > y0 + 0.2, "placed higher: {} from {y0}", moved["center"][1]);
    assert_eq!(lab["step"], step, "placing does not step");
    // Running, a press grabs the hull with the spring and a release lets go.
    app.key("space");
    // The hull placed up high falls back onto the stack first: wait until it rests.
    let mut last = f32::MAX;
    for _ in 0..60 {
        let y = f(&app.settle(5)["lab_state"]["bodies"][index as usize]["center"][1]);
        if (y - last).abs() < 1e-3 {
            break;
        }
        last = y;
    }
    let p = pair(&app.settle(1)["lab_state"]["bodies"][index as usize]["screen"]);
    app.move_to(p);
    app.settle(2);
    xdotool(&["mousedown", "1"]);
    let held = app.settle(3);
    xdotool(&["mouseup", "1"]);
    assert_eq!(held["lab_state"]["grabbed"].as_u64(), Some(index), "pressing grabs it");
    assert_eq!(app.settle(3)["lab_state"]["grabbed"], Value::Null, "releasing lets go");
}
