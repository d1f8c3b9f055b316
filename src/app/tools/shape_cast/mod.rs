//! The shape-cast tool, beside the ray tool (004 article, "Continuous Linear", through the 003
//! article's tree "Queries"): J or the Tools button turns it on; a left drag then moves a
//! shape along the dragged path (`World::shape_cast_traced`): the selected body's shape at its
//! angle, or a circle or a box when nothing is selected. The view shows the shape at the start
//! and at the end of the path, the hull it sweeps, the pose where it first touches a body, the
//! point and normal there with the fraction, and the tree nodes the swept box reached (white)
//! or was culled from (grey), as the ray tool draws them. The cast stays and is made again
//! every frame, so it follows the world as it moves.

#[cfg(test)]
mod tests;

use super::ray::{arrow, draw_visited, MIN_RAY_PX};
use super::{Place, Tool, ToolContext, ToolEntry, ToolKind, ToolPointer, ToolType, ToolView};
use crate::app::render::draw::{mq_color, MqDraw, WorldText};
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use glam::Vec2;
use manifold_lab::engine::collide::support::Proxy;
use manifold_lab::engine::collide::toi::local_proxy;
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::math::Transform;
use manifold_lab::engine::number::Num;
use manifold_lab::engine::shape::Shape;
use manifold_lab::engine::world::shape_cast::ShapeCastTrace;
use manifold_lab::engine::world::toi_events::swept_hull;
use serde::{Deserialize, Serialize};

/// The shape cast when nothing is selected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fallback {
    #[default]
    Circle,
    Box,
}

impl Fallback {
    pub fn shape(self) -> Shape {
        match self {
            Fallback::Circle => Shape::circle(0.4).expect("a valid radius"),
            Fallback::Box => Shape::make_box(Vec2::new(0.5, 0.3)).expect("valid half extents"),
        }
    }
}

/// The shape of a cast: its geometry, its angle along the path, and the body it was taken from
/// (left out of the cast, which starts on it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastShape {
    pub shape: Shape,
    pub angle: f32,
    pub body: Option<usize>,
}

/// The tool's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShapeCastTool {
    /// Left drags cast shapes.
    pub on: bool,
    /// The path, world space, and the shape moved along it.
    pub path: Option<(Vec2, Vec2)>,
    pub shape: Option<CastShape>,
    pub fallback: Fallback,
    drag_from: Option<Vec2>,
}

/// What the tool can be asked to do: `Tool(ShapeCast(Cast(from: (0, 0), to: (4, 1))))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShapeCastAction {
    /// Turn the tool on or off: while on, a left drag in the view casts a shape.
    SetOn(bool),
    /// J: turn it on or off.
    Toggle,
    /// Cast the selected body's shape (or the fallback) from `from` to `to`; it stays, cast
    /// again every frame, until cleared.
    Cast { from: Vec2, to: Vec2 },
    /// The shape cast when nothing is selected.
    SetFallback(Fallback),
    /// Remove the cast.
    Clear,
}

impl ToolType for ShapeCastTool {
    type Action = ShapeCastAction;
    const ENTRY: ToolEntry = ToolEntry {
        name: "shape_cast",
        description: "the shape-cast tool: drag the selected body's shape (or a circle or box) along a path; where \
                      it first hits, the fraction, normal, point and the tree nodes it visits",
    };

    fn apply(&mut self, cx: &mut ToolContext, action: ShapeCastAction) {
        match action {
            ShapeCastAction::Cast { from, to } => self.cast(cx, from, to),
            ShapeCastAction::SetOn(on) => self.set_on(cx, on),
            ShapeCastAction::Toggle => self.set_on(cx, !self.on),
            ShapeCastAction::SetFallback(f) => self.fallback = f,
            ShapeCastAction::Clear => (self.path, self.shape) = (None, None),
        }
    }
}

