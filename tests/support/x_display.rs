//! The X display the window tests share. Xvfb (as `xvfb-run` starts it) resets whenever its
//! last client disconnects, and a window that tries to connect during the reset is refused. A
//! test binary that opens window after window, with `xdotool` clients coming and going between
//! them, would hit those resets at random; so each such binary first holds one connection of
//! its own open for as long as it runs (`hold_open`), and retries a start the server refused.

use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The connection holder: an `xdotool` that connects, then sleeps.
static KEEPER: Mutex<Option<Child>> = Mutex::new(None);

/// How long the holder sleeps at most; it is killed when the test binary exits, and this bounds
/// its life if the binary is killed first.
const KEEPER_SECONDS: &str = "900";

/// How long the starts of a refused window are retried for.
pub const RETRY_FOR: Duration = Duration::from_secs(20);

extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::os::raw::c_int;
}

extern "C" fn release() {
    if let Ok(mut keeper) = KEEPER.try_lock() {
        if let Some(mut child) = keeper.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Makes sure one connection to `$DISPLAY` stays open until the test binary exits, so the
/// server does not reset between windows. Panics with the reason if none can be opened.
pub fn hold_open() {
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "this test opens a real window: run the suite under `xvfb-run -a cargo test` (see README)"
    );
    let mut keeper = KEEPER.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(child) = keeper.as_mut() {
        if matches!(child.try_wait(), Ok(None)) {
            return;
        }
    }
    let first = keeper.is_none();
    let deadline = Instant::now() + RETRY_FOR;
    loop {
        let mut child = Command::new("xdotool")
            .args(["sleep", KEEPER_SECONDS])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("xdotool runs (apt-get install xdotool)");
        // A refused connection makes xdotool exit at once; one that is still asleep is held.
        std::thread::sleep(Duration::from_millis(250));
        if matches!(child.try_wait(), Ok(None)) {
            *keeper = Some(child);
            break;
        }
        assert!(Instant::now() < deadline, "no connection to the X display could be held open");
        std::thread::sleep(Duration::from_millis(250));
    }
    if first {
        // SAFETY: `release` is a plain function that only touches the static above.
        unsafe { atexit(release) };
    }
}

/// Whether a start failed because the X server refused the connection (the reset above).
pub fn refused(stderr: &str) -> bool {
    stderr.contains("XOpenDisplay")
}

/// Runs a command that opens a window to its end, holding the display open and running it
/// again while the server refuses it; returns the last run's output.
pub fn output(mut command: impl FnMut() -> Command) -> Output {
    hold_open();
    let deadline = Instant::now() + RETRY_FOR;
    loop {
        let out = command().output().expect("the binary runs");
        if out.status.success() || !refused(&String::from_utf8_lossy(&out.stderr)) || Instant::now() >= deadline {
            return out;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}
