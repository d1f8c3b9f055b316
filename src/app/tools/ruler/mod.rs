//! The ruler: M or the Tools button turns it on; a left drag then measures from where the
//! drag started to the pointer: the length, the components along x and y and the angle, drawn
//! on the line and listed in the Tools section. The line stays until the next drag or Clear.
//! (Added by the architecture recipe "a tool": this folder and one line in the `tools!` table.)

#[cfg(test)]
mod tests;

use super::{Place, Tool, ToolContext, ToolEntry, ToolKind, ToolPointer, ToolType, ToolView};
use crate::app::render::draw::{mq_color, MqDraw, WorldText};
use crate::app::state::Action;
use egui_macroquad::egui::{self, RichText};
use glam::Vec2;
use manifold_lab::engine::debug::palette;
use manifold_lab::engine::number::Num;
use serde::{Deserialize, Serialize};

/// The tool's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ruler {
    /// Left drags measure.
    pub on: bool,
    /// The measured segment, world space.
    pub line: Option<(Vec2, Vec2)>,
    dragging: bool,
}

/// What the ruler can be asked to do: `Tool(Ruler(Measure(from: (0, 0), to: (3, 4))))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RulerAction {
    SetOn(bool),
    /// M: turn it on or off.
    Toggle,
    /// Measure from `from` to `to`.
    Measure {
        from: Vec2,
        to: Vec2,
    },
    Clear,
}

impl ToolType for Ruler {
    type Action = RulerAction;
    const ENTRY: ToolEntry =
        ToolEntry { name: "ruler", description: "the ruler: drag to measure a length, its x and y and its angle" };

    fn apply(&mut self, cx: &mut ToolContext, action: RulerAction) {
        match action {
            RulerAction::SetOn(on) if on && cx.in_lab => {
                *cx.notice = Some("the ruler works on scenes: leave the lab first".into());
            }
            RulerAction::SetOn(on) => *self = Ruler { on, ..Default::default() },
            RulerAction::Toggle => self.apply(cx, RulerAction::SetOn(!self.on)),
            RulerAction::Measure { from, to } if from.is_finite() && to.is_finite() => self.line = Some((from, to)),
            RulerAction::Measure { from, to } => {
                *cx.error = Some(format!("a ruler needs two finite ends, got {from} and {to}"));
            }
            RulerAction::Clear => self.line = None,
        }
    }
}

impl Tool for Ruler {
    fn kind(&self) -> ToolKind {
        ToolKind::Ruler
    }

    fn drags(&self) -> bool {
        self.on
    }

    fn stop_dragging(&mut self) {
        *self = Ruler::default();
    }

    fn pointer(&mut self, _v: &ToolView, p: &ToolPointer) -> Option<Vec<Action>> {
        let from = match (self.dragging, self.line) {
            (true, Some((from, _))) => from,
            _ if self.on && p.free && p.frame.left_pressed => {
                self.dragging = true;
                p.world
            }
            _ => return None,
        };
        self.dragging = p.frame.left_down;
        Some(vec![RulerAction::Measure { from, to: p.world }.into()])
    }

    fn draw(&self, v: &ToolView, d: &mut MqDraw) {
        let Some((a, b)) = self.line else { return };
        let px = v.px();
        let c = mq_color(palette::TEXT);
        let batch = d.batch();
        batch.line(a, b, 1.5, c);
        batch.line(a, Vec2::new(b.x, a.y), 1.0, mq_color(palette::TEXT.with_alpha(0.35)));
        batch.line(Vec2::new(b.x, a.y), b, 1.0, mq_color(palette::TEXT.with_alpha(0.35)));
        batch.disc(a, 3.0 * px, c);
        batch.disc(b, 3.0 * px, c);
        let side = (b - a).perp().normalize_or(Vec2::Y);
        let at = 0.5 * (a + b) + 14.0 * px * side;
        d.texts.push(WorldText {
            at,
            text: format!("{:.4} m", Num((b - a).length())),
            color: palette::TEXT,
            priority: 4,
        });
    }

    fn panel(&self, at: Place, ui: &mut egui::Ui, _v: &ToolView, out: &mut Vec<Action>) {
        if at != Place::Tools {
            return;
        }
        let toggle: Action = RulerAction::Toggle.into();
        let tip = crate::app::input::keys::tip(Ruler::ENTRY.description, &toggle);
        if ui.selectable_label(self.on, if self.on { "📏 Ruler: on" } else { "📏 Ruler" }).on_hover_text(tip).clicked()
        {
            out.push(toggle);
        }
        let Some((a, b)) = self.line else { return };
        let d = b - a;
        let text = format!(
            "length {:.4} m\nx {:+.4}  y {:+.4}\nangle {:+.2}°",
            Num(d.length()),
            Num(d.x),
            Num(d.y),
            Num(d.y.atan2(d.x).to_degrees())
        );
        ui.label(RichText::new(text).small().monospace());
        if ui.small_button("Clear ruler").clicked() {
            out.push(RulerAction::Clear.into());
        }
    }

    fn report(&self, _v: &ToolView) -> Option<serde_json::Value> {
        Some(serde_json::json!({ "on": self.on, "line": self.line.map(|(a, b)| [a.to_array(), b.to_array()]) }))
    }
}
