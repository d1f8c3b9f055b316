//! Every lab's and tool's panel driven through egui (the app's `Harness`): for each lab not covered by
//! `app::ui_tests`, a real widget of its panel is clicked, the actions the click made are
//! applied, and the lab's state shows the effect.

use super::hull::HullLab;
use super::hull3d::{AxisSort, Hull3dLab};
use super::slice::SliceLab;
use super::toi::ToiLab;
use super::tree::TreeLab;
use super::world3d::World3dLab;
use super::LabKind;
use crate::app::state::{Action, App};
use crate::app::ui_tests::Harness;
use manifold_lab::engine::collide::toi::ToiMethod;
use manifold_lab::engine::debug3::Layer3;
use manifold_lab::scene::Scene;

fn lab_app(kind: LabKind) -> App {
    let mut app = App::new(Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind, file: None });
    assert!(app.error.is_none(), "{kind:?}: {:?}", app.error);
    app
}

/// Clicks the widget showing `text` (exactly, or the first starting with it) and applies the
/// actions the click made; how many there were.
fn click(app: &mut App, text: &str, exact: bool) -> usize {
    let mut h = Harness::new();
    let actions = if exact { h.click_exact(app, text) } else { h.click(app, text) };
    let n = actions.len();
    for a in actions {
        app.apply(a);
    }
    assert!(app.error.is_none(), "{text}: {:?}", app.error);
    n
}

#[test]
fn the_tree_labs_insert_button_inserts_one_proxy() {
    let mut app = lab_app(LabKind::Tree);
    let before = app.lab_as::<TreeLab>().unwrap().proxies.count();
    assert_eq!(click(&mut app, "Insert one", true), 1);
    let lab = app.lab_as::<TreeLab>().unwrap();
    assert_eq!(lab.proxies.count(), before + 1);
    assert!(lab.insertion.is_some(), "the insertion is recorded for its walk");
}

#[test]
fn the_hull_labs_delete_last_button_removes_the_last_point() {
    let mut app = lab_app(LabKind::QuickHull);
    let points = app.lab_as::<HullLab>().unwrap().spec.points.clone();
    assert!(points.len() > 3);
    click(&mut app, "Delete last", true);
    assert_eq!(app.lab_as::<HullLab>().unwrap().spec.points, points[..points.len() - 1]);
}

#[test]
fn the_3d_hull_labs_sort_checkbox_sorts_the_axes() {
    let mut app = lab_app(LabKind::HullSat);
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().sort, AxisSort::TestOrder);
    click(&mut app, "sort by separation", true);
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().sort, AxisSort::Separation);
}

#[test]
fn the_3d_hull_labs_clip_stage_steps_through_the_clipping() {
    use super::hull3d::{act, Hull3dAction};
    use super::test_support::manifest;
    use manifold_lab::engine::trace::Trace3;
    let mut app = lab_app(LabKind::HullSat);
    app.apply(act(Hull3dAction::Load(manifest("scenes/hulls/cube_on_cube.ron"))));
    click(&mut app, "Step the clipping", true);
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().clip_step, Some(0));
    let steps = app.lab_as::<Hull3dLab>().unwrap().view.clip.steps();
    assert_eq!(steps, 12);
    // The stage's slider is the panels' first: its "next step" button walks every step.
    for k in 1..steps {
        click(&mut app, "▶", true);
        assert_eq!(app.lab_as::<Hull3dLab>().unwrap().clip_step, Some(k));
    }
    let mut h = Harness::new();
    let (_, full) = h.frame(&app, Vec::new());
    let texts = crate::app::ui_tests::all_texts(&full.shapes);
    let caption = "step 12 of 12: the manifold: 4 of 5 points kept (deepest, + triangle, farthest, - triangle)";
    assert!(texts.iter().any(|t| t == caption), "{texts:?}");
    assert!(texts.iter().any(|t| t == "the manifold: 4"), "the points listed");
    click(&mut app, "Step the clipping", true);
    assert_eq!(app.lab_as::<Hull3dLab>().unwrap().clip_step, None);
}

#[test]
fn the_toi_labs_method_radio_switches_the_method_and_reruns() {
    let mut app = lab_app(LabKind::Toi);
    let lab = app.lab_as::<ToiLab>().unwrap();
    let target = ToiMethod::ALL.into_iter().find(|&m| m != lab.method()).unwrap();
    click(&mut app, target.label(), true);
    let lab = app.lab_as::<ToiLab>().unwrap();
    assert_eq!(lab.method(), target);
    assert_eq!(lab.trace.method, Some(target), "the trace is the chosen method's");
}

