//! The panels driven through egui itself: a headless `egui::Context` gets synthetic pointer
//! events that click real widgets, found by their text in egui's output, and the test checks
//! the actions the click produced. Also a lab written in a test: one type and nothing else
//! makes it draw, take the pointer and react to the app's actions.

use super::lab::{Lab, LabKind};
use super::panels::{self, UiState};
use super::state::{Action, App};
use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::tools::slice::SliceAction;
use egui_macroquad::egui::{self, epaint, Event, Pos2, RawInput};
use manifold_lab::engine::debug::{DebugDraw, DebugList, DrawCmd, Layer, LayerSet};
use std::path::Path;

/// A headless egui with the app's panels.
pub(super) struct Harness {
    ctx: egui::Context,
    files: UiState,
    time: f64,
}

impl Harness {
    pub(super) fn new() -> Harness {
        let ctx = egui::Context::default();
        panels::style(&ctx, 720.0);
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        Harness { ctx, files: UiState::new(&dir.to_string_lossy()), time: 0.0 }
    }

    /// One frame of the panels with these input events: the actions and egui's output.
    pub(super) fn frame(&mut self, app: &App, events: Vec<Event>) -> (Vec<Action>, egui::FullOutput) {
        self.time += 1.0 / 60.0;
        let input = RawInput {
            screen_rect: Some(egui::Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 720.0))),
            events,
            time: Some(self.time),
            ..Default::default()
        };
        let mut out = Vec::new();
        let files = &mut self.files;
        let full = self.ctx.run(input, |ctx| {
            panels::build(ctx, app, files, &mut out);
        });
        (out, full)
    }

    /// Clicks the widget showing `text` (the first whose text starts with it) and returns
    /// the actions of the frames of the click.
    pub(super) fn click(&mut self, app: &App, text: &str) -> Vec<Action> {
        // Two frames to lay out (some containers size themselves in a first pass).
        self.frame(app, Vec::new());
        let (_, mut full) = self.frame(app, Vec::new());
        // Below the fold: scroll the controls panel with the wheel, as a user would.
        for _ in 0..30 {
            if find_text(&full.shapes, text).is_some() {
                break;
            }
            let wheel = Event::MouseWheel {
                unit: egui::MouseWheelUnit::Point,
                delta: egui::vec2(0.0, -60.0),
                modifiers: Default::default(),
            };
            self.frame(app, vec![Event::PointerMoved(Pos2::new(140.0, 400.0)), wheel]);
            // Let the smooth scroll come to rest.
            for _ in 0..10 {
                full = self.frame(app, Vec::new()).1;
            }
        }
        let pos = find_text(&full.shapes, text).unwrap_or_else(|| panic!("no widget shows {text:?}"));
        let button = |pressed| Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        };
        let mut actions = self.frame(app, vec![Event::PointerMoved(pos)]).0;
        actions.extend(self.frame(app, vec![button(true)]).0);
        actions.extend(self.frame(app, vec![button(false)]).0);
        actions
    }
}

impl Harness {
    /// Where the panels last drew the widget `name` (`panels::note`), in points (the harness
    /// draws at one pixel per point).
    pub(super) fn widget(&mut self, app: &App, name: &str) -> egui::Rect {
        self.frame(app, Vec::new());
        self.frame(app, Vec::new());
        *self.files.widgets.get(name).unwrap_or_else(|| panic!("no widget {name} noted"))
    }

    /// A quick click at `pos`, as X delivers one: the pointer moved there, then pressed and
    /// released within one frame. The actions it made.
    pub(super) fn click_at(&mut self, app: &App, pos: Pos2) -> Vec<Action> {
        let mut actions = self.frame(app, vec![Event::PointerMoved(pos)]).0;
        actions.extend(self.frame(app, vec![button(pos, true), button(pos, false)]).0);
        actions
    }

    /// A left drag from `from` to `to`, a frame for each event: the actions it made.
    pub(super) fn drag(&mut self, app: &App, from: Pos2, to: Pos2) -> Vec<Action> {
        let mut actions = self.frame(app, vec![Event::PointerMoved(from)]).0;
        actions.extend(self.frame(app, vec![button(from, true)]).0);
        for k in 1..=4 {
            actions.extend(self.frame(app, vec![Event::PointerMoved(from.lerp(to, k as f32 / 4.0))]).0);
        }
        actions.extend(self.frame(app, vec![button(to, false)]).0);
        actions
    }

