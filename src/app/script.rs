//! Scripted input for `screenshot --script` and `run --script`: a RON list of steps replayed
//! one frame at a time through the same pointer and action paths as a real user. Loading
//! checks every count and number (`check`); a step whose action fails names its place.

mod check;

use super::state::{Action, App};
use crate::app::input::{pointer_actions, InputState, PointerFrame};
use glam::Vec2;
use serde::Deserialize;
use std::collections::VecDeque;
use std::path::Path;

/// One step of a script. Points are in world coordinates.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum ScriptStep {
    /// Render this many frames doing nothing.
    Wait(u32),
    /// Carry out an app action, e.g. `Do(Step)` or `Do(SetLayer(Aabb, true))`.
    Do(Action),
    /// Left click at a world point (selects the body there).
    Click(Vec2),
    /// Shift+click at a world point (adds to the selection).
    ShiftClick(Vec2),
    /// Move the pointer to a world point without pressing (hover: the contact tooltip).
    Hover(Vec2),
    /// Left drag from one world point to another over `frames` frames; with `rotate` the
    /// drag rotates the body (as Ctrl+drag does).
    Drag {
        from: Vec2,
        to: Vec2,
        #[serde(default = "default_frames")]
        frames: u32,
        #[serde(default)]
        rotate: bool,
    },
}

fn default_frames() -> u32 {
    10
}

/// The pointer as a script drives it in one frame (world position).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScriptPointer {
    pub world: Vec2,
    pub left_pressed: bool,
    pub left_down: bool,
    pub left_released: bool,
    pub shift: bool,
    pub rotate: bool,
}

/// What the script does in one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptFrame {
    pub pointer: Option<ScriptPointer>,
    pub action: Option<Action>,
}

/// Plays a script frame by frame.
pub struct ScriptPlayer {
    steps: VecDeque<ScriptStep>,
    pending: VecDeque<ScriptFrame>,
    /// Where each step starts in its file (`file:line:column`), when read from one.
    places: VecDeque<String>,
    /// The place of the step the last frame came from.
    current: Option<String>,
}

impl ScriptPlayer {
    pub fn new(steps: Vec<ScriptStep>) -> ScriptPlayer {
        ScriptPlayer { steps: steps.into(), pending: VecDeque::new(), places: VecDeque::new(), current: None }
    }

    /// Reads and checks a script: every error at its `file:line:column`.
    pub fn load(path: &Path) -> Result<ScriptPlayer, String> {
        let text = manifold_lab::scene::read_text(path).map_err(|e| e.to_string())?;
        ScriptPlayer::parse(&text, &path.display().to_string())
    }

    /// [`ScriptPlayer::load`] on text; `file` labels errors.
    pub fn parse(text: &str, file: &str) -> Result<ScriptPlayer, String> {
        let parsed = check::parse(text, file)?;
        let mut player = ScriptPlayer::new(parsed.steps);
        player.places = parsed.places.into();
        Ok(player)
    }

    /// `file:line:column` of the step the last frame came from (scripts read from a file).
    pub fn place(&self) -> Option<&str> {
        self.current.as_deref()
    }

    pub fn is_done(&self) -> bool {
        self.steps.is_empty() && self.pending.is_empty()
    }

    /// The next frame's input, or `None` when the script has finished.
    pub fn next_frame(&mut self) -> Option<ScriptFrame> {
        while self.pending.is_empty() {
            let step = self.steps.pop_front()?;
            self.current = self.places.pop_front();
            self.expand(step);
        }
        self.pending.pop_front()
    }