#[test]
fn the_slice_labs_edge_rows_select_a_step() {
    let mut app = lab_app(LabKind::Slice);
    assert!(app.lab_as::<SliceLab>().unwrap().step != Some(0));
    click(&mut app, "1. v0 → v1", false);
    assert_eq!(app.lab_as::<SliceLab>().unwrap().step, Some(0));
}

#[test]
fn the_3d_world_labs_layer_checkbox_switches_its_layer() {
    let mut app = lab_app(LabKind::World3d);
    let layer = Layer3::WORLD[0];
    let on = app.lab_as::<World3dLab>().unwrap().layers.contains(layer);
    click(&mut app, layer.label(), true);
    assert_eq!(app.lab_as::<World3dLab>().unwrap().layers.contains(layer), !on);
}

#[test]
fn the_3d_world_labs_solver_section_switches_the_sat_mode_and_its_cache() {
    use manifold_lab::engine::world3d::SatChoice;
    let mut app = lab_app(LabKind::World3d);
    let params = |app: &App| app.lab_as::<World3dLab>().unwrap().world.params.clone();
    assert_eq!((params(&app).sat, params(&app).sat_cache), (SatChoice::Fast, true));
    // One harness throughout: the section opened by the first click stays open.
    let mut h = Harness::new();
    let mut click = |app: &mut App, text: &str| {
        let actions = h.click(app, text);
        let n = actions.len();
        actions.into_iter().for_each(|a| app.apply(a));
        assert!(app.error.is_none(), "{text}: {:?}", app.error);
        n
    };
    assert_eq!(click(&mut app, "Solver"), 0, "the section opens");
    assert_eq!(click(&mut app, "Robust"), 1);
    assert_eq!(params(&app).sat, SatChoice::Robust, "the robust SAT is one click away");
    click(&mut app, "SAT cache");
    assert!(!params(&app).sat_cache);
    click(&mut app, "Defaults");
    assert_eq!(params(&app), Default::default());
}

/// The tools' panels, clicked the same way in the scene.
mod tools {
    use super::click;
    use crate::app::state::App;
    use std::path::Path;

    fn scene_app() -> App {
        App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vertical_stack.ron")).unwrap()
    }

    #[test]
    fn the_compare_checkbox_runs_box2d_beside_ours_and_its_numbers_appear() {
        use crate::app::tools::compare::CompareTool;
        use manifold_lab::peers::Engine;
        let mut app = scene_app();
        // One harness, so the section opened by the first click is open for the second.
        let mut h = crate::app::ui_tests::Harness::new();
        assert!(h.click_exact(&app, "Compare engines").is_empty(), "opening the section is not an action");
        for a in h.click_exact(&app, "Box2D v3") {
            app.apply(a);
        }
        assert!(app.tool::<CompareTool>().running(Engine::Box2d).is_some());
        app.step_once();
        let texts = crate::app::ui_tests::Harness::new().hover(&app, "ours");
        assert!(
            texts.iter().any(|t| t.starts_with("cont.: touching contacts; Δ: largest distance")),
            "the numbers are shown: {texts:?}"
        );
        click(&mut app, "Box2D v3", true);
        assert!(app.tool::<CompareTool>().runs.is_empty());
    }

    #[test]
    fn the_shape_cast_button_switches_the_shape_cast_tool() {
        use crate::app::tools::shape_cast::ShapeCastTool;
        let mut app = scene_app();
        assert!(!app.tool::<ShapeCastTool>().on);
        click(&mut app, "🔵 Shape cast", false);
        assert!(app.tool::<ShapeCastTool>().on);
        click(&mut app, "🔵 Shape cast: on", true);
        assert!(!app.tool::<ShapeCastTool>().on);
    }

    #[test]
    fn the_ray_button_switches_the_ray_tool() {
        use crate::app::tools::ray::RayTool;
        let mut app = scene_app();
        assert!(!app.tool::<RayTool>().on);
        click(&mut app, "🔍 Ray", false);
        assert!(app.tool::<RayTool>().on);
        click(&mut app, "🔍 Ray: on", true);
        assert!(!app.tool::<RayTool>().on);
    }

