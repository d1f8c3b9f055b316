//! The app's tools, built like the labs: one folder per tool with one type implementing
//! [`Tool`] (what the app asks of every tool: the pointer, drawing, panels, report) and
//! [`ToolType`] (its own actions, nested in `Action::Tool`), registered in the table at the
//! bottom of this file. A tool sees the app through a narrow view ([`ToolView`]) and changes
//! it through a narrow context ([`ToolContext`]), never the whole `App`: adding a tool is a
//! folder and a line in the table.
//!
//! The tools: the ray tool casts rays through the world; the shape-cast tool moves a shape
//! along a path to its first hit; the slice tool cuts bodies with a knife line; the ruler
//! measures lengths and angles; the contact inspector decodes and pins contact points; the
//! time-of-impact events open in the TOI lab; the sweep view walks the broadphase's sweep and
//! prune; water shows the buoyancy arrows at a scale; compare runs Box2D v3 and rapier2d
//! beside ours. Panel sections
//! that hold no state of their own (sleep, the solver graph, the joint editor, the Tools and
//! Water sections' controls) sit beside them as plain functions.

pub mod compare;
pub mod inspector;
pub mod joints;
pub mod panel;
pub mod ray;
pub mod ruler;
pub mod shape_cast;
pub mod sleep;
pub mod slice;
pub mod solver_graph;
pub mod sweep;
pub mod toi_events;
pub mod water;

use crate::app::camera::{ScreenRect, ViewCamera};
use crate::app::history::History;
use crate::app::input::PointerFrame;
use crate::app::lab::AsAny;
use crate::app::render::draw::MqDraw;
use crate::app::state::Action;
use egui_macroquad::egui;
use glam::Vec2;
use manifold_lab::engine::debug::LayerSet;
use manifold_lab::engine::World;

/// What a tool sees of the app: the world and the view, read only.
pub struct ToolView<'a> {
    pub world: &'a World,
    pub camera: &'a ViewCamera,
    pub viewport: ScreenRect,
    /// The layers the user switched on.
    pub layers: LayerSet,
    /// A lab is open: the scene tools are off.
    pub in_lab: bool,
    /// The selected bodies.
    pub selection: &'a [usize],
}

impl ToolView<'_> {
    /// World units per pixel.
    pub fn px(&self) -> f32 {
        self.camera.scale(&self.viewport)
    }
}

/// What a tool may change when it applies one of its actions.
pub struct ToolContext<'a> {
    pub world: &'a mut World,
    pub selection: &'a mut Vec<usize>,
    /// The step-back history (an edit that B undoes pushes the world before it).
    pub history: &'a mut History,
    pub in_lab: bool,
    pub notice: &'a mut Option<String>,
    pub error: &'a mut Option<String>,
}

/// This frame's pointer as a tool sees it.
pub struct ToolPointer<'a> {
    pub frame: &'a PointerFrame,
    /// The pointer in world units.
    pub world: Vec2,
    /// Over the view, not over a panel, and no gesture under way.
    pub free: bool,
}

/// Where a tool's panel section goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The left panel's Tools section.
    Tools,
    /// The left panel, after the solver's settings.
    Settings,
    /// The top of the right panel, above the selection.
    Details,
}

/// How the world changed under the tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorldChange {
    /// Restarted from its scene.
    Restarted,
    /// A new scene was loaded (or the file reloaded).
    Loaded,
    /// The pair finder changed.
    Broadphase,
    /// It jumped to another step of its timeline (a scrub, a step back).
    Jumped,
}

/// A tool's row in the table.
pub struct ToolEntry {
    pub name: &'static str,
    /// What it does (the hover text of its toggle).
    pub description: &'static str,
}

/// What the app asks of every tool; each method's default does nothing.
pub trait Tool: AsAny {
    fn kind(&self) -> ToolKind;

    /// Whether left drags in the view are this tool's now (one drag tool is on at a time).
    fn drags(&self) -> bool {
        false
    }

    /// Another drag tool was turned on: let go of the left drag.
    fn stop_dragging(&mut self) {}

    /// This frame's pointer, before the ordinary select, drag and rotate gestures:
    /// `Some(actions)` when the tool takes it.
    fn pointer(&mut self, _v: &ToolView, _p: &ToolPointer) -> Option<Vec<Action>> {
        None
    }

    /// A left click on the view that neither a drag tool nor the rotate handle took:
    /// `Some(actions)` when it is this tool's.
    fn click(&self, _v: &ToolView, _p: &ToolPointer) -> Option<Vec<Action>> {
        None
    }

    /// Draws over the world (in world units; `v.px()` is a pixel).
    fn draw(&self, _v: &ToolView, _d: &mut MqDraw) {}

    /// Its section of a panel, at `at`.
    fn panel(&self, _at: Place, _ui: &mut egui::Ui, _v: &ToolView, _out: &mut Vec<Action>) {}

    /// Its own windows and tooltips.
    fn window(&self, _ctx: &egui::Context, _v: &ToolView, _out: &mut Vec<Action>) {}

    /// The world under the tool changed.
    fn world_changed(&mut self, _how: WorldChange, _world: &World) {}

