//! The status bar's graph counts, the Graph colours layer's checkbox and the threads slider,
//! through the app and its egui panels (see `ui_tests` for the harness).

use crate::app::state::{Action, App};
use crate::app::tools::solver_graph::graph_status;
use crate::app::ui_tests::{find_text, Harness};
use manifold_lab::engine::debug::Layer;
use manifold_lab::engine::solver::lanes::avx2_detected;
use manifold_lab::engine::solver::PositionCorrection;
use std::path::Path;

fn pyramid() -> App {
    App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pyramid.ron")).unwrap()
}

#[test]
fn the_status_bar_counts_colours_and_overflow() {
    let mut app = pyramid();
    app.apply(Action::Pause);
    app.apply(Action::Step);
    app.apply(Action::Step);
    let (colors, overflow) = (app.world.profile.colors, app.world.profile.overflow);
    assert!(colors >= 2, "a pyramid needs several colours, got {colors}");
    let text = format!("{colors} colours, {overflow} overflow");
    assert_eq!(graph_status(&app.world).as_deref(), Some(text.as_str()));
    let mut h = Harness::new();
    h.frame(&app, Vec::new());
    let (_, full) = h.frame(&app, Vec::new());
    assert!(find_text(&full.shapes, &text).is_some(), "status bar shows {text:?}");
    // The article's projection solves contacts one by one: no colours to report.
    let mut p = app.world.params.clone();
    p.position_correction = PositionCorrection::Projection;
    app.apply(Action::SetParams(p));
    app.apply(Action::Step);
    assert_eq!(graph_status(&app.world), None);
    let (_, full) = h.frame(&app, Vec::new());
    assert!(find_text(&full.shapes, "colours,").is_none());
}

#[test]
fn the_layer_checkbox_and_the_threads_setting_reach_the_world() {
    let mut app = pyramid();
    app.apply(Action::Pause);
    let mut h = Harness::new();
    let on = h.click(&app, "Graph colours");
    assert!(on.contains(&Action::SetLayer(Layer::GraphColor, true)), "{on:?}");
    for a in on {
        app.apply(a);
    }
    assert!(app.layers.contains(Layer::GraphColor));
    // The Solver panel shows the slider; setting 3 threads changes nothing in the result.
    // (Scrolled to as a user would; clicking its label changes nothing.)
    let mut h = Harness::new();
    let none = h.click(&app, "threads");
    assert!(none.iter().all(|a| !matches!(a, Action::SetParams(_))), "{none:?}");
    let mut other = pyramid();
    let mut p = app.world.params.clone();
    p.threads = 3;
    app.apply(Action::SetParams(p));
    assert_eq!(app.world.params.threads, 3);
    other.apply(Action::Pause);
    for _ in 0..20 {
        app.apply(Action::Step);
        other.apply(Action::Step);
    }
    assert_eq!(app.world.state_hash(), other.world.state_hash());
    // The AVX2 checkbox sits below it; where the processor has AVX2, clicking it asks for
    // SSE2 lanes, with again the same result (elsewhere it is greyed out and does nothing).
    let mut h = Harness::new();
    let click = h.click(&app, "AVX2 lanes");
    let asked: Vec<_> =
        click.iter().filter_map(|a| if let Action::SetParams(p) = a { Some(p.avx2) } else { None }).collect();
    if avx2_detected() {
        assert_eq!(asked, [false], "{click:?}");
    } else {
        assert!(asked.is_empty(), "{click:?}");
    }
    let mut p = app.world.params.clone();
    p.avx2 = false;
    app.apply(Action::SetParams(p));
    for _ in 0..20 {
        app.apply(Action::Step);
        other.apply(Action::Step);
    }
    assert_eq!(app.world.state_hash(), other.world.state_hash());
}
