//! The 3D dynamics lab's timeline under real X input (`xdotool`): the same bar as the 2D
//! scenes'. Real clicks on its track scrub the 3D world, Home/End/← jump, and a real drag of a
//! hull at a past step branches: the old branch is compared, its hulls drawn as ghosts and the
//! moved body tops the diff. A real click on a contact point pins it, and the card's button
//! opens its pair in the 3D hull lab. Widget positions come from `--state-out` (`widgets`, in pixels),
//! the timeline from the lab's state (`lab_state.timeline`).

use crate::support;

use serde_json::Value;
use support::live_app::{f, lock, pair, xdotool, LiveApp, View};

fn widget(s: &Value, name: &str) -> [f32; 4] {
    let r = &s["widgets"][name];
    assert!(r.is_array(), "no widget {name} in the state: {}", s["widgets"]);
    [0, 1, 2, 3].map(|i| f(&r[i]))
}

fn step(s: &Value) -> u64 {
    s["lab_state"]["step"].as_u64().unwrap()
}

fn timeline(s: &Value) -> &Value {
    &s["lab_state"]["timeline"]
}

fn click(app: &LiveApp, at: [f32; 2]) -> Value {
    app.move_to(at);
    app.settle(2);
    xdotool(&["click", "1"]);
    app.settle(3)
}

/// The 3D lab on the stack, paused after `n` more steps taken with the real `.` key.
fn paused_stack(name: &str, n: u64) -> (LiveApp, u64) {
    let app = LiveApp::start(name, &["--lab", "world3d", "scenes/world3d/stack.ron"]);
    let vp = View::of(&app.state());
    app.move_to([vp.vp_min[0] + 5.0, vp.vp_min[1] + 5.0]);
    app.key("space");
    let s0 = step(&app.settle(2));
    for _ in 0..n {
        xdotool(&["key", "period"]);
    }
    let s = app.settle(3);
    assert_eq!((step(&s), s["running"].as_bool()), (s0 + n, Some(false)), "{n} steps on, paused");
    (app, s0 + n)
}

#[test]
fn real_clicks_on_the_3d_timeline_track_and_keys_scrub_the_3d_world() {
    let _one = lock();
    let (app, newest) = paused_stack("timeline3d_scrub", 24);
    let s = app.state();
    assert_eq!((timeline(&s)["first"].as_u64(), timeline(&s)["newest"].as_u64()), (Some(0), Some(newest)));
    let [x, y, w, h] = widget(&s, "timeline_track");
    assert!(y > View::of(&s).vp_min[1], "the bar is along the bottom of the 3D view");
    let at = |frac: f32| [x + 7.0 + frac * (w - 14.0), y + 0.5 * h];
    let top = |s: &Value| f(&s["lab_state"]["bodies"].as_array().unwrap().last().unwrap()["center"][1]);
    let mut seen = Vec::new();
    for frac in [0.25, 0.75, 0.0, 0.5] {
        let want = (frac * newest as f32).round() as i64;
        let s = click(&app, at(frac));
        let got = step(&s) as i64;
        assert!((got - want).abs() <= 1, "a click at {frac} of the track shows step {got}, not about {want}");
        assert_eq!(timeline(&s)["newest"].as_u64(), Some(newest), "seeking keeps the future");
        assert_eq!(timeline(&s)["cursor"].as_u64(), Some(got as u64));
        seen.push((got, top(&s)));
    }
    // The same step shows the same world: back to step 0 twice gives the same pose.
    app.key("End");
    assert_eq!(step(&app.settle(2)), newest, "End");
    app.key("Home");
    let s = app.settle(2);
    assert_eq!(step(&s), 0, "Home");
    let (_, y0) = seen.iter().find(|(k, _)| *k == 0).copied().unwrap();
    assert_eq!(top(&s), y0, "step 0 reached twice is the same state");
    app.key("Right");
    app.key("Right");
    app.key("Left");
    assert_eq!(step(&app.settle(2)), 1, "→ → ←");
    assert_eq!(timeline(&app.state())["branches"].as_u64(), Some(1), "scrubbing makes no branch");
}