    /// The world took one step, in `ms` of wall time.
    fn stepped(&mut self, _world: &World, _ms: f64) {}

    /// Its state for `--state-out` and the screenshot sidecar, under its name.
    fn report(&self, _v: &ToolView) -> Option<serde_json::Value> {
        None
    }
}

/// A tool's own actions and how it starts.
pub trait ToolType: Tool + Default + Sized {
    /// Its actions, as plain data (scripts write them in RON: `Tool(Ray(Toggle))`).
    type Action: Clone + std::fmt::Debug + PartialEq + serde::Serialize + serde::de::DeserializeOwned;
    const ENTRY: ToolEntry;

    fn apply(&mut self, cx: &mut ToolContext, action: Self::Action);
}

/// Every tool, in the table's order.
pub struct Tools(Vec<Box<dyn Tool>>);

impl Tools {
    /// The tool of type `T`.
    pub fn get<T: ToolType>(&self) -> &T {
        self.0.iter().find_map(|t| t.as_ref().as_any().downcast_ref()).expect("every tool is in the table")
    }

    pub fn get_mut<T: ToolType>(&mut self) -> &mut T {
        self.0.iter_mut().find_map(|t| t.as_mut().as_any_mut().downcast_mut()).expect("every tool is in the table")
    }

    pub fn iter(&self) -> impl Iterator<Item = &dyn Tool> {
        self.0.iter().map(|t| t.as_ref())
    }

    /// Shows every tool this frame's pointer; the first that takes it gives its actions.
    pub fn pointer(&mut self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        let mut taken = None;
        for t in &mut self.0 {
            let r = t.pointer(v, p);
            taken = taken.or(r);
        }
        taken
    }

    /// The first tool that takes a left click.
    pub fn click(&self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        self.0.iter().find_map(|t| t.click(v, p))
    }

    /// Whether a drag tool is on.
    pub fn dragging(&self) -> bool {
        self.0.iter().any(|t| t.drags())
    }

    pub fn world_changed(&mut self, how: WorldChange, world: &World) {
        self.0.iter_mut().for_each(|t| t.world_changed(how, world));
    }

    pub fn stepped(&mut self, world: &World, ms: f64) {
        self.0.iter_mut().for_each(|t| t.stepped(world, ms));
    }

    /// Hands `action` to its tool; a drag tool it turns on turns the others' off.
    pub fn apply(&mut self, action: ToolAction, cx: &mut ToolContext) {
        let kind = action.kind();
        let k = self.0.iter().position(|t| t.kind() == kind).expect("every tool is in the table");
        let was = self.0[k].drags();
        action.apply_to(self.0[k].as_mut(), cx);
        if self.0[k].drags() && !was {
            self.0.iter_mut().enumerate().filter(|(i, _)| *i != k).for_each(|(_, t)| t.stop_dragging());
        }
    }

    /// Every tool's report, by name.
    pub fn report(&self, v: &ToolView) -> serde_json::Value {
        let map = self.iter().filter_map(|t| Some((t.kind().entry().name.to_string(), t.report(v)?))).collect();
        serde_json::Value::Object(map)
    }
}

/// The table: one line per tool, `Kind: folder::Type`. It makes `ToolKind`, `ToolAction`
/// (each tool's actions nested under its kind), `Tools::default` (one of each, in this order)
/// and the dispatch from an action to its tool.
macro_rules! tools {
    ($($kind:ident : $ty:ty),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ToolKind {
            $($kind),*
        }

        /// An action of one tool, e.g. `Tool(Ray(Toggle))` in a script.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum ToolAction {
            $($kind(<$ty as ToolType>::Action)),*
        }

        impl ToolKind {
            pub fn entry(self) -> &'static ToolEntry {
                match self {
                    $(ToolKind::$kind => &<$ty as ToolType>::ENTRY),*
                }
            }
        }

        impl Default for Tools {
            fn default() -> Tools {
                Tools(vec![$(Box::new(<$ty>::default())),*])
            }
        }

        impl ToolAction {
            pub fn kind(&self) -> ToolKind {
                match self {
                    $(ToolAction::$kind(_) => ToolKind::$kind),*
                }
            }

            fn apply_to(self, tool: &mut dyn Tool, cx: &mut ToolContext) {
                match self {
                    $(ToolAction::$kind(a) => {
                        if let Some(t) = tool.as_any_mut().downcast_mut::<$ty>() {
                            t.apply(cx, a);
                        }
                    }),*
                }
            }
        }

        $(impl From<<$ty as ToolType>::Action> for Action {
            fn from(a: <$ty as ToolType>::Action) -> Action {
                Action::Tool(ToolAction::$kind(a))
            }
        })*
    };
}

tools! {
    Slice: slice::SliceTool,
    Ray: ray::RayTool,
    ShapeCast: shape_cast::ShapeCastTool,
    Ruler: ruler::Ruler,
    // Before the inspector: a click on an event's point opens the event, not a contact under it.
    ToiEvents: toi_events::ToiEvents,
    Inspector: inspector::ContactInspector,
    Sweep: sweep::SweepTool,
    Water: water::WaterView,
    Compare: compare::CompareTool,
}
