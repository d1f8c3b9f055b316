//! A progress bar for long headless runs (`run`, `run --record`, `replay`): drawn on stderr
//! with `indicatif` once a run has taken `PROGRESS_AFTER` (short runs print nothing), and
//! never with `--json` or when stdout or stderr is not a terminal (pipes, files, CI logs).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long a run goes before its bar appears.
const PROGRESS_AFTER: Duration = Duration::from_secs(2);
/// Milliseconds before the bar appears instead of `PROGRESS_AFTER` (tests use 0).
pub const AFTER_VAR: &str = "MANIFOLD_LAB_PROGRESS_AFTER_MS";

/// Progress over `total` steps.
pub struct Progress {
    total: u64,
    start: Instant,
    after: Duration,
    enabled: bool,
    label: &'static str,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// `quiet`: `--json` (the output is for a program).
    pub fn new(total: u64, label: &'static str, quiet: bool) -> Progress {
        let terminal = std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
        let after =
            std::env::var(AFTER_VAR).ok().and_then(|v| v.parse().ok()).map_or(PROGRESS_AFTER, Duration::from_millis);
        Progress { total, start: Instant::now(), after, enabled: terminal && !quiet, label, bar: None }
    }

    /// `done` steps of the total are done.
    pub fn set(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && self.start.elapsed() >= self.after {
            let bar = ProgressBar::with_draw_target(Some(self.total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} steps, eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_message(self.label);
            self.bar = Some(bar);
        }
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
    }

    /// Removes the bar before the report is printed.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
