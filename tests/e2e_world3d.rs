//! The 3D dynamics lab's Solver section under real X input (`xdotool`): a click opens it, the
//! wheel scrolls the controls panel to the SAT row, a real click switches the SAT cache off, and the world's next
//! steps show it (no pair is rejected by a remembered axis any more: every candidate pair runs
//! the SAT); another click picks the robust SAT. Widget positions come from `--state-out`
//! (`widgets`, in pixels), the settings and narrowphase counts from the lab's state.

mod support;

use serde_json::Value;
use support::live_app::{f, lock, xdotool, LiveApp, View};

/// Widget `name`'s rectangle `[x, y, w, h]` in pixels, once the wheel has scrolled the
/// controls panel so that it is wholly in view above the bottom bars.
fn scrolled_to(app: &LiveApp, name: &str) -> [f32; 4] {
    for _ in 0..40 {
        let s = app.settle(2);
        let r = &s["widgets"][name];
        assert!(r.is_array(), "no widget {name} in the state: {}", s["widgets"]);
        let [x, y, w, h] = [0, 1, 2, 3].map(|i| f(&r[i]));
        let v = View::of(&s);
        // The bottom bars start where the view ends; the panel's last row may end right there.
        let bottom = v.vp_min[1] + v.vp_size[1];
        if y > v.vp_min[1] + 10.0 && y + h <= bottom {
            return [x, y, w, h];
        }
        // The wheel over the panel, beside the widget (not on a slider).
        app.move_to([20.0, 0.5 * (v.vp_min[1] + bottom)]);
        xdotool(&["click", if y + h >= bottom { "5" } else { "4" }]);
    }
    panic!("{name} never came into view");
}

fn click(app: &LiveApp, r: [f32; 4]) -> Value {
    app.move_to([r[0] + 0.5 * r[2].min(40.0), r[1] + 0.5 * r[3]]);
    app.settle(2);
    xdotool(&["click", "1"]);
    app.settle(4)
}

/// The last step's narrowphase counts: (pairs, SAT calls, cache hits).
fn narrow(s: &Value) -> (u64, u64, u64) {
    let n = &s["lab_state"]["narrow"];
    let u = |k: &str| n[k].as_u64().unwrap_or_else(|| panic!("no {k} in {n}"));
    (u("pairs"), u("sat_calls"), u("cache_hits"))
}

#[test]
fn a_real_click_in_the_3d_solver_section_switches_the_sat_cache_off_and_picks_the_robust_sat() {
    let _one = lock();
    let app = LiveApp::start("world3d_solver", &["--lab", "world3d", "scenes/world3d/tumble.ron"]);
    let s = app.settle(20);
    assert_eq!(s["running"], true, "the lab opens running");
    let params = &s["lab_state"]["params"];
    assert_eq!((params["sat_cache"].as_bool(), params["sat"].as_str()), (Some(true), Some("Fast")));
    // With the cache, separated pairs are rejected by last step's axis.
    let hits: u64 = (0..10).map(|_| narrow(&app.settle(2)).2).sum();
    assert!(hits > 0, "the tumble has separated candidate pairs the cache rejects");
    // The Solver section is closed at first: a click on its header opens it.
    click(&app, scrolled_to(&app, "solver3"));
    let s = click(&app, scrolled_to(&app, "sat_cache"));
    assert_eq!(s["lab_state"]["params"]["sat_cache"], false, "the click switched the cache off");
    assert_eq!(s["error"], Value::Null);
    for _ in 0..10 {
        let (pairs, calls, hits) = narrow(&app.settle(2));
        assert_eq!((hits, calls), (0, pairs), "without the cache every candidate pair runs the SAT");
    }
    let s = click(&app, scrolled_to(&app, "sat_robust"));
    assert_eq!(s["lab_state"]["params"]["sat"], "Robust", "the robust SAT is one click away");
    let step = s["lab_state"]["step"].as_u64().unwrap();
    assert!(app.settle(10)["lab_state"]["step"].as_u64().unwrap() > step, "the world steps on with it");
}

/// The first basin's report: its surface as set and its simulated field (`null` if analytic).
fn basin(s: &Value) -> (&Value, &Value) {
    let w = &s["lab_state"]["water"][0];
    assert!(w.is_object(), "no water in the state: {}", s["lab_state"]["water"]);
    (&w["surface"], &w["field"])
}

#[test]
fn a_real_click_in_the_3d_water_section_makes_the_calm_tank_simulated_and_a_drag_sets_its_damping() {
    let _one = lock();
    let app = LiveApp::start("world3d_water", &["--lab", "world3d", "scenes/world3d/float.ron"]);
    let s = app.settle(20);
    assert_eq!(s["running"], true, "the lab opens running");
    assert_eq!(basin(&s), (&Value::from("Analytic"), &Value::Null), "float.ron's calm tank is analytic");
    // The Water section is closed at first: a click on its header opens it, one more switches.
    click(&app, scrolled_to(&app, "water3"));
    let s = click(&app, scrolled_to(&app, "water_simulated"));
    assert_eq!(s["error"], Value::Null);
    let (surface, field) = basin(&s);
    let set = &surface["Simulated"];
    assert!(set.is_object(), "the click made the surface simulated: {surface}");
    assert_eq!(field["columns"], set["columns"], "the world runs the grid the panel set");
    assert_eq!(s["lab_state"]["water"][1]["surface"], "Analytic", "the wave tank stays analytic");
    // The floating bodies push the columns: they leave their mean height and keep moving.
    let energies: Vec<f64> = (0..6).map(|_| basin(&app.settle(5)).1["energy"].as_f64().unwrap()).collect();
    let s = app.state();
    assert!(f(&basin(&s).1["max_offset"]) > 1e-4, "the columns moved: {}", basin(&s).1);
    assert!(energies.windows(2).any(|e| e[0] != e[1]), "the surface is alive: {energies:?}");
    // A drag to the right on the damping field raises it (0.02 per pixel); the world's field
    // takes it without starting still.
    let before = f(&set["damping"]);
    let r = scrolled_to(&app, "water_damping");
    let from = [r[0] + 0.5 * r[2], r[1] + 0.5 * r[3]];
    app.drag(from, [from[0] + 50.0, from[1]], 10);
    let s = app.settle(4);
    assert_eq!(s["error"], Value::Null);
    let (surface, field) = basin(&s);
    let damping = f(&surface["Simulated"]["damping"]);
    assert!(damping > before + 0.5, "the drag raised the damping: {before} -> {damping}");
    assert_eq!(f(&field["damping"]), damping, "the world's surface runs the new damping");
    assert!(f(&field["max_offset"]) > 1e-4, "the edit kept the columns' motion: {field}");
}
