//! The Compare tool on a scene: peers step with ours, jumps re-simulate them, a restart
//! starts them again.

use super::{CompareAction, CompareTool, PeerEngine};
use crate::app::lab::test_support::manifest;
use crate::app::state::{Action, App};
use crate::app::timeline::TimelineAction;
use crate::app::tools::Tool;
use manifold_lab::peers::Engine;

fn app(file: &str) -> App {
    let scene = manifold_lab::scene::load(&manifest(file)).unwrap();
    App::new(scene, None)
}

#[test]
fn peers_step_with_ours_and_a_jump_resimulates_them() {
    let mut app = app("scenes/pyramid.ron");
    app.apply(CompareAction::SetPeer(PeerEngine::Box2d, true).into());
    app.apply(CompareAction::SetPeer(PeerEngine::Rapier, true).into());
    for _ in 0..40 {
        app.step_once();
    }
    let tool = app.tool::<CompareTool>();
    assert_eq!(tool.runs.len(), 2);
    let box2d = tool.running(Engine::Box2d).unwrap();
    assert_eq!(box2d.samples.len(), 40);
    let at_20 = box2d.samples[19];
    assert!(at_20.max < 0.01, "Box2D's pyramid stays with ours: {at_20:?}");
    // Back to step 20: the peers are stepped again from the start to it, the same numbers.
    app.apply(Action::Timeline(TimelineAction::Seek(20)));
    let box2d = app.tool::<CompareTool>().running(Engine::Box2d).unwrap();
    assert_eq!(box2d.samples.len(), 20);
    assert_eq!(box2d.samples[19], at_20);
    // A restart starts them again.
    app.apply(Action::Restart);
    assert!(app.tool::<CompareTool>().runs.iter().all(|r| r.samples.is_empty()));
    app.apply(CompareAction::SetPeer(PeerEngine::Rapier, false).into());
    assert!(app.tool::<CompareTool>().running(Engine::Rapier).is_none());
}

#[test]
fn the_report_lists_each_peer_and_what_it_skipped() {
    let mut app = app("scenes/buoyancy.ron");
    app.apply(CompareAction::SetPeer(PeerEngine::Box2d, true).into());
    app.step_once();
    let r = app.tool::<CompareTool>().report(&app.tool_view()).unwrap();
    assert_eq!(r["peers"][0]["engine"], "box2d");
    assert_eq!(r["peers"][0]["steps"], 1);
    assert!(r["peers"][0]["skipped"][0].as_str().unwrap().contains("water"), "{r}");
}