impl ShapeCastTool {
    fn set_on(&mut self, cx: &mut ToolContext, on: bool) {
        if on && cx.in_lab {
            *cx.notice = Some("the shape-cast tool works on scenes: leave the lab first".into());
            return;
        }
        *self = ShapeCastTool { on, fallback: self.fallback, ..Default::default() };
        if on {
            cx.world.sync_broadphase();
        }
        let text = if on { "Shape cast: drag a shape along a path (J to leave)" } else { "Shape cast off" };
        *cx.notice = Some(text.into());
    }

    fn cast(&mut self, cx: &mut ToolContext, from: Vec2, to: Vec2) {
        if cx.in_lab {
            *cx.error = Some("the shape-cast tool casts into a scene: leave the lab first".into());
            return;
        }
        if !(from.is_finite() && to.is_finite()) || from == to {
            *cx.error = Some(format!("a shape cast needs two different finite ends, got {from} and {to}"));
            return;
        }
        let selected = cx.selection.first().and_then(|&i| Some((i, cx.world.bodies.get(i)?)));
        self.shape = Some(match selected {
            Some((i, b)) => CastShape { shape: b.shape, angle: b.xf.q.angle(), body: Some(i) },
            None => CastShape { shape: self.fallback.shape(), angle: 0.0, body: None },
        });
        self.path = Some((from, to));
    }

    /// The cast made in the world now, with the start transform, if there is one.
    pub fn trace(&self, v: &ToolView) -> Option<(ShapeCastTrace, Transform)> {
        let ((from, to), s) = (self.path.filter(|_| !v.in_lab)?, self.shape?);
        let xf = Transform::new(from, s.angle);
        Some((v.world.shape_cast_traced(&s.shape, &xf, to - from, s.body), xf))
    }
}

impl Tool for ShapeCastTool {
    fn kind(&self) -> ToolKind {
        ToolKind::ShapeCast
    }

    fn drags(&self) -> bool {
        self.on
    }

    fn stop_dragging(&mut self) {
        *self = ShapeCastTool { fallback: self.fallback, ..Default::default() };
    }

    fn pointer(&mut self, v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        let from = match self.drag_from {
            Some(from) => from,
            None if self.on && p.free && p.frame.left_pressed => {
                self.drag_from = Some(p.world);
                return Some(vec![]);
            }
            None => return None,
        };
        let short = (p.world - from).length() < MIN_RAY_PX * v.px();
        if !p.frame.left_down {
            self.drag_from = None;
        }
        Some(match (short, p.frame.left_down) {
            (true, true) => vec![],
            (true, false) => vec![ShapeCastAction::Clear.into()],
            (false, _) => vec![ShapeCastAction::Cast { from, to: p.world }.into()],
        })
    }

    fn draw(&self, v: &ToolView, d: &mut MqDraw) {
        draw_cast(self, v, d);
    }

    fn panel(&self, at: Place, ui: &mut egui::Ui, v: &ToolView, out: &mut Vec<Action>) {
        if at == Place::Tools {
            panel(ui, self, v, out);
        }
    }

    fn report(&self, v: &ToolView) -> Option<serde_json::Value> {
        let hit = self.trace(v).and_then(|(t, _)| t.closest);
        Some(serde_json::json!({
            "on": self.on,
            "path": self.path.map(|(a, b)| [a.to_array(), b.to_array()]),
            "hit": hit.map(|h| serde_json::json!({
                "body": h.body, "fraction": h.fraction, "point": h.point.to_array(), "normal": h.normal.to_array()
            })),
        }))
    }
}

/// The proxy `shape` at `xf` as a closed outline (rounded shapes by their swept hull at one pose).
fn outline(proxy: &Proxy, xf: &Transform) -> Vec<Vec2> {
    swept_hull(proxy, xf, xf)
}