#[test]
fn a_real_drag_at_a_past_3d_step_branches_and_shows_the_old_branch_as_ghosts() {
    let _one = lock();
    let (app, newest) = paused_stack("timeline3d_branch", 30);
    let s = app.state();
    let [x, y, w, h] = widget(&s, "timeline_track");
    let s = click(&app, [x + 7.0 + 0.5 * (w - 14.0), y + 0.5 * h]);
    let past = step(&s);
    assert!(past > 5 && past < newest, "at a past step: {past}");
    // The highest dynamic hull on screen, dragged up with the real mouse (paused: placed).
    let vp = View::of(&s);
    let inside = |p: [f32; 2]| {
        p[0] > vp.vp_min[0] + 20.0
            && p[0] < vp.vp_min[0] + vp.vp_size[0] - 20.0
            && p[1] > vp.vp_min[1] + 80.0
            && p[1] < vp.vp_min[1] + vp.vp_size[1] - 20.0
    };
    let top = s["lab_state"]["bodies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["dynamic"] == true && !b["screen"].is_null() && inside(pair(&b["screen"])))
        .max_by(|a, b| f(&a["center"][1]).total_cmp(&f(&b["center"][1])))
        .expect("a dynamic hull on screen")
        .clone();
    let index = top["index"].as_u64().unwrap();
    let from = pair(&top["screen"]);
    app.drag(from, [from[0] + 40.0, from[1] - 60.0], 6);
    let s = app.settle(3);
    let t = timeline(&s);
    assert_eq!((t["branches"].as_u64(), t["branch"].as_u64()), (Some(2), Some(1)), "the drag started branch 1: {t}");
    assert_eq!(t["compare"].as_u64(), Some(0), "compared with the branch it left");
    assert_eq!(step(&s), past, "the edit does not step");
    assert!(t["ghost_hulls"].as_u64().unwrap() >= 1, "the moved hull's old place is a ghost: {t}");
    assert_eq!(t["diff"][0]["body"].as_u64(), Some(index), "the dragged hull differs most: {t}");
    // Stepping on the new branch keeps the ghosts of the old one beside it.
    for _ in 0..5 {
        xdotool(&["key", "period"]);
    }
    let s = app.settle(3);
    let t = timeline(&s);
    assert_eq!((step(&s), t["newest"].as_u64(), t["branch"].as_u64()), (past + 5, Some(past + 5), Some(1)));
    assert!(t["ghost_hulls"].as_u64().unwrap() >= 1, "{t}");
}

#[test]
fn the_real_pointer_over_a_3d_contact_point_shows_its_pair_and_impulses() {
    let _one = lock();
    let (app, _) = paused_stack("inspect3d_hover", 20);
    let s = app.state();
    let vp = View::of(&s);
    let inside = |p: [f32; 2]| {
        p[0] > vp.vp_min[0] + 30.0
            && p[0] < vp.vp_min[0] + vp.vp_size[0] - 30.0
            && p[1] > vp.vp_min[1] + 30.0
            && p[1] < vp.vp_min[1] + vp.vp_size[1] - 30.0
    };
    let points = s["lab_state"]["contact_points"].as_array().unwrap().clone();
    let (c, at) = points
        .iter()
        .filter(|p| !p[2].is_null())
        .map(|p| (p[0].as_u64().unwrap(), pair(&p[2])))
        .find(|&(_, at)| inside(at))
        .expect("a contact point in view");
    app.move_to(at);
    let s = app.settle(3);
    let hovered = &s["lab_state"]["hovered_contact"];
    assert!(hovered.is_object(), "hovering a contact point inspects it: {hovered}");
    assert!(hovered["pair"].as_str().unwrap().contains('↔'), "{hovered}");
    assert!(hovered["age"].as_str().unwrap().ends_with("steps"), "{hovered}");
    // A contact of the same pair sits under the pointer (points of several contacts may meet
    // at one pixel): the hovered one is among those drawn there.
    let near: Vec<u64> = points
        .iter()
        .filter(|p| {
            !p[2].is_null() && {
                let q = pair(&p[2]);
                (q[0] - at[0]).hypot(q[1] - at[1]) <= 9.0
            }
        })
        .map(|p| p[0].as_u64().unwrap())
        .collect();
    assert!(near.contains(&c), "{near:?}");
    // Away from every point, nothing is inspected.
    app.move_to([vp.vp_min[0] + 8.0, vp.vp_min[1] + 8.0]);
    assert!(app.settle(3)["lab_state"]["hovered_contact"].is_null());
}

/// A real click on a 3D contact point pins it: the card stays while the world steps (the real
/// `.` key), Esc unpins it, and the card's Open in hull lab button, clicked for real, opens
/// the pair in the 3D hull lab with the world's narrowphase on it.
#[test]
fn a_real_click_pins_a_3d_contact_whose_card_opens_it_in_the_hull_lab() {
    let _one = lock();
    let (app, _) = paused_stack("inspect3d_pin", 20);
    let s = app.state();
    let vp = View::of(&s);
    // A point near the middle of the view, away from where the card opens and the panels.
    let mid = [vp.vp_min[0] + 0.5 * vp.vp_size[0], vp.vp_min[1] + 0.5 * vp.vp_size[1]];
    let points = s["lab_state"]["contact_points"].as_array().unwrap().clone();
    let at = points
        .iter()
        .filter(|p| !p[2].is_null())
        .map(|p| pair(&p[2]))
        .filter(|q| (q[0] - mid[0]).abs() < 0.35 * vp.vp_size[0] && (q[1] - mid[1]).abs() < 0.35 * vp.vp_size[1])
        .min_by(|a, b| (a[1] - mid[1]).abs().total_cmp(&(b[1] - mid[1]).abs()))
        .expect("a contact point in the middle of the view");
    let pin = |app: &LiveApp| {
        let s = click(app, at);
        let pinned = s["lab_state"]["pinned_contact"].clone();
        assert!(pinned.is_object(), "a click on the point pins it: {}", s["lab_state"]);
        assert_eq!(s["lab_state"]["grabbed"], Value::Null, "and grabs no hull");
        pinned
    };
    let pinned = pin(&app);
    assert_eq!(pinned["status"], "live", "{pinned}");
    assert!(pinned["rows"]["pair"].as_str().unwrap().contains('↔'), "the card's rows: {pinned}");
    // The card stays while the world steps, on the same point (its key).
    for _ in 0..5 {
        xdotool(&["key", "period"]);
    }
    let s = app.settle(3);
    let now = &s["lab_state"]["pinned_contact"];
    assert_eq!(
        (now["a"].clone(), now["b"].clone(), now["id"].clone()),
        (pinned["a"].clone(), pinned["b"].clone(), pinned["id"].clone())
    );
    assert_eq!(now["status"], "live", "a resting contact lasts: {now}");
    assert_eq!(now["last_seen"].as_u64(), s["lab_state"]["step"].as_u64());
    // Esc unpins; a click pins again.
    app.key("Escape");
    assert!(app.settle(2)["lab_state"]["pinned_contact"].is_null(), "Esc unpins");
    let again = pin(&app);
    assert_eq!(again["id"], pinned["id"]);
    // The card's button opens the pair in the hull lab.
    let s = app.settle(3);
    let [x, y, w, h] = widget(&s, "contact3_open");
    let s = click(&app, [x + 0.5 * w, y + 0.5 * h]);
    assert_eq!(s["lab"].as_str(), Some("3D hull SAT"), "{:?}", s["error"]);
    let narrow = &s["lab_state"]["narrow"];
    assert!(narrow["axis"].is_string() && narrow["points"].is_string(), "the world's narrowphase: {narrow}");
    assert!(s["lab_state"]["name"].as_str().unwrap().starts_with("contact "), "{}", s["lab_state"]["name"]);
}
