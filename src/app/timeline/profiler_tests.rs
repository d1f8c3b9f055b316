//! The Profiler through egui and the App's actions: the button opens it, its phases add up to
//! the step, and "Jump to slowest step" moves the timeline to the step with the largest time.

use super::super::TimelineAction as T;
use crate::app::state::{Action, App};
use crate::app::ui_tests::{find_text, Harness};
use manifold_lab::engine::timeline::Phase;
use std::path::Path;

fn app(scene: &str) -> App {
    App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join(scene)).expect("shipped scene loads")
}

#[test]
fn the_profiler_opens_shows_phases_and_jumps_to_the_slowest_step() {
    let mut a = app("scenes/rain.ron");
    for _ in 0..80 {
        a.apply(Action::Step);
    }
    let mut h = Harness::new();
    let actions = h.click(&a, "Profiler");
    assert!(actions.contains(&Action::Timeline(T::ShowProfiler(true))), "{actions:?}");
    for act in actions {
        a.apply(act);
    }
    assert!(a.timeline.profiler);
    // Windows lay themselves out in their first frame and show from the next.
    h.frame(&a, Vec::new());
    let (_, full) = h.frame(&a, Vec::new());
    for text in ["steps 1–80", "min", "median", "broadphase", "narrowphase"] {
        assert!(find_text(&full.shapes, text).is_some(), "{text} not shown");
    }

    // Each step's phases are parts of its time.
    let b = a.timeline.line.current_branch();
    for s in &b.stats()[1..] {
        let sum: f32 = s.phases.iter().sum();
        assert!(s.phases.iter().all(|&p| p >= 0.0));
        assert!(sum <= s.step_ms * 1.001 + 1e-3, "{:?} sum {sum} > {}", s.phases, s.step_ms);
    }
    assert!(b.stats()[1..].iter().any(|s| s.phases[Phase::Narrowphase as usize] > 0.0));
    // The slowest step, found independently of the profiler's summary.
    let (slowest, _) =
        b.stats()[1..]
            .iter()
            .enumerate()
            .fold((0, f32::MIN), |(k, m), (i, s)| if s.step_ms > m { (i + 1, s.step_ms) } else { (k, m) });

    let actions = h.click(&a, "Jump to slowest step");
    assert!(actions.contains(&Action::Timeline(T::JumpToSlowest)), "{actions:?}");
    for act in actions {
        a.apply(act);
    }
    assert_eq!(a.world.step_count, slowest as u64);
    assert_eq!(a.timeline.line.cursor(), slowest as u64);

    // Closing it from the window's cross goes through an action too; a new scene keeps it open.
    a.apply(Action::LoadScene(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pyramid.ron")));
    assert!(a.timeline.profiler);
    a.apply(Action::Timeline(T::ShowProfiler(false)));
    assert!(!a.timeline.profiler);
}
