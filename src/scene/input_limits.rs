//! The counts a recording or a script may hold, so `replay`, `run --script` and `screenshot
//! --script` finish in bounded time (docs/scene-format.md, "Limits"). Numbers inside their
//! actions use the scene ranges of [`super::limits`].

/// Steps a recording may span, `replay --steps`, and `run --steps`: about 4.6 hours of
/// simulated time at 60 Hz.
pub const MAX_STEPS: u64 = 1_000_000;
/// Stamped actions in one recording (the app records one per edit; a long drag makes one
/// per frame).
pub const MAX_RECORDED_ACTIONS: usize = 1_000_000;
/// Steps (items) in one script.
pub const MAX_SCRIPT_STEPS: usize = 100_000;
/// Frames of one `Wait(n)`: about 28 minutes at 60 frames a second.
pub const MAX_WAIT_FRAMES: u32 = 100_000;
/// Frames of one `Drag(frames: n)`.
pub const MAX_DRAG_FRAMES: u32 = 10_000;
/// Frames a whole script may expand to (waits, clicks, drags and actions together).
pub const MAX_SCRIPT_FRAMES: u64 = 1_000_000;
/// Items of any list inside one action (a lab shape's points), as a 3D hull's point limit.
pub const MAX_ACTION_LIST: usize = super::MAX_HULL_POINTS;
/// `count` in an action (the tree lab's spawned proxies; the lab caps it there too).
pub const MAX_ACTION_COUNT: u64 = 100_000;
