//! The broadphase panel's sort-and-sweep view, through `App` actions and the real panels: a
//! recorded sweep finds the world's own sort-and-sweep pairs, its active list is the boxes the
//! sweep line crosses (checked against the boxes themselves), the slider clamps, and the view
//! goes away with the mode or the scene.

use crate::app::state::{Action, App};
use crate::app::tools::sweep::SweepAction;
use crate::app::tools::sweep::SweepTool;
use crate::app::ui_tests::{find_text, Harness};
use egui_macroquad::egui::{self, epaint};
use manifold_lab::engine::broadphase::{PairFinding, SweepStep, TreeSettings};
use manifold_lab::engine::debug::{DebugList, Layer, LayerSet};
use manifold_lab::engine::trace::Trace;
use std::path::Path;

fn pyramid_in_sweep_mode() -> App {
    let mut app = App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pyramid.ron")).unwrap();
    let settings = TreeSettings::default();
    app.apply(Action::SetBroadphase { mode: PairFinding::SortAndSweep, settings });
    app
}

#[test]
fn a_recorded_sweep_finds_the_worlds_pairs_with_the_right_active_lists() {
    let mut app = pyramid_in_sweep_mode();
    for _ in 0..30 {
        app.apply(Action::Step);
    }
    app.apply(Action::from(SweepAction::Record));
    let v = app.tool::<SweepTool>().view.as_ref().expect("recorded");
    let t = &v.trace;
    let n = app.world.bodies.len();
    assert_eq!(Trace::steps(t), n + 1, "the sort, then one step per box");
    assert_eq!(v.step, Some(0), "the view starts at the sort");
    // The same pairs as the world's sort-and-sweep broadphase found this step.
    let mut found = t.pairs_until(usize::MAX);
    found.sort_unstable();
    assert_eq!(found, app.world.broadphase.pairs());
    assert!(!found.is_empty());
    // The active list at each step: every box already reached whose interval still holds x.
    let SweepStep::Sorted { order } = &t.steps[0] else { panic!("the sort comes first") };
    for (k, step) in t.steps.iter().enumerate().skip(1) {
        let SweepStep::Sweep { index, x, active, .. } = step else { panic!("step {k}") };
        assert_eq!(order[k - 1], *index);
        let mut expected: Vec<u32> = order[..k].iter().copied().filter(|&j| t.aabbs[j as usize].max.x >= *x).collect();
        let mut got = active.clone();
        expected.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, expected, "step {k}");
        assert_eq!(active.last(), Some(index));
        assert_eq!(t.passed_endpoints(k), order[..k].len() + t.endpoints().iter().filter(|e| !e.2 && e.0 < *x).count());
    }
}

#[test]
fn the_slider_walks_and_clamps_and_draws_the_active_list() {
    let mut app = pyramid_in_sweep_mode();
    app.apply(Action::from(SweepAction::Record));
    app.apply(Action::from(SweepAction::SetStep(Some(10_000))));
    let v = app.tool::<SweepTool>().view.as_ref().unwrap();
    let last = Trace::steps(&v.trace) - 1;
    assert_eq!(v.step, Some(last));
    app.apply(Action::from(SweepAction::SetStep(Some(5))));
    let v = app.tool::<SweepTool>().view.as_ref().unwrap();
    assert_eq!(v.shown_step(), 5);
    let SweepStep::Sweep { active, tested, .. } = &v.trace.steps[5] else { panic!() };
    // What the view draws: every box, the axis and its 2n endpoint ticks, the active boxes
    // (outline and bar each), the sweep line and the swept box; the tested boxes.
    let mut d = DebugList::new(LayerSet::of(&[Layer::SweepAndPrune, Layer::TreeNode]));
    app.tool::<SweepTool>().draw_trace(&mut d);
    let n = app.world.bodies.len();
    assert_eq!(d.count(Layer::SweepAndPrune), 1 + 2 * n + 2 * active.len() + 2);
    assert_eq!(d.count(Layer::TreeNode), tested.len());
    app.apply(Action::from(SweepAction::SetStep(None)));
    assert_eq!(app.tool::<SweepTool>().view.as_ref().unwrap().shown_step(), last);
    app.apply(Action::from(SweepAction::Close));
    assert!(app.tool::<SweepTool>().view.is_none());
}

