//! `run --record FILE` (write a recording) and `replay FILE` (play one back and compare its
//! state hash).

use super::load;
use crate::app::script::{play_headless, ScriptPlayer};
use crate::app::state::App;
use crate::app::timeline::record::Recording;
use serde::Serialize;
use std::path::Path;

/// Exit code when a replay does not reach the recorded hash.
pub const MISMATCH: i32 = 4;

/// Runs the scene (its script first, then `steps` steps) in a windowless app and writes the
/// run as a recording.
pub fn record(path: &Path, steps: u32, set: &[String], script: Option<&Path>, out: &Path, json: bool) -> i32 {
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
    let rec = match Recording::load(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    // `--steps` past the recording's end stops at the end (there is nothing recorded after).
    let end = steps.map_or(rec.header.steps, |n| n.min(rec.header.steps));
    let mut progress = super::progress::Progress::new(end, "replaying", json);
    let app = rec.replay_with(Some(end), &mut |k| progress.set(k));
    progress.finish();
    let mut s = Summary::of(&rec, &app);
    let full = steps.is_none_or(|n| n >= rec.header.steps);
    s.matches &= full;
    print(&s, json);
    if full && !s.matches {
        MISMATCH
    } else {
        0
    }
}
