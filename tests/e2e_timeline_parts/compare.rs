//! The Compare engines section under real clicks (`xdotool`, the real binary in its window):
//! the section opens, a real click on the rapier2d checkbox turns the peer on, its outlines
//! are drawn over ours (`tools.compare.outlines_drawn`), the divergence plots appear on the
//! timeline (their rectangles in `widgets`), and a click on the first-divergence tick shows
//! that step. Widget positions come from `--state-out` (`widgets`, in pixels).

use crate::support;

use serde_json::Value;
use support::live_app::{lock, xdotool, LiveApp, View};

/// A widget's rectangle `[x, y, w, h]` in pixels, if it was drawn this frame.
fn widget(s: &Value, name: &str) -> Option<[f32; 4]> {
    let r = s["widgets"][name].as_array()?;
    Some([0, 1, 2, 3].map(|i| r[i].as_f64().unwrap() as f32))
}

fn click(app: &LiveApp, r: [f32; 4], frac_x: f32) -> Value {
    app.move_to([r[0] + frac_x * r[2], r[1] + 0.5 * r[3]]);
    app.settle(2);
    xdotool(&["click", "1"]);
    app.settle(3)
}

#[test]
fn a_real_click_turns_rapier_on_its_outlines_and_divergence_plots_show_and_the_tick_seeks() {
    let _one = lock();
    let app = LiveApp::start("compare", &["scenes/bridge.ron"]);
    app.move_to(View::of(&app.state()).vp_center());
    app.key("space");
    let s = app.settle(2);
    assert_eq!(s["running"], false, "Space pauses");
    assert!(s["tools"]["compare"]["peers"].as_array().unwrap().is_empty(), "no peer runs at the start");
    assert!(widget(&s, "divergence_position").is_none(), "no divergence plot without a peer");
    // The section is closed until a peer runs: open it, then tick rapier2d.
    let header = widget(&s, "compare_header").expect("the Compare engines header is drawn");
    let s = click(&app, header, 0.3);
    let check = widget(&s, "compare_rapier").expect("the open section shows the rapier2d checkbox");
    let s = click(&app, check, 0.1);
    // The peer starts from the world as it is: its samples count from this step.
    let start = s["step"].as_u64().unwrap();
    let peers = s["tools"]["compare"]["peers"].as_array().unwrap().clone();
    assert_eq!(peers.len(), 1, "a real click turned one peer on: {}", s["tools"]["compare"]);
    assert_eq!(peers[0]["engine"], "rapier");
    let drawn = s["tools"]["compare"]["outlines_drawn"].as_u64().unwrap();
    assert!(drawn > 160, "rapier's planks and load are outlined: {drawn}");
    // Forty steps with the real key: the peer steps with ours, the plots appear.
    app.move_to(View::of(&s).vp_center());
    for _ in 0..40 {
        xdotool(&["key", "period"]);
    }
    let s = app.settle(4);
    let newest = s["step"].as_u64().unwrap();
    let run = &s["tools"]["compare"]["peers"][0];
    assert_eq!(run["steps"].as_u64(), Some(newest - start), "rapier stepped with ours: {run}");
    let plot = widget(&s, "divergence_position").expect("the position plot is on the timeline");
    let angle = widget(&s, "divergence_angle").expect("the angle plot is on the timeline");
    assert!(plot[2] > 100.0 && plot[3] > 20.0 && angle[2] > 100.0, "{plot:?} {angle:?}");
    let track = widget(&s, "timeline_track").expect("the timeline's track");
    assert!(plot[1] > track[1], "the plots sit under the timeline's track");
    // The bridge parts from rapier's within the first steps: its tick is clickable.
    let first = run["first_divergence"].as_u64().expect("rapier's bridge passes 1 cm within 40 steps");
    let origin = s["timeline"]["first"].as_u64().unwrap();
    let s = click(&app, plot, (first - origin) as f32 / (newest - origin) as f32);
    assert_eq!(s["step"].as_u64(), Some(first), "a click on the tick shows the first step past the tolerance");
    let run = &s["tools"]["compare"]["peers"][0];
    assert_eq!(run["steps"].as_u64(), Some(first - start), "the peer was re-simulated to the step shown");
}