#[test]
fn the_view_needs_the_sweep_mode_and_leaves_with_it() {
    let mut app = pyramid_in_sweep_mode();
    app.apply(Action::from(SweepAction::Record));
    assert!(app.tool::<SweepTool>().view.is_some());
    app.apply(Action::SetBroadphase { mode: PairFinding::Tree, settings: TreeSettings::default() });
    assert!(app.tool::<SweepTool>().view.is_none());
    app.apply(Action::from(SweepAction::Record));
    assert!(app.tool::<SweepTool>().view.is_none());
    assert!(app.error.as_deref().unwrap().contains("sort and sweep"));
    let mut app = pyramid_in_sweep_mode();
    app.apply(Action::from(SweepAction::Record));
    app.apply(Action::Restart);
    assert!(app.tool::<SweepTool>().view.is_none());
}

#[test]
fn the_broadphase_panel_records_and_steps_the_sweep() {
    let mut app = pyramid_in_sweep_mode();
    let mut h = Harness::new();
    let record = h.click(&app, "Record a sweep");
    assert!(record.contains(&Action::from(SweepAction::Record)), "{record:?}");
    app.apply(Action::from(SweepAction::Record));
    // The ▶ of the sweep's own slider: the first one below its heading (the timeline has one too).
    let (_, full) = h.frame(&app, Vec::new());
    let heading = find_text(&full.shapes, "Sort and sweep, step by step").expect("the sweep section");
    let next = texts(&full.shapes, "▶").into_iter().filter(|p| p.y > heading.y).min_by(|a, b| a.y.total_cmp(&b.y));
    let next = next.expect("the slider's next button");
    let button = |pressed| egui::Event::PointerButton {
        pos: next,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    let mut actions = h.frame(&app, vec![egui::Event::PointerMoved(next)]).0;
    actions.extend(h.frame(&app, vec![button(true)]).0);
    actions.extend(h.frame(&app, vec![button(false)]).0);
    assert!(actions.contains(&Action::from(SweepAction::SetStep(Some(1)))), "{actions:?}");
    app.apply(Action::from(SweepAction::SetStep(Some(1))));
    let (_, full) = h.frame(&app, Vec::new());
    let laid_out = all_texts(&full.shapes);
    assert!(laid_out.iter().any(|t| t.starts_with("step 2 of 212: box 0 at x = ")), "{laid_out:?}");
    // The step's lists, below the fold: scrolled to (a click on a label does nothing).
    assert!(h.click(&app, "active: [").is_empty());
    assert!(h.click(&app, "sorted endpoints").is_empty());
}

/// Every text shape's text, visible or not.
fn all_texts(shapes: &[epaint::ClippedShape]) -> Vec<String> {
    fn walk(shape: &epaint::Shape, out: &mut Vec<String>) {
        match shape {
            epaint::Shape::Text(t) => out.push(t.galley.text().to_string()),
            epaint::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    shapes.iter().for_each(|c| walk(&c.shape, &mut out));
    out
}

/// The centres of every visible text shape reading exactly `text`.
fn texts(shapes: &[epaint::ClippedShape], text: &str) -> Vec<egui::Pos2> {
    fn walk(shape: &epaint::Shape, text: &str, clip: egui::Rect, out: &mut Vec<egui::Pos2>) {
        match shape {
            epaint::Shape::Text(t) if t.galley.text() == text => {
                let p = t.pos + t.galley.rect.center().to_vec2();
                if clip.contains(p) {
                    out.push(p);
                }
            }
            epaint::Shape::Vec(v) => v.iter().for_each(|s| walk(s, text, clip, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    shapes.iter().for_each(|c| walk(&c.shape, text, c.clip_rect, &mut out));
    out
}