    #[test]
    fn the_ruler_button_switches_the_ruler_and_clear_clears_its_line() {
        use crate::app::tools::ruler::{Ruler, RulerAction};
        let mut app = scene_app();
        click(&mut app, "📏 Ruler", false);
        assert!(app.tool::<Ruler>().on);
        app.apply(RulerAction::Measure { from: glam::Vec2::ZERO, to: glam::Vec2::new(3.0, 4.0) }.into());
        click(&mut app, "Clear ruler", true);
        assert_eq!(app.tool::<Ruler>().line, None);
    }

    #[test]
    fn the_sweep_views_record_button_records_a_pass() {
        use crate::app::state::Action;
        use crate::app::tools::sweep::SweepTool;
        use manifold_lab::engine::broadphase::PairFinding;
        let mut app = scene_app();
        let settings = manifold_lab::engine::broadphase::TreeSettings::default();
        app.apply(Action::SetBroadphase { mode: PairFinding::SortAndSweep, settings });
        assert!(app.tool::<SweepTool>().view.is_none());
        click(&mut app, "Record a sweep", true);
        assert!(app.tool::<SweepTool>().view.as_ref().is_some_and(|v| v.pairs > 0));
    }

    #[test]
    fn the_sleep_checkbox_switches_island_sleep() {
        let mut app = scene_app();
        let sleep = app.world.params.sleep;
        click(&mut app, "islands sleep", false);
        assert_eq!(app.world.params.sleep, !sleep);
    }
}

#[test]
fn renamed_labs_keep_their_old_names_on_the_command_line_and_in_scripts() {
    use clap::ValueEnum;
    for (name, kind) in [
        ("hull-sat", LabKind::HullSat),
        ("hull3d", LabKind::HullSat),
        ("quick-hull", LabKind::QuickHull),
        ("hull", LabKind::QuickHull),
    ] {
        assert_eq!(LabKind::from_str(name, false), Ok(kind), "--lab {name}");
    }
    assert_eq!(ron::from_str::<LabKind>("Hull3d").unwrap(), LabKind::HullSat);
    assert_eq!(ron::from_str::<LabKind>("Hull").unwrap(), LabKind::QuickHull);
    let old: Action = ron::from_str("Lab(Hull3d(SortAxes(Separation)))").unwrap();
    let new: Action = ron::from_str("Lab(HullSat(SortAxes(Separation)))").unwrap();
    assert_eq!(old, new);
}

/// Every lab reports its stepping state (`lab_state`'s `steps`, `step`): the trace labs have
/// more than one step on their default preset, and stepping to 1 shows step 1 with its caption.
#[test]
fn every_lab_reports_its_step_count_and_step() {
    for &kind in super::LABS {
        let app = lab_app(kind);
        let state = app.lab.as_ref().and_then(|l| l.report(&app.stage)).unwrap_or_else(|| panic!("{kind:?}"));
        let (steps, step) = (state["steps"].as_u64(), state["step"].as_u64());
        assert!(steps.is_some() && step.is_some(), "{kind:?}: {state}");
        let traced = !matches!(kind, LabKind::Tree | LabKind::World3d);
        assert!(!traced || steps.unwrap() > 1, "{kind:?} has {steps:?} steps");
    }
    let mut app = lab_app(LabKind::Manifold);
    app.apply(super::manifold::act(super::manifold::ManifoldAction::SetStage(1)));
    let state = app.lab.as_ref().and_then(|l| l.report(&app.stage)).unwrap();
    assert_eq!(state["step"], 1);
    assert!(state["caption"].as_str().is_some_and(|c| !c.is_empty()), "{state}");
    let mut app = lab_app(LabKind::Minkowski);
    app.apply(Action::Lab(super::LabAction::Minkowski(super::minkowski::MinkowskiAction::SetStep(Some(0)))));
    let state = app.lab.as_ref().and_then(|l| l.report(&app.stage)).unwrap();
    assert_eq!(state["step"], 0, "{state}");
}

/// The "Box2D v3 and parry2d" checkbox of the time-of-impact and Minkowski labs turns the
/// peers' overlay on.
#[cfg(feature = "peers")]
#[test]
fn the_toi_and_minkowski_labs_peer_checkboxes_show_the_peers() {
    let mut app = lab_app(LabKind::Toi);
    assert!(!app.lab_as::<ToiLab>().unwrap().peers);
    assert_eq!(click(&mut app, "Box2D v3 and parry2d", true), 1);
    assert!(app.lab_as::<ToiLab>().unwrap().peers);
    let mut app = lab_app(LabKind::Minkowski);
    assert_eq!(click(&mut app, "Box2D v3 and parry2d", true), 1);
    assert!(app.lab_as::<super::minkowski::MinkowskiLab>().unwrap().peers);
}
