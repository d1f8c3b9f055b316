//! The real app under test in its window, driven with real X events through `xdotool`
//! (pointer moves, clicks, drags, wheel notches, keys): it writes its state after every frame
//! (`--state-out`), which the tests read back (camera, selection, poses, step counter, lab
//! state). One window at a time (the X pointer is shared): tests take `lock()`.

use super::x_display;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};
static ONE_WINDOW: Mutex<()> = Mutex::new(());

/// The app under test, killed when dropped.
pub struct LiveApp {
    child: Child,
    state_path: PathBuf,
    pub window: String,
}

pub fn xdotool(args: &[&str]) -> String {
    let out = Command::new("xdotool").args(args).output().expect("xdotool runs (apt-get install xdotool)");
    assert!(out.status.success(), "xdotool {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl LiveApp {
    pub fn start(name: &str, args: &[&str]) -> LiveApp {
        x_display::hold_open();
        let state_path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("input_{name}.json"));
        let deadline = Instant::now() + x_display::RETRY_FOR;
        loop {
            match LiveApp::try_start(&state_path, args) {
                Ok(app) => return app,
                Err(stderr) if x_display::refused(&stderr) && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(500))
                }
                Err(stderr) => panic!("the app exited early:\n{stderr}"),
            }
        }
    }

    /// Starts the app and waits for its window and first frames; `Err(stderr)` if it exits.
    fn try_start(state_path: &Path, args: &[&str]) -> Result<LiveApp, String> {
        let _ = std::fs::remove_file(state_path);
        // No window of an earlier test may be left to confuse the search by name.
        let deadline = Instant::now() + Duration::from_secs(10);
        while !window_ids().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let child = Command::new(env!("CARGO_BIN_EXE_manifold-lab"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .arg("--state-out")
            .arg(state_path)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut app = LiveApp { child, state_path: state_path.to_path_buf(), window: String::new() };
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            if let (Some(s), Some(w)) = (app.try_state(), window_ids().pop()) {
                if s["frame"].as_u64().unwrap_or(0) >= 3 {
                    app.window = w;
                    return Ok(app);
                }
            }
            assert!(Instant::now() < deadline, "the window did not open and report its state");
            if let Ok(Some(_)) = app.child.try_wait() {
                let mut stderr = String::new();
                if let Some(mut e) = app.child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
                }
                return Err(stderr);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn try_state(&self) -> Option<Value> {
        let text = std::fs::read_to_string(&self.state_path).ok()?;
        serde_json::from_str(&text).ok()
    }

    pub fn state(&self) -> Value {
        self.try_state().expect("state file readable")
    }

    /// Waits until `n` more frames have been drawn, so every event sent so far was handled.
    pub fn settle(&self, n: u64) -> Value {
        let start = self.state()["frame"].as_u64().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let s = self.state();
            if s["frame"].as_u64().unwrap() >= start + n {
                return s;
            }
            assert!(Instant::now() < deadline, "the app stopped drawing frames");
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    pub fn move_to(&self, p: [f32; 2]) {
        xdotool(&["mousemove", "--window", &self.window, &fmt(p[0]), &fmt(p[1])]);
    }

    pub fn key(&self, key: &str) {
        xdotool(&["key", key]);
        self.settle(2);
    }

    /// A left drag along a straight line in `steps` moves, each one frame apart at least.
    pub fn drag(&self, from: [f32; 2], to: [f32; 2], steps: u32) {
        self.move_to(from);
        self.settle(2);
        xdotool(&["mousedown", "1"]);
        self.settle(2);
        for k in 1..=steps {
            let t = k as f32 / steps as f32;
            self.move_to([from[0] + t * (to[0] - from[0]), from[1] + t * (to[1] - from[1])]);
            self.settle(1);
        }
        self.settle(1);
        xdotool(&["mouseup", "1"]);
        self.settle(2);
    }
}

impl Drop for LiveApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn window_ids() -> Vec<String> {
    let out = Command::new("xdotool").args(["search", "--name", "^manifold-lab$"]).output();
    out.map(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().map(str::to_owned).collect()).unwrap_or_default()
}

pub fn fmt(x: f32) -> String {
    format!("{}", x.round() as i64)
}

pub fn lock() -> std::sync::MutexGuard<'static, ()> {
    ONE_WINDOW.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn f(v: &Value) -> f32 {
    v.as_f64().expect("a number") as f32
}

pub fn pair(v: &Value) -> [f32; 2] {
    [f(&v[0]), f(&v[1])]
}

/// World ↔ screen mapping of a state snapshot (as the app's `ViewCamera`).
pub struct View {
    pub vp_min: [f32; 2],
    pub vp_size: [f32; 2],
    pub center: [f32; 2],
    pub height: f32,
}

impl View {
    pub fn of(s: &Value) -> View {
        View {
            vp_min: pair(&s["viewport_min"]),
            vp_size: pair(&s["viewport_size"]),
            center: pair(&s["camera_center"]),
            height: f(&s["camera_height"]),
        }
    }
    pub fn scale(&self) -> f32 {
        self.height / self.vp_size[1]
    }
    pub fn vp_center(&self) -> [f32; 2] {
        [self.vp_min[0] + 0.5 * self.vp_size[0], self.vp_min[1] + 0.5 * self.vp_size[1]]
    }
    pub fn to_screen(&self, w: [f32; 2]) -> [f32; 2] {
        let (c, s) = (self.vp_center(), self.scale());
        [c[0] + (w[0] - self.center[0]) / s, c[1] - (w[1] - self.center[1]) / s]
    }
    pub fn to_world(&self, p: [f32; 2]) -> [f32; 2] {
        let (c, s) = (self.vp_center(), self.scale());
        [self.center[0] + (p[0] - c[0]) * s, self.center[1] - (p[1] - c[1]) * s]
    }
}

pub fn body<'a>(s: &'a Value, name: &str) -> &'a Value {
    s["bodies"].as_array().unwrap().iter().find(|b| b["name"] == name).unwrap_or_else(|| panic!("no body {name}"))
}