/// The visited nodes, the path, the shape at its start, end and hit, the swept hull, and the
/// hit's point, normal and fraction.
fn draw_cast(tool: &ShapeCastTool, v: &ToolView, d: &mut MqDraw) {
    let (Some((trace, xf)), Some((from, to)), Some(s)) = (tool.trace(v), tool.path, tool.shape) else { return };
    let px = v.px();
    let proxy = local_proxy(&s.shape);
    let end = Transform { p: xf.p + (to - from), q: xf.q };
    let batch = d.batch();
    draw_visited(batch, &trace.visited);
    let line = mq_color(palette::JOINT);
    batch.outline(&swept_hull(&proxy, &xf, &end), 1.0, mq_color(palette::JOINT.with_alpha(0.35)));
    batch.outline(&outline(&proxy, &end), 1.0, mq_color(palette::JOINT.with_alpha(0.45)));
    batch.outline(&outline(&proxy, &xf), 2.0, line);
    batch.line(from, to, 1.0, mq_color(palette::JOINT.with_alpha(0.45)));
    let Some(h) = trace.closest else { return };
    let at = Transform { p: xf.p + h.fraction * (to - from), q: xf.q };
    batch.line(from, at.p, 2.5, line);
    batch.outline(&outline(&proxy, &at), 2.5, mq_color(palette::WINNER));
    batch.disc(h.point, 4.0 * px, mq_color(palette::INTERSECTION));
    if h.normal != Vec2::ZERO {
        arrow(batch, h.point, h.point + 40.0 * px * h.normal, mq_color(palette::NORMAL), px);
    }
    // Above (or beside) the shape at the hit, across the normal, so it hides neither the
    // shape nor the normal.
    let reach = outline(&proxy, &at).iter().fold(0.0f32, |m, q| m.max(q.distance(at.p)));
    let across = h.normal.normalize_or(Vec2::Y).perp();
    let across = if across.y < 0.0 { -across } else { across };
    let label = format!("t={:.4}  n=({:.3}, {:.3})", Num(h.fraction), Num(h.normal.x), Num(h.normal.y));
    let at = at.p + (reach + 16.0 * px) * across;
    d.texts.push(WorldText { at, text: label, color: palette::TEXT, priority: 4 });
}

/// The Tools section: the toggle, the fallback shape, and the cast's numbers.
fn panel(ui: &mut egui::Ui, tool: &ShapeCastTool, v: &ToolView, out: &mut Vec<Action>) {
    let label = if tool.on { "🔵 Shape cast: on" } else { "🔵 Shape cast" };
    let toggle: Action = ShapeCastAction::Toggle.into();
    let tip = crate::app::input::keys::tip(ShapeCastTool::ENTRY.description, &toggle);
    if ui.selectable_label(tool.on, label).on_hover_text(tip).clicked() {
        out.push(toggle);
    }
    if !tool.on {
        return;
    }
    ui.horizontal(|ui| {
        ui.label(RichText::new("with nothing selected:").small());
        for (f, name) in [(Fallback::Circle, "circle"), (Fallback::Box, "box")] {
            if ui.selectable_label(tool.fallback == f, name).clicked() && tool.fallback != f {
                out.push(ShapeCastAction::SetFallback(f).into());
            }
        }
    });
    let Some((t, _)) = tool.trace(v) else {
        let text = "Drag a path: the selected body's shape (or the shape above) moves along it to its first hit.";
        ui.label(RichText::new(text).small());
        return;
    };
    let nodes = format!("{} tree nodes tested, {} leaves reached", t.stats.nodes_visited, t.stats.leaves_hit);
    ui.label(RichText::new(nodes).small().weak());
    let text = match t.closest {
        Some(h) => format!(
            "hits {} at t = {:.4}\npoint ({:.3}, {:.3}) normal ({:.3}, {:.3})",
            crate::app::tools::inspector::body_label(v.world, h.body),
            Num(h.fraction),
            Num(h.point.x),
            Num(h.point.y),
            Num(h.normal.x),
            Num(h.normal.y)
        ),
        None => "the shape hits nothing".into(),
    };
    ui.label(RichText::new(text).small().monospace());
    if ui.small_button("Clear cast").clicked() {
        out.push(ShapeCastAction::Clear.into());
    }
}
