//! The 3D contact inspector's pin (the 2D inspector's, `tools::inspector`, in 3D): a click on
//! the hovered contact point keeps its card open while the world steps. The card follows the
//! point by its key, the two bodies, their hulls and the point's feature id (which the
//! narrowphase gives the same point while the same features touch, `hull3d::clip_local`),
//! says when the point's features changed or the contact ended, and opens the pair in the
//! hull lab or saves it as a hull pair file (`fixture`). Esc, the card's close button or a
//! second click on the point unpins it.

use super::fixture::find_pair;
use super::{act, World3dAction, World3dLab};
use crate::app::panels::note_in_ctx;
use crate::app::stage::Stage;
use crate::app::state::Action;
use crate::app::tools::inspector::ui::{pinned_window, rows_grid, unpin_button};
use egui_macroquad::egui::{self, RichText};
use manifold_lab::engine::world3d::World3;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A contact by its bodies (`a < b`, as the world keeps contacts) and the hull of each
/// (`Contact3::parts`; 0 for bodies of one hull).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairRef3 {
    pub a: usize,
    pub b: usize,
    #[serde(default)]
    pub parts: [u8; 2],
}

/// One contact point: its pair and its feature id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactKey3 {
    pub pair: PairRef3,
    pub id: u64,
}

/// The pinned point and the last step it was seen at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pinned3 {
    pub key: ContactKey3,
    pub last_seen: u64,
}

/// Where the pinned point is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinStatus {
    /// Contact `c`, point `k` of the world's lists.
    Live(usize, usize),
    /// The pair still touches but no point has the feature id: other features touch now.
    FeaturesChanged(usize),
    /// The pair has no contact.
    Ended,
}

impl ContactKey3 {
    /// The key of point `k` of contact `c`.
    pub fn of(w: &World3, c: usize, k: usize) -> Option<ContactKey3> {
        let x = w.contacts.get(c)?;
        let id = x.points.get(k)?.id;
        Some(ContactKey3 { pair: PairRef3 { a: x.a, b: x.b, parts: x.parts }, id })
    }

    pub fn status(&self, w: &World3) -> PinStatus {
        let Some(c) = find_pair(w, self.pair) else { return PinStatus::Ended };
        let index = w.contacts.iter().position(|x| std::ptr::eq(x, c)).unwrap_or(0);
        match c.points.iter().position(|p| p.id == self.id) {
            Some(k) => PinStatus::Live(index, k),
            None => PinStatus::FeaturesChanged(index),
        }
    }
}

impl World3dLab {
    /// Pins `key` (a point the world has) or unpins with `None`.
    pub(super) fn pin(&mut self, app: &mut Stage, key: Option<ContactKey3>) {
        match key {
            Some(k) if !matches!(k.status(&self.world), PinStatus::Live(..)) => {
                app.error = Some(format!("no contact point {:#x} between bodies {} and {}", k.id, k.pair.a, k.pair.b));
            }
            _ => self.pinned = key.map(|key| Pinned3 { key, last_seen: self.world.step_count }),
        }
    }

    /// Notes the step at which the pinned point is still there (after each step).
    pub(super) fn track_pin(&mut self) {
        if let Some(p) = self.pinned.as_mut().filter(|p| p.key.status(&self.world) != PinStatus::Ended) {
            p.last_seen = self.world.step_count;
        }
    }

    /// The pinned point's contact and point, when live.
    pub fn pinned_point(&self) -> Option<(usize, usize)> {
        match self.pinned?.key.status(&self.world) {
            PinStatus::Live(c, k) => Some((c, k)),
            _ => None,
        }
    }
}

/// Where "Save fixture" writes the pinned pair: beside the shipped hull pairs.
pub fn fixture_path(w: &World3, pair: PairRef3) -> PathBuf {
    PathBuf::from(format!("{}/contact_{}_{}_step{}.ron", super::super::hull3d::HULL_DIR, pair.a, pair.b, w.step_count))
}

/// The pinned contact's card: its rows (`inspect::describe`) while the point lasts, what
/// became of it otherwise, and the buttons that open its pair in the hull lab or save it.
pub fn window(ctx: &egui::Context, lab: &World3dLab, app: &Stage, out: &mut Vec<Action>) {
    let Some(p) = lab.pinned else { return };
    let w = &lab.world;
    let status = p.key.status(w);
    let at = lab.pinned_point().and_then(|(c, k)| lab.camera.project(&app.viewport, w.contacts[c].points[k].position));
    let id = egui::Id::new(("contact3_window", p.key.pair.a, p.key.pair.b, p.key.pair.parts, p.key.id));
    let open = pinned_window(ctx, id, at.map(|(s, _)| s), &app.viewport, |ui| {
        match status {
            PinStatus::Live(c, k) => rows_grid(ui, "contact3_card", super::inspect::describe(w, c, k)),
            PinStatus::FeaturesChanged(_) => {
                ui.label(RichText::new("The pair still touches, with other features now.").weak());
            }
            PinStatus::Ended => {
                ui.label(
                    RichText::new(format!("The contact ended after step {} (step {} now).", p.last_seen, w.step_count))
                        .weak(),
                );
            }
        }
        ui.horizontal(|ui| {
            unpin_button(ui, out);
            if status == PinStatus::Ended {
                return;
            }
            let pair = p.key.pair;
            let open = ui.button("Open in hull lab").on_hover_text("the two hulls in the poses that made this contact");
            note_in_ctx(ui, "contact3_open", open.rect);
            if open.clicked() {
                out.push(Action::OpenContact3InHullLab(pair));
            }
            let path = fixture_path(w, pair);
            let save = ui.button("Save fixture").on_hover_text(format!("write {}", path.display()));
            note_in_ctx(ui, "contact3_save", save.rect);
            if save.clicked() {
                out.push(act(World3dAction::SaveFixture { pair, path }));
            }
        });
    });
    if !open {
        out.push(act(World3dAction::Pin(None)));
    }
}

/// The pinned point for the lab's report: its key, status, last step seen and, while live,
/// its card's rows.
pub fn report(lab: &World3dLab) -> serde_json::Value {
    let Some(p) = lab.pinned else { return serde_json::Value::Null };
    let (status, rows) = match p.key.status(&lab.world) {
        PinStatus::Live(c, k) => ("live", super::inspect::describe(&lab.world, c, k)),
        PinStatus::FeaturesChanged(_) => ("features changed", Vec::new()),
        PinStatus::Ended => ("ended", Vec::new()),
    };
    let rows: serde_json::Map<_, _> = rows.into_iter().map(|(n, v)| (n.to_string(), v.into())).collect();
    serde_json::json!({
        "a": p.key.pair.a, "b": p.key.pair.b, "parts": p.key.pair.parts, "id": p.key.id,
        "status": status, "last_seen": p.last_seen, "rows": rows,
    })
}
