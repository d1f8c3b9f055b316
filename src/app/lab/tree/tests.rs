//! The tree lab's insertion stepping through its actions: "insert one" and "move one" record a
//! trace whose chosen sibling was visited, the tree stays valid, the slider's step draws the
//! candidates with their costs.

use super::{act, TreeAction, TreeLab};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App, RunMode};
use manifold_lab::engine::broadphase::{Balancing, InsertionStrategy, TreeSettings, TreeStep};
use manifold_lab::engine::debug::{DebugList, Layer, LayerSet};
use manifold_lab::scene;

fn lab(app: &App) -> &TreeLab {
    app.lab_as::<TreeLab>().expect("the tree lab is open")
}

#[test]
fn insert_one_and_move_one_record_a_valid_insertion() {
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind: LabKind::Tree, file: None });
    let settings = TreeSettings {
        insertion: InsertionStrategy::BranchAndBound,
        balancing: Balancing::SahRotation,
        ..TreeSettings::default()
    };
    app.apply(act(TreeAction::Spawn { count: 300, settings }));
    for action in [TreeAction::InsertOne, TreeAction::MoveOne, TreeAction::InsertOne, TreeAction::MoveOne] {
        let moving = action == TreeAction::MoveOne;
        app.apply(act(action));
        assert_eq!(app.mode, RunMode::Paused);
        let l = lab(&app);
        l.proxies.tree.validate().unwrap();
        let ins = l.insertion.as_ref().expect("a recorded insertion");
        let t = &ins.trace;
        assert_eq!(matches!(t.steps[0], TreeStep::Removed { .. }), moving, "{}", ins.what);
        let (chosen, cost) = t.chosen().expect("a sibling was chosen");
        let min = t.candidates().map(|c| c.1).fold(f32::MAX, f32::min);
        assert!(t.candidates().any(|c| c.0 == chosen) && cost <= min + 1e-3 * min.max(1.0));
    }
    assert_eq!(lab(&app).proxies.count(), 302);
    // The candidate step draws the candidates with their costs beside them.
    app.apply(act(TreeAction::SetInsertStep(Some(3))));
    let mut d = DebugList::new(LayerSet::ALL);
    crate::app::lab::Lab::draw(lab(&app), &app, &mut d);
    assert!(d.count(Layer::TreeNode) > 0 && d.count(Layer::Label) > 0);
    // Respawning forgets the recorded insertion (its node ids are gone).
    app.apply(act(TreeAction::Spawn { count: 50, settings }));
    assert!(lab(&app).insertion.is_none());
    app.apply(act(TreeAction::SetInsertStep(Some(1))));
}