    fn expand(&mut self, step: ScriptStep) {
        let p = |world: Vec2| ScriptPointer { world, ..Default::default() };
        match step {
            ScriptStep::Wait(n) => {
                for _ in 0..n {
                    self.pending.push_back(ScriptFrame::default());
                }
            }
            ScriptStep::Do(a) => self.pending.push_back(ScriptFrame { pointer: None, action: Some(a) }),
            ScriptStep::Hover(w) => self.pending.push_back(ScriptFrame { pointer: Some(p(w)), action: None }),
            ScriptStep::Click(w) | ScriptStep::ShiftClick(w) => {
                let shift = matches!(step, ScriptStep::ShiftClick(_));
                self.pending.push_back(ScriptFrame {
                    pointer: Some(ScriptPointer { left_pressed: true, left_down: true, shift, ..p(w) }),
                    action: None,
                });
                self.pending.push_back(ScriptFrame {
                    pointer: Some(ScriptPointer { left_released: true, shift, ..p(w) }),
                    action: None,
                });
            }
            ScriptStep::Drag { from, to, frames, rotate } => {
                let frames = frames.max(1);
                self.pending.push_back(ScriptFrame {
                    pointer: Some(ScriptPointer { left_pressed: true, left_down: true, rotate, ..p(from) }),
                    action: None,
                });
                for k in 1..=frames {
                    let t = k as f32 / frames as f32;
                    self.pending.push_back(ScriptFrame {
                        pointer: Some(ScriptPointer { left_down: true, rotate, ..p(from.lerp(to, t)) }),
                        action: None,
                    });
                }
                self.pending.push_back(ScriptFrame {
                    pointer: Some(ScriptPointer { left_released: true, rotate, ..p(to) }),
                    action: None,
                });
            }
        }
    }
}

impl ScriptPointer {
    /// The pointer frame of this scripted pointer at screen position `pos`.
    pub fn at_screen(&self, pos: Vec2) -> PointerFrame {
        PointerFrame {
            pos,
            left_pressed: self.left_pressed,
            left_down: self.left_down,
            left_released: self.left_released,
            shift: self.shift,
            rotate_modifier: self.rotate,
            ..Default::default()
        }
    }
}

/// Plays a script without a window, frame by frame as the window plays it: the frame's
/// action, then the scripted pointer through the gesture code (world points mapped by the
/// app's camera), then 1/60 s of simulation (one step while running). Returns the frames
/// played, or the first error a frame raised, at its step's `file:line:column`.
pub fn play_headless(app: &mut App, mut player: ScriptPlayer) -> Result<u32, String> {
    let mut input = InputState::default();
    let mut frames = 0;
    while let Some(frame) = player.next_frame() {
        let before = app.error.clone();
        let mut actions: Vec<Action> = frame.action.into_iter().collect();
        if let Some(p) = frame.pointer {
            let pos = app.camera.world_to_screen(&app.viewport, p.world);
            actions.extend(pointer_actions(app, &mut input, &p.at_screen(pos), false));
        }
        for a in actions {
            app.apply(a);
        }
        app.update(1.0 / 60.0);
        frames += 1;
        match &app.error {
            Some(e) if app.error != before => {
                let place = player.place().unwrap_or("the script");
                return Err(format!("{place}: the step failed: {e}"));
            }
            _ => {}
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_expands_a_script() {
        let text = r#"[
            Wait(2),
            Do(Pause),
            Click((1.0, 2.0)),
            Drag(from: (0.0, 0.0), to: (4.0, 0.0), frames: 4),
            Do(SetLayer(Aabb, true)),
        ]"#;
        let steps: Vec<ScriptStep> = ron::from_str(text).unwrap();
        let mut player = ScriptPlayer::new(steps);
        let mut frames = Vec::new();
        while let Some(f) = player.next_frame() {
            frames.push(f);
        }
        // 2 waits + 1 action + 2 click frames + (press + 4 moves + release) + 1 action
        assert_eq!(frames.len(), 2 + 1 + 2 + 6 + 1);
        assert_eq!(frames[2].action, Some(Action::Pause));
        let drag = &frames[5..11];
        assert!(drag[0].pointer.unwrap().left_pressed);
        assert_eq!(drag[2].pointer.unwrap().world, Vec2::new(2.0, 0.0));
        assert!(drag[5].pointer.unwrap().left_released);
        assert!(player.is_done());
    }
}