    /// Where the widget showing exactly `text` is.
    fn exact(&mut self, app: &App, text: &str) -> Pos2 {
        self.frame(app, Vec::new());
        let (_, full) = self.frame(app, Vec::new());
        find_exact(&full.shapes, text).unwrap_or_else(|| panic!("no widget shows {text:?}"))
    }

    /// A quick click on the widget showing exactly `text`: the actions it made.
    pub(super) fn click_exact(&mut self, app: &App, text: &str) -> Vec<Action> {
        let pos = self.exact(app, text);
        self.click_at(app, pos)
    }

    /// Rests the pointer on the widget showing exactly `text` until its tooltip shows: every
    /// text then drawn (the tooltip's among them).
    pub(super) fn hover(&mut self, app: &App, text: &str) -> Vec<String> {
        self.ctx.style_mut(|s| s.interaction.tooltip_delay = 0.0);
        let pos = self.exact(app, text);
        // Moved onto it: a widget clicked since the pointer last moved shows no tooltip.
        self.frame(app, vec![Event::PointerMoved(pos + egui::vec2(2.0, 1.0))]);
        self.frame(app, vec![Event::PointerMoved(pos)]);
        let mut full = self.frame(app, Vec::new()).1;
        for _ in 0..5 {
            full = self.frame(app, Vec::new()).1;
        }
        // The pointer leaves, and the tooltip with it.
        for _ in 0..3 {
            self.frame(app, vec![Event::PointerGone]);
        }
        all_texts(&full.shapes)
    }
}

/// The primary button pressed or released at `pos`.
fn button(pos: Pos2, pressed: bool) -> Event {
    Event::PointerButton { pos, button: egui::PointerButton::Primary, pressed, modifiers: Default::default() }
}

/// The centre of the first visible text shape showing exactly `text`.
fn find_exact(shapes: &[epaint::ClippedShape], text: &str) -> Option<Pos2> {
    fn walk(shape: &epaint::Shape, text: &str, clip: egui::Rect) -> Option<Pos2> {
        match shape {
            epaint::Shape::Text(t) if t.galley.text() == text => {
                Some(t.pos + t.galley.rect.center().to_vec2()).filter(|p| clip.contains(*p))
            }
            epaint::Shape::Vec(v) => v.iter().find_map(|s| walk(s, text, clip)),
            _ => None,
        }
    }
    shapes.iter().find_map(|c| walk(&c.shape, text, c.clip_rect))
}

