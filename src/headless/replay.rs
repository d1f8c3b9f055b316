//! `run --record FILE` (write a recording) and `replay FILE` (play one back and compare its
//! state hash), for 2D scenes and 3D worlds (`record3`; the file's `kind` tells them apart).

use super::load;
use crate::app::script::{play_headless, ScriptPlayer};
use crate::app::state::App;
use crate::app::timeline::record::{kind_of, Recording, RecordingKind};
use crate::app::timeline::record3::Recording3;
use manifold_lab::engine::world3d::World3;
use serde::Serialize;
use std::path::Path;

/// Exit code when a replay does not reach the recorded hash.
pub const MISMATCH: i32 = 4;

/// Runs the scene (its script first, then `steps` steps) in a windowless app and writes the
/// run as a recording.
pub fn record(path: &Path, steps: u32, set: &[String], script: Option<&Path>, out: &Path, json: bool) -> i32 {
    if super::world3d::is_3d(path) {
        if script.is_some() {
            eprintln!("--script: scripts drive 2D scenes; a 3D world is recorded from its file");
            return 2;
        }
        return record3(path, steps, set, out, json);
    }
    let scene = match load::scene(path, set) {
        Ok(s) => s,
        Err(e) => return e.report(),
    };
    let mut app = App::new(scene, Some(path.to_path_buf()));
    if let Some(script) = script {
        let player = match ScriptPlayer::load(script) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        };
        if let Err(e) = play_headless(&mut app, player) {
            eprintln!("{e}");
            return 3;
        }
    }
    let mut progress = super::progress::Progress::new(steps as u64, "recording", json);
    for k in 0..steps {
        progress.set(k as u64);
        app.step_once();
    }
    progress.finish();
    let rec = match app.recording() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if let Err(e) = rec.save(out) {
        eprintln!("{e}");
        return 1;
    }
    let summary = Summary::of(&rec, &app);
    print(&summary, json);
    0
}

/// `run --record` on a 3D world: its file (with `--set`) stepped `steps` times.
fn record3(path: &Path, steps: u32, set: &[String], out: &Path, json: bool) -> i32 {
    let spec = match load::world3d(path, set) {
        Ok(s) => s,
        Err(e) => return e.report(),
    };
    let rec = Recording3::record(spec, Some(path.to_path_buf()), steps as u64, Vec::new());
    let world = match rec.replay_with(None, &mut |_| {}) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return 1;
        }
    };
    if let Err(e) = rec.save(out) {
        eprintln!("{e}");
        return 1;
    }
    print(&Summary::of3(&rec, &world), json);
    0
}

/// What `replay` and `run --record` print.
#[derive(Serialize)]
struct Summary {
    scene: Option<String>,
    steps: u64,
    actions: usize,
    state_hash: String,
    recorded_hash: String,
    matches: bool,
    /// Every body's position, angle and velocities are finite numbers.
    finite_state: bool,
}

impl Summary {
    fn of3(rec: &Recording3, w: &World3) -> Summary {
        let hash = w.state_hash();
        Summary {
            scene: rec.header.scene_path.as_ref().map(|p| p.display().to_string()),
            steps: w.step_count,
            actions: rec.header.edits.len(),
            state_hash: format!("{hash:016x}"),
            recorded_hash: rec.header.final_hash.clone(),
            matches: hash == rec.final_hash(),
            finite_state: w.bodies.iter().all(|b| {
                b.center.is_finite()
                    && b.pose.q.is_finite()
                    && b.linear_velocity.is_finite()
                    && b.angular_velocity.is_finite()
            }),
        }
    }

    fn of(rec: &Recording, app: &App) -> Summary {
        let hash = app.world.state_hash();
        Summary {
            scene: rec.header.scene_path.as_ref().map(|p| p.display().to_string()),
            steps: app.world.step_count,
            actions: rec.header.actions.len(),
            state_hash: format!("{hash:016x}"),
            recorded_hash: rec.header.final_hash.clone(),
            matches: hash == rec.final_hash(),
            finite_state: app.world.bodies.iter().all(|b| {
                b.center.is_finite()
                    && b.angle.is_finite()
                    && b.linear_velocity.is_finite()
                    && b.angular_velocity.is_finite()
            }),
        }
    }
}

fn print(s: &Summary, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(s).unwrap_or_default());
    } else {
        println!("scene            {}", s.scene.as_deref().unwrap_or("(unnamed)"));
        println!("steps            {}", s.steps);
        println!("actions          {}", s.actions);
        println!("state hash       {}", s.state_hash);
        println!("recorded hash    {} ({})", s.recorded_hash, if s.matches { "matches" } else { "differs" });
    }
}

/// `manifold-lab replay FILE`: 0 when the replay reaches the recorded hash (or stops early
/// at `--steps`), `MISMATCH` when it does not.
pub fn replay(path: &Path, steps: Option<u64>, json: bool) -> i32 {
    let summary = manifold_lab::scene::read_text(path)
        .map_err(|e| e.to_string())
        .and_then(|text| kind_of(&text, &path.display().to_string()))
        .and_then(|kind| match kind {
            RecordingKind::Scene => replay2(path, steps, json),
            RecordingKind::World3d => replay3(path, steps, json),
        });
    let (mut s, recorded) = match summary {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    // `--steps` past the recording's end stops at the end (there is nothing recorded after).
    let full = steps.is_none_or(|n| n >= recorded);
    s.matches &= full;
    print(&s, json);
    if full && !s.matches {
        MISMATCH
    } else {
        0
    }
}

/// A 2D replay's summary and the recording's length.
fn replay2(path: &Path, steps: Option<u64>, json: bool) -> Result<(Summary, u64), String> {
    let rec = Recording::load(path)?;
    let end = steps.map_or(rec.header.steps, |n| n.min(rec.header.steps));
    let mut progress = super::progress::Progress::new(end, "replaying", json);
    let app = rec.replay_with(Some(end), &mut |k| progress.set(k));
    progress.finish();
    Ok((Summary::of(&rec, &app), rec.header.steps))
}

/// A 3D replay's summary and the recording's length.
fn replay3(path: &Path, steps: Option<u64>, json: bool) -> Result<(Summary, u64), String> {
    let rec = Recording3::load(path)?;
    let end = steps.map_or(rec.header.steps, |n| n.min(rec.header.steps));
    let mut progress = super::progress::Progress::new(end, "replaying", json);
    let w = rec.replay_with(Some(end), &mut |k| progress.set(k)).map_err(|e| format!("{}: {e}", path.display()))?;
    progress.finish();
    Ok((Summary::of3(&rec, &w), rec.header.steps))
}
