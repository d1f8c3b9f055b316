//! manifold-lab: open the debugger window on a scene, or run headless.

mod app;
mod headless;

use app::lab::LabKind;
use app::script::ScriptPlayer;
use app::state::{Action, App};
use clap::{Parser, Subcommand};
use manifold_lab::scene;
use std::path::{Path, PathBuf};

/// The scene opened when none is named.
const DEFAULT_SCENE: &str = "scenes/default.ron";

#[derive(Parser)]
#[command(
    name = "manifold-lab",
    version,
    about = "An interactive visual debugger for 2D collision detection and rigid-body physics"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Scene file to open in the window (default: scenes/default.ron); with --lab, a pair file.
    scene: Option<PathBuf>,
    /// Open a lab instead of a scene.
    #[arg(long, value_enum)]
    lab: Option<LabKind>,
    /// Write the app's state (camera, selection, step, frame time ...) as JSON to this file
    /// after every frame, for tests that drive the window with real input.
    #[arg(long, value_name = "FILE")]
    state_out: Option<PathBuf>,
    /// Pause this many milliseconds after every frame: the window runs at a low frame rate, to
    /// try the input as a slow machine would see it.
    #[arg(long, value_name = "MS")]
    frame_delay: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Step a scene without a window and print a report.
    Run {
        scene: PathBuf,
        /// Number of steps (after the script, if any; default 600, or 0 with a script), at most
        /// `scene::input_limits::MAX_STEPS`.
        #[arg(long, value_parser = clap::value_parser!(u32).range(..=scene::input_limits::MAX_STEPS as i64))]
        steps: Option<u32>,
        /// RON list of scripted steps, played first as `screenshot` plays them (see docs/cli.md).
        #[arg(long)]
        script: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Override a solver setting, in scene syntax (repeatable): `--set continuous=false`,
        /// `--set hz=120`, `--set gravity=(0,-9.8)`, `--set position_correction=Projection`.
        #[arg(long = "set", value_name = "FIELD=VALUE")]
        set: Vec<String>,
        /// Run the scene twice, and once from a serialized mid-run snapshot, and report the
        /// first step and body where a run diverges, or "deterministic" (exit code 4 if not).
        #[arg(long, conflicts_with = "script")]
        check_determinism: bool,
        /// Write the run (the scene, its parameters and the script's edits stamped with their
        /// steps) as a `.mlrec` recording.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Replay a `.mlrec` recording and check that it reaches its recorded state hash
    /// (exit code 4 if not).
    Replay {
        file: PathBuf,
        /// Stop after this many steps (default: the recording's end), at most
        /// `scene::input_limits::MAX_STEPS`.
        #[arg(long, value_parser = clap::value_parser!(u64).range(..=scene::input_limits::MAX_STEPS))]
        steps: Option<u64>,
        #[arg(long)]
        json: bool,
    },
    /// Step a scene in our engine and in peer engines (Box2D v3, rapier2d) in lockstep and
    /// report each one's time per step, how far its bodies end from ours, the first step past
    /// the tolerance and what its translation skipped.
    #[cfg(feature = "peers")]
    Compare {
        scene: PathBuf,
        /// Number of steps, at most `scene::input_limits::MAX_STEPS`.
        #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..=scene::input_limits::MAX_STEPS as i64))]
        steps: u32,
        /// Comma-separated engines: ours, box2d, rapier (ours is always run: it is the reference).
        #[arg(long, default_value = "ours,box2d,rapier")]
        engines: String,
        /// Position difference (metres) from which a peer counts as diverged.
        #[arg(long, default_value_t = 0.01)]
        tolerance: f32,
        /// Also list every dynamic body's difference.
        #[arg(long)]
        per_body: bool,
        #[arg(long)]
        json: bool,
        /// Override a solver setting, in scene syntax (repeatable), as `run --set`.
        #[arg(long = "set", value_name = "FIELD=VALUE")]
        set: Vec<String>,
    },
    /// Open the window, play a script, render frames and write a PNG.
    Screenshot {
        /// Scene file (default: scenes/default.ron); with --lab, a pair file.
        scene: Option<PathBuf>,
        /// Render a lab instead of a scene.
        #[arg(long, value_enum)]
        lab: Option<LabKind>,
        /// Frames to render after the script finishes (one simulation step per frame when running).
        #[arg(long, default_value_t = 1)]
        frames: u32,
        /// Output PNG (the last frame).
        #[arg(long, required_unless_present_any = ["gif", "png_dir"])]
        out: Option<PathBuf>,
        /// Also write every frame after the script (`--frames` of them) as an animated GIF.
        #[arg(long, value_name = "FILE")]
        gif: Option<PathBuf>,
        /// Also write every frame after the script as `frame_0000.png` ... in this folder.
        #[arg(long, value_name = "DIR")]
        png_dir: Option<PathBuf>,
        /// RON list of scripted steps (see docs/cli.md).
        #[arg(long)]
        script: Option<PathBuf>,
        #[arg(long, default_value_t = 1280)]
        width: i32,
        #[arg(long, default_value_t = 720)]
        height: i32,
    },
    /// Validate files the app opens (scenes, 3D worlds, lab presets, recordings), each told by
    /// its content; prints each error as file:line:column and exits non-zero on any.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// The app on a scene, or on a lab with a pair file (the lab's default pair if none).
fn open_app(scene: Option<&Path>, lab: Option<LabKind>) -> Result<App, String> {
    if let Some(path) = scene.filter(|p| app::timeline::record::is_recording(p) && lab.is_none()) {
        return app::timeline::record::Recording::load(path).map(|r| r.replay(None));
    }
    // A lab's preset named without --lab opens in its lab.
    let kind_of_file = scene.filter(|_| lab.is_none()).and_then(|p| match app::files::kind::FileKind::of(p) {
        Ok(app::files::kind::FileKind::Lab(kind)) => Some(kind),
        _ => None,
    });
    let Some(kind) = lab.or(kind_of_file) else {
        return App::from_path(scene.unwrap_or(Path::new(DEFAULT_SCENE)));
    };
    let mut app =
        App::from_path(Path::new(DEFAULT_SCENE)).unwrap_or_else(|_| App::new(scene::Scene::new("empty"), None));
    app.apply(Action::OpenLab { kind, file: scene.map(Path::to_path_buf) });
    match app.error.take() {
        Some(e) => Err(e),
        None => Ok(app),
    }
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Run { scene, steps, check_determinism: true, json, set, .. }) => {
            std::process::exit(headless::determinism::check(&scene, steps.unwrap_or(600), json, &set))
        }
        Some(Command::Run { scene, steps, script, json, set, record: Some(out), .. }) => {
            let steps = steps.unwrap_or(if script.is_some() { 0 } else { 600 });
            std::process::exit(headless::replay::record(&scene, steps, &set, script.as_deref(), &out, json))
        }
        Some(Command::Run { scene, steps, script, json, set, .. }) => {
            let steps = steps.unwrap_or(if script.is_some() { 0 } else { 600 });
            std::process::exit(headless::run(&scene, steps, json, &set, script.as_deref()))
        }
        Some(Command::Replay { file, steps, json }) => std::process::exit(headless::replay::replay(&file, steps, json)),
        Some(Command::Check { files }) => std::process::exit(headless::check(&files)),
        #[cfg(feature = "peers")]
        Some(Command::Compare { scene, steps, engines, tolerance, per_body, json, set }) => {
            let engines = engines.split(',').map(manifold_lab::peers::Engine::parse).collect::<Result<Vec<_>, _>>();
            let engines = engines.unwrap_or_else(|e| {
                eprintln!("--engines: {e}");
                std::process::exit(2)
            });
            if !(tolerance.is_finite() && tolerance > 0.0) {
                eprintln!("--tolerance must be a positive number of metres, got {tolerance}");
                std::process::exit(2)
            }
            let opts = headless::compare::CompareOptions { steps, engines, tolerance, per_body, json };
            std::process::exit(headless::compare::compare(&scene, &set, &opts))
        }
        Some(Command::Screenshot { scene, lab, frames, out, gif, png_dir, script, width, height }) => {
            let app = open_app(scene.as_deref(), lab).unwrap_or_else(|e| fail(&e));
            let script = script.map(|p| ScriptPlayer::load(&p).unwrap_or_else(|e| fail(&e)));
            let shot = app::Shot { frames, out, gif, png_dir, script };
            app::heap::keep_freed_memory();
            macroquad::Window::from_config(
                app::window_conf(width, height, false),
                app::run(app, Some(shot), Default::default()),
            );
        }
        None => {
            let app = match open_app(cli.scene.as_deref(), cli.lab) {
                Ok(app) => app,
                Err(e) if cli.scene.is_some() || cli.lab.is_some() => fail(&e),
                Err(e) => {
                    eprintln!("{e}\nopening an empty world instead");
                    App::new(scene::Scene::new("empty"), None)
                }
            };
            let live = app::Live {
                state_out: cli.state_out,
                frame_delay: cli.frame_delay.map(std::time::Duration::from_millis),
            };
            app::heap::keep_freed_memory();
            macroquad::Window::from_config(app::window_conf(1280, 720, true), app::run(app, None, live));
        }
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("{msg}");
    std::process::exit(1);
}