/// Every text shape's text.
pub(super) fn all_texts(shapes: &[epaint::ClippedShape]) -> Vec<String> {
    fn walk(shape: &epaint::Shape, out: &mut Vec<String>) {
        match shape {
            epaint::Shape::Text(t) => out.push(t.galley.text().to_owned()),
            epaint::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    shapes.iter().for_each(|c| walk(&c.shape, &mut out));
    out
}

/// The centre of the first visible text shape (inside its clip rectangle) whose text starts
/// with `text`.
pub(super) fn find_text(shapes: &[epaint::ClippedShape], text: &str) -> Option<Pos2> {
    fn walk(shape: &epaint::Shape, text: &str, clip: egui::Rect) -> Option<Pos2> {
        match shape {
            epaint::Shape::Text(t) if t.galley.text().starts_with(text) => {
                Some(t.pos + t.galley.rect.center().to_vec2()).filter(|p| clip.contains(*p))
            }
            epaint::Shape::Vec(v) => v.iter().find_map(|s| walk(s, text, clip)),
            _ => None,
        }
    }
    shapes.iter().find_map(|c| walk(&c.shape, text, c.clip_rect))
}

fn stack_app() -> App {
    App::from_path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/vertical_stack.ron")).unwrap()
}

#[test]
fn clicking_real_widgets_makes_their_actions() {
    let app = stack_app();
    let mut h = Harness::new();
    assert!(h.click(&app, "Step").contains(&Action::Step));
    assert!(h.click(&app, "Restart").contains(&Action::Restart));
    let open = h.click(&app, "Manifold (SAT");
    assert!(open.contains(&Action::OpenLab { kind: LabKind::Manifold, file: None }), "{open:?}");
    let layer = h.click(&app, "AABBs");
    assert!(layer.contains(&Action::SetLayer(Layer::Aabb, true)), "{layer:?}");
    // A click on empty panel space does nothing.
    let (_, full) = h.frame(&app, Vec::new());
    assert!(find_text(&full.shapes, "no such widget").is_none());
}

#[test]
fn lab_panels_emit_the_labs_own_actions() {
    use super::lab::manifold::{act, ManifoldAction, LAST_STAGE};
    use super::lab::minkowski::{self, MinkowskiAction};
    use manifold_lab::engine::collide::polygon::ReferenceFaceRule;
    let mut app = stack_app();
    app.apply(Action::OpenLab { kind: LabKind::Manifold, file: None });
    let mut h = Harness::new();
    assert!(h.click(&app, "◀").contains(&act(ManifoldAction::SetStage(LAST_STAGE - 1))));
    let relative = act(ManifoldAction::SetRule(ReferenceFaceRule::Relative));
    assert!(h.click(&app, ReferenceFaceRule::Relative.label()).contains(&relative));
    assert!(h.click(&app, "Back to the scene").contains(&Action::CloseLab));
    app.apply(Action::OpenLab { kind: LabKind::Minkowski, file: None });
    let mut h = Harness::new();
    assert!(h.click(&app, "Play the steps").contains(&minkowski::act(MinkowskiAction::Play(true))));
    assert!(h.click(&app, "Rotation sweep").contains(&minkowski::act(MinkowskiAction::RunSweep)));
}

/// A lab in one type: a ruler from the origin to the last point clicked.
struct RulerLab {
    end: glam::Vec2,
    restarted: bool,
}

impl Lab for RulerLab {
    fn kind(&self) -> LabKind {
        LabKind::Manifold
    }
    fn intercept(&mut self, _app: &mut crate::app::stage::Stage, action: &Action) -> bool {
        self.restarted |= *action == Action::Restart;
        *action == Action::Restart
    }
    fn controls(
        &self,
        ui: &mut egui::Ui,
        _app: &crate::app::stage::Stage,
        _files: &mut UiState,
        _out: &mut Vec<Action>,
    ) {
        ui.label(format!("length {:.2}", self.end.length()));
    }
    fn details(&self, _ui: &mut egui::Ui, _app: &crate::app::stage::Stage, _out: &mut Vec<Action>) {}
    fn draw(&self, _app: &crate::app::stage::Stage, d: &mut dyn DebugDraw) {
        d.segment(Layer::Motion, glam::Vec2::ZERO, self.end, manifold_lab::engine::debug::palette::TEXT);
    }
    fn pointer(&mut self, app: &crate::app::stage::Stage, f: &PointerFrame, _over_ui: bool) -> Option<Vec<Action>> {
        f.left_pressed.then(|| {
            self.end = app.camera.screen_to_world(&app.viewport, f.pos);
            Vec::new()
        })
    }
}

#[test]
fn a_lab_is_one_type() {
    let mut app = stack_app();
    app.enter_lab(Box::new(RulerLab { end: glam::Vec2::ZERO, restarted: false }));
    let bodies = app.world.bodies.len();
    // The pointer goes to the lab, not to the ordinary gestures.
    let at = app.camera.world_to_screen(&app.viewport, glam::Vec2::new(3.0, 4.0));
    let press = PointerFrame { pos: at, left_pressed: true, left_down: true, ..Default::default() };
    let actions = pointer_actions(&mut app, &mut InputState::default(), &press, false);
    assert!(actions.is_empty() && app.selection.is_empty());
    let ruler = app.lab_as::<RulerLab>().unwrap();
    assert!((ruler.end - glam::Vec2::new(3.0, 4.0)).length() < 0.05);
    // It draws through `DebugDraw`, and takes the app's Restart for itself.
    let mut list = DebugList::new(LayerSet::ALL);
    app.lab.as_ref().unwrap().draw(&app, &mut list);
    assert!(matches!(list.cmds[..], [DrawCmd::Segment { layer: Layer::Motion, .. }]));
    app.apply(Action::Restart);
    assert!(app.lab_as::<RulerLab>().unwrap().restarted);
    assert_eq!(app.world.bodies.len(), bodies);
    // Its panel is shown by the app's panels.
    let mut h = Harness::new();
    let (_, full) = h.frame(&app, Vec::new());
    assert!(find_text(&full.shapes, "length 5.0").is_some());
}

#[test]
fn the_slice_button_the_water_section_and_a_floating_body() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/buoyancy.ron");
    let mut app = App::from_path(&path).unwrap();
    let mut h = Harness::new();
    assert!(h.click(&app, "✂ Slice").contains(&Action::from(SliceAction::Toggle)));
    assert!(h.click(&app, "Remove water").contains(&Action::SetWater(None)));
    // A body settled in the water: its submerged part appears under its properties.
    for _ in 0..60 {
        app.step_once();
    }
    app.apply(Action::SelectNamed("half_density_box".into()));
    let fraction = 100.0 * app.world.buoyancy(app.selection[0]).expect("it floats").fraction;
    let (_, full) = h.frame(&app, Vec::new());
    assert!(find_text(&full.shapes, "In the water").is_some());
    assert!(find_text(&full.shapes, &format!("{fraction:.1} %")).is_some(), "the fraction {fraction:.1} % is shown");
}

#[test]
fn slow_steps_the_pair_limit_and_unsolved_pile_contacts_are_flagged_in_the_status_bar() {
    let mut app = stack_app();
    let mut h = Harness::new();
    let shown = |h: &mut Harness, app: &App, text: &str| {
        h.frame(app, Vec::new());
        find_text(&h.frame(app, Vec::new()).1.shapes, text).is_some()
    };
    app.step_ms = vec![2.0; 10];
    assert!(shown(&mut h, &app, "step 2.00 ms") && !shown(&mut h, &app, "⚠ step"));
    app.step_ms = vec![450.0; 10];
    assert!(shown(&mut h, &app, "⚠ step 450 ms"), "a step of 450 ms is flagged");
    assert!(!shown(&mut h, &app, "⚠ pair limit"));
    app.world.broadphase.stats.deferred = 3;
    assert!(shown(&mut h, &app, "⚠ pair limit"), "the pair limit is flagged");
    assert!(!shown(&mut h, &app, "pile contacts unsolved"));
    app.world.profile.capped = 1200;
    assert!(shown(&mut h, &app, "⚠ 1200 pile contacts unsolved"), "capped contacts are flagged");
}

#[test]
fn a_motion_layer_and_its_scale_from_the_layers_panel() {
    use manifold_lab::engine::debug::MotionScales;
    let mut app = stack_app();
    let mut h = Harness::new();
    assert!(!app.layers.contains(Layer::Velocity), "off at first");
    let on = h.click(&app, "Velocity arrows");
    assert!(on.contains(&Action::SetLayer(Layer::Velocity, true)), "{on:?}");
    on.into_iter().for_each(|a| app.apply(a));
    assert!(app.layers.contains(Layer::Velocity));
    // The left end of the force scale's rail is its smallest value; the velocity scale keeps
    // its own. (Scrolled to it first: clicking its label changes nothing.)
    assert!(h.click(&app, "force m/N").is_empty());
    let rail = h.widget(&app, "motion_force_scale");
    // Dragged from the middle of the rail to its left end.
    let acts = h.drag(&app, rail.center() - egui::vec2(30.0, 0.0), rail.left_center());
    let set = acts.iter().rev().find_map(|a| match a {
        Action::SetMotionScales { force, velocity } => Some((*force, *velocity)),
        _ => None,
    });
    let (force, velocity) = set.unwrap_or_else(|| panic!("no scale set at {rail:?}: {acts:?}"));
    assert_eq!((force, velocity), (MotionScales::FORCE_RANGE.0, MotionScales::default().velocity));
    app.apply(Action::SetMotionScales { force, velocity });
    assert_eq!(app.motion_scales.force, MotionScales::FORCE_RANGE.0);
    // Out of range or not a number: clamped, or the old value kept.
    app.apply(Action::SetMotionScales { force: 1e9, velocity: f32::NAN });
    assert_eq!(app.motion_scales, MotionScales { force: MotionScales::FORCE_RANGE.1, velocity });
}
