//! Sharing from the command line: `screenshot --gif` renders frames in the real window
//! (under Xvfb in CI) and writes an animated GIF and a PNG sequence; `run` and `replay` show
//! a progress bar only on a terminal (a pseudo-terminal made by `script`) and never with
//! `--json` or into a pipe.

mod support;

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_manifold-lab");

fn out_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e_share").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn screenshot_writes_a_gif_and_pngs_of_n_frames_of_the_window() {
    let dir = out_dir("gif");
    let (gif_path, pngs) = (dir.join("rain.gif"), dir.join("frames"));
    let (w, h, n) = (480u16, 300u16, 7usize);
    let out = support::x_display::output(|| {
        let mut c = Command::new(BIN);
        c.args(["screenshot", "scenes/default.ron", "--frames", &n.to_string()])
            .args(["--width", &w.to_string(), "--height", &h.to_string()])
            .arg("--gif")
            .arg(&gif_path)
            .arg("--png-dir")
            .arg(&pngs);
        c
    });
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(std::fs::File::open(&gif_path).unwrap()).unwrap();
    assert_eq!((d.width(), d.height()), (w, h));
    let mut frames = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        assert_eq!((f.width, f.height), (w, h));
        frames.push(f.buffer.to_vec());
    }
    assert_eq!(frames.len(), n);
    // The world moves (shapes rain down): the first and last frames differ.
    let changed = frames[0].chunks(4).zip(frames[n - 1].chunks(4)).filter(|(a, b)| a != b).count();
    assert!(changed > 100, "only {changed} pixels changed");

    for k in 0..n {
        let img = image::open(pngs.join(format!("frame_{k:04}.png"))).unwrap().to_rgba8();
        assert_eq!((img.width(), img.height()), (w as u32, h as u32));
    }
    assert!(!pngs.join(format!("frame_{n:04}.png")).exists());
    // The GIF's last frame is the PNG's, up to its palette: the panels' dark background is
    // at the top left in both (rows are top first).
    let last = image::open(pngs.join(format!("frame_{:04}.png", n - 1))).unwrap().to_rgba8();
    let gif_px = &frames[n - 1][..4];
    let png_px = last.get_pixel(0, 0).0;
    for c in 0..3 {
        assert!((gif_px[c] as i32 - png_px[c] as i32).abs() < 24, "{gif_px:?} vs {png_px:?}");
    }
}

#[test]
fn screenshot_needs_an_output() {
    let out = Command::new(BIN).args(["screenshot", "scenes/default.ron"]).output().unwrap();
    assert!(!out.status.success());
}

/// Runs `args` with the bar allowed from the first step, stdout and stderr piped.
fn piped(args: &[&str]) -> (String, String) {
    let out = Command::new(BIN).args(args).env("MANIFOLD_LAB_PROGRESS_AFTER_MS", "0").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Runs `args` on a pseudo-terminal (`script`), returning all it printed there.
fn on_terminal(args: &[&str]) -> Option<String> {
    let cmd = std::iter::once(BIN).chain(args.iter().copied()).collect::<Vec<_>>().join(" ");
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("MANIFOLD_LAB_PROGRESS_AFTER_MS", "0")
        .output()
        .ok()?;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn run_and_replay_show_progress_on_a_terminal_only() {
    let run = ["run", "scenes/vertical_stack.ron", "--steps", "120"];
    let (stdout, stderr) = piped(&run);
    assert!(stdout.contains("state hash"));
    assert!(stderr.is_empty(), "a pipe got: {stderr:?}");
    assert!(!stdout.contains("steps, eta") && !stdout.contains('\r'));

    // `script` is part of util-linux; without it only the pipe half is checked.
    let Some(tty) = on_terminal(&run) else { return };
    assert!(tty.contains("running [") && tty.contains("/120 steps"), "no bar on a terminal: {tty:?}");
    assert!(tty.contains("state hash"));
    let tty_json = on_terminal(&["run", "scenes/vertical_stack.ron", "--steps", "120", "--json"]).unwrap();
    assert!(!tty_json.contains("steps, eta"), "--json drew a bar");
    assert!(tty_json.trim_start().starts_with('{'));

    let dir = out_dir("progress");
    let rec = dir.join("stack.mlrec");
    let rec_s = rec.to_str().unwrap();
    let (_, stderr) = piped(&["run", "scenes/vertical_stack.ron", "--steps", "90", "--record", rec_s]);
    assert!(stderr.is_empty(), "{stderr:?}");
    let (stdout, stderr) = piped(&["replay", rec_s]);
    assert!(stdout.contains("matches") && stderr.is_empty(), "{stdout} {stderr:?}");
    let tty = on_terminal(&["replay", rec_s]).unwrap();
    assert!(tty.contains("replaying [") && tty.contains("matches"), "{tty:?}");
}
