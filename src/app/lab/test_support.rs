//! What the labs' tests share: paths in the repository, a lab opened on a preset, and left
//! drags fed through the app's gesture code as a mouse makes them.

use crate::app::input::{pointer_actions, InputState, PointerFrame};
use crate::app::lab::LabKind;
use crate::app::state::{Action, App};
use glam::Vec2;
use manifold_lab::scene;
use std::path::{Path, PathBuf};

/// A path in the repository.
pub fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// An app with the lab `kind` open on the preset `file` (relative to the repository).
pub fn lab_app(kind: LabKind, file: &str) -> App {
    let mut app = App::new(scene::Scene::new("empty"), None);
    app.apply(Action::OpenLab { kind, file: Some(manifest(file)) });
    assert!(app.error.is_none(), "{:?}", app.error);
    app
}

/// Modifier keys held through a drag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Held {
    /// Ctrl: turn.
    pub rotate: bool,
    pub shift: bool,
}

/// A left press at the screen point `from`, `moves` moves to `to` and a release there,
/// each frame's actions applied before the next.
pub fn drag_screen(app: &mut App, from: Vec2, to: Vec2, held: Held, moves: usize) {
    let frame = |pos, pressed, down| PointerFrame {
        pos,
        left_pressed: pressed,
        left_down: down,
        left_released: !down,
        rotate_modifier: held.rotate,
        shift: held.shift,
        ..Default::default()
    };
    let mut frames = vec![frame(from, true, true)];
    frames.extend((1..=moves).map(|k| frame(from.lerp(to, k as f32 / moves as f32), false, true)));
    frames.push(frame(to, false, false));
    let mut st = InputState::default();
    for f in frames {
        for a in pointer_actions(app, &mut st, &f, false) {
            app.apply(a);
        }
    }
}

/// [`drag_screen`] between two world points of the 2D view.
pub fn drag_world(app: &mut App, from: Vec2, to: Vec2, held: Held, moves: usize) {
    let screen = |w: Vec2| app.camera.world_to_screen(&app.viewport, w);
    let (from, to) = (screen(from), screen(to));
    drag_screen(app, from, to, held, moves);
}
